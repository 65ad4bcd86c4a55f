package main

// vt_width_test.go: regional-indicator pairs (flags) as one cluster two
// cells wide; printText's UTF-8 decoding.

import (
	"testing"
	"unicode/utf8"
)

func TestVTRegionalIndicators(t *testing.T) {
	t.Parallel()
	const jp, j, p, us = "🇯🇵", "🇯", "🇵", "🇺🇸"
	tests := []struct {
		name, in string
		cols     int
		row      string // Row(0)
		cursor   int    // column
		wrap     bool
		widths   []uint8 // cells of row 0 from column 0
	}{
		{"pair", jp + "x", 10, jp + "x", 3, false, []uint8{2, 0, 1}},
		{"lone", j + "x", 10, j + "x", 2, false, []uint8{1, 1}},
		{"two pairs", jp + us, 10, jp + us, 4, false, []uint8{2, 0, 2, 0}},
		{"three", jp + j + "x", 10, jp + j + "x", 4, false, []uint8{2, 0, 1, 1}},
		{"split by a sequence", j + "\x1b[m" + p, 10, j + p, 2, false, []uint8{1, 1}},
		{"pair ends the row", "abcdefgh" + jp, 10, "abcdefgh" + jp, 9, true, []uint8{1, 1, 1, 1, 1, 1, 1, 1, 2, 0}},
		{"first in the last column", "abcdefghi" + jp, 10, "abcdefghi" + jp, 9, true, []uint8{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{"overwrites the next cell", "abc\r" + jp, 10, jp + "c", 2, false, []uint8{2, 0, 1}},
		{"insert mode", "abc\r\x1b[4h" + jp, 10, jp + "abc", 2, false, []uint8{2, 0, 1, 1, 1}},
		{"over a wide character", "x中\r" + jp, 10, jp, 2, false, []uint8{2, 0, 1}},
	}
	for _, tc := range tests {
		term := NewTerminal(tc.cols, 3, 0)
		term.Write([]byte(tc.in))
		if got := term.Row(0); got != tc.row {
			t.Errorf("%s: row %q, want %q", tc.name, got, tc.row)
		}
		if cur := term.Cursor(); cur.Col != tc.cursor || cur.PendingWrap != tc.wrap {
			t.Errorf("%s: cursor column %d wrap %v, want %d %v", tc.name, cur.Col, cur.PendingWrap, tc.cursor, tc.wrap)
		}
		for c, w := range tc.widths {
			if got := term.CellAt(0, c).Width; got != w {
				t.Errorf("%s: cell %d width %d, want %d", tc.name, c, got, w)
			}
		}
	}
}

// TestVTDecodeRune checks printText's decodeRune against
// utf8.DecodeRune on every lead and second byte, with third and fourth
// bytes at the edges of the continuation range, at every length from 1
// to 4 (cut-off sequences included).
func TestVTDecodeRune(t *testing.T) {
	t.Parallel()
	edges := []byte{0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF}
	var b [4]byte
	for x := 0; x < 1<<16; x++ {
		b[0], b[1] = byte(x>>8), byte(x)
		for _, b2 := range edges {
			for _, b3 := range edges[1:9] {
				b[2], b[3] = b2, b3
				for n := 1; n <= 4; n++ {
					r, k := decodeRune(b[:n])
					wr, wk := utf8.DecodeRune(b[:n])
					if r != wr || k != wk {
						t.Fatalf("decodeRune(% x) = %U, %d, want %U, %d", b[:n], r, k, wr, wk)
					}
				}
			}
		}
	}
}

// TestEchoMarksNonASCII: the echo of input with characters outside ASCII
// is marked as echo too; the fast path for such text leaves marking to
// print.
func TestEchoMarksNonASCII(t *testing.T) {
	t.Parallel()
	term := NewTerminal(40, 5, 10)
	term.BeginMarks("vim café日本.txt\r", false)
	term.Write([]byte("tw$ vim café日本.txt\r\n"))
	text, fresh := term.ScreenTextMarked()
	m, _ := parseWaitFor("café日本.txt")
	if m.matchFresh(text, fresh) {
		t.Errorf("the echo of the input satisfied the wait: screen %q fresh %v", text, fresh)
	}
	term.Write([]byte("\x1b[2J\x1b[H\"café日本.txt\" [New]"))
	if text, fresh := term.ScreenTextMarked(); !m.matchFresh(text, fresh) {
		t.Errorf("the program's own drawing of the name did not count: %q", text)
	}
}
