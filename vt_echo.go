package main

// vt_echo.go: cell marks that let a wait tell the program's answer from
// the echo of what was just typed and from what was on the screen before.
//
// A marking runs from BeginMarks to EndMarks (one at a time per
// terminal). While it runs, every printed run of cells passes through
// markEcho: a cell whose rune is the next one the echo tracker expects is
// marked attrEcho. BeginMarks can also mark every written cell of both
// screens attrOld. Both marks ride in the cells (Attr bits the SGR
// encoder ignores, like attrProtected), so they move with the text on
// scrolls, insertions and deletions, and vanish when the program erases
// or overwrites the cell; the pen never carries them. A row with a mark
// counts as styled (vtLine.styled), so the paths that assume a plain
// row's cells carry no attribute keep away from it; rows that scroll into
// the history during a marking keep their marks there, where the text and
// style views ignore them.

import (
	"slices"
	"strings"
)

// Cell marks (see the file comment).
const (
	attrOld   Attr = 1 << 13 // on the screen when the marking began
	attrEcho  Attr = 1 << 14 // drawn as the echo of the tracked input
	attrMarks      = attrOld | attrEcho
)

// echoTracker recognises the echo of typed input among printed runes.
// The rule, for the terminal's echo, a line editor's redraw and an
// editor drawing typed text alike: the input's runes count as echo
// whenever they are drawn in order, any number of them skipped (keys a
// program does not draw, as vim does not draw "ggO"; a blank only in
// its place, for programs draw blanks everywhere), and an input
// line's first rune restarts that line, also after other text on a later
// row once the whole input was drawn (a prompt followed by its line
// editor's redraw of the typed-ahead input, as bash draws it); but a row
// that starts with an input line after the whole input was drawn is the
// program's answer (cat), and ends the tracking.
type echoTracker struct {
	want    []rune       // the input's printable runes, in order
	lines   []int        // where each input line starts in want, ascending, lines[0] == 0
	pos     int          // the next expected rune: want[pos]
	line    int          // the input line pos is in: lines[line] <= pos
	stopped bool         // tracking has ended
	ascii   [2]uint64    // the ASCII runes in want, as a bit set: others need no step
	firsts  map[rune]int // each input line's first rune: the first line it starts
	end     int          // pos runs up to here: len(want), or the end of the line being drawn again
	redrawn int          // the lines before this one were drawn again
}

// echoSkipMax bounds how far ahead in the input a printed rune may be
// found (the keys skipped): a long paste costs no more per rune.
const echoSkipMax = 256

// echoRestMax bounds, in runes, the unechoed input a tracker hands on to
// the next wait (echoTracker.rest), whole lines kept.
const echoRestMax = 4096

// newEchoTracker returns a tracker for input, in which '\r' and '\n'
// separate lines and other controls are ignored (escape sequences must
// have been removed). It returns nil when input has no printable rune.
func newEchoTracker(input string) *echoTracker {
	e := &echoTracker{lines: []int{0}}
	for _, r := range input {
		switch {
		case r == '\r' || r == '\n':
			if n := len(e.want); n > e.lines[len(e.lines)-1] {
				e.lines = append(e.lines, n)
			}
		case r >= 0x20 && r != 0x7f && (r < 0x80 || r > 0x9f):
			e.want = append(e.want, r)
			if r < 0x80 {
				e.ascii[r>>6] |= 1 << (r & 63)
			}
		}
	}
	if len(e.want) == 0 {
		return nil
	}
	if e.lines[len(e.lines)-1] == len(e.want) {
		e.lines = e.lines[:len(e.lines)-1] // a final line break starts no line
	}
	e.end = len(e.want)
	e.firsts = make(map[rune]int, len(e.lines))
	for i, start := range e.lines {
		if _, ok := e.firsts[e.want[start]]; !ok {
			e.firsts[e.want[start]] = i
		}
	}
	return e
}

// has reports whether r may be in the input (a quick test: false means
// it is not).
func (e *echoTracker) has(r rune) bool {
	return r >= 0x80 || e.ascii[r>>6]&(1<<(r&63)) != 0
}

// step reports whether printed rune r is echo. newLine says r is not on
// the row the last echoed rune was on; rowStart that r is the first rune
// printed on its row.
func (e *echoTracker) step(r rune, newLine, rowStart bool) bool {
	if e.stopped {
		return false
	}
	if e.end < len(e.want) && newLine {
		e.pos = e.end // a line drawn again ends with its row
	}
	if e.pos == e.end {
		return e.stepDrawn(r, newLine, rowStart)
	}
	if k := slices.Index(e.want[e.pos:min(e.end, e.pos+echoSkipMax)], r); k == 0 || k > 0 && r != ' ' { // programs draw blanks everywhere: one skips nothing
		e.advance(e.pos + k + 1)
		return true
	}
	if start := e.lines[e.line]; e.want[start] == r {
		e.advance(start + 1)
		return true
	}
	return false
}

// stepDrawn is step once the input (or the line drawn again) was drawn:
// an input line's first rune after other text starts a redraw of that
// line, the earliest not drawn again yet first; at the start of a row
// it is the program's answer.
func (e *echoTracker) stepDrawn(r rune, newLine, rowStart bool) bool {
	i, ok := e.firsts[r]
	if !newLine {
		i, ok = e.line, e.want[e.lines[e.line]] == r // the same row: its line again (readline after CR)
	}
	switch {
	case !ok:
		return false
	case newLine && rowStart:
		e.stopped = true // the program repeats the input: its answer
		return false
	}
	for j := e.redrawn; newLine && j < len(e.lines) && j-e.redrawn < echoSkipMax; j++ {
		if e.want[e.lines[j]] == r {
			i = j
			break
		}
	}
	e.line, e.end, e.redrawn = i, len(e.want), i+1
	if i+1 < len(e.lines) {
		e.end = e.lines[i+1]
	}
	e.advance(e.lines[i] + 1)
	return true
}

// advance moves the expected rune to pos and its line with it.
func (e *echoTracker) advance(pos int) {
	e.pos = pos
	for e.line+1 < len(e.lines) && e.lines[e.line+1] <= pos && pos < e.end {
		e.line++
	}
}

// rest is the input whose echo has not been seen yet: the lines from the
// one being echoed on, '\n' between them; "" once all was drawn or the
// tracking ended.
func (e *echoTracker) rest() string {
	if e == nil || e.stopped || e.pos == e.end || e.end < len(e.want) {
		return ""
	}
	var b strings.Builder
	from := e.line
	for from+1 < len(e.lines) && len(e.want)-e.lines[from] > echoRestMax {
		from++ // only the newest lines: input never echoed (a password) must not pile up
	}
	for i := from; i < len(e.lines); i++ {
		end := len(e.want)
		if i+1 < len(e.lines) {
			end = e.lines[i+1]
		}
		if i > from {
			b.WriteByte('\n')
		}
		b.WriteString(string(e.want[e.lines[i]:end]))
	}
	return b.String()
}

// vtMarking is a running marking: the echo tracker (nil when no input is
// tracked) and the row the last echo was drawn on.
type vtMarking struct {
	echo     *echoTracker
	lastLine *vtLine
}

// BeginMarks starts a marking: with old, every written cell of both
// screens is marked as already there; input (escape sequences removed,
// '\r' or '\n' between lines) is the text whose echo is to be marked.
// It returns false, changing nothing, when a marking is already running.
func (t *Terminal) BeginMarks(input string, old bool) bool {
	if t.marking != nil {
		return false
	}
	t.marking = &vtMarking{echo: newEchoTracker(input)}
	if old {
		for _, s := range []*vtScreen{t.main, t.alt} {
			for _, l := range s.lines {
				for c := range l.cells[:l.used] {
					if l.cells[c].Rune != 0 {
						l.cells[c].Attr |= attrOld
						l.styled = true // a cell has an attribute: the fast clear and history paths skip the row
					}
				}
			}
		}
	}
	return true
}

// EndMarks ends the marking and removes the marks from both screens
// (rows already in the scrollback keep theirs; text views ignore them).
func (t *Terminal) EndMarks() {
	if t.marking == nil {
		return
	}
	t.marking = nil
	for _, s := range []*vtScreen{t.main, t.alt} {
		for _, l := range s.lines {
			for c := range l.cells[:l.used] {
				l.cells[c].Attr &^= attrMarks
			}
		}
	}
}

// Marking reports whether a marking is running.
func (t *Terminal) Marking() bool { return t.marking != nil }

// markEcho passes the cells just printed in l.cells[from:to] to the echo
// tracker and marks the echo. It is called once per printed run, only
// while a marking runs.
func (t *Terminal) markEcho(l *vtLine, from, to int) {
	m := t.marking
	if m.echo == nil || m.echo.stopped {
		return
	}
	e := m.echo
	for c := from; c < to; c++ {
		cell := &l.cells[c]
		if cell.Width == 0 || !e.has(cell.Rune) {
			continue // not in the input: neither echo nor an answer that ends the tracking
		}
		newLine := m.lastLine != nil && l != m.lastLine
		if e.step(cell.Rune, newLine, newLine && blankBefore(l, c)) {
			cell.Attr |= attrEcho
			l.styled = true // as in BeginMarks
			m.lastLine = l
		}
	}
}

// blankBefore reports whether the cells of l before column c show nothing.
func blankBefore(l *vtLine, c int) bool {
	for _, cell := range l.cells[:c] {
		if cell.Rune != 0 && cell.Rune != ' ' {
			return false
		}
	}
	return true
}
