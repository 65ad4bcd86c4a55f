package main

// tool_send.go: shell_send, which types text, input and keys into the
// program and waits for what the call asks.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"
)

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

func (tb *Toolbox) toolShellSend() *Tool {
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
	}, tb.handleSend)
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
	p, err := planSend(s, in)
	if err != nil {
		return sendResult{}, err
	}
	maxOut, err := checkCommandWait(s, in.commandWaitArgs)
	if err != nil {
		return sendResult{}, err
	}
	a, err := act(ctx, call, s, p.spec, maxOut, p.echo, p.units, p.typeDelay, func(ctx context.Context, _ *outputWatch) {
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
	res := sendResult{Success: true, BufferBefore: a.before, BufferAfter: a.after, waitReport: a.wait, exitInfo: a.exit, commandOutcome: a.command}
	if p.spec.command && a.out.command == firstPrompt {
		// No command ran, yet the shell drew a new prompt. An empty line
		// (Enter, Ctrl-C at an empty prompt) is already_done: nothing
		// was asked to run. A line with text the shell rejected is not:
		// the reply says so and quotes what the shell answered.
		reply, empty := a.watch.noCommandReply()
		res.NoCommand = true
		if !empty {
			res.AlreadyDone = false
			res.summary = noCommandNote + "\n" + reply
		}
	}
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
func typeUnits(ctx context.Context, s *Session, units [][]byte, typeDelay, timeout time.Duration) error {
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
