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

func (tb *Toolbox) toolShellWait() *Tool {
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
	}, tb.shellWait)
}

// shellWait waits for the conditions without typing.
func (tb *Toolbox) shellWait(ctx context.Context, call *ToolCall, in waitArgsIn) (shellWaitResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return shellWaitResult{}, err
	}
	spec, err := in.WaitArgs.parse(false, true)
	if err != nil {
		return shellWaitResult{}, err
	}
	maxOut, err := checkCommandWait(s, in.commandWaitArgs)
	if err != nil {
		return shellWaitResult{}, err
	}
	s.settle(ctx)
	w := newWatch(s, spec, "")
	defer w.close()
	done, already := alreadyDone(s, w, spec, maxOut)
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
		res.commandOutcome = commandOutcomeOf(s, out.command, maxOut)
	}
	return res, nil
}
