package main

// png.go: rasterising a screen snapshot with the embedded bitmap font, and
// encoding it as PNG.
//
// A cell is 8x16 font pixels; at scale n each font pixel is an n x n
// square, so a 120x40 screen at scale 2 is 1920x1280 pixels. Drawing goes
// straight into the pixel slice of the image: backgrounds a row of cells
// at a time, then each cell's glyph as runs of set bits. Box drawing
// (U+2500-257F), block elements (U+2580-259F) and sextants (U+1FB00-1FB3B)
// are drawn as rectangles
// in device pixels rather than from the font, so lines meet exactly at cell
// edges at every scale and bold never smears them.
//
// Terminal screens use few colours, so the renderer first resolves every
// cell's colours into a palette. With at most 256 colours (nearly always)
// it draws one byte a pixel into an *image.Paletted, which is a quarter of
// the memory traffic, encodes without PNG filtering and gives GIF encoders
// an exact palette; otherwise it draws into an *image.RGBA.

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"io"
	"runtime"
	"sync"
)

// Border is the optional window frame around a capture.
type Border struct {
	Style string `json:"style"`           // "macos"
	Title string `json:"title,omitempty"` // default: the terminal title (OSC 0/2)
}

// RenderOptions controls RenderImage.
type RenderOptions struct {
	Theme  *Theme  // nil = the default theme (one-dark)
	Scale  int     // integer pixel scale, 1-4; a cell is 8*Scale x 16*Scale pixels (values outside 1-4 are clamped)
	Border *Border // nil = no frame
	Layout Layout  // the zero Layout: the picture is the cells (and the frame), no more
}

// Layout places the picture on a larger canvas, as a tape's Width,
// Height, Padding and Margin ask (VHS's geometry): Pad pixels of the
// theme's background around the cells, inside the window (the frame,
// when there is one), Margin pixels of MarginFill around the window, and
// the whole at least Size pixels, what Size adds going to the window's
// right and bottom, as a terminal leaves the pixels its cells do not
// fill. Negative values count as 0.
type Layout struct {
	Size       image.Point
	Pad        int
	Margin     int
	MarginFill color.RGBA // zero: the theme's background
}

// RenderImage draws a screen snapshot and returns an *image.Paletted whose
// palette holds exactly the colours used (in order of first use, the
// theme's background first, at most 256), or an *image.RGBA when the
// screen uses more colours (truecolor gradients). The image is
// Cols*8*Scale x Rows*16*Scale pixels, plus the frame when opt.Border is
// set, and depends only on s and opt: the same screen gives the same
// pixels.
//
// What is drawn, per cell: background and foreground (default, 16 ANSI
// from the theme, the 256-colour cube and grey ramp, truecolor); bold as
// the bold face of the font, or the regular glyph overstruck one pixel to
// the right where the bold face lacks it (never for box drawing, blocks,
// braille or Powerline glyphs); bold text in palette colours 0-7 is also
// drawn in the bright colour 8-15, as xterm does (except in themes with
// PlainBold); dim as the foreground
// mixed halfway to the background; italic as glyph rows slanted right;
// underline (single, double, curly, dotted, dashed, in the SGR 58 colour
// when set); strikethrough; overline; inverse; hidden (background only);
// blink is drawn steady. Wide characters span two cells; combining marks
// (Snapshot.Marks) are ORed onto their base cell; a code point the font
// lacks is drawn as a hollow box. The cursor is drawn in its DECSCUSR
// shape (block, underline, bar) in the theme's cursor colour, only when
// visible (DECTCEM). A screen in reverse video (DECSCNM) swaps the
// theme's default foreground and background.
func RenderImage(s *Snapshot, opt RenderOptions) image.Image {
	r := newRaster(s, opt)
	if len(r.pal) <= 256 {
		pix := make([]uint8, r.w*r.h)
		inks := make([]uint8, len(r.pal))
		for i := range inks {
			inks[i] = uint8(i)
		}
		paint(r, pix, inks)
		return &image.Paletted{Pix: pix, Stride: r.w, Rect: image.Rect(0, 0, r.w, r.h), Palette: r.palette()}
	}
	pix := make([]uint32, r.w*r.h)
	inks := make([]uint32, len(r.pal))
	for i, c := range r.pal {
		inks[i] = uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
	}
	paint(r, pix, inks)
	img := image.NewRGBA(image.Rect(0, 0, r.w, r.h))
	for i, v := range pix {
		binary.LittleEndian.PutUint32(img.Pix[4*i:], v)
	}
	return img
}

// palettedToRGBA expands p into dst and returns it; when dst is nil or
// of another size it allocates a new image instead. The recorder passes
// the same dst for every frame, which saves a large allocation per frame.
func palettedToRGBA(p *image.Paletted, dst *image.RGBA) *image.RGBA {
	if dst == nil || dst.Rect != p.Rect {
		dst = image.NewRGBA(p.Rect)
	}
	var lut [256]uint32 // RGBA bytes, little-endian
	for i, c := range p.Palette {
		r, g, b, a := c.RGBA()
		lut[i] = r>>8 | g>>8<<8 | b>>8<<16 | a>>8<<24
	}
	for i, v := range p.Pix {
		binary.LittleEndian.PutUint32(dst.Pix[4*i:], lut[v])
	}
	return dst
}

// pngBuffers lets consecutive encodes reuse the encoder's buffers.
type pngBuffers struct{ sync.Pool }

func (p *pngBuffers) Get() *png.EncoderBuffer {
	b, _ := p.Pool.Get().(*png.EncoderBuffer)
	return b
}
func (p *pngBuffers) Put(b *png.EncoderBuffer) { p.Pool.Put(b) }

var pngEncoder = &png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngBuffers{}}

// encodePNG writes img as PNG with image/png at BestSpeed (screens are
// mostly flat colour, so better levels buy little size for much time).
// A paletted image of 16 colours or fewer gets its palette padded to 17
// entries: image/png then takes its 8-bit path, which copies rows, instead
// of packing 1, 2 or 4 bits through an interface call per pixel (about
// twice as slow). The same image always gives the same bytes with the same
// Go version.
func encodePNG(w io.Writer, img image.Image) error {
	if p, ok := img.(*image.Paletted); ok && len(p.Palette) <= 16 {
		padded := *p
		padded.Palette = make(color.Palette, 17)
		copy(padded.Palette, p.Palette)
		for i := len(p.Palette); i < len(padded.Palette); i++ {
			padded.Palette[i] = color.RGBA{A: 0xff}
		}
		img = &padded
	}
	return pngEncoder.Encode(w, img)
}

// Geometry of the macOS-style frame, in font pixels (multiplied by the scale).
const (
	frameTitleBar = 28 // title bar height
	framePadX     = 10 // left and right padding around the cells
	framePadTop   = 6  // below the title bar
	framePadBot   = 10
	frameRadius   = 10 // window corner radius
	frameButton   = 6  // window button radius
)

// raster is one render in progress: geometry, the palette, and each
// cell's resolved colours as palette indices.
type raster struct {
	s      *Snapshot
	th     *Theme
	sc     int // scale
	cw, ch int // cell size in pixels
	ox, oy int // top-left pixel of the cell grid
	w, h   int // image size in pixels
	fx, fy int // the window: the cells, their padding and the frame, inside the margin
	fw, fh int
	frame  bool
	title  string

	outside uint16 // the margin's ink, and a framed window's corners' when there is a margin

	pal      []color.RGBA
	palIdx   map[color.RGBA]uint16
	cellInks []cellInk // per cell
	cursor   cursorDraw

	// Frame colours (palette indices), when frame is set.
	clear, bar, barLine, titleInk uint16
	buttons                       [3]uint16 // close, minimise, zoom

	regular, bold *fontFace // nil draws every glyph as missing
}

// cellInk is a cell's resolved foreground, background and underline
// colours as palette indices.
type cellInk struct{ fg, bg, ul uint16 }

// cursorDraw is the cursor to draw after the cells, if any.
type cursorDraw struct {
	show     bool
	row, col int
	cells    int // 1 or 2 (on a wide character)
	shape    CursorShape
	ink      uint16 // cursor colour (a block cursor is drawn as the cell's colours)
}

func newRaster(s *Snapshot, opt RenderOptions) *raster {
	th := opt.Theme
	if th == nil {
		th = themeList[0]
	}
	th = th.forScreen(s)
	sc := min(max(opt.Scale, 1), 4)
	r := &raster{s: s, th: th, sc: sc, cw: 8 * sc, ch: fontHeight * sc, palIdx: map[color.RGBA]uint16{}}
	r.regular, r.bold, _ = fonts() // a nil face draws every glyph as missing
	cols, rows := max(s.Cols, 0), max(s.Rows, 0)
	pad, margin := max(opt.Layout.Pad, 0), max(opt.Layout.Margin, 0)
	r.ox, r.oy = pad, pad // of the cells in the window
	r.fw, r.fh = cols*r.cw+2*pad, rows*r.ch+2*pad
	r.ink(th.Background) // palette index 0
	if opt.Border != nil {
		r.ox, r.oy = r.ox+framePadX*sc, r.oy+(frameTitleBar+framePadTop)*sc
		r.fw += 2 * framePadX * sc
		r.fh += (frameTitleBar + framePadTop + framePadBot) * sc
	}
	r.w, r.h = max(opt.Layout.Size.X, r.fw+2*margin), max(opt.Layout.Size.Y, r.fh+2*margin)
	r.fx, r.fy, r.fw, r.fh = margin, margin, r.w-2*margin, r.h-2*margin
	r.ox, r.oy = r.ox+margin, r.oy+margin
	r.outside = r.ink(th.Background)
	if margin > 0 && opt.Layout.MarginFill.A != 0 {
		r.outside = r.ink(opt.Layout.MarginFill)
	}
	if opt.Border != nil {
		r.frame = true
		r.title = opt.Border.Title
		if r.title == "" {
			r.title = s.Title
		}
		toward := color.RGBA{0xff, 0xff, 0xff, 0xff}
		if th.Type == "light" {
			toward = color.RGBA{0, 0, 0, 0xff}
		}
		barc := mix(th.Background, toward, 20)
		r.clear = r.ink(color.RGBA{})
		if margin > 0 {
			r.clear = r.outside
		}
		r.bar = r.ink(barc)
		r.barLine = r.ink(mix(th.Background, color.RGBA{0, 0, 0, 0xff}, 64))
		r.titleInk = r.ink(mix(barc, th.Foreground, 200))
		r.buttons = [3]uint16{r.ink(themeHex("#ff5f57")), r.ink(themeHex("#febc2e")), r.ink(themeHex("#28c840"))}
	}
	r.resolve()
	return r
}

// ink returns the palette index of c, adding it on first use.
func (r *raster) ink(c color.RGBA) uint16 {
	if i, ok := r.palIdx[c]; ok {
		return i
	}
	i := uint16(min(len(r.pal), 0xffff))
	r.pal = append(r.pal, c)
	r.palIdx[c] = i
	return i
}

func (r *raster) palette() color.Palette {
	p := make(color.Palette, len(r.pal))
	for i, c := range r.pal {
		p[i] = c
	}
	return p
}

// cell returns cell i, or a blank cell when the snapshot is short.
func (r *raster) cell(i int) Cell {
	if i < len(r.s.Cells) {
		return r.s.Cells[i]
	}
	return Cell{Width: 1}
}

// resolve computes every cell's colours (SGR bold-brightening, inverse,
// dim, hidden, block cursor, shades) and the cursor to draw.
func (r *raster) resolve() {
	s, th := r.s, r.th
	n := max(s.Cols, 0) * max(s.Rows, 0)
	r.cellInks = make([]cellInk, n)

	cur := s.Cursor
	if cur.Visible && cur.Row >= 0 && cur.Row < s.Rows && cur.Col >= 0 && cur.Col < s.Cols {
		i := cur.Row*s.Cols + cur.Col
		if r.cell(i).Width == 0 && cur.Col > 0 && r.cell(i-1).Width == 2 {
			cur.Col-- // on the right half of a wide character
			i--
		}
		r.cursor = cursorDraw{show: true, row: cur.Row, col: cur.Col, cells: 1, shape: cur.Shape}
		if r.cell(i).Width == 2 && cur.Col+1 < s.Cols {
			r.cursor.cells = 2
		}
		r.cursor.ink = r.ink(th.Cursor)
	}

	var last Cell
	var lastInk cellInk
	cached := false // last and lastInk hold a cell's, not the cursor's
	for i := range n {
		c := r.cell(i)
		cursorHere := r.cursor.show && r.cursor.shape == CursorBlock && i/s.Cols == r.cursor.row &&
			i%s.Cols >= r.cursor.col && i%s.Cols < r.cursor.col+r.cursor.cells
		key := c
		key.Rune, key.Width, key.Link = shadeKey(c.Rune), 0, 0
		if cached && key == last && !cursorHere {
			r.cellInks[i] = lastInk // runs of equally styled cells are the common case
			continue
		}
		fg, bg, ul := cellColors(th, c)
		if cursorHere { // text under a block cursor takes the cell's background colour
			fg, bg = bg, th.Cursor
			ul = fg
		}
		fg = shadeInk(c.Rune, fg, bg)
		ink := cellInk{fg: r.ink(fg), bg: r.ink(bg), ul: r.ink(ul)}
		r.cellInks[i] = ink
		if !cursorHere {
			last, lastInk, cached = key, ink, true
		}
	}
}

// shadeInk is the colour a cell of rune r is drawn in with foreground
// fg on bg: for the shades ░ ▒ ▓, drawn as full blocks, fg mixed into
// bg by a quarter, a half and three quarters; else fg.
func shadeInk(r rune, fg, bg color.RGBA) color.RGBA {
	switch r {
	case 0x2591:
		return mix(bg, fg, 64)
	case 0x2592:
		return mix(bg, fg, 128)
	case 0x2593:
		return mix(bg, fg, 192)
	}
	return fg
}

// shadeKey keeps the shade characters apart from other runes when cells
// are compared for equal colours; every other rune compares equal.
func shadeKey(r rune) rune {
	if r >= 0x2591 && r <= 0x2593 {
		return r
	}
	return 0
}

// painter draws a raster into a pixel slice of P: palette indices (uint8)
// or packed little-endian RGBA (uint32).
type painter[P uint8 | uint32] struct {
	*raster
	pix  []P
	inks []P // palette index -> pixel value
}

func paint[P uint8 | uint32](r *raster, pix []P, inks []P) {
	p := &painter[P]{raster: r, pix: pix, inks: inks}
	if inks[0] != 0 { // a fresh paletted image is already all index 0, the background
		p.fill(0, 0, r.w, r.h, 0)
	}
	if r.outside != 0 { // the margin, around the window
		p.fill(0, 0, r.w, r.fy, r.outside)
		p.fill(0, r.fy+r.fh, r.w, r.h-r.fy-r.fh, r.outside)
		p.fill(0, r.fy, r.fx, r.fh, r.outside)
		p.fill(r.fx+r.fw, r.fy, r.w-r.fx-r.fw, r.fh, r.outside)
	}
	if r.frame {
		p.frame()
	}
	// Rows of cells touch disjoint pixel rows, so large screens are drawn
	// in two halves at once.
	rows := func(from, to int) {
		for row := from; row < to; row++ {
			p.rowBackground(row)
			for col := 0; col < r.s.Cols; col++ {
				p.drawCell(row, col)
			}
		}
	}
	if half := r.s.Rows / 2; r.s.Rows*r.s.Cols >= 2000 && runtime.GOMAXPROCS(0) > 1 {
		var wg sync.WaitGroup
		wg.Go(func() { rows(0, half) })
		rows(half, r.s.Rows)
		wg.Wait()
	} else {
		rows(0, r.s.Rows)
	}
	if r.cursor.show {
		p.drawCursor()
	}
}

// fill paints a pixel rectangle, clipped to the image.
func (p *painter[P]) fill(x, y, w, h int, ink uint16) {
	x0, y0, x1, y1 := max(x, 0), max(y, 0), min(x+w, p.w), min(y+h, p.h)
	if x0 >= x1 || y0 >= y1 {
		return
	}
	v := p.inks[ink]
	first := p.pix[y0*p.w+x0 : y0*p.w+x1]
	for i := range first {
		first[i] = v
	}
	for y := y0 + 1; y < y1; y++ {
		copy(p.pix[y*p.w+x0:y*p.w+x1], first)
	}
}

// rowBackground paints the backgrounds of one row of cells: the first
// pixel line cell by cell, then copies of it.
func (p *painter[P]) rowBackground(row int) {
	cols := p.s.Cols
	plain := true
	for _, ci := range p.cellInks[row*cols : (row+1)*cols] {
		plain = plain && ci.bg == 0
	}
	if plain {
		return // already the theme background
	}
	y := p.oy + row*p.ch
	line := p.pix[y*p.w+p.ox : y*p.w+p.ox+cols*p.cw]
	for col := 0; col < cols; col++ {
		v := p.inks[p.cellInks[row*cols+col].bg]
		seg := line[col*p.cw : (col+1)*p.cw]
		for i := range seg {
			seg[i] = v
		}
	}
	for k := 1; k < p.ch; k++ {
		copy(p.pix[(y+k)*p.w+p.ox:], line)
	}
}

// drawCell draws the foreground of one cell: glyph, marks, lines.
func (p *painter[P]) drawCell(row, col int) {
	s := p.s
	i := row*s.Cols + col
	c := p.cell(i)
	if c.Width == 0 && col > 0 && p.cell(i-1).Width == 2 {
		return // right half of a wide character, drawn with the left half
	}
	ink := p.cellInks[i]
	if c.Attr&AttrHidden != 0 {
		return
	}
	cells := 1
	if c.Width == 2 && col+1 < s.Cols {
		cells = 2
	}
	x, y := p.ox+col*p.cw, p.oy+row*p.ch
	if c.Rune > ' ' {
		p.drawGlyph(c.Rune, x, y, cells, c.Attr, ink.fg, p.spillable(row, col+1))
	}
	if marks := s.Marks[i]; marks != "" {
		for _, m := range marks {
			rows, wide, ok := p.regular.glyphRows(m)
			if !ok || wide {
				continue
			}
			off := 0
			if cells == 2 {
				off = 4 // centre over a wide base
			}
			p.drawRows(&rows, x+off*p.sc, y, 8, ink.fg)
		}
	}
	if c.Attr&AttrUnderline != 0 {
		p.underline(x, y, cells, col, Attr(c.Attr&AttrULMask)>>AttrULShift, ink.ul)
	}
	if c.Attr&AttrStrike != 0 {
		p.fill(x, y+8*p.sc, cells*p.cw, p.sc, ink.fg)
	}
	if c.Attr&AttrOverline != 0 {
		p.fill(x, y, cells*p.cw, p.sc, ink.fg)
	}
}

// spillable reports whether a 16-pixel glyph in a narrow cell may draw
// over the next cell: it must exist, be blank and have the same background.
func (p *painter[P]) spillable(row, col int) bool {
	if col >= p.s.Cols {
		return false
	}
	i := row*p.s.Cols + col
	c := p.cell(i)
	return (c.Rune == 0 || c.Rune == ' ') && c.Width == 1 && c.Attr&(AttrUnderline|AttrStrike|AttrOverline) == 0 &&
		p.cellInks[i].bg == p.cellInks[i-1].bg
}

// noEmbolden reports whether synthetic bold must leave r alone: box
// drawing, blocks, braille and Powerline glyphs must keep their geometry.
func noEmbolden(r rune) bool {
	return r >= 0x2500 && r <= 0x259F || r >= 0x2800 && r <= 0x28FF || r >= 0xE0A0 && r <= 0xE0D4
}

// drawGlyph draws rune ru over cells cells at pixel (x, y).
func (p *painter[P]) drawGlyph(ru rune, x, y, cells int, attr Attr, ink uint16, spill bool) {
	switch {
	case ru >= 0x2500 && ru <= 0x257F:
		p.boxDrawing(ru, x, y, ink)
		return
	case ru >= 0x2580 && ru <= 0x259F:
		p.blockElement(ru, x, y, ink)
		return
	case ru >= 0x1FB00 && ru <= 0x1FB3B:
		p.sextant(ru, x, y, ink)
		return
	case ru >= 0xE0B4 && ru <= 0xE0B7:
		p.powerlineRound(ru, x, y, ink)
		return
	}
	var rows [fontHeight]uint16
	var wide, ok bool
	synth := false
	if attr&AttrBold != 0 {
		rows, wide, ok = p.bold.glyphRows(ru)
		synth = !ok && !noEmbolden(ru)
	}
	if !ok {
		rows, wide, ok = p.regular.glyphRows(ru)
	}
	if !ok {
		p.missing(x, y, cells, ink)
		return
	}
	width := 8 // font pixels drawn
	switch {
	case wide && cells == 2, wide && spill:
		width = 16
	case wide: // a 16-pixel glyph in a narrow cell next to text: squeeze it
		for i, m := range rows {
			var n uint16
			for b := 0; b < 8; b++ {
				if m&(0xC000>>(2*b)) != 0 {
					n |= 0x8000 >> b
				}
			}
			rows[i] = n
		}
	case cells == 2: // a narrow glyph in a wide cell: centre it
		x += 4 * p.sc
	}
	mask := uint16(0xFFFF) << (16 - width)
	if synth {
		for i, m := range rows {
			rows[i] = (m | m>>1) & mask
		}
	}
	if attr&AttrItalic != 0 {
		for i, m := range rows {
			rows[i] = m >> italicShift(i) & mask
		}
	}
	p.drawRows(&rows, x, y, width, ink)
}

// italicShift is how far row y of a glyph moves right when slanted: two
// font pixels at the top, none from the baseline region down.
func italicShift(y int) int { return max(0, 11-y) / 4 }

// drawRows paints the set bits of 16 glyph rows (leftmost pixel in bit 15,
// width font pixels used) at pixel (x, y), in runs.
func (p *painter[P]) drawRows(rows *[fontHeight]uint16, x, y, width int, ink uint16) {
	sc := p.sc
	v := p.inks[ink]
	for gy, m := range rows {
		if m == 0 {
			continue
		}
		for bx := 0; bx < width; {
			if m&(0x8000>>bx) == 0 {
				bx++
				continue
			}
			end := bx + 1
			for end < width && m&(0x8000>>end) != 0 {
				end++
			}
			px0, px1 := x+bx*sc, x+end*sc
			if px1 > p.w {
				px1 = p.w
			}
			for k := 0; k < sc; k++ {
				py := y + gy*sc + k
				if py >= p.h || px0 >= px1 {
					break
				}
				seg := p.pix[py*p.w+px0 : py*p.w+px1]
				for i := range seg {
					seg[i] = v
				}
			}
			bx = end
		}
	}
}

// missing draws the replacement for a glyph the font lacks: a hollow box
// the width of the cell(s).
func (p *painter[P]) missing(x, y, cells int, ink uint16) {
	sc := p.sc
	w := cells*p.cw - 2*sc
	x0, y0, h := x+sc, y+2*sc, 12*sc
	p.fill(x0, y0, w, sc, ink)
	p.fill(x0, y0+h-sc, w, sc, ink)
	p.fill(x0, y0, sc, h, ink)
	p.fill(x0+w-sc, y0, sc, h, ink)
}

// underline draws SGR 4 in its style (4:1 single, 4:2 double, 4:3 curly,
// 4:4 dotted, 4:5 dashed). Patterns run on absolute font-pixel columns so
// they continue across cells.
func (p *painter[P]) underline(x, y, cells, col int, style Attr, ink uint16) {
	sc := p.sc
	w := cells * 8 // font pixels
	switch style {
	case 1: // double
		p.fill(x, y+13*sc, w*sc, sc, ink)
		p.fill(x, y+15*sc, w*sc, sc, ink)
	case 2: // curly: a wave over rows 13-15
		for fx := 0; fx < w; fx++ {
			off := [4]int{0, 1, 2, 1}[(col*8+fx)/2%4]
			p.fill(x+fx*sc, y+(13+off)*sc, sc, sc, ink)
		}
	case 3: // dotted
		for fx := 0; fx < w; fx++ {
			if (col*8+fx)%2 == 0 {
				p.fill(x+fx*sc, y+14*sc, sc, sc, ink)
			}
		}
	case 4: // dashed
		for fx := 0; fx < w; fx++ {
			if (col*8+fx)%6 < 4 {
				p.fill(x+fx*sc, y+14*sc, sc, sc, ink)
			}
		}
	default:
		p.fill(x, y+14*sc, w*sc, sc, ink)
	}
}

// drawCursor draws an underline or bar cursor; a block cursor was drawn
// as the cell's colours.
func (p *painter[P]) drawCursor() {
	c := p.cursor
	x, y := p.ox+c.col*p.cw, p.oy+c.row*p.ch
	switch c.shape {
	case CursorUnderline:
		p.fill(x, y+14*p.sc, c.cells*p.cw, 2*p.sc, c.ink)
	case CursorBar:
		p.fill(x, y, p.sc, p.ch, c.ink)
	}
}

// frame draws the macOS-style window: rounded corners, title bar with the
// three buttons and the title.
func (p *painter[P]) frame() {
	sc := p.sc
	barH := frameTitleBar * sc
	x0, y0, w, h := p.fx, p.fy, p.fw, p.fh
	p.fill(x0, y0, w, barH, p.bar)
	p.fill(x0, y0+barH-1, w, 1, p.barLine)
	// Corners: clear the pixels outside a quarter circle.
	rad := frameRadius * sc
	for dy := 0; dy < rad; dy++ {
		for dx := 0; dx < rad; dx++ {
			fx, fy := float64(rad-dx)-0.5, float64(rad-dy)-0.5
			if fx*fx+fy*fy <= float64(rad*rad) {
				continue
			}
			for _, pt := range [4][2]int{{x0 + dx, y0 + dy}, {x0 + w - 1 - dx, y0 + dy}, {x0 + dx, y0 + h - 1 - dy}, {x0 + w - 1 - dx, y0 + h - 1 - dy}} {
				p.pix[pt[1]*p.w+pt[0]] = p.inks[p.clear]
			}
		}
	}
	// Buttons: close, minimise, zoom.
	br := frameButton * sc
	cy := y0 + barH/2
	for i, ink := range p.buttons {
		cx := x0 + (20+20*i)*sc
		p.disc(cx, cy, br, ink)
	}
	// Title, centred, in the bitmap font at the same scale, cut with an
	// ellipsis to stay clear of the buttons. Characters take the cells they
	// take on the screen and are drawn as there: a combining mark over the
	// character before it, a glyph the font lacks as the replacement box
	// (it was left blank).
	runes := []rune(p.title)
	avail := (w - 2*76*sc) / (8 * sc)
	if avail <= 0 {
		return
	}
	width := func(rs []rune) int {
		n := 0
		for _, r := range rs {
			n += runeWidth(r)
		}
		return n
	}
	if width(runes) > avail {
		// One pass: keep the runes that fit in avail-1 cells, then the
		// ellipsis (a title may be megabytes long).
		n, keep := 0, 0
		for keep < len(runes) && n+runeWidth(runes[keep]) <= avail-1 {
			n += runeWidth(runes[keep])
			keep++
		}
		runes = append(runes[:keep:keep], '…')
	}
	x := x0 + (w-width(runes)*8*sc)/2
	y := y0 + (barH-fontHeight*sc)/2
	base := x // where the last spacing character went
	for _, r := range runes {
		cells := runeWidth(r)
		if cells == 0 {
			if rows, wide, ok := p.regular.glyphRows(r); ok && !wide {
				p.drawRows(&rows, base, y, 8, p.titleInk)
			}
			continue
		}
		if r < ' ' {
			r = ' ' // a control character in a border title given by the caller
		}
		p.drawGlyph(r, x, y, cells, 0, p.titleInk, false)
		base = x
		x += cells * 8 * sc
	}
}

// disc fills a circle of radius rad pixels centred at (cx, cy).
func (p *painter[P]) disc(cx, cy, rad int, ink uint16) {
	for dy := -rad; dy < rad; dy++ {
		for dx := -rad; dx < rad; dx++ {
			fx, fy := float64(dx)+0.5, float64(dy)+0.5
			if fx*fx+fy*fy <= float64(rad*rad) {
				p.fill(cx+dx, cy+dy, 1, 1, ink)
			}
		}
	}
}
