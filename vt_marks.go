package main

// vt_marks.go: shell integration marks as the emulator sees them. A shell
// that speaks the FinalTerm convention marks its prompt and commands with
// OSC 133 (A prompt start, B command start, C output start, D;n command
// end with exit status n) and reports its directory with OSC 7
// (file://host/path). The emulator only notes each mark with where the
// cursor was; what the marks mean is the session's business.

import "strings"

// ShellMark is one OSC 133 or OSC 7 mark and the cursor position it was
// written at.
type ShellMark struct {
	Kind   byte   // 'A', 'B', 'C', 'D' (OSC 133) or '7' (OSC 7)
	Params string // OSC 133: what follows the kind's ';' ("0" for D;0, "k=s", ...); OSC 7: the URL
	Line   int64  // absolute row: rows scrolled into the history so far plus the cursor's row (LineText)
	Col    int    // the cursor's column, 0-based
	Alt    bool   // written on the alternate screen (Line and Col mean nothing then)
}

// vtMaxShellMarks bounds the marks waiting to be taken: a program that
// writes marks nobody reads cannot grow the list without end.
const vtMaxShellMarks = 1024

// shellMark records an OSC 133 or OSC 7 string (num is "133" or "7").
func (t *Terminal) shellMark(num, rest string) {
	m := ShellMark{Kind: '7', Params: rest, Line: t.hist.pushed + int64(t.cur.row), Col: t.cur.col, Alt: t.scr == t.alt}
	if num == "133" {
		kind, params, _ := strings.Cut(rest, ";")
		if len(kind) != 1 || !strings.Contains("ABCD", kind) {
			t.unknowns++
			return
		}
		m.Kind, m.Params = kind[0], params
	}
	if t.cur.wrap { // pending wrap: the next character lands on the next row
		m.Col = t.cols
	}
	if len(t.shellMarks) >= vtMaxShellMarks {
		t.shellMarks = t.shellMarks[1:]
	}
	t.shellMarks = append(t.shellMarks, m)
}

// TakeShellMarks returns the marks written since the last call, oldest
// first, and forgets them.
func (t *Terminal) TakeShellMarks() []ShellMark {
	if len(t.shellMarks) == 0 {
		return nil
	}
	m := t.shellMarks
	t.shellMarks = nil
	return m
}

// LineBase returns the absolute row number of the oldest row still kept:
// the first history row, or screen row 0 when there is no history.
func (t *Terminal) LineBase() int64 { return t.hist.pushed - int64(t.hist.n) }

// CursorLine returns the cursor's absolute row number (see ShellMark.Line).
func (t *Terminal) CursorLine() int64 { return t.hist.pushed + int64(t.cur.row) }

// LineText returns the main screen's row at absolute number abs, from the
// history or the screen, as text like Lines, and whether it soft-wrapped
// into the next row; ok is false for a row no longer kept or not yet
// written.
func (t *Terminal) LineText(abs int64, b *strings.Builder) (text string, wrapped, ok bool) {
	i := abs - t.LineBase()
	switch {
	case i < 0:
		return "", false, false
	case i < int64(t.hist.n):
		l := t.hist.at(int(i))
		return l.text(b), l.wrapped, true
	case i-int64(t.hist.n) < int64(t.rows):
		l := t.main.lines[i-int64(t.hist.n)]
		return l.text(b), l.wrapped, true
	}
	return "", false, false
}
