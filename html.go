package main

// html.go: a screen for a browser page (the live view, the HTML trace,
// an MCP App page): the one encoding of a Snapshot every page gets, its
// cells drawn as RenderImage draws them, and the one script that paints
// it (htmlPainter) with its style sheet (htmlScreenCSS).
//
// A screen is {"cols","rows","cursor":[row,col,shape],"blank","title",
// "lines"}. Each line is a row, or the index of a row in a row table the
// page holds (a trace stores each distinct row once). A row is a list of
// runs, [style, text]: text is a string of one character a cell when
// each cell of the run is one narrow character, else a list of the
// cells' texts. A cell's text is its character and combining marks, a
// blank for an empty or hidden (SGR 8) cell, and "" for the right half
// of a wide character, which takes the wide character's style. The
// cells after the last one that is not a blank in the blank style are
// left out. style indexes the page's style table of htmlStyle.

import (
	"encoding/json"
	"fmt"
	"html/template"
	"image/color"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// htmlStyle is how cells look in a browser: the colours RenderImage
// paints them in (htmlColors) as #rrggbb, and the attributes it draws.
// A hidden cell (SGR 8) draws its background only: no line, no text.
type htmlStyle struct {
	FG        string `json:"fg"`
	BG        string `json:"bg"`
	Bold      bool   `json:"bold,omitempty"`
	Italic    bool   `json:"italic,omitempty"`
	Underline string `json:"underline,omitempty"` // "single", "double", "curly", "dotted" or "dashed"
	UL        string `json:"ul,omitempty"`        // the underline's colour, with Underline
	Strike    bool   `json:"strike,omitempty"`
	Overline  bool   `json:"overline,omitempty"`
}

// htmlUnderlines names the underline styles of SGR 4:1 to 4:5 by the
// value of Attr's AttrULMask bits; other values draw single.
var htmlUnderlines = [...]string{"single", "double", "curly", "dotted", "dashed"}

// htmlColors are the foreground, background and underline colours
// RenderImage paints cell c in with th, the cursor aside: cellColors,
// then the shades ░ ▒ ▓, drawn as full blocks in a mix (shadeInk).
func htmlColors(th *Theme, c Cell) (fg, bg, ul color.RGBA) {
	fg, bg, ul = cellColors(th, c)
	return shadeInk(c.Rune, fg, bg), bg, ul
}

// htmlStyleOf is c's style drawn with th.
func htmlStyleOf(th *Theme, c Cell) htmlStyle {
	fg, bg, ul := htmlColors(th, c)
	st := htmlStyle{FG: hexColor(fg), BG: hexColor(bg)}
	if c.Attr&AttrHidden != 0 {
		return st
	}
	st.Bold, st.Italic = c.Attr&AttrBold != 0, c.Attr&AttrItalic != 0
	st.Strike, st.Overline = c.Attr&AttrStrike != 0, c.Attr&AttrOverline != 0
	if c.Attr&AttrUnderline != 0 {
		st.Underline, st.UL = htmlUnderlines[0], hexColor(ul)
		if k := int(c.Attr&AttrULMask) >> AttrULShift; k < len(htmlUnderlines) {
			st.Underline = htmlUnderlines[k]
		}
	}
	return st
}

// htmlStyleID returns the index of st in a style table, list and its
// index, adding it at the end when it is new.
func htmlStyleID(list *[]htmlStyle, index map[htmlStyle]int, st htmlStyle) int {
	if i, ok := index[st]; ok {
		return i
	}
	*list = append(*list, st)
	index[st] = len(*list) - 1
	return len(*list) - 1
}

// htmlCellText is what cell i of s shows: its character and marks, a
// blank for an empty, control or hidden cell (as RenderImage, which
// draws no glyph there), "" for the right half of a wide character.
func htmlCellText(s *Snapshot, i int) string {
	c := s.Cells[i]
	switch {
	case c.Width == 0 && i%s.Cols > 0 && s.Cells[i-1].Width == 2:
		return ""
	case c.Attr&AttrHidden != 0:
		return " "
	case c.Rune < ' ' || c.Rune == 0x7f:
		return " " + s.Marks[i]
	}
	return string(c.Rune) + s.Marks[i]
}

// cellLook is what decides a cell's style in one theme: two cells with
// the same look have the same style.
type cellLook struct {
	fg, bg, ul Color
	attr       Attr
	shade      rune // the shade character, whose colour is a mix; 0 for any other
}

// lookOf is c's look.
func lookOf(c Cell) cellLook {
	return cellLook{c.FG, c.BG, c.UL, c.Attr, shadeKey(c.Rune)}
}

// htmlEncoder encodes the rows of one snapshot, drawn with one theme,
// against a style table.
type htmlEncoder struct {
	snap  *Snapshot
	th    *Theme // the snapshot's: DECSCNM applied
	id    func(htmlStyle) int
	looks map[cellLook]int // styles found so far
	blank int              // the style of an empty cell
	texts []string         // one row's, reused
	ids   []int
}

// newHTMLEncoder returns the encoder of snap drawn with th, whose style
// indexes id gives (adding the style to its table when new).
func newHTMLEncoder(snap *Snapshot, th *Theme, id func(htmlStyle) int) *htmlEncoder {
	e := &htmlEncoder{snap: snap, th: th.forScreen(snap), id: id, looks: map[cellLook]int{}}
	e.blank = e.style(Cell{Width: 1})
	return e
}

// style returns the index of c's style.
func (e *htmlEncoder) style(c Cell) int {
	k := lookOf(c)
	if i, ok := e.looks[k]; ok {
		return i
	}
	i := e.id(htmlStyleOf(e.th, c))
	e.looks[k] = i
	return i
}

// appendRow appends row r encoded (see the file's comment) to b.
func (e *htmlEncoder) appendRow(b []byte, r int) []byte {
	s := e.snap
	e.texts, e.ids = e.texts[:0], e.ids[:0]
	for i := r * s.Cols; i < (r+1)*s.Cols; i++ {
		t, id := htmlCellText(s, i), 0
		if t == "" {
			id = e.ids[len(e.ids)-1] // the wide character's
		} else {
			id = e.style(s.Cells[i])
		}
		e.texts, e.ids = append(e.texts, t), append(e.ids, id)
	}
	end := len(e.texts)
	for end > 0 && e.texts[end-1] == " " && e.ids[end-1] == e.blank {
		end--
	}
	b = append(b, '[')
	for i := 0; i < end; {
		j, simple := i, true
		for ; j < end && e.ids[j] == e.ids[i]; j++ {
			simple = simple && utf8.RuneCountInString(e.texts[j]) == 1 && (j+1 == end || e.texts[j+1] != "")
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(append(b, '['), int64(e.ids[i]), 10)
		b = append(b, ',')
		var text []byte
		if simple {
			text, _ = json.Marshal(strings.Join(e.texts[i:j], "")) // strings always encode
		} else {
			text, _ = json.Marshal(e.texts[i:j])
		}
		b = append(append(b, text...), ']')
		i = j
	}
	return append(b, ']')
}

// htmlScreen is one screen as every page gets it (see the file's
// comment); L is a row (json.RawMessage) or a row's index (int).
type htmlScreen[L json.RawMessage | int] struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
	// Cursor is row, column and shape: 0 hidden, 1 block, 2 underline,
	// 3 bar (DECSCUSR, DECTCEM).
	Cursor [3]int `json:"cursor"`
	Blank  int    `json:"blank,omitempty"` // the style of an empty cell
	Title  string `json:"title,omitempty"`
	Lines  []L    `json:"lines"`
}

// htmlScreenOf is the screen e encodes, each row r's line given by
// line(r).
func htmlScreenOf[L json.RawMessage | int](e *htmlEncoder, line func(r int) L) htmlScreen[L] {
	s := e.snap
	sc := htmlScreen[L]{Cols: s.Cols, Rows: s.Rows, Blank: e.blank, Title: string(sanitizeTitle(s.Title)), Lines: make([]L, s.Rows)}
	sc.Cursor = [3]int{s.Cursor.Row, s.Cursor.Col, 0}
	if s.Cursor.Visible {
		sc.Cursor[2] = int(s.Cursor.Shape) + 1
	}
	for r := range sc.Lines {
		sc.Lines[r] = line(r)
	}
	return sc
}

// htmlFrame is a screen with its rows and its own style table, and the
// theme's cursor colour (Caret, #rrggbb): one screen for a page that
// gets whole screens, as the live view does.
type htmlFrame struct {
	htmlScreen[json.RawMessage]
	Styles []htmlStyle `json:"styles"`
	Caret  string      `json:"caret"`
}

// newHTMLFrame encodes snap drawn with th as a frame. Its style 0 is the
// blank style.
func newHTMLFrame(snap *Snapshot, th *Theme) htmlFrame {
	f := htmlFrame{Styles: []htmlStyle{}, Caret: hexColor(th.Cursor)}
	index := map[htmlStyle]int{}
	e := newHTMLEncoder(snap, th, func(st htmlStyle) int { return htmlStyleID(&f.Styles, index, st) })
	var buf []byte
	f.htmlScreen = htmlScreenOf(e, func(r int) json.RawMessage {
		buf = e.appendRow(buf[:0], r)
		return json.RawMessage(string(buf))
	})
	return f
}

// htmlShapes are the rectangles RenderImage draws box drawing and block
// elements (U+2500-259F) with (png_box.go), for the painter to draw them
// the same, joined across cells and rows: per code point, space
// separated, rectangles of four base-36 digits, x, y, width and height
// on a grid of shapeGridW x shapeGridH units (a cell at scale 2).
func htmlShapes() string {
	var b strings.Builder
	for ru := rune(0x2500); ru <= 0x259F; ru++ {
		if ru > 0x2500 {
			b.WriteByte(' ')
		}
		for _, r := range shapeRects(ru) {
			for _, v := range r {
				b.WriteByte("0123456789abcdefghijklmnopqrstuvwxyz"[v])
			}
		}
	}
	return b.String()
}

// The grid htmlShapes is drawn on: a cell at scale 2.
const (
	shapeGridW = 16
	shapeGridH = 2 * fontHeight
)

// shapeRects is what drawGlyph draws for ru into one cell at scale 2, as
// rectangles {x, y, w, h}: the runs of each pixel row, a run that goes on
// unchanged in the next row grown down.
func shapeRects(ru rune) [][4]int {
	r := &raster{sc: 2, cw: shapeGridW, ch: shapeGridH, w: shapeGridW, h: shapeGridH}
	p := &painter[uint8]{raster: r, pix: make([]uint8, shapeGridW*shapeGridH), inks: []uint8{0, 1}}
	p.drawGlyph(ru, 0, 0, 1, 0, 1, false)
	var done, open [][4]int
	for y := 0; y < shapeGridH; y++ {
		var next [][4]int
		row := p.pix[y*shapeGridW : (y+1)*shapeGridW]
		for x := 0; x < shapeGridW; {
			if row[x] == 0 {
				x++
				continue
			}
			x1 := x
			for x1 < shapeGridW && row[x1] != 0 {
				x1++
			}
			run := [4]int{x, y, x1 - x, 1}
			for i, o := range open {
				if o[0] == x && o[2] == x1-x {
					run = [4]int{x, o[1], x1 - x, o[3] + 1}
					open = append(open[:i], open[i+1:]...)
					break
				}
			}
			next = append(next, run)
			x = x1
		}
		done, open = append(done, open...), next
	}
	return append(done, open...)
}

// htmlPainter is the one script that paints encoded screens, for every
// page that shows one (with htmlScreenCSS). It defines ttyScreen:
//
//   - ttyScreen.cells(row) reads an encoded row into one {t, s, w} per
//     column: text, style, and columns taken (2 for a wide character,
//     whose right half follows as {t: "", w: 0}).
//   - ttyScreen.paint(el, screen, styles, opt) draws a screen into el,
//     a div a row. opt.rows is the row table a screen's line indexes;
//     opt.caret the cursor's colour; opt.mark(row, col), when given, a
//     class for a cell's text ("" for none).
//   - ttyScreen.cellWidth(el) is the width of a column of a painted el.
//
// A row's text is inline spans, a span a run of cells in one style, so
// it is selected and found across spans as one line. Under it, boxes
// placed on the grid of columns paint the backgrounds, the row's full
// height, and the box drawing and block elements as RenderImage draws
// them (htmlShapes), their text kept for selecting and finding but not
// painted; so rows touch and lines join. Widths are the emulator's: a
// span with a character the font may draw at another width (a wide
// one, one outside ASCII) is measured and spaced to its columns.
var htmlPainter = sync.OnceValue(func() string {
	return fmt.Sprintf("const ttyShapes = {w: %d, h: %d, rects: %q};\n", shapeGridW, shapeGridH, htmlShapes()) + htmlPainterScript
})

const htmlPainterScript = `const ttyScreen = (function () {
  "use strict";
  const W = ttyShapes.w, H = ttyShapes.h, shapes = ttyShapes.rects.split(" "), drawn = {};
  const lines = {single: "solid", double: "double", curly: "wavy", dotted: "dotted", dashed: "dashed"};

  // shape is the rectangles [x, y, w, h] of code point cp on the grid of
  // W x H units a cell; null when cp is not drawn as a shape.
  function shape(cp) {
    if (cp < 0x2500 || cp > 0x259f) return null;
    if (!drawn[cp]) {
      const spec = shapes[cp - 0x2500] || "", out = [];
      for (let i = 0; i + 4 <= spec.length; i += 4) out.push(Array.from(spec.slice(i, i + 4), (d) => parseInt(d, 36)));
      drawn[cp] = out;
    }
    return drawn[cp];
  }

  function cells(row) {
    const out = [];
    for (const run of Array.isArray(row) ? row : []) {
      if (!Array.isArray(run)) continue;
      const s = run[0] | 0, t = run[1];
      for (const x of typeof t === "string" ? Array.from(t) : Array.isArray(t) ? t : []) {
        const last = out[out.length - 1];
        if (x === "" && last && last.w === 1) { last.w = 2; out.push({t: "", s: last.s, w: 0}); continue; }
        out.push({t: x === "" ? " " : String(x), s: s, w: 1});
      }
    }
    return out;
  }

  // box adds to div a box in color from column x to column x + w (in
  // columns, fractions allowed) and from top to bottom (fractions of the
  // row): placed by its insets from the row's edges, so that boxes that
  // meet on the grid meet on the screen.
  function box(div, cls, color, x, w, top, bottom) {
    const i = document.createElement("i");
    i.className = cls;
    i.style.left = "calc(" + x + " * 1ch)";
    i.style.right = "calc(100% - " + (x + w) + " * 1ch)";
    i.style.top = 100 * top + "%";
    i.style.bottom = 100 * (1 - bottom) + "%";
    i.style.background = color;
    div.appendChild(i);
  }

  // dress gives a text span the look of style st, its text in fg.
  function dress(span, st, fg, cur) {
    span.style.color = fg;
    if (st.bold) span.style.fontWeight = "bold";
    if (st.italic) span.style.fontStyle = "italic";
    const deco = [];
    if (st.underline) deco.push("underline");
    if (st.strike) deco.push("line-through");
    if (st.overline) deco.push("overline");
    if (deco.length) {
      span.style.textDecorationLine = deco.join(" ");
      span.style.textDecorationStyle = lines[st.underline] || "solid";
      if (st.ul && !cur && deco.length === 1) span.style.textDecorationColor = st.ul;
    }
  }

  // row draws one row (cells cs) into a div: its backgrounds, shapes and
  // cursor as boxes, then its text, a span a run of cells of one style
  // and mark, one of its own for the cursor's cell, a wide character and
  // a shape. A block cursor paints its cell's text in the cell's
  // background on the caret, as RenderImage does.
  function row(cs, r, scr, styles, opt, blankBG) {
    const div = document.createElement("div"), cols = scr.cols | 0, spans = [];
    div.className = "row";
    const cur = Array.isArray(scr.cursor) ? scr.cursor : [], curCol = cur[2] && cur[0] === r ? cur[1] : -1;
    let span = null, key = "", bg = null;
    for (let col = 0; col < cols;) {
      const c = cs[col] || {t: " ", s: scr.blank | 0, w: 1}, w = c.w === 2 && col + 1 < cols ? 2 : 1;
      const st = styles[c.s] || {}, isCur = curCol >= col && curCol < col + w, block = isCur && cur[2] === 1;
      const sh = shape(c.t.codePointAt(0)), odd = w === 2 || !sh && Array.from(c.t).some((x) => x < " " || x > "~");
      const fg = block ? st.bg : st.fg, back = block ? opt.caret : st.bg;
      if (bg && bg.color === back && bg.to === col) bg.to = col + w;
      else if (back !== blankBG) (bg = {color: back, from: col, to: col + w}, spans.push(bg));
      for (const [x, y, rw, rh] of sh || []) box(div, "shape", fg, col + x / W, rw / W, y / H, (y + rh) / H);
      if (isCur && cur[2] === 2) box(div, "caret", opt.caret, col, w, 14 / 16, 1);
      if (isCur && cur[2] === 3) box(div, "caret", opt.caret, col, 1 / 8, 0, 1);
      const mark = opt.mark ? opt.mark(r, col) || "" : "", k = c.s + " " + mark + " " + odd;
      if (!span || k !== key || w === 2 || sh || isCur || span.wide || span.cursor || span.shape) {
        span = document.createElement("span");
        span.dataset.c = col;
        span.className = [w === 2 ? "w" : "", sh ? "shape" : "", isCur ? "cursor" : "", mark].filter(Boolean).join(" ");
        dress(span, st, fg, isCur);
        Object.assign(span, {wide: w === 2, cursor: isCur, shape: !!sh, odd: odd, cols: 0});
        spans.push(span);
        key = k;
      }
      span.textContent += c.t;
      span.cols += w;
      col += w;
    }
    for (const x of spans) if (!(x instanceof Element)) box(div, "bg", x.color, x.from, x.to - x.from, 0, 1);
    for (const x of spans) if (x instanceof Element) div.appendChild(x);
    return div;
  }

  // cellWidth is the width of a column of el, a painted screen, in CSS
  // pixels.
  function cellWidth(el) {
    const probe = document.createElement("span");
    probe.className = "probe";
    probe.textContent = "0".repeat(100);
    el.appendChild(probe);
    const ch = probe.getBoundingClientRect().width / 100;
    probe.remove();
    return ch;
  }

  // fit spaces each span of characters the font may draw at another
  // width to the width of its columns.
  function fit(el) {
    const ch = cellWidth(el);
    const odd = [...el.querySelectorAll(".row > span")].filter((s) => s.odd);
    const widths = odd.map((s) => s.getBoundingClientRect().width);
    odd.forEach((s, i) => {
      const extra = s.cols * ch - widths[i], n = s.wide ? 1 : s.cols;
      if (Math.abs(extra) > 0.25) s.style.letterSpacing = extra / n + "px";
    });
  }

  function paint(el, scr, styles, opt) {
    opt = opt || {};
    styles = Array.isArray(styles) ? styles : [];
    const rows = Math.min(scr.rows | 0, 1000), blank = styles[scr.blank | 0] || {}, table = opt.rows || [];
    const frag = document.createDocumentFragment();
    for (let r = 0; r < rows; r++) {
      let line = Array.isArray(scr.lines) ? scr.lines[r] : null;
      if (typeof line === "number") line = table[line];
      frag.appendChild(row(cells(line), r, scr, styles, opt, blank.bg));
    }
    el.classList.add("tty");
    el.style.color = blank.fg || "";
    el.style.backgroundColor = blank.bg || "";
    el.replaceChildren(frag);
    el.dataset.rows = rows;
    el.dataset.cols = scr.cols | 0;
    fit(el);
  }

  return {cells: cells, paint: paint, cellWidth: cellWidth};
})();
`

// htmlPageFuncs give a page's template the painter, {{screenScript}} in
// a script element of its own, and its style sheet, {{screenStyle}} in a
// style element.
var htmlPageFuncs = template.FuncMap{
	"screenScript": func() template.JS { return template.JS(htmlPainter()) },
	"screenStyle":  func() template.CSS { return template.CSS(htmlScreenCSS) },
}

// htmlScreenCSS is the painter's style sheet: a row one line high and
// positioned, its boxes placed in it by their insets, its text spans
// inline and positioned after them, so they paint over the boxes, row
// after row; a shape's text is kept but not painted.
const htmlScreenCSS = `
.tty{display:inline-block;white-space:pre;font-family:"DejaVu Sans Mono",ui-monospace,Menlo,Consolas,monospace;line-height:1.25;font-variant-ligatures:none}
.tty .row{height:1.25em;position:relative}
.tty .row>i{position:absolute}
.tty .row>span{position:relative}
.tty .shape{-webkit-text-fill-color:transparent}
.tty .probe{position:absolute;visibility:hidden}
`
