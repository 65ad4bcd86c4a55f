package main

// tools_shell.go: the interactive tools shell_start, shell_send,
// shell_read, shell_wait, shell_resize and shell_stop, and the waiting
// they share: for text or a regular expression on the screen or in new
// output, for output to go idle, or for the program to exit, driven by
// the session's change events and bounded by timeout_ms.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// Waiting limits (milliseconds unless stated).
const (
	defaultTimeoutMS = 10000
	maxTimeoutMS     = 120000 // a wait never lasts longer: call shell_wait again
	defaultDelayMS   = 100
	defaultReadBytes = 8192
	maxTypeDelayMS   = 5000
	streamCap        = 64 << 10 // bytes of new output (escapes removed) kept for matching
	truncatedMarker  = "...(truncated)...\n"
)

var sessionIDProp = prop("string", "The shell_session_id returned by shell_start (see sessions://list).")

var cursorSchema = map[string]any{
	"type":        "object",
	"description": "The cursor: 0-based row and column on the visible screen.",
	"properties": map[string]any{
		"row": map[string]any{"type": "integer"}, "col": map[string]any{"type": "integer"},
		"visible": map[string]any{"type": "boolean"},
	},
	"required": []string{"row", "col", "visible"},
}

// exitProps are the fields every waiting tool reports about the process
// (exitInfo).
func exitProps(m map[string]any) map[string]any {
	m["exited"] = prop("boolean", "True when the program has ended (its output is all on the screen).")
	m["exit_code"] = prop("integer", "When exited: the exit status, or 128+N when signal N ended it.")
	m["signal"] = prop("string", "When a signal ended the program: its name, e.g. SIGINT.")
	return m
}

// exitInfo is the exit part of a result.
type exitInfo struct {
	Exited   bool   `json:"exited"`
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty"`
}

func exitOf(st SessionStatus) exitInfo {
	if !st.Exited {
		return exitInfo{}
	}
	code := st.ExitCode
	return exitInfo{Exited: true, ExitCode: &code, Signal: st.Signal}
}

// msArg checks an optional duration in milliseconds.
func msArg(name string, v *int, def, max int) (time.Duration, error) {
	if v == nil {
		return time.Duration(def) * time.Millisecond, nil
	}
	if *v < 0 || *v > max {
		return 0, fmt.Errorf("%s %d is out of range: use 0..%d (milliseconds); for longer waits call shell_wait again", name, *v, max)
	}
	return time.Duration(*v) * time.Millisecond, nil
}

// ---- shell_start

type startArgs struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Cols    *int              `json:"cols"` // nil: the server's default; 0 is refused
	Rows    *int              `json:"rows"`
	Theme   string            `json:"theme"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`

	ShellIntegration *bool `json:"shell_integration"` // nil: on (unless --shell-integration=false)
}

// derefInt is *p, or 0 for nil.
func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

type startResult struct {
	ID      string   `json:"shell_session_id"`
	Pid     int      `json:"pid"`
	Cols    int      `json:"cols"`
	Rows    int      `json:"rows"`
	Theme   string   `json:"theme"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Cwd     string   `json:"cwd"`

	ShellIntegration shellIntegration `json:"shell_integration"`
	Screen           string           `json:"screen"` // the first screen, once the program is ready
}

func (a *App) toolShellStart() *Tool {
	return newTool(Tool{
		Name:  "shell_start",
		Title: "Start a program in a terminal",
		Description: "Start a program (default: the user's shell) in a new pseudo-terminal and return its shell_session_id. " +
			"The program sees a real xterm-256color terminal, so full-screen apps (vim, htop, less, TUIs) work. " +
			"Pass the program and its arguments separately: command \"python3\", args [\"-i\"]. " +
			"It returns once the program is ready (a shell with integration: its first prompt; another program: its first output and a short quiet, or once it waits for input), with that first screen. Next, use shell_send to type (Enter is \"\\r\") and shell_read or shell_screenshot to look at the screen; " +
			"call shell_stop when done. The session stays readable after the program exits, until shell_stop.",
		Input: objectSchema(startIntegrationProps(map[string]any{
			"command": prop("string", "Program name (searched in PATH) or path. Default: $SHELL, else bash."),
			"args":    map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Arguments, one per element (no shell quoting)."},
			"cols":    intProp("Screen width in cells (default: the server's, usually 120).", minCols, maxCols),
			"rows":    intProp("Screen height in cells (default: the server's, usually 40).", minRows, maxRows),
			"theme":   prop("string", "Colour theme for screenshots and recordings (see themes://list), e.g. one-dark."),
			"cwd":     prop("string", "Working directory (default: the server's); ~/ is the home directory."),
			"env":     map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}, "description": "Extra environment variables, e.g. {\"LANG\": \"C.UTF-8\"}."},
		})),
		Output: outputSchema(startReadyProps(map[string]any{
			"shell_session_id": prop("string", "Pass this as session_id to the other tools."),
			"pid":              prop("integer", "Process id of the program."),
			"cols":             prop("integer", "Screen width in cells."),
			"rows":             prop("integer", "Screen height in cells."),
			"theme":            prop("string", "Theme used for captures."),
			"command":          prop("string", "The program started."),
			"args":             map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"cwd":              prop("string", "Its working directory."),
		}), "shell_session_id", "pid", "cols", "rows", "theme", "command", "args", "cwd", "shell_integration", "screen"),
		OpenWorld: true,
	}, a.shellStart)
}

// shellStart starts the session and waits for the program's first screen.
func (a *App) shellStart(ctx context.Context, _ *ToolCall, in startArgs) (startResult, error) {
	cols, rows := derefInt(in.Cols), derefInt(in.Rows)
	if (in.Cols != nil && cols == 0) || (in.Rows != nil && rows == 0) {
		// startSession reads 0 as "the default"; an explicit 0 is a mistake.
		c, r := cols, rows
		if in.Cols == nil {
			c = a.cfg.Cols
		}
		if in.Rows == nil {
			r = a.cfg.Rows
		}
		return startResult{}, checkSize(c, r)
	}
	s, err := a.startSession(StartOptions{Command: in.Command, Args: in.Args, Cols: cols, Rows: rows, Theme: in.Theme, Cwd: in.Cwd, Env: in.Env,
		NoShellIntegration: in.ShellIntegration != nil && !*in.ShellIntegration})
	if err != nil {
		return startResult{}, err
	}
	// Typing before a shell has printed its prompt works, but the echo
	// lands before the prompt: wait until the program is ready.
	s.waitReady(ctx)
	st := s.Status()
	args := s.Args
	if args == nil {
		args = []string{}
	}
	return startResult{ID: s.ID, Pid: st.Pid, Cols: st.Cols, Rows: st.Rows, Theme: s.Theme, Command: s.Command, Args: args, Cwd: s.Cwd,
		ShellIntegration: s.ShellInfo().Integration, Screen: s.Text(false)}, nil
}

// ---- shell_send

type sendArgs struct {
	SessionID   string   `json:"session_id"`
	Input       string   `json:"input"`
	Keys        []string `json:"keys"`
	TypeDelayMS *int     `json:"type_delay_ms"`
	DelayMS     *int     `json:"delay_ms"`
	WaitFor     string   `json:"wait_for"`
	WaitIdleMS  *int     `json:"wait_idle_ms"`
	TimeoutMS   *int     `json:"timeout_ms"`
	commandWaitArgs
}

type sendResult struct {
	Success      bool   `json:"success"`
	BufferBefore string `json:"bufferBefore"`
	BufferAfter  string `json:"bufferAfter"`
	Matched      *bool  `json:"matched,omitempty"`
	TimedOut     *bool  `json:"timed_out,omitempty"`
	exitInfo
	commandOutcome
}

func (a *App) toolShellSend() *Tool {
	return newTool(Tool{
		Name:  "shell_send",
		Title: "Type into a terminal",
		Description: "Send keystrokes to the program and return the screen before and after (bufferBefore, bufferAfter: the visible screen). " +
			"input is typed as given; write Enter as \"\\r\" (not \"\\n\"), e.g. \"ls -la\\r\". Escapes in input: \\r \\n \\t \\e \\xHH \\uHHHH \\\\. " +
			"keys sends named keys after input: Enter, Tab, Backspace, Escape, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, " +
			"C-c (Ctrl-C; also ^C), C-d, M-x (Alt-x), C-Left. " +
			"In a shell with integration (bash, zsh, fish; see shell_start's shell_integration) use wait_for_command true: it returns when the command ends and the prompt is back, with command {line, exit_code, duration_ms, cwd, output}, whatever the prompt looks like. " +
			"Elsewhere prefer wait_for over fixed delays: it returns as soon as the text (or /regex/ with flags i, m, s) appears on the screen or in new output; if the text is already on screen before sending, only new output counts. " +
			"The echo of what you type counts too: to wait for a command's output, wait for text the command line does not contain (type echo DO''NE, wait for DONE) or for the next prompt. wait_idle_ms returns once output has been quiet that long. " +
			"Without either, it waits delay_ms (default 100). Waits end at timeout_ms with matched false, never with an error. " +
			"Check bufferAfter after each step before the next.",
		Input: objectSchema(commandArgProps(map[string]any{
			"session_id":    sessionIDProp,
			"input":         prop("string", "Text to type. \"\\r\" is Enter; \"\\x03\" is Ctrl-C; \"\\e\" is Escape."),
			"keys":          map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Named keys sent after input, e.g. [\"Down\", \"Enter\"] or [\"C-c\"]."},
			"type_delay_ms": intProp("Pause between keystrokes, to type like a person (for recordings). Default 0: all at once.", 0, maxTypeDelayMS),
			"delay_ms":      intProp("How long to wait after sending when neither wait_for nor wait_idle_ms is given. Default 100.", 0, maxTimeoutMS),
			"wait_for":      prop("string", "Return as soon as this text appears (screen or new output). /regex/ or /regex/i for a regular expression (RE2)."),
			"wait_idle_ms":  intProp("Return once no output arrived for this long (after wait_for matched, when both are given).", 1, maxTimeoutMS),
			"timeout_ms":    intProp("Longest wait for wait_for / wait_idle_ms. Default 10000.", 0, maxTimeoutMS),
		}), "session_id"),
		Output: outputSchema(commandProps(exitProps(map[string]any{
			"success":      prop("boolean", "True when the input was written."),
			"bufferBefore": prop("string", "The visible screen before sending."),
			"bufferAfter":  prop("string", "The visible screen after the wait."),
			"matched":      prop("boolean", "When waiting: true if wait_for matched (or output went idle) before timeout_ms."),
			"timed_out":    prop("boolean", "When waiting: true if timeout_ms ended the wait."),
		})), "success", "bufferBefore", "bufferAfter", "exited"),
		OpenWorld: true,
	}, a.handleSend)
}

// sendPlan is a checked shell_send: the writes to make (one per keystroke
// when typing slowly, else one), the pause between them, and the wait
// after.
type sendPlan struct {
	units     [][]byte
	typeDelay time.Duration
	delay     time.Duration // the fixed wait when cond is not waiting
	cond      waitCond
	timeout   time.Duration
}

// handleSend types into s and waits: it returns the screen before the
// input and after the wait.
func (a *App) handleSend(ctx context.Context, call *ToolCall, in sendArgs) (sendResult, error) {
	s, err := a.session(in.SessionID)
	if err != nil {
		return sendResult{}, err
	}
	p, err := planSend(s, in)
	if err != nil {
		return sendResult{}, err
	}
	maxOut, err := s.checkCommandWait(in.commandWaitArgs)
	if err != nil {
		return sendResult{}, err
	}
	p.cond.command = in.WaitForCommand
	s.settle(ctx)
	w := s.watch()
	defer w.close()
	before := w.before(p.cond)
	if err := s.typeUnits(ctx, p.units, p.typeDelay, p.timeout); err != nil {
		return sendResult{}, err
	}
	if ctx.Err() != nil {
		return sendResult{}, errors.New("cancelled")
	}

	res := sendResult{Success: true, BufferBefore: before}
	if p.cond.waiting() {
		out := w.wait(ctx, p.cond, p.timeout, call.Progress)
		res.Matched, res.TimedOut = &out.matched, &out.timedOut
		if p.cond.command {
			res.commandOutcome = s.commandOutcomeOf(out.command, maxOut)
		}
	} else {
		t := time.NewTimer(p.delay)
		select {
		case <-t.C:
		case <-s.done:
		case <-ctx.Done():
		}
		t.Stop()
	}
	s.settle(ctx)
	st := s.Status()
	res.BufferAfter = s.Text(false)
	res.exitInfo = exitOf(st)
	return res, nil
}

// planSend checks shell_send's arguments against the limits and the
// session's state, and encodes the input and keys (the arrow keys follow
// the session's DECCKM mode).
func planSend(s *Session, in sendArgs) (sendPlan, error) {
	var p sendPlan
	if in.Input == "" && len(in.Keys) == 0 {
		return p, errors.New("nothing to send: give input (text; \"\\r\" is Enter) or keys (e.g. [\"Enter\"]); to only wait, use shell_wait")
	}
	if len(in.Input) > maxInputBytes {
		return p, fmt.Errorf("input is %d bytes, over the %d-byte limit: send it in parts", len(in.Input), maxInputBytes)
	}
	var err error
	if p.typeDelay, err = msArg("type_delay_ms", in.TypeDelayMS, 0, maxTypeDelayMS); err != nil {
		return p, err
	}
	if p.delay, err = msArg("delay_ms", in.DelayMS, defaultDelayMS, maxTimeoutMS); err != nil {
		return p, err
	}
	if p.cond, p.timeout, err = waitArgs(in.WaitFor, in.WaitIdleMS, in.TimeoutMS); err != nil {
		return p, err
	}
	if st := s.Status(); st.Exited {
		return p, fmt.Errorf("session %s has exited (exit code %d): read its screen with shell_read, start a new one with shell_start", s.ID, st.ExitCode)
	}
	data, err := decodeInput(in.Input)
	if err != nil {
		return p, err
	}
	appCursor := s.Modes().AppCursor
	if p.typeDelay > 0 {
		p.units = inputUnits(data)
	} else if len(data) > 0 {
		p.units = [][]byte{data}
	}
	for _, k := range in.Keys {
		b, err := encodeKey(k, appCursor)
		if err != nil {
			return p, err
		}
		p.units = append(p.units, b)
		data = append(data, b...)
	}
	if len(data) > maxInputBytes {
		return p, fmt.Errorf("input and keys are %d bytes, over the %d-byte limit: send them in parts", len(data), maxInputBytes)
	}
	if typing := time.Duration(len(p.units)-1) * p.typeDelay; typing > maxTimeoutMS*time.Millisecond {
		return p, fmt.Errorf("typing %d keystrokes %v apart takes %v, over the %d s limit: lower type_delay_ms or send in parts",
			len(p.units), p.typeDelay, typing.Round(time.Second), maxTimeoutMS/1000)
	}
	return p, nil
}

// typeUnits writes units to the program, typeDelay apart. The writes get
// timeout plus the typing time in all; when that runs out the rest is
// not typed, and the caller's wait decides the outcome. A program that
// exits first is an error, reported once all its output is drained.
func (s *Session) typeUnits(ctx context.Context, units [][]byte, typeDelay, timeout time.Duration) error {
	wctx, cancel := context.WithTimeout(ctx, timeout+time.Duration(len(units))*typeDelay)
	defer cancel()
	for i, u := range units {
		if i > 0 && typeDelay > 0 {
			if !sleepCtx(wctx, typeDelay) {
				break
			}
		}
		if err := s.writeInput(wctx, u); err != nil {
			if errors.Is(err, errExited) {
				<-s.done // the exit is reported with all output drained
				st := s.Status()
				return fmt.Errorf("session %s: the program exited (exit code %d) before all input was written: read its screen with shell_read", s.ID, st.ExitCode)
			}
			return fmt.Errorf("session %s: %v", s.ID, err)
		}
	}
	return nil
}

// ---- shell_read

type shellReadArgs struct {
	SessionID  string `json:"session_id"`
	Raw        bool   `json:"raw"`
	Scrollback *bool  `json:"scrollback"`
	MaxBytes   *int   `json:"max_bytes"`
	Format     string `json:"format"` // "" or "text", or "styled" (styled.go)
}

type cursorInfo struct {
	Row     int  `json:"row"`
	Col     int  `json:"col"`
	Visible bool `json:"visible"`
}

type shellReadResult struct {
	Text      string     `json:"text"`
	Truncated bool       `json:"truncated"`
	Cols      int        `json:"cols"`
	Rows      int        `json:"rows"`
	Cursor    cursorInfo `json:"cursor"`
	Runs      styledRuns `json:"runs,omitempty"` // format styled
	Base      *Style     `json:"base,omitempty"` // format styled
	exitInfo
}

// blocks shows the text itself rather than its JSON.
func (r shellReadResult) blocks() (string, []Content) {
	if r.Text == "" {
		return "(the screen is empty)", nil
	}
	return r.Text, nil
}

func (a *App) toolShellRead() *Tool {
	return newTool(Tool{
		Name:  "shell_read",
		Title: "Read a terminal's screen",
		Description: "Return the terminal's text: the scrollback history and the visible screen (the live bottom comes last), " +
			"or only the visible screen with scrollback false. When longer than max_bytes (default 8192) the newest part is kept and the text starts with \"...(truncated)...\". " +
			"raw true returns the program's raw output instead (escape sequences kept), newest max_bytes. " +
			"Read after every step to see what the program did; use shell_screenshot to see colours and layout. " + styledReadHelp,
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"raw":        prop("boolean", "Return the raw output stream with escape sequences instead of the screen text."),
			"scrollback": prop("boolean", "Include the lines scrolled off the top (default true)."),
			"max_bytes":  intProp("Return at most this many bytes, the newest (default 8192).", 1, rawTailCap),
			"format":     formatProp,
		}, "session_id"),
		Output: outputSchema(exitProps(map[string]any{
			"text":      prop("string", "The text (also the tool's text content)."),
			"truncated": prop("boolean", "True when older text was left out."),
			"cols":      prop("integer", "Screen width in cells."),
			"rows":      prop("integer", "Screen height in cells."),
			"cursor":    cursorSchema,
			"runs":      runsSchema,
			"base":      baseSchema,
		}), "text", "truncated", "cols", "rows", "cursor", "exited"),
		ReadOnly:   true,
		Idempotent: true,
	}, a.shellRead)
}

// shellRead returns the screen text (or the raw output), its size and
// the cursor.
func (a *App) shellRead(ctx context.Context, _ *ToolCall, in shellReadArgs) (shellReadResult, error) {
	s, err := a.session(in.SessionID)
	if err != nil {
		return shellReadResult{}, err
	}
	max := defaultReadBytes
	if in.MaxBytes != nil {
		max = *in.MaxBytes
		if max < 1 || max > rawTailCap {
			return shellReadResult{}, fmt.Errorf("max_bytes %d is out of range: use 1..%d", max, rawTailCap)
		}
	}
	if err := checkReadFormat(in.Format, in.Raw); err != nil {
		return shellReadResult{}, err
	}
	s.settle(ctx)
	var res shellReadResult
	if in.Format == "styled" {
		s.readStyled(&res, max)
	} else if in.Raw {
		p, cut := s.RawTail(max)
		res.Text, res.Truncated = tailText(string(p), max, cut)
	} else {
		res.Text, res.Truncated = tailText(s.Text(in.Scrollback == nil || *in.Scrollback), max, false)
	}
	s.mu.Lock()
	cur := s.term.Cursor()
	st := s.statusLocked()
	s.mu.Unlock()
	res.Cols, res.Rows = st.Cols, st.Rows
	res.Cursor = cursorInfo{Row: cur.Row, Col: cur.Col, Visible: cur.Visible}
	res.exitInfo = exitOf(st)
	return res, nil
}

// tailText keeps the last max bytes of s, starting at a line boundary when
// one is near (else at a character boundary), behind truncatedMarker.
// cut says s itself is already a tail.
func tailText(s string, max int, cut bool) (string, bool) {
	if len(s) > max {
		s, cut = s[len(s)-max:], true
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < 200 && i+1 < len(s) {
			s = s[i+1:]
		}
	}
	if !cut {
		return s, false
	}
	for i := 0; i < utf8.UTFMax && len(s) > 0 && !utf8.RuneStart(s[0]); i++ {
		s = s[1:]
	}
	return truncatedMarker + s, true
}

// ---- shell_wait

type waitArgsIn struct {
	SessionID  string `json:"session_id"`
	WaitFor    string `json:"wait_for"`
	WaitIdleMS *int   `json:"wait_idle_ms"`
	TimeoutMS  *int   `json:"timeout_ms"`
	commandWaitArgs
}

type shellWaitResult struct {
	Matched  bool   `json:"matched"`
	TimedOut bool   `json:"timed_out"`
	Buffer   string `json:"buffer"`
	exitInfo
	commandOutcome
}

func (a *App) toolShellWait() *Tool {
	return newTool(Tool{
		Name:  "shell_wait",
		Title: "Wait for a terminal",
		Description: "Wait without typing: with wait_for_command true (a shell with integration), until the running command ends (at once, already_done true, when none runs); until wait_for (text, or /regex/ with flags i, m, s) is on the screen or in new output, " +
			"until output has been quiet for wait_idle_ms, or, with neither, until the program exits. " +
			"Returns as soon as that happens (matched true) or at timeout_ms (default 10000, at most 120000) with matched false and timed_out true; " +
			"buffer is the visible screen then. Use it for slow commands instead of sleeping.",
		Input: objectSchema(commandArgProps(map[string]any{
			"session_id":   sessionIDProp,
			"wait_for":     prop("string", "Text to wait for; /regex/ or /regex/i for a regular expression (RE2)."),
			"wait_idle_ms": intProp("Wait until no output arrived for this long (after wait_for matched, when both are given).", 1, maxTimeoutMS),
			"timeout_ms":   intProp("Longest wait. Default 10000.", 0, maxTimeoutMS),
		}), "session_id"),
		Output: outputSchema(commandProps(exitProps(map[string]any{
			"matched":   prop("boolean", "True when the condition was met before timeout_ms."),
			"timed_out": prop("boolean", "True when timeout_ms ended the wait."),
			"buffer":    prop("string", "The visible screen when the wait ended."),
		})), "matched", "timed_out", "buffer", "exited"),
		ReadOnly: true,
	}, a.shellWait)
}

// shellWait waits for the condition without typing.
func (a *App) shellWait(ctx context.Context, call *ToolCall, in waitArgsIn) (shellWaitResult, error) {
	s, err := a.session(in.SessionID)
	if err != nil {
		return shellWaitResult{}, err
	}
	cond, timeout, err := waitArgs(in.WaitFor, in.WaitIdleMS, in.TimeoutMS)
	if err != nil {
		return shellWaitResult{}, err
	}
	maxOut, err := s.checkCommandWait(in.commandWaitArgs)
	if err != nil {
		return shellWaitResult{}, err
	}
	cond.command = in.WaitForCommand
	w := s.watch()
	defer w.close()
	s.settle(ctx)
	if done, ok := s.alreadyDone(w, cond, maxOut); ok {
		return shellWaitResult{Matched: true, Buffer: s.Text(false), exitInfo: exitOf(s.Status()), commandOutcome: done}, nil
	}
	out := w.wait(ctx, cond, timeout, call.Progress)
	if ctx.Err() != nil {
		return shellWaitResult{}, errors.New("cancelled")
	}
	s.settle(ctx)
	res := shellWaitResult{Matched: out.matched, TimedOut: out.timedOut, Buffer: s.Text(false), exitInfo: exitOf(s.Status())}
	if cond.command {
		res.commandOutcome = s.commandOutcomeOf(out.command, maxOut)
	}
	return res, nil
}

// ---- shell_resize

type resizeArgs struct {
	SessionID string `json:"session_id"`
	Cols      int    `json:"cols"`
	Rows      int    `json:"rows"`
}

// resizeResult is the size shell_resize set, in cells.
type resizeResult struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

func (a *App) toolShellResize() *Tool {
	return newTool(Tool{
		Name:  "shell_resize",
		Title: "Resize a terminal",
		Description: "Change the terminal's size in cells; the program gets SIGWINCH and redraws (full-screen apps take a moment: " +
			"follow with shell_wait wait_idle_ms 200 or shell_read).",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"cols":       intProp("New width in cells.", minCols, maxCols),
			"rows":       intProp("New height in cells.", minRows, maxRows),
		}, "session_id", "cols", "rows"),
		Output: outputSchema(map[string]any{
			"cols": prop("integer", "Screen width in cells."),
			"rows": prop("integer", "Screen height in cells."),
		}, "cols", "rows"),
		Idempotent: true,
	}, a.shellResize)
}

// shellResize checks the size and resizes the session.
func (a *App) shellResize(_ context.Context, _ *ToolCall, in resizeArgs) (resizeResult, error) {
	s, err := a.session(in.SessionID)
	if err != nil {
		return resizeResult{}, err
	}
	if err := checkSize(in.Cols, in.Rows); err != nil {
		return resizeResult{}, err
	}
	if err := s.resize(in.Cols, in.Rows); err != nil {
		return resizeResult{}, err
	}
	return resizeResult{Cols: in.Cols, Rows: in.Rows}, nil
}

// resize sets the emulator's and the PTY's size; the kernel signals
// SIGWINCH to the program. An exited session's screen is resized only.
func (s *Session) resize(cols, rows int) error {
	s.mu.Lock()
	s.term.Resize(cols, rows)
	s.signalLocked()
	s.mu.Unlock()
	s.app.resourceUpdated(bufferURI(s.ID))
	select {
	case <-s.closed:
		return nil
	case <-s.reaped:
		return nil
	default:
	}
	return setPTYSize(s.master, cols, rows)
}

// ---- shell_stop
// ---- shell_stop

type stopArgs struct {
	SessionID string `json:"session_id"`
	Signal    string `json:"signal"`
}

type stopResult struct {
	Success  bool   `json:"success"`
	ExitCode int    `json:"exit_code"`
	Signal   string `json:"signal,omitempty"`
	// The recording that was running, which shell_stop saved.
	RecordingURI string `json:"recording_uri,omitempty"`
	GIFPath      string `json:"gif_path,omitempty"`
	CastPath     string `json:"cast_path,omitempty"`
}

func (a *App) toolShellStop() *Tool {
	return newTool(Tool{
		Name:  "shell_stop",
		Title: "Stop a terminal session",
		Description: "End the program and close the session: signal (default SIGHUP, like closing a terminal window) goes to its process group, " +
			"SIGKILL follows after 2 s if anything is still running, and all its processes are reaped (on Linux also daemons it started that left its session with setsid: they carry its TTYWRIGHT_SESSION_TOKEN). " +
			"Returns exit_code (128+N when signal N ended it) and the signal, and saves a recording still running (recording_uri, gif_path, cast_path). Afterwards the tools refuse the id (its screen, screenshots and recordings stay readable as session:// resources); " +
			"take screenshots first. To interrupt a command but keep the session, send input \"\\x03\" (Ctrl-C) with shell_send instead.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"signal":     prop("string", "Signal to send first: SIGHUP (default), SIGINT, SIGTERM, SIGKILL, ... (the SIG prefix is optional)."),
		}, "session_id"),
		Output: outputSchema(map[string]any{
			"success":       prop("boolean", "True when the program has ended and been reaped."),
			"exit_code":     prop("integer", "Exit status, or 128+N when signal N ended it."),
			"signal":        prop("string", "The signal that ended the program, if one did."),
			"recording_uri": prop("string", "The recording that was running, saved by the stop (GIF and asciicast)."),
			"gif_path":      prop("string", "Its GIF file."),
			"cast_path":     prop("string", "Its asciicast file."),
		}, "success", "exit_code"),
		Destructive: true,
	}, a.shellStop)
}

// shellStop signals the program, reaps it and saves a running recording.
func (a *App) shellStop(_ context.Context, _ *ToolCall, in stopArgs) (stopResult, error) {
	sig := syscall.SIGHUP
	if in.Signal != "" {
		var ok bool
		if sig, ok = signalByName(in.Signal); !ok {
			return stopResult{}, fmt.Errorf("unknown signal %q: use a name such as SIGHUP, SIGINT, SIGTERM or SIGKILL", in.Signal)
		}
	}
	s, err := a.session(in.SessionID)
	if err != nil {
		return stopResult{}, err
	}
	st, rec := a.stopSession(s, sig)
	res := stopResult{Success: st.Exited, ExitCode: st.ExitCode, Signal: st.Signal}
	if rec != nil {
		res.RecordingURI, res.GIFPath, res.CastPath = rec.URI, rec.GIFPath, rec.CastPath
	}
	return res, nil
}

// ---- waiting

// matcher is a parsed wait_for: literal text or a regular expression.
type matcher struct {
	text string
	re   *regexp.Regexp
}

// parseWaitFor reads wait_for: "/re/flags" (flags from imsU; the JavaScript
// habits g, u and y are accepted and ignored) is a regular expression,
// anything else literal text.
func parseWaitFor(s string) (*matcher, error) {
	if s == "" {
		return nil, nil
	}
	if err := checkWaitFor(s); err != nil { // safety.go
		return nil, err
	}
	if j := strings.LastIndexByte(s, '/'); len(s) >= 2 && s[0] == '/' && j > 0 {
		flags := s[j+1:]
		if strings.Trim(flags, "imsUguy") == "" {
			goFlags := strings.Map(func(r rune) rune {
				if strings.ContainsRune("imsU", r) {
					return r
				}
				return -1
			}, flags)
			expr := s[1:j]
			if goFlags != "" {
				expr = "(?" + goFlags + ")" + expr
			}
			if err := checkRegexProgram(expr); err != nil { // safety.go
				return nil, err
			}
			re, err := regexp.Compile(expr)
			if err != nil {
				return nil, fmt.Errorf("wait_for %q is not a valid regular expression (RE2 syntax): %v; fix it, or drop the surrounding slashes to match the text literally", s, err)
			}
			return &matcher{re: re}, nil
		}
	}
	return &matcher{text: s}, nil
}

func (m *matcher) matchString(s string) bool {
	if m.re != nil {
		return m.re.MatchString(s)
	}
	return strings.Contains(s, m.text)
}

// waitCond is what a wait ends on: match, then idle; with neither, exit.
type waitCond struct {
	match       *matcher
	idle        time.Duration
	afterOutput bool // idle counts only after the first output since the wait began
	command     bool // wait_for_command: the next command end (commands.go)
}

func (c waitCond) waiting() bool { return c.match != nil || c.idle > 0 || c.command }

// describe says what the wait is for, for progress messages.
func (c waitCond) describe(elapsed time.Duration) string {
	var what string
	switch {
	case c.match != nil && c.match.re != nil:
		what = "output matching " + c.match.re.String()
	case c.match != nil:
		what = fmt.Sprintf("%q", c.match.text)
	case c.command:
		what = "the command to end"
	case c.idle > 0:
		what = fmt.Sprintf("%v without output", c.idle)
	default:
		what = "the program to exit"
	}
	return fmt.Sprintf("waiting for %s (%v so far)", what, elapsed.Round(time.Second))
}

// waitArgs validates wait_for, wait_idle_ms and timeout_ms.
func waitArgs(waitFor string, idleMS, timeoutMS *int) (waitCond, time.Duration, error) {
	var c waitCond
	var err error
	if c.match, err = parseWaitFor(waitFor); err != nil {
		return c, 0, err
	}
	if idleMS != nil {
		if *idleMS < 1 || *idleMS > maxTimeoutMS {
			return c, 0, fmt.Errorf("wait_idle_ms %d is out of range: use 1..%d (milliseconds)", *idleMS, maxTimeoutMS)
		}
		c.idle = time.Duration(*idleMS) * time.Millisecond
	}
	timeout, err := msArg("timeout_ms", timeoutMS, defaultTimeoutMS, maxTimeoutMS)
	return c, timeout, err
}

// outputWatch collects the output that arrives after it is made, with
// escape sequences and controls other than \n and \t removed, so text can
// be found even after it has scrolled off the screen or is split across
// screen rows. Its fields are guarded by s.mu (the listener runs there).
type outputWatch struct {
	s        *Session
	start    time.Time
	strip    ansiStripper
	text     []byte // the newest output, at most streamCap bytes
	base     int    // bytes dropped from the front of text so far
	checked  int    // stream offset (base-relative total) searched so far
	screenOK bool   // the screen may satisfy the match (it did not before the input)
	remove   func()
	cmdBase  int // commands ended when the watch began (commands.go)
}

// watch starts collecting output.
func (s *Session) watch() *outputWatch {
	w := &outputWatch{s: s, start: time.Now(), screenOK: true}
	s.mu.Lock()
	w.cmdBase = s.commandBaseLocked()
	s.mu.Unlock()
	w.remove = s.AddOutputListener(func(p []byte, _ time.Time) {
		w.text = w.strip.appendText(w.text, p)
		if len(w.text) > streamCap {
			drop := len(w.text) - streamCap/2
			w.text = append(w.text[:0], w.text[drop:]...)
			w.base += drop
		}
	})
	return w
}

func (w *outputWatch) close() { w.remove() }

// before returns the visible screen and notes whether it already matches
// c: then only new output can satisfy the wait (the old prompt on screen
// must not end a wait for the next one).
func (w *outputWatch) before(c waitCond) string {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if c.match != nil && c.match.matchString(w.screenLocked()) {
		w.screenOK = false
	}
	// Under a full-screen program the shell's old screen is hidden, and
	// comes back when the program exits: its old prompt must not end a
	// wait for the next one either.
	if c.match != nil && w.screenOK {
		if hidden := w.s.term.HiddenMainText(); hidden != "" && c.match.matchString(hidden) {
			w.screenOK = false
		}
	}
	w.start = time.Now()
	return w.s.textLocked(false)
}

// screenLocked is the visible screen as matching sees it: soft-wrapped
// rows joined (a long line is one line), the blanks before the cursor
// kept. s.mu is held.
func (w *outputWatch) screenLocked() string {
	t := w.s.term
	lines := t.Lines()
	cur := t.Cursor()
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i == cur.Row {
			if pad := cur.Col - textWidth(l); pad > 0 {
				b.WriteString(strings.Repeat(" ", pad))
			}
		}
		if !t.Wrapped(i) && i+1 < len(lines) {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// streamMatch searches the output collected since the last call; literal
// text is searched only where it could newly appear. s.mu is held.
func (w *outputWatch) streamMatch(m *matcher) bool {
	end := w.base + len(w.text)
	if end == w.checked {
		return false
	}
	if m.re != nil {
		w.checked = end
		return m.re.Match(w.text)
	}
	from := max(w.checked-w.base-len(m.text)+1, 0)
	w.checked = end
	return bytes.Contains(w.text[from:], []byte(m.text))
}

// waitOutcome is how a wait ended.
type waitOutcome struct {
	matched  bool // the condition held (for a wait on exit: the program exited)
	timedOut bool
	command  *command // wait_for_command: the command that ended
}

// wait blocks until c holds, the program exits, timeout passes or ctx
// ends. It wakes on the session's change events only (and on a timer for
// the idle condition), never by polling.
//
// progress, when not nil, hears about the wait once a second
// (notifications/progress: elapsed and total milliseconds), so clients that
// reset their request timeout on progress keep waiting.
func (w *outputWatch) wait(ctx context.Context, c waitCond, timeout time.Duration, progress func(progress, total float64, message string)) waitOutcome {
	s := w.s
	began := time.Now()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var tick <-chan time.Time
	if progress != nil {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		tick = t.C
	}
	idle := time.NewTimer(time.Hour)
	idle.Stop()
	defer idle.Stop()
	matched := c.match == nil
	final := false
	for {
		s.mu.Lock()
		ch, exited, last := s.changed, s.exited, s.lastOutput
		if cmd, done := w.commandDoneLocked(); done && c.command {
			s.mu.Unlock()
			return waitOutcome{matched: true, command: cmd}
		}
		if !matched {
			matched = w.screenOK && c.match.matchString(w.screenLocked()) || w.streamMatch(c.match)
		}
		s.mu.Unlock()
		switch {
		case matched && c.idle > 0:
			if exited {
				return waitOutcome{matched: true}
			}
			quiet := last
			if quiet.Before(w.start) {
				quiet = w.start
			}
			if c.afterOutput && !last.After(w.start) {
				break // nothing printed yet: not idle, just slow to start
			}
			d := time.Until(quiet.Add(c.idle))
			if d <= 0 {
				return waitOutcome{matched: true}
			}
			idle.Reset(d)
		case matched && c.match != nil:
			return waitOutcome{matched: true}
		case exited:
			// No more output can come: a wait on exit is satisfied, a wait for
			// text is not.
			return waitOutcome{matched: !c.waiting()}
		}
		if final {
			return waitOutcome{timedOut: true}
		}
		select {
		case <-ch:
		case <-idle.C:
		case <-deadline.C:
			final = true // one last look: output may have arrived just now
		case <-ctx.Done():
			return waitOutcome{timedOut: true}
		case <-tick:
			elapsed := time.Since(began)
			progress(float64(elapsed.Milliseconds()), float64(timeout.Milliseconds()), c.describe(elapsed))
		}
	}
}

// ansiStripper removes escape sequences (CSI, OSC, DCS and other strings,
// two- and three-byte escapes) and C0 controls other than \n and \t from
// a byte stream, carrying its state across chunks.
type ansiStripper struct{ state uint8 }

// ansiStripper states.
const (
	stripGround    = iota
	stripEsc       // after ESC
	stripEscInter  // ESC with intermediates (ESC ( 0, ESC # 8)
	stripCSI       // ESC [ ... up to the final byte
	stripString    // OSC, DCS, SOS, PM, APC up to BEL or ST
	stripStringEsc // ESC inside a string: ST is ESC \
)

// appendText appends the printable text of p to dst.
func (a *ansiStripper) appendText(dst, p []byte) []byte {
	for _, c := range p {
		switch a.state {
		case stripGround:
			switch {
			case c == 0x1b:
				a.state = stripEsc
			case c == '\n' || c == '\t' || c >= 0x20 && c != 0x7f:
				dst = append(dst, c)
			}
		case stripEsc:
			switch {
			case c == '[':
				a.state = stripCSI
			case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
				a.state = stripString
			case c >= 0x20 && c <= 0x2f:
				a.state = stripEscInter
			case c == 0x1b:
			default:
				a.state = stripGround
			}
		case stripEscInter:
			if c < 0x20 || c > 0x2f {
				a.state = stripGround
			}
		case stripCSI:
			switch {
			case c == 0x1b:
				a.state = stripEsc
			case c >= 0x40 && c <= 0x7e:
				a.state = stripGround
			}
		case stripString:
			switch c {
			case 0x07:
				a.state = stripGround
			case 0x1b:
				a.state = stripStringEsc
			}
		case stripStringEsc:
			switch c {
			case '\\':
				a.state = stripGround
			case 0x1b:
			default:
				a.state = stripString
			}
		}
	}
	return dst
}
