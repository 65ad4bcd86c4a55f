package main

// tools_reply.go: the text block of the tools that type, click and wait
// (shell_send, shell_click, shell_wait), written for the model that
// reads it in every step: what held, or why the wait ended; the command,
// when one framed the wait, with its line, exit code, duration and
// output; and the screen, only its part after the command's output (the
// prompt) when there was a command, else all of it. It says each thing
// once: not the screen before the call, not a JSON copy of
// structuredContent, which keeps every field for programs.

import (
	"fmt"
	"strings"
	"time"
)

// replyText assembles the text block from its parts: summary (the
// wait's TIMED OUT or NOT MATCHED line, a NO COMMAND reply, or ""), the
// wait's report when the call waited, the command outcome, the exit, and
// the screen to show.
func replyText(summary string, w waitReport, co commandOutcome, exit exitInfo, screen string) string {
	var b strings.Builder
	fg := exit.Foreground
	asks := fg != nil && fg.Input == inputSecret // a line prompt shows on the screen; a secret must not be typed by the model
	switch {
	case summary != "":
		b.WriteString(summary)
		b.WriteByte('\n')
	case w.Matched != nil && len(w.Held) > 0 && w.Input != "" && fg != nil && !asks:
		fmt.Fprintf(&b, "held: %s (%s)\n", strings.Join(w.Held, ", "), fg.describe())
	case w.Matched != nil && len(w.Held) > 0:
		fmt.Fprintf(&b, "held: %s\n", strings.Join(w.Held, ", "))
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
			b.WriteString(strings.TrimRight(c.Output, "\n"))
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
	b.WriteString(screen)
	if screen == "" && co.Command == nil {
		b.WriteString("(the screen is empty)")
	}
	return strings.TrimRight(b.String(), "\n")
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
// the whole visible screen (screen) when no command framed the wait, on
// the alternate screen (a full-screen program, or the prompt over one
// that exited without leaving it: the output, read from the main screen,
// cannot show it), and while the command runs with no output yet (a
// prompt drawn over the line, a program that only moves the cursor);
// nothing while it runs with output (that is the new part); else the
// text from the command's end mark to the cursor, the next prompt.
func shownScreen(s *Session, co commandOutcome, screen string) string {
	c := co.Command
	switch {
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
