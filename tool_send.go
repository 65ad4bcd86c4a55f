package main

// tool_send.go: shell_send, which types text, input and keys into the
// program and waits for what the call asks.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

type sendArgs struct {
	SessionID   string   `json:"session_id"`
	Text        string   `json:"text"`
	Input       string   `json:"input"`
	Keys        []string `json:"keys"`
	TypeDelayMS *int     `json:"type_delay_ms"`
	DelayMS     *int     `json:"delay_ms"`
	// IncludeBefore adds bufferBefore, the screen before the input.
	IncludeBefore bool `json:"include_before"`
	WaitArgs

	order []string // "text", "input", "keys" in the order the call wrote them (readRaw)
}

// sendParts are the arguments that type, in the order they are typed
// when a call gives several and its JSON does not say (never: readRaw).
var sendParts = []string{"text", "input", "keys"}

// readRaw reads from the call's JSON what its struct cannot hold: the
// order of text, input and keys, which are typed in the order written.
func (a *sendArgs) readRaw(args json.RawMessage) {
	a.order = a.order[:0]
	given := 0
	for _, p := range sendParts {
		if bytes.Contains(args, []byte(`"`+p+`"`)) {
			given++
		}
	}
	if given > 1 {
		a.order = objectKeys(args, sendParts)
	}
	for _, p := range sendParts { // what the scan did not find (a spelling of the key it cannot see)
		if !slices.Contains(a.order, p) {
			a.order = append(a.order, p)
		}
	}
}

type sendResult struct {
	Success      bool   `json:"success"`
	BufferBefore string `json:"bufferBefore,omitempty"` // with include_before
	BufferAfter  string `json:"bufferAfter"`
	waitReport
	exitInfo

	commandOutcome
	NoCommand bool `json:"no_command,omitempty"` // wait_for_command: the input ran no command, and the shell drew a new prompt

	// Order is the order text, input and keys were typed in, when the
	// call gave more than one.
	Order []string `json:"order,omitempty"`

	text string // the text block (replyText)
}

// noCommandNote starts the text block of a shell_send whose line the
// shell ran no command for and answered with a new prompt (a syntax
// error, a line Ctrl-C discarded); the shell's reply follows it.
// noCommandEmptyNote starts it for an empty line, before the screen.
const (
	noCommandEmptyNote = "NO COMMAND: the line was empty (or discarded with C-c), and the shell drew a new prompt."
	noCommandNote      = "NO COMMAND: the shell ran no command for this line (a syntax error, or a line discarded with C-c): its reply is on the screen:"
)

// waitReport is how the wait of a shell_send or shell_click went: every
// field but InputUnread is left out when the call did not wait.
type waitReport struct {
	Matched    *bool    `json:"matched,omitempty"`
	TimedOut   *bool    `json:"timed_out,omitempty"`
	Held       []string `json:"held,omitempty"`
	EndedBy    string   `json:"ended_by,omitempty"`
	Input      string   `json:"input,omitempty"`       // wait_for_input held: the input kind the program waits for
	WaitingFor string   `json:"waiting_for,omitempty"` // wait_for_command ended early: "secret" or "line"
	// Unread: the program had not read all that the call typed when it
	// returned (awaitRead).
	Unread bool `json:"input_unread,omitempty"`

	summary string // the text block's first line when the wait did not match
	done    string // the text block's first line when it did (doneLine)
}

// reportWait is the waitReport of a wait on spec that ended as out.
func reportWait(out waitOutcome, spec waitSpec) waitReport {
	return waitReport{Matched: &out.matched, TimedOut: &out.timedOut, Held: out.held, EndedBy: out.endedBy,
		Input: out.input, WaitingFor: out.waiting, summary: out.summary(spec), done: doneLine(out, spec)}
}

// blocks is the text block written for the model (tools_reply.go).
func (r sendResult) blocks() (string, []Content) { return r.text, nil }

func (tb *Toolbox) toolShellSend() *Tool {
	return newTool(Tool{
		Name:  "shell_send",
		Title: "Type into a terminal",
		Description: "Type, wait (wait_ options; none: delay_ms, 100) and return what changed. " +
			"text is a paste: shells, vim and most TUIs insert it as data, not commands; input and keys are keystrokes (commands, mode keys); " +
			"typed in the order given. Command: text \"make\\n\" + wait_for_command. Server: wait_for its banner; it runs on. " +
			"TUI key: keys + wait_for_input. C-c in a call of its own (it drops unread input).",
		Input: objectSchema(waitProps(map[string]any{
			"session_id":     sessionIDProp,
			"text":           prop("string", "Pasted as written; newlines are Enter."),
			"input":          prop("string", "Keystrokes: \\r Enter, \\t Tab, \\e Esc (or \\u001b), \\x03 C-c, \\xHH."),
			"keys":           map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": keyNamesShort},
			"type_delay_ms":  prop("integer", "Type keys this many ms apart."),
			"delay_ms":       map[string]any{"type": "integer"},
			"include_before": prop("boolean", "Also return the screen before."),
		}, "regex: shell_wait's"), "session_id"),
		OpenWorld: true,
		Arrive:    tb.arriveTurn,
	}, tb.handleSend, sendStep)
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
func (tb *Toolbox) handleSend(ctx context.Context, call *ToolCall, in sendArgs) (sendResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return sendResult{}, err
	}
	if err := s.AgentMayType(); err != nil {
		return sendResult{}, err
	}
	p, err := planSend(s, in)
	if err != nil {
		return sendResult{}, err
	}
	maxOut, err := checkCommandWait(s, in.commandWaitArgs)
	if err != nil {
		return sendResult{}, err
	}
	tr, err := tb.takeTurn(ctx, s, p.spec.timeout, call.Progress)
	if err != nil {
		return sendResult{}, err
	}
	defer tr.leave()
	if tr.waited() > 0 {
		// Planned again: the calls before may have changed the modes the
		// input is encoded for (bracketed paste, cursor keys).
		if p, err = planSend(s, in); err != nil {
			return sendResult{}, err
		}
	}
	p.spec.timeout = tr.left(p.spec.timeout)
	a, err := tb.act(ctx, tr.call(call), s, p.spec, maxOut, p.echo, p.units, p.typeDelay, func(ctx context.Context, _ *outputWatch) {
		t := time.NewTimer(p.delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-s.done:
		case <-ctx.Done():
		}
	})
	if err != nil {
		return sendResult{}, err
	}
	res := sendResult{Success: true, BufferAfter: a.after, waitReport: a.wait, exitInfo: a.exit, commandOutcome: a.command}
	if in.parts() > 1 {
		res.Order = in.typedOrder()
	}
	if in.IncludeBefore {
		res.BufferBefore = a.before
	}
	summary, shown := res.summary, shownScreen(s, res.commandOutcome, a.after, &a.watch.since)
	if p.spec.command && a.out.command == firstPrompt {
		// No command ran, yet the shell drew a new prompt. An empty line
		// (Enter, Ctrl-C at an empty prompt) is already_done: nothing
		// was asked to run. A line with text the shell rejected is not:
		// the reply says so and quotes what the shell answered.
		reply, empty := a.watch.noCommandReply()
		res.NoCommand = true
		if !empty {
			res.AlreadyDone = false
			summary, shown = noCommandNote+"\n"+reply, ""
		} else {
			summary = noCommandEmptyNote
		}
	}
	res.text = replyText(summary, res.waitReport, res.commandOutcome, res.exitInfo, shown)
	return res, nil
}

// interruptAfterText refuses a C-c (0x03) that part's units type after
// text or input of the same call (typed says whether earlier parts did):
// a shell's prompt and a cooked program (the kernel, for ISIG) and vim
// (itself) throw away the input not read yet when C-c comes, this call's
// with it, and nothing would say so. Keys before it lose no text
// (C-x C-c, arrows, C-c C-c).
func interruptAfterText(part string, units [][]byte, typed bool) error {
	for _, u := range units {
		i := bytes.IndexByte(u, 0x03)
		if i < 0 {
			typed = typed || part != "keys"
			continue
		}
		if typed || part != "keys" && i > 0 {
			return errors.New("C-c comes after text or input in this call, and a shell, a cooked program or vim throws away the input not read yet when C-c comes, this call's with it: send C-c in a call of its own, then the rest")
		}
	}
	return nil
}

// planSend checks shell_send's arguments against the limits and the
// session's state, and encodes text, input and keys in the order the call
// wrote them (text follows bracketed-paste mode, the arrow keys DECCKM).
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
	typed := false // text or input came before
	for _, part := range in.typedOrder() {
		var units [][]byte
		switch part {
		case "text":
			units, err = encodeText(in.Text, modes.BracketedPaste, p.typeDelay > 0)
		case "input":
			units, err = inputUnitsOf(in.Input, p.typeDelay > 0)
		case "keys":
			units, err = keyUnits(in.Keys, modes)
		}
		if err == nil {
			err = interruptAfterText(part, units, typed)
		}
		if err != nil {
			return p, err
		}
		typed = typed || part != "keys" && len(units) > 0
		p.units = append(p.units, units...)
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

// typedOrder is the order text, input and keys are typed in: as the
// call wrote them (readRaw), those it gave.
func (a sendArgs) typedOrder() []string {
	order := a.order
	if len(order) == 0 {
		order = sendParts
	}
	var out []string
	for _, p := range order {
		if p == "text" && a.Text != "" || p == "input" && a.Input != "" || p == "keys" && len(a.Keys) > 0 {
			out = append(out, p)
		}
	}
	return out
}

// parts is how many of text, input and keys the call gave.
func (a sendArgs) parts() int { return len(a.typedOrder()) }

// inputUnitsOf is input's escapes decoded (decodeInput), as one write, or
// one keystroke a unit when typing slowly.
func inputUnitsOf(input string, slow bool) ([][]byte, error) {
	data, err := decodeInput(input)
	switch {
	case err != nil || len(data) == 0:
		return nil, err
	case slow:
		return inputUnits(data), nil
	}
	return [][]byte{data}, nil
}

// keyUnits are the named keys, each as xterm sends it in modes.
func keyUnits(keys []string, modes Modes) ([][]byte, error) {
	var units [][]byte
	for _, k := range keys {
		b, err := encodeKey(k, modes.AppCursor)
		if err != nil {
			return nil, err
		}
		if modes.LineFeedNL && string(b) == "\r" {
			b = []byte("\r\n") // LNM (CSI 20 h): Return sends CR LF, as on a VT100
		}
		units = append(units, b)
	}
	return units, nil
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
func typeUnits(ctx context.Context, s *Session, units [][]byte, typeDelay, timeout time.Duration) error {
	wctx, cancel := context.WithTimeout(ctx, max(timeout, minWriteTime)+time.Duration(len(units))*typeDelay)
	defer cancel()
	end, err := s.BeginAgentInput() // a person's take waits until all is typed
	if err != nil {
		return fmt.Errorf("nothing was typed: %w", err) // the person took the keyboard while the call waited its turn
	}
	defer end()
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

// sendStep is shell_send's step form: what it typed, as Type and key
// commands (a type_delay_ms as their @time), then its waits as
// assertions (tools_tape.go).
func sendStep(in sendArgs, out sendResult) stepView {
	end := endOf(out.waitReport, out.exitInfo, out.commandOutcome, out.NoCommand)
	var speed time.Duration
	if in.TypeDelayMS != nil {
		speed = msDuration(*in.TypeDelayMS)
	}
	var tape []tapeCmd
	for _, part := range in.typedOrder() {
		switch part {
		case "text":
			tape = append(tape, typeTape(in.Text, speed)...)
		case "input":
			if b, err := decodeInput(in.Input); err == nil {
				tape = append(tape, typeTape(string(b), speed)...)
			}
		case "keys":
			tape = append(tape, keysTape(in.Keys)...)
		}
	}
	tape = append(tape, waitTape(in.WaitArgs, end, true, in.DelayMS)...)
	return stepView{SessionID: in.SessionID, Summary: joinSummary(typedSummary(in.Text, in.Input, in.Keys), waitSummary(in.WaitArgs, end)),
		Failed: end.failed(), Reply: end, Tape: tape, Command: end.commandN()}
}
