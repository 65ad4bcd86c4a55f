package main

// vt_history.go: the scrollback, a ring of rows stored compactly: one
// rune per cell up to the row's last non-blank cell, and the styles as
// runs (none at all for a row in the default style). A 120-column row of
// plain text costs about 500 bytes instead of 120 Cells (2,880 bytes).

import "strings"

// vtSpacer stands for the right half of a wide character in a histLine.
const vtSpacer rune = -1

// vtHistory is a bounded ring of rows that scrolled off the main screen.
// Its zero value keeps nothing (max 0).
type vtHistory struct {
	lines []histLine // ring storage, grows up to max entries
	start int        // index of the oldest row in lines
	n     int        // rows held
	max   int        // capacity in rows
}

// histLine is one history row.
type histLine struct {
	runes   []rune    // per cell, trailing blanks trimmed; 0 = blank, vtSpacer = wide right half
	runs    []histRun // style runs in column order; nil = all default
	marks   []vtMark  // combining marks, usually nil
	wrapped bool
}

// histRun is the style of the cells from col up to the next run.
type histRun struct {
	fg, bg, ul Color
	attr       Attr
	link       uint16
	col        uint16
}

// push appends a copy of screen row l, evicting the oldest row when full
// (and reusing its memory).
func (h *vtHistory) push(l *vtLine) {
	if h.max <= 0 {
		return
	}
	var d *histLine
	if len(h.lines) < h.max {
		h.lines = append(h.lines, histLine{})
		d = &h.lines[len(h.lines)-1]
		h.n++
	} else {
		d = &h.lines[h.start]
		h.start++
		if h.start == h.max {
			h.start = 0
		}
		if h.n < h.max {
			h.n++
		}
	}
	n := l.used
	for n > 0 && l.cells[n-1] == (Cell{Width: 1}) {
		n--
	}
	runes := d.runes[:0]
	runs := d.runs[:0]
	var cur histRun
	for c, cell := range l.cells[:n] {
		r := cell.Rune
		if cell.Width == 0 {
			r = vtSpacer
		}
		runes = append(runes, r)
		if cell.FG != cur.fg || cell.BG != cur.bg || cell.UL != cur.ul || cell.Attr != cur.attr || cell.Link != cur.link {
			cur = histRun{fg: cell.FG, bg: cell.BG, ul: cell.UL, attr: cell.Attr, link: cell.Link, col: uint16(c)}
			runs = append(runs, cur)
		}
	}
	d.runes = runes
	d.runs = runs
	d.marks = nil
	if l.marks != nil {
		d.marks = append([]vtMark(nil), l.marks...)
	}
	d.wrapped = l.wrapped
}

// at returns history row i, 0 being the oldest.
func (h *vtHistory) at(i int) *histLine {
	j := h.start + i
	if j >= len(h.lines) {
		j -= len(h.lines)
	}
	return &h.lines[j]
}

// clear drops every row (ED 3) and releases the memory.
func (h *vtHistory) clear() {
	h.lines, h.start, h.n = nil, 0, 0
}

// text renders the row like vtLine.text.
func (l *histLine) text(b *strings.Builder) string {
	b.Reset()
	m := 0
	for c, r := range l.runes {
		switch {
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
	return strings.TrimRight(b.String(), " ")
}

// cells expands the row back into cols cells.
func (l *histLine) cells(cols int) []Cell {
	out := make([]Cell, cols)
	run := 0
	var st histRun
	for c := range out {
		if run < len(l.runs) && int(l.runs[run].col) == c {
			st = l.runs[run]
			run++
		}
		if c >= len(l.runes) {
			out[c] = Cell{Width: 1}
			continue
		}
		cell := Cell{FG: st.fg, BG: st.bg, UL: st.ul, Attr: st.attr, Link: st.link, Width: 1, Rune: l.runes[c]}
		if cell.Rune == vtSpacer {
			cell.Rune, cell.Width = 0, 0
		} else if c+1 < len(l.runes) && l.runes[c+1] == vtSpacer {
			cell.Width = 2
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
