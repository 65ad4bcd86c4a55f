package main

// font.go: the embedded 8x16 bitmap font and glyph lookup.
//
// The data is Terminus Font 8x16 (regular and bold) with GNU Unifont
// 8x16/16x16 for every code point Terminus lacks (CJK, Hangul, and from
// plane 1 the emoji and pictographs U+1F000-1FBFF and the mathematical
// alphanumerics), both under the SIL Open Font License 1.1 (LICENSES/,
// ttywright --licenses). Unifont's narrow letters are raised 2 pixels onto
// Terminus's baseline, so mixed text lines up. gen/mkfont writes it from
// Debian's xfonts-terminus, xfonts-unifont and fonts-unifont packages; the
// files are committed, so a build needs nothing but Go. Regenerate with
//
//	apt-get update && go generate -run mkfont
//
// and check the result with `zcat font.hex.gz | head`.

//go:generate go run ./gen/mkfont -o font.hex.gz -bold fontbold.hex.gz

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"unicode"
)

var (
	//go:embed font.hex.gz
	fontRegularData []byte
	//go:embed fontbold.hex.gz
	fontBoldData []byte
)

// fontHeight is the glyph height in font pixels; a narrow glyph is 8
// pixels wide and a wide one 16.
const fontHeight = 16

// fontFace is one decoded face: glyph entries sorted by rune, their
// bitmaps packed in one slice (16 bytes for a narrow glyph, 32 for a wide
// one, rows top to bottom, leftmost pixel in the high bit, wide glyphs two
// bytes a row).
type fontFace struct {
	index []fontEntry
	bits  []byte
	// header holds the '#' provenance lines, glyphSum the SHA-256 of the
	// glyph lines that the generator recorded there.
	header   []string
	glyphSum string
}

// fontEntry locates one glyph in fontFace.bits.
type fontEntry struct {
	r    rune
	off  uint32
	wide bool
}

var (
	fontOnce            sync.Once
	fontRegular, fontBd *fontFace
	fontErr             error
)

// fonts returns the regular and bold faces, decoding the embedded data on
// the first call (about 25 ms; the data is never touched by programs that
// take no screenshot). An error means the embedded data is corrupt, which
// TestFontData rules out.
func fonts() (regular, bold *fontFace, err error) {
	fontOnce.Do(func() {
		fontRegular, fontErr = parseHexFont(fontRegularData)
		if fontErr == nil {
			fontBd, fontErr = parseHexFont(fontBoldData)
		}
	})
	return fontRegular, fontBd, fontErr
}

// parseHexFont decodes a gzip'd Unifont .hex file: '#' lines are kept as
// the header, every other line is CODE:HEX with 32 hex digits (8x16) or 64
// (16x16).
func parseHexFont(data []byte) (*fontFace, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("font: %v", err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("font: %v", err)
	}
	lines := bytes.Count(text, []byte("\n")) + 1
	f := &fontFace{index: make([]fontEntry, 0, lines), bits: make([]byte, 0, len(text)/2)}
	for n := 1; len(text) > 0; n++ {
		var line []byte
		line, text, _ = bytes.Cut(text, []byte("\n"))
		if len(line) == 0 {
			continue
		}
		if line[0] == '#' {
			h := string(line)
			f.header = append(f.header, h)
			if v, ok := strings.CutPrefix(h, "# glyph-lines-sha256: "); ok {
				f.glyphSum = v
			}
			continue
		}
		code, digits, ok := bytes.Cut(line, []byte(":"))
		r, okCode := parseHexRune(code)
		if !ok || !okCode || (len(digits) != 32 && len(digits) != 64) {
			return nil, fmt.Errorf("font: line %d: want CODE:HEX with 32 or 64 digits", n)
		}
		off := len(f.bits)
		f.bits = append(f.bits, make([]byte, len(digits)/2)...)
		if _, err := hex.Decode(f.bits[off:], digits); err != nil {
			return nil, fmt.Errorf("font: line %d: %v", n, err)
		}
		f.index = append(f.index, fontEntry{r: r, off: uint32(off), wide: len(digits) == 64})
	}
	if !sort.SliceIsSorted(f.index, func(i, j int) bool { return f.index[i].r < f.index[j].r }) {
		sort.SliceStable(f.index, func(i, j int) bool { return f.index[i].r < f.index[j].r })
	}
	return f, nil
}

// parseHexRune parses 1 to 6 hex digits as a code point.
func parseHexRune(b []byte) (rune, bool) {
	if len(b) == 0 || len(b) > 6 {
		return 0, false
	}
	var r rune
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, r <= unicode.MaxRune
}

// glyph returns the bitmap of r (16 bytes, or 32 when wide) and whether
// the face has it.
func (f *fontFace) glyph(r rune) (bits []byte, wide, ok bool) {
	if f == nil {
		return nil, false, false
	}
	i := sort.Search(len(f.index), func(i int) bool { return f.index[i].r >= r })
	if i == len(f.index) || f.index[i].r != r {
		return nil, false, false
	}
	e := f.index[i]
	n := uint32(fontHeight)
	if e.wide {
		n *= 2
	}
	return f.bits[e.off : e.off+n], e.wide, true
}

// glyphRows returns r's rows as 16-bit masks (leftmost pixel in bit 15;
// a narrow glyph uses the high 8 bits), whether it is 16 pixels wide, and
// whether the face has it.
func (f *fontFace) glyphRows(r rune) (rows [fontHeight]uint16, wide, ok bool) {
	bits, wide, ok := f.glyph(r)
	if !ok {
		return rows, false, false
	}
	for y := range rows {
		if wide {
			rows[y] = uint16(bits[2*y])<<8 | uint16(bits[2*y+1])
		} else {
			rows[y] = uint16(bits[y]) << 8
		}
	}
	return rows, wide, true
}
