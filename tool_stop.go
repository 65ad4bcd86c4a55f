package main

// tool_stop.go: shell_stop, which ends the program and closes the
// session.

import (
	"context"
	"fmt"
	"sync"
	"syscall"
)

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

func (tb *Toolbox) toolShellStop() *Tool {
	return newTool(Tool{
		Name:  "shell_stop",
		Title: "Stop a terminal session",
		Description: "End the program and session: signal (SIGHUP default, SIGINT, SIGTERM, SIGKILL) to its process group, SIGKILL 2 s later; " +
			"a recording is saved. To stop a command, send C-c.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"signal":     map[string]any{"type": "string"},
		}, "session_id"),
		Destructive: true,
	}, tb.shellStop, stopStep)
}

// stopSignal is shell_stop's first signal: SIGHUP when name is "", else
// one of the signals that end a program (SIGHUP, SIGINT, SIGTERM,
// SIGKILL, by name or number). Any other is refused: SIGSTOP would only
// pause the program until the SIGKILL, SIGUSR1 means what each program
// decides, and neither is what a stop is for.
func stopSignal(name string) (syscall.Signal, error) {
	if name == "" {
		return syscall.SIGHUP, nil
	}
	sig, ok := signalByName(name)
	switch {
	case !ok:
		return 0, fmt.Errorf("unknown signal %q: use SIGHUP (the default), SIGINT, SIGTERM or SIGKILL", name)
	case sig != syscall.SIGHUP && sig != syscall.SIGINT && sig != syscall.SIGTERM && sig != syscall.SIGKILL:
		return 0, fmt.Errorf("signal %q does not stop a program: use SIGHUP (the default), SIGINT, SIGTERM or SIGKILL; to send it, run kill in a shell", name)
	}
	return sig, nil
}

// shellStop signals the program, reaps it and saves a running recording.
func (tb *Toolbox) shellStop(_ context.Context, _ *ToolCall, in stopArgs) (stopResult, error) {
	sig, err := stopSignal(in.Signal)
	if err != nil {
		return stopResult{}, err
	}
	s, err := tb.session(in.SessionID)
	if err != nil {
		return stopResult{}, err
	}
	st, rec := tb.stopSession(s, sig)
	res := stopResult{Success: st.Exited, ExitCode: st.ExitCode, Signal: st.Signal}
	if rec != nil {
		res.RecordingURI, res.GIFPath, res.CastPath = rec.URI, rec.GIFPath, rec.CastPath
	}
	return res, nil
}

// stopSession ends s's program (Session.stop), saves a recording still
// running with the final screen, and removes the session from the list.
func (tb *Toolbox) stopSession(s *Session, sig syscall.Signal) (SessionStatus, *recordStopResult) {
	st := s.stop(sig, killGrace)
	rec := tb.finishRecordings(s)
	tb.sessions.Remove(s)
	tb.recs.forget(s) // after Remove: no tool finds s any more to record it
	tb.after.drop(s)
	tb.steps.close(s) // after Remove, which the protocol keeps the trace at; Run adds shell_stop's step and saves it
	return st, rec
}

// shutdown stops every session at once (SIGHUP to each process group,
// SIGKILL 2 s later), writes the traces of the traced ones, and returns
// when all are reaped. The program calls
// it when the client goes (stdin EOF) or on SIGTERM and SIGINT.
func (tb *Toolbox) shutdown() {
	var wg sync.WaitGroup
	for _, s := range tb.sessions.List() {
		wg.Go(func() {
			_, log := tb.steps.get(s.ID)
			tb.stopSession(s, syscall.SIGHUP)
			if log != nil {
				tb.saveTrace(log)
			}
		})
	}
	wg.Wait()
}

// stopStep is shell_stop's step form: the step that completes its
// session's trace.
func stopStep(in stopArgs, out stopResult) stepView {
	return stepView{SessionID: in.SessionID, Reply: out, Ends: true}
}
