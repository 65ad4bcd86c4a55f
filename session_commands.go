package main

// session_commands.go: a session's commands, read from its shell's OSC 133 marks
// (session_integ.go installs them): which command line ran, where, how long,
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
	"net/url"
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
	endLine  int64 // where it ended: its D (or the next prompt's A), and the column
	endCol   int
	by       string // who typed it: "person" (session_keyboard.go), or "" for the agent
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
	next         int    // commands started so far: the n of the last one
	ended        int    // commands whose D came
	prompts      int    // primary prompts started (A marks other than continuation prompts)
	told         int    // ended when the reader last notified (Session.readLoop)
	by           string // who a command starting now was typed by (Session.inputByLocked)
}

// takeMarksLocked runs the marks the last Write recorded; it reports
// whether a command started or ended. s.mu is held.
func (s *Session) takeMarksLocked() (changed bool) {
	marks := s.term.TakeShellMarks()
	if len(marks) > 0 {
		s.sh.by = s.inputByLocked()
	}
	for _, m := range marks {
		if m.Alt && m.Kind != '7' && !m.Own {
			// Without the nonce, a mark on the alternate screen is a
			// program's (a subshell of mc with the user's own integration);
			// with it, the shell's prompt over a program that exited with
			// the alternate screen on.
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
		c := &command{n: st.next, cwd: st.cwd, started: now, cLine: m.Line, cCol: m.Col, by: st.by}
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
	c.endLine, c.endCol = m.Line, m.Col
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

// truncatedMarker starts a text whose older part was cut: command output
// here, the screen text and raw output of shell_read.
const truncatedMarker = "...(truncated)...\n"

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
