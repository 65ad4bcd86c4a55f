package main

// vt_text.go: the screen as text the way the replies show it and waits
// match it. On the main screen and in its scrollback, rows that soft-
// wrapped are joined into one logical line, as a terminal copies them
// (a long line is one line, not split mid-word); the alternate screen,
// drawn by cursor addressing, keeps its rows. Rows lose their trailing
// blanks, trailing blank rows are dropped, and the blanks before the
// cursor on its row are kept (a prompt "$ " ends in one).

import (
	"strings"
	"unicode/utf8"
)

// rowText appends to b the text of cells[from:to] by the one rule every
// text view of the screen follows (the replies and waits, the
// scrollback, the .txt capture, shell_find, the styled form): the right
// half of a wide character (width 0) adds nothing, a cell never written
// (rune 0) adds a blank, a cell hidden with SGR 8 a blank per column
// (what the screen shows: no text view, capture or trace holds it), and
// a cell's combining marks (marks, sorted by
// column, as vtLine keeps them) follow its character. When cols is not
// nil, the column of each byte appended is appended to it. Trailing
// blanks are the caller's to trim.
func rowText(b []byte, cells []Cell, from, to int, marks []vtMark, cols *[]int) []byte {
	m := 0
	for m < len(marks) && marks[m].col < from {
		m++
	}
	for c := from; c < to; c++ {
		cell := &cells[c]
		if cell.Width == 0 {
			continue
		}
		n := len(b)
		switch r := cell.Rune; {
		case cell.Attr&AttrHidden != 0:
			b = append(b, "  "[:cell.Width]...)
		case r == 0:
			b = append(b, ' ')
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
		default:
			b = utf8.AppendRune(b, r)
		}
		for m < len(marks) && marks[m].col <= c {
			if marks[m].col == c && cell.Attr&AttrHidden == 0 {
				b = append(b, marks[m].s...)
			}
			m++
		}
		if cols != nil {
			for ; n < len(b); n++ {
				*cols = append(*cols, c)
			}
		}
	}
	return b
}

// textBuilder accumulates a text view and, when fresh is wanted, one
// flag per byte: the byte belongs to a written cell that carries neither
// attrEcho nor attrOld.
type textBuilder struct {
	b     []byte
	fresh []bool
	cols  []int // marks: the column of each byte of the row being added
	marks bool
	mask  Attr // marks: the cell marks that make a byte not fresh (attrMarks when zero)
}

// add appends s, a text of no cell (a newline, padding).
func (tb *textBuilder) add(s string) {
	tb.b = append(tb.b, s...)
	if tb.marks {
		for range len(s) {
			tb.fresh = append(tb.fresh, false)
		}
	}
}

// row appends l's text: up to its last non-blank cell, or, when full is
// set (a row that wrapped), up to its last written cell. It returns the
// number of columns appended.
func (tb *textBuilder) row(l *vtLine, full bool) int {
	end := l.used
	for end > 0 {
		c := &l.cells[end-1]
		if c.Width == 0 || c.Rune != 0 && (full || c.Rune != ' ') {
			break // a character (or the right half of a wide one)
		}
		end--
	}
	if !tb.marks {
		tb.b = rowText(tb.b, l.cells, 0, end, l.marks, nil)
		return end
	}
	tb.cols = tb.cols[:0]
	tb.b = rowText(tb.b, l.cells, 0, end, l.marks, &tb.cols)
	mask := tb.mask
	if mask == 0 {
		mask = attrMarks
	}
	for _, c := range tb.cols {
		cell := &l.cells[c]
		tb.fresh = append(tb.fresh, cell.Rune != 0 && cell.Attr&mask == 0)
	}
	return end
}

// ScreenText returns the visible screen as text (see the file comment).
func (t *Terminal) ScreenText() string {
	s, _ := t.screenView(false, true, 0)
	return s
}

// ScreenTextMarked is ScreenText with one flag per byte when a marking
// runs: true for the bytes of cells the program drew since it began
// that are not the echo of the tracked input. Blanks it added itself
// (before the cursor, or never-written cells) are not fresh. fresh is
// nil when no marking runs.
func (t *Terminal) ScreenTextMarked() (text string, fresh []bool) {
	return t.screenView(t.Marking(), true, attrMarks)
}

// ScreenTextStill is the screen text without the blanks added before the
// cursor: it changes only when the text does, not when the cursor moves.
func (t *Terminal) ScreenTextStill() string {
	s, _ := t.screenView(false, false, 0)
	return s
}

// screenView builds the visible screen's text; pad keeps the blanks
// before the cursor; with marks, the fresh flags exclude the cells
// carrying a mark of mask.
func (t *Terminal) screenView(marks, pad bool, mask Attr) (string, []bool) {
	tb := textBuilder{marks: marks, mask: mask}
	lines := t.scr.lines
	join := t.scr == t.main
	last := len(lines) - 1
	for last >= 0 && textless(lines[last]) && last != t.cur.row {
		last--
	}
	for i := 0; i <= last; i++ {
		l := lines[i]
		wrapped := join && l.wrapped && i < last
		end := tb.row(l, wrapped)
		if pad && i == t.cur.row && !wrapped {
			if n := t.cur.col - end; n > 0 {
				tb.add(strings.Repeat(" ", n))
			}
		}
		if !wrapped && i < last {
			tb.add("\n")
		}
	}
	return string(tb.b), tb.fresh
}

// textless reports whether row l shows no character (blanks only,
// whatever their colours).
func textless(l *vtLine) bool {
	if l.marks != nil {
		return false
	}
	for c := range l.cells[:l.used] {
		if r := l.cells[c].Rune; r != 0 && r != ' ' {
			return false
		}
	}
	return true
}

// ScrollbackText returns the scrollback as text, oldest first, one
// logical line per line (wrapped rows joined), with no final newline;
// "" when there is none.
func (t *Terminal) ScrollbackText() string {
	return t.historyText(0, t.hist.n)
}

// historyText joins history rows from..to-1; a last row that wrapped
// ends with the blanks written at its end (histJoin), ready for the row
// after it.
func (t *Terminal) historyText(from, to int) string {
	var b, tmp strings.Builder
	for i := from; i < to; i++ {
		s, wrapped := t.histJoin(i, &tmp)
		b.WriteString(s)
		if !wrapped && i+1 < to {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// histJoin is history row i's text and whether it wrapped into the next
// row; a wrapped row keeps the blanks written at its end (joinText).
func (t *Terminal) histJoin(i int, tmp *strings.Builder) (string, bool) {
	l := t.hist.at(i)
	if !l.wrapped {
		return l.text(tmp), false
	}
	return l.joinText(tmp), true
}

// Text returns the screen text, after the scrollback when scrollback is
// true; the scrollback's last row joins the screen's first when it
// wrapped into it.
func (t *Terminal) Text(scrollback bool) string {
	screen := t.ScreenText()
	if !scrollback || t.hist.n == 0 {
		return screen
	}
	return t.joinHistory(t.ScrollbackText(), screen)
}

// joinHistory puts history text hist (ending at the scrollback's last
// row, in its written blanks when it wrapped) before the screen's text.
func (t *Terminal) joinHistory(hist, screen string) string {
	if t.hist.at(t.hist.n-1).wrapped && t.scr == t.main {
		return hist + screen
	}
	return strings.TrimRight(hist, " ") + "\n" + screen
}

// TextTail is the end of Text(true) with more than min bytes, built from
// the newest history rows only (a reply keeps the newest bytes of a
// scrollback that may hold thousands of rows); older reports whether
// rows were left out before it.
func (t *Terminal) TextTail(min int) (text string, older bool) {
	screen := t.ScreenText()
	if t.hist.n == 0 || len(screen) > min {
		return screen, t.hist.n > 0
	}
	from, n := t.hist.n, len(screen)
	var tmp strings.Builder
	for {
		for from > 0 && n <= min {
			from--
			s, _ := t.histJoin(from, &tmp)
			n += len(s) + 1
		}
		// n counted a newline after every row, wrapped ones too: the text
		// may be shorter, and then takes more rows.
		text = t.joinHistory(t.historyText(from, t.hist.n), screen)
		if len(text) > min || from == 0 {
			return text, from > 0
		}
		n = len(text)
	}
}

// TextRows returns the main screen's rows from..to-1 as text, wrapped
// rows joined: row numbers count the scrollback first (0 is its oldest
// row, ScrollbackLen() the main screen's top row), so a range can span
// both. The range is clipped to the rows that exist; the main screen is
// read even while the alternate one is shown (command output lives on
// the main screen).
func (t *Terminal) TextRows(from, to int) string {
	from, to = max(from, 0), min(to, t.hist.n+t.rows)
	if from >= to {
		return ""
	}
	var b strings.Builder
	if from < t.hist.n {
		h := t.historyText(from, min(to, t.hist.n)) // ends in blanks when its last row wrapped
		if to <= t.hist.n {
			h = strings.TrimRight(h, " ")
		} else if !t.hist.at(t.hist.n - 1).wrapped {
			h += "\n"
		}
		b.WriteString(h)
	}
	tb := textBuilder{}
	for i := max(from-t.hist.n, 0); i < to-t.hist.n; i++ {
		l := t.main.lines[i]
		wrapped := l.wrapped && i+1 < to-t.hist.n
		tb.row(l, wrapped)
		if !wrapped && i+1 < to-t.hist.n {
			tb.add("\n")
		}
	}
	b.Write(tb.b)
	return b.String()
}
