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

	ShellIntegration *bool `json:"shell_integration"` // nil: as --shell-integration says (default on)
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
	Ready            bool             `json:"ready"`  // false: shell_start stopped waiting, or the program exited (Session.waitReady)
	Note             string           `json:"note,omitempty"`
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
		}), "shell_session_id", "pid", "cols", "rows", "theme", "command", "args", "cwd", "shell_integration", "screen", "ready"),
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
		ShellIntegration: in.ShellIntegration})
	if err != nil {
		return startResult{}, err
	}
	// Typing before a shell has printed its prompt works, but the echo
	// lands before the prompt: wait until the program is ready.
	ready, note := s.waitReady(ctx)
	st := s.Status()
	args := s.Args
	if args == nil {
		args = []string{}
	}
	return startResult{ID: s.ID, Pid: st.Pid, Cols: st.Cols, Rows: st.Rows, Theme: s.Theme, Command: s.Command, Args: args, Cwd: s.Cwd,
		ShellIntegration: s.ShellInfo().Integration, Screen: s.Text(false), Ready: ready, Note: note}, nil
}

// ---- shell_send

type sendArgs struct {
	SessionID   string   `json:"session_id"`
	Text        string   `json:"text"`
	Input       string   `json:"input"`
	Keys        []string `json:"keys"`
	TypeDelayMS *int     `json:"type_delay_ms"`
	DelayMS     *int     `json:"delay_ms"`
	WaitArgs
}

type sendResult struct {
	Success      bool   `json:"success"`
	BufferBefore string `json:"bufferBefore"`
	BufferAfter  string `json:"bufferAfter"`
	waitReport
	exitInfo

	commandOutcome
	NoCommand bool `json:"no_command,omitempty"` // wait_for_command: the input ran no command, and the shell drew a new prompt
}

// noCommandNote starts the text block of a shell_send whose line the
// shell ran no command for and answered with a new prompt (a syntax
// error, a line Ctrl-C discarded); the shell's reply follows it.
const noCommandNote = "NO COMMAND: the shell ran no command for this line (a syntax error, or a line discarded with C-c): its reply is on the screen:"

// waitReport is how the wait of a shell_send or shell_click went: every
// field is left out when the call did not wait.
type waitReport struct {
	Matched  *bool    `json:"matched,omitempty"`
	TimedOut *bool    `json:"timed_out,omitempty"`
	Held     []string `json:"held,omitempty"`
	EndedBy  string   `json:"ended_by,omitempty"`

	summary string // the text block's first line when the wait did not match
}

// reportWait is the waitReport of a wait on spec that ended as out.
func reportWait(out waitOutcome, spec waitSpec) waitReport {
	return waitReport{Matched: &out.matched, TimedOut: &out.timedOut, Held: out.held, EndedBy: out.endedBy, summary: out.summary(spec)}
}

// blocks puts a wait that did not match in the first words of the text
// block, before the JSON.
func (r sendResult) blocks() (string, []Content) { return withSummary(r.summary, r) }

// withSummary is the text block of a result whose wait did not match:
// summary, then v's JSON; "" (the JSON alone) when summary is "".
func withSummary(summary string, v any) (string, []Content) {
	if summary == "" {
		return "", nil
	}
	b, err := marshalJSON(v)
	if err != nil {
		return summary, nil
	}
	return summary + "\n" + string(b), nil
}

func (a *App) toolShellSend() *Tool {
	return newTool(Tool{
		Name:  "shell_send",
		Title: "Type into a terminal",
		Description: "Type into the program and return the screen before and after (bufferBefore, bufferAfter: the visible screen). " +
			"Use text for code, paths and heredocs: it arrives exactly as written, like a paste (newlines as Enter, bracketed when the program asks for it), " +
			"so {text: \"printf 'a\\tb\\n'\", keys: [\"Enter\"]} runs printf with its own \\t and \\n. " +
			"input keeps escapes instead: \\r (Enter) \\n \\t \\e \\xHH \\uHHHH \\\\, e.g. \"ls -la\\r\"; there \\t is a Tab key and bash completes on it. " +
			"keys sends named keys: Enter, Tab, Backspace, Escape, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, Insert, Delete, F1-F12, " +
			"C-c (Ctrl-C; also ^C), C-d, M-x (Alt-x), C-Left. Given together they go in the order text, input, keys. " +
			"In a shell with integration (bash, zsh, fish; see shell_start's shell_integration) use wait_for_command true: it returns when the command ends and the prompt is back, with command {line, exit_code, duration_ms, cwd, output}, whatever the prompt looks like; a line the shell runs no command for (a syntax error) returns at its new prompt with no_command true and the shell's reply first in the text. " +
			"Elsewhere prefer waits over fixed delays: wait_for returns once the text (or /regex/) is on the screen or in new output, e.g. wait_for \"notes.txt\" after \"vim notes.txt\\r\" returns once vim shows the name; " +
			"the echo of what this call typed does not count (to see your own typing drawn, use wait_stable_ms), nor text already on the screen (new_only, default true here), so wait_for \"$ \" waits for the next prompt. " +
			"Then (after wait_for_command or wait_for) wait_for_gone, then wait_idle_ms or wait_stable_ms, in that order; matched, held and ended_by say which held. " +
			"Without a wait it pauses delay_ms (default 100). A wait that runs out says TIMED OUT first in the text and returns the screen, never an error. " +
			"Check bufferAfter after each step before the next.",
		Input: objectSchema(waitProps(map[string]any{
			"session_id":    sessionIDProp,
			"text":          prop("string", "Text delivered exactly as given, no escapes (code, paths, heredocs); newlines become Enter (CR), as in a paste, inside bracketed-paste brackets when the program enabled them. Sent first."),
			"input":         prop("string", "Keystrokes with escapes: \"\\r\" is Enter, \"\\x03\" Ctrl-C, \"\\e\" Escape, \"\\t\" Tab. Sent after text."),
			"keys":          map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Named keys sent last, e.g. [\"Down\", \"Enter\"] or [\"C-c\"]. Send C-c, C-\\ and C-z in a call of their own: after text in the same call the terminal discards what the program has not read yet."},
			"type_delay_ms": intProp("Pause between keystrokes, to type like a person (for recordings): text is then typed key by key, not pasted. Default 0: all at once.", 0, maxTypeDelayMS),
			"delay_ms":      intProp("How long to wait after sending when no wait is given. Default 100.", 0, maxTimeoutMS),
		}, true), "session_id"),
		Output: outputSchema(commandProps(waitResultProps(exitProps(map[string]any{
			"success":      prop("boolean", "True when the input was written."),
			"bufferBefore": prop("string", "The visible screen before sending."),
			"bufferAfter":  prop("string", "The visible screen after the wait."),
			"no_command": prop("boolean", "With wait_for_command: the input ran no command and the shell drew a new prompt: an empty line or Ctrl-C at an empty prompt (then also already_done), "+
				"or a line the shell rejected (a syntax error) or discarded (Ctrl-C): then already_done is absent and the text block starts with NO COMMAND and the shell's reply."),
		}))), "success", "bufferBefore", "bufferAfter", "exited"),
		OpenWorld: true,
	}, a.handleSend)
}

// sendPlan is a checked shell_send: the writes to make (one per keystroke
// when typing slowly, else one per part), the pause between them, the
// printable text they type (for echo tracking) and the wait after.
type sendPlan struct {
	units     [][]byte
	typeDelay time.Duration
	delay     time.Duration // the fixed wait when spec is not waiting
	echo      string        // what the units type, escapes removed, lines split at CR
	spec      waitSpec
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
	s.settle(ctx)
	w := s.watch(p.spec, p.echo)
	defer w.close()
	before := s.Text(false)
	if err := s.typeUnits(ctx, p.units, p.typeDelay, p.spec.timeout); err != nil {
		return sendResult{}, err
	}
	if ctx.Err() != nil {
		return sendResult{}, errors.New("cancelled")
	}

	res := sendResult{Success: true, BufferBefore: before}
	if p.spec.waiting() {
		out := w.wait(ctx, p.spec, call.Progress)
		res.waitReport = reportWait(out, p.spec)
		if p.spec.command {
			res.commandOutcome = s.commandOutcomeOf(out.command, maxOut)
		}
		if p.spec.command && out.command == firstPrompt {
			// No command ran, yet the shell drew a new prompt. An empty line
			// (Enter, Ctrl-C at an empty prompt) is already_done: nothing
			// was asked to run. A line with text the shell rejected is not:
			// the reply says so and quotes what the shell answered.
			reply, empty := w.noCommandReply()
			res.NoCommand = true
			if !empty {
				res.AlreadyDone = false
				res.summary = noCommandNote + "\n" + reply
			}
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
	w.close()
	s.settle(ctx)
	res.BufferAfter = s.Text(false)
	res.exitInfo = exitOf(s.Status())
	return res, nil
}

// planSend checks shell_send's arguments against the limits and the
// session's state, and encodes text, input and keys in that order (text
// follows bracketed-paste mode, the arrow keys DECCKM).
func planSend(s *Session, in sendArgs) (sendPlan, error) {
	var p sendPlan
	if in.Text == "" && in.Input == "" && len(in.Keys) == 0 {
		return p, errors.New("nothing to send: give text (typed as written), input (with escapes; \"\\r\" is Enter) or keys (e.g. [\"Enter\"]); to only wait, use shell_wait")
	}
	for _, f := range []struct{ name, v string }{{"text", in.Text}, {"input", in.Input}} {
		if len(f.v) > maxInputBytes {
			return p, fmt.Errorf("%s is %d bytes, over the %d-byte limit: send it in parts", f.name, len(f.v), maxInputBytes)
		}
	}
	var err error
	if p.typeDelay, err = msArg("type_delay_ms", in.TypeDelayMS, 0, maxTypeDelayMS); err != nil {
		return p, err
	}
	if p.delay, err = msArg("delay_ms", in.DelayMS, defaultDelayMS, maxTimeoutMS); err != nil {
		return p, err
	}
	if p.spec, err = in.WaitArgs.parse(true, false); err != nil {
		return p, err
	}
	if st := s.Status(); st.Exited {
		return p, fmt.Errorf("session %s has exited (exit code %d): read its screen with shell_read, start a new one with shell_start", s.ID, st.ExitCode)
	}
	modes := s.Modes()
	if p.units, err = encodeText(in.Text, modes.BracketedPaste, p.typeDelay > 0); err != nil {
		return p, err
	}
	data, err := decodeInput(in.Input)
	if err != nil {
		return p, err
	}
	if p.typeDelay > 0 {
		p.units = append(p.units, inputUnits(data)...)
	} else if len(data) > 0 {
		p.units = append(p.units, data)
	}
	for _, k := range in.Keys {
		b, err := encodeKey(k, modes.AppCursor)
		if err != nil {
			return p, err
		}
		if modes.LineFeedNL && string(b) == "\r" {
			b = []byte("\r\n") // LNM (CSI 20 h): Return sends CR LF, as on a VT100
		}
		p.units = append(p.units, b)
	}
	total := 0
	for _, u := range p.units {
		total += len(u)
	}
	if total > maxInputBytes {
		return p, fmt.Errorf("text, input and keys are %d bytes, over the %d-byte limit: send them in parts", total, maxInputBytes)
	}
	if typing := time.Duration(len(p.units)-1) * p.typeDelay; typing > maxTimeoutMS*time.Millisecond {
		return p, fmt.Errorf("typing %d keystrokes %v apart takes %v, over the %d s limit: lower type_delay_ms or send in parts",
			len(p.units), p.typeDelay, typing.Round(time.Second), maxTimeoutMS/1000)
	}
	p.echo = echoText(p.units)
	return p, nil
}

// echoText is the printable text units type, for the echo tracker:
// escape sequences (named keys, paste brackets) removed, CR and LF kept
// as line breaks.
func echoText(units [][]byte) string {
	var st ansiStripper
	var out []byte
	for _, u := range units {
		out = st.appendText(out, bytes.ReplaceAll(u, []byte{'\r'}, []byte{'\n'}))
	}
	return string(out)
}

// minWriteTime is the least time the writes of one call get, so that
// timeout_ms 0 (look once) still sends: a program reading its input takes
// a short write at once.
const minWriteTime = time.Second

// typeUnits writes units to the program, typeDelay apart. The writes get
// timeout (at least minWriteTime) plus the typing time in all; when that
// runs out the rest is not typed, and the caller's wait decides the
// outcome. A program that exits first is an error, reported once all its
// output is drained.
func (s *Session) typeUnits(ctx context.Context, units [][]byte, typeDelay, timeout time.Duration) error {
	wctx, cancel := context.WithTimeout(ctx, max(timeout, minWriteTime)+time.Duration(len(units))*typeDelay)
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
// The status line follows the text after a blank line, so that a client
// that drops structuredContent still learns the cursor, the exit and the
// cut.
func (r shellReadResult) blocks() (string, []Content) {
	text := r.Text
	if text == "" {
		text = "(the screen is empty)"
	}
	return text + "\n\n" + r.statusLine(), nil
}

// statusLine is one short line: the screen size, the cursor, whether the
// program runs or how it ended, and whether older text was cut, e.g.
// "[80x24, cursor row 2 col 0; program exited with code 3]".
func (r shellReadResult) statusLine() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%dx%d, cursor row %d col %d", r.Cols, r.Rows, r.Cursor.Row, r.Cursor.Col)
	if !r.Cursor.Visible {
		b.WriteString(" (hidden)")
	}
	switch {
	case !r.Exited:
		b.WriteString("; program running")
	case r.Signal != "":
		fmt.Fprintf(&b, "; program killed by %s (exit code %d)", r.Signal, *r.ExitCode)
	default:
		fmt.Fprintf(&b, "; program exited with code %d", *r.ExitCode)
	}
	if r.Truncated {
		b.WriteString("; older text cut: raise max_bytes for more")
	}
	return b.String() + "]"
}

func (a *App) toolShellRead() *Tool {
	return newTool(Tool{
		Name:  "shell_read",
		Title: "Read a terminal's screen",
		Description: "Return the terminal's text: the scrollback history and the visible screen (the live bottom comes last), soft-wrapped rows joined into one line, " +
			"or only the visible screen with scrollback false. When longer than max_bytes (default 8192) the newest part is kept and the text starts with \"...(truncated)...\". " +
			"raw true returns the program's raw output instead (escape sequences kept), newest max_bytes. " +
			"The text block ends with a status line: size, cursor, whether the program still runs or its exit code, and whether text was cut. " +
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
	scrollback := in.Scrollback == nil || *in.Scrollback
	switch { // one case per form of the text
	case in.Format == "styled":
		s.readStyled(&res, max)
	case in.Raw:
		p, cut := s.RawTail(max)
		res.Text, res.Truncated = tailText(string(p), max, cut)
	default:
		res.Text, res.Truncated = tailText(s.Text(scrollback), max, false)
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

// tailText keeps the end of s within max bytes, the marker included: the
// last max-len(truncatedMarker) bytes, starting at a line boundary when
// one is near (else at a character boundary), behind truncatedMarker (a
// max too small for the marker keeps the last max bytes alone). cut says
// s itself is already a tail.
func tailText(s string, max int, cut bool) (string, bool) {
	if len(s) <= max && !cut {
		return s, false
	}
	marker := truncatedMarker
	if max < 2*len(marker) {
		marker = "" // truncated: true in the result still says so
	}
	keep := max - len(marker)
	if keep < 0 {
		keep = 0
	}
	if len(s) > keep {
		s = s[len(s)-keep:]
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < 200 && i+1 < len(s) {
			s = s[i+1:]
		}
	}
	for i := 0; i < utf8.UTFMax && len(s) > 0 && !utf8.RuneStart(s[0]); i++ {
		s = s[1:]
	}
	return marker + s, true
}

// ---- shell_wait

type waitArgsIn struct {
	SessionID string `json:"session_id"`
	WaitArgs
}

type shellWaitResult struct {
	Matched  bool     `json:"matched"`
	TimedOut bool     `json:"timed_out"`
	Held     []string `json:"held"`
	EndedBy  string   `json:"ended_by"`
	Buffer   string   `json:"buffer"`
	exitInfo
	commandOutcome

	summary string // the text block's first line when the wait did not match
}

// blocks puts a wait that did not match in the first words of the text
// block, before the JSON.
func (r shellWaitResult) blocks() (string, []Content) { return withSummary(r.summary, r) }

func (a *App) toolShellWait() *Tool {
	return newTool(Tool{
		Name:  "shell_wait",
		Title: "Wait for a terminal",
		Description: "Wait without typing, for the conditions in order: wait_for_command true (a shell with integration: until the running command ends; at once, already_done true, when none runs) or wait_for (text, or /regex/ over the screen text as shown, ^ and $ at line ends), " +
			"then wait_for_gone (no longer on the screen), then wait_idle_ms (no output for that long) or wait_stable_ms (screen text unchanged that long); " +
			"with none of them, until the program exits. new_only true (default false) ignores text already on the screen, so wait_for \"$ \" waits for the next prompt. " +
			"Returns as soon as they held (matched true; held and ended_by say which) or at timeout_ms (default 10000, at most 120000) with matched false, timed_out true and TIMED OUT first in the text; " +
			"buffer is the visible screen then. Use it for slow commands instead of sleeping.",
		Input: objectSchema(waitProps(map[string]any{
			"session_id": sessionIDProp,
		}, false), "session_id"),
		Output: outputSchema(commandProps(waitResultProps(exitProps(map[string]any{
			"buffer": prop("string", "The visible screen when the wait ended."),
		}))), "matched", "timed_out", "held", "ended_by", "buffer", "exited"),
		ReadOnly: true,
	}, a.shellWait)
}

// shellWait waits for the conditions without typing.
func (a *App) shellWait(ctx context.Context, call *ToolCall, in waitArgsIn) (shellWaitResult, error) {
	s, err := a.session(in.SessionID)
	if err != nil {
		return shellWaitResult{}, err
	}
	spec, err := in.WaitArgs.parse(false, true)
	if err != nil {
		return shellWaitResult{}, err
	}
	maxOut, err := s.checkCommandWait(in.commandWaitArgs)
	if err != nil {
		return shellWaitResult{}, err
	}
	s.settle(ctx)
	w := s.watch(spec, "")
	defer w.close()
	done, already := s.alreadyDone(w, spec, maxOut)
	if already && len(spec.stages) == 1 {
		return shellWaitResult{Matched: true, Held: []string{"wait_for_command"}, EndedBy: "wait_for_command",
			Buffer: s.Text(false), exitInfo: exitOf(s.Status()), commandOutcome: done}, nil
	}
	w.commandHeld = already // the later stages are still to hold
	out := w.wait(ctx, spec, call.Progress)
	if ctx.Err() != nil {
		return shellWaitResult{}, errors.New("cancelled")
	}
	w.close()
	s.settle(ctx)
	res := shellWaitResult{Matched: out.matched, TimedOut: out.timedOut, Held: out.held, EndedBy: out.endedBy,
		Buffer: s.Text(false), exitInfo: exitOf(s.Status()), summary: out.summary(spec)}
	switch {
	case already:
		res.commandOutcome = done
	case spec.command:
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
