package main

import (
	"bytes"
	"errors"
	"flag"
	"image/gif"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseSnap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		wantErr string // "" = ok
		command []string
	}{
		{[]string{"--", "ls", "--color=always", "/"}, "", []string{"ls", "--color=always", "/"}},
		{[]string{"-o", "x.png", "--cols", "80", "--rows", "24", "--theme", "nord", "ls"}, "", []string{"ls"}},
		{[]string{"--wait-for", "/ready\\d/", "--timeout", "2s", "--", "sh", "-c", "echo ready1"}, "", []string{"sh", "-c", "echo ready1"}},
		{nil, "no command", nil},
		{[]string{"-o", "x.png"}, "no command", nil},
		{[]string{"-o", "", "ls"}, "-o is empty", nil},
		{[]string{"--scale", "9", "ls"}, "--scale 9", nil},
		{[]string{"--timeout", "0s", "ls"}, "--timeout", nil},
		{[]string{"--theme", "nope", "ls"}, "--theme", nil},
		{[]string{"--cols", "0", "ls"}, "", nil},
		{[]string{"--wait-for", "/(/", "ls"}, "--wait-for", nil},
		{[]string{"--no-such-flag", "ls"}, "snap -h", nil},
	}
	for _, tt := range tests {
		o, err := parseSnap(tt.args, &bytes.Buffer{})
		switch {
		case tt.command == nil && err == nil:
			t.Errorf("parseSnap(%q) succeeded, want an error", tt.args)
		case tt.command == nil && !strings.Contains(err.Error(), tt.wantErr):
			t.Errorf("parseSnap(%q) error %q, want it to mention %q", tt.args, err, tt.wantErr)
		case tt.command != nil && err != nil:
			t.Errorf("parseSnap(%q): %v", tt.args, err)
		case tt.command != nil && strings.Join(o.command, " ") != strings.Join(tt.command, " "):
			t.Errorf("parseSnap(%q) command %q, want %q", tt.args, o.command, tt.command)
		}
	}
	var usage bytes.Buffer
	if _, err := parseSnap([]string{"-h"}, &usage); !errors.Is(err, flag.ErrHelp) || !strings.Contains(usage.String(), "--wait-for") {
		t.Errorf("-h: %v, usage %q", err, usage.String())
	}
}

// runSnapTest runs the subcommand and returns its status and output.
func runSnapTest(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := snapMain(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestSnapRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "shot.png")
	gifOut := filepath.Join(dir, "run.gif")
	tests := []struct {
		name   string
		args   []string
		code   int
		report string // in stdout (code 0) or stderr
		gif    bool
	}{
		{"exit", []string{"--cols", "40", "--rows", "10", "--", "printf", `hello \033[31mred\033[0m\n`}, 0, "exited with status 0", false},
		{"gif", []string{"--cols", "40", "--rows", "10", "--gif", gifOut, "--", "sh", "-c", "echo one; sleep 0.2; echo two"}, 0, "frames", true},
		{"wait-for", []string{"--cols", "40", "--rows", "10", "--wait-for", "READY", "--", "sh", "-c", "echo start; sleep 0.2; echo READY; exec sleep 60"}, 0, `shows "READY"`, false},
		// MORE comes a moment after READY, by a loop of builtins: sleep
		// 0.02 (a fork and an exec) took longer than snap's 100 ms settle
		// on a loaded machine.
		{"wait-for-settles", []string{"--cols", "40", "--rows", "10", "--trim", "--wait-for", "READY", "--", "sh", "-c", "echo READY; i=0; while [ $i -lt 500 ]; do i=$((i+1)); done; echo MORE; exec sleep 60"}, 0, "40x3 cells", false},
		{"regex", []string{"--cols", "40", "--rows", "10", "--wait-for", "/rea+dy/i", "--", "sh", "-c", "echo start; sleep 0.2; echo ReaaDY; exec sleep 60"}, 0, "shows", false},
		{"prompt", []string{"--cols", "40", "--rows", "10", "--wait-for", "$ ", "--", "sh", "-c", "printf 'go on\\n$ '; exec sleep 60"}, 0, "shows", false},
		{"idle", []string{"--cols", "40", "--rows", "10", "--idle", "100ms", "--", "sh", "-c", "echo quiet; exec sleep 60"}, 0, "no output for", false},
		{"timeout", []string{"--cols", "40", "--rows", "10", "--wait-for", "NEVER", "--timeout", "300ms", "--", "sh", "-c", "echo nope; exec sleep 60"}, 1, "never appeared", false},
		{"exit-code", []string{"--cols", "40", "--rows", "10", "--", "sh", "-c", "echo failing; exit 3"}, 0, "exited with status 3", false},
		{"trim", []string{"--cols", "40", "--rows", "10", "--trim", "--", "printf", `one\ntwo\n`}, 0, "40x3 cells", false},
		{"no-such-command", []string{"--", "ttywright-no-such-command"}, 1, "ttywright-no-such-command", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(out)
			code, stdout, stderr := runSnapTest(t, append([]string{"-o", out}, tt.args...)...)
			if code != tt.code || !strings.Contains(stdout+stderr, tt.report) {
				t.Fatalf("status %d, stdout %q, stderr %q; want status %d and %q", code, stdout, stderr, tt.code, tt.report)
			}
			if tt.name == "no-such-command" {
				return
			}
			f, err := os.Open(out)
			if err != nil {
				t.Fatalf("no screenshot: %v", err)
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); !strings.Contains(tt.name, "trim") && !strings.Contains(tt.name, "settles") && (b.Dx() != 40*8*2 || b.Dy() != 10*16*2) {
				t.Errorf("screenshot is %v, want 640x320 (40x10 cells at scale 2)", b)
			}
			if b := img.Bounds(); tt.name == "trim" && (b.Dx() != 40*8*2 || b.Dy() != 3*16*2) {
				t.Errorf("trimmed screenshot is %v, want 640x96 (two lines and the cursor row)", b)
			}
			if tt.gif {
				g, err := os.Open(gifOut)
				if err != nil {
					t.Fatal(err)
				}
				defer g.Close()
				anim, err := gif.DecodeAll(g)
				if err != nil {
					t.Fatal(err)
				}
				if len(anim.Image) < 2 {
					t.Errorf("GIF has %d frames, want the output appearing over several", len(anim.Image))
				}
			}
		})
	}
}

// TestSnapWritesThroughLinks: -o naming a symlink (as /dev/stdout is one)
// writes the PNG where the link points and leaves the link in place; the
// temporary-file-and-rename path would replace the link itself.
func TestSnapWritesThroughLinks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	target := filepath.Join(dir, "target.png")
	link := filepath.Join(dir, "link.png")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	code, stdout, stderr := runSnapTest(t, "-o", link, "--cols", "20", "--rows", "2", "--", "echo", "hi")
	if code != 0 {
		t.Fatalf("snap -o %s: status %d, stdout %q, stderr %q", link, code, stdout, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after snap -o %s: the link is gone (%v, %v)", link, fi.Mode(), err)
	}
	f, err := os.Open(target)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.DecodeConfig(f); err != nil {
		t.Errorf("the link's target holds no PNG: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".snap-*")); len(left) != 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// TestSnapIsStdout: the report moves to stderr when the PNG goes to the
// file standard output points at (-o - or -o /dev/stdout).
func TestSnapIsStdout(t *testing.T) {
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	saved := os.Stdout
	os.Stdout = out
	defer func() { os.Stdout = saved }()
	tests := []struct {
		path string
		want bool
	}{
		{out.Name(), true},
		{filepath.Join(dir, "other.png"), false},
		{"", false},
	}
	for _, tt := range tests {
		if got := isStdout(tt.path); got != tt.want {
			t.Errorf("isStdout(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestSnapWaits: by default snap waits for the command to exit, so a
// slow command is photographed with all its output and its GIF lasts the
// whole run; --idle never fires before the first output; a command that
// never prints times out with status 1 and says so; --trim crops the GIF
// like the PNG.
func TestSnapWaits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	six := `for i in 1 2 3 4 5 6; do echo line $i; sleep 0.5; done`
	tests := []struct {
		name   string
		args   []string
		code   int
		report string   // in stdout or stderr
		rows   []string // rows the screen shows
		gifMin time.Duration
	}{
		{"slow", []string{"--", "sh", "-c", "sleep 1; echo done"}, 0, "exited with status 0", []string{"done"}, 0},
		{"six lines", []string{"--gif", filepath.Join(dir, "six.gif"), "--", "sh", "-c", six}, 0, "exited with status 0",
			[]string{"line 1", "line 2", "line 3", "line 4", "line 5", "line 6"}, 2500 * time.Millisecond},
		{"idle after output", []string{"--idle", "200ms", "--", "sh", "-c", "sleep 0.7; echo late; exec sleep 60"}, 0, "no output for 200ms", []string{"late"}, 0},
		{"delay", []string{"--wait-for", "FIRST", "--delay", "1s", "--", "sh", "-c", "echo FIRST; sleep 0.2; echo SECOND; exec sleep 60"}, 0, "then 1s more", []string{"FIRST", "SECOND"}, 0},
		{"never prints", []string{"--timeout", "1s", "--", "sleep", "60"}, 1, "timed out after 1s: sleep printed nothing", nil, 0},
		{"gif trim", []string{"--trim", "--gif", filepath.Join(dir, "trim.gif"), "--", "sh", "-c", "echo one; sleep 0.3; echo two"}, 0, "40x3 cells", []string{"one", "two"}, 300 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"-o", filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".png"), "--cols", "40", "--rows", "10"}, tt.args...)
			o, err := parseSnap(args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			report, text, err := snap(o) // snapMain prints report and err, and exits 1 on err
			code := 0
			if err != nil {
				code = 1
				report += "\n" + err.Error()
			}
			if code != tt.code || !strings.Contains(report, tt.report) {
				t.Fatalf("status %d, report %q; want status %d and %q", code, report, tt.code, tt.report)
			}
			if !strings.Contains(text, strings.Join(tt.rows, "\n")) {
				t.Errorf("screen %q, want the rows %q", text, tt.rows)
			}
			if o.gif == "" {
				return
			}
			g, err := os.Open(o.gif)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			anim, err := gif.DecodeAll(g)
			if err != nil {
				t.Fatal(err)
			}
			var d time.Duration
			for _, cs := range anim.Delay {
				d += time.Duration(cs) * 10 * time.Millisecond
			}
			if d < tt.gifMin || len(anim.Image) < len(tt.rows) {
				t.Errorf("GIF lasts %v in %d frames, want at least %v and %d frames", d, len(anim.Image), tt.gifMin, len(tt.rows))
			}
			if o.trim && anim.Config.Height != 3*16*2 {
				t.Errorf("trimmed GIF is %d pixels high, want %d (3 rows)", anim.Config.Height, 3*16*2)
			}
		})
	}
}

// TestSnapAppendsToStdout: with standard output appended to a file
// (ttywright snap -o - >> f), the PNG or GIF goes after what the file
// held, written to the inherited descriptor, not to the path reopened
// and truncated; -o naming that same file does the same.
func TestSnapAppendsToStdout(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args func(path string) []string
		sig  string
	}{
		{"-o -", func(string) []string { return []string{"-o", "-"} }, "\x89PNG"},
		{"-o the file", func(p string) []string { return []string{"-o", p} }, "\x89PNG"},
		{"--gif the file", func(p string) []string { return []string{"-o", filepath.Join(dir, "x.png"), "--gif", p} }, "GIF89a"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "f")
			if err := os.WriteFile(path, []byte("precious\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			saved := os.Stdout
			os.Stdout = out
			defer func() { os.Stdout = saved }()
			args := append(tt.args(path), "--cols", "20", "--rows", "2", "--", "echo", "hi")
			if code, stdout, stderr := runSnapTest(t, args...); code != 0 || !strings.Contains(stderr, "wrote standard output") {
				t.Fatalf("snap %q: status %d, stdout %q, stderr %q", args, code, stdout, stderr)
			}
			b, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(b), "precious\n"+tt.sig) {
				t.Errorf("the file starts %q, want what it held and then the picture", b[:min(len(b), 16)])
			}
		})
	}
	if code, _, stderr := runSnapTest(t, "-o", "-", "--gif", "-", "--", "true"); code != 2 || !strings.Contains(stderr, "both name standard output") {
		t.Errorf("-o - --gif -: status %d, %q, want a usage error", code, stderr)
	}
}
