package main

// main_snap.go: the "ttywright snap" subcommand, the one-line demo:
// run a command in a PTY, wait for it to exit (or to print a text, or to
// go quiet after its first output), and write a PNG screenshot and
// optionally a GIF of the whole run. It uses the same session, waits and
// rendering as the MCP tools; the GIF is replayed from the output
// (main_snapgif.go) so that --trim can crop it like the PNG.

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

// snapUsage is printed for -h and usage errors.
const snapUsage = `usage: ttywright snap [flags] -- COMMAND [ARGS...]

Runs COMMAND in a pseudo-terminal and writes a PNG screenshot when it exits
(at most --timeout, 10s), or once the screen shows --wait-for, or once the
output, after it began, stays quiet for --idle. A run that times out still
writes the picture, says so and exits with status 1.
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
	delay      time.Duration
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
	opt, err := parseSnap(args, stdout) // -h prints the usage to standard output
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "ttywright snap: %v\n", err)
		return 2
	}
	if opt.out == "-" || isStdout(opt.out) || isStdout(opt.gif) {
		stdout = stderr // the report must not end up inside the image
	}
	msg, _, err := snap(opt)
	if err != nil {
		fmt.Fprintf(stderr, "ttywright snap: %v\n", err) // names the picture when one was written
		return 1
	}
	fmt.Fprintln(stdout, msg)
	return 0
}

// isStdout reports whether path names the file the process's standard
// output goes to (-o -, -o /dev/stdout, or a path that stdout was
// redirected to). Such a picture is written to the descriptor inherited
// (os.Stdout), never to the path reopened: reopening truncates what a
// ">>" redirection appended to.
func isStdout(path string) bool {
	if path == "-" {
		return true
	}
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

// parseSnap reads the flags; -h prints the usage to help and returns
// flag.ErrHelp.
func parseSnap(args []string, help io.Writer) (snapOptions, error) {
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
	fs.StringVar(&o.waitFor, "wait-for", "", "take the picture once the screen shows this text (or /regex/flags: "+regexFlagsDoc+") and the output pauses for 100ms")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "longest wait: then the picture is taken anyway and snap exits with status 1")
	fs.DurationVar(&o.delay, "delay", 0, "after the wait, wait this much longer before the picture (a program's first refresh, e.g. 2s for htop's meters)")
	fs.DurationVar(&o.idle, "idle", 0, "take the picture once the output, after it began, has been quiet this long (for programs that do not exit, e.g. 1s for htop)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(help, snapUsage)
			fs.SetOutput(help)
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
	case isStdout(o.out) && isStdout(o.gif):
		return o, errors.New("-o and --gif both name standard output: send one of them to a file")
	case o.scale < 1 || o.scale > 4:
		return o, fmt.Errorf("--scale %d is out of range: use 1 to 4", o.scale)
	case o.timeout <= 0:
		return o, fmt.Errorf("--timeout %v must be positive, e.g. 10s", o.timeout)
	case o.delay < 0:
		return o, fmt.Errorf("--delay %v must not be negative", o.delay)
	case o.idle < 0:
		return o, fmt.Errorf("--idle %v must be positive, e.g. 500ms", o.idle)
	case o.idle > 0 && o.waitFor != "":
		return o, errors.New("give --wait-for or --idle, not both")
	}
	if err := checkSize(o.cols, o.rows); err != nil {
		return o, err
	}
	if _, err := lookupTheme(o.theme); err != nil {
		return o, fmt.Errorf("--theme: %v", err)
	}
	if _, err := parseMatcher("--wait-for", o.waitFor); err != nil {
		return o, err
	}
	return o, nil
}

// snap runs the command and writes the files; it returns a one-line
// report and the screen's text when the picture was taken. A run that
// timed out writes the files and returns an error saying so.
func snap(o snapOptions) (report, text string, err error) {
	tmp, err := os.MkdirTemp("", "ttywright-snap-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(tmp)
	a := newApp(Config{Theme: o.theme, Cols: o.cols, Rows: o.rows, OutputDir: tmp, Scale: o.scale,
		MaxSessions: 1, Scrollback: 1000})
	s, err := a.tools.startSession(StartOptions{Command: o.command[0], Args: o.command[1:], Cols: o.cols, Rows: o.rows})
	if err != nil {
		return "", "", err
	}
	defer a.shutdown()
	var run *snapRun
	if o.gif != "" {
		run = recordRun(s) // from the program's first byte, so the GIF shows the whole run
		defer run.stop()
	}

	why, done := snapWait(s, o)
	if o.delay > 0 && done {
		t := time.NewTimer(o.delay)
		select {
		case <-t.C:
		case <-s.done:
		}
		t.Stop()
		why += fmt.Sprintf(", then %v more", o.delay)
	}
	end := time.Now()

	var border *Border
	if o.title != "" {
		border = &Border{Style: "macos", Title: o.title}
	}
	snapshot := s.Snapshot()
	if o.trim {
		snapshot = cropRows(snapshot, trimmedRows(snapshot))
	}
	theme, _ := lookupTheme(o.theme)
	opts := RenderOptions{Theme: theme, Scale: o.scale, Border: border}
	img := RenderImage(snapshot, opts)
	if err := writePNG(o.out, img); err != nil {
		return "", "", err
	}
	report = fmt.Sprintf("wrote %s (%dx%d pixels, %dx%d cells): %s", pictureName(o.out), img.Bounds().Dx(), img.Bounds().Dy(), snapshot.Cols, snapshot.Rows, why)
	if run != nil {
		run.stop()
		frames, d, err := run.writeGIF(o.gif, o.cols, o.rows, o.trim, opts, end)
		if err != nil {
			return "", "", fmt.Errorf("writing %s: %v", o.gif, err)
		}
		report += fmt.Sprintf("; wrote %s (%d frames, %d ms)", pictureName(o.gif), frames, d.Milliseconds())
	}
	text = s.Text(false)
	if !done {
		return report, text, fmt.Errorf("%s; the picture was taken anyway: %s", why, pictureName(o.out))
	}
	return report, text, nil
}

// After --wait-for matches, snap waits for the output to pause for
// snapSettleIdle (at most snapSettleMax) before it takes the picture.
const (
	snapSettleIdle = 100 * time.Millisecond
	snapSettleMax  = time.Second
)

// snapWait waits, at most --timeout, for the screen to show --wait-for,
// or with --idle for the output to be quiet that long after it began,
// or else for the program to exit. It returns why it stopped waiting,
// for the report, and whether that was what it waited for (false: it
// timed out, or the program exited before --wait-for appeared).
func snapWait(s *Session, o snapOptions) (string, bool) {
	m, _ := parseMatcher("--wait-for", o.waitFor) // checked by parseSnap
	spec := waitSpec{timeout: o.timeout}
	switch {
	case m != nil:
		spec.stages = []waitStage{{kind: stageMatch, name: "wait_for", match: m}}
	case o.idle > 0:
		spec.stages = []waitStage{{kind: stageIdle, name: "wait_idle_ms", d: o.idle, afterOutput: true}}
	default:
		spec.stages = []waitStage{{kind: stageExit, name: "exit"}}
	}
	w := newWatch(s, spec, "")
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
	s.mu.Lock()
	printed := s.fed > 0
	s.mu.Unlock()
	switch {
	case m != nil && out.matched:
		return fmt.Sprintf("the screen shows %q", o.waitFor), true
	case st.Exited && m != nil:
		return fmt.Sprintf("%q never appeared: %s exited with status %d", o.waitFor, o.command[0], st.ExitCode), false
	case st.Exited && st.Signal != "":
		return fmt.Sprintf("%s was killed by %s", o.command[0], st.Signal), true
	case st.Exited:
		return fmt.Sprintf("%s exited with status %d", o.command[0], st.ExitCode), true
	case out.matched:
		return fmt.Sprintf("no output for %v after the first", o.idle), true
	case m != nil:
		return fmt.Sprintf("timed out after %v: %q never appeared", o.timeout, o.waitFor), false
	case !printed:
		return fmt.Sprintf("timed out after %v: %s printed nothing and is still running", o.timeout, o.command[0]), false
	case o.idle > 0:
		return fmt.Sprintf("timed out after %v: the output never paused for %v", o.timeout, o.idle), false
	}
	return fmt.Sprintf("timed out after %v: %s is still running (for a program that does not exit, give --idle 1s or --wait-for TEXT)", o.timeout, o.command[0]), false
}

// pictureName is how a report names the file path: "standard output"
// for the file standard output goes to.
func pictureName(path string) string {
	if isStdout(path) {
		return "standard output"
	}
	return path
}

// writePNG encodes img to path. The file standard output goes to is
// written through os.Stdout (isStdout). A regular file (or a new one) is
// written through a temporary file in the same directory and renamed, so
// that a failed write leaves no half file; anything else (a symlink, a
// pipe) is written in place, since the rename would replace the link or
// the device node itself (as root, -o /dev/stdout turned /dev/stdout into
// a PNG file).
func writePNG(path string, img image.Image) error {
	if isStdout(path) {
		return encodePNG(os.Stdout, img)
	}
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
