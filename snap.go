package main

// snap.go: the "ttywright snap" subcommand, the one-line demo:
// run a command in a PTY, wait for it to finish, print a text or go quiet,
// and write a PNG screenshot (and optionally a GIF of the whole run). It
// uses the same session, rendering and recording code as the MCP tools.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// snapIdle is how long the output must stay quiet before snap takes its
// picture when neither the exit nor --wait-for ended the wait.
const snapIdle = 500 * time.Millisecond

// snapUsage is printed for -h and usage errors.
const snapUsage = `usage: ttywright snap [flags] -- COMMAND [ARGS...]

Runs COMMAND in a pseudo-terminal and writes a PNG screenshot once it exits,
prints the --wait-for text, or stays quiet for 500 ms (at most --timeout).
Example: ttywright snap -o demo.png -- ls --color=always /

flags:
`

// snapOptions are the parsed snap flags.
type snapOptions struct {
	out, gif   string
	cols, rows int
	theme      string
	scale      int
	title      string
	trim       bool
	waitFor    string
	timeout    time.Duration
	idle       time.Duration
	command    []string
}

// runSnap runs the snap subcommand with the arguments after "snap" and
// returns the exit status: 0 when the screenshot was written, 1 when the
// command could not start, --wait-for never matched or a file could not be
// written, 2 for a usage error.
func runSnap(args []string) int {
	return snapMain(args, os.Stdout, os.Stderr)
}

func snapMain(args []string, stdout, stderr io.Writer) int {
	opt, err := parseSnap(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "ttywright snap: %v\n", err)
		return 2
	}
	if opt.out == "-" {
		opt.out = "/dev/stdout"
	}
	if isStdout(opt.out) || isStdout(opt.gif) {
		stdout = stderr // the report must not end up inside the image
	}
	msg, err := snap(opt)
	if err != nil {
		fmt.Fprintf(stderr, "ttywright snap: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, msg)
	return 0
}

// isStdout reports whether path names the file the process's standard
// output goes to (-o /dev/stdout, or a path that stdout was redirected to).
func isStdout(path string) bool {
	if path == "" {
		return false
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	so, err := os.Stdout.Stat()
	return err == nil && os.SameFile(fi, so)
}

// parseSnap reads the flags; -h prints the usage and returns flag.ErrHelp.
func parseSnap(args []string, stderr io.Writer) (snapOptions, error) {
	var o snapOptions
	fs := flag.NewFlagSet("ttywright snap", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.out, "o", "snap.png", "PNG file to write (- for standard output)")
	fs.StringVar(&o.gif, "gif", "", "also write a GIF recording of the whole run to this file")
	fs.IntVar(&o.cols, "cols", 120, "screen width in cells")
	fs.IntVar(&o.rows, "rows", 40, "screen height in cells")
	fs.StringVar(&o.theme, "theme", "one-dark", "colour theme: "+strings.Join(themeNames(), ", "))
	fs.IntVar(&o.scale, "scale", 2, "integer pixel scale of the font (1-4)")
	fs.StringVar(&o.title, "title", "", "draw a macOS window frame with this title")
	fs.BoolVar(&o.trim, "trim", false, "crop the blank rows below the last line of output")
	fs.StringVar(&o.waitFor, "wait-for", "", "take the picture once the screen shows this text (or /regex/) and the output pauses for 100ms")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "longest wait before the picture is taken anyway")
	fs.DurationVar(&o.idle, "idle", snapIdle, "quiet time after which the picture is taken (without --wait-for)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stderr, snapUsage)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return o, err
		}
		return o, fmt.Errorf("%v (ttywright snap -h lists the flags)", err)
	}
	o.command = fs.Args()
	switch {
	case len(o.command) == 0:
		return o, errors.New("no command: put it after --, e.g. ttywright snap -o demo.png -- ls --color=always /")
	case o.out == "":
		return o, errors.New("-o is empty: name the PNG file to write")
	case o.scale < 1 || o.scale > 4:
		return o, fmt.Errorf("--scale %d is out of range: use 1 to 4", o.scale)
	case o.timeout <= 0:
		return o, fmt.Errorf("--timeout %v must be positive, e.g. 10s", o.timeout)
	case o.idle <= 0:
		return o, fmt.Errorf("--idle %v must be positive, e.g. 500ms", o.idle)
	}
	if err := checkSize(o.cols, o.rows); err != nil {
		return o, err
	}
	if _, err := lookupTheme(o.theme); err != nil {
		return o, fmt.Errorf("--theme: %v", err)
	}
	if _, err := parseWaitFor("--wait-for", o.waitFor); err != nil {
		return o, err
	}
	return o, nil
}

// snap runs the command and writes the files; it returns a one-line report.
func snap(o snapOptions) (string, error) {
	tmp, err := os.MkdirTemp("", "ttywright-snap-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	a := newApp(Config{Theme: o.theme, Cols: o.cols, Rows: o.rows, OutputDir: tmp, Scale: o.scale,
		MaxSessions: 1, Scrollback: 1000})
	s, err := a.startSession(StartOptions{Command: o.command[0], Args: o.command[1:], Cols: o.cols, Rows: o.rows, Theme: o.theme})
	if err != nil {
		return "", err
	}
	defer a.shutdown()

	// The recording starts right after the program, so the GIF shows the
	// whole run.
	var border *Border
	if o.title != "" {
		border = &Border{Style: "macos", Title: o.title}
	}
	if o.gif != "" {
		scale := o.scale
		if _, err := a.recordStart(context.Background(), nil, recordStartArgs{SessionID: s.ID, Border: border, Name: "snap", Scale: &scale}); err != nil {
			return "", fmt.Errorf("shell_record_start: %v", err)
		}
	}

	why := snapWait(s, o)

	snapshot := s.Snapshot()
	if o.trim {
		snapshot = trimSnapshot(snapshot)
	}
	theme, _ := lookupTheme(o.theme)
	img := RenderImage(snapshot, RenderOptions{Theme: theme, Scale: o.scale, Border: border})
	if err := writePNG(o.out, img); err != nil {
		return "", err
	}
	report := fmt.Sprintf("wrote %s (%dx%d pixels, %dx%d cells): %s", o.out, img.Bounds().Dx(), img.Bounds().Dy(), snapshot.Cols, snapshot.Rows, why)
	if o.gif != "" {
		res, err := a.recordStop(context.Background(), nil, recordStopArgs{SessionID: s.ID, Format: "gif"})
		if err != nil {
			return "", fmt.Errorf("shell_record_stop: %v", err)
		}
		if err := snapCopy(res.GIFPath, o.gif); err != nil {
			return "", err
		}
		report += fmt.Sprintf("; wrote %s (%d frames, %d ms)", o.gif, res.FrameCount, res.DurationMS)
	}
	if o.waitFor != "" && !strings.HasPrefix(why, "the screen shows") {
		return "", fmt.Errorf("%q never appeared (%s); the screenshot is in %s", o.waitFor, why, o.out)
	}
	return report, nil
}

// After --wait-for matches, snap waits for the output to pause for
// snapSettleIdle (at most snapSettleMax) before it takes the picture.
const (
	snapSettleIdle = 100 * time.Millisecond
	snapSettleMax  = time.Second
)

// snapWait waits until the program exits, the screen shows --wait-for,
// or (without --wait-for) the output has been quiet for --idle, at most
// --timeout; it matches as shell_wait does. It returns why it stopped
// waiting, for the report.
func snapWait(s *Session, o snapOptions) string {
	m, _ := parseWaitFor("--wait-for", o.waitFor) // checked by parseSnap
	spec := waitSpec{timeout: o.timeout}
	if m != nil {
		spec.stages = []waitStage{{kind: stageMatch, name: "wait_for", match: m}}
	} else {
		spec.stages = []waitStage{{kind: stageIdle, name: "wait_idle_ms", d: o.idle}}
	}
	w := s.watch(spec, "")
	defer w.close()
	start := time.Now()
	out := w.wait(context.Background(), spec, nil)
	if m != nil && out.matched {
		// The text is often drawn before the rest of the screen (htop's
		// header before its process list): let the drawing finish.
		settle := waitSpec{stages: []waitStage{{kind: stageIdle, name: "wait_idle_ms", d: snapSettleIdle}},
			timeout: min(snapSettleMax, max(0, o.timeout-time.Since(start)))}
		w.wait(context.Background(), settle, nil)
	}
	st := s.Status()
	switch {
	case m != nil && out.matched:
		return fmt.Sprintf("the screen shows %q", o.waitFor)
	case st.Exited && st.Signal != "":
		return fmt.Sprintf("%s was killed by %s", o.command[0], st.Signal)
	case st.Exited:
		return fmt.Sprintf("%s exited with status %d", o.command[0], st.ExitCode)
	case out.timedOut:
		return fmt.Sprintf("still running after %v", o.timeout)
	}
	return fmt.Sprintf("no output for %v", o.idle)
}

// trimSnapshot returns s without the blank rows below the last row that
// has text, a coloured or inverse cell, or the visible cursor (at least one
// row stays).
func trimSnapshot(s *Snapshot) *Snapshot {
	last := 0
	if s.Cursor.Visible {
		last = s.Cursor.Row
	}
	for i, c := range s.Cells {
		if row := i / s.Cols; row > last && (c.Rune != 0 && c.Rune != ' ' || !c.BG.IsDefault() || c.Attr&AttrInverse != 0) {
			last = row
		}
	}
	if last+1 >= s.Rows {
		return s
	}
	t := *s
	t.Rows = last + 1
	t.Cells = s.Cells[:t.Rows*t.Cols]
	t.Marks = map[int]string{}
	for i, m := range s.Marks {
		if i < len(t.Cells) {
			t.Marks[i] = m
		}
	}
	return &t
}

// writePNG encodes img to path. A regular file (or a new one) is written
// through a temporary file in the same directory and renamed, so that a
// failed write leaves no half file; anything else (a symlink, /dev/stdout,
// a pipe) is written in place, since the rename would replace the link or
// the device node itself (as root, -o /dev/stdout turned /dev/stdout into a
// PNG file).
func writePNG(path string, img image.Image) error {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return err
		}
		if err := encodePNG(f, img); err != nil {
			f.Close()
			return fmt.Errorf("encoding %s: %v", path, err)
		}
		return f.Close()
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".snap-*.png")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, a no-op
	if err := encodePNG(f, img); err != nil {
		f.Close()
		return fmt.Errorf("encoding %s: %v", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// snapCopy copies src to dst (the recording lives in a temporary output
// directory, perhaps on another file system).
func snapCopy(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
