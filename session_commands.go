package main

// commands.go: a session's commands, read from its shell's OSC 133 marks
// (shellinteg.go installs them): which command line ran, where, how long,
// with what exit status and what it printed. It also answers
// wait_for_command and serves session://{id}/commands.
//
// A command goes through the marks A (prompt start), B (end of the
// prompt: the command line starts), C (the command runs: its output
// starts) and D;n (it ended with status n); it is done for a waiter once
// the next prompt is drawn (the B, or the A when the shell writes no B).
// Marks written twice (two integrations in one shell) count once: a C
// while a command runs and a D with no command running are ignored.

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Command history limits.
const (
	maxCommands       = 100       // finished commands kept per session, the newest
	commandOutputCap  = 256 << 10 // bytes of output kept per command, the newest
	commandsOutputCap = 2 << 20   // bytes of output kept over all of a session's commands: older outputs are dropped first
)

// command is one command the shell ran.
type command struct {
	n        int // 1-based, in the order the commands started
	line     string
	lineOK   bool // line came from the shell itself, not from the screen
	multi    bool // line was typed over several prompts (read from the screen)
	cwd      string
	started  time.Time
	ended    time.Time
	exitCode *int
	output   string // when ended: the text between C and D, at most commandOutputCap bytes (the newest)
	cut      bool   // output lost its oldest part (scrollback or commandOutputCap)
	outBytes int    // len(output)
	drawn    bool   // the prompt after it is drawn
	cLine    int64  // where C was (absolute row, ShellMark.Line) and its column
	cCol     int
}

// shellState is what the marks have told about the shell. Guarded by
// Session.mu.
type shellState struct {
	seenA, seenB bool     // a prompt was marked (the shell is integrated); with its end
	bLine        int64    // where the last B was
	bCol         int      //
	inLine       bool     // between a B and the next A;k=s (a continuation prompt) or C
	lines        []string // the command line's earlier lines, before continuation prompts
	cwd          string   // from the last OSC 7
	running      *command // between C and D
	cmds         []*command
	next         int // n of the next command
	ended        int // commands whose D came
	prompts      int // primary prompts started (A marks other than continuation prompts)
	told         int // ended when the reader last notified (Session.readLoop)
}

// commandsUpdated tells subscribers that a command started or ended:
// session://{id}/info and sessions://list (both show command_running)
// change, and an ended command joins .../commands (which lists finished
// commands only) as a new resource (list_changed).
func (a *App) commandsUpdated(s *Session, ended bool) {
	a.resourceUpdated(infoURI(s.ID))
	a.resourceUpdated(sessionsListURI())
	if ended { // the list holds finished commands only
		a.resourceUpdated(commandsURI(s.ID))
		a.resourceListChanged()
	}
}

// takeMarksLocked runs the marks the last Write recorded; it reports
// whether a command started or ended. s.mu is held.
func (s *Session) takeMarksLocked() (changed bool) {
	marks := s.term.TakeShellMarks()
	for _, m := range marks {
		if m.Alt && m.Kind != '7' {
			continue
		}
		if s.sh.mark(s.term, m, time.Now()) {
			changed = true
		}
	}
	return changed
}

// mark applies one mark; it reports whether the command list changed.
func (st *shellState) mark(t *Terminal, m ShellMark, now time.Time) bool {
	switch m.Kind {
	case '7':
		if u, err := url.Parse(m.Params); err == nil && u.Scheme == "file" && u.Path != "" {
			st.cwd = u.Path
		} else if p, ok := strings.CutPrefix(m.Params, "file://"); ok {
			if i := strings.IndexByte(p, '/'); i >= 0 {
				st.cwd = p[i:]
			}
		}
	case 'A':
		if _, secondary := markParam(m.Params, "k"); secondary && st.inLine {
			// A continuation prompt: the line typed so far ends here.
			l, _ := rangeText(t, st.bLine, st.bCol, m.Line, m.Col, commandOutputCap)
			st.lines, st.inLine = append(st.lines, l), false
			return false
		}
		st.seenA, st.lines, st.inLine = true, nil, false
		st.prompts++
		ended := st.running != nil
		if ended { // a prompt with no D before it: the command ended, its status unknown
			st.finish(t, m, nil, now)
		}
		if !st.seenB {
			st.promptDrawn()
		}
		return ended
	case 'B':
		st.seenA, st.seenB, st.inLine = true, true, true
		st.bLine, st.bCol = m.Line, m.Col
		st.promptDrawn()
	case 'C':
		if st.running != nil {
			return false
		}
		st.next++
		c := &command{n: st.next, cwd: st.cwd, started: now, cLine: m.Line, cCol: m.Col}
		if v, ok := markParam(m.Params, "cmdline_url"); ok {
			if line, err := url.PathUnescape(v); err == nil {
				c.line, c.lineOK = line, true
			}
		}
		if !c.lineOK && st.seenB {
			// The line from the screen: each line typed after its prompt.
			last, _ := rangeText(t, st.bLine, st.bCol, m.Line, m.Col, commandOutputCap)
			c.line, c.multi = strings.Join(append(st.lines, last), "\n"), len(st.lines) > 0
		}
		st.running, st.lines, st.inLine = c, nil, false
		return true
	case 'D':
		if st.running == nil {
			return false
		}
		var code *int
		if n, err := strconv.Atoi(strings.SplitN(m.Params, ";", 2)[0]); err == nil {
			code = &n
		}
		if line, ok := bashHistoryLine(m.Params); ok && !st.running.multi { // over continuation prompts bash's history joins the lines with ;
			st.running.line, st.running.lineOK = line, true
		}
		st.finish(t, m, code, now)
		return true
	}
	return false
}

// finish ends the running command at mark m (its D, or the next prompt's
// A) with exit status code (nil: unknown): its output is read from the
// screen and scrollback now, and it joins the bounded list.
func (st *shellState) finish(t *Terminal, m ShellMark, code *int, now time.Time) {
	c := st.running
	st.running = nil
	c.exitCode, c.ended = code, now
	c.output, c.cut = c.outputTo(t, m)
	c.outBytes = len(c.output)
	st.cmds = append(st.cmds, c)
	if len(st.cmds) > maxCommands {
		st.cmds = append(st.cmds[:0], st.cmds[len(st.cmds)-maxCommands:]...)
	}
	st.capOutputs()
	st.ended++
}

// outputTo reads c's output from the screen and scrollback, from where
// it starts to mark m: the C mark's position, or, when an erase covered
// that (clear, ED, RIS), where the erase left the start (m.Out, see
// vtOutStart), so that the output is what the command left visible.
func (c *command) outputTo(t *Terminal, m ShellMark) (string, bool) {
	from, col := c.cLine, c.cCol
	if m.Out.Set && m.Out.Erased {
		from, col = m.Out.Line, m.Out.Col
	}
	return rangeText(t, from, col, m.Line, m.Col, commandOutputCap)
}

// exitedLocked ends the command still running when the shell exits
// (killed during it, or "exit"): its output is what it printed up to
// the cursor, its exit_code unknown (the shell's own status is the
// session's exit_code), and no prompt follows, so it counts as drawn.
// It reports whether a command ended. Session.mu is held.
func (st *shellState) exitedLocked(t *Terminal, now time.Time) bool {
	if st.running == nil {
		return false
	}
	st.finish(t, t.OutputEnd(), nil, now)
	st.promptDrawn()
	return true
}

// capOutputs drops the outputs of the oldest commands until those kept
// fit commandsOutputCap (the newest command's always stays).
func (st *shellState) capOutputs() {
	total := 0
	for i := len(st.cmds) - 1; i >= 0; i-- {
		c := st.cmds[i]
		if total += len(c.output); total > commandsOutputCap && i < len(st.cmds)-1 {
			c.output, c.cut = "", c.outBytes > 0
		}
	}
}

// promptDrawn marks the newest finished command's prompt as drawn.
func (st *shellState) promptDrawn() {
	if k := len(st.cmds); k > 0 {
		st.cmds[k-1].drawn = true
	}
}

// markParam finds key=value among the ';'-separated parameters of a mark.
func markParam(params, key string) (string, bool) {
	for _, p := range strings.Split(params, ";") {
		if v, ok := strings.CutPrefix(p, key+"="); ok {
			return v, true
		}
	}
	return "", false
}

// bashHistoryLine reads the command line bash's integration appends to
// D: "tw_histcmd=N;tw_history_url=  N  line", the output of history 1
// with %, CR, LF, BEL and ESC percent-encoded (an OSC string cannot hold
// them). The entry is the command's only when its number is the one
// noted at the prompt before (a line bash kept out of its history leaves
// an older entry there).
func bashHistoryLine(params string) (string, bool) {
	want, ok := markParam(params, "tw_histcmd")
	_, hist, found := strings.Cut(params, ";tw_history_url=")
	if !ok || !found {
		return "", false
	}
	hist, err := url.PathUnescape(strings.TrimLeft(hist, " "))
	if err != nil {
		return "", false
	}
	num, line, ok := strings.Cut(hist, "  ")
	if !ok || num != want {
		return "", false
	}
	return line, true
}

// rangeText returns the main screen's text from (fromLine, fromCol) up
// to (toLine, toCol), history included: soft-wrapped rows joined, other
// rows ended by a newline, the last row's newline left out. Rows no
// longer kept are left out and cut is true; so it is when more than max
// bytes remain, of which the newest max are kept.
func rangeText(t *Terminal, fromLine int64, fromCol int, toLine int64, toCol int, max int) (text string, cut bool) {
	if base := t.LineBase(); fromLine < base {
		fromLine, fromCol, cut = base, 0, true
	}
	var out, tmp strings.Builder
	for l := fromLine; l <= toLine; l++ {
		row, wrapped, ok := t.LineText(l, &tmp)
		if !ok {
			break
		}
		if l == toLine {
			row = cutCols(row, toCol)
		}
		if l == fromLine && fromCol > 0 {
			row = cutFrom(row, fromCol)
		}
		out.WriteString(row)
		if l < toLine && !wrapped {
			out.WriteByte('\n')
		}
	}
	s := strings.TrimSuffix(out.String(), "\n")
	if len(s) > max {
		s, _ = tailText(s, max, false)
		s = strings.TrimPrefix(s, truncatedMarker)
		cut = true
	}
	return s, cut
}

// cutCols keeps the first cols cells of row.
func cutCols(row string, cols int) string {
	w := 0
	for i, r := range row {
		if w >= cols {
			return row[:i]
		}
		w += runeWidth(r)
	}
	return row
}

// cutFrom drops the first cols cells of row.
func cutFrom(row string, cols int) string {
	w := 0
	for i, r := range row {
		if w >= cols {
			return row[i:]
		}
		w += runeWidth(r)
	}
	return ""
}

// ---- results

// commandWaitArgs are the wait arguments about commands, shared by
// shell_send and shell_wait.
type commandWaitArgs struct {
	WaitForCommand bool `json:"wait_for_command"`
	MaxBytes       *int `json:"max_bytes"`
}

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
}

// commandOutcome is what a wait result says about a command.
type commandOutcome struct {
	Command     *commandResult `json:"command,omitempty"`
	AlreadyDone bool           `json:"already_done,omitempty"`
}

// commandProps adds commandOutcome's fields to an output schema.
func commandProps(m map[string]any) map[string]any {
	m["command"] = map[string]any{
		"type": "object",
		"description": "With wait_for_command: the command that ended (or, on timeout, the one still running): line, exit_code, duration_ms (output start to end), cwd, " +
			"output (its text, scrollback included, cut to max_bytes with truncated true), running (true on timeout), uri (session://{id}/commands/{n}).",
		"properties": map[string]any{
			"n": map[string]any{"type": "integer"}, "line": map[string]any{"type": "string"},
			"exit_code": map[string]any{"type": "integer"}, "duration_ms": map[string]any{"type": "integer"},
			"cwd": map[string]any{"type": "string"}, "output": map[string]any{"type": "string"},
			"truncated": map[string]any{"type": "boolean"}, "running": map[string]any{"type": "boolean"},
			"uri": map[string]any{"type": "string"},
		},
		"required": []string{"n", "line", "output", "truncated"},
	}
	m["already_done"] = prop("boolean", "With wait_for_command when no command was running: shell_wait (command is the last one that finished), or shell_send whose input was an empty line or Ctrl-C at an empty prompt and drew a new prompt (no command; no_command true). A line the shell rejected gives no_command without already_done.")
	return m
}

// commandArgProps adds commandWaitArgs's fields to an input schema.
func commandArgProps(m map[string]any) map[string]any {
	m["wait_for_command"] = prop("boolean", "In a shell with integration (bash, zsh, fish): return when the next command ends and its prompt is back, "+
		"with command {line, exit_code, duration_ms, cwd, output}. Works for any prompt; prefer it to wait_for on a prompt string.")
	m["max_bytes"] = intProp("With wait_for_command: at most this many bytes of the command's output, the newest (default 8192).", 1, commandOutputCap)
	return m
}

// result turns c into a commandResult with output cut to max bytes.
func (c *command) result(sessionID string, max int) *commandResult {
	r := &commandResult{N: c.n, Line: c.line, ExitCode: c.exitCode, Cwd: c.cwd, Output: c.output, Truncated: c.cut}
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

// checkCommandWait validates the command wait arguments for s: the
// output limit, and that the session can mark commands at all.
func (s *Session) checkCommandWait(in commandWaitArgs) (max int, err error) {
	max = defaultReadBytes
	if in.MaxBytes != nil {
		if !in.WaitForCommand {
			return 0, fmt.Errorf("max_bytes applies to wait_for_command's output: add wait_for_command true, or drop max_bytes")
		}
		if max = *in.MaxBytes; max < 1 || max > commandOutputCap {
			return 0, fmt.Errorf("max_bytes %d is out of range: use 1..%d", max, commandOutputCap)
		}
	}
	if !in.WaitForCommand {
		return max, nil
	}
	s.mu.Lock()
	integ, seen := s.integ, s.sh.seenA
	s.mu.Unlock()
	if !integ.Active && !seen {
		why := integ.Reason
		if why == "" {
			why = "the program marks no commands"
		}
		return 0, fmt.Errorf("wait_for_command needs a shell with integration, and this session has none (%s): wait with wait_for (text or /regex/ the command prints, e.g. echo DO''NE and wait for DONE) or wait_idle_ms instead", why)
	}
	return max, nil
}

// commandBaseLocked is the number of commands ended so far: a waiter
// returns at the first one after it. s.mu is held.
func (s *Session) commandBaseLocked() int { return s.sh.ended }

// promptBaseLocked is the number of prompts so far when the shell sits
// idle at one, else -1. s.mu is held.
func (s *Session) promptBaseLocked() int {
	st := &s.sh
	if k := len(st.cmds); !st.seenA || st.running != nil || k > 0 && !st.cmds[k-1].drawn {
		return -1
	}
	return st.prompts
}

// commandDoneLocked reports the first command that ended after the wait
// began (w.cmdBase), once the prompt after it is drawn. s.mu is held.
func (w *outputWatch) commandDoneLocked() (*command, bool) {
	st := &w.s.sh
	if w.cmdBase == firstPromptBase {
		return firstPrompt, st.seenB || !w.s.integ.Active && st.seenA
	}
	if st.ended <= w.cmdBase {
		// None ran, but the shell idle at a prompt drew a new one (an
		// empty line, Ctrl-C): nothing is left to wait for.
		if w.promptBase >= 0 && st.running == nil && st.prompts > w.promptBase && (!st.seenB || st.inLine) {
			return firstPrompt, true
		}
		return nil, false
	}
	first := len(st.cmds) - (st.ended - w.cmdBase)
	c := st.cmds[max(first, 0)]
	return c, c.drawn
}

// firstPromptBase is outputWatch.cmdBase for shell_wait's
// wait_for_command before the shell's first prompt: it waits for that
// prompt, and then returns firstPrompt (already_done, no command), not
// for a command that nobody started.
const firstPromptBase = -1

// firstPrompt is the command a firstPromptBase wait ends with, and a
// wait whose input ran none but drew a new prompt.
var firstPrompt = &command{}

// lastCommand returns the newest finished command when none is running
// and its prompt is drawn (shell_wait's already_done), else nil.
func (s *Session) lastCommand() *command {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sh.running != nil || len(s.sh.cmds) == 0 {
		return nil
	}
	if c := s.sh.cmds[len(s.sh.cmds)-1]; c.drawn {
		return c
	}
	return nil
}

// idleAtPrompt reports whether the shell sits at a prompt with no
// command running or finishing (shell_wait's already_done case).
func (s *Session) idleAtPrompt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := len(s.sh.cmds)
	return s.sh.seenA && s.sh.running == nil && (k == 0 || s.sh.cmds[k-1].drawn)
}

// runningCommand returns the command still running, with its output so
// far, or nil (also once the shell has exited: "exit" starts a command
// that never ends).
func (s *Session) runningCommand(max int) *commandResult {
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
func (s *Session) commandOutcomeOf(c *command, max int) commandOutcome {
	if c == firstPrompt {
		return commandOutcome{AlreadyDone: true}
	}
	if c != nil {
		return commandOutcome{Command: c.result(s.ID, max)}
	}
	return commandOutcome{Command: s.runningCommand(max)}
}

// ---- session://{id}/commands

// commandJSON is one entry of session://{id}/commands.
type commandJSON struct {
	N           int       `json:"n"`
	Line        string    `json:"line"`
	ExitCode    *int      `json:"exit_code"`
	Started     time.Time `json:"started"`
	DurationMS  int64     `json:"duration_ms"`
	Cwd         string    `json:"cwd"`
	OutputBytes int       `json:"output_bytes"`
	URI         string    `json:"uri"`
}

// Commands returns the finished commands kept, oldest first.
func (s *Session) Commands() []commandJSON {
	s.mu.Lock()
	defer s.mu.Unlock()
	return commandList(s.ID, s.sh.cmds)
}

func commandList(id string, cmds []*command) []commandJSON {
	out := make([]commandJSON, 0, len(cmds))
	for _, c := range cmds {
		out = append(out, commandJSON{N: c.n, Line: c.line, ExitCode: c.exitCode, Started: c.started.UTC(),
			DurationMS: c.ended.Sub(c.started).Milliseconds(), Cwd: c.cwd, OutputBytes: c.outBytes, URI: commandURI(id, c.n).String()})
	}
	return out
}

// shellInfo is the shell part of session://{id}/info and sessions://list.
type shellInfo struct {
	Integration    shellIntegration `json:"shell_integration"`
	CommandRunning bool             `json:"command_running"`
	Cwd            string           `json:"-"` // the directory the shell reported last (OSC 7), "" when none
}

// ShellInfo returns the integration state, the directory the shell
// reported last and whether a command is running.
func (s *Session) ShellInfo() shellInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := shellInfo{Integration: s.integ, Cwd: s.sh.cwd, CommandRunning: s.sh.running != nil}
	if !in.Integration.Active && s.sh.seenA { // the program writes marks of its own
		in.Integration.Active, in.Integration.Reason = true, ""
	}
	return in
}

// commandsCopy returns the finished commands (shared: a finished command
// never changes), for a stopped session's resources.
func (s *Session) commandsCopy() []*command {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*command(nil), s.sh.cmds...)
}

// commands returns the session's finished commands, oldest first.
func (v *resSess) commands() []*command {
	if v.live != nil {
		return v.live.commandsCopy()
	}
	return v.stopped.commands
}

// commandOutput is session://{id}/commands/{n}: the output as kept, the
// truncation marker first when its oldest part was lost.
func (v *resSess) commandOutput(name string) (string, bool) {
	for _, c := range v.commands() {
		if strconv.Itoa(c.n) == name {
			if c.cut {
				return truncatedMarker + c.output, true
			}
			return c.output, true
		}
	}
	return "", false
}

// commandResources are the resources/list entries of a session's
// commands: the list, then each finished command.
func commandResources(id, label string, cmds []*command) []resourceJSON {
	out := []resourceJSON{{URI: commandsURI(id).String(), Name: id + "/commands", Title: label + " commands", MimeType: "application/json",
		Description: fmt.Sprintf("The commands the shell finished (the newest %d): n, line, exit_code, started, duration_ms, cwd, output_bytes, uri.", maxCommands)}}
	for _, c := range cmds {
		out = append(out, resourceJSON{URI: commandURI(id, c.n).String(), Name: fmt.Sprintf("%s/commands/%d", id, c.n),
			Title: "Command " + strconv.Itoa(c.n), MimeType: "text/plain", Size: int64(c.outBytes),
			Description: fmt.Sprintf("Output of %q (exit %s) in session %s.", clip(c.line, 80), exitText(c.exitCode), id)})
	}
	return out
}

func exitText(p *int) string {
	if p == nil {
		return "unknown"
	}
	return strconv.Itoa(*p)
}

// clip shortens s to at most n bytes at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// completeCommandNumbers lists the command numbers of session id (of
// every session when id is ""), newest first.
func (a *App) completeCommandNumbers(id string) []string {
	var out []string
	for _, s := range a.completionSessions(id) {
		cmds := s.commands()
		for i := len(cmds) - 1; i >= 0; i-- {
			if n := strconv.Itoa(cmds[i].n); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// alreadyDone is shell_wait's answer when it waits for a command first
// and none is running: that stage holds at once, with the last finished
// command (if any) and already_done. Before an integrated shell's first
// prompt the wait goes on until that prompt (firstPromptBase). A command
// that ended but whose prompt is not drawn yet is
// the one the wait returns, so the watch's base steps back to it.
func (s *Session) alreadyDone(w *outputWatch, c waitSpec, max int) (commandOutcome, bool) {
	if len(c.stages) == 0 || c.stages[0].kind != stageCommand {
		return commandOutcome{}, false
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
