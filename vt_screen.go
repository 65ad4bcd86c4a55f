package main

// vt_screen.go: the screen operations the parser's actions call: drawing
// characters, C0 controls, cursor motion, erasing, scrolling, insert and
// delete. Cursor coordinates are clamped here and nowhere else.

import (
	"encoding/binary"
	"unicode/utf8"
)

// reset puts the terminal in its power-on state (RIS): both screens
// blank, main screen active, modes and pen at defaults, tab stops every 8
// columns, title cleared. The scrollback is kept, as in xterm.
func (t *Terminal) reset() {
	t.scr = t.main
	t.eraseOutputStart(2)
	for _, s := range []*vtScreen{t.main, t.alt} {
		for _, l := range s.lines {
			l.clear(t.blank)
		}
		s.saved = vtSaved{}
	}
	for c := range t.tabs {
		t.tabs[c] = c%8 == 0 && c > 0
	}
	t.cur = vtCursor{}
	t.markAt = vtMarkCursor
	t.pen = Cell{Width: 1}
	t.cs = vtCharsets{g: [4]byte{'B', 'B', 'B', 'B'}}
	t.top, t.bot = 0, t.rows-1
	t.autowrap = true
	t.origin = false
	t.insert = false
	t.reverseWrap = false
	t.visible = true
	t.shape = CursorBlock
	t.blink = false
	t.modes = Modes{}
	t.mouseEnc = 0
	t.focus = false
	t.ident.c1 = false // S7C1T
	t.title = ""
	t.last = 0
	// The link table stays: history rows may still point into it.
	t.p.utf8n = 0
	t.dirty = true
}

// softReset is DECSTR: modes and pen to defaults, screen untouched.
func (t *Terminal) softReset() {
	t.visible = true
	t.insert = false
	t.origin = false
	t.autowrap = true
	t.modes.AppCursor = false
	t.modes.AppKeypad = false
	t.top, t.bot = 0, t.rows-1
	t.pen = Cell{Width: 1}
	t.cs = vtCharsets{g: [4]byte{'B', 'B', 'B', 'B'}}
	t.scr.saved = vtSaved{}
	t.cur.wrap = false
}

// eraseCell is the blank an erase leaves: the current background colour
// (BCE, as xterm), nothing else.
func (t *Terminal) eraseCell() Cell { return Cell{BG: t.pen.BG, Width: 1} }

// clear blanks the whole row with the default blank cells.
func (l *vtLine) clear(blank []Cell) {
	copy(l.cells[:l.used], blank)
	l.used = 0
	l.marks = nil
	l.wrapped = false
	l.styled = false
	l.unicode = false
	l.echoed = nil
}

// noteStyle records that cell c, about to be written to l, may carry a
// colour or attribute: rows without any are pushed to the history
// without scanning for style runs.
func (l *vtLine) noteStyle(c *Cell) {
	if c.FG|c.BG|c.UL != 0 || c.Attr != 0 || c.Link != 0 {
		l.styled = true
	}
}

// fill sets cells [from, to) to c (a blank) and removes their marks.
func (l *vtLine) fill(from, to int, c Cell) {
	if from >= to {
		return
	}
	if c == (Cell{Width: 1}) {
		if from >= l.used {
			return
		}
		if to >= l.used {
			to, l.used = l.used, from
		}
	} else if to > l.used {
		l.used = to
	}
	l.noteStyle(&c)
	cells := l.cells[from:to]
	for i := range cells {
		cells[i] = c
	}
	l.dropMarks(from, to)
}

// dropMarks removes the combining marks of columns [from, to).
func (l *vtLine) dropMarks(from, to int) {
	if l.marks == nil {
		return
	}
	k := l.marks[:0]
	for _, m := range l.marks {
		if m.col < from || m.col >= to {
			k = append(k, m)
		}
	}
	if len(k) == 0 {
		k = nil
	}
	l.marks = k
}

// breakWide blanks the other half of a wide character that a write or
// erase at column c is about to split.
func (l *vtLine) breakWide(c int, blank Cell) {
	l.noteStyle(&blank)
	cells := l.cells
	switch cells[c].Width {
	case 0:
		if c > 0 && cells[c-1].Width == 2 {
			cells[c-1] = blank
		}
	case 2:
		if c+1 < len(cells) {
			cells[c+1] = blank
		}
	}
}

// line returns the row under the cursor.
func (t *Terminal) line() *vtLine { return t.scr.lines[t.cur.row] }

// printASCII draws run, printable ASCII bytes only (0x20-0x7E, at least
// one), at the cursor: the fast path of the byte loop, with no decoding,
// no width lookup and no per-byte dispatch. Each row's share is one
// putASCII.
func (t *Terminal) printASCII(run []byte) {
	if t.insert || t.cs.g[t.cs.gl] != 'B' {
		for _, b := range run {
			t.print(rune(b))
		}
		return
	}
	t.dirty = true
	t.last = rune(run[len(run)-1])
	for len(run) > 0 {
		if t.cur.wrap {
			if !t.autowrap {
				t.cur.wrap = false
			} else {
				t.wrapLine()
			}
		}
		l := t.scr.lines[t.cur.row]
		col := t.cur.col
		n := min(len(run), len(l.cells)-col)
		if !t.autowrap && n < len(run) {
			// Without autowrap the rest of the run overwrites the last
			// column in turn: only its final byte stays there.
			l.putASCII(col, run[:n], &t.pen, t.eraseCell())
			run = run[len(run)-1:]
			col, n = len(l.cells)-1, 1
		}
		l.putASCII(col, run[:n], &t.pen, t.eraseCell())
		if t.marking != nil || l.echoed != nil {
			t.markEcho(l, col, col+n)
		}
		run = run[n:]
		t.advance(col + n)
	}
}

// printFresh is printASCII's commonest case in one pass over p: text in
// the default style on the fresh part of a row, from vtLine.used on,
// where every cell is a default blank already, so only the runes change.
// It tests and stores eight bytes at a time and returns the bytes drawn,
// up to the first byte that is not printable ASCII or the end of the
// row; 0 when the case does not apply.
func (t *Terminal) printFresh(p []byte) int {
	if t.insert || t.pen != (Cell{Width: 1}) || t.cs.g[t.cs.gl] != 'B' {
		return 0
	}
	if t.cur.wrap { // p[0] is printable: the wrap is due either way
		if !t.autowrap {
			return 0
		}
		t.wrapLine()
	}
	l := t.scr.lines[t.cur.row]
	col := t.cur.col
	if col < l.used {
		return 0
	}
	cells := l.cells[col:]
	n := 0
	for n+8 <= len(p) && n+8 <= len(cells) {
		x := binary.LittleEndian.Uint64(p[n:])
		if nonPrintable(x) != 0 {
			break
		}
		c := cells[n : n+8 : n+8]
		c[0].Rune, c[1].Rune, c[2].Rune, c[3].Rune = rune(x&0xFF), rune(x>>8&0xFF), rune(x>>16&0xFF), rune(x>>24&0xFF)
		c[4].Rune, c[5].Rune, c[6].Rune, c[7].Rune = rune(x>>32&0xFF), rune(x>>40&0xFF), rune(x>>48&0xFF), rune(x>>56)
		n += 8
	}
	for n < len(p) && n < len(cells) && p[n] >= 0x20 && p[n] < 0x7F {
		cells[n].Rune = rune(p[n])
		n++
	}
	if n == 0 {
		return 0
	}
	t.dirty = true
	t.last = rune(p[n-1])
	l.used = col + n
	if t.marking != nil || l.echoed != nil {
		t.markEcho(l, col, col+n)
	}
	t.advance(col + n)
	return n
}

// putASCII writes the printable bytes s into the cells from col on (all
// inside the row) in the style of pen. Only the cells at the ends can
// split a wide character: every cell between them is overwritten.
func (l *vtLine) putASCII(col int, s []byte, pen *Cell, blank Cell) {
	end := col + len(s)
	cells := l.cells[col:end]
	if cells[0].Width != 1 {
		l.breakWide(col, blank)
	}
	if cells[len(cells)-1].Width != 1 {
		l.breakWide(end-1, blank)
	}
	if col >= l.used && *pen == (Cell{Width: 1}) {
		// The commonest case, text in the default style on a fresh row:
		// the cells are default blanks already (cells[used:] always
		// are), so only the runes change.
		for i, b := range s {
			cells[i].Rune = rune(b)
		}
	} else {
		l.noteStyle(pen)
		// Straight from the pen, then the rune: a local copy of the pen
		// (two overlapping 16-byte stores) stalls store forwarding on
		// the first cell's load, and so does setting the rune in a copy
		// first.
		for i, b := range s {
			c := &cells[i]
			*c = *pen
			c.Rune = rune(b)
		}
	}
	if l.marks != nil {
		l.dropMarks(col, end)
	}
	if end > l.used {
		l.used = end
	}
}

// printText draws the text at the start of p, which starts with a
// non-ASCII byte, as far as it goes on the cursor's row: printable ASCII
// and complete UTF-8 characters of width 1 or 2. It returns the bytes
// consumed, 0 when the first character needs print's general path: it
// stops at a control, a zero-width character (a mark for the previous
// cell), a regional indicator (flags pair up), a wide character that
// does not fit, invalid or cut-off UTF-8, and the end of the row. Most
// of the run goes through drawUTF8; textTail draws what it leaves. As
// in putASCII, only the ends of the cells written can split a wide
// character.
func (t *Terminal) printText(p []byte) int {
	// Nothing changes before the first character is known to be one
	// these loops draw (a wrap pending is print's first step too). While
	// a wait marks echoed cells (vt_echo.go), print draws each character.
	r, n := utf8.DecodeRune(p)
	if t.insert || t.marking != nil || n == 1 || r <= 0x9F || isRegionalIndicator(r) {
		return 0
	}
	w := runeWidth(r) // and the width table is built
	if w == 0 {
		return 0
	}
	if t.cur.wrap {
		if !t.autowrap {
			return 0
		}
		t.wrapLine()
	}
	l := t.scr.lines[t.cur.row]
	start := t.cur.col
	if w == 2 && start+1 == len(l.cells) || l.echoed != nil {
		return 0 // a wide character in the last column: print wraps it early; echo: print keeps it (vt_echo.go)
	}
	blank := t.eraseCell()
	l.breakWide(start, blank)
	ascii := t.cs.g[t.cs.gl] == 'B'
	i, col, last := 0, start, rune(0)
	if ascii {
		i, col, last = drawUTF8(l.cells, p, start, &t.pen)
	}
	if di, dcol, dlast := t.textTail(l.cells, p[i:], col, ascii); dcol > col {
		i, col, last = i+di, dcol, dlast
	}
	if col == start {
		return 0 // not reached: the first character is one these loops draw
	}
	t.endText(l, start, col, last, blank)
	return i
}

// utf8Form is what a lead byte tells drawUTF8 of the UTF-8 form it
// starts, so that one formula decodes every form: the 32-bit load of the
// form's bytes (lead in the low byte) gives the value bits as
// (lead&lead)<<18 | c1<<12 | c2<<6 | c3, shifted right by shift to drop
// the bytes past the form.
type utf8Form struct {
	n     int    // bytes in the form
	shift uint8  // 6 * (4 - n)
	lead  uint32 // the lead byte's value bits
	cmask uint32 // the continuation bytes' top two bits in the load ...
	cval  uint32 // ... must be 10
	min   rune   // the smallest value of the form (smaller ones are overlong); for a byte that starts nothing drawUTF8 draws (a C0 control, DEL, a continuation or an invalid lead byte), above every rune
}

// utf8Forms is the utf8Form of each lead byte (Unicode Table 3-7: the
// ranges of the second byte come to the same as the value bounds).
var utf8Forms = func() (f [256]utf8Form) {
	stop := utf8Form{n: 1, shift: 18, lead: 0x7F, min: 1 << 30}
	for b := range f {
		switch {
		case b >= 0x20 && b < 0x7F:
			f[b] = utf8Form{n: 1, shift: 18, lead: 0x7F, min: 0}
		case b >= 0xC0 && b < 0xE0:
			// The smallest value is U+00A0: U+0080-U+009F are C1
			// controls, which print drops.
			f[b] = utf8Form{n: 2, shift: 12, lead: 0x1F, cmask: 0xC000, cval: 0x8000, min: 0xA0}
		case b >= 0xE0 && b < 0xF0:
			f[b] = utf8Form{n: 3, shift: 6, lead: 0x0F, cmask: 0xC0C000, cval: 0x808000, min: 0x800}
		case b >= 0xF0 && b < 0xF5:
			f[b] = utf8Form{n: 4, shift: 0, lead: 0x07, cmask: 0xC0C0C000, cval: 0x80808000, min: 0x10000}
		default:
			f[b] = stop
		}
	}
	return f
}()

// drawUTF8 draws the characters at the start of p into cells from col
// on in the style of pen, and returns the bytes consumed, the column
// after the last character drawn and that character. It is printText's
// hot loop, written to run without a branch that depends on the text
// (which mixes ASCII, three- and four-byte forms with no pattern a
// branch predictor could learn) and without a call (around which the
// loop's registers would be spilled on every character). Each character
// is one 32-bit load decoded by the formula of its lead byte's
// utf8Form, then validated, measured and stored into two cells, the
// second as a wide character's right half whatever the width: after a
// narrow character the next one overwrites it, and after the last the
// cell is put back. It stops, leaving the rest to textTail, at a byte
// that starts no drawable form, at invalid UTF-8, at a character of
// width 0, a regional indicator or one past the width table, and short
// of four bytes of p or two cells. The width table must be built
// (runeWidth has run).
func drawUTF8(cells []Cell, p []byte, col int, pen *Cell) (i, end int, last rune) {
	left, right := *pen, *pen
	right.Rune, right.Width = 0, 0
	var saved Cell // what the last right half overwrote
	drawn := 0     // the last character's width
	// q and k advance rather than being indexed (no bounds checks).
	q, k := p, cells[col:]
	for len(q) >= 4 && len(k) >= 2 {
		x := binary.LittleEndian.Uint32(q)
		f := &utf8Forms[byte(x)]
		r := rune(x&f.lead<<18|x>>8&0x3F<<12|x>>16&0x3F<<6|x>>24&0x3F) >> (f.shift & 31)
		if x&f.cmask != f.cval || r < f.min || uint32(r-0xD800) < 0x800 || r >= vtWidthsEnd {
			break
		}
		w := int(vtWidths[uint32(r)>>2&(vtWidthsEnd/4-1)]>>(uint32(r)&3*2)) & 3
		if w == 0 || isRegionalIndicator(r) {
			break
		}
		saved = k[1]
		k[0] = left
		k[0].Rune, k[0].Width = r, uint8(w)
		k[1] = right
		k, q = k[w:], q[f.n:]
		last, drawn = r, w
	}
	if drawn == 1 {
		k[0] = saved
	}
	return len(p) - len(q), len(cells) - len(k), last
}

// textTail is printText's loop for what drawUTF8 leaves: the last bytes
// of p, the last column, and text in a charset other than ASCII (where
// ASCII bytes stop it). It draws from col on and returns the bytes
// consumed, the column after the last character drawn and that
// character (col itself and 0 when it draws nothing).
func (t *Terminal) textTail(cells []Cell, p []byte, col int, ascii bool) (i, end int, last rune) {
	pen := &t.pen
	left, right := *pen, *pen
	left.Width, right.Rune, right.Width = 2, 0, 0
text:
	for i < len(p) && col < len(cells) {
		r, n, w := rune(p[i]), 1, 1
		switch {
		case r >= 0x20 && r < 0x7F && ascii:
		case r >= 0x80:
			if r, n = decodeRune(p[i:]); n == 1 {
				break text
			}
			if r <= 0x9F { // a C1 control: dropped, as print does
				i += n
				continue
			}
			if r < vtWidthsEnd {
				w = tableWidth(r)
			} else {
				w = rangeWidth(r)
			}
			if w == 0 || isRegionalIndicator(r) || w == 2 && col+1 == len(cells) {
				break text
			}
		default:
			break text
		}
		if w == 2 {
			cells[col] = left
			cells[col].Rune = r
			cells[col+1] = right
		} else {
			c := &cells[col]
			*c = *pen
			c.Rune = r
		}
		col += w
		i += n
		last = r
	}
	return i, col, last
}

// endText finishes a run printText drew in l's cells [start, col): a
// wide character's right half left behind is blanked, the row's flags
// and marks updated, and the cursor placed after the run (a wrap pending
// at the last column).
func (t *Terminal) endText(l *vtLine, start, col int, last rune, blank Cell) {
	cells := l.cells
	if col < len(cells) && cells[col].Width == 0 {
		cells[col] = blank // the right half of a wide character overwritten
		l.noteStyle(&blank)
	}
	l.noteStyle(&t.pen)
	l.unicode = true
	if l.marks != nil {
		l.dropMarks(start, col)
	}
	l.used = max(l.used, col)
	t.last = last
	t.dirty = true
	t.advance(col)
}

// wrapLine performs the deferred wrap: mark the row soft-wrapped, go to
// column 0 of the next row, scrolling at the bottom margin.
func (t *Terminal) wrapLine() {
	t.line().wrapped = true
	t.cur.col = 0
	t.cur.wrap = false
	t.index()
}

// print draws one character at the cursor after charset translation:
// width 2 takes two cells, width 0 attaches to the previous character.
func (t *Terminal) print(r rune) {
	if r >= 0x80 && r <= 0x9F {
		// C1 controls that arrived UTF-8 encoded are no graphics: kept in
		// a cell they would reach the .ansi and .txt captures, where a
		// terminal showing the file may run U+009D (OSC) 52 as a clipboard
		// write. Dropped, like every other unsupported control.
		return
	}
	if r < 0x80 && t.cs.g[t.cs.gl] != 'B' {
		r = translateCharset(t.cs.g[t.cs.gl], r)
	}
	w := runeWidth(r)
	if w == 0 {
		t.addMark(r)
		return
	}
	if isRegionalIndicator(r) && t.pairRegional(r) {
		return
	}
	t.dirty = true
	if t.cur.wrap {
		if t.autowrap {
			t.wrapLine()
		} else {
			t.cur.wrap = false
		}
	}
	if w == 2 && t.cur.col == t.cols-1 {
		if !t.autowrap || t.cols < 2 {
			return // cannot fit, cannot wrap: dropped, as xterm does
		}
		// A wide character does not fit in the last column: it wraps
		// early, leaving the last cell as it was.
		t.wrapLine()
	}
	if t.insert {
		t.insertBlanks(w)
	}
	l := t.line()
	col := t.cur.col
	blank := t.eraseCell()
	l.breakWide(col, blank)
	l.noteStyle(&t.pen)
	if r >= 0x80 {
		l.unicode = true
	}
	// Straight from the pen, then the fields: a copy of the pen changed
	// on the stack and stored whole stalls on store forwarding.
	c := &l.cells[col]
	*c = t.pen
	c.Rune, c.Width = r, uint8(w)
	if w == 2 {
		l.breakWide(col+1, blank)
		c = &l.cells[col+1]
		*c = t.pen
		c.Rune, c.Width = 0, 0
	}
	if l.marks != nil {
		l.dropMarks(col, col+w)
	}
	if t.marking != nil || l.echoed != nil {
		t.markEcho(l, col, col+w)
	}
	if col+w > l.used {
		l.used = col + w
	}
	t.last = r
	t.advance(col + w)
}

// Where a combining mark goes (Terminal.markAt), as in xterm: onto the
// character written last, as long as nothing has reset the pending wrap
// since (xterm's ResetWrap: cursor motion other than HT and CBT, CR, LF,
// the erases, ICH, DCH, IL, DL); after that onto the character under the
// cursor. With no character in that cell the mark is dropped.
const (
	vtMarkPrinted = 0 // just printed: the cell before the cursor, or under it with a wrap pending
	vtMarkCursor  = 1 // the cell under the cursor
	vtMarkCol     = 2 // vtMarkCol+c: column c of the cursor's row (printed, then HT or CBT)
)

// advance places the cursor after what was just printed, which ends
// before column end: on the last column when the row is full, with a wrap
// pending under DECAWM. A combining mark that follows goes onto the
// printed character, the one in the last column when the row is full.
func (t *Terminal) advance(end int) {
	if end >= t.cols {
		t.cur.col = t.cols - 1
		t.cur.wrap = t.autowrap
		t.markAt = vtMarkCol + t.cols - 1
		return
	}
	t.cur.col = end
	t.markAt = vtMarkPrinted
}

// resetWrap is xterm's ResetWrap: no wrap pending, and a combining mark
// now goes to the cell under the cursor.
func (t *Terminal) resetWrap() {
	t.cur.wrap = false
	t.markAt = vtMarkCursor
}

// markCol is the column a combining mark would attach to now, or -1.
func (t *Terminal) markCol() int {
	switch {
	case t.markAt == vtMarkPrinted:
		if t.cur.wrap {
			return t.cur.col
		}
		return t.cur.col - 1
	case t.markAt == vtMarkCursor:
		return t.cur.col
	}
	return t.markAt - vtMarkCol
}

// addMark attaches a zero-width character to the cell markCol names (the
// left half, for a wide character).
func (t *Terminal) addMark(r rune) {
	col := t.markCol()
	if col < 0 {
		return
	}
	l := t.line()
	if l.cells[col].Width == 0 && col > 0 {
		col--
	}
	if l.cells[col].Rune == 0 {
		return // no character there to carry it
	}
	t.dirty = true
	for i := range l.marks {
		if l.marks[i].col == col {
			if len(l.marks[i].s)+4 <= vtMaxMark {
				l.marks[i].s += string(r)
			}
			return
		}
	}
	// Keep marks sorted by column for text().
	m := vtMark{col: col, s: string(r)}
	i := len(l.marks)
	l.marks = append(l.marks, m)
	for i > 0 && l.marks[i-1].col > col {
		l.marks[i] = l.marks[i-1]
		i--
	}
	l.marks[i] = m
	if col+1 > l.used {
		l.used = col + 1
	}
}

// decSpecial maps 0x5F-0x7E to the DEC Special Graphics characters (VT100
// line drawing); 0x5F is a blank as in xterm.
var decSpecial = [32]rune{
	' ', '◆', '▒', '␉', '␌', '␍', '␊', '°', '±', '␤', '␋', '┘', '┐', '┌', '└', '┼',
	'⎺', '⎻', '─', '⎼', '⎽', '├', '┤', '┴', '┬', '│', '≤', '≥', 'π', '≠', '£', '·',
}

// translateCharset maps an ASCII character through charset cs.
func translateCharset(cs byte, r rune) rune {
	switch cs {
	case '0':
		if r >= 0x5F && r <= 0x7E {
			return decSpecial[r-0x5F]
		}
	case 'A':
		if r == '#' {
			return '£'
		}
	}
	return r
}

// execute runs a C0 control.
func (t *Terminal) execute(b byte) {
	t.last = 0
	switch b {
	case 0x07: // BEL
		t.bells++
	case 0x08: // BS
		t.backspace()
	case 0x09: // HT
		t.tab(1)
	case 0x0A: // LF
		t.lineFeed()
	case 0x0B, 0x0C: // VT, FF: like LF, but xterm drops a pending wrap
		t.index()
		if t.modes.LineFeedNL {
			t.cur.col = 0
		}
	case 0x0D: // CR
		t.cur.col = 0
		t.resetWrap()
	case 0x0E: // SO: G1 into GL
		t.cs.gl = 1
	case 0x0F: // SI: G0 into GL
		t.cs.gl = 0
	default:
		return
	}
	t.dirty = true
}

// lineFeed is LF: down one row, scrolling at the bottom margin; a
// pending wrap stays pending (vt100-rust, tmux). With LNM it is CR LF.
func (t *Terminal) lineFeed() {
	if t.marking != nil {
		t.marking.logNewline()
	}
	wrap := t.cur.wrap
	if t.cur.row == t.rows-1 && t.top == 0 && t.bot == t.rows-1 && t.pen.BG == 0 {
		// The common case of scrolling output, without scrollUp's
		// generality: the whole screen moves up one row.
		s := t.scr
		l := s.lines[0]
		if s == t.main {
			t.hist.pushClear(l, t.blank)
		} else {
			l.clear(t.blank)
		}
		s.rotateUp()
	} else {
		t.index()
	}
	t.markAt = vtMarkCursor // xterm's LF is a ResetWrap for marks, though the wrap stays here
	t.cur.wrap = wrap
	if t.modes.LineFeedNL {
		t.cur.col = 0
		t.cur.wrap = false
	}
	t.last = 0
	t.dirty = true
}

// backspace moves left one column; at column 0 with reverse wrap on
// (?45 with ?7), it goes to the end of the previous row.
func (t *Terminal) backspace() {
	t.resetWrap()
	if t.cur.col > 0 {
		t.cur.col--
		return
	}
	if t.reverseWrap && t.autowrap {
		if t.cur.row == t.top {
			t.cur.row = t.bot
		} else if t.cur.row > 0 {
			t.cur.row--
		} else {
			t.cur.row = t.rows - 1
		}
		t.cur.col = t.cols - 1
	}
}

// tab moves to the n-th next tab stop (CHT, HT), or the last column.
func (t *Terminal) tab(n int) {
	t.keepMark()
	c := t.cur.col
	for ; n > 0 && c < t.cols-1; n-- {
		c++
		for c < t.cols-1 && !t.tabs[c] {
			c++
		}
	}
	t.cur.col = c
}

// backTab moves to the n-th previous tab stop (CBT), or column 0.
func (t *Terminal) backTab(n int) {
	t.keepMark()
	c := t.cur.col
	for ; n > 0 && c > 0; n-- {
		c--
		for c > 0 && !t.tabs[c] {
			c--
		}
	}
	// xterm keeps a pending wrap here: the next character still goes
	// to the start of the next row.
	t.cur.col = c
}

// keepMark pins a combining mark to the character printed last before
// the cursor moves without resetting the wrap (HT, CHT, CBT in xterm).
func (t *Terminal) keepMark() {
	if t.markAt == vtMarkPrinted {
		if c := t.markCol(); c >= 0 {
			t.markAt = vtMarkCol + c
		} else {
			t.markAt = vtMarkCursor
		}
	}
}

// index moves down one row, scrolling the region up at its bottom margin
// (IND, LF). Below the region it stops at the last row.
func (t *Terminal) index() {
	t.resetWrap()
	switch {
	case t.cur.row == t.bot:
		t.scrollUp(t.top, t.bot, 1, true)
	case t.cur.row < t.rows-1:
		t.cur.row++
	}
}

// reverseIndex moves up one row, scrolling the region down at its top
// margin (RI).
func (t *Terminal) reverseIndex() {
	t.resetWrap()
	switch {
	case t.cur.row == t.top:
		t.scrollDown(t.top, t.bot, 1)
	case t.cur.row > 0:
		t.cur.row--
	}
}

// rotate moves lines[n:] to the front of lines and lines[:n] to its end,
// without allocating.
func rotate(lines []*vtLine, n int) {
	reverse := func(a []*vtLine) {
		for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
			a[i], a[j] = a[j], a[i]
		}
	}
	reverse(lines[:n])
	reverse(lines[n:])
	reverse(lines)
}

// scrollUp moves rows top..bot (inclusive) up by n, blanking n rows at
// the bottom. With toHistory set, on the main screen and a region that
// starts at the top row, the rows leaving the screen go to the scrollback.
func (t *Terminal) scrollUp(top, bot, n int, toHistory bool) {
	h := bot - top + 1
	if n <= 0 || h <= 0 {
		return
	}
	n = min(n, h)
	lines := t.scr.lines[top : bot+1]
	if toHistory && top == 0 && t.scr == t.main && t.hist.max > 0 {
		for _, l := range lines[:n] {
			t.hist.pushClear(l, t.blank) // cleared below anyway
		}
	}
	switch {
	case n == 1 && h == t.rows:
		t.scr.rotateUp()
		lines = t.scr.lines
	case n == 1:
		first := lines[0]
		copy(lines, lines[1:])
		lines[h-1] = first
	default:
		rotate(lines, n)
	}
	blank := t.eraseCell()
	for _, l := range lines[h-n:] {
		l.clear(t.blank)
		if blank.BG != 0 {
			l.fill(0, t.cols, blank)
		}
	}
	t.dirty = true
}

// scrollDown moves rows top..bot down by n, blanking n rows at the top.
func (t *Terminal) scrollDown(top, bot, n int) {
	h := bot - top + 1
	if n <= 0 || h <= 0 {
		return
	}
	n = min(n, h)
	lines := t.scr.lines[top : bot+1]
	rotate(lines, h-n)
	blank := t.eraseCell()
	for _, l := range lines[:n] {
		l.clear(t.blank)
		if blank.BG != 0 {
			l.fill(0, t.cols, blank)
		}
	}
	t.dirty = true
}

// setCursor moves the cursor to an absolute screen position, clamped to
// the screen; it clears the pending wrap.
func (t *Terminal) setCursor(row, col int) {
	t.cur.row = min(max(row, 0), t.rows-1)
	t.cur.col = min(max(col, 0), t.cols-1)
	t.resetWrap()
}

// moveTo is CUP: 0-based row and col, relative to the scroll region and
// kept inside it in origin mode (DECOM).
func (t *Terminal) moveTo(row, col int) {
	if t.origin {
		row = min(max(row+t.top, t.top), t.bot)
	}
	t.setCursor(row, col)
}

// moveRow is VPA: like moveTo for the row only.
func (t *Terminal) moveRow(row int) { t.moveTo(row, t.cur.col) }

// cursorUp is CUU: up n rows, stopping at the top margin when the cursor
// starts inside the region.
func (t *Terminal) cursorUp(n int) {
	lim := 0
	if t.cur.row >= t.top {
		lim = t.top
	}
	t.setCursor(max(t.cur.row-n, lim), t.cur.col)
}

// cursorDown is CUD: down n rows, stopping at the bottom margin when the
// cursor starts inside the region.
func (t *Terminal) cursorDown(n int) {
	lim := t.rows - 1
	if t.cur.row <= t.bot {
		lim = t.bot
	}
	t.setCursor(min(t.cur.row+n, lim), t.cur.col)
}

// eraseDisplay is ED (and DECSED when selective): 0 below, 1 above,
// 2 all, 3 the scrollback. ED 0, 1 and 2 drop a pending wrap, as EL does
// (xterm); ED 3 leaves the screen and the cursor alone.
func (t *Terminal) eraseDisplay(mode int, selective bool) {
	t.eraseOutputStart(mode)
	switch mode {
	case 0:
		t.eraseLine(0, selective)
		for r := t.cur.row + 1; r < t.rows; r++ {
			t.eraseWholeRow(t.scr.lines[r], selective)
		}
	case 1:
		for r := 0; r < t.cur.row; r++ {
			t.eraseWholeRow(t.scr.lines[r], selective)
		}
		t.eraseLine(1, selective)
	case 2:
		for _, l := range t.scr.lines {
			t.eraseWholeRow(l, selective)
		}
		t.resetWrap()
	case 3:
		t.hist.clear()
	default:
		return
	}
	t.dirty = true
}

// eraseLine is EL (and DECSEL): 0 to the right, 1 to the left, 2 all,
// the cursor's cell included. With a wrap pending the cursor is on the
// last column: EL 0 erases that cell, and every EL drops the wrap, so the
// next character overwrites the last column rather than wrapping (xterm;
// alacritty, tmux and xterm.js keep the wrap and the cell).
func (t *Terminal) eraseLine(mode int, selective bool) {
	l := t.line()
	switch mode {
	case 0:
		t.eraseRow(l, t.cur.col, t.cols, selective)
	case 1:
		t.eraseRow(l, 0, t.cur.col+1, selective)
	case 2:
		t.eraseRow(l, 0, t.cols, selective)
	default:
		return
	}
	t.resetWrap()
	t.dirty = true
}

// eraseWholeRow is ED's erase of a row it blanks whole. The row's echo
// record goes with it (vt_echo.go): what was typed there is gone, and a
// later line typed at the same columns must not pass for it. EL keeps
// the record, since line editors redraw a line with it.
func (t *Terminal) eraseWholeRow(l *vtLine, selective bool) {
	t.eraseRow(l, 0, t.cols, selective)
	if !selective {
		l.echoed = nil
	}
}

// eraseRow blanks columns [from, to) of l; selective erases skip cells
// protected by DECSCA.
func (t *Terminal) eraseRow(l *vtLine, from, to int, selective bool) {
	from, to = max(from, 0), min(to, t.cols)
	if from >= to {
		return
	}
	blank := t.eraseCell()
	if selective {
		for c := from; c < to; c++ {
			if l.cells[c].Attr&attrProtected == 0 {
				l.breakWide(c, blank)
				l.fill(c, c+1, blank)
			}
		}
		return
	}
	l.breakWide(from, blank)
	if to < t.cols {
		l.breakWide(to-1, blank)
	}
	l.fill(from, to, blank)
	if from == 0 && to == t.cols {
		l.wrapped = false
	}
}

// insertBlanks is ICH: shift the cells from the cursor right by n,
// dropping those pushed past the edge, and blank the gap.
func (t *Terminal) insertBlanks(n int) {
	t.insertCells(t.line(), t.cur.col, n)
	t.resetWrap()
	t.dirty = true
}

// insertCells shifts the cells of l from col right by n and blanks the
// gap (ICH, DECIC, SR).
func (t *Terminal) insertCells(l *vtLine, col, n int) {
	n = min(n, t.cols-col)
	if n <= 0 {
		return
	}
	blank := t.eraseCell()
	l.noteStyle(&blank)
	if l.cells[col].Width == 0 {
		// Inserting inside a wide character splits it.
		l.cells[col-1] = blank
		l.cells[col] = blank
	}
	// The cell that becomes the last one must not be a left half.
	if last := t.cols - n - 1; last >= col && l.cells[last].Width == 2 {
		l.cells[last] = blank
	}
	copy(l.cells[col+n:], l.cells[col:t.cols-n])
	l.shiftMarks(col, n)
	for c := col; c < col+n; c++ {
		l.cells[c] = blank
	}
	l.used = t.cols
}

// deleteChars is DCH: remove n cells at the cursor, shifting the rest of
// the row left and blanking the end.
func (t *Terminal) deleteChars(n int) {
	t.deleteCells(t.line(), t.cur.col, n)
	t.resetWrap()
	t.dirty = true
}

// deleteCells removes n cells of l at col, shifting the rest left and
// blanking the end (DCH, DECDC, SL).
func (t *Terminal) deleteCells(l *vtLine, col, n int) {
	n = min(n, t.cols-col)
	if n <= 0 {
		return
	}
	blank := t.eraseCell()
	l.noteStyle(&blank)
	l.breakWide(col, blank)
	if col+n < t.cols && l.cells[col+n].Width == 0 {
		l.cells[col+n] = blank // its left half is deleted
	}
	l.dropMarks(col, col+n)
	copy(l.cells[col:], l.cells[col+n:])
	l.shiftMarks(col+n, -n)
	for c := t.cols - n; c < t.cols; c++ {
		l.cells[c] = blank
	}
	l.used = t.cols
}

// shiftColumns inserts (n > 0) or deletes (n < 0) columns at col in every
// row of the scroll region: DECIC, DECDC, SR and SL. Like xterm, they do
// nothing while the cursor is outside the region.
func (t *Terminal) shiftColumns(col, n int) {
	if t.cur.row < t.top || t.cur.row > t.bot {
		return
	}
	for r := t.top; r <= t.bot; r++ {
		if n > 0 {
			t.insertCells(t.scr.lines[r], col, n)
		} else {
			t.deleteCells(t.scr.lines[r], col, -n)
		}
	}
	t.dirty = true
}

// shiftMarks moves the marks at columns >= from by d, dropping those
// that leave the row.
func (l *vtLine) shiftMarks(from, d int) {
	if l.marks == nil {
		return
	}
	k := l.marks[:0]
	for _, m := range l.marks {
		if m.col >= from {
			m.col += d
		}
		if m.col >= 0 && m.col < len(l.cells) {
			k = append(k, m)
		}
	}
	if len(k) == 0 {
		k = nil
	}
	l.marks = k
}

// eraseChars is ECH: blank n cells from the cursor without shifting.
func (t *Terminal) eraseChars(n int) {
	l := t.line()
	to := min(t.cur.col+n, t.cols)
	t.eraseRow(l, t.cur.col, to, false)
	t.resetWrap()
	t.dirty = true
}

// insertLines is IL: inside the scroll region, push the rows from the
// cursor down by n; the cursor goes to column 0 (xterm).
func (t *Terminal) insertLines(n int) {
	if t.cur.row < t.top || t.cur.row > t.bot {
		return
	}
	t.scrollDown(t.cur.row, t.bot, n)
	t.cur.col = 0
	t.resetWrap()
}

// deleteLines is DL: inside the scroll region, remove n rows at the
// cursor, pulling the rest up; the cursor goes to column 0 (xterm).
func (t *Terminal) deleteLines(n int) {
	if t.cur.row < t.top || t.cur.row > t.bot {
		return
	}
	t.scrollUp(t.cur.row, t.bot, n, false)
	t.cur.col = 0
	t.resetWrap()
}

// repeat is REP: print the last graphic character n more times.
func (t *Terminal) repeat(n int) {
	if t.last == 0 {
		return
	}
	n = min(n, t.cols*t.rows) // more cannot change the screen further
	r := t.last
	for ; n > 0; n-- {
		if r < 0x80 {
			// Already translated: print without charset mapping.
			t.printTranslated(r)
		} else {
			t.print(r)
		}
	}
}

// printTranslated prints an ASCII rune bypassing charset translation.
func (t *Terminal) printTranslated(r rune) {
	g := t.cs.g[t.cs.gl]
	t.cs.g[t.cs.gl] = 'B'
	t.print(r)
	t.cs.g[t.cs.gl] = g
}

// decaln is DECALN (ESC # 8): fill the screen with E in the default
// rendition, reset the margins and origin mode (DECOM) and home the
// cursor. As in xterm, the pen loses its SGR attributes (bold to
// strike-through) but keeps its colours and DECSCA protection.
func (t *Terminal) decaln() {
	t.top, t.bot = 0, t.rows-1
	t.origin = false
	t.pen.Attr &= attrProtected
	for _, l := range t.scr.lines {
		l.marks = nil
		l.wrapped = false
		for c := range l.cells {
			l.cells[c] = Cell{Rune: 'E', Width: 1}
		}
		l.used = t.cols
	}
	t.setCursor(0, 0)
	t.dirty = true
}

// saveCursor is DECSC: position, pen, charsets, origin and wrap modes.
func (t *Terminal) saveCursor() {
	t.scr.saved = vtSaved{
		cur: t.cur, pen: t.pen, cs: t.cs, origin: t.origin,
		autowrap: t.autowrap, valid: true,
	}
}

// restoreCursor is DECRC; without a saved state it homes the cursor and
// resets the pen, as xterm does.
func (t *Terminal) restoreCursor() {
	s := t.scr.saved
	if !s.valid {
		s = vtSaved{pen: Cell{Width: 1}, cs: vtCharsets{g: [4]byte{'B', 'B', 'B', 'B'}}, autowrap: t.autowrap}
	}
	t.pen, t.cs, t.origin, t.autowrap = s.pen, s.cs, s.origin, s.autowrap
	// xterm does not restore a pending wrap: the next character
	// overwrites the last column.
	t.setCursor(s.cur.row, s.cur.col)
	t.dirty = true
}

// switchScreen activates the alternate (alt) or main screen.
func (t *Terminal) switchScreen(alt bool) {
	s := t.main
	if alt {
		s = t.alt
	}
	if t.scr == s {
		return
	}
	// The cursor stays where it is (xterm); ?1049 saves and restores it.
	t.scr = s
	t.dirty = true
}

// clearScreen blanks every row of s with default blanks.
func (t *Terminal) clearScreen(s *vtScreen) {
	for _, l := range s.lines {
		l.clear(t.blank)
	}
	t.dirty = true
}

// decodeRune is utf8.DecodeRune with the multi-byte forms inline, for
// printText: a lead byte of a two-, three- or four-byte form and the
// continuation bytes it needs (top bits 10) give a value, which is valid
// when it is not overlong, not a surrogate and not above U+10FFFF: one
// test of the value instead of the per-lead-byte ranges of the second
// byte (Unicode Table 3-7 amounts to the same). Anything else, invalid
// or cut off, goes to utf8.DecodeRune, which tells the two apart.
func decodeRune(p []byte) (rune, int) {
	switch {
	case len(p) >= 3 && p[0]&0xF0 == 0xE0:
		b1, b2 := p[1], p[2]
		r := rune(p[0]&0x0F)<<12 | rune(b1&0x3F)<<6 | rune(b2&0x3F)
		if b1&0xC0 == 0x80 && b2&0xC0 == 0x80 && r >= 0x800 && (r < 0xD800 || r > 0xDFFF) {
			return r, 3
		}
	case len(p) >= 4 && p[0]&0xF8 == 0xF0:
		b1, b2, b3 := p[1], p[2], p[3]
		r := rune(p[0]&0x07)<<18 | rune(b1&0x3F)<<12 | rune(b2&0x3F)<<6 | rune(b3&0x3F)
		if b1&0xC0 == 0x80 && b2&0xC0 == 0x80 && b3&0xC0 == 0x80 && r >= 0x10000 && r <= utf8.MaxRune {
			return r, 4
		}
	case len(p) >= 2 && p[0]&0xE0 == 0xC0:
		if r := rune(p[0]&0x1F)<<6 | rune(p[1]&0x3F); p[1]&0xC0 == 0x80 && r >= 0x80 {
			return r, 2
		}
	}
	return utf8.DecodeRune(p)
}

// pairRegional joins regional indicator r to the one printed just before
// it, making the pair one cluster two cells wide (a flag such as 🇯🇵), as
// current terminals (kitty, WezTerm, foot, VTE, iTerm2) draw it: the
// first indicator's cell widens, the second becomes its mark. It reports
// false, leaving r to print on its own, when the previous character is
// not an unpaired indicator printed right before. A first indicator in
// the last column with a wrap pending keeps one cell: the pair stays one
// cluster there.
func (t *Terminal) pairRegional(r rune) bool {
	col := t.cur.col - 1
	if t.cur.wrap {
		col = t.cur.col
	}
	if col < 0 || !isRegionalIndicator(t.last) {
		return false
	}
	l := t.line()
	first := l.cells[col]
	if first.Rune != t.last || first.Width != 1 {
		return false
	}
	for _, m := range l.marks {
		if m.col == col {
			return false // already a pair
		}
	}
	t.last = 0 // a third indicator starts a new pair
	t.markAt = vtMarkPrinted
	if t.cur.wrap {
		t.addMark(r)
		return true
	}
	if t.insert {
		t.insertCells(l, t.cur.col, 1)
	}
	blank := t.eraseCell()
	l.breakWide(col+1, blank)
	l.dropMarks(col+1, col+2)
	first.Width = 2
	l.cells[col] = first
	first.Rune, first.Width = 0, 0
	l.cells[col+1] = first
	l.used = max(l.used, col+2)
	t.addMark(r)
	t.advance(col + 2)
	t.dirty = true
	return true
}
