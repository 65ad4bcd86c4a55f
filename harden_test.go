package main

// harden_test.go: deliberate attempts to break the server:
// capture names and URIs that try to leave the output directory, planted
// symlinks and hard links, unsafe output directories, oversized screens,
// and FuzzCaptureName. The process, flood, limit and concurrency tests
// that need real programs are in harden_pty_test.go. SECURITY.md names
// each test and the guarantee it checks.

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/gif"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hostileNames are capture names (and URI segments) that try to name a
// file outside the session's directory, or to smuggle bytes into it.
var hostileNames = []string{
	"..", ".", "../x", "../../etc/passwd", "..%2f..%2fx", "%2e%2e", "%2e%2e%2fx", "a/b", `a\b`, "/etc/passwd",
	"/tmp/ttywright-escape", "~/x", "$HOME", "x\x00y", "x\x00", "x\ny", "x\r", "\n", " ", "",
	"\t..", ".hidden", "a..b", "a/../b", "C:\\x", "con", "x.png/..", "dirlink/x", "link", "link.png",
	"session-link", "ok-name", "ok.name.png", "ok.gif", "x.png.part", strings.Repeat("a", maxNameLen),
	strings.Repeat("a", maxNameLen+1), strings.Repeat("a", 4096), strings.Repeat("../", 100) + "x",
	"\u2024\u2024", "\uff0e\uff0e", "\u2215x", "\xff\xfe", "a\u0000b", "%00", "x?y", "x#y", "x%", "x%zz",
}

// tree lists every file under root with its contents, for before and
// after comparisons (symlinks by their target).
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			m[rel] = "-> " + target
		case d.IsDir():
			m[rel+"/"] = ""
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// hygieneApp returns an App whose output directory is base/out (not yet
// created) with a session s1, and base/outside, a directory with one file
// that nothing may touch.
func hygieneApp(t *testing.T) (a *App, base, outside string) {
	t.Helper()
	base = t.TempDir()
	outside = filepath.Join(base, "outside")
	if err := os.Mkdir(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	a = newApp(Config{Theme: "one-dark", Cols: 20, Rows: 4, Scale: 1, OutputDir: filepath.Join(base, "out")})
	s := addRecSession(a, "s1", 20, 4)
	s.term.Write([]byte("hello"))
	return a, base, outside
}

// TestCaptureFSHygiene tries every hostile name as a screenshot and a
// recording name, with symlinks and a hard link planted in the output
// directory pointing outside: nothing outside the output directory may
// change, every file created must sit in the session's directory, and the
// directories are created 0700.
func TestCaptureFSHygiene(t *testing.T) {
	t.Parallel()
	a, base, outside := hygieneApp(t)
	out := a.cfg.OutputDir
	secret := filepath.Join(outside, "secret")

	// The first capture creates the output directory: 0700, as is the
	// session's directory.
	if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"first"}`); r.IsError {
		t.Fatalf("first screenshot: %s", r.Text)
	}
	for _, d := range []string{out, filepath.Join(out, "s1")} {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o700 {
			t.Errorf("%s has mode %04o, want 0700", d, fi.Mode().Perm())
		}
	}
	files, _ := filepath.Glob(filepath.Join(out, "s1", "first.*"))
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil {
			t.Error(err)
		} else if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %04o, want 0600", f, fi.Mode().Perm())
		}
	}
	if len(files) != 4 {
		t.Errorf("first screenshot wrote %v, want png, svg, ansi and txt", files)
	}

	// Plant links: at a capture's final name, at its part-file name, as a
	// directory inside the session's directory, as a whole session
	// directory (session-link), and a hard link to the outside file at a
	// part-file name (same file system: both are under base).
	plant := func(target, at string) {
		if err := os.Symlink(target, filepath.Join(out, at)); err != nil {
			t.Fatal(err)
		}
	}
	plant(secret, "s1/link.png")
	plant(secret, "s1/link.png.part")
	plant(filepath.Join(outside, "new"), "s1/link.svg.part")
	plant(outside, "s1/dirlink")
	plant(outside, "session-link")
	plant("../../outside/secret", "s1/rel.png")
	if err := os.Link(secret, filepath.Join(out, "s1", "hard.png.part")); err != nil {
		t.Fatal(err)
	}
	addRecSession(a, "session-link", 20, 4)

	names := append(append(hostileNames, "rel", "hard"), corpusStrings(t, "FuzzCaptureName")...)
	before := tree(t, outside)
	for i, name := range names {
		arg, _ := marshalJSON(name)
		for _, id := range []string{"s1", "session-link"} {
			callTool(t, a, "shell_screenshot", `{"session_id":"`+id+`","name":`+string(arg)+`}`)
			if i >= len(hostileNames)+2 {
				continue // corpus names: the screenshot path suffices (same cleanName)
			}
			if r := callTool(t, a, "shell_record_start", `{"session_id":"`+id+`","name":`+string(arg)+`}`); !r.IsError {
				callTool(t, a, "shell_record_stop", `{"session_id":"`+id+`","format":"both"}`)
			}
			if r := callTool(t, a, "shell_record_start", `{"session_id":"`+id+`"}`); !r.IsError {
				callTool(t, a, "shell_record_stop", `{"session_id":"`+id+`","name":`+string(arg)+`}`)
			}
		}
	}
	after := tree(t, outside)
	if len(after) != len(before) {
		t.Errorf("files outside the output directory changed:\nbefore %q\nafter  %q", before, after)
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s outside the output directory changed: %q -> %q", k, v, after[k])
		}
	}
	// Everything the server made is a regular file directly in s1 with an
	// allowed name; the planted links are either untouched or replaced.
	for rel := range tree(t, base) {
		if strings.HasPrefix(rel, "outside") || rel == "./" || rel == "out/" || rel == "out/s1/" {
			continue
		}
		dir, file := filepath.Split(rel)
		if dir != "out/s1/" && rel != "out/session-link" {
			t.Errorf("unexpected file %s", rel)
			continue
		}
		if _, err := cleanName(strings.TrimSuffix(file, filepath.Ext(file)), ""); err != nil && file != "" {
			t.Errorf("file %s has a name cleanName refuses: %v", rel, err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Error("a dangling symlink's target outside was created")
	}

	// Reading back: every hostile name in a resource URI, raw and
	// percent-encoded, and every URI of FuzzResourceURI's corpus, is not
	// found or is a capture file the server wrote.
	for _, uri := range corpusStrings(t, "FuzzResourceURI") {
		if c, err := a.hub.readResource(uri); err == nil && c.Blob != nil {
			if b, _ := base64.StdEncoding.DecodeString(*c.Blob); string(b) == "secret" {
				t.Errorf("%q read the file outside the output directory", uri)
			}
		}
	}
	for _, name := range append(hostileNames, "link", "rel", "hard", "dirlink") {
		for _, seg := range []string{name, pathEscapeAll(name)} {
			for _, kind := range []string{"screenshots", "recordings"} {
				for _, id := range []string{"s1", "session-link", "..", "%2e%2e", seg} {
					uri := "session://" + id + "/" + kind + "/" + seg
					c, err := a.hub.readResource(uri)
					if err != nil {
						if rpcCode(err) != codeResourceNotFound {
							t.Errorf("%q: %v, want -32002", uri, err)
						}
						continue
					}
					if c.Blob != nil {
						b, _ := base64.StdEncoding.DecodeString(*c.Blob)
						if string(b) == "secret" {
							t.Errorf("%q read the file outside the output directory", uri)
						}
					}
				}
			}
		}
	}
}

// corpusStrings returns the string values in the committed seed corpus
// of a fuzz target (testdata/fuzz/NAME), so the file-system checks try
// every input the fuzzers found interesting.
func corpusStrings(t *testing.T, target string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(b)) {
			if q, ok := strings.CutPrefix(strings.TrimSpace(line), "string("); ok {
				if v, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
					out = append(out, v)
				}
			}
		}
	}
	if len(files) == 0 {
		t.Fatalf("no corpus in testdata/fuzz/%s", target)
	}
	return out
}

// pathEscapeAll percent-encodes every byte of s.
func pathEscapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[s[i]>>4])+string("0123456789abcdef"[s[i]&15])))
	}
	return b.String()
}

// TestOutputDirUnsafe: an output directory that other users can write, or
// that belongs to someone else (as root: chowned to nobody), is refused
// with a message naming the fix, and nothing is written into it.
func TestOutputDirUnsafe(t *testing.T) {
	t.Parallel()
	t.Run("world-writable", func(t *testing.T) {
		a, _, _ := hygieneApp(t)
		if err := os.Mkdir(a.cfg.OutputDir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.Chmod(a.cfg.OutputDir, 0o777)
		r := callTool(t, a, "shell_screenshot", `{"session_id":"s1"}`)
		if !r.IsError || !strings.Contains(r.Text, "writable by other users") || !strings.Contains(r.Text, "chmod 700") {
			t.Errorf("world-writable output directory: %s", resultText(r))
		}
		if entries, _ := os.ReadDir(a.cfg.OutputDir); len(entries) != 0 {
			t.Errorf("wrote into it: %v", entries)
		}
	})
	t.Run("shared like /tmp", func(t *testing.T) {
		// --output-dir /tmp: "chmod 700 it" would break the machine's /tmp.
		a, _, _ := hygieneApp(t)
		if err := os.Mkdir(a.cfg.OutputDir, 0o700); err != nil {
			t.Fatal(err)
		}
		os.Chmod(a.cfg.OutputDir, 0o777|os.ModeSticky)
		r := callTool(t, a, "shell_screenshot", `{"session_id":"s1"}`)
		want := "--output-dir " + filepath.Join(a.cfg.OutputDir, "ttywright")
		if !r.IsError || !strings.Contains(r.Text, want) || strings.Contains(r.Text, "chmod") || strings.Contains(r.Text, "check --output-dir") {
			t.Errorf("shared output directory: %s, want the advice %q and no chmod", resultText(r), want)
		}
	})
	t.Run("group-writable is accepted", func(t *testing.T) {
		a, _, _ := hygieneApp(t)
		os.Mkdir(a.cfg.OutputDir, 0o700)
		os.Chmod(a.cfg.OutputDir, 0o775) // umask 002 with user-private groups
		if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1"}`); r.IsError {
			t.Errorf("group-writable output directory: %s", r.Text)
		}
	})
	t.Run("in a world-writable parent", func(t *testing.T) {
		a, base, _ := hygieneApp(t)
		os.Chmod(base, 0o777)
		r := callTool(t, a, "shell_screenshot", `{"session_id":"s1"}`)
		if !r.IsError || !strings.Contains(r.Text, "not sticky") {
			t.Errorf("output directory in a world-writable parent: %s", resultText(r))
		}
		os.Chmod(base, 0o777|os.ModeSticky) // like /tmp
		if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1"}`); r.IsError {
			t.Errorf("output directory in a sticky parent: %s", r.Text)
		}
	})
	t.Run("symlink to elsewhere is followed when it is mine", func(t *testing.T) {
		a, base, _ := hygieneApp(t)
		real := filepath.Join(base, "real")
		os.Mkdir(real, 0o700)
		os.Symlink(real, a.cfg.OutputDir)
		if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"x"}`); r.IsError {
			t.Fatalf("own symlinked output directory: %s", r.Text)
		}
		if _, err := os.Stat(filepath.Join(real, "s1", "x.png")); err != nil {
			t.Error(err)
		}
	})
	t.Run("another user's", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("needs root to give a directory away")
		}
		a, base, _ := hygieneApp(t)
		os.Chmod(base, 0o755)
		os.Mkdir(a.cfg.OutputDir, 0o700)
		if err := os.Chown(a.cfg.OutputDir, 65534, 65534); err != nil {
			t.Skip(err)
		}
		r := callTool(t, a, "shell_screenshot", `{"session_id":"s1"}`)
		if !r.IsError || !strings.Contains(r.Text, "another user") {
			t.Errorf("another user's output directory: %s", resultText(r))
		}
		// A symlink owned by someone else, as planted in /tmp.
		os.Remove(a.cfg.OutputDir)
		real := filepath.Join(base, "real")
		os.Mkdir(real, 0o700)
		os.Symlink(real, a.cfg.OutputDir)
		os.Lchown(a.cfg.OutputDir, 65534, 65534)
		r = callTool(t, a, "shell_screenshot", `{"session_id":"s1"}`)
		if !r.IsError || !strings.Contains(r.Text, "symlink owned by another user") {
			t.Errorf("another user's symlink: %s", resultText(r))
		}
		if entries, _ := os.ReadDir(real); len(entries) != 0 {
			t.Errorf("wrote through it: %v", entries)
		}
	})
}

// TestImageSizeLimit: a screen too large to draw is refused with the fix
// (smaller scale, or shell_resize) instead of allocating gigabytes; a
// recording whose screen grows keeps its first frame size.
func TestImageSizeLimit(t *testing.T) {
	t.Parallel()
	a, _, _ := hygieneApp(t)
	addRecSession(a, "huge", 600, 300) // 4800x4800 pixels at scale 1
	addRecSession(a, "big", 250, 100)  // 2000x1600 at scale 1, 8000x6400 at scale 4
	for _, tc := range []struct{ tool, args, want string }{
		{"shell_screenshot", `{"session_id":"huge","scale":1}`, "shell_resize"},
		{"shell_screenshot", `{"session_id":"huge"}`, "shell_resize"},
		{"shell_screenshot", `{"session_id":"big","scale":4}`, "smaller scale"},
		{"shell_record_start", `{"session_id":"huge"}`, "shell_resize"},
		{"shell_record_start", `{"session_id":"big","scale":4}`, "smaller scale"},
	} {
		r := callTool(t, a, tc.tool, tc.args)
		if !r.IsError || !strings.Contains(r.Text, tc.want) {
			t.Errorf("%s %s: %s, want an error naming %q", tc.tool, tc.args, resultText(r), tc.want)
		}
	}
	if r := callTool(t, a, "shell_screenshot", `{"session_id":"big","scale":1}`); r.IsError {
		t.Errorf("250x100 at scale 1: %s", r.Text)
	}
	if isRecording(a, a.sessions.Get("huge")) {
		t.Error("a refused recording left the session recording")
	}

	// Grow the screen during a recording: frames stay at the first size,
	// the last one too, which the stop captures from the grown screen.
	s := addRecSession(a, "grow", 20, 4)
	if r := callTool(t, a, "shell_record_start", `{"session_id":"grow"}`); r.IsError {
		t.Fatal(r.Text)
	}
	s.mu.Lock()
	s.term.Resize(300, 200)
	s.term.Write([]byte("\x1b[199;290Hgrown"))
	s.mu.Unlock()
	r := callTool(t, a, "shell_record_stop", `{"session_id":"grow"}`)
	if r.IsError {
		t.Fatal(r.Text)
	}
	f, err := os.Open(r.Structured.(*recordStopResult).GIFPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatal(err)
	}
	for i, fr := range g.Image {
		if !fr.Rect.In(image.Rect(0, 0, 20*8, 4*16)) {
			t.Errorf("frame %d covers %v, outside the first frame's 160x64", i, fr.Rect)
		}
	}
}

func TestCropSnapshot(t *testing.T) {
	t.Parallel()
	term := NewTerminal(6, 3, 0)
	term.Write([]byte("abcdef\r\nghe\u0301ijk\r\nlmnopq\x1b[3;6H"))
	s := term.Snapshot()
	if c := cropSnapshot(s, 6, 3); c != s {
		t.Error("a snapshot that fits was copied")
	}
	c := cropSnapshot(s, 4, 2)
	if c.Cols != 4 || c.Rows != 2 || len(c.Cells) != 8 {
		t.Fatalf("cropped to %dx%d with %d cells", c.Cols, c.Rows, len(c.Cells))
	}
	var got []rune
	for _, cell := range c.Cells {
		got = append(got, cell.Rune)
	}
	if string(got) != "abcdghei" {
		t.Errorf("cells %q, want abcdghei", string(got))
	}
	if len(c.Marks) != 1 || c.Marks[1*4+2] != "\u0301" {
		t.Errorf("marks %v", c.Marks)
	}
	if c.Cursor.Visible || c.Cursor.Row >= 2 || c.Cursor.Col >= 4 {
		t.Errorf("cursor %+v outside the cropped screen", c.Cursor)
	}
	RenderImage(c, RenderOptions{Scale: 1}) // must not index out of range
}

// TestCleanNameExt: a name given with the capture's extension, in any
// case, loses it once (agents write "x.PNG"); other names are kept.
func TestCleanNameExt(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, ext, want string }{
		{"x.png", ".png", "x"},
		{"x.PNG", ".png", "x"},
		{"x.Png.png", ".png", "x.Png"},
		{"demo.GIF", ".gif", "demo"},
		{"step-1", ".png", "step-1"},
		{"x.png", ".gif", "x.png"},
		{".PNG", ".png", ""},
	} {
		got, err := cleanName(tt.name, tt.ext)
		if got != tt.want || (err != nil) != (tt.want == "") {
			t.Errorf("cleanName(%q, %q) = %q, %v; want %q", tt.name, tt.ext, got, err, tt.want)
		}
	}
}

// FuzzCaptureName: whatever cleanName accepts is one plain file name, and
// capturePath puts it in the session's directory under the output
// directory; the file written under it lands there and nowhere else; and
// the name round-trips through a resource URI.
func FuzzCaptureName(f *testing.F) {
	for _, n := range hostileNames {
		f.Add(n, ".png")
	}
	f.Add("step-1.png", ".png")
	f.Add("demo.gif", ".gif")
	f.Add("a.b.c", "")
	dir := filepath.Join(f.TempDir(), "out")
	a := newApp(Config{OutputDir: dir})
	f.Fuzz(func(t *testing.T, name, ext string) {
		if len(ext) > 8 {
			ext = ext[:8]
		}
		c, err := cleanName(name, ext)
		if err != nil {
			if !strings.Contains(err.Error(), "use") {
				t.Fatalf("%q: error %q does not say what to use", name, err)
			}
			return
		}
		if c == "" || len(c) > maxNameLen || !filepath.IsLocal(c) || filepath.Base(c) != c || c[0] == '.' ||
			strings.ContainsAny(c, "/\\\x00\n\r") || strings.Contains(c, "..") {
			t.Fatalf("%q (ext %q) accepted as %q", name, ext, c)
		}
		p := a.store.path("s1", c, ".png")
		if filepath.Dir(p) != filepath.Join(dir, "s1") {
			t.Fatalf("%q: capturePath %q is not in the session directory", name, p)
		}
		if u, err := parseResourceURI("session://s1/screenshots/" + c); err != nil || u.name != c {
			t.Fatalf("%q: URI of %q parses to %+v, %v", name, c, u, err)
		}
		if err := a.store.write("s1", c+".png", []byte("x")); err != nil {
			t.Fatalf("%q: %v", c, err)
		}
		entries, err := os.ReadDir(filepath.Join(dir, "s1"))
		if err != nil || len(entries) != 1 || entries[0].Name() != c+".png" {
			t.Fatalf("%q: the session directory holds %v (%v)", c, entries, err)
		}
		if b, err := os.ReadFile(p); err != nil || !bytes.Equal(b, []byte("x")) {
			t.Fatalf("%q: %q, %v", p, b, err)
		}
		os.Remove(p)
		if top, _ := os.ReadDir(dir); len(top) != 1 {
			t.Fatalf("%q: the output directory holds %v", c, top)
		}
	})
}

// holdTool returns when its request is cancelled.
var holdTool = &Tool{Name: "test_hold", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
	<-ctx.Done()
	return &ToolResult{Text: "cancelled"}
}}

// TestInflightCap: a client that keeps sending requests that do not finish
// gets -32000 "server busy" past the cap on running requests or on the
// bytes of their params, pings are still answered, and a cancelled
// request frees its slot.
func TestInflightCap(t *testing.T) {
	t.Parallel()
	c := startServerWith(t, func(s *Server) {
		s.tools = append(s.tools, holdTool)
		s.maxInflight, s.maxInflightBytes = 4, 64<<10
	})
	c.initialize("2025-06-18")
	hold := func(id int, pad int) {
		c.sendf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_hold","_meta":{"pad":"%s"}}}`, id, strings.Repeat("x", pad))
	}
	for id := 1; id <= 4; id++ {
		hold(id, 0)
	}
	hold(5, 0)
	if r := c.recvResponse(); string(r.ID) != "5" || r.Error == nil || r.Error.Code != codeServerBusy || !strings.Contains(r.Error.Message, "cancel some") {
		t.Fatalf("fifth request: %+v, want -32000 server busy", r)
	}
	if r := c.request("p", "ping", nil); r.Error != nil {
		t.Fatalf("ping while busy: %+v", r.Error)
	}
	cancel := func(id int) {
		c.sendf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`, id)
	}
	cancel(1)
	cancel(2)
	cancel(3)
	// The slots free as the cancelled handlers return.
	deadline := time.Now().Add(stuckAfter)
	for {
		c.srv.mu.Lock()
		n := len(c.srv.inflight)
		c.srv.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests still in flight after cancelling 3 of 4", n)
		}
		time.Sleep(time.Millisecond)
	}
	hold(10, 40<<10) // taken: a slot is free and the params fit
	// 40 KiB held; another 40 KiB is over the 64 KiB of params.
	hold(99, 40<<10)
	if r := c.recvResponse(); string(r.ID) != "99" || r.Error == nil || r.Error.Code != codeServerBusy {
		t.Fatalf("over the params bytes: %+v, want -32000", r)
	}
	c.srv.mu.Lock()
	var ids []string
	for id := range c.srv.inflight {
		ids = append(ids, id)
	}
	c.srv.mu.Unlock()
	for _, id := range ids {
		c.sendf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s}}`, id)
	}
}

// TestC1NotPrinted: C1 controls sent UTF-8 encoded (U+0080-U+009F) never
// land in a cell, so no capture file replays them to a terminal that
// would run them (U+009D 52 is OSC 52, a clipboard write).
func TestC1NotPrinted(t *testing.T) {
	t.Parallel()
	term := NewTerminal(40, 2, 0)
	term.Write([]byte("a\xc2\x9d52;c;aGk=\xc2\x9cb\xc2\x9b31mc\u0085d\xc2\x80e\u00a0f"))
	s := term.Snapshot()
	for _, out := range []string{string(screenANSI(s, ansiLines)), snapshotText(s), snapshotSVG(s, themeList[0], nil)} {
		for _, r := range out {
			if r >= 0x80 && r <= 0x9f {
				t.Fatalf("%q holds C1 control %U", out, r)
			}
		}
	}
	if got := snapshotText(s); got != "a52;c;aGk=b31mcde\u00a0f\n" {
		t.Errorf("text %q", got)
	}
}

// TestWaitForLimits: wait_for longer than maxWaitForBytes, and a /regex/
// whose compiled program exceeds maxRegexInsts, are refused with an error
// naming the limit; patterns within them still parse.
func TestWaitForLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want string // "" when it must parse
	}{
		{"/" + strings.Repeat("a", 2<<20) + "/", "limit of 16384"},
		{strings.Repeat("a", maxWaitForBytes+1), "limit of 16384"},
		{"/(?:abcde){1000}/", "limit of 4096"},
		{"/" + strings.Repeat("a", maxRegexInsts+10) + "/", "limit of 4096"},
		{"/(?:ab){1000}/", ""},
		{"/prompt\\$ $/m", ""},
		{strings.Repeat("a", maxWaitForBytes), ""},
	}
	for _, tt := range tests {
		m, err := parseWaitFor(tt.in)
		switch {
		case tt.want == "" && (err != nil || m == nil):
			t.Errorf("parseWaitFor(%.40q): %v, want it to parse", tt.in, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("parseWaitFor(%.40q) (%d bytes): error %v, want one naming %q", tt.in, len(tt.in), err, tt.want)
		}
	}
}

// TestOutputDirAncestorsAndDefault: a world-writable, non-sticky
// grandparent (not only the parent) makes the output directory unsafe; a
// file in the way gives an error naming --output-dir; the default is a
// name of this user's own.
func TestOutputDirAncestorsAndDefault(t *testing.T) {
	t.Parallel()
	if os.Getuid() < 0 {
		t.Skip("no uids")
	}
	base := t.TempDir()
	open := filepath.Join(base, "open")
	if err := os.MkdirAll(filepath.Join(open, "mine"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	tests := []struct{ dir, want string }{
		{filepath.Join(open, "mine", "out"), "ancestor " + open},
		{filepath.Join(file, "out"), "--output-dir"},
		{filepath.Join(base, "fine", "out"), ""},
	}
	for _, tt := range tests {
		err := ensureOutputDir(tt.dir)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("ensureOutputDir(%s): %v, want nil", tt.dir, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("ensureOutputDir(%s): %v, want an error naming %q", tt.dir, err, tt.want)
		}
	}
	if got, want := filepath.Base(defaultOutputDir()), fmt.Sprintf("ttywright-%d", os.Getuid()); got != want {
		t.Errorf("default output directory %s, want one named %s", defaultOutputDir(), want)
	}
}

// TestBadCommandAndIDInput: a blank command is refused (it panicked on
// strings.Fields of nothing), a huge session id is not echoed back, and a
// refused env PATH under --allow-command is named as the fault before the
// command is looked up with it.
func TestBadCommandAndIDInput(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tc := range []struct {
		name, tool string
		args       string
		want       string
		maxLen     int
	}{
		{"blank command", "shell_start", `{"command": "  \t"}`, "is blank", 0},
		{"huge id", "shell_read", `{"session_id": "` + strings.Repeat("a", 1<<20) + `"}`, "ids are at most 128", 400},
	} {
		res := callTool(t, a, tc.tool, tc.args)
		text := resultText(res)
		if !res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("%s: got isError %v %q, want an error containing %q", tc.name, res.IsError, text, tc.want)
		}
		if tc.maxLen > 0 && len(text) > tc.maxLen {
			t.Errorf("%s: the error is %d bytes, want at most %d", tc.name, len(text), tc.maxLen)
		}
	}
	a.cfg.AllowCommands = []string{"true"}
	reconfigure(a)
	res := callTool(t, a, "shell_start", `{"command": "true", "env": {"PATH": "/nonexistent"}}`)
	if text := resultText(res); !res.IsError || !strings.Contains(text, "env PATH is not allowed") {
		t.Errorf("allow-list PATH: got %q, want the PATH refusal", text)
	}
	res = callTool(t, a, "shell_start", `{"command": "true", "env": {"HOME": "/tmp"}}`)
	if text := resultText(res); !res.IsError || !strings.Contains(text, "LC_*") || strings.Contains(text, "LINES*") {
		t.Errorf("allow-list env names: got %q, want LC_* and LINES", text)
	}
}
