package main

// png_box.go: box drawing (U+2500-257F) and block elements (U+2580-259F)
// drawn as rectangles in device pixels, so lines from neighbouring cells
// meet exactly at every scale. A light line is one font pixel thick (Scale
// device pixels), a heavy line two, a double line two light lines one
// light line apart; all are centred on the same axis in every cell.

import "math"

// boxArms gives, for U+2500-257F, the line style of each arm in the order
// up, right, down, left: '.' none, 'l' light, 'h' heavy, 'd' double. The
// dashed lines, arcs and diagonals are special-cased in boxDrawing.
var boxArms = [128]string{
	".l.l", ".h.h", "l.l.", "h.h.", ".l.l", ".h.h", "l.l.", "h.h.", // 2500 ─ ━ │ ┃ ┄ ┅ ┆ ┇
	".l.l", ".h.h", "l.l.", "h.h.", ".ll.", ".hl.", ".lh.", ".hh.", // 2508 ┈ ┉ ┊ ┋ ┌ ┍ ┎ ┏
	"..ll", "..lh", "..hl", "..hh", "ll..", "lh..", "hl..", "hh..", // 2510 ┐ ┑ ┒ ┓ └ ┕ ┖ ┗
	"l..l", "l..h", "h..l", "h..h", "lll.", "lhl.", "hll.", "llh.", // 2518 ┘ ┙ ┚ ┛ ├ ┝ ┞ ┟
	"hlh.", "hhl.", "lhh.", "hhh.", "l.ll", "l.lh", "h.ll", "l.hl", // 2520 ┠ ┡ ┢ ┣ ┤ ┥ ┦ ┧
	"h.hl", "h.lh", "l.hh", "h.hh", ".lll", ".llh", ".hll", ".hlh", // 2528 ┨ ┩ ┪ ┫ ┬ ┭ ┮ ┯
	".lhl", ".lhh", ".hhl", ".hhh", "ll.l", "ll.h", "lh.l", "lh.h", // 2530 ┰ ┱ ┲ ┳ ┴ ┵ ┶ ┷
	"hl.l", "hl.h", "hh.l", "hh.h", "llll", "lllh", "lhll", "lhlh", // 2538 ┸ ┹ ┺ ┻ ┼ ┽ ┾ ┿
	"hlll", "llhl", "hlhl", "hllh", "hhll", "llhh", "lhhl", "hhlh", // 2540 ╀ ╁ ╂ ╃ ╄ ╅ ╆ ╇
	"lhhh", "hlhh", "hhhl", "hhhh", ".l.l", ".h.h", "l.l.", "h.h.", // 2548 ╈ ╉ ╊ ╋ ╌ ╍ ╎ ╏
	".d.d", "d.d.", ".dl.", ".ld.", ".dd.", "..ld", "..dl", "..dd", // 2550 ═ ║ ╒ ╓ ╔ ╕ ╖ ╗
	"ld..", "dl..", "dd..", "l..d", "d..l", "d..d", "ldl.", "dld.", // 2558 ╘ ╙ ╚ ╛ ╜ ╝ ╞ ╟
	"ddd.", "l.ld", "d.dl", "d.dd", ".dld", ".ldl", ".ddd", "ld.d", // 2560 ╠ ╡ ╢ ╣ ╤ ╥ ╦ ╧
	"dl.l", "dd.d", "ldld", "dldl", "dddd", ".ll.", "..ll", "l..l", // 2568 ╨ ╩ ╪ ╫ ╬ ╭ ╮ ╯
	"ll..", "", "", "", "...l", "l...", ".l..", "..l.", // 2570 ╰ ╱ ╲ ╳ ╴ ╵ ╶ ╷
	"...h", "h...", ".h..", "..h.", ".h.l", "l.h.", ".l.h", "h.l.", // 2578 ╸ ╹ ╺ ╻ ╼ ╽ ╾ ╿
}

// boxDashes is the number of dashes of the dashed lines, by code point.
var boxDashes = map[rune]int{
	0x2504: 3, 0x2505: 3, 0x2506: 3, 0x2507: 3,
	0x2508: 4, 0x2509: 4, 0x250A: 4, 0x250B: 4,
	0x254C: 2, 0x254D: 2, 0x254E: 2, 0x254F: 2,
}

// boxGeom is the line geometry of one cell size.
type boxGeom struct {
	w, h int // cell size in pixels
	t    int // light line thickness
}

func (g boxGeom) thick(style byte) int {
	if style == 'h' {
		return 2 * g.t
	}
	return g.t
}

// Positions across a vertical line (x) or a horizontal one (y): a single
// line of thickness th starts at sx(th)/sy(th); a double line's two light
// lines start at dx1/dx2 (dy1/dy2).
func (g boxGeom) sx(th int) int { return (g.w - th) / 2 }
func (g boxGeom) sy(th int) int { return (g.h - th) / 2 }

// boxAxis is one axis of a cell: its size and the light line thickness.
type boxAxis struct{ size, t int }

// span is a line's extent along an axis, [lo, hi).
type span struct{ lo, hi int }

// lines are the extents along a of a line of style crossing it: none for
// '.', one for light or heavy (centred), two light ones a light line
// apart for double, the one nearer 0 first.
func (a boxAxis) lines(style byte) []span {
	switch style {
	case '.':
		return nil
	case 'd':
		d1 := (a.size - 3*a.t) / 2
		return []span{{d1, d1 + a.t}, {d1 + 2*a.t, d1 + 3*a.t}}
	}
	th := a.t
	if style == 'h' {
		th = 2 * a.t
	}
	lo := (a.size - th) / 2
	return []span{{lo, lo + th}}
}

// reach is where an arm that runs from the cell's edge at 0 (from0) or at
// its far edge meets the lines ls crossing it: the far edge of the line
// it comes to first (inner) or last (outer), seen from where it starts.
func reach(ls []span, from0, outer bool) int {
	switch {
	case from0 && outer:
		return ls[len(ls)-1].hi
	case from0:
		return ls[0].hi
	case outer:
		return ls[0].lo
	}
	return ls[len(ls)-1].lo
}

// boxDrawing draws U+2500-257F into the cell at pixel (x, y): the four
// arms of boxArms, each by boxArm, or a dashed line, an arc or a diagonal.
func (p *painter[P]) boxDrawing(ru rune, x, y int, ink uint16) {
	g := boxGeom{w: p.cw, h: p.ch, t: p.sc}
	switch {
	case ru >= 0x256D && ru <= 0x2570:
		p.boxArc(ru, x, y, g, ink)
		return
	case ru >= 0x2571 && ru <= 0x2573:
		p.boxDiagonal(ru, x, y, g, ink)
		return
	}
	arms := boxArms[ru-0x2500]
	if n := boxDashes[ru]; n > 0 {
		p.boxDashed(arms, n, x, y, g, ink)
		return
	}
	up, right, down, left := arms[0], arms[1], arms[2], arms[3]
	p.boxArm(x, y, g, true, true, left, [2]byte{up, down}, right, ink)
	p.boxArm(x, y, g, true, false, right, [2]byte{up, down}, left, ink)
	p.boxArm(x, y, g, false, true, up, [2]byte{left, right}, down, ink)
	p.boxArm(x, y, g, false, false, down, [2]byte{left, right}, up, ink)
}

// boxArm draws one arm of style from the cell's edge toward its centre:
// a horizontal arm (left, right) or a vertical one, from the edge at 0
// (from0: left or up) or from the far edge (right or down). side are the
// arms across it, the one nearer 0 first (up for a horizontal arm, left
// for a vertical one),
// and opposite the arm in line with it. A light or heavy arm stops where
// it meets the lines across it (at the centre when there are none); each
// line of a double arm turns into the nearer line of the arm on its side,
// or the farther line of the other side's, so corners nest.
func (p *painter[P]) boxArm(x, y int, g boxGeom, horizontal, from0 bool, style byte, side [2]byte, opposite byte, ink uint16) {
	if style == '.' {
		return
	}
	along, across := boxAxis{g.w, g.t}, boxAxis{g.h, g.t} // the arm runs along x
	if !horizontal {
		along, across = across, along
	}
	rect := func(to int, c span) {
		a0, a1 := 0, to
		if !from0 {
			a0, a1 = to, along.size
		}
		if a1 <= a0 || c.hi <= c.lo {
			return
		}
		if horizontal {
			p.fill(x+a0, y+c.lo, a1-a0, c.hi-c.lo, ink)
		} else {
			p.fill(x+c.lo, y+a0, c.hi-c.lo, a1-a0, ink)
		}
	}
	if style == 'd' {
		for i, c := range across.lines('d') {
			to := along.size
			if !from0 {
				to = 0
			}
			switch {
			case side[i] != '.':
				to = reach(along.lines(side[i]), from0, false)
			case side[1-i] != '.':
				to = reach(along.lines(side[1-i]), from0, true)
			}
			rect(to, c)
		}
		return
	}
	to := reach(along.lines(style), from0, true) // to the centre when nothing crosses
	double := side[0] == 'd' || side[1] == 'd'
	switch {
	case double && side[0] != '.' && side[1] != '.' && opposite == '.':
		to = reach(along.lines('d'), from0, false) // a T: stop at the nearer line
	case double:
		to = reach(along.lines('d'), from0, true) // a corner, or crossing: to the farther line
	case side[0] != '.' || side[1] != '.':
		first := true
		for _, s := range side {
			if s == '.' {
				continue
			}
			r := reach(along.lines(s), from0, true)
			if first || from0 && r > to || !from0 && r < to {
				to, first = r, false
			}
		}
	}
	rect(to, across.lines(style)[0])
}

// boxDashed draws the dashed lines: n dashes of the arm's weight along the
// horizontal or the vertical axis.
func (p *painter[P]) boxDashed(arms string, n, x, y int, g boxGeom, ink uint16) {
	th := g.thick(arms[1] | arms[0]) // 'l' or 'h'
	if arms[1] != '.' {
		gap := max(g.t, g.w/n/2)
		for k := 0; k < n; k++ {
			if x1 := (k+1)*g.w/n - gap; x1 > k*g.w/n {
				p.fill(x+k*g.w/n, y+g.sy(th), x1-k*g.w/n, th, ink)
			}
		}
		return
	}
	gap := max(g.t, g.h/n/2)
	for k := 0; k < n; k++ {
		if y1 := (k+1)*g.h/n - gap; y1 > k*g.h/n {
			p.fill(x+g.sx(th), y+k*g.h/n, th, y1-k*g.h/n, ink)
		}
	}
}

// boxArc draws the rounded corners ╭ ╮ ╯ ╰: straight light lines from the
// cell edges into a quarter circle of radius half the cell width, centred
// on the axes of the lines.
func (p *painter[P]) boxArc(ru rune, x, y int, g boxGeom, ink uint16) {
	t := g.t
	lx, ly := g.sx(t), g.sy(t) // the light lines' positions
	xc, yc := float64(lx)+float64(t)/2, float64(ly)+float64(t)/2
	r := float64(g.w) / 2
	// Direction of the two arms: sx = +1 right, -1 left; sy = +1 down, -1 up.
	sx, sy := 1.0, 1.0
	switch ru {
	case 0x256E: // ╮ down and left
		sx = -1
	case 0x256F: // ╯ up and left
		sx, sy = -1, -1
	case 0x2570: // ╰ up and right
		sy = -1
	}
	cx, cy := xc+sx*r, yc+sy*r // centre of the circle
	// Straight parts from the ends of the arc to the cell edges.
	if sx > 0 {
		p.fill(x+int(cx), y+ly, g.w-int(cx), t, ink)
	} else {
		p.fill(x, y+ly, int(math.Ceil(cx)), t, ink)
	}
	if sy > 0 {
		p.fill(x+lx, y+int(cy), t, g.h-int(cy), ink)
	} else {
		p.fill(x+lx, y, t, int(math.Ceil(cy)), ink)
	}
	half := float64(t)/2 + 0.1
	for py := 0; py < g.h; py++ {
		fy := float64(py) + 0.5
		if (fy-cy)*sy > 0 {
			continue // beyond the centre: the straight part
		}
		for px := 0; px < g.w; px++ {
			fx := float64(px) + 0.5
			if (fx-cx)*sx > 0 {
				continue
			}
			d := math.Hypot(fx-cx, fy-cy)
			if math.Abs(d-r) <= half {
				p.fill(x+px, y+py, 1, 1, ink)
			}
		}
	}
}

// boxDiagonal draws ╱ ╲ ╳ corner to corner, so they join diagonally.
func (p *painter[P]) boxDiagonal(ru rune, x, y int, g boxGeom, ink uint16) {
	w, h := float64(g.w), float64(g.h)
	n := math.Hypot(w, h)
	half := float64(g.t)/2 + 0.25
	for py := 0; py < g.h; py++ {
		fy := float64(py) + 0.5
		for px := 0; px < g.w; px++ {
			fx := float64(px) + 0.5
			rising := math.Abs(h*fx+w*fy-w*h)/n <= half // ╱
			falling := math.Abs(h*fx-w*fy)/n <= half    // ╲
			if ru == 0x2571 && rising || ru == 0x2572 && falling || ru == 0x2573 && (rising || falling) {
				p.fill(x+px, y+py, 1, 1, ink)
			}
		}
	}
}

// blockElement draws U+2580-259F: halves, eighths, quadrants; the shades
// ░ ▒ ▓ are full blocks whose colour resolve mixed.
func (p *painter[P]) blockElement(ru rune, x, y int, ink uint16) {
	w, h := p.cw, p.ch
	rect := func(x0, y0, x1, y1 int) { p.fill(x+x0, y+y0, x1-x0, y1-y0, ink) }
	switch {
	case ru == 0x2580: // ▀
		rect(0, 0, w, h/2)
	case ru >= 0x2581 && ru <= 0x2588: // ▁ ... █: lower n eighths
		n := int(ru - 0x2580)
		rect(0, h-n*h/8, w, h)
	case ru >= 0x2589 && ru <= 0x258F: // ▉ ... ▏: left n eighths
		n := int(0x2590 - ru)
		rect(0, 0, n*w/8, h)
	case ru == 0x2590: // ▐
		rect(w/2, 0, w, h)
	case ru >= 0x2591 && ru <= 0x2593: // ░ ▒ ▓
		rect(0, 0, w, h)
	case ru == 0x2594: // ▔
		rect(0, 0, w, h/8)
	case ru == 0x2595: // ▕
		rect(w-w/8, 0, w, h)
	default: // quadrants ▖ ... ▟
		q := [...]uint8{4, 8, 1, 13, 9, 7, 11, 2, 6, 14}[ru-0x2596] // 1 UL, 2 UR, 4 LL, 8 LR
		if q&1 != 0 {
			rect(0, 0, w/2, h/2)
		}
		if q&2 != 0 {
			rect(w/2, 0, w, h/2)
		}
		if q&4 != 0 {
			rect(0, h/2, w/2, h)
		}
		if q&8 != 0 {
			rect(w/2, h/2, w, h)
		}
	}
}

// sextant draws the Symbols for Legacy Computing sextants U+1FB00-1FB3B:
// a 2x3 grid of blocks. The 62 code points are the patterns 1-62 in
// order, leaving out 21 and 42 (▌ and ▐, already in Block Elements); bit 0
// is the top-left block, bit 1 top-right, then the middle and bottom rows.
func (p *painter[P]) sextant(ru rune, x, y int, ink uint16) {
	v := int(ru-0x1FB00) + 1
	if v >= 21 {
		v++
	}
	if v >= 42 {
		v++
	}
	w, h := p.cw, p.ch
	for i := 0; i < 6; i++ {
		if v&(1<<i) == 0 {
			continue
		}
		col, row := i%2, i/2
		x0, x1 := col*w/2, (col+1)*w/2
		y0, y1 := row*h/3, (row+1)*h/3
		p.fill(x+x0, y+y0, x1-x0, y1-y0, ink)
	}
}

// powerlineRound draws the rounded Powerline separators the fonts lack:
// U+E0B4 (filled, bulging right), U+E0B5 (its outline), U+E0B6 (filled,
// bulging left) and U+E0B7 (its outline), as half ellipses filling the cell.
func (p *painter[P]) powerlineRound(ru rune, x, y int, ink uint16) {
	w, h := float64(p.cw), float64(p.ch)
	line := float64(p.sc) / w // outline thickness as a fraction of the radius
	for py := 0; py < p.ch; py++ {
		dy := (float64(py) + 0.5 - h/2) / (h / 2)
		for px := 0; px < p.cw; px++ {
			dx := (float64(px) + 0.5) / w
			if ru >= 0xE0B6 {
				dx = 1 - dx
			}
			d := math.Sqrt(dx*dx + dy*dy)
			if d <= 1 && (ru == 0xE0B4 || ru == 0xE0B6 || d >= 1-line) {
				p.fill(x+px, y+py, 1, 1, ink)
			}
		}
	}
}
