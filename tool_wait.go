package main

// tool_wait.go: shell_wait, which waits for the conditions of WaitArgs
// without typing.

import (
	"context"
	"errors"
)

type waitArgsIn struct {
	SessionID string `json:"session_id"`
	WaitArgs
}

type shellWaitResult struct {
	Matched    bool     `json:"matched"`
	TimedOut   bool     `json:"timed_out"`
	Held       []string `json:"held,omitempty"`
	EndedBy    string   `json:"ended_by"`
	Input      string   `json:"input,omitempty"`       // as in waitReport
	WaitingFor string   `json:"waiting_for,omitempty"` // as in waitReport
	Buffer     string   `json:"buffer"`
	exitInfo
	commandOutcome

	text string // the text block (replyText)
}

// blocks is the text block written for the model (tools_reply.go).
func (r shellWaitResult) blocks() (string, []Content) { return r.text, nil }

func (tb *Toolbox) toolShellWait() *Tool {
	return newTool(Tool{
		Name:  "shell_wait",
		Title: "Wait for a terminal",
		Description: "Wait without typing, from the last send: its command, output after it " +
			"(no send: what is shown; no command running: wait_for_command returns at once). " +
			"Order: wait_for_command, wait_for, wait_for_gone, wait_for_input (also a program started next: git's editor), wait_idle_ms or wait_stable_ms; " +
			"none: the session's program exits. At timeout_ms: TIMED OUT and the screen.",
		Input: objectSchema(waitProps(map[string]any{
			"session_id": sessionIDProp,
		}, regexFlagsDoc), "session_id"),
		ReadOnly: true,
	}, tb.shellWait, waitStep)
}

// shellWait waits for the conditions without typing.
func (tb *Toolbox) shellWait(ctx context.Context, call *ToolCall, in waitArgsIn) (shellWaitResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return shellWaitResult{}, err
	}
	spec, err := in.WaitArgs.parse(true, true)
	if err != nil {
		return shellWaitResult{}, err
	}
	maxOut, err := checkCommandWait(s, in.commandWaitArgs)
	if err != nil {
		return shellWaitResult{}, err
	}
	s.settle(ctx)
	// new_only (default true) counts from the last send: a wait that
	// follows one takes over its watch (what came after it, and the
	// command it started); with no send to follow, what is shown counts
	// unless new_only is given true.
	w := tb.after.take(s)
	if w != nil {
		w.oldCounts = !spec.newOnly
		defer tb.after.giveBack(s, w)
	} else {
		spec.newOnly = in.NewOnly != nil && *in.NewOnly
		w = newWatch(s, spec, "")
		defer w.close()
	}
	if ask := tb.asks.open(s.ID); ask != nil {
		w.inputs.page = ask.offer.Done() // wait_for_input: the person's answer first
	}
	var since *screenMark // a wait that follows a send shows what changed since the send
	if w.resumed {
		since = &w.since
	}
	done, already := alreadyDone(s, w, spec, maxOut)
	if already && len(spec.stages) == 1 {
		res := shellWaitResult{Matched: true, Held: []string{"wait_for_command"}, EndedBy: "wait_for_command",
			Buffer: s.Text(false), exitInfo: stateOf(s), commandOutcome: done}
		return res.withText(s, "", alreadyDoneLine(w.resumed, done.Command != nil), since), nil
	}
	w.commandHeld = already // the later stages are still to hold
	out := w.wait(ctx, spec, call.Progress)
	if ctx.Err() != nil {
		return shellWaitResult{}, errors.New("cancelled")
	}
	if !w.resumed {
		w.close() // a resumed one goes back to the waits after it
	}
	s.settle(ctx)
	res := shellWaitResult{Matched: out.matched, TimedOut: out.timedOut, Held: out.held, EndedBy: out.endedBy,
		Input: out.input, WaitingFor: out.waiting, Buffer: s.Text(false), exitInfo: stateOf(s)}
	switch {
	case already:
		res.commandOutcome = done
	case spec.command:
		res.commandOutcome = commandOutcomeOf(s, out.command, maxOut)
	}
	return res.withText(s, out.summary(spec), doneLine(out, spec), since), nil
}

// alreadyDoneLine is the done line of a wait_for_command answered at
// once (already_done): none after a send, whose command had ended before
// the wait began (its header says "had already exited"); with no send,
// no command runs, and the one shown, if any, is the last.
func alreadyDoneLine(resumed, shown bool) string {
	switch {
	case resumed:
		return ""
	case shown:
		return "done: wait_for_command: no command is running; the last one:"
	}
	return "done: wait_for_command: no command is running, and none has run"
}

// withText sets r's text block (replyText): summary when the wait did
// not match, else done, then the screen (since: what changed since the
// send the wait follows, nil: all of it).
func (r shellWaitResult) withText(s *Session, summary, done string, since *screenMark) shellWaitResult {
	matched := r.Matched
	w := waitReport{Matched: &matched, Held: r.Held, Input: r.Input, WaitingFor: r.WaitingFor, done: done}
	r.text = replyText(summary, w, r.commandOutcome, r.exitInfo, shownScreen(s, r.commandOutcome, r.Buffer, since))
	return r
}

// waitStep is shell_wait's step form: its waits as assertions.
func waitStep(in waitArgsIn, out shellWaitResult) stepView {
	rep := waitReport{Matched: &out.Matched, TimedOut: &out.TimedOut, EndedBy: out.EndedBy, WaitingFor: out.WaitingFor}
	end := endOf(rep, out.exitInfo, out.commandOutcome, false)
	return stepView{SessionID: in.SessionID, Summary: waitSummary(in.WaitArgs, end), Failed: end.failed(), Reply: end,
		Tape: waitTape(in.WaitArgs, end, false, nil), Command: end.commandN()}
}
