package main

// tools_command.go: the wait_for_command stage of the waits and what its
// results say about a command: the command that ended (or, on timeout,
// the one still running), already_done when none was running. The
// commands themselves are read from the shell's marks by the session
// (session_commands.go).

import "strconv"

// commandResult is the command object of a wait result.
type commandResult struct {
	N          int    `json:"n"`
	Line       string `json:"line"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	DurationMS *int64 `json:"duration_ms,omitempty"`
	Cwd        string `json:"cwd,omitempty"`
	Output     string `json:"output"`
	Truncated  bool   `json:"truncated"`
	Running    bool   `json:"running,omitempty"`
	URI        string `json:"uri,omitempty"`
	By         string `json:"by,omitempty"` // "person" when a person typed it

	lost bool // the output's oldest part is gone (command.cut): the URI holds no more
}

// exitText is an exit code as the texts about commands write it:
// "unknown" for none.
func exitText(p *int) string {
	if p == nil {
		return "unknown"
	}
	return strconv.Itoa(*p)
}

// commandOutcome is what a wait result says about a command.
type commandOutcome struct {
	Command     *commandResult `json:"command,omitempty"`
	AlreadyDone bool           `json:"already_done,omitempty"`
}

// result turns c into a commandResult with output cut to max bytes.
func (c *command) result(sessionID string, max int) *commandResult {
	r := &commandResult{N: c.n, Line: c.line, ExitCode: c.exitCode, Cwd: c.cwd, Output: c.output, Truncated: c.cut, lost: c.cut, By: c.by}
	if !c.ended.IsZero() {
		d := c.ended.Sub(c.started).Milliseconds()
		r.DurationMS = &d
		r.URI = commandURI(sessionID, c.n).String()
	}
	if len(r.Output) > max {
		r.Output, _ = tailText(r.Output, max, false)
		r.Truncated = true
	} else if c.cut {
		r.Output = truncatedMarker + r.Output
	}
	return r
}

// runningCommand returns the command still running, with its output so
// far, or nil (also once the shell has exited: "exit" starts a command
// that never ends).
func runningCommand(s *Session, max int) *commandResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.sh.running
	if c == nil || s.exited {
		return nil
	}
	cp := *c
	cp.output, cp.cut = c.outputTo(s.term, s.term.OutputEnd())
	r := cp.result(s.ID, max)
	r.Running = true
	return r
}

// commandOutcomeOf is the command part of a wait result: the command that
// ended, or on timeout the one still running.
func commandOutcomeOf(s *Session, c *command, max int) commandOutcome {
	if c == firstPrompt {
		return commandOutcome{AlreadyDone: true}
	}
	if c != nil {
		return commandOutcome{Command: c.result(s.ID, max)}
	}
	return commandOutcome{Command: runningCommand(s, max)}
}

// alreadyDone is shell_wait's answer when it waits for a command first
// and none is running: that stage holds at once, with the last finished
// command (if any) and already_done. Before an integrated shell's first
// prompt the wait goes on until that prompt (firstPromptBase). A command
// that ended but whose prompt is not drawn yet is
// the one the wait returns, so the watch's base steps back to it.
func alreadyDone(s *Session, w *outputWatch, c waitSpec, max int) (commandOutcome, bool) {
	if len(c.stages) == 0 || c.stages[0].kind != stageCommand {
		return commandOutcome{}, false
	}
	if w.resumed {
		// After a send, the send's command: done already when it ended
		// before the wait began, else waited for (the shell may not have
		// started it yet, and the last command is not the send's).
		s.mu.Lock()
		cmd, done := w.commandDoneLocked()
		s.mu.Unlock()
		if !done || cmd == firstPrompt {
			return commandOutcome{}, false
		}
		return commandOutcome{AlreadyDone: true, Command: cmd.result(s.ID, max)}, true
	}
	s.mu.Lock()
	k := len(s.sh.cmds)
	if s.sh.running == nil && k > 0 && !s.sh.cmds[k-1].drawn && w.cmdBase == s.sh.ended {
		w.cmdBase--
	}
	first := s.integ.Active && !s.sh.seenA && s.sh.running == nil
	if first { // still starting: wait for the first prompt
		w.cmdBase = firstPromptBase
	}
	s.mu.Unlock()
	if first {
		return commandOutcome{}, false
	}
	if !s.idleAtPrompt() {
		return commandOutcome{}, false
	}
	out := commandOutcome{AlreadyDone: true}
	if last := s.lastCommand(); last != nil {
		out.Command = last.result(s.ID, max)
	}
	return out, true
}
