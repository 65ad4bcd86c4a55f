// Mkfont writes the embedded bitmap font data, font.hex.gz (regular) and
// fontbold.hex.gz (bold), from Debian's font packages. It is run by
// go generate (see the //go:generate line in font.go):
//
//	go run ./gen/mkfont [-debs DIR] [-o font.hex.gz] [-bold fontbold.hex.gz]
//
// The inputs are the binary packages xfonts-terminus (Terminus Font 8x16,
// ter-u16n and ter-u16b, SIL OFL 1.1), xfonts-unifont (GNU Unifont plane 0,
// SIL OFL 1.1 since 13.0.04) and fonts-unifont (the same release, for
// unifont_upper.otf: plane 1, which Debian ships in no bitmap format).
// With -debs, the .deb files are taken from DIR; without it they are
// fetched with `apt-get download` into a temporary directory. Each package
// is unpacked with `dpkg-deb -x`; the compiled PCF fonts are read (the
// binary packages ship no BDF), and the OpenType font's pixel outlines are
// turned back into bitmaps.
//
// The regular face is Terminus first, then Unifont for every code point
// Terminus lacks, its narrow letters raised onto Terminus's baseline (see
// rebase); the bold face is Terminus bold only (the renderer emboldens the
// rest). Only graphic and private-use code points in the ranges below are
// kept.
//
// The output is Unifont's .hex format, one glyph a line, sorted by code point:
//
//	0041:0000000018242442427E424242420000
//
// 32 hex digits for an 8x16 glyph, 64 for a 16x16 one, rows top to bottom,
// most significant bit leftmost. Combining marks are stored as 8x16
// overlays to be ORed onto the base character's cell. Each file starts with
// '#' lines giving the sources (package, version, SHA-256), the licence,
// the command, and the SHA-256 of the glyph lines (every line not starting
// with '#', each ending in '\n'), which TestFontData checks. The gzip
// stream has an empty header, so the same inputs and Go version give the
// same bytes.
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// keepRanges are the code point ranges embedded: the terminal ranges
// (Latin, Greek, Cyrillic, punctuation, symbols, box drawing, blocks,
// braille, Powerline, specials), then Hangul Jamo, CJK punctuation, kana,
// Hangul compatibility jamo, CJK Unified Ideographs, Hangul syllables and
// the halfwidth and fullwidth forms; from plane 1, the mathematical
// alphanumeric symbols (styled letters such as U+1D400) and U+1F000-1FBFF:
// game symbols, enclosed alphanumerics (regional indicators), emoji and
// pictographs, arrows, chess, and symbols for legacy computing.
var keepRanges = [][2]rune{
	{0x0020, 0x052F},
	{0x1100, 0x11FF},
	{0x1E00, 0x2BFF},
	{0x3000, 0x30FF},
	{0x3130, 0x318F},
	{0x31F0, 0x31FF},
	{0x4E00, 0x9FFF},
	{0xAC00, 0xD7AF},
	{0xE0A0, 0xE0D4},
	{0xFF00, 0xFFEF},
	{0xFFF0, 0xFFFF},
	{0x1D400, 0x1D7FF},
	{0x1F000, 0x1FBFF},
}

// bitmapFont is one source font converted to .hex cells: the glyphs by
// code point, and its baseline as the number of rows above it in the
// 16-row cell (the font's ascent: 12 for Terminus, 14 for Unifont).
type bitmapFont struct {
	glyphs   map[rune][]byte
	baseline int
}

// pkg is one Debian package the fonts come from.
type pkg struct {
	name    string
	version string
	sha256  string // of the .deb
	dir     string // where it was unpacked
}

func main() {
	log.SetPrefix("mkfont: ")
	log.SetFlags(0)
	debs := flag.String("debs", "", "directory holding xfonts-terminus_*.deb, xfonts-unifont_*.deb and fonts-unifont_*.deb (default: apt-get download them)")
	out := flag.String("o", "font.hex.gz", "regular face output")
	outBold := flag.String("bold", "fontbold.hex.gz", "bold face output")
	flag.Parse()

	tmp, err := os.MkdirTemp("", "mkfont")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if *debs == "" {
		*debs = tmp
		cmd := exec.Command("apt-get", "download", "xfonts-terminus", "xfonts-unifont", "fonts-unifont")
		cmd.Dir, cmd.Stdout, cmd.Stderr = tmp, os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("apt-get download: %v (run apt-get update first, or pass -debs)", err)
		}
	}
	term := unpack(*debs, "xfonts-terminus", tmp)
	uni := unpack(*debs, "xfonts-unifont", tmp)
	uniOTF := unpack(*debs, "fonts-unifont", tmp)
	if uni.version != uniOTF.version {
		log.Fatalf("xfonts-unifont %s and fonts-unifont %s: want the same Unifont release", uni.version, uniOTF.version)
	}

	const misc = "usr/share/fonts/X11/misc"
	terN := readPCF(filepath.Join(term.dir, misc, "ter-u16n_unicode.pcf.gz"))
	terB := readPCF(filepath.Join(term.dir, misc, "ter-u16b_unicode.pcf.gz"))
	unif := readPCF(filepath.Join(uni.dir, misc, "unifont.pcf.gz"))
	upper := readOTF(filepath.Join(uniOTF.dir, "usr/share/fonts/opentype/unifont/unifont_upper.otf"))

	regular := map[rune][]byte{}
	merge(regular, terN.glyphs)
	for _, f := range []bitmapFont{unif, upper} {
		fallback := map[rune][]byte{}
		merge(fallback, f.glyphs)
		for r := range regular {
			delete(fallback, r)
		}
		rebase(fallback, f.baseline, terN.baseline)
		merge(regular, fallback)
	}
	bold := map[rune][]byte{}
	merge(bold, terB.glyphs)

	cmdline := "go run ./gen/mkfont " + strings.Join(os.Args[1:], " ")
	if *debs == tmp {
		cmdline = "apt-get download xfonts-terminus xfonts-unifont fonts-unifont && " + cmdline
	}
	header := func(face string, sources ...pkg) string {
		var b strings.Builder
		fmt.Fprintf(&b, "# ttywright embedded 8x16 font, %s face, in GNU Unifont .hex format.\n", face)
		fmt.Fprintf(&b, "# Derived from Terminus Font and GNU Unifont; not itself either of them.\n")
		fmt.Fprintf(&b, "# Licence: SIL Open Font License 1.1 (see LICENSES/ or ttywright --licenses).\n")
		for _, p := range sources {
			fmt.Fprintf(&b, "# source: Debian package %s %s, .deb sha256 %s\n", p.name, p.version, p.sha256)
		}
		fmt.Fprintf(&b, "# generator: %s\n", cmdline)
		return b.String()
	}
	write(*out, header("regular", term, uni, uniOTF), regular)
	write(*outBold, header("bold", term), bold)
}

// unpack finds DIR/name_*.deb, records its version and hash, and extracts
// it under tmp/name with dpkg-deb -x.
func unpack(dir, name, tmp string) pkg {
	debs, _ := filepath.Glob(filepath.Join(dir, name+"_*.deb"))
	if len(debs) != 1 {
		log.Fatalf("want exactly one %s_*.deb in %s, found %d", name, dir, len(debs))
	}
	data, err := os.ReadFile(debs[0])
	if err != nil {
		log.Fatal(err)
	}
	version, err := exec.Command("dpkg-deb", "-f", debs[0], "Version").Output()
	if err != nil {
		log.Fatalf("dpkg-deb -f %s: %v", debs[0], err)
	}
	p := pkg{name: name, version: strings.TrimSpace(string(version)),
		sha256: fmt.Sprintf("%x", sha256.Sum256(data)), dir: filepath.Join(tmp, name)}
	if out, err := exec.Command("dpkg-deb", "-x", debs[0], p.dir).CombinedOutput(); err != nil {
		log.Fatalf("dpkg-deb -x %s: %v\n%s", debs[0], err, out)
	}
	return p
}

// merge adds the glyphs of src that dst lacks, for kept code points only.
func merge(dst, src map[rune][]byte) {
	for r, g := range src {
		if _, ok := dst[r]; ok || !keep(r) {
			continue
		}
		dst[r] = g
	}
}

// rebase moves the narrow letters, marks, digits and letter-like signs of
// a fallback font from its baseline (rows above it in the cell) up to the
// primary font's, so that mixed text shares one baseline: Unifont's is 14,
// Terminus's 12, and without this every Unifont letter sat 2 px below its
// Terminus neighbours. A glyph moves only as far as its blank top rows
// allow (accents over Unifont capitals reach the top rows, so those rise
// by 1 px or stay), and nothing moves down. Wide glyphs (CJK, emoji) fill
// or are centred on the whole cell and stay.
func rebase(glyphs map[rune][]byte, from, to int) {
	if from <= to {
		return
	}
	var raised [fontRows]int // glyphs by rows raised
	for r, g := range glyphs {
		if len(g) != fontRows || !baselineGlyph(r) {
			continue
		}
		top := 0
		for top < fontRows && g[top] == 0 {
			top++
		}
		if top == fontRows {
			continue // blank
		}
		n := min(from-to, top)
		copy(g, g[n:])
		clear(g[fontRows-n:])
		raised[n]++
	}
	log.Printf("rebase: narrow glyphs raised by 0..%d rows: %v", from-to, raised[:from-to+1])
}

// baselineGlyph reports whether r is drawn standing on the baseline in
// Unifont, as Terminus draws it: letters, combining marks, numbers,
// currency signs and modifier symbols. Unifont's narrow punctuation and
// symbols that Terminus lacks (※ ‣ ⁂ ★ ⟩ ...) are mostly centred in the
// cell, as are the halfwidth forms (katakana, Hangul) that go with CJK
// text, so they stay.
func baselineGlyph(r rune) bool {
	return !(r >= 0xFF00 && r <= 0xFFEF) && unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.Sc, unicode.Sk)
}

// fontRows is the height of every glyph cell.
const fontRows = 16

// keep reports whether r is in keepRanges and is graphic or private use
// (Unifont also draws unassigned and control code points, as hex boxes).
func keep(r rune) bool {
	for _, k := range keepRanges {
		if r >= k[0] && r <= k[1] {
			return unicode.IsGraphic(r) || unicode.Is(unicode.Co, r)
		}
	}
	return false
}

// write stores the glyphs as sorted .hex lines after the header and the
// hash line, gzip level 9 with an empty header.
func write(path, header string, glyphs map[rune][]byte) {
	runes := make([]rune, 0, len(glyphs))
	for r := range glyphs {
		runes = append(runes, r)
	}
	sort.Slice(runes, func(i, j int) bool { return runes[i] < runes[j] })
	var body bytes.Buffer
	for _, r := range runes {
		fmt.Fprintf(&body, "%04X:%X\n", r, glyphs[r])
	}
	sum := sha256.Sum256(body.Bytes())

	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	fmt.Fprintf(zw, "%s# glyphs: %d\n# glyph-lines-sha256: %x\n", header, len(runes), sum)
	zw.Write(body.Bytes())
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d glyphs, %d bytes of .hex, %d bytes gzipped", path, len(runes), body.Len(), buf.Len())
}

// PCF is the X server's compiled bitmap font format. A file is a table of
// contents followed by tables; each table repeats its format word, whose
// bits give the byte order, the bit order within bytes and the row padding
// of bitmaps. Only what a bitmap renderer needs is read here: metrics,
// bitmaps, the encoding map and the font ascent. Reference: the X.Org
// libXfont pcfread.c and "The X Font Library" PCF notes.
const (
	pcfAccelerators    = 1 << 1
	pcfMetrics         = 1 << 2
	pcfBitmaps         = 1 << 3
	pcfBDFEncodings    = 1 << 5
	pcfBDFAccelerators = 1 << 8

	pcfCompressedMetrics = 0x100 // format bit: metrics stored as 5 bytes
	pcfByteMSB           = 1 << 2
	pcfBitMSB            = 1 << 3
)

// pcfMetric is one glyph's box: the bitmap spans x in [lsb, rsb) relative
// to the origin and ascent rows above the baseline, descent below.
type pcfMetric struct {
	lsb, rsb, width, ascent, descent int
}

// pcfReader reads one table with the byte order its format word gives.
type pcfReader struct {
	data   []byte
	pos    int
	format uint32
	order  binary.ByteOrder
}

func (r *pcfReader) u8() int { r.pos++; return int(r.data[r.pos-1]) }
func (r *pcfReader) i16() int {
	r.pos += 2
	return int(int16(r.order.Uint16(r.data[r.pos-2:])))
}
func (r *pcfReader) u16() int { r.pos += 2; return int(r.order.Uint16(r.data[r.pos-2:])) }
func (r *pcfReader) i32() int {
	r.pos += 4
	return int(int32(r.order.Uint32(r.data[r.pos-4:])))
}

// metric reads a compressed (5 unsigned bytes, offset 0x80) or full
// (5 int16 plus attributes) metric entry.
func (r *pcfReader) metric() pcfMetric {
	if r.format&pcfCompressedMetrics != 0 {
		return pcfMetric{r.u8() - 0x80, r.u8() - 0x80, r.u8() - 0x80, r.u8() - 0x80, r.u8() - 0x80}
	}
	m := pcfMetric{r.i16(), r.i16(), r.i16(), r.i16(), r.i16()}
	r.i16() // attributes
	return m
}

// readPCF returns the glyphs of a gzip'd PCF font as .hex bitmaps in an
// 8x16 or 16x16 cell (1 or 2 bytes a row, 16 rows), keyed by code point.
func readPCF(path string) bitmapFont {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	font, err := parsePCF(data)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return font
}

func parsePCF(data []byte) (font bitmapFont, err error) {
	defer func() {
		if recover() != nil { // a short table indexes past the end
			err = errors.New("pcf: truncated table")
		}
	}()
	if len(data) < 8 || string(data[:4]) != "\x01fcp" {
		return font, errors.New("pcf: bad magic")
	}
	// Table of contents: always little-endian.
	toc := &pcfReader{data: data, pos: 4, order: binary.LittleEndian}
	tables := map[int]int{} // type -> offset
	for n := toc.i32(); n > 0; n-- {
		typ, _, _, off := toc.i32(), toc.i32(), toc.i32(), toc.i32()
		tables[typ] = off
	}
	table := func(typ int) *pcfReader {
		off, ok := tables[typ]
		if !ok {
			return nil
		}
		format := binary.LittleEndian.Uint32(data[off:])
		r := &pcfReader{data: data, pos: off + 4, format: format, order: binary.LittleEndian}
		if format&pcfByteMSB != 0 {
			r.order = binary.BigEndian
		}
		return r
	}

	// Font ascent, to place every glyph in a 16-row cell.
	acc := table(pcfBDFAccelerators)
	if acc == nil {
		acc = table(pcfAccelerators)
	}
	if acc == nil {
		return font, errors.New("pcf: no accelerators table")
	}
	acc.pos += 8 // noOverlap ... padding flags
	fontAscent, fontDescent := acc.i32(), acc.i32()
	if fontAscent+fontDescent != 16 {
		return font, fmt.Errorf("pcf: font is %d px tall, want 16", fontAscent+fontDescent)
	}

	mt := table(pcfMetrics)
	if mt == nil {
		return font, errors.New("pcf: no metrics table")
	}
	var nm int
	if mt.format&pcfCompressedMetrics != 0 {
		nm = mt.u16() // unsigned: Unifont has more than 32767 glyphs
	} else {
		nm = mt.i32()
	}
	metrics := make([]pcfMetric, nm)
	for i := range metrics {
		metrics[i] = mt.metric()
	}

	bt := table(pcfBitmaps)
	if bt == nil {
		return font, errors.New("pcf: no bitmaps table")
	}
	nb := bt.i32()
	offsets := make([]int, nb)
	for i := range offsets {
		offsets[i] = bt.i32()
	}
	var sizes [4]int
	for i := range sizes {
		sizes[i] = bt.i32()
	}
	pad := 1 << (bt.format & 3)        // bytes each bitmap row is padded to
	unit := 1 << (bt.format >> 4 & 3)  // scan unit for byte swapping
	bitMSB := bt.format&pcfBitMSB != 0 // leftmost pixel in the high bit
	byteMSB := bt.format&pcfByteMSB != 0
	bitmaps := data[bt.pos : bt.pos+sizes[bt.format&3]]

	et := table(pcfBDFEncodings)
	if et == nil {
		return font, errors.New("pcf: no encodings table")
	}
	min2, max2, min1, max1 := et.i16(), et.i16(), et.i16(), et.i16()
	et.i16() // default char
	glyphs := map[rune][]byte{}
	for b1 := min1; b1 <= max1; b1++ {
		for b2 := min2; b2 <= max2; b2++ {
			idx := et.u16()
			if idx == 0xFFFF || idx >= nm || idx >= nb {
				continue
			}
			r := rune(b1<<8 | b2)
			m := metrics[idx]
			g, err := cellBitmap(m, fontAscent, bitmaps[offsets[idx]:], pad, unit, bitMSB, byteMSB)
			if err != nil {
				return font, fmt.Errorf("U+%04X: %v", r, err)
			}
			glyphs[r] = g
		}
	}
	return bitmapFont{glyphs, fontAscent}, nil
}

// cellBitmap copies one PCF glyph bitmap into a .hex cell: 16 rows of 1 byte
// (advance up to 8 px) or 2 bytes (advance 16 px). Zero-advance glyphs
// (combining marks drawn left of the origin, over the previous character)
// are moved right by 8 px so they become overlays for the base cell.
func cellBitmap(m pcfMetric, fontAscent int, src []byte, pad, unit int, bitMSB, byteMSB bool) ([]byte, error) {
	w, h := m.rsb-m.lsb, m.ascent+m.descent
	stride := (w + 7) / 8
	stride = (stride + pad - 1) / pad * pad
	if len(src) < stride*h {
		return nil, errors.New("bitmap past the end of the table")
	}
	row := make([]byte, stride)
	advance, shift := m.width, 0
	if advance == 0 {
		advance, shift = 8, 8
	}
	if advance != 8 && advance != 16 {
		return nil, fmt.Errorf("advance %d px, want 8 or 16", advance)
	}
	bpr := advance / 8
	cell := make([]byte, 16*bpr)
	for y := 0; y < h; y++ {
		copy(row, src[y*stride:])
		if !bitMSB {
			for i := range row {
				row[i] = reverseBits(row[i])
			}
		}
		if bitMSB != byteMSB { // bytes within each scan unit are swapped
			for i := 0; i+unit <= len(row); i += unit {
				for a, b := i, i+unit-1; a < b; a, b = a+1, b-1 {
					row[a], row[b] = row[b], row[a]
				}
			}
		}
		cy := fontAscent - m.ascent + y
		if cy < 0 || cy >= 16 {
			continue
		}
		for x := 0; x < w; x++ {
			if row[x/8]&(0x80>>(x%8)) == 0 {
				continue
			}
			cx := m.lsb + x + shift
			if cx < 0 || cx >= advance {
				continue
			}
			cell[cy*bpr+cx/8] |= 0x80 >> (cx % 8)
		}
	}
	return cell, nil
}

func reverseBits(b byte) byte {
	b = b>>4 | b<<4
	b = b>>2&0x33 | b<<2&0xCC
	return b>>1&0x55 | b<<1&0xAA
}

// OpenType with CFF outlines is the only form in which Debian ships GNU
// Unifont's plane 1 glyphs (fonts-unifont's unifont_upper.otf). Unifont's
// outlines are its pixels: unitsPerEm 64, so one pixel is 4 units, the
// ascent is 56 (14 px) and every contour is an axis-aligned polygon on the
// 4-unit grid. readOTF turns the outlines back into bitmaps by sampling
// each pixel's centre with the non-zero winding rule, which recovers the
// bitmap exactly. References: the OpenType spec (cmap format 12, head,
// hhea, hmtx) and Adobe TN 5176 (CFF) and TN 5177 (Type 2 charstrings).

// readOTF returns the glyphs of an OpenType CFF pixel font whose em is 16
// pixels with the baseline 14 pixels from the top, as .hex bitmaps keyed
// by code point, for the code points that keep accepts.
func readOTF(path string) bitmapFont {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	font, err := parseOTF(data)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return font
}

func parseOTF(data []byte) (font bitmapFont, err error) {
	defer func() {
		if recover() != nil { // a short table indexes past the end
			err = errors.New("otf: truncated table")
		}
	}()
	be := binary.BigEndian
	if len(data) < 12 || string(data[:4]) != "OTTO" {
		return font, errors.New("otf: not an OpenType CFF font")
	}
	tables := map[string][]byte{}
	for i, n := 0, int(be.Uint16(data[4:])); i < n; i++ {
		rec := data[12+16*i:]
		off, size := be.Uint32(rec[8:]), be.Uint32(rec[12:])
		tables[string(rec[:4])] = data[off : off+size]
	}
	for _, t := range []string{"head", "hhea", "hmtx", "cmap", "CFF "} {
		if tables[t] == nil {
			return font, fmt.Errorf("otf: no %s table", t)
		}
	}
	upem := int(be.Uint16(tables["head"][18:]))
	ascent := int(int16(be.Uint16(tables["hhea"][4:])))
	if upem%16 != 0 || ascent%(upem/16) != 0 {
		return font, fmt.Errorf("otf: unitsPerEm %d, ascent %d: not a 16-pixel grid", upem, ascent)
	}
	px := upem / 16 // units per pixel
	ascentPx := ascent / px

	// Advance widths (hmtx: numberOfHMetrics pairs, then the last repeats).
	nhm := int(be.Uint16(tables["hhea"][34:]))
	advance := func(gid int) int {
		if gid >= nhm {
			gid = nhm - 1
		}
		return int(be.Uint16(tables["hmtx"][4*gid:]))
	}

	// Code points from the Unicode full-repertoire cmap (format 12).
	cmap := tables["cmap"]
	var groups []byte
	for i, n := 0, int(be.Uint16(cmap[2:])); i < n; i++ {
		rec := cmap[4+8*i:]
		sub := cmap[be.Uint32(rec[4:]):]
		if be.Uint16(rec) == 3 && be.Uint16(rec[2:]) == 10 && be.Uint16(sub) == 12 {
			groups = sub[16 : 16+12*int(be.Uint32(sub[12:]))]
		}
	}
	if groups == nil {
		return font, errors.New("otf: no cmap format 12 subtable (3,10)")
	}

	cff, err := parseCFF(tables["CFF "])
	if err != nil {
		return font, err
	}
	glyphs := map[rune][]byte{}
	for ; len(groups) >= 12; groups = groups[12:] {
		first, last, gid := rune(be.Uint32(groups)), rune(be.Uint32(groups[4:])), int(be.Uint32(groups[8:]))
		for r := first; r <= last; r, gid = r+1, gid+1 {
			if !keep(r) {
				continue
			}
			contours, err := cff.outline(gid)
			if err != nil {
				return font, fmt.Errorf("U+%04X: %v", r, err)
			}
			g, err := rasterize(contours, advance(gid)/px, px, ascentPx)
			if err != nil {
				return font, fmt.Errorf("U+%04X: %v", r, err)
			}
			glyphs[r] = g
		}
	}
	return bitmapFont{glyphs, ascentPx}, nil
}

// cffFont is the part of a CFF font that drawing needs: the charstrings
// and the global and local subroutines (one local set per font dict in
// a CID-keyed font, picked by fdSelect).
type cffFont struct {
	charStrings [][]byte
	gsubrs      [][]byte
	subrs       [][][]byte // per font dict
	fdSelect    []byte     // font dict index per glyph; nil: dict 0
}

// cffIndex reads an INDEX at data[pos:] and returns its items and the
// position after it.
func cffIndex(data []byte, pos int) ([][]byte, int) {
	count := int(binary.BigEndian.Uint16(data[pos:]))
	if count == 0 {
		return nil, pos + 2
	}
	offSize := int(data[pos+2])
	off := func(i int) int {
		v := 0
		for _, b := range data[pos+3+i*offSize : pos+3+(i+1)*offSize] {
			v = v<<8 | int(b)
		}
		return v
	}
	base := pos + 3 + (count+1)*offSize - 1 // offsets count from 1
	items := make([][]byte, count)
	for i := range items {
		items[i] = data[base+off(i) : base+off(i+1)]
	}
	return items, base + off(count)
}

// cffDict decodes a DICT into operator -> operands (escaped operators as
// 1200+n). Real operands are skipped as 0: none of the operators read
// here takes one.
func cffDict(b []byte) map[int][]int {
	d := map[int][]int{}
	var args []int
	for i := 0; i < len(b); {
		switch v := int(b[i]); {
		case v == 12:
			d[1200+int(b[i+1])], args = args, nil
			i += 2
		case v <= 21:
			d[v], args = args, nil
			i++
		case v == 28:
			args = append(args, int(int16(binary.BigEndian.Uint16(b[i+1:]))))
			i += 3
		case v == 29:
			args = append(args, int(int32(binary.BigEndian.Uint32(b[i+1:]))))
			i += 5
		case v == 30: // real: nibbles up to and including 0xf
			for i++; b[i]&0xf != 0xf && b[i]>>4 != 0xf; i++ {
			}
			i++
			args = append(args, 0)
		case v >= 32 && v <= 246:
			args = append(args, v-139)
			i++
		case v >= 247 && v <= 250:
			args = append(args, (v-247)*256+int(b[i+1])+108)
			i += 2
		case v >= 251 && v <= 254:
			args = append(args, -(v-251)*256-int(b[i+1])-108)
			i += 2
		default:
			i++ // reserved
		}
	}
	return d
}

func parseCFF(data []byte) (*cffFont, error) {
	pos := int(data[2])                  // header size
	_, pos = cffIndex(data, pos)         // names
	topDicts, pos := cffIndex(data, pos) // top DICTs
	_, pos = cffIndex(data, pos)         // strings
	gsubrs, _ := cffIndex(data, pos)     // global subroutines
	if len(topDicts) != 1 {
		return nil, fmt.Errorf("cff: %d fonts, want 1", len(topDicts))
	}
	top := cffDict(topDicts[0])
	if t := top[1206]; len(t) == 1 && t[0] != 2 {
		return nil, fmt.Errorf("cff: charstring type %d, want 2", t[0])
	}
	cs := top[17]
	if len(cs) != 1 {
		return nil, errors.New("cff: no CharStrings")
	}
	f := &cffFont{gsubrs: gsubrs}
	f.charStrings, _ = cffIndex(data, cs[0])
	private := func(p []int) [][]byte { // Private DICT (size, offset) -> its Subrs
		if len(p) != 2 {
			return nil
		}
		sub := cffDict(data[p[1] : p[1]+p[0]])[19]
		if len(sub) != 1 {
			return nil
		}
		subrs, _ := cffIndex(data, p[1]+sub[0])
		return subrs
	}
	if fda := top[1236]; len(fda) == 1 { // CID-keyed: FDArray and FDSelect
		dicts, _ := cffIndex(data, fda[0])
		for _, d := range dicts {
			f.subrs = append(f.subrs, private(cffDict(d)[18]))
		}
		fds := top[1237]
		if len(fds) != 1 {
			return nil, errors.New("cff: FDArray without FDSelect")
		}
		n := len(f.charStrings)
		f.fdSelect = make([]byte, n)
		switch p := fds[0]; data[p] {
		case 0:
			copy(f.fdSelect, data[p+1:p+1+n])
		case 3:
			be := binary.BigEndian
			nr := int(be.Uint16(data[p+1:]))
			for i := 0; i < nr; i++ {
				r := data[p+3+3*i:]
				first, fd, next := int(be.Uint16(r)), r[2], int(be.Uint16(r[3:]))
				for g := first; g < next && g < n; g++ {
					f.fdSelect[g] = fd
				}
			}
		default:
			return nil, fmt.Errorf("cff: FDSelect format %d", data[p])
		}
	} else {
		f.subrs = [][][]byte{private(top[18])}
	}
	return f, nil
}

// subrBias is the number added to a subroutine operand (TN 5177, 4.7).
func subrBias(n int) int {
	switch {
	case n < 1240:
		return 107
	case n < 33900:
		return 1131
	}
	return 32768
}

// outline runs glyph gid's Type 2 charstring and returns its contours as
// closed polygons of points in font units (y up). Only the operators a
// pixel font uses are implemented: hints, moves, lines, subroutines and
// endchar; a curve or any other operator is an error, so a font that is
// not made of pixels cannot be converted by mistake.
func (f *cffFont) outline(gid int) ([][][2]int, error) {
	if gid < 0 || gid >= len(f.charStrings) {
		return nil, fmt.Errorf("glyph %d out of range", gid)
	}
	var subrs [][]byte
	if fd := 0; len(f.subrs) > 0 {
		if f.fdSelect != nil {
			fd = int(f.fdSelect[gid])
		}
		if fd < len(f.subrs) {
			subrs = f.subrs[fd]
		}
	}
	var (
		contours [][][2]int
		stack    []int
		x, y     int
		stems    int
		widthSet bool // the first stack-clearing operator may carry the width
		done     bool
	)
	// width drops the optional leading width operand.
	width := func(even bool) {
		if !widthSet && len(stack)%2 == 1 == even {
			stack = stack[1:]
		}
		widthSet = true
	}
	lineTo := func(dx, dy int) {
		x, y = x+dx, y+dy
		contours[len(contours)-1] = append(contours[len(contours)-1], [2]int{x, y})
	}
	moveTo := func(dx, dy int) {
		x, y = x+dx, y+dy
		contours = append(contours, [][2]int{{x, y}})
	}
	var run func(cs []byte, depth int) error
	run = func(cs []byte, depth int) error {
		if depth > 10 {
			return errors.New("subroutines nested too deep")
		}
		for i := 0; i < len(cs) && !done; {
			v := int(cs[i])
			switch {
			case v >= 32 && v <= 246:
				stack = append(stack, v-139)
				i++
				continue
			case v >= 247 && v <= 250:
				stack = append(stack, (v-247)*256+int(cs[i+1])+108)
				i += 2
				continue
			case v >= 251 && v <= 254:
				stack = append(stack, -(v-251)*256-int(cs[i+1])-108)
				i += 2
				continue
			case v == 28:
				stack = append(stack, int(int16(binary.BigEndian.Uint16(cs[i+1:]))))
				i += 3
				continue
			case v == 255: // 16.16 fixed: pixel coordinates are integers
				fx := int32(binary.BigEndian.Uint32(cs[i+1:]))
				if fx&0xffff != 0 {
					return errors.New("fractional coordinate")
				}
				stack = append(stack, int(fx>>16))
				i += 5
				continue
			}
			i++
			switch v {
			case 1, 3, 18, 23: // hstem, vstem, hstemhm, vstemhm
				width(true)
				stems += len(stack) / 2
			case 19, 20: // hintmask, cntrmask: implicit vstems, then the mask bytes
				width(true)
				stems += len(stack) / 2
				i += (stems + 7) / 8
			case 21: // rmoveto
				width(true)
				if len(stack) < 2 {
					return errors.New("rmoveto: stack underflow")
				}
				moveTo(stack[0], stack[1])
			case 22: // hmoveto
				width(false)
				if len(stack) < 1 {
					return errors.New("hmoveto: stack underflow")
				}
				moveTo(stack[0], 0)
			case 4: // vmoveto
				width(false)
				if len(stack) < 1 {
					return errors.New("vmoveto: stack underflow")
				}
				moveTo(0, stack[0])
			case 5: // rlineto
				if len(contours) == 0 {
					return errors.New("line before moveto")
				}
				for k := 0; k+1 < len(stack); k += 2 {
					lineTo(stack[k], stack[k+1])
				}
			case 6, 7: // hlineto, vlineto: alternating, starting horizontal or vertical
				if len(contours) == 0 {
					return errors.New("line before moveto")
				}
				for k, d := range stack {
					if (k%2 == 0) == (v == 6) {
						lineTo(d, 0)
					} else {
						lineTo(0, d)
					}
				}
			case 10, 29: // callsubr, callgsubr
				if len(stack) == 0 {
					return errors.New("callsubr: stack underflow")
				}
				set := subrs
				if v == 29 {
					set = f.gsubrs
				}
				n := stack[len(stack)-1] + subrBias(len(set))
				stack = stack[:len(stack)-1]
				if n < 0 || n >= len(set) {
					return fmt.Errorf("subroutine %d out of range", n)
				}
				if err := run(set[n], depth+1); err != nil {
					return err
				}
				continue // operands left by the subroutine stay
			case 11: // return
				return nil
			case 14: // endchar
				width(true)
				done = true
			default:
				return fmt.Errorf("charstring operator %d not supported in a pixel font", v)
			}
			stack = stack[:0]
		}
		return nil
	}
	if err := run(f.charStrings[gid], 0); err != nil {
		return nil, err
	}
	return contours, nil
}

// rasterize samples contours (font units, y up, the origin on the
// baseline at the left edge) at each pixel centre of a cell advance
// pixels wide, with the non-zero winding rule, and returns the glyph as a
// .hex cell (8 or 16 px wide, 16 rows). Zero-advance glyphs (combining
// marks drawn left of the origin) are moved right by 8 px, as for PCF.
func rasterize(contours [][][2]int, advance, px, ascentPx int) ([]byte, error) {
	shift := 0
	if advance == 0 {
		advance, shift = 8, 8
	}
	if advance != 8 && advance != 16 {
		return nil, fmt.Errorf("advance %d px, want 8 or 16", advance)
	}
	bpr := advance / 8
	cell := make([]byte, 16*bpr)
	for row := 0; row < 16; row++ {
		sy := (ascentPx-row)*px - px/2 // sample centre, font units, y up
		for col := 0; col < advance; col++ {
			sx := (col-shift)*px + px/2
			wind := 0
			for _, c := range contours {
				for k := range c {
					a, b := c[k], c[(k+1)%len(c)]
					if (a[1] <= sy) == (b[1] <= sy) {
						continue // the edge does not cross the sample's scan line
					}
					// x where the edge crosses the scan line, compared without division.
					cross := (b[0]-a[0])*(sy-a[1]) - (sx-a[0])*(b[1]-a[1])
					if b[1] > a[1] {
						if cross > 0 {
							wind++
						}
					} else if cross < 0 {
						wind--
					}
				}
			}
			if wind != 0 {
				cell[row*bpr+col/8] |= 0x80 >> (col % 8)
			}
		}
	}
	return cell, nil
}
