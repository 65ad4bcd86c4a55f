package main

// html_test.go: the browser encoding of a screen (html.go) read back
// cell by cell: what it says of each cell of real programs' screens is
// what RenderImage draws there; hidden text, strike-through, overline,
// combining marks, wide characters; the shapes that join across rows.

import (
	"encoding/json"
	"fmt"
	"image/color"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// htmlCell is one cell of an encoded screen, read as the painter reads
// it (ttyScreen.cells): its text, its style, and the columns it takes,
// 2 for a wide character and 0 for the right half of one.
type htmlCell struct {
	Text  string
	Style int
	W     int
}

// readHTMLRow reads an encoded row into cols cells, those left out
// blanks in style blank. A row that is not a list of [style, text] runs,
// or is longer than cols, is an error.
func readHTMLRow(row json.RawMessage, cols, blank int) ([]htmlCell, error) {
	var runs [][2]json.RawMessage
	if err := json.Unmarshal(row, &runs); err != nil {
		return nil, fmt.Errorf("row %s: %v", row, err)
	}
	var out []htmlCell
	for _, run := range runs {
		var s int
		var str string
		var texts []string
		if err := json.Unmarshal(run[0], &s); err != nil {
			return nil, fmt.Errorf("run %s: %v", run[0], err)
		}
		if json.Unmarshal(run[1], &str) == nil {
			for _, r := range str {
				texts = append(texts, string(r))
			}
		} else if err := json.Unmarshal(run[1], &texts); err != nil {
			return nil, fmt.Errorf("run %s: %v", run[1], err)
		}
		for _, x := range texts {
			if n := len(out); x == "" && n > 0 && out[n-1].W == 1 {
				out[n-1].W = 2
				out = append(out, htmlCell{Style: out[n-1].Style})
				continue
			}
			if x == "" {
				x = " "
			}
			out = append(out, htmlCell{Text: x, Style: s, W: 1})
		}
	}
	if len(out) > cols {
		return nil, fmt.Errorf("row %s: %d cells, more than %d columns", row, len(out), cols)
	}
	for len(out) < cols {
		out = append(out, htmlCell{Text: " ", Style: blank, W: 1})
	}
	return out, nil
}

// htmlScreenCase is a screen to check, with the theme it is drawn in.
type htmlScreenCase struct {
	name string
	snap *Snapshot
	th   *Theme
}

// htmlDivergences is a screen of what the live view or the trace drew
// wrong before: hidden text, strike-through, overline, combining marks,
// wide characters, a background and box lines over several rows, and
// curly underline in a colour.
func htmlDivergences() *Snapshot {
	return renderScreen(36, 8, "\x1b[44m        \x1b[0m ┌──┬──┐ ║ █ ▐ ┃\r\n"+
		"\x1b[44m  blue  \x1b[0m │  │  │ ║ █ ▐ ┃\r\n"+
		"\x1b[44m        \x1b[0m └──┴──┘ ║ █ ▐ ┃\r\n"+
		"pw:\x1b[8msecret\x1b[0m. \x1b[9mstrike\x1b[0m \x1b[53mover\x1b[0m\r\n"+
		"e\u0301 a\u0308\u0323 x日本y ░▒▓\r\n"+
		"\x1b[4:3;58:2::255:0:255mcurly\x1b[0m \x1b[1;31mbold red\x1b[0m \x1b[2;7mdim rev\x1b[0m\r\n"+
		"$ ")
}

// htmlScreenCases are real programs' screens (testdata/vt: vim, less,
// man, git log, bash, htop and alacritty's recordings), in three themes
// (one of them PlainBold), the render goldens' screens in their own, and
// htmlDivergences.
func htmlScreenCases(t testing.TB) []htmlScreenCase {
	t.Helper()
	var snaps []htmlScreenCase
	files, _ := filepath.Glob("testdata/vt/programs/*.bin")
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".bin")
		c := &vtCase{Input: []string{"programs/" + name + ".bin"}, ExpectedJSON: "programs/" + name + ".expected.json"}
		want := c.loadExpected(t)
		c.Cols, c.Rows = want.Cols, want.Rows
		snaps = append(snaps, htmlScreenCase{name: name, snap: feedWhole(c, c.input(t)).Snapshot()})
	}
	for _, c := range loadVTCases(t) {
		if c.Source != "alacritty" {
			continue
		}
		in := c.input(t)
		if c.ID == "alacritty/alt_reset" {
			name, in := "htop", in[:strings.Index(string(in), "\x1b[?1049l")] // htop, before it quits
			snaps = append(snaps, htmlScreenCase{name: name, snap: feedWhole(&c, in).Snapshot()})
		}
		snaps = append(snaps, htmlScreenCase{name: c.ID, snap: feedWhole(&c, in).Snapshot()})
	}
	var out []htmlScreenCase
	for _, name := range []string{"one-dark", "solarized-dark", "one-light"} {
		th, _ := lookupTheme(name)
		for _, c := range snaps {
			out = append(out, htmlScreenCase{name: c.name + "/" + name, snap: c.snap, th: th})
		}
	}
	goldens := renderGoldens()
	for _, name := range slices.Sorted(maps.Keys(goldens)) {
		g := goldens[name]
		th := g.opt.Theme
		if th == nil {
			th = themeList[0]
		}
		out = append(out, htmlScreenCase{name: "render/" + name, snap: g.snap, th: th})
	}
	return append(out, htmlScreenCase{name: "divergences", snap: htmlDivergences(), th: themeList[0]})
}

// pngText is the text RenderImage draws in cell i of s, the cursor
// aside: the character above a space and its marks, nothing (a blank)
// in a hidden cell, "" on the right half of a wide character.
func pngText(s *Snapshot, i int) string {
	c := s.Cells[i]
	switch {
	case c.Width == 0 && i%s.Cols > 0 && s.Cells[i-1].Width == 2:
		return ""
	case c.Attr&AttrHidden != 0:
		return " "
	case c.Rune > ' ':
		return string(c.Rune) + s.Marks[i]
	}
	return " " + s.Marks[i]
}

// TestHTMLMatchesRender encodes each screen of htmlScreenCases as the
// live view does and reads it back cell by cell: each cell's text,
// colours and attributes are what RenderImage draws in that cell, its
// colours as the raster resolves them (newRaster, the cursor's cells as
// the painter draws the cursor: the text in the cell's background on the
// theme's cursor colour).
func TestHTMLMatchesRender(t *testing.T) {
	t.Parallel()
	for _, tc := range htmlScreenCases(t) {
		f := newHTMLFrame(tc.snap, tc.th)
		r := newRaster(tc.snap, RenderOptions{Theme: tc.th, Scale: 1})
		s, bad := tc.snap, 0
		if f.Blank != 0 || f.Caret != hexColor(tc.th.Cursor) || f.Cols != s.Cols || f.Rows != s.Rows {
			t.Errorf("%s: blank %d caret %s %dx%d", tc.name, f.Blank, f.Caret, f.Cols, f.Rows)
		}
		for row := range s.Rows {
			cells, err := readHTMLRow(f.Lines[row], s.Cols, f.Blank)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			for col, cell := range cells {
				i := row*s.Cols + col
				if msg := htmlCellDiffers(s, r, f, cell, i); msg != "" {
					if bad++; bad <= 4 {
						t.Errorf("%s: row %d col %d %q: %s", tc.name, row, col, cell.Text, msg)
					}
				}
			}
		}
		if bad > 4 {
			t.Errorf("%s: %d cells differ", tc.name, bad)
		}
	}
}

// htmlCellDiffers says how encoded cell i differs from what raster r
// draws there, "" when it does not.
func htmlCellDiffers(s *Snapshot, r *raster, f htmlFrame, cell htmlCell, i int) string {
	c, st := s.Cells[i], f.Styles[cell.Style]
	ink := r.cellInks[i]
	fg, bg, ul := hexColor(r.pal[ink.fg]), hexColor(r.pal[ink.bg]), hexColor(r.pal[ink.ul])
	wantFG, wantBG, wantUL := st.FG, st.BG, st.UL
	if cur := r.cursor; cur.show && cur.shape == CursorBlock && i/s.Cols == cur.row && i%s.Cols >= cur.col && i%s.Cols < cur.col+cur.cells {
		wantFG, wantBG, wantUL = st.BG, f.Caret, st.BG
	}
	drawn := c.Attr
	if drawn&AttrHidden != 0 {
		drawn = 0
	}
	underline := ""
	if drawn&AttrUnderline != 0 {
		underline = htmlUnderlines[0]
		if k := int(drawn&AttrULMask) >> AttrULShift; k < len(htmlUnderlines) {
			underline = htmlUnderlines[k]
		}
	}
	switch {
	case cell.Text != pngText(s, i):
		return fmt.Sprintf("text, RenderImage draws %q", pngText(s, i))
	case wantFG != fg || wantBG != bg:
		return fmt.Sprintf("colours %s on %s, RenderImage paints %s on %s", wantFG, wantBG, fg, bg)
	case st.Underline != underline || underline != "" && wantUL != ul:
		return fmt.Sprintf("underline %q in %s, RenderImage draws %q in %s", st.Underline, wantUL, underline, ul)
	case st.Bold != (drawn&AttrBold != 0) || st.Italic != (drawn&AttrItalic != 0) ||
		st.Strike != (drawn&AttrStrike != 0) || st.Overline != (drawn&AttrOverline != 0):
		return fmt.Sprintf("style %+v, RenderImage draws attributes %b", st, drawn)
	}
	return ""
}

// TestHTMLRowEncoding encodes one-row screens: runs of one style, wide
// characters and marks as cell lists, hidden text as blanks, trailing
// blanks left out, HTML characters escaped, and each style as drawn.
func TestHTMLRowEncoding(t *testing.T) {
	t.Parallel()
	th := themeList[0]
	fg, bg := hexColor(th.Foreground), hexColor(th.Background)
	tests := []struct {
		name, in, row string
		styles        []htmlStyle // after the blank style
	}{
		{"plain", "abc", `[[0,"abc"]]`, nil},
		{"styled", "a\x1b[1;31mbc\x1b[0md", `[[0,"a"],[1,"bc"],[0,"d"]]`, []htmlStyle{{FG: "#ff7a85", BG: bg, Bold: true}}},
		{"wide", "x日y", `[[0,["x","日","","y"]]]`, nil},
		{"mark", "e\u0301!", "[[0,[\"e\u0301\",\"!\"]]]", nil},
		{"hidden", "pw:\x1b[8;4;9msecret\x1b[0m.", `[[0,"pw:"],[1,"      "],[0,"."]]`, []htmlStyle{{FG: bg, BG: bg}}},
		{"strike and overline", "\x1b[9ms\x1b[53mo", `[[1,"s"],[2,"o"]]`, []htmlStyle{{FG: fg, BG: bg, Strike: true}, {FG: fg, BG: bg, Strike: true, Overline: true}}},
		{"curly underline in a colour", "\x1b[4:3;58;5;196mu", `[[1,"u"]]`, []htmlStyle{{FG: fg, BG: bg, Underline: "curly", UL: "#ff0000"}}},
		{"trailing blanks in a colour", "a\x1b[44m  ", `[[0,"a"],[1,"  "]]`, []htmlStyle{{FG: fg, BG: "#61afef"}}},
		{"shade", "▒", `[[1,"▒"]]`, []htmlStyle{{FG: hexColor(mix(th.Background, th.Foreground, 128)), BG: bg}}},
		{"html", "</script>", `[[0,"\u003c/script\u003e"]]`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newHTMLFrame(traceTerm(20, 2, tc.in), th)
			want := append([]htmlStyle{{FG: fg, BG: bg}}, tc.styles...)
			if got := string(f.Lines[0]); got != tc.row {
				t.Errorf("row %q = %s, want %s", tc.in, got, tc.row)
			}
			got, _ := json.Marshal(f.Styles) // styles always encode
			if w, _ := json.Marshal(want); string(got) != string(w) {
				t.Errorf("styles %s, want %s", got, w)
			}
		})
	}
}

// TestHTMLShapes: the shapes the painter draws box drawing and block
// elements with are, pixel for pixel, what RenderImage draws for each of
// U+2500-259F at scale 2; so a vertical line reaches both ends of its
// cell, and a horizontal one both sides, and they join across rows and
// cells as in a screenshot.
func TestHTMLShapes(t *testing.T) {
	t.Parallel()
	specs := strings.Split(htmlShapes(), " ")
	if len(specs) != 0x25A0-0x2500 {
		t.Fatalf("%d shapes, want one for each of U+2500-259F", len(specs))
	}
	white := &Theme{Background: color.RGBA{A: 0xff}, Foreground: color.RGBA{0xff, 0xff, 0xff, 0xff}, Cursor: color.RGBA{A: 0xff}}
	masks := map[rune]*[shapeGridH][shapeGridW]bool{}
	for k, spec := range specs {
		ru := rune(0x2500 + k)
		mask := new([shapeGridH][shapeGridW]bool)
		masks[ru] = mask
		for i := 0; i+4 <= len(spec); i += 4 {
			var v [4]int
			for j := range v {
				v[j] = strings.IndexByte("0123456789abcdefghijklmnopqrstuvwxyz", spec[i+j])
			}
			for y := v[1]; y < v[1]+v[3]; y++ {
				for x := v[0]; x < v[0]+v[2]; x++ {
					mask[y][x] = true
				}
			}
		}
		snap := renderBlank(1, 1)
		snap.Cells[0].Rune = ru
		img := Render(snap, RenderOptions{Theme: white, Scale: 2})
		for y := range shapeGridH {
			for x := range shapeGridW {
				if drawn := img.RGBAAt(x, y).R != 0; drawn != mask[y][x] {
					t.Errorf("U+%04X %c: pixel (%d,%d) is %v in the shape, %v in RenderImage", ru, ru, x, y, mask[y][x], drawn)
				}
			}
		}
	}
	for _, ru := range []rune{'│', '┃', '║', '█', '▐', '┼', '╬'} {
		m, any := masks[ru], false
		for x := range shapeGridW {
			any = any || m[0][x]
			if m[0][x] != m[shapeGridH-1][x] {
				t.Errorf("%c: column %d is %v at the top, %v at the bottom: it does not join the rows above and below", ru, x, m[0][x], m[shapeGridH-1][x])
			}
		}
		if !any {
			t.Errorf("%c does not reach the top of its cell", ru)
		}
	}
	for _, ru := range []rune{'─', '━', '═', '█', '▀', '┼', '╬'} {
		m, any := masks[ru], false
		for y := range shapeGridH {
			any = any || m[y][0]
			if m[y][0] != m[y][shapeGridW-1] {
				t.Errorf("%c: row %d is %v on the left, %v on the right: it does not join the cells beside", ru, y, m[y][0], m[y][shapeGridW-1])
			}
		}
		if !any {
			t.Errorf("%c does not reach the left of its cell", ru)
		}
	}
}
