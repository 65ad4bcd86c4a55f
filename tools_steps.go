package main

// tools_steps.go: the one place every tool call runs through, Run, which
// records it as a step of its session (trace.go): always the compact step
// (tool, arguments, times, and what the tool's step form says of it: its
// line, how it ended, its reply's essentials, its tape commands), and in
// a traced session (shell_start {trace: true}, --trace) the screen after
// it and the commands that ended. A traced session's HTML trace is
// written at shell_stop, and at shutdown for the sessions still live,
// into its output directory. The pieces the step forms share (the line
// of what a call typed and waited for, a wait's outcome) are here too;
// their tape pieces are in tools_tape.go.

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// traceFile is the trace's file name in the session's output directory.
const traceFile = "trace.html"

// stepLogs holds the trace of each session, by session id, from
// shell_start until Run records the step that stopped it.
type stepLogs struct {
	mu sync.Mutex
	m  map[string]stepLog
}

// stepLog is one session's trace and the session it follows.
type stepLog struct {
	s *Session
	t *sessionTrace
}

// open starts s's trace (full: with screens).
func (l *stepLogs) open(s *Session, meta traceMeta, full bool) *sessionTrace {
	t := newSessionTrace(meta, full)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil {
		l.m = map[string]stepLog{}
	}
	l.m[s.ID] = stepLog{s, t}
	return t
}

// get returns the session called id and its trace; nils when it has
// none (a session started by something else than shell_start, or whose
// stop was recorded).
func (l *stepLogs) get(id string) (*Session, *sessionTrace) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.m[id]
	return e.s, e.t
}

// close marks s's trace stopped now; its entry stays for the step of the
// call that stopped it (Run takes it out).
func (l *stepLogs) close(s *Session) {
	if _, t := l.get(s.ID); t != nil {
		t.Stopped(time.Now())
	}
}

// drop takes the trace of session id out.
func (l *stepLogs) drop(id string) {
	l.mu.Lock()
	delete(l.m, id)
	l.mu.Unlock()
}

// TraceOf returns session s's steps and trace, nil when it has none.
// The protocol keeps it when s stops, for session://{id}/trace and
// session://{id}/tape.
func (tb *Toolbox) TraceOf(s *Session) *sessionTrace {
	if s == nil {
		return nil
	}
	ls, t := tb.steps.get(s.ID)
	if ls != s {
		return nil
	}
	return t
}

// Run runs one tool call (the only caller of Tool.Handle) and records it
// as a step of the session it acted on, as the tool's step form tells it
// (newTool): the session of its session_id argument, or the one
// shell_start started. A call that acted on no session, or whose
// arguments did not decode, records nothing. A nil result with a Bind
// error becomes that error's isError result, as tools/call sends it; any
// other nil is returned for the caller to report.
//
// The session the call names (by id or name) is marked driven, and a call
// that drives it (no read-only tool) while calls of other connections
// run on it gets a note saying so (othersNote).
func (tb *Toolbox) Run(ctx context.Context, t *Tool, call *ToolCall) *ToolResult {
	start := time.Now()
	var named *Session // the session of the call's session_id
	var others []runningCall
	if tb != nil {
		if named = tb.sessions.Find(sessionArg(call.Args)); named != nil {
			named.MarkDriven(start)
			var leave func()
			others, leave = tb.running.enter(named, &runningCall{tool: t.Name, client: call.Client, conn: call.Conn, since: start})
			defer leave()
			if t.ReadOnly || call.Conn == nil {
				others = nil
			}
		}
	}
	res := t.Handle(ctx, call)
	if res == nil && call.bindErr != nil {
		res = &ToolResult{Text: call.bindErr.Error(), IsError: true}
	}
	if res == nil || res.InputRequired != nil { // an interim result: its retry is the step
		return res
	}
	if note := othersNote(named, others, time.Now()); note != "" {
		res.Extra = append(res.Extra, Content{Type: "text", Text: note})
	}
	if res.step != nil && res.step.SessionID != "" && tb != nil {
		v := *res.step
		v.Origin = call.Origin
		if named != nil && v.SessionID == named.Name { // steps are kept by id
			v.SessionID = named.ID
		}
		tb.record(t.Name, call.Args, v, start)
	}
	return res
}

// sessionArg is the session_id argument of a call's arguments, "" when
// there is none.
func sessionArg(args json.RawMessage) string {
	var a struct {
		SessionID string `json:"session_id"`
	}
	_ = json.Unmarshal(args, &a) // not an object, or no string: none; Bind reports it
	return a.SessionID
}

// record adds the call to its session's trace: the step, and in a full
// trace the screen after it and the commands that ended by then. The
// step that stopped the session completes the trace, which is written.
func (tb *Toolbox) record(tool string, args json.RawMessage, v stepView, start time.Time) {
	s, log := tb.steps.get(v.SessionID)
	if log == nil {
		return
	}
	if n := s.PersonWrites(); n > log.PersonSeen(n) {
		log.Add(personStep(start), nil, nil) // before the call that follows it
	}
	step := traceStep{Tool: tool, Args: redactArgs(args), Start: start, Duration: time.Since(start), stepView: v}
	if log.Full() {
		log.Add(step, s.Snapshot(), traceCommands(s.commandsCopy()))
	} else {
		log.Add(step, nil, nil)
	}
	if v.Ends {
		tb.steps.drop(v.SessionID)
		tb.saveTrace(log)
	}
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
	tb.steps.open(s, traceMeta{ID: s.ID, Command: s.Command, Args: slices.Clone(s.Args), Cwd: s.Cwd,
		Shell: traceShell(s.Command, s.ShellInfo().Integration), Cols: st.Cols, Rows: st.Rows, Theme: th, Started: s.Started}, full)
}

// writeTrace streams log's page into the session's directory through a
// part file, counted against the output cap as it is written, then
// renamed to traceFile: a reader never sees half a trace.
func (tb *Toolbox) writeTrace(id string, log *sessionTrace) error {
	part := traceFile + ".part"
	f, err := tb.store.create(id, part)
	if err != nil {
		return err
	}
	err = log.WriteHTML(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		_, err = tb.store.rename(id, part, traceFile)
	}
	if err != nil {
		tb.store.remove(id, part)
	}
	return err
}

// saveTrace writes a full trace into its session's output directory
// (traceFile); a failure (the output directory's cap) goes to the log.
func (tb *Toolbox) saveTrace(log *sessionTrace) {
	if !log.Full() {
		return
	}
	id := log.Meta().ID
	err := tb.writeTrace(id, log)
	if err != nil {
		tb.logf("warning", "trace", "the trace of session %s was not written: %v", id, err)
		return
	}
	log.SetPath(tb.store.path(id, "trace", ".html"))
}

// typedSummary is what a call typed, for its step's line: its text, else
// its input, then its keys.
func typedSummary(text, input string, keys []string) string {
	var typed string
	switch {
	case text != "":
		typed = strconv.Quote(clipRunes(text, 40))
	case input != "":
		typed = "input " + strconv.Quote(clipRunes(input, 30))
	}
	if len(keys) == 0 {
		return typed
	}
	return joinSummary(typed, clipRunes(strings.Join(keys, " "), 30))
}

// waitSummary is what a call waited for and how the wait ended, for its
// step's line.
func waitSummary(w WaitArgs, e waitEnd) string {
	var parts []string
	if w.WaitFor != nil {
		parts = append(parts, "wait "+strconv.Quote(clipRunes(*w.WaitFor, 30)))
	}
	if w.WaitForGone != nil {
		parts = append(parts, "gone "+strconv.Quote(clipRunes(*w.WaitForGone, 30)))
	}
	switch {
	case e.exitCode() != nil:
		parts = append(parts, "exit "+strconv.Itoa(*e.exitCode()))
	case e.TimedOut:
		parts = append(parts, "timed out")
	}
	return joinSummary(parts...)
}

// waitEnd is how a call's wait ended, as its step forms read it and as a
// trace shows it: the fields of the tools' results of the same names.
type waitEnd struct {
	Matched     *bool        `json:"matched,omitempty"`
	TimedOut    bool         `json:"timed_out,omitempty"`
	EndedBy     string       `json:"ended_by,omitempty"`
	WaitingFor  string       `json:"waiting_for,omitempty"` // the command stopped to read a "secret" or a "line"
	NoCommand   bool         `json:"no_command,omitempty"`  // the shell ran no command for the line
	AlreadyDone bool         `json:"already_done,omitempty"`
	Command     *stepCommand `json:"command,omitempty"` // wait_for_command: the command that ended
	Exited      bool         `json:"exited,omitempty"`
	ExitCode    *int         `json:"exit_code,omitempty"` // the program's
	Signal      string       `json:"signal,omitempty"`

	lastLines []string // the last lines of the command's output, for the tape's checks of it
}

// outputChecked is how many of a command's last output lines a tape
// checks.
const outputChecked = 2

// stepCommand is what a step keeps of the command a call waited for.
type stepCommand struct {
	N          int    `json:"n"`
	Line       string `json:"line"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	DurationMS *int64 `json:"duration_ms,omitempty"`
}

// endOf is the waitEnd of a call whose wait reported rep, whose session
// was in state ex, and which waited for the command of co.
func endOf(rep waitReport, ex exitInfo, co commandOutcome, noCommand bool) waitEnd {
	e := waitEnd{Matched: rep.Matched, TimedOut: rep.TimedOut != nil && *rep.TimedOut, EndedBy: rep.EndedBy, WaitingFor: rep.WaitingFor,
		NoCommand: noCommand, AlreadyDone: co.AlreadyDone, Exited: ex.Exited, ExitCode: ex.ExitCode, Signal: ex.Signal}
	if c := co.Command; c != nil {
		e.Command = &stepCommand{N: c.N, Line: c.Line, ExitCode: c.ExitCode, DurationMS: c.DurationMS}
		if !c.Running {
			e.lastLines = lastLines(c.Output, outputChecked)
		}
	}
	return e
}

// lastLines are the last n lines of output that hold more than blanks,
// trimmed, oldest first, from a command that printed lines: none when a
// line holds box drawing or blocks (U+2500-U+259F), the remnants of a
// program that drew on the screen (dialog), whose rows a replay draws in
// another order.
func lastLines(output string, n int) []string {
	if strings.ContainsFunc(output, func(r rune) bool { return r >= 0x2500 && r <= 0x259f }) {
		return nil
	}
	var out []string
	lines := strings.Split(output, "\n")
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if l := strings.TrimSpace(lines[i]); utf8.RuneCountInString(l) >= 3 {
			out = append([]string{l}, out...)
		}
	}
	return out
}

// commandN is the number of the command the call's wait ended with, 0
// for none: a tape asserts each command once.
func (e waitEnd) commandN() int {
	if e.Command == nil {
		return 0
	}
	return e.Command.N
}

// exitCode is the exit code of the command the call waited for, nil for
// none.
func (e waitEnd) exitCode() *int {
	if e.Command == nil {
		return nil
	}
	return e.Command.ExitCode
}

// failed is how the wait fell short, for stepView.Failed: the command it
// waited for exited non-zero, or it timed out; "" when neither.
func (e waitEnd) failed() string {
	switch {
	case e.exitCode() != nil && *e.exitCode() != 0:
		return "exit " + strconv.Itoa(*e.exitCode())
	case e.TimedOut:
		return "timed out"
	}
	return ""
}

// personTool is the tool name of a step that no tool made: a person typed
// into the session (ttywright attach, the live view).
const personTool = "person"

// personStep is the step that says a person typed before at: never what
// they typed, which a replay cannot know, so its tape says where to add
// it.
func personStep(at time.Time) traceStep {
	return traceStep{Tool: personTool, Args: json.RawMessage("{}"), Start: at, stepView: stepView{
		Summary: "a person typed (ttywright attach or the live view)",
		Tape:    []tapeCmd{tapeComment("a person typed here (ttywright attach or the live view), which a replay cannot: type it with Type, or leave the step out")}}}
}
