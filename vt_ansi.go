package main

// vt_ansi.go: the one encoder of a cell's style as SGR and of a screen as ANSI
// text. The .ansi screenshot file, the first event of a cast and the
// DECRQSS reply all go through it, so they agree on every byte of the form.
//
// The form is xterm's (ctlseqs, "Character Attributes (SGR)"): parameters
// in numeric order separated by ';', extended colours as 38;5;n and
// 38;2;r;g;b (48 for the background, 58 for the underline colour), the
// form every xterm-compatible terminal and player accepts. The only colon
// is the underline style 4:n (4:1 single ... 4:5 dashed), which has no
// semicolon form: "4;3" would mean underline and italic.

import (
	"strconv"
	"unicode/utf8"
)

// sgrAttrs are the attributes and their SGR parameters, in numeric order.
// The underline (4) is written with its style by appendSGRParams.
var sgrAttrs = [...]struct {
	bit  Attr
	code string
}{{AttrBold, "1"}, {AttrDim, "2"}, {AttrItalic, "3"}, {AttrUnderline, "4"}, {AttrBlink, "5"},
	{AttrInverse, "7"}, {AttrHidden, "8"}, {AttrStrike, "9"}, {AttrOverline, "53"}}

// appendSGRParams appends the SGR parameters that set c's colours and
// attributes on top of SGR 0, each preceded by ';'. The default rendition
// appends nothing.
func appendSGRParams(b []byte, c Cell) []byte {
	for _, a := range sgrAttrs {
		if c.Attr&a.bit == 0 {
			continue
		}
		b = append(b, ';')
		b = append(b, a.code...)
		if st := (c.Attr & AttrULMask) >> AttrULShift; a.bit == AttrUnderline && st != 0 {
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(st)+1, 10)
		}
	}
	b = appendSGRColor(b, c.FG, 30, 90, 38)
	b = appendSGRColor(b, c.BG, 40, 100, 48)
	return appendSGRColor(b, c.UL, 0, 0, 58)
}

// appendSGRColor appends ';' and the parameters of colour c: base+i for
// palette colours 0-7 and bright+i-8 for 8-15 when base is not 0, else
// ext;5;i, and ext;2;r;g;b for a direct colour. The default colour
// appends nothing (SGR 0 sets it).
func appendSGRColor(b []byte, c Color, base, bright, ext int) []byte {
	if i, ok := c.Palette(); ok {
		switch {
		case base != 0 && i < 8:
			return strconv.AppendInt(append(b, ';'), int64(base)+int64(i), 10)
		case base != 0 && i < 16:
			return strconv.AppendInt(append(b, ';'), int64(bright)+int64(i)-8, 10)
		}
		return appendNums(b, ";", ext, 5, int(i))
	}
	if r, g, bl, ok := c.RGB(); ok {
		return appendNums(b, ";", ext, 2, int(r), int(g), int(bl))
	}
	return b
}

// appendSGR appends one SGR sequence, CSI 0 ; ... m, that sets exactly
// c's rendition whatever the pen was before.
func appendSGR(b []byte, c Cell) []byte {
	b = append(b, "\x1b[0"...)
	b = appendSGRParams(b, c)
	return append(b, 'm')
}

// sgrParams returns c's rendition as SGR parameters without the reset,
// "1;31" for bold red, or "0" for the default rendition: the text of a
// DECRQSS reply for SGR.
func sgrParams(c Cell) string {
	p := appendSGRParams(nil, c)
	if len(p) == 0 {
		return "0"
	}
	return string(p[1:])
}

// sameSGR reports whether a and b have the same colours and attributes.
func sameSGR(a, b Cell) bool {
	return a.FG == b.FG && a.BG == b.BG && a.UL == b.UL && a.Attr == b.Attr
}

// ansiForm selects what screenANSI writes.
type ansiForm int

const (
	// ansiLines is text for `cat` in a terminal: one line a row, ending
	// in "\n", the pen reset with SGR 0 at the end of a row that set it.
	// No cursor movement, title or hyperlinks, so it prints anywhere.
	ansiLines ansiForm = iota
	// ansiRedraw redraws the screen on a fresh terminal of the same size:
	// the alternate screen when active, a clear, the title, each row
	// placed with CUP, OSC 8 hyperlinks, then the cursor's position,
	// shape (DECSCUSR) and visibility (DECTCEM).
	ansiRedraw
)

// screenANSI encodes s as ANSI text in the given form. Cells keep their
// palette colours, so the text takes the colours of the terminal that
// shows it. Trailing cells that show nothing are left out of each row;
// the right half of a wide character is skipped (the wide character
// covers it) and combining marks follow their base character.
func screenANSI(s *Snapshot, form ansiForm) []byte {
	var b []byte
	redraw := form == ansiRedraw
	if redraw {
		if s.Modes.AltScreen {
			b = append(b, "\x1b[?1049h"...)
		}
		b = append(b, "\x1b[0m\x1b[H\x1b[2J"...)
		if s.Title != "" {
			b = append(b, "\x1b]2;"...)
			b = append(b, sanitizeTitle(s.Title)...)
			b = append(b, '\a')
		}
	}
	var pen Cell // the colours, attributes and link last set
	for row := 0; row < s.Rows; row++ {
		end := ansiRowEnd(s, row)
		if redraw {
			if end == 0 {
				continue
			}
			b = append(appendNums(append(b, "\x1b"...), "[", row+1, 1), 'H')
		} else {
			pen = Cell{}
		}
		for col := 0; col < end; col++ {
			i := row*s.Cols + col
			c := s.Cells[i]
			if c.Width == 0 {
				continue
			}
			if !sameSGR(c, pen) {
				b = appendSGR(b, c)
				pen.FG, pen.BG, pen.UL, pen.Attr = c.FG, c.BG, c.UL, c.Attr
			}
			if redraw && c.Link != pen.Link {
				b = append(b, "\x1b]8;;"...) // kept by players, not drawn
				b = append(b, sanitizeTitle(s.Links[c.Link])...)
				b = append(b, "\x1b\\"...)
				pen.Link = c.Link
			}
			if c.Attr&AttrHidden != 0 {
				b = append(b, "  "[:max(c.Width, 1)]...) // SGR 8 text is blanks in the file too, as rowText makes it
				continue
			}
			r := c.Rune
			if r == 0 {
				r = ' '
			}
			b = utf8.AppendRune(b, r)
			b = append(b, s.Marks[i]...)
		}
		if !redraw {
			if !sameSGR(pen, Cell{}) {
				b = append(b, "\x1b[0m"...)
			}
			b = append(b, '\n')
		}
	}
	if redraw {
		b = appendANSICursor(b, s, pen.Link != 0)
	}
	return b
}

// ansiRowEnd returns the column after the last cell of row that shows
// something: a character, a background, or an attribute drawn on blanks
// (inverse, underline, strike, overline). Cells beyond s.Cells are blank.
func ansiRowEnd(s *Snapshot, row int) int {
	for end := s.Cols; end > 0; end-- {
		i := row*s.Cols + end - 1
		if i >= len(s.Cells) {
			continue
		}
		c := s.Cells[i]
		if c.Rune != 0 && c.Rune != ' ' || !c.BG.IsDefault() || c.Attr&(AttrInverse|AttrUnderline|AttrStrike|AttrOverline) != 0 {
			return end
		}
	}
	return 0
}

// appendANSICursor ends a redraw: it closes an open hyperlink, resets the
// pen and sets the cursor's position, shape and visibility.
func appendANSICursor(b []byte, s *Snapshot, linkOpen bool) []byte {
	if linkOpen {
		b = append(b, "\x1b]8;;\x1b\\"...)
	}
	b = append(b, "\x1b[0m"...)
	b = append(appendNums(append(b, "\x1b"...), "[", s.Cursor.Row+1, s.Cursor.Col+1), 'H')
	if s.Cursor.Shape != CursorBlock {
		b = append(appendNums(append(b, "\x1b"...), "[", 2*int(s.Cursor.Shape)+2), " q"...) // steady underline 4, bar 6
	}
	if !s.Cursor.Visible {
		b = append(b, "\x1b[?25l"...)
	}
	return b
}

// sanitizeTitle drops control characters so a title or a hyperlink's URI
// cannot end its OSC string early.
func sanitizeTitle(t string) []byte {
	var b []byte
	for _, r := range t {
		if r >= 0x20 && r != 0x7f && (r < 0x80 || r > 0x9f) {
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// appendNums appends lead, then the decimal numbers separated by ';':
// appendNums(b, "[", 3, 1) is "[3;1".
func appendNums(b []byte, lead string, nums ...int) []byte {
	b = append(b, lead...)
	for i, n := range nums {
		if i > 0 {
			b = append(b, ';')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return b
}
