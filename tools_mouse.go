package main

// tools_mouse.go: mouse reports as xterm sends them (ctlseqs "Mouse Tracking"),
// for the tracking mode and the coordinate encoding the program enabled.
//
//	mode 9 (X10)       press only, no modifiers, no wheel
//	1000, 1002, 1003   press and release (a release is button 3 in the
//	                   one-byte and urxvt encodings, the button with final
//	                   m in SGR); a click does not move, so 1002 and 1003
//	                   send what 1000 sends; wheel steps are buttons 64
//	                   and 65 with no release
//	encodings          default: CSI M and three bytes of 32+value, a
//	                   position past 222 (0-based) clamped to 223, which
//	                   xterm sends as the byte 0; 1005: a value of 95 or
//	                   more as two-byte UTF-8 of 33+value, clamped at
//	                   2015; 1006: CSI < b ; x ; y M or m in decimal;
//	                   1015: CSI 32+b ; x ; y M in decimal; 1016: as
//	                   1006 with pixel positions
//
// Modifiers add 4 (shift), 8 (meta/alt) and 16 (control) to the button.

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Mouse tracking modes (DECSET) and encodings.
const (
	mouseX10       = 9
	mouseNormal    = 1000
	mouseHighlight = 1001
	mouseButton    = 1002
	mouseAny       = 1003
	encUTF8        = 1005
	encSGR         = 1006
	encURXVT       = 1015
	encSGRPixels   = 1016
)

// Button codes of a mouse report, before modifiers.
const (
	btnLeft      = 0
	btnMiddle    = 1
	btnRight     = 2
	btnRelease   = 3 // any button released (one-byte and urxvt encodings)
	btnWheelUp   = 64
	btnWheelDown = 65
)

// Modifier bits of a mouse report.
const (
	mouseShift = 4
	mouseMeta  = 8
	mouseCtrl  = 16
)

// xterm's position limits: the one-byte encoding reaches 223 (0-based
// 222; 223 itself is sent as 0), 1005 reaches 2015; values below 95 take
// one byte in 1005.
const (
	mouseLimit    = 255 - 32
	extMouseLimit = 2047 - 32
	extMouseStart = 127 - 32
)

// mouseEvent is one report: a button code (btnLeft ... btnWheelDown),
// press or release, modifier bits, the 0-based cell and, for 1016, the
// 0-based pixel.
type mouseEvent struct {
	button   int
	release  bool
	mods     int
	row, col int
	px, py   int
}

// mouseModeName names a tracking mode and encoding for messages and the
// session info: "1000 normal, SGR 1006", or "off".
func mouseModeName(mode, enc int) string {
	var s string
	switch mode {
	case 0:
		return "off"
	case mouseX10:
		s = "9 X10"
	case mouseNormal:
		s = "1000 normal"
	case mouseHighlight:
		s = "1001 highlight"
	case mouseButton:
		s = "1002 button-event"
	case mouseAny:
		s = "1003 any-event"
	default:
		s = strconv.Itoa(mode)
	}
	switch enc {
	case encUTF8:
		return s + ", UTF-8 1005"
	case encSGR:
		return s + ", SGR 1006"
	case encURXVT:
		return s + ", urxvt 1015"
	case encSGRPixels:
		return s + ", SGR-pixels 1016"
	}
	return s + ", default encoding"
}

// checkMouseEvent reports what mode cannot send ev, with the fix.
func checkMouseEvent(mode int, ev mouseEvent) error {
	switch mode {
	case mouseX10:
		if ev.mods != 0 {
			return errors.New("the program enabled X10 mouse mode (9), which reports no modifier keys: click without modifiers")
		}
		if ev.button >= btnWheelUp {
			return errors.New("the program enabled X10 mouse mode (9), which reports no wheel: send keys instead (e.g. Up, Down, PageUp, PageDown)")
		}
	case mouseNormal, mouseButton, mouseAny:
	case mouseHighlight:
		return errors.New("the program enabled highlight mouse tracking (1001), which needs a reply from it for every press: use keys instead")
	default:
		return fmt.Errorf("the program enabled mouse mode %d, which is not known: use keys instead", mode)
	}
	return nil
}

// encodeMouse returns the report of ev in tracking mode mode (an X10
// release is nothing) with encoding enc (0 for the default). The caller
// has checked ev against the mode (checkMouseEvent).
func encodeMouse(mode, enc int, ev mouseEvent) []byte {
	if mode == mouseX10 && ev.release {
		return nil
	}
	code := ev.button + ev.mods
	if mode == mouseX10 {
		code = ev.button
	}
	sgr := enc == encSGR || enc == encSGRPixels
	if ev.release && !sgr {
		code = btnRelease + ev.mods
	}
	x, y := ev.col, ev.row
	if enc == encSGRPixels {
		x, y = ev.px, ev.py
	}
	switch {
	case sgr:
		final := byte('M')
		if ev.release {
			final = 'm'
		}
		b := []byte("\x1b[<")
		b = strconv.AppendInt(b, int64(code), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(x+1), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(y+1), 10)
		return append(b, final)
	case enc == encURXVT:
		b := []byte("\x1b[")
		b = strconv.AppendInt(b, int64(32+code), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(x+1), 10)
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(y+1), 10)
		return append(b, 'M')
	case enc == encUTF8:
		b := []byte("\x1b[M")
		if v := 32 + code; v < 128 {
			b = append(b, byte(v))
		} else {
			b = utf8.AppendRune(b, rune(v))
		}
		b = appendExtPosition(b, x)
		return appendExtPosition(b, y)
	}
	b := []byte("\x1b[M")
	b = append(b, byte(32+code))
	b = appendPosition(b, x)
	return appendPosition(b, y)
}

// appendPosition is a 0-based position in the one-byte encoding: 32+v+1,
// v clamped to mouseLimit, which is sent as 0 (xterm's past-the-end mark).
func appendPosition(b []byte, v int) []byte {
	v = min(v, mouseLimit)
	if v == mouseLimit {
		return append(b, 0)
	}
	return append(b, byte(32+v+1))
}

// appendExtPosition is a 0-based position in the UTF-8 encoding (1005):
// one byte below extMouseStart, else two-byte UTF-8 of 32+v+1; clamped to
// extMouseLimit, which is sent as 0.
func appendExtPosition(b []byte, v int) []byte {
	v = min(v, extMouseLimit)
	switch {
	case v == extMouseLimit:
		return append(b, 0)
	case v < extMouseStart:
		return append(b, byte(32+v+1))
	}
	v += 32 + 1
	return append(b, byte(0xC0+(v>>6)), byte(0x80+(v&0x3F)))
}

// altScrollKeys are the arrow keys xterm sends for wheel steps on the
// alternate screen in alternate-scroll mode (1007) with mouse tracking
// off: five lines a step (its default wheel binding, scroll-back(5,line)),
// ESC O A/B in application-cursor mode (DECCKM), else CSI A/B.
func altScrollKeys(up bool, steps int, appCursor bool) []byte {
	key := "\x1b["
	if appCursor {
		key = "\x1bO"
	}
	if up {
		key += "A"
	} else {
		key += "B"
	}
	var b []byte
	for i := 0; i < 5*steps; i++ {
		b = append(b, key...)
	}
	return b
}
