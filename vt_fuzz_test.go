package main

// vt_fuzz_test.go: FuzzVT and the replay of its seed corpus. The fuzz body
// does only what is cheap per input (one whole write, the screen
// invariants, one split feed compared without building keys), so the
// fuzzer spends its time on new inputs; TestVTFuzzSeedsSplit replays every
// seed byte by byte, in random chunks and cut in two at many points.

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// The terminal FuzzVT and its seed replay use: 80x24 (the size the seeds
// were found at) with a short history, so scrolling is exercised cheaply.
const (
	vtFuzzCols, vtFuzzRows, vtFuzzHistory = 80, 24, 100
	// vtFuzzByteMax is the longest input FuzzVT also feeds byte by byte;
	// a longer one is fed in two writes cut at one point.
	vtFuzzByteMax = 256
)

// vtFuzzSeeds are FuzzVT's inline seeds (testdata/fuzz/FuzzVT holds the
// rest: Ghostty's fuzz corpus and the crashers found here).
var vtFuzzSeeds = []string{
	"\x1b[2J\x1b[1;1Hhello\x1b[31mworld\x1b[m",
	"\x1b]8;;http://x\x1b\\a\x1b]8;;\x1b\\日本\u0301\x1b(0lqk",
	// Wide text over wide text, a wide character at the last column, an
	// emoji, a flag, a stray continuation byte and a surrogate's bytes.
	"\x1b[31m终端 模拟器 测试 日本語 のテキスト\r\x1b[1Cab表示 🚀✨ 🇯🇵 x\x80y\xed\xa0\x80z\x1b[1;79H한국어\x1b[3;2H漢字 かな",
}

// FuzzVT feeds arbitrary bytes to an 80x24 terminal: no panic, the
// invariants of checkScreenInvariants hold, Snapshot and Lines have the
// screen's size, and the same bytes split across writes (byte by byte up
// to vtFuzzByteMax bytes, else cut in two at a point chosen by the input's
// checksum) give the same screen as one write.
func FuzzVT(f *testing.F) {
	for _, s := range vtFuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		a := NewTerminal(vtFuzzCols, vtFuzzRows, vtFuzzHistory)
		a.Write(in)
		checkScreenInvariants(t, a, vtFuzzCols, vtFuzzRows)
		checkViews(t, a)
		b := NewTerminal(vtFuzzCols, vtFuzzRows, vtFuzzHistory)
		how := "byte by byte"
		if len(in) <= vtFuzzByteMax {
			for i := range in {
				b.Write(in[i : i+1])
			}
		} else {
			cut := 1 + int(crc32.ChecksumIEEE(in)%uint32(len(in)-1))
			b.Write(in[:cut])
			b.Write(in[cut:])
			how = fmt.Sprintf("cut at %d", cut)
		}
		checkScreenInvariants(t, b, vtFuzzCols, vtFuzzRows)
		if d := screenDiff(a, b); d != "" {
			t.Fatalf("one write and the feed %s differ: %s\n%q\n%q", how, d, a.Lines(), b.Lines())
		}
	})
}

// TestVTFuzzSeedsSplit replays FuzzVT's seeds (inline and
// testdata/fuzz/FuzzVT) whole, byte by byte, in random chunks of 1-64
// bytes and cut in two at up to 4 points, checking the invariants after
// each feed and that every feed gives the screen of the whole write. The
// fuzz body itself splits only short inputs, at one point when long.
func TestVTFuzzSeedsSplit(t *testing.T) {
	t.Parallel()
	seeds := corpusBytes(t, "FuzzVT")
	for _, s := range vtFuzzSeeds {
		seeds = append(seeds, []byte(s))
	}
	rng := rand.New(rand.NewSource(1))
	for i, in := range seeds {
		whole := NewTerminal(vtFuzzCols, vtFuzzRows, vtFuzzHistory)
		whole.Write(in)
		checkScreenInvariants(t, whole, vtFuzzCols, vtFuzzRows)
		checkViews(t, whole)
		type feed struct {
			how  string
			feed func(*Terminal)
		}
		feeds := []feed{
			{"byte by byte", func(term *Terminal) { feedChunks(term, in, 1, rng) }},
			{"in random chunks", func(term *Terminal) { feedChunks(term, in, 0, rng) }},
		}
		cuts := rng.Perm(max(len(in)-1, 0))
		for _, c := range cuts[:min(len(cuts), 4)] {
			feeds = append(feeds, feed{fmt.Sprintf("cut at %d", c+1), func(term *Terminal) {
				term.Write(in[:c+1])
				term.Write(in[c+1:])
			}})
		}
		for _, f := range feeds {
			term := NewTerminal(vtFuzzCols, vtFuzzRows, vtFuzzHistory)
			f.feed(term)
			checkScreenInvariants(t, term, vtFuzzCols, vtFuzzRows)
			if d := screenDiff(whole, term); d != "" {
				t.Errorf("seed %d (%q...): one write and the feed %s differ: %s", i, in[:min(len(in), 40)], f.how, d)
			}
		}
	}
}

// checkScreenInvariants checks what holds after any input at a fixed size:
// the size, the cursor on the screen, both screens holding rows rows of
// cols cells, every wide character a left half (Width 2) directly followed
// by its right half (Width 0), and each row's bookkeeping: cells past used
// are default blanks, a row not marked styled has no colour, attribute or
// link, marks are sorted and inside the row. The blank tail is compared as
// a whole and only the used cells one by one: the fuzzer's instrumentation
// makes every comparison in a per-cell loop a call.
func checkScreenInvariants(t *testing.T, term *Terminal, cols, rows int) {
	t.Helper()
	if c, r := term.Size(); c != cols || r != rows {
		t.Fatalf("size changed to %dx%d", c, r)
	}
	if c := term.Cursor(); c.Row < 0 || c.Row >= rows || c.Col < 0 || c.Col >= cols {
		t.Fatalf("cursor off the screen: %+v", c)
	}
	blank := newLine(cols).cells
	for _, s := range []*vtScreen{term.main, term.alt} {
		if len(s.lines) != rows {
			t.Fatalf("screen has %d rows, want %d", len(s.lines), rows)
		}
		for r, l := range s.lines {
			if len(l.cells) != cols || l.used < 0 || l.used > cols {
				t.Fatalf("row %d has %d cells (%d used), want %d", r, len(l.cells), l.used, cols)
			}
			if !sameCells(l.cells[l.used:], blank[l.used:]) {
				t.Fatalf("row %d: a cell past used %d is not a default blank: %+v", r, l.used, l.cells[l.used:])
			}
			for c, cell := range l.cells[:l.used] {
				switch {
				case cell.Width > 2:
					t.Fatalf("row %d col %d: width %d", r, c, cell.Width)
				case cell.Width == 2 && (c+1 == cols || l.cells[c+1].Width != 0):
					t.Fatalf("row %d col %d: wide character without its right half", r, c)
				case cell.Width == 0 && (c == 0 || l.cells[c-1].Width != 2):
					t.Fatalf("row %d col %d: right half without its wide character", r, c)
				case !l.styled && (cell.FG|cell.BG|cell.UL != 0 || cell.Attr != 0 || cell.Link != 0):
					t.Fatalf("row %d col %d styled in an unstyled row: %+v", r, c, cell)
				}
			}
			for i, m := range l.marks {
				if m.col < 0 || m.col >= cols || (i > 0 && l.marks[i-1].col >= m.col) {
					t.Fatalf("row %d: marks out of order or range: %+v", r, l.marks)
				}
			}
		}
	}
}

// checkViews checks that Snapshot and Lines, which sessions call after
// each output, have the screen's size (and do not panic).
func checkViews(t *testing.T, term *Terminal) {
	t.Helper()
	cols, rows := term.Size()
	if s, lines := term.Snapshot(), term.Lines(); len(s.Cells) != cols*rows || len(lines) != rows {
		t.Fatalf("snapshot has %d cells, %d lines", len(s.Cells), len(lines))
	}
}

// screenDiff names the first difference between two terminals of the
// same size in what screenKey covers (cursor, modes, title, the visible
// cells with their marks and link URIs, the history text), and also in
// the inactive screen and the rows' wrap flags; "" when there is none. It
// compares in place, without building keys, for the fuzz loop.
func screenDiff(a, b *Terminal) string {
	switch {
	case a.Cursor() != b.Cursor():
		return fmt.Sprintf("cursor %+v vs %+v", a.Cursor(), b.Cursor())
	case a.Modes() != b.Modes():
		return fmt.Sprintf("modes %+v vs %+v", a.Modes(), b.Modes())
	case a.title != b.title:
		return fmt.Sprintf("title %q vs %q", a.title, b.title)
	case a.hist.n != b.hist.n:
		return fmt.Sprintf("%d vs %d history rows", a.hist.n, b.hist.n)
	}
	for _, s := range []struct {
		name string
		a, b *vtScreen
	}{{"main", a.main, b.main}, {"alt", a.alt, b.alt}} {
		for r := range s.a.lines {
			la, lb := s.a.lines[r], s.b.lines[r]
			// Cells past used are blank (checkScreenInvariants).
			if n := max(la.used, lb.used); !sameCells(la.cells[:n], lb.cells[:n]) {
				c := 0
				for la.cells[c] == lb.cells[c] {
					c++
				}
				return fmt.Sprintf("%s row %d col %d: %+v vs %+v", s.name, r, c, la.cells[c], lb.cells[c])
			}
			for c, cell := range la.cells[:la.used] {
				if cell.Link != 0 && linkURI(a, cell.Link) != linkURI(b, cell.Link) {
					return fmt.Sprintf("%s row %d col %d: link %q vs %q", s.name, r, c, linkURI(a, cell.Link), linkURI(b, cell.Link))
				}
			}
			if !slices.Equal(la.marks, lb.marks) {
				return fmt.Sprintf("%s row %d: marks %+v vs %+v", s.name, r, la.marks, lb.marks)
			}
			if la.wrapped != lb.wrapped {
				return fmt.Sprintf("%s row %d: wrapped %v vs %v", s.name, r, la.wrapped, lb.wrapped)
			}
		}
	}
	if a.hist.n > 0 {
		ha, hb := a.ScrollbackLines(), b.ScrollbackLines()
		if !slices.Equal(ha, hb) {
			return fmt.Sprintf("history %q vs %q", ha, hb)
		}
	}
	return ""
}

// sameCells reports whether two rows hold the same cells. It compares the
// memory first: under -fuzz every comparison in this package's code is
// instrumented, so slices.Equal costs a call per field of every cell,
// while bytes.Equal is one uninstrumented memequal. Equal bytes mean equal
// fields; unequal bytes can be padding, hence slices.Equal to decide.
func sameCells(a, b []Cell) bool {
	return bytes.Equal(cellBytes(a), cellBytes(b)) || slices.Equal(a, b)
}

// cellBytes views cells as their memory.
func cellBytes(c []Cell) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c))), len(c)*int(unsafe.Sizeof(Cell{})))
}

// linkURI returns the URI of OSC 8 link id, as Snapshot reports it.
func linkURI(t *Terminal, id uint16) string {
	if int(id) > len(t.links) {
		return ""
	}
	return t.links[id-1]
}

// corpusBytes returns the []byte values of the committed seed corpus of a
// fuzz target with one []byte argument (testdata/fuzz/NAME).
func corpusBytes(t *testing.T, target string) [][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
	if len(files) == 0 {
		t.Fatalf("no corpus in testdata/fuzz/%s", target)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		q, ok := "", len(lines) == 2 && lines[0] == "go test fuzz v1"
		if ok {
			q, ok = strings.CutPrefix(lines[1], "[]byte(")
		}
		v, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
		if !ok || err != nil {
			t.Fatalf("%s: not a one-[]byte corpus file", f)
		}
		out = append(out, []byte(v))
	}
	return out
}
