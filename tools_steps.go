package main

// tools_steps.go: the one place every tool call runs through, Run, which
// records it as a step of its session (trace.go): always the compact step
// the tape is written from (tool, arguments, the reply's essentials,
// times), and in a traced session (shell_start {trace: true}, --trace)
// the screen after it, the commands that ended and the screenshots it
// took. A traced session's HTML trace is written at shell_stop, and at
// shutdown for the sessions still live, into its output directory.

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// traceFile is the trace's file name in the session's output directory.
const traceFile = "trace.html"

// stepLogs holds the trace of each live session, by session.
type stepLogs struct {
	mu sync.Mutex
	m  map[*Session]*sessionTrace
}

// open starts s's trace (full: with screens).
func (l *stepLogs) open(s *Session, meta traceMeta, full bool) *sessionTrace {
	t := newSessionTrace(meta, full)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[*Session]*sessionTrace{}
	}
	l.m[s] = t
	return t
}

// get returns s's trace, nil when it has none (a session started by
// something else than shell_start, or stopped).
func (l *stepLogs) get(s *Session) *sessionTrace {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m[s]
}

// close takes s's trace out of the map, marked stopped now.
func (l *stepLogs) close(s *Session) *sessionTrace {
	l.mu.Lock()
	t := l.m[s]
	delete(l.m, s)
	l.mu.Unlock()
	if t != nil {
		t.Stopped(time.Now())
	}
	return t
}

// TraceOf returns session s's steps and trace, nil when it has none.
// The protocol keeps it when s stops, for session://{id}/trace and
// session://{id}/tape.
func (tb *Toolbox) TraceOf(s *Session) *sessionTrace { return tb.steps.get(s) }

// Run runs one tool call (the only caller of Tool.Handle) and records it
// as a step of the session it names: the session_id argument, or the one
// shell_start started. A call naming no live session records nothing. A
// nil result with a Bind error becomes that error's isError result, as
// tools/call sends it; any other nil is returned for the caller to report.
func (tb *Toolbox) Run(ctx context.Context, t *Tool, call *ToolCall) *ToolResult {
	var s *Session
	if tb != nil && tb.sessions != nil {
		s = tb.sessions.Get(argSessionID(call.Args)) // before the call: shell_stop takes it out of the list
	}
	var log *sessionTrace
	if s != nil {
		log = tb.steps.get(s)
	}
	start := time.Now()
	res := t.Handle(ctx, call)
	if res == nil && call.bindErr != nil {
		res = &ToolResult{Text: call.bindErr.Error(), IsError: true}
	}
	if res == nil || res.InputRequired != nil { // an interim result: its retry is the step
		return res
	}
	if st, ok := res.Structured.(startResult); ok && log == nil {
		s = tb.sessions.Get(st.ID)
		log = tb.steps.get(s)
	}
	if log != nil {
		tb.record(log, s, t.Name, call.Args, res, start)
		if t.Name == "shell_stop" && tb.sessions.Get(s.ID) != s {
			tb.saveTrace(log)
		}
	}
	return res
}

// argSessionID reads the session_id argument of a call ("" when none).
func argSessionID(args json.RawMessage) string {
	var a struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal(args, &a) // bad arguments: the tool reports them
	return a.SessionID
}

// record adds the call to log: the step, and in a full trace the screen
// after it and the commands that ended by then.
func (tb *Toolbox) record(log *sessionTrace, s *Session, tool string, args json.RawMessage, res *ToolResult, start time.Time) {
	step := traceStep{Tool: tool, Args: redactArgs(args), Start: start, Duration: time.Since(start)}
	if tool == "shell_read" { // the largest reply, and nothing in it a step keeps
		step.Reply = replyOf(&ToolResult{Text: res.Text, IsError: res.IsError})
	} else {
		step.Reply = replyOf(res)
	}
	if !log.Full() {
		log.Add(step, nil, nil)
		return
	}
	if step.Reply.Filename != "" {
		step.Shots = []string{step.Reply.Filename}
	}
	log.Add(step, s.Snapshot(), traceCommands(s.commandsCopy()))
}

// traceCommands turns the session's finished commands into command blocks.
func traceCommands(cmds []*command) []traceCommand {
	out := make([]traceCommand, 0, len(cmds))
	for _, c := range cmds {
		if c.ended.IsZero() {
			continue
		}
		out = append(out, traceCommand{N: c.n, Line: c.line, ExitCode: c.exitCode, DurationMS: c.ended.Sub(c.started).Milliseconds(), Output: c.output, Cut: c.cut})
	}
	return out
}

// replyOf is the essentials of a tool's reply: the structured result's
// fields stepReply names (read back from its JSON, so that nothing else
// it holds is kept: a page's URL, a screen), and an error's text.
func replyOf(res *ToolResult) stepReply {
	var r stepReply
	if res.Structured != nil {
		if b, err := marshalJSON(res.Structured); err == nil {
			_ = json.Unmarshal(b, &r) // what marshalJSON wrote decodes
		}
	}
	r.IsError = res.IsError
	if res.IsError {
		r.Error = clipRunes(res.Text, maxTraceError)
	}
	return r
}

// secretWords mark an environment variable whose value a step does not
// keep: API_KEY, GITHUB_TOKEN, PGPASSWORD, AWS_SECRET_ACCESS_KEY...
var secretWords = []string{"KEY", "TOKEN", "SECRET", "PASS", "AUTH", "CRED", "COOKIE", "SESSION", "PRIVATE", "SIGN", "CERT"}

// redactArgs returns a call's arguments as a step keeps them: as sent,
// text and input included, but for the values of env entries whose
// names look secret (secretWords), replaced by "(redacted)". Arguments
// that are no JSON object are kept as {}.
func redactArgs(args json.RawMessage) json.RawMessage {
	if len(args) == 0 || args[0] != '{' || !json.Valid(args) {
		return json.RawMessage("{}")
	}
	if !strings.Contains(string(args), `"env"`) {
		return slices.Clone(args)
	}
	var top map[string]json.RawMessage
	var env map[string]any
	if json.Unmarshal(args, &top) != nil || json.Unmarshal(top["env"], &env) != nil {
		return slices.Clone(args)
	}
	for k := range env {
		if secretName(k) {
			env[k] = "(redacted)"
		}
	}
	b, err := marshalJSON(env)
	if err != nil {
		return json.RawMessage("{}")
	}
	top["env"] = b
	out, err := marshalJSON(top)
	if err != nil {
		return json.RawMessage("{}")
	}
	return out
}

// secretName reports whether an environment variable's name looks like
// it holds a secret.
func secretName(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// openTrace starts the steps of the session shell_start started; full
// (trace: true, or --trace) keeps screens too.
func (tb *Toolbox) openTrace(s *Session, full bool) {
	th, err := lookupTheme(s.Theme)
	if err != nil {
		th = themeList[0]
	}
	st := s.Status()
	shell := s.ShellInfo().Integration.Shell
	if shell == "" && slices.Contains([]string{"bash", "zsh", "fish"}, filepath.Base(s.Command)) {
		shell = filepath.Base(s.Command)
	}
	tb.steps.open(s, traceMeta{ID: s.ID, Command: s.Command, Args: slices.Clone(s.Args), Cwd: s.Cwd, Shell: shell,
		Cols: st.Cols, Rows: st.Rows, Theme: th, Started: s.Started}, full)
}

// saveTrace writes a full trace into its session's output directory
// (traceFile); a failure (the output directory's cap) goes to the log.
func (tb *Toolbox) saveTrace(log *sessionTrace) {
	if !log.Full() {
		return
	}
	id := log.Meta().ID
	b, err := log.HTML()
	if err == nil {
		err = tb.store.write(id, traceFile, b)
	}
	if err != nil {
		tb.logf("warning", "trace", "the trace of session %s was not written: %v", id, err)
		return
	}
	log.SetPath(tb.store.path(id, "trace", ".html"))
}
