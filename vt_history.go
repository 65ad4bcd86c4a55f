package main

// vt_history.go: the scrollback, rows stored compactly: one rune per cell
// up to the row's last non-blank cell, and the styles as runs (none at all
// for a row in the default style). A 120-column row of plain text costs
// about 500 bytes instead of 120 Cells (2,880 bytes).

import (
	"encoding/binary"
	"slices"
	"strings"
)

// vtSpacer stands for the right half of a wide character in a histLine.
const vtSpacer rune = -1

// vtHistory is a bounded list of rows that scrolled off the main screen,
// stored in blocks of histBlockRows rows whose runes and style runs are
// packed back to back: pushing a row appends to a buffer sequentially
// (cheap even when the memory is cold), and dropping the oldest rows drops
// a whole block, which the next block then reuses. Its zero value keeps
// nothing (max 0).
type vtHistory struct {
	blocks []*histBlock // oldest first; all full but the last
	skip   int          // rows at the start of blocks[0] already dropped
	n      int          // rows held
	max    int          // capacity in rows
	spare  *histBlock   // a dropped block, kept for reuse
	pushed int64        // rows ever pushed minus rows popped: the absolute number of screen row 0 (ShellMark.Line)
}

// histBlockRows is the number of rows per block.
const histBlockRows = 256

// histBlock holds up to histBlockRows consecutive history rows.
type histBlock struct {
	rows  []histRow
	text  []byte    // cells of rows holding only ASCII (and blanks, as 0), a byte each
	runes []rune    // cells of the other rows; 0 = blank, vtSpacer = wide right half
	runs  []histRun // style runs in column order; a row in the default style has none
	marks map[int][]vtMark
}

// histRow locates one row in its block.
type histRow struct {
	off, runOff uint32 // start in text (ascii) or runes, and in runs
	n, nruns    uint16 // cells (trailing blanks trimmed) and runs
	ascii       bool   // cells are in text
	wrapped     bool
}

// histLine is a view of one history row (slices into its block): its
// cells are in ascii (one byte each) or in runes.
type histLine struct {
	ascii   []byte
	runes   []rune
	runs    []histRun
	marks   []vtMark
	wrapped bool
}

// len returns the number of cells stored (trailing blanks trimmed).
func (l histLine) len() int { return len(l.ascii) + len(l.runes) }

// at returns the rune of cell c (c < l.len()).
func (l histLine) at(c int) rune {
	if l.ascii != nil {
		return rune(l.ascii[c])
	}
	return l.runes[c]
}

// histRun is the style of the cells from col up to the next run.
type histRun struct {
	fg, bg, ul Color
	attr       Attr
	link       uint16
	col        uint16
}

// defaultCell has the default style: a row's first run starts at the
// first cell whose style differs from it.
var defaultCell Cell

// sameStyle reports whether a and b have the same colours, attributes
// and link.
func sameStyle(a, b *Cell) bool {
	return a.FG == b.FG && a.BG == b.BG && a.Attr == b.Attr && a.UL == b.UL && a.Link == b.Link
}

// appendRun appends the run of cell's style that starts at column col,
// filling it in place: a run built on the stack and then copied in would
// make the copy's wide loads wait on the narrow stores (store forwarding).
func appendRun(runs []histRun, cell *Cell, col int) []histRun {
	runs = append(runs, histRun{})
	r := &runs[len(runs)-1]
	r.fg, r.bg, r.ul, r.attr, r.link, r.col = cell.FG, cell.BG, cell.UL, cell.Attr, cell.Link, uint16(col)
	return runs
}

// reserve makes room in the empty block b for as much as the full block
// prev has room for: the largest room a block needed passes from block
// to block (growFor bounds it by about two blocks of the widest rows
// seen). Output goes on much as it was, so in the steady state a reused
// block has the room it needs and pushes allocate nothing.
func (b *histBlock) reserve(prev *histBlock) {
	b.text = room(b.text, cap(prev.text))
	b.runes = room(b.runes, cap(prev.runes))
	b.runs = room(b.runs, cap(prev.runs))
}

// room returns the empty slice s, or a new one when its capacity is
// below n, with exactly n (slices.Grow would round up, and passed from
// block to block the rounding would compound).
func room[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s
	}
	return make([]T, 0, n)
}

// growFor makes room in s for the n cells of row number rows of its
// block; when it has to grow s, it makes room for the rest of the block
// too, as if every row to come were as long as this one.
func growFor[T any](s []T, n, rows int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	return slices.Grow(s, n*(histBlockRows-rows+1))
}

// copyASCII stores the runes of cells, all ASCII or 0, into text (as
// long as cells) a byte each, eight cells to one 8-byte store; with
// blank set it also blanks each rune it read (so cells that differ from
// a default blank only in the rune become default blanks). The loops
// advance both slices rather than index them, and load the runes' low
// bytes only, so they keep everything in registers with no bounds
// checks: this copy is most of a plain row's trip into the history.
func copyASCII(text []byte, cells []Cell, blank bool) {
	if blank {
		for len(cells) >= 8 && len(text) >= 8 {
			k := cells[:8:8]
			binary.LittleEndian.PutUint64(text, ascii8(k))
			k[0].Rune, k[1].Rune, k[2].Rune, k[3].Rune, k[4].Rune, k[5].Rune, k[6].Rune, k[7].Rune = 0, 0, 0, 0, 0, 0, 0, 0
			cells, text = cells[8:], text[8:]
		}
	} else {
		for len(cells) >= 8 && len(text) >= 8 {
			binary.LittleEndian.PutUint64(text, ascii8(cells[:8:8]))
			cells, text = cells[8:], text[8:]
		}
	}
	for c := range min(len(cells), len(text)) {
		text[c] = byte(cells[c].Rune)
		if blank {
			cells[c].Rune = 0
		}
	}
}

// ascii8 packs the low bytes of eight cells' runes, the first in the
// low byte.
func ascii8(k []Cell) uint64 {
	k = k[:8]
	return uint64(uint8(k[0].Rune)) | uint64(uint8(k[1].Rune))<<8 | uint64(uint8(k[2].Rune))<<16 | uint64(uint8(k[3].Rune))<<24 |
		uint64(uint8(k[4].Rune))<<32 | uint64(uint8(k[5].Rune))<<40 | uint64(uint8(k[6].Rune))<<48 | uint64(uint8(k[7].Rune))<<56
}

// pushClear is push, then l.clear(blank) (the row scrolled off the top
// is reused as a blank one); a plain row is blanked in the same pass
// that copies it.
func (h *vtHistory) pushClear(l *vtLine, blank []Cell) {
	h.pushed++
	if h.max > 0 {
		h.pushRow(l, true)
	}
	l.clear(blank)
}

// push appends a copy of screen row l, dropping the oldest row when full.
func (h *vtHistory) push(l *vtLine) {
	h.pushed++
	if h.max > 0 {
		h.pushRow(l, false)
	}
}

// pushRow is push; with clear set, a plain row comes out blank (for
// pushClear).
func (h *vtHistory) pushRow(l *vtLine, clear bool) {
	b := h.tailBlock()
	n := l.used
	cells := l.cells
	for n > 0 && cells[n-1] == (Cell{Width: 1}) {
		n--
	}
	// Filled in place: a row built on the stack and then copied in makes
	// the copy's wide loads wait on the narrow stores (store forwarding).
	b.rows = append(b.rows, histRow{})
	row := &b.rows[len(b.rows)-1]
	row.runOff, row.n, row.wrapped = uint32(len(b.runs)), uint16(n), l.wrapped
	// Most history is ASCII: a byte per cell quarters the memory. Copy
	// optimistically as bytes; on the first other cell, start over as
	// runes.
	row.off = uint32(len(b.text))
	b.text = growFor(b.text, n, len(b.rows))
	text := b.text[len(b.text) : len(b.text)+n]
	// One pass copies the text and, for a styled row, notes the runs:
	// each cell is read once while it is in cache.
	cells = cells[:n]
	switch {
	case !l.unicode && !l.styled:
		// Plain text, the commonest row: nothing to check per cell.
		row.ascii = true
		copyASCII(text, cells, clear && l.marks == nil)
		if clear && l.marks == nil {
			l.used = 0 // cells[n:used] were default blanks already
		}
	default:
		row.ascii = true
		prev := &defaultCell
		for c := range text {
			cell := &cells[c]
			if cell.Rune >= 0x80 || cell.Width != 1 {
				row.ascii = false
				break
			}
			text[c] = byte(cell.Rune)
			if l.styled && !sameStyle(cell, prev) {
				b.runs = appendRun(b.runs, cell, c)
			}
			prev = cell
		}
	}
	if row.ascii {
		b.text = b.text[:len(b.text)+n]
	} else {
		b.pushRunes(row, cells, l.styled)
	}
	row.nruns = uint16(len(b.runs) - int(row.runOff))
	if l.marks != nil {
		if b.marks == nil {
			b.marks = make(map[int][]vtMark)
		}
		b.marks[len(b.rows)-1] = append([]vtMark(nil), l.marks...)
	}
	h.n++
	if h.n > h.max {
		h.dropOldest()
	}
}

// tailBlock is the block the next row goes in: the newest while it has
// room, else a new one (the spare block when there is one).
func (h *vtHistory) tailBlock() *histBlock {
	k := len(h.blocks)
	if k > 0 && len(h.blocks[k-1].rows) < histBlockRows {
		return h.blocks[k-1]
	}
	b := h.spare
	h.spare = nil
	if b == nil {
		b = &histBlock{rows: make([]histRow, 0, histBlockRows)}
	}
	if k > 0 {
		b.reserve(h.blocks[k-1])
	}
	h.blocks = append(h.blocks, b)
	return b
}

// pushRunes stores row's cells as runes (a row that is not all ASCII),
// wide characters' right halves as vtSpacer, and for a styled row its
// runs again, over the whole row.
func (b *histBlock) pushRunes(row *histRow, cells []Cell, styled bool) {
	n := len(cells)
	row.off = uint32(len(b.runes))
	b.runes = growFor(b.runes, n, len(b.rows))
	runes := b.runes[len(b.runes) : len(b.runes)+n]
	for c := range runes {
		r := cells[c].Rune
		if cells[c].Width == 0 {
			r = vtSpacer
		}
		runes[c] = r
	}
	b.runes = b.runes[:len(b.runes)+n]
	if styled {
		b.runs = b.runs[:row.runOff]
		prev := &defaultCell
		for c := range cells {
			if !sameStyle(&cells[c], prev) {
				b.runs = appendRun(b.runs, &cells[c], c)
			}
			prev = &cells[c]
		}
	}
}

// dropOldest forgets the oldest row once the history is over its limit;
// a block whose rows are all forgotten becomes the spare.
func (h *vtHistory) dropOldest() {
	h.n--
	h.skip++
	if h.skip < histBlockRows {
		return
	}
	old := h.blocks[0]
	copy(h.blocks, h.blocks[1:])
	h.blocks[len(h.blocks)-1] = nil
	h.blocks = h.blocks[:len(h.blocks)-1]
	h.skip = 0
	old.rows, old.text, old.runes, old.runs, old.marks = old.rows[:0], old.text[:0], old.runes[:0], old.runs[:0], nil
	h.spare = old
}

// at returns history row i, 0 being the oldest.
func (h *vtHistory) at(i int) histLine {
	i += h.skip
	b := h.blocks[i/histBlockRows]
	r := b.rows[i%histBlockRows]
	l := histLine{
		runs:    b.runs[r.runOff : r.runOff+uint32(r.nruns)],
		marks:   b.marks[i%histBlockRows],
		wrapped: r.wrapped,
	}
	if r.ascii {
		l.ascii = b.text[r.off : r.off+uint32(r.n) : r.off+uint32(r.n)]
	} else {
		l.runes = b.runes[r.off : r.off+uint32(r.n) : r.off+uint32(r.n)]
	}
	return l
}

// pop removes the newest row and returns it as a screen row of cols
// cells (a taller screen takes rows back).
func (h *vtHistory) pop(cols int) *vtLine {
	h.pushed--
	v := h.at(h.n - 1)
	l := &vtLine{cells: v.cells(cols), wrapped: v.wrapped, used: cols, styled: len(v.runs) > 0, unicode: v.ascii == nil}
	for _, m := range v.marks {
		if m.col < cols {
			l.marks = append(l.marks, m)
		}
	}
	b := h.blocks[len(h.blocks)-1]
	last := len(b.rows) - 1
	r := b.rows[last]
	b.rows = b.rows[:last]
	if r.ascii {
		b.text = b.text[:r.off]
	} else {
		b.runes = b.runes[:r.off]
	}
	b.runs = b.runs[:r.runOff]
	delete(b.marks, last)
	h.n--
	if h.n == 0 {
		h.blocks, h.skip = h.blocks[:0], 0
	} else if len(b.rows) == 0 {
		h.blocks = h.blocks[:len(h.blocks)-1]
	}
	return l
}

// clear drops every row (ED 3) and releases the memory.
func (h *vtHistory) clear() {
	h.blocks, h.skip, h.n, h.spare = nil, 0, 0, nil
}

// text renders the row like vtLine.text.
func (l histLine) text(b *strings.Builder) string {
	return strings.TrimRight(l.render(b, l.len()), " ")
}

// joinText renders a row that soft-wrapped, to be joined to the next
// one: like text, but only the cells never written (or erased) at its
// end are dropped, so the blanks the program wrote there stay, as the
// screen's text keeps them (textBuilder.row), and the cell left empty by
// a wide character that wrapped early adds nothing.
func (l histLine) joinText(b *strings.Builder) string {
	n := l.len()
	for n > 0 && l.at(n-1) == 0 {
		n--
	}
	return l.render(b, n)
}

// render writes the row's first n cells as text: blanks (0) as spaces,
// wide characters' right halves skipped, marks after their base.
func (l histLine) render(b *strings.Builder, n int) string {
	b.Reset()
	if l.ascii != nil && l.marks == nil {
		// ASCII: the bytes are the text, blanks (0) aside.
		for _, c := range l.ascii[:n] {
			if c == 0 {
				c = ' '
			}
			b.WriteByte(c)
		}
		return b.String()
	}
	m := 0
	for c := range n {
		switch r := l.at(c); {
		case r == vtSpacer:
			continue
		case r == 0:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
		for m < len(l.marks) && l.marks[m].col <= c {
			if l.marks[m].col == c {
				b.WriteString(l.marks[m].s)
			}
			m++
		}
	}
	return b.String()
}

// cells expands the row back into cols cells; a wide character cut by a
// narrower screen becomes a blank.
func (l histLine) cells(cols int) []Cell {
	out := make([]Cell, cols)
	n := l.len()
	run := 0
	var st histRun
	for c := range out {
		if run < len(l.runs) && int(l.runs[run].col) == c {
			st = l.runs[run]
			run++
		}
		cell := Cell{FG: st.fg, BG: st.bg, UL: st.ul, Attr: st.attr, Link: st.link, Width: 1}
		if c < n {
			cell.Rune = l.at(c)
		}
		switch {
		case cell.Rune == vtSpacer:
			cell.Rune, cell.Width = 0, 0
		case c+1 < n && l.at(c+1) == vtSpacer:
			cell.Width = 2
			if c+1 >= cols {
				cell.Rune, cell.Width = 0, 1
			}
		}
		out[c] = cell
	}
	return out
}

// ScrollbackCells returns history row i (0 = oldest) as cols cells at the
// current width, or nil when i is out of range.
func (t *Terminal) ScrollbackCells(i int) []Cell {
	if i < 0 || i >= t.hist.n {
		return nil
	}
	return t.hist.at(i).cells(t.cols)
}
