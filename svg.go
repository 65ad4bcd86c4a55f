package main

// svg.go: the SVG and plain-text forms of a screenshot, written beside the
// PNG: SVG is text over a cell grid, for docs that want selectable,
// scalable text, coloured as the PNG is (cellColors in theme.go). The ANSI
// form, for `cat` in a terminal, is screenANSI in vt_ansi.go.

import (
	"fmt"
	"image/color"
	"strings"
)

// SVG cell geometry: a 10x20 cell with a 16.5 px monospace font, whose
// advance (about 0.6 em) is close to 10; every run also gets textLength,
// so the grid holds whatever font the viewer picks.
const (
	svgCellW   = 10
	svgCellH   = 20
	svgFont    = 16.5
	svgBase    = 15 // baseline offset within a cell
	svgFrameH  = 32 // title bar height with a border
	svgFramePd = 12 // padding around the grid with a border
)

// snapshotSVG draws s as an SVG document: a background rectangle, one
// rectangle per run of non-default background, one <text> per run of
// equally styled characters, the cursor, and the frame when border is set.
func snapshotSVG(s *Snapshot, th *Theme, border *Border) string {
	if th == nil {
		th = themeList[0]
	}
	th = th.forScreen(s)
	gw, gh := s.Cols*svgCellW, s.Rows*svgCellH
	ox, oy, w, h := 0, 0, gw, gh
	if border != nil {
		ox, oy = svgFramePd, svgFrameH+svgFramePd/2
		w, h = gw+2*svgFramePd, gh+svgFrameH+svgFramePd*3/2
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<style>text{font-family:"DejaVu Sans Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:%gpx;white-space:pre}</style>`+"\n", svgFont)
	if border != nil {
		svgFrame(&b, s, th, border, w, h)
	} else {
		fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="%s"/>`+"\n", w, h, hexColor(th.Background))
	}
	fmt.Fprintf(&b, `<g transform="translate(%d %d)">`+"\n", ox, oy)
	g := svgGrid{b: &b, s: s, th: th}
	for row := 0; row < s.Rows; row++ {
		g.backgrounds(row)
		g.text(row)
	}
	g.cursor()
	b.WriteString("</g>\n</svg>\n")
	return b.String()
}

// svgFrame draws the window frame of a w x h pixel picture: the rounded
// background, the title bar with its three buttons and the title.
func svgFrame(b *strings.Builder, s *Snapshot, th *Theme, border *Border, w, h int) {
	fmt.Fprintf(b, `<rect width="%d" height="%d" rx="10" fill="%s"/>`+"\n", w, h, hexColor(th.Background))
	toward := color.RGBA{0xff, 0xff, 0xff, 0xff}
	if th.Type == "light" {
		toward = color.RGBA{0, 0, 0, 0xff}
	}
	bar := mix(th.Background, toward, 20)
	fmt.Fprintf(b, `<path d="M0 %d V10 A10 10 0 0 1 10 0 H%d A10 10 0 0 1 %d 10 V%d Z" fill="%s"/>`+"\n",
		svgFrameH, w-10, w, svgFrameH, hexColor(bar))
	for i, c := range []string{"#ff5f57", "#febc2e", "#28c840"} {
		fmt.Fprintf(b, `<circle cx="%d" cy="%d" r="6" fill="%s"/>`+"\n", 20+20*i, svgFrameH/2, c)
	}
	title := border.Title
	if title == "" {
		title = s.Title
	}
	if title != "" {
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle" fill="%s">%s</text>`+"\n",
			w/2, svgFrameH/2+5, hexColor(mix(bar, th.Foreground, 200)), svgEscape(title))
	}
}

// svgGrid writes a snapshot's cells as SVG elements, row by row.
type svgGrid struct {
	b  *strings.Builder
	s  *Snapshot
	th *Theme
}

// cell is the cell at index i, a blank past the end of a short snapshot.
func (g svgGrid) cell(i int) Cell {
	if i < len(g.s.Cells) {
		return g.s.Cells[i]
	}
	return Cell{Width: 1}
}

// cursorAt reports whether a block cursor covers the cell (row, col).
func (g svgGrid) cursorAt(row, col int) bool {
	cur := g.s.Cursor
	return cur.Visible && cur.Shape == CursorBlock && row == cur.Row && col == cur.Col
}

// backgrounds draws row's non-default backgrounds, merged into runs.
func (g svgGrid) backgrounds(row int) {
	s, th := g.s, g.th
	for col := 0; col < s.Cols; {
		_, bg, _ := cellColors(th, g.cell(row*s.Cols+col))
		end := col + 1
		for end < s.Cols {
			if _, b2, _ := cellColors(th, g.cell(row*s.Cols+end)); b2 != bg {
				break
			}
			end++
		}
		if bg != th.Background {
			fmt.Fprintf(g.b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>`+"\n",
				col*svgCellW, row*svgCellH, (end-col)*svgCellW, svgCellH, hexColor(bg))
		}
		col = end
	}
}

// text draws row's characters in runs of one style, each stretched over
// its cells (textLength) so the grid holds in any monospace font.
func (g svgGrid) text(row int) {
	s, th := g.s, g.th
	for col := 0; col < s.Cols; {
		c := g.cell(row*s.Cols + col)
		if c.Width == 0 || c.Rune == 0 || c.Rune == ' ' || c.Attr&AttrHidden != 0 {
			col++
			continue
		}
		style := svgTextStyle(th, c, g.cursorAt(row, col))
		var text strings.Builder
		start, cells := col, 0
		for col < s.Cols {
			c2 := g.cell(row*s.Cols + col)
			if c2.Width == 0 {
				col++
				cells++
				continue
			}
			if c2.Rune == 0 || c2.Attr&AttrHidden != 0 || svgTextStyle(th, c2, g.cursorAt(row, col)) != style {
				break
			}
			text.WriteRune(c2.Rune)
			text.WriteString(s.Marks[row*s.Cols+col])
			col++
			cells++
		}
		t := strings.TrimRight(text.String(), " ")
		n := cells - (len(text.String()) - len(t)) // trailing spaces are one cell each
		if t == "" {
			continue
		}
		fmt.Fprintf(g.b, `<text x="%d" y="%d" textLength="%d" lengthAdjust="spacingAndGlyphs"%s>%s</text>`+"\n",
			start*svgCellW, row*svgCellH+svgBase, n*svgCellW, style, svgEscape(t))
	}
}

// cursor draws the visible cursor in its shape.
func (g svgGrid) cursor() {
	cur, s, th := g.s.Cursor, g.s, g.th
	if !cur.Visible || cur.Row < 0 || cur.Row >= s.Rows || cur.Col < 0 || cur.Col >= s.Cols {
		return
	}
	x, y := cur.Col*svgCellW, cur.Row*svgCellH
	switch cur.Shape {
	case CursorUnderline:
		fmt.Fprintf(g.b, `<rect x="%d" y="%d" width="%d" height="2" fill="%s"/>`+"\n", x, y+svgCellH-2, svgCellW, hexColor(th.Cursor))
	case CursorBar:
		fmt.Fprintf(g.b, `<rect x="%d" y="%d" width="2" height="%d" fill="%s"/>`+"\n", x, y, svgCellH, hexColor(th.Cursor))
	default:
		fmt.Fprintf(g.b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" fill-opacity="0.7"/>`+"\n", x, y, svgCellW, svgCellH, hexColor(th.Cursor))
	}
}

// svgTextStyle is the attribute string of a text run: fill, weight,
// style, decorations.
func svgTextStyle(th *Theme, c Cell, underCursor bool) string {
	fg, bg, _ := cellColors(th, c)
	if underCursor {
		fg = bg
	}
	var b strings.Builder
	fmt.Fprintf(&b, ` fill="%s"`, hexColor(fg))
	if c.Attr&AttrBold != 0 {
		b.WriteString(` font-weight="bold"`)
	}
	if c.Attr&AttrItalic != 0 {
		b.WriteString(` font-style="italic"`)
	}
	if deco := textDecorations(c.Attr); deco != "" {
		fmt.Fprintf(&b, ` text-decoration="%s"`, deco)
	}
	return b.String()
}

// svgEscape escapes XML text and drops characters XML 1.0 forbids.
func svgEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r < 0x20 && r != '\t', r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			b.WriteRune(0xFFFD)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// snapshotText returns the screen as plain text: one line a row, wide
// characters once, combining marks after their base, trailing blanks and
// trailing empty rows removed, each line ending in "\n".
func snapshotText(s *Snapshot) string {
	lines := make([]string, s.Rows)
	for row := range lines {
		lines[row] = s.RowText(row)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// textDecorations is a's lines as a CSS and SVG text-decoration value
// ("underline line-through overline", in that order), "" for none.
func textDecorations(a Attr) string {
	var deco []string
	if a&AttrUnderline != 0 {
		deco = append(deco, "underline")
	}
	if a&AttrStrike != 0 {
		deco = append(deco, "line-through")
	}
	if a&AttrOverline != 0 {
		deco = append(deco, "overline")
	}
	return strings.Join(deco, " ")
}
