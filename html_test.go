package main

// html_test.go: the browser encoding of a screen (html.go) read back
// cell by cell: what it says of each cell of real programs' screens is
// what RenderImage draws there; the places the live view and the trace
// drew wrong before (hidden text, strike-through, overline, combining
// marks, wide characters, the shapes that join across rows); the view
// and the trace encode a screen alike; both pages carry the one painter.

import (
	"encoding/json"
	"fmt"
	"image/color"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
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

// TestHTMLViewAndTrace: the live view's frame and the trace's store
// encode the same screen to the same cells and styles (the trace's rows
// by index into its row table), and what the live view drew wrong
// before is right in both: hidden text is not sent, strike-through and
// overline are, marks stay with their character, a wide character is a
// cell of two columns.
func TestHTMLViewAndTrace(t *testing.T) {
	t.Parallel()
	snap, th := htmlDivergences(), themeList[0]
	var view struct {
		Op string `json:"op"`
		htmlFrame
		Modes frameModes `json:"modes"`
	}
	frame := viewScreenFrame(snap, th)
	if err := json.Unmarshal(frame, &view); err != nil || view.Op != "screen" {
		t.Fatalf("the view's frame %s: %v", frame, err)
	}
	tr := newSessionTrace(traceMeta{ID: "s1", Cols: snap.Cols, Rows: snap.Rows, Theme: th, Started: time.Now()}, true)
	tr.Add(traceStep{Tool: "shell_read", Args: json.RawMessage(`{}`)}, snap, nil)
	doc := tr.doc()
	page, err := tr.HTML()
	if err != nil || len(doc.Screens) != 1 {
		t.Fatalf("trace: %d screens, %v", len(doc.Screens), err)
	}
	sc := doc.Screens[0]
	if sc.Cursor != view.Cursor || sc.Cols != view.Cols || sc.Title != view.Title || view.Cursor != [3]int{snap.Cursor.Row, snap.Cursor.Col, 1} {
		t.Errorf("cursor %v, %v; size %d, %d", sc.Cursor, view.Cursor, sc.Cols, view.Cols)
	}
	grid := func(lines []json.RawMessage, blank int, styles []htmlStyle) (out [][2]any) {
		for _, l := range lines {
			cells, err := readHTMLRow(l, snap.Cols, blank)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cells {
				out = append(out, [2]any{c, styles[c.Style]})
			}
		}
		return out
	}
	traceLines := make([]json.RawMessage, len(sc.Lines))
	for r, id := range sc.Lines {
		traceLines[r] = doc.Rows[id]
	}
	v, tc := grid(view.Lines, view.Blank, view.Styles), grid(traceLines, sc.Blank, doc.Styles)
	for i := range v {
		vc, tcell := v[i][0].(htmlCell), tc[i][0].(htmlCell)
		if vc.Text != tcell.Text || vc.W != tcell.W || v[i][1] != tc[i][1] {
			t.Errorf("cell %d: the view %+v %+v, the trace %+v %+v", i, vc, v[i][1], tcell, tc[i][1])
		}
	}
	at := func(row, col int) (htmlCell, htmlStyle) {
		i := row*snap.Cols + col
		return v[i][0].(htmlCell), v[i][1].(htmlStyle)
	}
	for _, where := range []string{string(frame), string(page)} {
		if strings.Contains(where, "secret") {
			t.Error("hidden (SGR 8) text reached a page")
		}
	}
	if c, st := at(3, 3); c.Text != " " || st.FG != st.BG {
		t.Errorf("a hidden cell: %+v %+v, want a blank in its background", c, st)
	}
	if c, st := at(3, 11); c.Text != "s" || !st.Strike {
		t.Errorf("strike-through: %+v %+v", c, st)
	}
	if c, st := at(3, 18); c.Text != "o" || !st.Overline {
		t.Errorf("overline: %+v %+v", c, st)
	}
	if c, _ := at(4, 0); c.Text != "e\u0301" || c.W != 1 {
		t.Errorf("a combining mark: %+v, want it with its character in one cell", c)
	}
	if c, _ := at(4, 2); c.Text != "a\u0308\u0323" {
		t.Errorf("two combining marks: %+v", c)
	}
	if c, _ := at(4, 5); c.Text != "日" || c.W != 2 {
		t.Errorf("a wide character: %+v, want two columns", c)
	}
	if c, _ := at(4, 6); c.Text != "" || c.W != 0 {
		t.Errorf("the right half of a wide character: %+v", c)
	}
	if c, st := at(5, 0); st.Underline != "curly" || st.UL != "#ff00ff" || c.Text != "c" {
		t.Errorf("a curly underline in magenta: %+v %+v", c, st)
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

// TestHTMLPagesShareThePainter: the trace page, the live view's page and
// the terminal app's document each carry the one painter (htmlPainter)
// and its style sheet once, and no other drawing of cells: no regular
// expression that guesses marks, no painter of their own.
func TestHTMLPagesShareThePainter(t *testing.T) {
	t.Parallel()
	tr := newSessionTrace(traceMeta{ID: "s1", Cols: 20, Rows: 2, Theme: themeList[0], Started: time.Now()}, true)
	tr.Add(traceStep{Tool: "shell_read", Args: json.RawMessage(`{}`)}, traceTerm(20, 2, "$ "), nil)
	trace, err := tr.HTML()
	if err != nil {
		t.Fatal(err)
	}
	d := newWebTestDoor(t, "")
	o := viewOffer(t, d, newViewFake(viewFrame("$ ")).page())
	view := webSend(t, "GET", o.URL, "", nil)
	for name, page := range map[string]string{"the trace": string(trace), "the view": view.body, "the app": appDocument()} {
		if n := strings.Count(page, htmlPainter()); n != 1 {
			t.Errorf("%s holds the painter %d times, want once", name, n)
		}
		if n := strings.Count(page, strings.TrimSpace(htmlScreenCSS)); n != 1 {
			t.Errorf("%s holds the painter's style sheet %d times, want once", name, n)
		}
		if n := strings.Count(page, "ttyScreen.paint("); n != 1 {
			t.Errorf("%s calls the painter %d times, want once", name, n)
		}
		for _, old := range []string{"markRe", `\p{Mn}`, "cellsOf", `className = "row"`} {
			if strings.Count(page, old) > strings.Count(htmlPainter(), old) {
				t.Errorf("%s draws cells itself: it holds %q", name, old)
			}
		}
	}
}

// browserCell is a cell as a browser should paint it, the cursor's
// included (as RenderImage draws a block cursor: the text in the cell's
// background on the caret): what the browser test
// (interop/trace_chromium_test.go) checks each cell of the page against.
type browserCell struct {
	T         string `json:"t"` // "" for the right half of a wide character
	W         int    `json:"w"` // columns: 1, 2 for a wide character, 0 for its right half
	FG        string `json:"fg"`
	BG        string `json:"bg"`
	Bold      bool   `json:"bold,omitempty"`
	Italic    bool   `json:"italic,omitempty"`
	Underline string `json:"underline,omitempty"`
	UL        string `json:"ul,omitempty"`
	Strike    bool   `json:"strike,omitempty"`
	Overline  bool   `json:"overline,omitempty"`
}

// browserCells are the cells of f, row by row.
func browserCells(t testing.TB, f htmlFrame) [][]browserCell {
	out := make([][]browserCell, f.Rows)
	for r := range f.Rows {
		cells, err := readHTMLRow(f.Lines[r], f.Cols, f.Blank)
		if err != nil {
			t.Fatal(err)
		}
		for col, c := range cells {
			st := f.Styles[c.Style]
			bc := browserCell{T: c.Text, W: c.W, FG: st.FG, BG: st.BG, Bold: st.Bold, Italic: st.Italic,
				Underline: st.Underline, UL: st.UL, Strike: st.Strike, Overline: st.Overline}
			cur := f.Cursor
			if cur[2] == 1 && cur[0] == r && (cur[1] == col || c.W == 0 && cur[1] == col-1 || c.W == 2 && cur[1] == col+1) {
				bc.FG, bc.BG, bc.UL = st.BG, f.Caret, ""
			}
			out[r] = append(out[r], bc)
		}
	}
	return out
}

// TestTraceScreensForBrowser writes, with TTYWRIGHT_TRACE_SCREENS=dir,
// dir/trace.html, a trace with one step a screen of htmlScreenCases in
// the one-dark theme (the step's tool is the screen's name), and
// dir/cells.json, for each step its screen's cells (browserCell), for
// the browser test (interop/trace_chromium_test.go) to check the
// painter against, cell by cell.
func TestTraceScreensForBrowser(t *testing.T) {
	dir := os.Getenv("TTYWRIGHT_TRACE_SCREENS")
	if dir == "" {
		t.Skip("writes the browser test's trace only with TTYWRIGHT_TRACE_SCREENS=dir")
	}
	th := themeList[0]
	tr := newSessionTrace(traceMeta{ID: "screens", Command: "testdata", Cols: 80, Rows: 24, Theme: th, Started: time.Now()}, true)
	var cells [][][]browserCell
	for _, tc := range htmlScreenCases(t) {
		if tc.th == th {
			tr.Add(traceStep{Tool: tc.name, Args: json.RawMessage(`{}`)}, tc.snap, nil)
			cells = append(cells, browserCells(t, newHTMLFrame(tc.snap, th)))
		}
	}
	page, err := tr.HTML()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(cells) // strings and booleans always encode
	if err := os.WriteFile(filepath.Join(dir, "trace.html"), page, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cells.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
