package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// TestFontData checks the embedded font: the glyph lines hash to the value
// the generator recorded, key glyphs exist with the right widths, and no
// glyph is for a non-graphic code point.
func TestFontData(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		min  int // glyphs at least
	}{
		{"font.hex.gz", fontRegularData, 37000},
		{"fontbold.hex.gz", fontBoldData, 1200},
	} {
		zr, err := gzip.NewReader(bytes.NewReader(tc.data))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		h := sha256.New()
		want, n := "", 0
		sc := bufio.NewScanner(zr)
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "# glyph-lines-sha256: "); ok {
				want = v
			}
			if strings.HasPrefix(line, "#") {
				continue
			}
			fmt.Fprintf(h, "%s\n", line)
			n++
		}
		if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
			t.Errorf("%s: glyph lines hash to %s, the generator recorded %q", tc.name, got, want)
		}
		if n < tc.min {
			t.Errorf("%s: %d glyphs, want at least %d", tc.name, n, tc.min)
		}
	}

	regular, bold, err := fonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		r    rune
		wide bool
	}{
		{'A', false}, {0x2500, false}, {0x2588, false}, {0x28FF, false},
		{0xE0B0, false}, {0xFFFD, false}, {0x4E2D, true}, {0xAC00, true}, {0x3042, true},
	} {
		_, wide, ok := regular.glyph(tc.r)
		if !ok || wide != tc.wide {
			t.Errorf("U+%04X: ok=%v wide=%v, want ok=true wide=%v", tc.r, ok, wide, tc.wide)
		}
	}
	if _, _, ok := bold.glyph('A'); !ok {
		t.Errorf("bold face lacks 'A'")
	}
	for _, f := range []*fontFace{regular, bold} {
		for _, e := range f.index {
			if !unicode.IsGraphic(e.r) && !unicode.Is(unicode.Co, e.r) {
				t.Errorf("glyph for non-graphic U+%04X", e.r)
			}
		}
	}
	if len(regular.header) == 0 || !strings.Contains(strings.Join(regular.header, "\n"), "xfonts-terminus") {
		t.Errorf("font header lacks provenance: %q", regular.header)
	}
}

// renderBlank returns a blank cols x rows snapshot with a hidden cursor.
func renderBlank(cols, rows int) *Snapshot {
	s := &Snapshot{Cols: cols, Rows: rows, Cells: make([]Cell, cols*rows), Marks: map[int]string{}}
	for i := range s.Cells {
		s.Cells[i].Width = 1
	}
	return s
}

// renderPut writes text at (row, col) with the given colours and
// attributes, giving characters the font draws 16 pixels wide two cells;
// a rune after '\u0300'..'\u036f' becomes a mark on the previous cell.
func renderPut(s *Snapshot, row, col int, text string, fg, bg Color, attr Attr) {
	regular, _, _ := fonts()
	prev := -1
	for _, r := range text {
		if r >= 0x300 && r <= 0x36F && prev >= 0 {
			s.Marks[prev] += string(r)
			continue
		}
		if col >= s.Cols {
			return
		}
		i := row*s.Cols + col
		_, wide, _ := regular.glyph(r)
		wide = wide && r > 0x1100 || r >= 0x1F000
		s.Cells[i] = Cell{Rune: r, FG: fg, BG: bg, Attr: attr, Width: 1}
		prev = i
		col++
		if wide && col < s.Cols {
			s.Cells[i].Width = 2
			s.Cells[i+1] = Cell{FG: fg, BG: bg, Attr: attr, Width: 0}
			col++
		}
	}
}

// renderGoldens are the screens whose renders are kept in testdata/render.
func renderGoldens() map[string]struct {
	snap *Snapshot
	opt  RenderOptions
} {
	type golden = struct {
		snap *Snapshot
		opt  RenderOptions
	}
	out := map[string]golden{}
	dark, _ := lookupTheme("one-dark")

	// Colours and attributes.
	s := renderBlank(48, 14)
	renderPut(s, 0, 0, "plain bold dim italic", 0, 0, 0)
	renderPut(s, 0, 6, "bold", 0, 0, AttrBold)
	renderPut(s, 0, 11, "dim", 0, 0, AttrDim)
	renderPut(s, 0, 15, "italic", 0, 0, AttrItalic)
	renderPut(s, 1, 0, "under", 0, 0, AttrUnderline)
	renderPut(s, 1, 6, "double", 0, 0, AttrUnderline|1<<AttrULShift)
	renderPut(s, 1, 13, "curly", PaletteColor(1), 0, AttrUnderline|2<<AttrULShift)
	renderPut(s, 1, 19, "dotted", 0, 0, AttrUnderline|3<<AttrULShift)
	renderPut(s, 1, 26, "dashed", 0, 0, AttrUnderline|4<<AttrULShift)
	renderPut(s, 1, 33, "strike", 0, 0, AttrStrike)
	renderPut(s, 1, 40, "inverse", 0, 0, AttrInverse)
	renderPut(s, 2, 0, "hidden:", 0, 0, 0)
	renderPut(s, 2, 7, "secret", 0, 0, AttrHidden)
	renderPut(s, 2, 14, "overline", 0, 0, AttrOverline)
	renderPut(s, 2, 23, "bold italic", PaletteColor(4), 0, AttrBold|AttrItalic)
	for i := 0; i < 16; i++ {
		renderPut(s, 3+i/8, (i%8)*6, fmt.Sprintf(" %2d  ", i), 0, PaletteColor(uint8(i)), 0)
		renderPut(s, 5+i/8, (i%8)*6, fmt.Sprintf("fg%2d", i), PaletteColor(uint8(i)), 0, 0)
		renderPut(s, 7+i/8, (i%8)*6, fmt.Sprintf("bd%2d", i), PaletteColor(uint8(i)), 0, AttrBold)
	}
	for i := 0; i < 48; i++ {
		renderPut(s, 9, i, " ", 0, PaletteColor(uint8(16+i*216/48)), 0)
		renderPut(s, 10, i, " ", 0, PaletteColor(uint8(232+i/2)), 0)
		renderPut(s, 11, i, "▀", RGBColor(uint8(i*5), 80, 255-uint8(i*5)), RGBColor(255-uint8(i*5), uint8(i*5), 80), 0)
	}
	renderPut(s, 12, 0, "Greek αβγ Cyrillic Жя € ± ≠ → ✓ ✗ ⚠ ★ ❯", 0, 0, 0)
	renderPut(s, 13, 0, "e\u0301 a\u0308 n\u0303  $ ", PaletteColor(2), 0, 0)
	s.Cursor = Cursor{Row: 13, Col: 12, Visible: true}
	out["attributes"] = golden{s, RenderOptions{Theme: dark, Scale: 1}}

	// Wide characters, emoji (not in the font: a box), and the cursor shapes.
	s = renderBlank(40, 5)
	renderPut(s, 0, 0, "中文字符 日本語 かな 한국어", 0, 0, 0)
	renderPut(s, 1, 0, "ｆｕｌｌ　ｗｉｄｔｈ and narrow", PaletteColor(3), 0, 0)
	renderPut(s, 2, 0, "emoji 😀 🎉 end", 0, 0, 0)
	renderPut(s, 3, 0, "bar cursor> ", 0, 0, 0)
	renderPut(s, 4, 0, "中文 on colour", PaletteColor(0), PaletteColor(6), 0)
	s.Cursor = Cursor{Row: 3, Col: 12, Visible: true, Shape: CursorBar}
	out["wide"] = golden{s, RenderOptions{Theme: dark, Scale: 2}}

	// Box drawing and blocks joining across cells.
	s = renderBlank(44, 12)
	for i, l := range []string{
		"┌──┬──┐ ┏━━┳━━┓ ╔══╦══╗ ╭──╮ ╒══╤══╕ ╓──╥──╖",
		"│  │  │ ┃  ┃  ┃ ║  ║  ║ │  │ │  │  │ ║  ║  ║",
		"├──┼──┤ ┣━━╋━━┫ ╠══╬══╣ ╰──╯ ╞══╪══╡ ╟──╫──╢",
		"└──┴──┘ ┗━━┻━━┛ ╚══╩══╝ ╱╲╳  ╘══╧══╛ ╙──╨──╜",
		"┄┄┅┅┈┈┉┉╌╌╍╍ ┆┇┊┋╎╏ ╴╵╶╷╸╹╺╻╼╽╾╿ ┍┑┕┙┝┥┿╋",
		"▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▐ ░▒▓ ▔▕ ▖▗▘▙▚▛▜▝▞▟ ▀▄█",
		"⣿⣶⣤⣀ ⠁⠂⠄⡀⢀⠠⠐⠈ Powerline  main ",
		"┃ btop-like ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┃",
		"╭─ rounded ─────────────────────────────────╮",
		"│ █████████▌     progress 62%               │",
		"╰───────────────────────────────────────────╯",
	} {
		renderPut(s, i, 0, l, PaletteColor(uint8(7-i%3)), 0, 0)
	}
	renderPut(s, 6, 25, "\ue0b0", PaletteColor(4), 0, 0)
	renderPut(s, 6, 26, " main ", 0, PaletteColor(4), 0)
	renderPut(s, 6, 32, "\ue0b0", PaletteColor(4), 0, 0)
	renderPut(s, 11, 0, "bold box ┼━│ stays thin", 0, 0, AttrBold)
	out["boxes"] = golden{s, RenderOptions{Theme: dark, Scale: 2}}

	// Each theme on the same small screen.
	for _, th := range themeList {
		s := renderBlank(32, 6)
		renderPut(s, 0, 0, "$ ls --color", 0, 0, AttrBold)
		renderPut(s, 1, 0, "bin", PaletteColor(4), 0, AttrBold)
		renderPut(s, 1, 8, "run.sh", PaletteColor(2), 0, AttrBold)
		renderPut(s, 1, 16, "link", PaletteColor(6), 0, 0)
		renderPut(s, 2, 0, "error:", PaletteColor(1), 0, AttrBold)
		renderPut(s, 2, 7, "warning", PaletteColor(3), 0, 0)
		renderPut(s, 2, 15, "note", PaletteColor(5), 0, 0)
		for i := 0; i < 16; i++ {
			renderPut(s, 3+i/8, (i%8)*4, "██▌", PaletteColor(uint8(i)), 0, 0)
		}
		renderPut(s, 5, 0, "$ ", 0, 0, 0)
		s.Cursor = Cursor{Row: 5, Col: 2, Visible: true}
		out["theme-"+th.Name] = golden{s, RenderOptions{Theme: th, Scale: 1}}
	}

	// The macOS frame.
	s = renderBlank(40, 6)
	renderPut(s, 0, 0, "$ echo hello, world", 0, 0, 0)
	renderPut(s, 1, 0, "hello, world", 0, 0, 0)
	renderPut(s, 2, 0, "$ ", 0, 0, 0)
	s.Cursor = Cursor{Row: 2, Col: 2, Visible: true, Shape: CursorUnderline}
	s.Title = "ignored: the border title wins"
	out["border"] = golden{s, RenderOptions{Theme: dark, Scale: 2, Border: &Border{Style: "macos", Title: "ttywright — bash"}}}
	light, _ := lookupTheme("one-light")
	out["border-light"] = golden{s, RenderOptions{Theme: light, Scale: 1, Border: &Border{Style: "macos"}}}
	return out
}

// TestRenderGolden compares renders with testdata/render/*.png as decoded
// pixels (PNG bytes may change with compress/flate); -update rewrites them.
func TestRenderGolden(t *testing.T) {
	for name, g := range renderGoldens() {
		t.Run(name, func(t *testing.T) {
			img := RenderImage(g.snap, g.opt)
			path := filepath.Join("testdata", "render", name+".png")
			if *update {
				var buf bytes.Buffer
				if err := encodePNG(&buf, img); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestRenderGolden -update)", err)
			}
			defer f.Close()
			want, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			renderSamePixels(t, img, want)
		})
	}
}

// renderSamePixels reports the first differing pixels of two images.
func renderSamePixels(t *testing.T, got, want image.Image) {
	t.Helper()
	if got.Bounds() != want.Bounds() {
		t.Fatalf("bounds %v, want %v", got.Bounds(), want.Bounds())
	}
	b, bad := got.Bounds(), 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			g, w := color.RGBAModel.Convert(got.At(x, y)), color.RGBAModel.Convert(want.At(x, y))
			if g != w {
				if bad++; bad <= 5 {
					t.Errorf("pixel (%d,%d) = %v, want %v", x, y, g, w)
				}
			}
		}
	}
	if bad > 5 {
		t.Errorf("%d pixels differ", bad)
	}
}

// TestRenderDeterministic: the same screen gives byte-identical PNGs, and
// Render (RGBA) agrees with RenderImage (paletted).
func TestRenderDeterministic(t *testing.T) {
	s := renderBenchScreen(80, 24)
	opt := RenderOptions{Scale: 2, Border: &Border{Style: "macos", Title: "x"}}
	var a, b bytes.Buffer
	if err := encodePNG(&a, RenderImage(s, opt)); err != nil {
		t.Fatal(err)
	}
	if err := encodePNG(&b, RenderImage(s, opt)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("two renders of one screen differ")
	}
	renderSamePixels(t, Render(s, opt), RenderImage(s, opt))
}

// TestRenderManyColours: more than 256 colours falls back to RGBA and
// still draws every cell's colour.
func TestRenderManyColours(t *testing.T) {
	s := renderBlank(64, 8)
	for i := range s.Cells {
		s.Cells[i].BG = RGBColor(uint8(i), uint8(i>>8), 7)
	}
	img := RenderImage(s, RenderOptions{Scale: 1})
	if _, ok := img.(*image.RGBA); !ok {
		t.Fatalf("got %T, want *image.RGBA for 512 colours", img)
	}
	for _, i := range []int{0, 300, 511} {
		x, y := (i%64)*8+3, (i/64)*16+3
		want := color.RGBA{uint8(i), uint8(i >> 8), 7, 255}
		if got := img.At(x, y); got != want {
			t.Errorf("cell %d: %v, want %v", i, got, want)
		}
	}
}

// TestRenderOddInput: bad snapshots draw without panicking.
func TestRenderOddInput(t *testing.T) {
	for _, s := range []*Snapshot{
		{Cols: 3, Rows: 2, Cells: []Cell{{Rune: 'x', Width: 2}}},
		{Cols: 0, Rows: 0},
		{Cols: 2, Rows: 1, Cells: []Cell{{Rune: 0x10FFFF, Width: 1}, {Rune: -5, Width: 0}}, Cursor: Cursor{Row: 9, Col: -1, Visible: true}},
		{Cols: 1, Rows: 1, Cells: []Cell{{Rune: 0x2573, Width: 2, Attr: AttrUnderline | AttrULMask}}, Cursor: Cursor{Visible: true, Shape: 7}},
	} {
		for _, opt := range []RenderOptions{{Scale: 0}, {Scale: 9, Border: &Border{Title: strings.Repeat("中", 50)}}} {
			RenderImage(s, opt)
		}
	}
}

// renderBenchScreen is a full screen of coloured text: every cell a
// letter, colours changing every few cells, some bold and underlined.
func renderBenchScreen(cols, rows int) *Snapshot {
	s := renderBlank(cols, rows)
	text := "The quick brown fox jumps over the lazy dog; 0123456789 {}[]() <>=+-*/ "
	for i := range s.Cells {
		c := &s.Cells[i]
		c.Rune = rune(text[i%len(text)])
		c.FG = PaletteColor(uint8(1 + i/7%14))
		if i/cols%5 == 0 {
			c.BG = PaletteColor(uint8(236 + i/cols%4))
		}
		if i%11 == 0 {
			c.Attr = AttrBold
		}
		if i%13 == 0 {
			c.Attr |= AttrUnderline
		}
	}
	s.Cursor = Cursor{Row: rows - 1, Col: 5, Visible: true}
	return s
}

// BenchmarkRender120x40 renders and encodes a full coloured 120x40 screen
// at scale 2 (1920x1280 pixels), the shell_screenshot default.
func BenchmarkRender120x40(b *testing.B) {
	s := renderBenchScreen(120, 40)
	opt := RenderOptions{Scale: 2}
	if _, _, err := fonts(); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := encodePNG(&buf, RenderImage(s, opt)); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportMetric(float64(buf.Len()), "png-bytes")
}

// BenchmarkRenderOnly measures drawing without encoding.
func BenchmarkRenderOnly(b *testing.B) {
	s := renderBenchScreen(120, 40)
	opt := RenderOptions{Scale: 2}
	fonts()
	for b.Loop() {
		RenderImage(s, opt)
	}
}

// BenchmarkFontDecode measures the one-time font decoding.
func BenchmarkFontDecode(b *testing.B) {
	for b.Loop() {
		if _, err := parseHexFont(fontRegularData); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLicenseText: both notices and the OFL text are in the binary.
func TestLicenseText(t *testing.T) {
	text := licenseText()
	for _, want := range []string{"Dimitar Toshkov Zhekov", "Reserved Font Name", "GNU Unifont", "Roman Czyborra", "SIL OPEN FONT LICENSE Version 1.1", "DISCLAIMER"} {
		if !strings.Contains(text, want) {
			t.Errorf("licenseText lacks %q", want)
		}
	}
}

// TestPalettedPNG: writePalettedPNG's output decodes (with image/png) to
// the same pixels for every bit depth, odd widths, transparency and sizes
// that span several bands.
func TestPalettedPNG(t *testing.T) {
	for _, tc := range []struct{ w, h, colours int }{
		{1, 1, 1}, {7, 3, 2}, {9, 5, 3}, {13, 7, 4}, {15, 9, 16}, {17, 2, 17}, {301, 1999, 200}, {1920, 300, 5},
	} {
		pal := make(color.Palette, tc.colours)
		for i := range pal {
			pal[i] = color.RGBA{uint8(i * 37), uint8(i * 11), uint8(255 - i), 255}
		}
		pal[0] = color.RGBA{} // transparent
		m := image.NewPaletted(image.Rect(0, 0, tc.w, tc.h), pal)
		for i := range m.Pix {
			m.Pix[i] = uint8((i*7 + i/tc.w) % tc.colours)
		}
		var buf bytes.Buffer
		if err := writePalettedPNG(&buf, m); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%dx%d, %d colours: %v", tc.w, tc.h, tc.colours, err)
		}
		renderSamePixels(t, got, m)
	}
}
