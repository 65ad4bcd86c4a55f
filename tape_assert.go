package main

// tape_assert.go: the assertions a tape adds to VHS's language, each a
// wait with a timeout (@time, else Set WaitTimeout) through the same
// tools and matchers an agent uses: Wait+Command (shell_wait
// wait_for_command), Expect and Expect+Gone (shell_wait wait_for and
// wait_for_gone, the typed echo excluded), ExpectStyle (shell_find with a
// style), Snapshot against a golden file beside the tape, Mask, and Click
// (shell_click). A failure stops the tape (tapeFailure).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// errTapeFailed is returned once a failed assertion is recorded in the
// result's Failure.
var errTapeFailed = errors.New("assertion failed")

// fail records that c expected what it did not see: got says what it
// saw instead ("" for nothing more than the screen), screen is the
// screen to show ("" for the session's screen now).
func (r *tapeRun) fail(c tapeCmd, expected, got, screen string) error {
	if screen == "" {
		screen = r.screenNow()
	}
	r.res.Failure = &tapeFailure{Line: c.Line, Col: c.Col, Cmd: c.String(), Expected: expected, Got: got, Actual: screen,
		Steps: append([]string(nil), r.steps...)}
	if log := r.tb.TraceOf(r.tb.sessions.Get(r.sid)); log != nil {
		log.FailLast(fmt.Sprintf("%s:%d: %s: expected %s", r.prog.Path, c.Line, c, expected))
	}
	return errTapeFailed
}

// screenNow is the tape's session's screen, its blank rows at the end
// dropped.
func (r *tapeRun) screenNow() string {
	return strings.Join(trimBlankRows(screenRows(r.tb.sessions.Get(r.sid).Snapshot())), "\n")
}

// trimBlankRows drops the empty rows at the end.
func trimBlankRows(rows []string) []string {
	for len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	return rows
}

// waitArg is c's target as a wait_for argument: the text, or /regex/.
func waitArg(c tapeCmd) string {
	if c.Regex != "" {
		return "/" + c.Regex + "/"
	}
	return c.Text
}

// within calls try with timeouts a tool takes (at most maxTimeoutMS)
// until it reports done or timeout has passed.
func within(timeout time.Duration, try func(timeoutMS int) (bool, error)) (bool, error) {
	deadline, left := time.Now().Add(timeout), ms(timeout)
	for {
		done, err := try(min(left, maxTimeoutMS))
		if done || err != nil || left <= maxTimeoutMS {
			return done, err
		}
		left = max(0, ms(time.Until(deadline)))
	}
}

// execExpect waits for the text to be shown (Expect) or to be gone
// (Expect+Gone).
func (r *tapeRun) execExpect(ctx context.Context, c tapeCmd) error {
	args := map[string]any{"session_id": r.sid, "new_only": false}
	want := c.target() + " on the screen"
	if c.Variant == "Gone" {
		args["wait_for_gone"], want = waitArg(c), c.target()+" gone from the screen"
	} else {
		args["wait_for"] = waitArg(c)
	}
	var res shellWaitResult
	ok, err := within(r.timeout(c), func(t int) (bool, error) {
		args["timeout_ms"] = t
		_, err := r.call(ctx, "shell_wait", args, &res)
		return res.Matched, err
	})
	if err != nil || ok {
		return err
	}
	return r.fail(c, want+" within "+r.timeout(c).String(), "", res.Buffer)
}

// execExpectStyle waits for the text to be shown in the style.
func (r *tapeRun) execExpectStyle(ctx context.Context, c tapeCmd) error {
	ok, err := within(r.timeout(c), func(t int) (bool, error) {
		var res findResult
		_, err := r.call(ctx, "shell_find", map[string]any{"session_id": r.sid, "text": waitArg(c), "style": c.Style, "timeout_ms": t}, &res)
		return res.Count > 0, err
	})
	if err != nil || ok {
		return err
	}
	var read shellReadResult
	if _, err := r.call(ctx, "shell_read", map[string]any{"session_id": r.sid, "format": "styled"}, &read); err != nil {
		return err
	}
	return r.fail(c, fmt.Sprintf("%s in %s within %v", c.target(), strings.Join(styleWords(c.Style), " "), r.timeout(c)), "", read.Text)
}

// waitCommand is Wait+Command: the next command ends (one that ended
// after the last Wait+Command saw), with exit=N its exit code is N. The
// shell_wait follows the Type that started it, so it waits for that
// command (however late the shell starts it), on the session's events;
// it is called again only for a tape timeout past one wait's limit.
func (r *tapeRun) waitCommand(ctx context.Context, c tapeCmd) error {
	deadline := time.Now().Add(r.timeout(c))
	for {
		left := time.Until(deadline)
		var res shellWaitResult
		if _, err := r.call(ctx, "shell_wait", map[string]any{"session_id": r.sid, "wait_for_command": true,
			"timeout_ms": min(max(0, ms(left)), maxTimeoutMS)}, &res); err != nil {
			return err
		}
		cmd := res.Command
		switch {
		case cmd != nil && !cmd.Running && cmd.N > r.lastCmd:
			r.lastCmd = cmd.N
			return r.checkExit(c, cmd)
		case cmd != nil && cmd.Running && time.Until(deadline) > 0:
			continue // one wait's limit (maxTimeoutMS) ended before the tape's
		case cmd != nil && cmd.Running:
			return r.fail(c, "the command to end within "+r.timeout(c).String(), "still running: "+cmd.Line, res.Buffer)
		}
		return r.fail(c, "a command to run and end within "+r.timeout(c).String(), "no command ran since the last one seen", res.Buffer)
	}
}

// waitInput is Wait+Input: everything typed has been read and the
// program in the foreground waits to read the terminal again
// (shell_wait's wait_for_input), within the timeout. It is the wait
// before the next key of a TUI, which may throw away what arrives
// while it starts.
func (r *tapeRun) waitInput(ctx context.Context, c tapeCmd) error {
	var res shellWaitResult
	if _, err := r.call(ctx, "shell_wait", map[string]any{"session_id": r.sid, "wait_for_input": true,
		"timeout_ms": min(ms(r.timeout(c)), maxTimeoutMS)}, &res); err != nil {
		return err
	}
	if !res.TimedOut {
		return nil
	}
	got := "no program waits to read the terminal"
	if res.Exited {
		got = "the program exited"
	}
	return r.fail(c, "the program to wait for input within "+r.timeout(c).String(), got, res.Buffer)
}

// checkExit checks the exit=N of Wait+Command against the command's code.
func (r *tapeRun) checkExit(c tapeCmd, cmd *commandResult) error {
	if c.Exit == nil {
		return nil
	}
	if cmd.ExitCode == nil || *cmd.ExitCode != *c.Exit {
		got := "no exit code"
		if cmd.ExitCode != nil {
			got = fmt.Sprintf("exit code %d", *cmd.ExitCode)
		}
		return r.fail(c, fmt.Sprintf("exit code %d from %q", *c.Exit, cmd.Line), got, "")
	}
	return nil
}

// execClick clicks on the text or the cell (shell_click). A text is
// waited for first, at most the timeout (shell_find), as an action on
// what is not drawn yet would miss.
func (r *tapeRun) execClick(ctx context.Context, c tapeCmd) error {
	args := map[string]any{"session_id": r.sid}
	if c.HasRows {
		args["row"], args["col"] = c.Row, c.Col2
	} else {
		ok, err := within(r.timeout(c), func(t int) (bool, error) {
			var res findResult
			_, err := r.call(ctx, "shell_find", map[string]any{"session_id": r.sid, "text": c.Text, "timeout_ms": t}, &res)
			return res.Count > 0, err
		})
		if err != nil {
			return err
		}
		if !ok {
			return r.fail(c, c.target()+" on the screen to click within "+r.timeout(c).String(), "", "")
		}
		args["text"] = c.Text
	}
	_, err := r.call(ctx, "shell_click", args, nil)
	return err
}

// execMask adds a mask for the snapshots and the .txt output.
func (r *tapeRun) execMask(_ context.Context, c tapeCmd) error {
	r.masks = append(r.masks, c)
	return nil
}

// tapeMasked replaces what a mask hides.
const tapeMasked = "[masked]"

// mask hides in line (screen row row, -1 when unknown) what the masks match.
func (r *tapeRun) mask(line string, row int) string {
	for _, m := range r.masks {
		switch {
		case m.HasRows:
			if row >= m.Row && row <= m.Col2 {
				line = tapeMasked
			}
		default:
			line = regexp.MustCompile(m.Regex).ReplaceAllLiteralString(line, tapeMasked) // compiled at parse
		}
	}
	return line
}

// execSnapshot compares the screen (its text, with +Style its styled
// text) with the golden file beside the tape until they are equal or the
// timeout passes (a screen still being drawn is waited for), or with
// --update writes the screen once it has been still for 200 ms.
func (r *tapeRun) execSnapshot(ctx context.Context, c tapeCmd) error {
	ext := ".txt"
	if c.Variant == "Style" {
		ext = ".style.txt"
	}
	golden := filepath.Join(filepath.Dir(r.prog.Path), c.Text+ext)
	if r.opt.Update {
		return r.updateSnapshot(ctx, c, golden)
	}
	want, err := readRegular(golden, maxTapeFileBytes)
	if errors.Is(err, os.ErrNotExist) {
		got, _ := r.snapshotText(ctx, c.Variant == "Style")
		return r.fail(c, golden+" (no such file: run ttywright test --update to write it)", "", strings.TrimSuffix(got, "\n"))
	}
	if err != nil {
		return err
	}
	s := r.tb.sessions.Get(r.sid)
	wctx, cancel := context.WithTimeout(ctx, r.timeout(c))
	defer cancel()
	for {
		gen := s.Snapshot().Generation
		got, err := r.snapshotText(ctx, c.Variant == "Style")
		if err != nil || got == string(want) {
			return err
		}
		if _, err := s.WaitChange(wctx, gen); err != nil || s.Status().Exited && s.Snapshot().Generation == gen {
			return r.fail(c, "the screen as in "+golden+" within "+r.timeout(c).String(), firstDiff(string(want), got), strings.TrimSuffix(got, "\n"))
		}
	}
}

// updateSnapshot writes the golden file of c once the screen is still.
func (r *tapeRun) updateSnapshot(ctx context.Context, c tapeCmd, golden string) error {
	args := map[string]any{"session_id": r.sid, "wait_stable_ms": 200, "timeout_ms": min(ms(r.timeout(c)), maxTimeoutMS)}
	if _, err := r.call(ctx, "shell_wait", args, nil); err != nil {
		return err
	}
	got, err := r.snapshotText(ctx, c.Variant == "Style")
	if err != nil {
		return err
	}
	if err := writeRegular(golden, []byte(got)); err != nil {
		return err
	}
	r.res.Wrote = append(r.res.Wrote, golden)
	return nil
}

// snapshotText is the screen's rows (styled: shell_read's styled text),
// masked, trailing blank rows dropped, each row ending in a newline.
func (r *tapeRun) snapshotText(ctx context.Context, styled bool) (string, error) {
	var rows []string
	if styled {
		var read shellReadResult
		if _, err := r.call(ctx, "shell_read", map[string]any{"session_id": r.sid, "format": "styled"}, &read); err != nil {
			return "", err
		}
		rows = strings.Split(read.Text, "\n")
	} else {
		rows = screenRows(r.tb.sessions.Get(r.sid).Snapshot())
	}
	for i := range rows {
		rows[i] = r.mask(rows[i], i)
	}
	rows = trimBlankRows(rows)
	if len(rows) == 0 {
		return "", nil
	}
	return strings.Join(rows, "\n") + "\n", nil
}

// firstDiff says where two texts first differ: the line and both sides.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d: golden %q, screen %q", i+1, a, b)
		}
	}
	return "they differ"
}
