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
//
// The echo stays echo. A line editor draws a pasted text highlighted and
// then draws it again in place (bash and zsh for a paste of several lines
// or one longer than the row, fish in its syntax colours), and a shell
// redraws its line later too: a rune drawn where the same rune was drawn
// as echo is echo again, whether the marking still runs or has ended
// (vtLine.echoed records the echo's runes by column until the row is
// cleared), so neither that redraw nor a later call's wait takes the
// command line for the program's output. With shell integration, the
// runes of the input the shell draws between its B mark (the command
// line starts) and its C (the command runs) are echo too, whatever the
// tracker made of them.
// attrOld ends with its marking.

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Cell marks (see the file comment).
const (
	attrOld   Attr = 1 << 13 // on the screen when the marking began
	attrEcho  Attr = 1 << 14 // drawn as the echo of the tracked input
	attrMarks      = attrOld | attrEcho
)

// echoTracker recognises the echo of typed input among printed runes.
// The rule: a printed rune equal to the next expected input rune is echo
// and advances; right after echo (or first of all), one equal to the
// rune after it is echo too (a program that does not draw one key of the
// input, as vim does not draw the "i" that starts insert mode); one equal
// to the first rune of the current input line restarts that line (a
// shell's line editor redrawing the line); anything else is the program's
// own output and leaves the tracker where it was. The skip is never taken
// inside the program's own text, where a rune of a prompt ("heredoc> ")
// would otherwise pass for the rune after the expected one and leave the
// tracker a rune ahead of the echo that follows. Once the whole input has been echoed, the first
// rune printed on another line ends the tracking: what a program prints
// after the echo of its command line is its answer, even when it repeats
// the input (cat).
type echoTracker struct {
	want    []rune    // the input's printable runes, in order
	lines   []int     // where each input line starts in want, ascending, lines[0] == 0
	pos     int       // the next expected rune: want[pos]
	line    int       // the input line pos is in: lines[line] <= pos
	stopped bool      // tracking has ended
	other   bool      // the last printed rune was not echo: no skip (step)
	ascii   [2]uint64 // the ASCII runes in want, as a bit set: others need no step
}

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
	return e
}

// step reports whether printed rune r is echo. newLine says r is not on
// the line the last echoed rune was on.
func (e *echoTracker) step(r rune, newLine bool) bool {
	if e.stopped {
		return false
	}
	if e.pos == len(e.want) && newLine {
		e.stopped = true
		return false
	}
	for k := 0; k < 2 && e.pos+k < len(e.want) && !(k == 1 && e.other); k++ {
		if e.want[e.pos+k] == r {
			e.advance(e.pos + k + 1)
			e.other = false
			return true
		}
	}
	if start := e.lines[e.line]; e.want[start] == r {
		e.advance(start + 1)
		e.other = false
		return true
	}
	e.other = true
	return false
}

// rest is the input not echoed yet, '\r' between its lines.
func (e *echoTracker) rest() string {
	var b strings.Builder
	for i := e.pos; i < len(e.want); i++ {
		if i > e.pos && slices.Contains(e.lines, i) {
			b.WriteByte('\r')
		}
		b.WriteRune(e.want[i])
	}
	return b.String()
}

// advance moves the expected rune to pos and its line with it.
func (e *echoTracker) advance(pos int) {
	e.pos = pos
	for e.line+1 < len(e.lines) && e.lines[e.line+1] <= pos && pos < len(e.want) {
		e.line++
	}
}

// vtMarking is a running marking: the echo tracker (nil when no input is
// tracked), the row the last echo was drawn on, and the text printed
// since the last TakeMarkLog with one flag per byte, true for what is
// not echo. The log is the output as the screen drew it, in order (a
// newline for each line feed), so that a wait finds text that scrolled
// away by the same echo rules the screen follows.
type vtMarking struct {
	echo      *echoTracker
	lastLine  *vtLine
	log       []byte
	fresh     []bool
	lingering bool // EndMarks came before the echo was complete: only the echo is still marked, nothing logged
}

// markLogCap bounds the log between two takes; older bytes are dropped.
const markLogCap = 64 << 10

// logCells appends the runes of cells [from, to) of l to the log.
func (m *vtMarking) logCells(l *vtLine, from, to int) {
	for c := from; c < to; c++ {
		cell := &l.cells[c]
		r, fresh := cell.Rune, cell.Attr&attrEcho == 0
		switch {
		case cell.Width == 0 || r == 0:
		case r < utf8.RuneSelf: // one byte: most output
			m.log = append(m.log, byte(r))
			m.fresh = append(m.fresh, fresh)
		default:
			n := len(m.log)
			m.log = utf8.AppendRune(m.log, r)
			for range len(m.log) - n {
				m.fresh = append(m.fresh, fresh)
			}
		}
	}
	if n := len(m.log) - markLogCap; n > 0 {
		m.log = append(m.log[:0], m.log[n:]...)
		m.fresh = append(m.fresh[:0], m.fresh[n:]...)
	}
}

// logNewline appends a line feed to the log.
func (m *vtMarking) logNewline() {
	if m.lingering {
		return
	}
	m.log = append(m.log, '\n')
	m.fresh = append(m.fresh, false)
}

// TakeMarkLog returns what the running marking logged since the last
// take (nil when none runs) and empties the log; the slices are the
// caller's.
func (t *Terminal) TakeMarkLog() (text []byte, fresh []bool) {
	m := t.marking
	if m == nil || len(m.log) == 0 {
		return nil, nil
	}
	text, fresh = m.log, m.fresh
	m.log, m.fresh = nil, nil
	return text, fresh
}

// BeginMarks starts a marking: with old, every written cell of both
// screens is marked as already there; input (escape sequences removed,
// '\r' or '\n' between lines) is the text whose echo is to be marked.
// It returns false, changing nothing, when a marking is already running.
// The echo still awaited from the marking before (lingering) comes
// first in the new one's input.
func (t *Terminal) BeginMarks(input string, old bool) bool {
	if t.Marking() {
		return false
	}
	if m := t.marking; m != nil {
		input = m.echo.rest() + "\r" + input
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

// EndMarks ends the marking and removes the attrOld marks from both
// screens; the echo marks stay (see the file comment). When the input's
// echo is not complete yet (a slow line editor draws it after the call
// that typed it returned), its tracking lingers until it is, until the
// next BeginMarks, or until StopEcho.
func (t *Terminal) EndMarks() {
	m := t.marking
	if m == nil || m.lingering {
		return
	}
	t.marking = nil
	if m.echo != nil && !m.echo.stopped {
		t.marking = &vtMarking{echo: m.echo, lastLine: m.lastLine, lingering: true}
	}
	for _, s := range []*vtScreen{t.main, t.alt} {
		for _, l := range s.lines {
			for c := range l.cells[:l.used] {
				l.cells[c].Attr &^= attrOld
			}
		}
	}
}

// Marking reports whether a marking is running (not only an echo
// lingering after one).
func (t *Terminal) Marking() bool { return t.marking != nil && !t.marking.lingering }

// Lingering reports whether the echo of a marking that ended is still
// tracked (EndMarks).
func (t *Terminal) Lingering() bool { return t.marking != nil && t.marking.lingering }

// endEchoAtMark runs at a shell's mark that says the typed line was read
// (C) or a new prompt begins (D, A): a lingering echo's tracking ends,
// and a running one's once all of its input was echoed. The prompt a
// shell then draws on the row of the echo (after clear or a cursor home)
// is not a redraw of the line, and the next call's input must not start
// with what that prompt left of the old one.
func (t *Terminal) endEchoAtMark() {
	m := t.marking
	switch {
	case m == nil || m.echo == nil:
	case m.lingering:
		t.marking = nil
	case m.echo.pos == len(m.echo.want):
		m.echo.stopped = true
	}
}

// StopEcho ends a lingering echo's tracking: what is printed from now on
// is the program's output.
func (t *Terminal) StopEcho() {
	if t.Lingering() {
		t.marking = nil
	}
}

// markEcho passes the cells just printed in l.cells[from:to] through the
// echo rules: a rune drawn where the same rune was drawn as echo stays
// echo; while a marking runs, the others go to the echo tracker, and
// what it takes for echo is marked and recorded. It is called once per
// printed run, while a marking runs or on a row that holds echo; while a
// marking runs the cells then go to its log.
func (t *Terminal) markEcho(l *vtLine, from, to int) {
	if l.echoed != nil {
		l.keepEcho(from, to)
	}
	m := t.marking
	if m == nil {
		return
	}
	if !m.lingering {
		defer m.logCells(l, from, to)
	}
	if m.echo == nil {
		return
	}
	if t.cmdLine {
		// Between the shell's B and C marks its line editor draws the
		// command line: the runes of the typed input it draws are echo,
		// however it redraws them (a line drawn again where the editor
		// lost its column, after a program left the cursor mid-row);
		// what it draws of its own (a line from history, a completion)
		// is its answer to the keys. This holds after the tracker has
		// stopped too: a line typed while a command ran, echoed by the
		// terminal then, is drawn again at the next prompt.
		for c := from; c < to; c++ {
			if cell := l.cells[c]; cell.Rune != 0 && cell.Width != 0 && cell.Attr&attrEcho == 0 && m.echo.inInput(cell.Rune) {
				l.setEcho(c)
			}
		}
	}
	if m.echo.stopped {
		return
	}
	if m.lingering {
		defer func() {
			if m.echo.stopped {
				t.marking = nil // the echo is complete
			}
		}()
	}
	for c := from; c < to; c++ {
		cell := &l.cells[c]
		if cell.Width == 0 {
			continue // a wide character's right half
		}
		if cell.Attr&attrEcho != 0 {
			// A redraw of earlier echo (keepEcho). When it is also what
			// the input expects next (a new line typed where an old one
			// was), the tracker follows it, so that where the two
			// differ the new input is still recognised.
			if e := m.echo; e.pos < len(e.want) && e.want[e.pos] == cell.Rune {
				e.advance(e.pos + 1)
				e.other = false
				m.lastLine = l
			}
			continue
		}
		if r := cell.Rune; r < 0x80 && !m.echo.inInput(r) && (m.echo.pos < len(m.echo.want) || m.lastLine == l) {
			m.echo.other = true
			continue // not in the input: no echo, and no line change that ends the tracking
		}
		if m.echo.step(cell.Rune, m.lastLine != nil && l != m.lastLine) {
			l.setEcho(c)
			m.lastLine = l
		}
	}
}

// inInput reports whether r is a rune of the tracked input.
func (e *echoTracker) inInput(r rune) bool {
	if r < 0x80 {
		return e.ascii[r>>6]&(1<<(r&63)) != 0
	}
	return slices.Contains(e.want, r)
}

// setEcho marks cell c as echo and records its rune.
func (l *vtLine) setEcho(c int) {
	if l.echoed == nil {
		l.echoed = make([]rune, len(l.cells))
	}
	l.cells[c].Attr |= attrEcho
	l.styled = true // as in BeginMarks
	l.echoed[c] = l.cells[c].Rune
}

// keepEcho marks as echo the cells of [from, to) drawn with the rune the
// echo had there, and forgets the echo of the others.
func (l *vtLine) keepEcho(from, to int) {
	for c := from; c < min(to, len(l.echoed)); c++ {
		switch r := l.echoed[c]; {
		case r == 0:
		case l.cells[c].Rune == r && l.cells[c].Width != 0:
			l.cells[c].Attr |= attrEcho
			l.styled = true
		default:
			l.echoed[c] = 0
		}
	}
}

// ScreenTextEcho is ScreenText with one flag per byte, true for the
// bytes of written cells that are not echo; fresh is nil when the screen
// holds no echo (every written cell counts).
func (t *Terminal) ScreenTextEcho() (text string, fresh []bool) {
	for _, l := range t.scr.lines {
		if l.echoed != nil {
			return t.screenView(true, true, attrEcho)
		}
	}
	return t.ScreenText(), nil
}
