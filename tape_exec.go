package main

// tape_exec.go: what each VHS command does when a tape runs: the
// settings, typing and keys, sleeps and VHS's waits, Hide/Show,
// Screenshot, the clipboard, and the outputs (the GIF and cast from a
// recording, the .txt screens, the PNG frames).

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// exec runs command c, the i-th of the tape.
func (r *tapeRun) exec(ctx context.Context, c tapeCmd, i int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	switch c.Name {
	case "Set":
		return r.execSet(c)
	case "Output":
		r.outputs = append(r.outputs, c)
		return nil
	case "Require":
		return r.execRequire(c)
	case "Env":
		return nil // read before the start (prepare)
	case "Hide":
		r.hidden = true
		if err := r.stopRecording(ctx); err != nil {
			return r.cmdErr(c, err)
		}
		return nil
	case "Show":
		r.hidden = false
		return nil
	}
	if err := r.ensureRecording(ctx); err != nil {
		return r.cmdErr(c, err)
	}
	run := tapeRunners[c.Name]
	if isTapeKey(c.Name) {
		run = (*tapeRun).execKey
	}
	if err := run(r, ctx, c); err != nil {
		return r.cmdErr(c, err)
	}
	if !r.hidden {
		return r.afterShown()
	}
	return nil
}

// tapeRunners run the commands after the settings.
var tapeRunners map[string]func(*tapeRun, context.Context, tapeCmd) error

func init() {
	tapeRunners = map[string]func(*tapeRun, context.Context, tapeCmd) error{
		"Type": (*tapeRun).execType, "Sleep": (*tapeRun).execSleep, "Wait": (*tapeRun).execWait,
		"Ctrl": (*tapeRun).execCombo, "Alt": (*tapeRun).execCombo, "Shift": (*tapeRun).execCombo,
		"Screenshot": (*tapeRun).execScreenshot, "Copy": (*tapeRun).execCopy, "Paste": (*tapeRun).execPaste,
		"Expect": (*tapeRun).execExpect, "ExpectStyle": (*tapeRun).execExpectStyle,
		"Snapshot": (*tapeRun).execSnapshot, "Mask": (*tapeRun).execMask, "Click": (*tapeRun).execClick,
	}
}

// execSet applies a Set: before the terminal starts every setting, after
// it only TypingSpeed, as VHS does (it ignores the others there).
func (r *tapeRun) execSet(c tapeCmd) error {
	if r.started && c.Setting != "TypingSpeed" && c.Setting != "Shell" { // Shell: read before the start
		r.warn(tapeWarning{c.Line, c.Col, "Set " + c.Setting, "after the first command: ignored, as VHS does (move it to the top)"})
		return nil
	}
	if w := r.set.applySet(c); w.Msg != "" {
		r.warn(w)
	}
	return nil
}

// execRequire fails the tape when a program it needs is not installed.
func (r *tapeRun) execRequire(c tapeCmd) error {
	if _, err := exec.LookPath(c.Text); err != nil {
		return r.cmdErr(c, fmt.Errorf("%s is not installed (not found in $PATH)", c.Text))
	}
	return nil
}

// ms is d in whole milliseconds for a tool argument.
func ms(d time.Duration) int { return int(d / time.Millisecond) }

// speed is c's @time, else the tape's TypingSpeed.
func (r *tapeRun) speed(c tapeCmd) time.Duration {
	if c.HasSpeed {
		return c.Speed
	}
	return r.set.TypingSpeed
}

// execType types c's text key by key, the typing speed apart.
func (r *tapeRun) execType(ctx context.Context, c tapeCmd) error {
	return r.typeText(ctx, c.Text, r.speed(c))
}

// typeText types text with shell_send: key by key when speed > 0, else
// at once as keystrokes (input, never as a bracketed paste).
func (r *tapeRun) typeText(ctx context.Context, text string, speed time.Duration) error {
	if text == "" {
		return nil
	}
	args := map[string]any{"session_id": r.sid, "delay_ms": ms(speed)}
	if d := ms(speed); d > 0 {
		args["text"], args["type_delay_ms"] = text, min(d, maxTypeDelayMS)
	} else {
		args["input"] = strings.ReplaceAll(text, `\`, `\\`)
	}
	_, err := r.call(ctx, "shell_send", args, nil)
	return err
}

// execKey presses a key Count times, the typing speed apart.
func (r *tapeRun) execKey(ctx context.Context, c tapeCmd) error {
	name := c.Name
	if slices.Contains(tapeScrolls, name) {
		r.warn(tapeWarning{c.Line, c.Col, c.Name, "ttywright has no viewport to scroll: skipped"})
		return nil
	}
	keys := make([]string, c.Count)
	for i := range keys {
		keys[i] = name
	}
	d := ms(r.speed(c))
	_, err := r.call(ctx, "shell_send", map[string]any{"session_id": r.sid, "keys": keys,
		"type_delay_ms": min(d, maxTypeDelayMS), "delay_ms": d}, nil)
	return err
}

// execCombo presses a Ctrl, Alt or Shift combination.
func (r *tapeRun) execCombo(ctx context.Context, c tapeCmd) error {
	_, err := r.call(ctx, "shell_send", map[string]any{"session_id": r.sid, "keys": c.Keys, "delay_ms": ms(r.set.TypingSpeed)}, nil)
	return err
}

func (r *tapeRun) execSleep(ctx context.Context, c tapeCmd) error {
	t := time.NewTimer(c.Dur)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *tapeRun) execCopy(_ context.Context, c tapeCmd) error {
	r.clip = c.Text // the tape's own clipboard, not the desktop's
	return nil
}

func (r *tapeRun) execPaste(ctx context.Context, c tapeCmd) error {
	return r.typeText(ctx, r.clip, 0)
}

// execWait is VHS's Wait: until the cursor's line (Wait+Line, the
// default) or the screen (Wait+Screen) matches the regex (WaitPattern
// when none), at most the timeout; Wait+Command and Wait+Input are
// assertions (tape_assert.go).
func (r *tapeRun) execWait(ctx context.Context, c tapeCmd) error {
	switch c.Variant {
	case "Command":
		return r.waitCommand(ctx, c)
	case "Input":
		return r.waitInput(ctx, c)
	}
	re, err := regexp.Compile(cmpOr(c.Regex, r.set.WaitPattern))
	if err != nil {
		return err
	}
	timeout := r.timeout(c)
	s := r.tb.sessions.Get(r.sid)
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		snap := s.Snapshot()
		last := snap.RowText(snap.Cursor.Row)
		if c.Variant == "Screen" {
			last = strings.Join(screenRows(snap), "\n")
		}
		if re.MatchString(strings.TrimRight(last, " ")) {
			return nil
		}
		if s.Status().Exited {
			return r.fail(c, "/"+re.String()+"/ on the "+strings.ToLower(c.Variant), "the program exited", "")
		}
		if _, err := s.WaitChange(wctx, snap.Generation); err != nil {
			return r.fail(c, "/"+re.String()+"/ on the "+strings.ToLower(c.Variant), fmt.Sprintf("not there after %v", timeout), "")
		}
	}
}

// cmpOr is a, or b when a is empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// timeout is c's @timeout, else the tape's WaitTimeout.
func (r *tapeRun) timeout(c tapeCmd) time.Duration {
	if c.HasSpeed {
		return c.Speed
	}
	return r.set.WaitTimeout
}

// screenRows are the rows of snap, trailing blanks cut, as VHS's .txt
// output writes them.
func screenRows(snap *Snapshot) []string {
	rows := make([]string, snap.Rows)
	for i := range rows {
		rows[i] = strings.TrimRight(snap.RowText(i), " ")
	}
	return rows
}

// execScreenshot writes the screen as PNG to c's path (shell_screenshot).
func (r *tapeRun) execScreenshot(ctx context.Context, c tapeCmd) error {
	var sr screenshotResult
	args := map[string]any{"session_id": r.sid, "name": fmt.Sprintf("tape-shot-%d", c.Line), "inline": false}
	if b := r.border(); b != nil {
		args["border"] = b
	}
	if _, err := r.call(ctx, "shell_screenshot", args, &sr); err != nil {
		return err
	}
	return r.copyOut(sr.PNGPath, c.Text)
}

// border is the frame of the pictures: the macOS bar for a WindowBar.
func (r *tapeRun) border() *Border {
	if r.set.WindowBar == "" {
		return nil
	}
	return &Border{Style: "macos"}
}

// copyOut copies the capture at from to the tape's path to.
func (r *tapeRun) copyOut(from, to string) error {
	if err := copyFile(from, to); err != nil {
		return err
	}
	r.res.Wrote = append(r.res.Wrote, to)
	return nil
}

// copyFile copies the file from to the file to.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := createRegular(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// outputsOf are the Output paths with one of the extensions.
func (r *tapeRun) outputsOf(exts ...string) []string {
	var paths []string
	for _, o := range r.outputs {
		ext := filepath.Ext(o.Text)
		if strings.HasSuffix(o.Text, "/") {
			ext = "/"
		}
		for _, e := range exts {
			if ext == e {
				paths = append(paths, o.Text)
			}
		}
	}
	return paths
}
