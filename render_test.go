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
	"slices"
	"strings"
	"testing"
	"unicode"
)

// Render draws s to an RGBA image (RenderImage then, for a paletted
// result, palettedToRGBA), the form the tests compare pixels in.
func Render(s *Snapshot, opt RenderOptions) *image.RGBA {
	img := RenderImage(s, opt)
	if p, ok := img.(*image.Paletted); ok {
		return palettedToRGBA(p, nil)
	}
	return img.(*image.RGBA) // RenderImage returns one of the two
}

// TestFontData checks the embedded font: the glyph lines hash to the value
// the generator recorded, key glyphs exist with the right widths, and no
// glyph is for a non-graphic code point.
func TestFontData(t *testing.T) {
	t.Parallel()
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
		// Plane 1, from Unifont Upper: emoji, a regional indicator, a
		// chess symbol, a mathematical bold letter, a legacy computing digit.
		{0x2705, true}, {0x1F600, true}, {0x1F680, true}, {0x1F4A9, true}, {0x1F1E6, true},
		{0x1FA00, true}, {0x1FAF8, true}, {0x1D400, false}, {0x1FBF0, false},
	} {
		_, wide, ok := regular.glyph(tc.r)
		if !ok || wide != tc.wide {
			t.Errorf("U+%04X: ok=%v wide=%v, want ok=true wide=%v", tc.r, ok, wide, tc.wide)
		}
	}
	if _, _, ok := bold.glyph('A'); !ok {
		t.Errorf("bold face lacks 'A'")
	}
	// Unifont letters stand on Terminus's baseline: without descenders,
	// their lowest ink row is that of 'x' (Terminus); mkfont raises them.
	bottom := func(r rune) int {
		rows, _, _ := regular.glyphRows(r)
		for y := fontHeight - 1; y >= 0; y-- {
			if rows[y] != 0 {
				return y
			}
		}
		return -1
	}
	for _, r := range []rune{'ƀ', 'ɛ', 'ə', 'ѣ', 'ϐ', 'ἀ', 'ǅ', 0x1D401 /* 𝐁 */} {
		if got, want := bottom(r), bottom('x'); got != want {
			t.Errorf("U+%04X %c: lowest ink row %d, want %d as for 'x' (baseline)", r, r, got, want)
		}
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

// renderScreen feeds program output to a fresh cols x rows terminal and
// returns its snapshot.
func renderScreen(cols, rows int, output string) *Snapshot {
	t := NewTerminal(cols, rows, 0)
	t.Write([]byte(output))
	return t.Snapshot()
}

// renderGoldens are the screens whose renders are kept in testdata/render,
// each built from the bytes a program would write.
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
	var b strings.Builder
	b.WriteString("plain \x1b[1mbold\x1b[0m \x1b[2mdim\x1b[0m \x1b[3mitalic\x1b[0m \x1b[1;3;34mbold italic\x1b[0m \x1b[5mblink\x1b[0m\r\n")
	b.WriteString("\x1b[4munder\x1b[0m \x1b[4:2mdouble\x1b[0m \x1b[31;4:3mcurly\x1b[0m \x1b[4:4mdotted\x1b[0m \x1b[4:5mdashed\x1b[0m " +
		"\x1b[9mstrike\x1b[0m \x1b[7minverse\x1b[0m\r\n")
	b.WriteString("hidden:\x1b[8msecret\x1b[0m \x1b[53moverline\x1b[0m \x1b[4;58;5;208mul colour\x1b[0m \x1b[4:3;58:2::255:0:255mcurly rgb\x1b[0m\r\n")
	for i := 0; i < 16; i++ {
		fmt.Fprintf(&b, "\x1b[48;5;%dm %2d  \x1b[0m", i, i)
		if i%8 == 7 {
			b.WriteString("\r\n")
		}
	}
	for _, attr := range []string{"", "1;"} {
		for i := 0; i < 16; i++ {
			code := 30 + i
			if i >= 8 {
				code = 90 + i - 8
			}
			fmt.Fprintf(&b, "\x1b[%s%dmfg%2d\x1b[0m  ", attr, code, i)
			if i%8 == 7 {
				b.WriteString("\r\n")
			}
		}
	}
	for i := 0; i < 48; i++ {
		fmt.Fprintf(&b, "\x1b[48;5;%dm ", 16+i*216/48)
	}
	b.WriteString("\x1b[0m\r\n")
	for i := 0; i < 48; i++ {
		fmt.Fprintf(&b, "\x1b[48;5;%dm ", 232+i/2)
	}
	b.WriteString("\x1b[0m\r\n")
	for i := 0; i < 48; i++ {
		fmt.Fprintf(&b, "\x1b[38;2;%d;80;%dm\x1b[48:2::%d:%d:80m▀", i*5, 255-i*5, 255-i*5, i*5)
	}
	b.WriteString("\x1b[0m\r\n")
	b.WriteString("Greek αβγ Cyrillic Жя € ± ≠ → ✓ ✗ ⚠ ★ ❯\r\n")
	b.WriteString("\x1b[32me\u0301 a\u0308 n\u0303 \x1b[0m$ ")
	out["attributes"] = golden{renderScreen(48, 14, b.String()), RenderOptions{Theme: dark, Scale: 1}}

	// Wide characters, emoji, and a bar cursor.
	out["wide"] = golden{renderScreen(40, 5,
		"中文字符 日本語 かな 한국어\r\n"+
			"\x1b[33mｆｕｌｌ　ｗｉｄｔｈ and narrow\x1b[0m\r\n"+
			"emoji 😀 🎉 end\r\n"+
			"\x1b[30;46m中文 on colour\x1b[0m\r\n"+
			"bar cursor> \x1b[6 q"), RenderOptions{Theme: dark, Scale: 2}}

	// Plane 1 glyphs (Unifont Upper): emoji and pictographs over two cells,
	// regional indicators (a pair is one two-cell cluster: the first drawn),
	// cards, mahjong and chess, mathematical letters and legacy computing
	// digits on the text baseline, a text-style symbol in a narrow cell
	// squeezed before a letter and spilling into a blank; private-use
	// glyphs no font has (Nerd Font icons) stay hollow boxes.
	out["emoji"] = golden{renderScreen(40, 4,
		"😀 ✅ 🚀 💩 🎉 👍 🪀 🫠 🧪 🦀 ❌\r\n"+
			"flags 🇩🇪 🇯🇵 🃏 🀄 \U0001FA00 \U0001FA60 🅰x 🅰 end\r\n"+
			"\x1b[36m𝐁𝐨𝐥𝐝 𝑖𝑡𝑎𝑙𝑖𝑐 𝟏𝟐𝟑 🯰🯱🯲🯳 🭈🭉🭊🭋\x1b[0m\r\n"+
			"nerd font icon \uf015 (missing) \x1b[?25l"), RenderOptions{Theme: dark, Scale: 2}}

	// One baseline for Terminus letters (ASCII, Greek, Cyrillic) and the
	// Unifont letters Terminus lacks (Latin Extended-B, IPA, Greek and
	// Cyrillic extras, Vietnamese, polytonic Greek), under an underline, in
	// synthetic bold, with Unifont combining marks over Terminus letters, and
	// beside CJK, which fills the cell.
	out["baseline"] = golden{renderScreen(40, 4,
		"Hxg Ωαβ Жяф ƀɛəʃ ϐϖ Ѣѣ ạệ ἀὰ 中文かな\r\n"+
			"\x1b[4mxɛxəxѣxϐxạxἀx Ag ẠẮ ǅǆ\x1b[0m x\u0323 a\u0311 o\u0309\r\n"+
			"\x1b[1;33mBold Жя ƀɛə ѣ ễ\x1b[0m \x1b[3mitalic ɛə ѣ\x1b[0m\r\n"+
			"\x1b[32m$\x1b[0m echo 'Tiếng Việt, Ελληνικά, ǂʼǃ'"), RenderOptions{Theme: dark, Scale: 2}}

	// Box drawing and blocks joining across cells; the cursor hidden.
	b.Reset()
	for i, l := range []string{
		"┌──┬──┐ ┏━━┳━━┓ ╔══╦══╗ ╭──╮ ╒══╤══╕ ╓──╥──╖",
		"│  │  │ ┃  ┃  ┃ ║  ║  ║ │  │ │  │  │ ║  ║  ║",
		"├──┼──┤ ┣━━╋━━┫ ╠══╬══╣ ╰──╯ ╞══╪══╡ ╟──╫──╢",
		"└──┴──┘ ┗━━┻━━┛ ╚══╩══╝ ╱╲╳  ╘══╧══╛ ╙──╨──╜",
		"┄┄┅┅┈┈┉┉╌╌╍╍ ┆┇┊┋╎╏ ╴╵╶╷╸╹╺╻╼╽╾╿ ┍┑┕┙┝┥┿╋",
		"▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▐ ░▒▓ ▔▕ ▖▗▘▙▚▛▜▝▞▟ ▀▄█",
		"⣿⣶⣤⣀ ⠁⠂⠄⡀⢀⠠⠐⠈ Powerline \x1b[34m\ue0b0\x1b[30;44m main \x1b[0;34m\ue0b0",
		"┃ btop-like ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┃",
		"╭─ rounded ────────────────────────────────╮",
		"│ █████████▌     progress 62%              │",
		"╰──────────────────────────────────────────╯",
		"\x1b[1mbold box ┼━│ stays thin\x1b[0m 🬀🬁🬂🬋🬍🬹🬻 \x1b[44m \x1b[0;34m\ue0b4\ue0b5 \ue0b7\ue0b6\x1b[30;44m x \x1b[0m",
	} {
		fmt.Fprintf(&b, "\x1b[%dm%s\x1b[0m", 37-i%3, l)
		if i < 11 {
			b.WriteString("\r\n")
		}
	}
	b.WriteString("\x1b[?25l")
	out["boxes"] = golden{renderScreen(44, 12, b.String()), RenderOptions{Theme: dark, Scale: 2}}

	// Each theme on the same small screen.
	b.Reset()
	b.WriteString("\x1b[1m$ ls --color\x1b[0m\r\n")
	b.WriteString("\x1b[1;34mbin\x1b[0m     \x1b[1;32mrun.sh\x1b[0m  \x1b[36mlink\x1b[0m\r\n")
	b.WriteString("\x1b[1;31merror:\x1b[0m \x1b[33mwarning\x1b[0m \x1b[35mnote\x1b[0m \x1b[2mdim\x1b[0m\r\n")
	for i := 0; i < 16; i++ {
		fmt.Fprintf(&b, "\x1b[38;5;%dm██▌ ", i)
		if i%8 == 7 {
			b.WriteString("\x1b[0m\r\n")
		}
	}
	b.WriteString("$ ")
	for _, th := range themeList {
		out["theme-"+th.Name] = golden{renderScreen(32, 6, b.String()), RenderOptions{Theme: th, Scale: 1}}
	}

	// The macOS frame, with an underline cursor.
	s := renderScreen(40, 6, "\x1b]2;ignored: the border title wins\x07$ echo hello, world\r\nhello, world\r\n$ \x1b[4 q")
	out["border"] = golden{s, RenderOptions{Theme: dark, Scale: 2, Border: &Border{Style: "macos", Title: "ttywright — bash"}}}
	light, _ := lookupTheme("one-light")
	s = renderScreen(40, 4, "\x1b]2;vim notes.txt\x07\x1b[7m NORMAL \x1b[0m notes.txt\r\n~\r\n~")
	out["border-light"] = golden{s, RenderOptions{Theme: light, Scale: 1, Border: &Border{Style: "macos"}}}

	// Reverse video (DECSCNM): default colours swap, set colours stay.
	out["reverse-video"] = golden{renderScreen(24, 3, "\x1b[?5hreverse \x1b[31mred\x1b[0m \x1b[44mblue bg\x1b[0m\r\n\x1b[7minverse\x1b[0m"),
		RenderOptions{Theme: dark, Scale: 1}}
	return out
}

// TestRenderGolden compares renders with testdata/render/*.png as decoded
// pixels (PNG bytes may change with compress/flate); -update rewrites them.
func TestRenderGolden(t *testing.T) {
	t.Parallel()
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
	if samePaletted(got, want) {
		return
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

// samePaletted reports whether got and want (same bounds) are paletted
// images with the same indices, all inside both palettes, and the same
// colours at those palette entries (png.Decode may give a longer palette),
// comparing rows as memory: the pixel loop of renderSamePixels, through At
// and Convert, was two thirds of FuzzRenderPNG's time (more under -fuzz,
// which instruments every comparison). false decides nothing.
func samePaletted(got, want image.Image) bool {
	g, ok := got.(*image.Paletted)
	w, ok2 := want.(*image.Paletted)
	if !ok || !ok2 {
		return false
	}
	n := min(len(g.Palette), len(w.Palette))
	for i := range n {
		r0, g0, b0, a0 := g.Palette[i].RGBA()
		r1, g1, b1, a1 := w.Palette[i].RGBA()
		if r0 != r1 || g0 != g1 || b0 != b1 || a0 != a1 {
			return false
		}
	}
	b := got.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := g.Pix[g.PixOffset(b.Min.X, y):g.PixOffset(b.Max.X, y)]
		if !bytes.Equal(row, w.Pix[w.PixOffset(b.Min.X, y):w.PixOffset(b.Max.X, y)]) ||
			len(row) > 0 && int(slices.Max(row)) >= n {
			return false
		}
	}
	return true
}

// TestRenderDeterministic: the same screen gives byte-identical PNGs, and
// Render (RGBA) agrees with RenderImage (paletted). The screen is large
// enough to be drawn in two concurrent halves (run with -race).
func TestRenderDeterministic(t *testing.T) {
	t.Parallel()
	s := renderBenchScreen(120, 40)
	opt := RenderOptions{Scale: 1, Border: &Border{Style: "macos", Title: "x"}}
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
	t.Parallel()
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
	t.Parallel()
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
	cpu0 := renderCPUTime()
	for b.Loop() {
		buf.Reset()
		if err := encodePNG(&buf, RenderImage(s, opt)); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportMetric(float64(buf.Len()), "png-bytes")
	// CPU time summed over threads: the wall time a lone core would need,
	// and a fair figure when other work shares the machine.
	b.ReportMetric(float64(renderCPUTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
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
	t.Parallel()
	text := licenseText()
	for _, want := range []string{"Dimitar Toshkov Zhekov", "Reserved Font Name", "GNU Unifont", "Roman Czyborra", "fonts-unifont", "unifont_upper.otf", "SIL OPEN FONT LICENSE Version 1.1", "DISCLAIMER"} {
		if !strings.Contains(text, want) {
			t.Errorf("licenseText lacks %q", want)
		}
	}
}

// TestPalettedPNG: encodePNG's output decodes (with image/png) to the same
// pixels for every palette size (padded or not), odd widths and
// transparency.
func TestPalettedPNG(t *testing.T) {
	t.Parallel()
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
		if err := encodePNG(&buf, m); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%dx%d, %d colours: %v", tc.w, tc.h, tc.colours, err)
		}
		renderSamePixels(t, got, m)
	}
}

// FuzzRenderPNG: any program output renders without panicking, and the
// PNG decodes back to the same pixels.
func FuzzRenderPNG(f *testing.F) {
	for _, seed := range []string{
		"hello\r\n\x1b[1;31mred\x1b[0m",
		"中文😀e\u0301\x1b[7m┼╬╭\x1b[4:3m▚░",
		"\x1b[38;2;1;2;3;48;5;200;58:2::9:9:9mx\x1b[2 q\x1b[?25l",
		"\x1b]2;title\x07\x1b[?1049h\x1b[10;10H\xff\xfe",
	} {
		f.Add([]byte(seed), uint8(1), false)
	}
	f.Add([]byte("border"), uint8(3), true)
	f.Fuzz(func(t *testing.T, data []byte, scale uint8, border bool) {
		opt := RenderOptions{Scale: int(scale % 5)}
		if border {
			opt.Border = &Border{Style: "macos"}
		}
		img := RenderImage(renderScreen(16, 4, string(data)), opt)
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		back, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		renderSamePixels(t, back, img)
	})
}

// FuzzParseHexFont: malformed font data gives an error, never a panic.
func FuzzParseHexFont(f *testing.F) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	f.Add(gz("# c\n0041:0000000018242442427E424242420000\n"))
	f.Add(gz("4E00:" + strings.Repeat("0", 64) + "\n0041:zz\n"))
	f.Add(gz("FFFFFFFFF:00\n:\n\n"))
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, data []byte) {
		face, err := parseHexFont(data)
		if err != nil {
			return
		}
		for _, e := range face.index {
			if bits, _, ok := face.glyph(e.r); !ok || len(bits) != 16 && len(bits) != 32 {
				t.Fatalf("U+%04X: %d bytes", e.r, len(bits))
			}
		}
	})
}

// TestRenderTitleGlyphs: the border title draws characters as the screen
// does: a code point the font lacks as the replacement box (it was left
// blank), a combining mark over its base without a cell of its own.
func TestRenderTitleGlyphs(t *testing.T) {
	t.Parallel()
	s := renderBlank(40, 2)
	// inkSpan returns the leftmost and rightmost columns of the title bar
	// that differ from the bar's colour at its centre row's left edge.
	inkSpan := func(title string) (lo, hi int) {
		img := Render(s, RenderOptions{Scale: 1, Border: &Border{Style: "macos", Title: title}})
		b := img.Bounds()
		bar := img.RGBAAt(b.Dx()/2, 2)
		lo, hi = -1, -1
		for x := 76; x < b.Dx()-76; x++ {
			for y := 6; y < 22; y++ {
				if img.RGBAAt(x, y) != bar {
					if lo < 0 {
						lo = x
					}
					hi = x
					break
				}
			}
		}
		return lo, hi
	}
	tests := []struct {
		name, title, like string // like: a title that must take the same columns
	}{
		{"missing glyph", "a\U000F0000b", "a\u2588b"},
		{"combining mark", "xe\u0301y", "xey"},
	}
	for _, tt := range tests {
		lo, hi := inkSpan(tt.title)
		wlo, whi := inkSpan(tt.like)
		if lo < 0 || lo != wlo || hi != whi {
			t.Errorf("%s: title %q inks columns %d..%d, want %d..%d as %q does", tt.name, tt.title, lo, hi, wlo, whi, tt.like)
		}
	}
	if lo, hi := inkSpan("\U000F0000"); lo < 0 || hi-lo < 4 {
		t.Errorf("a title of one glyph the font lacks inks columns %d..%d, want the replacement box", lo, hi)
	}
}

// TestRenderTextAfterCursorAtHome: with a block cursor on the first cell,
// the cells after it are drawn in their own colours. The raster's cache
// of the last cell's colours once held nothing when the first cell was
// the cursor's, and its zero value, background on background, matched
// any default cell: vim's text, its cursor at the top left, was drawn
// invisible.
func TestRenderTextAfterCursorAtHome(t *testing.T) {
	t.Parallel()
	th := themeList[0]
	for _, tc := range []struct {
		in     string
		x0, x1 int // the pixels of the character after the cursor's
	}{{"ab\x1b[H", 8, 16}, {"日本\x1b[H", 16, 32}} {
		in := tc.in
		s := renderScreen(6, 1, in)
		img := Render(s, RenderOptions{Theme: th, Scale: 1})
		ink := false
		for y := range 16 {
			for x := tc.x0; x < tc.x1; x++ {
				ink = ink || img.RGBAAt(x, y) == th.Foreground
			}
		}
		if !ink {
			t.Errorf("%q: the cell after the cursor has no pixel in the foreground colour", in)
		}
	}
}
