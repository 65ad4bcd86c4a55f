package main

// tools_reply.go: the text block of the tools that type, click and wait
// (shell_send, shell_click, shell_wait), written for the model that
// reads it in every step, in plain words: what was done (done:
// wait_for "finished" matched), or why the wait ended; the command, when
// one framed the wait, with its line, exit code, duration and output;
// and the screen: its part after the command's output (the prompt) when
// there was a command, else what changed since the call (or the send a
// wait follows) began, the whole screen when its top changed. Runs of
// identical rows are folded (~ ×38). It says each thing once: not the
// screen before the call, not a JSON copy of structuredContent, which
// keeps every field, unfolded, for programs.

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// replyText assembles the text block from its parts: summary (the
// wait's TIMED OUT or NOT MATCHED line, a NO COMMAND reply, or ""), the
// wait's report when the call waited (its done line), the command
// outcome, the exit, and the screen to show.
func replyText(summary string, w waitReport, co commandOutcome, exit exitInfo, screen string) string {
	var b strings.Builder
	fg := exit.Foreground
	asks := fg != nil && fg.Input == inputSecret // a line prompt shows on the screen; a secret must not be typed by the model
	switch {
	case summary != "":
		b.WriteString(summary)
		b.WriteByte('\n')
	case w.done != "":
		b.WriteString(w.done)
		b.WriteByte('\n')
	}
	if w.Unread {
		b.WriteString(unreadNote)
		b.WriteByte('\n')
	}
	if asks && w.WaitingFor == "" { // a waiting_for summary says it already
		b.WriteString(inputNote(*fg))
		b.WriteByte('\n')
	}
	if c := co.Command; c != nil {
		b.WriteString(commandHeader(c, co.AlreadyDone))
		b.WriteByte('\n')
		switch {
		case c.Output == "":
			b.WriteString("(no output)\n")
		default:
			b.WriteString(foldRows(strings.TrimRight(c.Output, "\n")))
			b.WriteByte('\n')
		}
		switch {
		case screen == "":
		case c.Running:
			b.WriteString("--- the screen shows:\n")
		default:
			b.WriteString("--- then the screen shows:\n")
		}
	}
	if exit.Exited {
		b.WriteString(exitLine(exit))
		b.WriteByte('\n')
	}
	if k := keyboardLine(exit.KeyboardInfo); k != "" {
		b.WriteString(k)
		b.WriteByte('\n')
	}
	b.WriteString(foldRows(screen))
	if screen == "" && co.Command == nil {
		b.WriteString("(the screen is empty)")
	}
	return strings.TrimRight(b.String(), "\n")
}

// unreadNote is the line a reply adds when the program had not read all
// that the call typed when it returned (awaitRead).
const unreadNote = "NOT READ YET: the program has not read all of your input (it is busy, or reads slowly): the screen may not show it; " +
	"wait with shell_wait wait_for_input or wait_for."

// doneLine is the first line of a wait whose every condition held, in
// plain words: what each condition saw, in the order they held, as
// `done: wait_for "finished" matched, then wait_idle_ms: no output for
// 500ms`; "" when there is none to say. wait_for_command is left out:
// the command's own line follows (commandHeader). out.fg names the
// program a wait_for_input saw reading.
func doneLine(out waitOutcome, spec waitSpec) string {
	if !out.matched || !spec.waiting() {
		return ""
	}
	parts := make([]string, 0, len(spec.stages))
	for _, st := range spec.stages {
		var p string
		switch st.kind {
		case stageCommand:
			continue
		case stageMatch:
			p = "wait_for " + st.match.quoted() + " matched"
		case stageGone:
			p = "wait_for_gone " + st.match.quoted() + " is gone"
		case stageInput:
			p = "wait_for_input: your input is read"
			if out.input != "" && out.input != inputSecret { // a secret has a line of its own (inputNote)
				p += "; " + out.fg.describe()
			}
		case stageIdle:
			p = "wait_idle_ms: no output for " + durationText(st.d)
		case stageStable:
			p = "wait_stable_ms: the screen unchanged for " + durationText(st.d)
		case stageExit:
			p = "the program exited"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return "done: " + strings.Join(parts, ", then ")
}

// foldMin is the shortest run of identical rows foldRows folds.
const foldMin = 3

// foldRows folds each run of at least foldMin identical rows of text
// that are not empty into one, the row and " ×N": vim's 38 rows of ~
// are "~ ×38". It is for the text a model reads, never for
// structuredContent or files, which keep every row.
func foldRows(text string) string {
	rows := strings.Split(text, "\n")
	if len(rows) < foldMin {
		return text
	}
	out := rows[:0:0]
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j] == rows[i] {
			j++
		}
		if n := j - i; n >= foldMin && strings.TrimSpace(rows[i]) != "" {
			out = append(out, rows[i]+" ×"+strconv.Itoa(n))
		} else {
			out = append(out, rows[i:j]...)
		}
		i = j
	}
	return strings.Join(out, "\n")
}

// screenMark is the screen as a typing call found it, for telling what
// the call changed (changedScreen): whether it was the alternate screen,
// the absolute numbers of its top row and of the cursor's row, and the
// text of its rows.
type screenMark struct {
	alt    bool
	top    int64
	cursor int64
	rows   []string
}

// markScreen takes the screenMark of t. The caller holds the lock that
// guards t.
func markScreen(t *Terminal) screenMark {
	_, n := t.Size()
	m := screenMark{alt: t.Modes().AltScreen, cursor: t.CursorLine(), rows: make([]string, n)}
	m.top = m.cursor - int64(t.Cursor().Row)
	for r := range m.rows {
		m.rows[r] = t.Row(r)
	}
	return m
}

// changedScreen is the part of the screen that changed since m was
// taken, for a reply: from the first row above m's cursor row that
// changed, else from the cursor's row (where the call typed), to the
// screen's end (screenEnd), with a first line saying that the rows
// above are as they were. The whole screen (screen) when the top row
// changed, on or after the alternate screen (a full-screen program
// redraws it), or when the output scrolled past the top, then with a
// first line saying how many new lines scrolled away.
func changedScreen(s *Session, m *screenMark, screen string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.term
	if m.alt && t.Modes().AltScreen {
		return changedRows(t, m, screen)
	}
	if m.alt || t.Modes().AltScreen {
		return screen
	}
	top := t.CursorLine() - int64(t.Cursor().Row)
	from := m.cursor
	for l := max(top, m.top); l < m.cursor; l++ {
		if t.Row(int(l-top)) != m.rows[l-m.top] {
			from = l
			break
		}
	}
	switch {
	case from < top:
		return fmt.Sprintf("(%d new lines scrolled above the screen: shell_read shows them)\n", top-from) + screen
	case from == top:
		return screen
	}
	line, col := screenEnd(t)
	text, _ := rangeText(t, from, 0, line, col, defaultReadBytes)
	return fmt.Sprintf("(rows 0-%d as before)\n", from-top-1) + text
}

// changedRows is the alternate screen's rows that changed since m, the
// runs of the others each one line "(rows i-j as before)"; the whole
// screen when most rows changed or the size did, and a line saying so
// when none did. t's lock is held.
func changedRows(t *Terminal, m *screenMark, screen string) string {
	_, n := t.Size()
	if n != len(m.rows) {
		return screen
	}
	var b strings.Builder
	changed, same := 0, -1 // same: the first row of the run of unchanged rows, -1 for none
	flush := func(r int) {
		if same >= 0 {
			fmt.Fprintf(&b, "(rows %d-%d as before)\n", same, r-1)
			same = -1
		}
	}
	for r := range n {
		row := t.Row(r)
		if row == m.rows[r] {
			if same < 0 {
				same = r
			}
			continue
		}
		flush(r)
		changed++
		b.WriteString(row + "\n")
	}
	switch {
	case changed == 0:
		return "(the screen is as before)"
	case 2*changed > n:
		return screen
	}
	flush(n)
	return strings.TrimSuffix(b.String(), "\n")
}

// keyboardLine says that a person watches the session, holds its
// keyboard or typed since the agent's last call, or is "" when no one
// watches: the agent then reads nothing more than before.
func keyboardLine(k KeyboardInfo) string {
	var parts []string
	switch {
	case k.Keyboard == holderPerson:
		parts = append(parts, "a person holds the keyboard (shell_send and shell_click are refused until they give it back)")
	case k.Viewers > 0:
		parts = append(parts, fmt.Sprintf("%d person(s) watching", k.Viewers))
	}
	if k.PersonTyped {
		parts = append(parts, "a person typed since your last call")
	}
	return strings.Join(parts, "; ")
}

// inputNote is the line a reply adds when the foreground program waits
// for a secret, which the model must know before it types anything.
func inputNote(fg Foreground) string {
	return fg.describe() + ": a person must type it; call shell_ask_secret {session_id}, never type a password yourself."
}

// durationText is d for a reply, in the units time.Duration prints but
// never "0s" next to "2ms": 0 is "0ms".
func durationText(d time.Duration) string {
	if d == 0 {
		return "0ms"
	}
	return d.String()
}

// commandHeader is the line before a command's output, e.g.
// "command 3 exited 0 after 12 ms: make test".
func commandHeader(c *commandResult, already bool) string {
	what := "ended (exit code unknown)"
	switch {
	case c.Running:
		what = "is still running"
	case c.ExitCode != nil:
		what = fmt.Sprintf("exited %d", *c.ExitCode)
	}
	if c.DurationMS != nil {
		what += " after " + durationText(time.Duration(*c.DurationMS)*time.Millisecond)
	}
	if already {
		what = "had already " + strings.TrimPrefix(what, "is still ")
	}
	h := fmt.Sprintf("command %d %s: %s", c.N, what, c.Line)
	switch {
	case c.lost:
		h += " (its oldest output is lost, past the scrollback or the 256 KiB kept per command; to keep it all, send it to a file and read that)"
	case c.Truncated:
		h += fmt.Sprintf(" (output cut to its newest part: raise max_bytes, or read %s)", c.URI)
	}
	return h
}

// exitLine says how the program ended.
func exitLine(e exitInfo) string {
	if e.Signal != "" {
		return fmt.Sprintf("the program was killed by %s (exit code %d)", e.Signal, *e.ExitCode)
	}
	return fmt.Sprintf("the program exited with code %d", *e.ExitCode)
}

// shownScreen is the screen a reply shows after the command outcome co:
// when no command framed the wait, what changed since the call (or the
// send its wait follows) began, since (changedScreen), or with since nil
// the whole visible screen (screen); on
// the alternate screen (a full-screen program, or the prompt over one
// that exited without leaving it: the output, read from the main screen,
// cannot show it), and while the command runs with no output yet (a
// prompt drawn over the line, a program that only moves the cursor);
// nothing while it runs with output (that is the new part); else the
// text from the command's end mark to the cursor, the next prompt.
func shownScreen(s *Session, co commandOutcome, screen string, since *screenMark) string {
	c := co.Command
	switch {
	case c == nil && since != nil:
		return changedScreen(s, since, screen)
	case c == nil, s.Modes().AltScreen, c.Running && c.Output == "":
		return screen
	case c.Running:
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.sh.cmds {
		if k.n == c.N {
			line, col := screenEnd(s.term)
			text, _ := rangeText(s.term, k.endLine, k.endCol, line, col, noCommandReplyCap)
			return strings.TrimLeft(text, "\n")
		}
	}
	return screen
}

// screenEnd is where a reply's screen ends: the end of the cursor's row
// or of the last row with text below it, whichever is lower, so that a
// right prompt (zsh's RPROMPT, fish_right_prompt) and what a line editor
// draws under the line (a completion list) are shown. The caller holds
// the lock that guards t.
func screenEnd(t *Terminal) (line int64, col int) {
	cols, rows := t.Size()
	cur := t.CursorLine()
	line = cur
	top := cur - int64(t.Cursor().Row)
	for r := rows - 1; r >= 0 && top+int64(r) > line; r-- {
		if t.Row(r) != "" {
			line = top + int64(r)
		}
	}
	return line, cols
}
