package main

// trace_screen.go: the screens of a full trace, each stored once, their
// rows encoded once across the whole trace (rowKey), for the page
// trace_html.go writes.

import (
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// storeScreen returns the index of snap among the screens: the last one
// when snap shows the same (rows, cursor, title), else a new one. -1
// for no snap or past maxTraceScreens. A row is encoded only when no
// row with the same cells was seen before (rowKey).
func (t *sessionTrace) storeScreen(snap *Snapshot) int {
	if snap == nil || snap.Cols*snap.Rows > len(snap.Cells) {
		return -1
	}
	th := t.meta.Theme
	if th == nil {
		th = themeList[0]
	}
	th = th.forScreen(snap)
	sc := traceScreen{Rows: make([]int, snap.Rows), Title: snap.Title}
	for r := range snap.Rows {
		key := t.rowKey(snap, r, th)
		id, ok := t.rowHash[key]
		if !ok {
			id = t.rowID(encodeTraceRow(snap, r, th, t.styleID))
			t.rowHash[key] = id
		}
		sc.Rows[r] = id
	}
	vis := 0
	if snap.Cursor.Visible {
		vis = 1
	}
	sc.Cursor = [3]int{snap.Cursor.Row, snap.Cursor.Col, vis}
	if n := len(t.screens); n > 0 && sameTraceScreen(t.screens[n-1], sc) {
		return n - 1
	}
	if len(t.screens) >= maxTraceScreens {
		return -1
	}
	t.screens = append(t.screens, sc)
	return len(t.screens) - 1
}

// sameTraceScreen reports whether two screens show the same.
func sameTraceScreen(a, b traceScreen) bool {
	return a.Cursor == b.Cursor && a.Title == b.Title && slices.Equal(a.Rows, b.Rows)
}

// rowKey hashes what row r of snap shows (each cell's character, colours,
// attributes and width, and its marks) and the theme it is drawn in,
// encoded into one reused buffer and hashed at once.
func (t *sessionTrace) rowKey(snap *Snapshot, r int, th *Theme) uint64 {
	b := append(t.keyBuf[:0], th.Foreground.R, th.Foreground.G, th.Foreground.B, th.Background.R, th.Background.G, th.Background.B)
	for i, c := range snap.Cells[r*snap.Cols : (r+1)*snap.Cols] {
		b = binary.LittleEndian.AppendUint32(b, uint32(c.Rune))
		b = binary.LittleEndian.AppendUint32(b, uint32(c.FG))
		b = binary.LittleEndian.AppendUint32(b, uint32(c.BG))
		b = binary.LittleEndian.AppendUint16(b, uint16(c.Attr))
		b = append(b, c.Width)
		if len(snap.Marks) > 0 {
			if m := snap.Marks[r*snap.Cols+i]; m != "" {
				b = append(append(b, m...), 0)
			}
		}
	}
	t.keyBuf = b
	return maphash.Bytes(t.seed, b)
}

// rowID returns the index of the encoded row in the row table, adding it.
func (t *sessionTrace) rowID(enc []byte) int {
	if i, ok := t.rowIndex[string(enc)]; ok {
		return i
	}
	t.rows = append(t.rows, json.RawMessage(enc))
	t.rowIndex[string(enc)] = len(t.rows) - 1
	return len(t.rows) - 1
}

// styleID returns the index of the CSS declarations css in the style
// table, adding them.
func (t *sessionTrace) styleID(css string) int {
	if i, ok := t.styleIdx[css]; ok {
		return i
	}
	t.styles = append(t.styles, css)
	t.styleIdx[css] = len(t.styles) - 1
	return len(t.styles) - 1
}

// encodeTraceRow encodes row r of snap as JSON: an array of runs of
// cells of one style, each [style, text] where text is one character a
// cell, or, when a cell holds a wide character or combining marks,
// [style, [cell texts]] with "" for the right half of a wide character.
// Trailing blank cells of the default style are left out. Hidden cells
// (SGR 8) are written as blanks: what a program hides stays hidden.
func encodeTraceRow(snap *Snapshot, r int, th *Theme, style func(string) int) []byte {
	cells := snap.Cells[r*snap.Cols : (r+1)*snap.Cols]
	end := len(cells)
	for end > 0 && blankCell(cells[end-1]) && snap.Marks[r*snap.Cols+end-1] == "" {
		end--
	}
	b := []byte{'['}
	for i := 0; i < end; {
		css := cellCSS(th, cells[i])
		j, simple := i, true
		var texts []string
		for j < end && (j == i || cellCSS(th, cells[j]) == css) {
			t := traceCellText(cells[j], snap.Marks[r*snap.Cols+j])
			if cells[j].Width != 1 || utf8.RuneCountInString(t) != 1 {
				simple = false
			}
			texts = append(texts, t)
			j++
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = append(b, strconv.Itoa(style(css))...)
		b = append(b, ',')
		if simple {
			enc, _ := json.Marshal(strings.Join(texts, ""))
			b = append(b, enc...)
		} else {
			enc, _ := json.Marshal(texts)
			b = append(b, enc...)
		}
		b = append(b, ']')
		i = j
	}
	return append(b, ']')
}

// blankCell reports whether c is an empty cell of the default style.
func blankCell(c Cell) bool {
	return (c.Rune == 0 || c.Rune == ' ') && c.Width == 1 && c.FG.IsDefault() && c.BG.IsDefault() && c.Attr == 0 && c.Link == 0
}

// traceCellText is what cell c shows: its character and marks, a blank for
// an empty or hidden cell, "" for the right half of a wide character.
func traceCellText(c Cell, marks string) string {
	switch {
	case c.Width == 0:
		return ""
	case c.Attr&AttrHidden != 0 || c.Rune == 0 || c.Rune < ' ' || c.Rune == 0x7f:
		return " "
	}
	return string(c.Rune) + marks
}

// cellCSS is the CSS declarations of cell c drawn in th: colours other
// than the theme's defaults (resolved as the PNG renderer resolves them),
// weight, slant and decorations. "" is the default style.
func cellCSS(th *Theme, c Cell) string {
	if c.FG.IsDefault() && c.BG.IsDefault() && c.Attr&^AttrULMask == 0 {
		return ""
	}
	fg, bg, _ := cellColors(th, c)
	var b strings.Builder
	if fg != th.Foreground {
		b.WriteString("color:" + hexColor(fg) + ";")
	}
	if bg != th.Background {
		b.WriteString("background:" + hexColor(bg) + ";")
	}
	if c.Attr&AttrBold != 0 {
		b.WriteString("font-weight:bold;")
	}
	if c.Attr&AttrItalic != 0 {
		b.WriteString("font-style:italic;")
	}
	if deco := textDecorations(c.Attr); deco != "" {
		b.WriteString("text-decoration:" + deco + ";")
	}
	return b.String()
}
