package main

// trace_screen.go: the screens of a full trace, each stored once, their
// rows encoded (html.go) once across the whole trace (rowKey), for the
// page trace_html.go writes.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"slices"
)

// storeScreen returns the index of snap among the screens: the last one
// when snap shows the same (rows, cursor, title), else a new one. -1
// for no snap, past maxTraceScreens, or once the screens hold
// maxTraceBytes (counted in t.cut: the page says how many). A row is
// encoded (html.go) only when no row with the same cells was seen before
// (rowKey).
func (t *sessionTrace) storeScreen(snap *Snapshot) int {
	if snap == nil || snap.Cols*snap.Rows > len(snap.Cells) {
		return -1
	}
	if t.bytes >= t.budget {
		t.cut++
		return -1
	}
	th := t.meta.Theme
	if th == nil {
		th = themeList[0]
	}
	e := newHTMLEncoder(snap, th, t.styleID)
	over := false // the budget ran out within this screen: it is not kept
	sc := htmlScreenOf(e, func(r int) int {
		if over = over || t.bytes >= t.budget; over {
			return 0
		}
		key := t.rowKey(snap, r, e.th)
		id, ok := t.rowHash[key]
		if !ok {
			id = t.rowID(e.appendRow(nil, r))
			t.rowHash[key] = id
		}
		return id
	})
	if over {
		t.cut++
		return -1
	}
	if n := len(t.screens); n > 0 && sameTraceScreen(t.screens[n-1], sc) {
		return n - 1
	}
	if len(t.screens) >= maxTraceScreens {
		return -1
	}
	t.bytes += 16 * (len(sc.Lines) + 4)
	t.screens = append(t.screens, sc)
	return len(t.screens) - 1
}

// sameTraceScreen reports whether two screens show the same.
func sameTraceScreen(a, b traceScreen) bool {
	return a.Cols == b.Cols && a.Cursor == b.Cursor && a.Blank == b.Blank && a.Title == b.Title && slices.Equal(a.Lines, b.Lines)
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
		b = binary.LittleEndian.AppendUint32(b, uint32(c.UL))
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
// The index is kept by the encoding's hash, so a row's bytes are held
// once, in the table.
func (t *sessionTrace) rowID(enc []byte) int {
	h := maphash.Bytes(t.seed, enc)
	for _, i := range t.rowIndex[h] {
		if bytes.Equal(t.rows[i], enc) {
			return i
		}
	}
	t.rows = append(t.rows, json.RawMessage(enc))
	t.rowIndex[h] = append(t.rowIndex[h], len(t.rows)-1)
	t.bytes += len(enc) + 32
	return len(t.rows) - 1
}

// styleID returns the index of st in the style table, adding it.
func (t *sessionTrace) styleID(st htmlStyle) int {
	n := len(t.styles)
	id := htmlStyleID(&t.styles, t.styleIdx, st)
	if len(t.styles) > n {
		t.bytes += 384 // about what a style takes in the table and its index (measured: BenchmarkTraceBudget)
	}
	return id
}
