//go:build ignore

// Mkfont writes the embedded bitmap font data, font.hex.gz (regular) and
// fontbold.hex.gz (bold), from Debian's font packages. It is run by
// go generate (see the //go:generate line in font.go):
//
//	go run mkfont.go [-debs DIR] [-o font.hex.gz] [-bold fontbold.hex.gz]
//
// The inputs are the binary packages xfonts-terminus (Terminus Font 8x16,
// ter-u16n and ter-u16b, SIL OFL 1.1) and xfonts-unifont (GNU Unifont,
// SIL OFL 1.1 since 13.0.04). With -debs, the .deb files are taken from
// DIR; without it they are fetched with `apt-get download` into a temporary
// directory. Each package is unpacked with `dpkg-deb -x` and its compiled
// PCF fonts are read (the binary packages ship no BDF).
//
// The regular face is Terminus first, then Unifont for every code point
// Terminus lacks; the bold face is Terminus bold only (the renderer
// emboldens the rest). Only graphic and private-use code points in the
// ranges below are kept.
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
// the halfwidth and fullwidth forms.
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
	debs := flag.String("debs", "", "directory holding xfonts-terminus_*.deb and xfonts-unifont_*.deb (default: apt-get download them)")
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
		cmd := exec.Command("apt-get", "download", "xfonts-terminus", "xfonts-unifont")
		cmd.Dir, cmd.Stdout, cmd.Stderr = tmp, os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			log.Fatalf("apt-get download: %v (run apt-get update first, or pass -debs)", err)
		}
	}
	term := unpack(*debs, "xfonts-terminus", tmp)
	uni := unpack(*debs, "xfonts-unifont", tmp)

	const misc = "usr/share/fonts/X11/misc"
	terN := readPCF(filepath.Join(term.dir, misc, "ter-u16n_unicode.pcf.gz"))
	terB := readPCF(filepath.Join(term.dir, misc, "ter-u16b_unicode.pcf.gz"))
	unif := readPCF(filepath.Join(uni.dir, misc, "unifont.pcf.gz"))

	regular := map[rune][]byte{}
	merge(regular, terN)
	merge(regular, unif)
	bold := map[rune][]byte{}
	merge(bold, terB)

	cmdline := "go run mkfont.go " + strings.Join(os.Args[1:], " ")
	if *debs == tmp {
		cmdline = "apt-get download xfonts-terminus xfonts-unifont && " + cmdline
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
	write(*out, header("regular", term, uni), regular)
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
func readPCF(path string) map[rune][]byte {
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
	glyphs, err := parsePCF(data)
	if err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return glyphs
}

func parsePCF(data []byte) (glyphs map[rune][]byte, err error) {
	defer func() {
		if recover() != nil { // a short table indexes past the end
			err = errors.New("pcf: truncated table")
		}
	}()
	if len(data) < 8 || string(data[:4]) != "\x01fcp" {
		return nil, errors.New("pcf: bad magic")
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
		return nil, errors.New("pcf: no accelerators table")
	}
	acc.pos += 8 // noOverlap ... padding flags
	fontAscent, fontDescent := acc.i32(), acc.i32()
	if fontAscent+fontDescent != 16 {
		return nil, fmt.Errorf("pcf: font is %d px tall, want 16", fontAscent+fontDescent)
	}

	mt := table(pcfMetrics)
	if mt == nil {
		return nil, errors.New("pcf: no metrics table")
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
		return nil, errors.New("pcf: no bitmaps table")
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
		return nil, errors.New("pcf: no encodings table")
	}
	min2, max2, min1, max1 := et.i16(), et.i16(), et.i16(), et.i16()
	et.i16() // default char
	glyphs = map[rune][]byte{}
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
				return nil, fmt.Errorf("U+%04X: %v", r, err)
			}
			glyphs[r] = g
		}
	}
	return glyphs, nil
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
