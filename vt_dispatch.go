package main

// vt_dispatch.go: what each complete escape sequence does. One switch per
// family (ESC, CSI, OSC, DCS), cases named by their mnemonic in xterm's
// ctlseqs ("XTerm Control Sequences"). Sequences not listed are consumed
// and counted in Terminal.unknowns, never drawn.

import (
	"strconv"
	"strings"
)

// attrProtected marks cells written while DECSCA 1 is on; DECSED and
// DECSEL leave them alone. It rides in the pen and is not an SGR flag.
const attrProtected Attr = 1 << 15

// escDispatch runs ESC [intermediate] final.
func (t *Terminal) escDispatch(final byte) {
	p := &t.p
	t.last = 0
	if p.ninter > 1 {
		t.unknowns++
		return
	}
	switch p.inter {
	case 0:
		switch final {
		case '7': // DECSC
			t.saveCursor()
		case '8': // DECRC
			t.restoreCursor()
		case 'D': // IND
			t.index()
		case 'E': // NEL
			t.index()
			t.cur.col = 0
		case 'H': // HTS
			t.tabs[t.cur.col] = true
		case 'M': // RI
			t.reverseIndex()
		case 'c': // RIS
			t.reset()
		case '=': // DECKPAM
			t.modes.AppKeypad = true
		case '>': // DECKPNM
			t.modes.AppKeypad = false
		case 'n': // LS2
			t.cs.gl = 2
		case 'o': // LS3
			t.cs.gl = 3
		case 'Z': // DECID: answers like DA1
			t.replyDA1()
			return
		case '\\': // ST: ends a string that was already dispatched
			return
		default:
			t.unknowns++
			return
		}
	case '#':
		if final != '8' { // DECALN; DECDHL/DECSWL/DECDWL are not kept
			t.unknowns++
			return
		}
		t.decaln()
	case '(', ')', '*', '+': // SCS: designate G0-G3
		t.cs.g[p.inter-'('] = charsetID(final)
	case '-', '.', '/': // SCS for 96-character sets: designate G1-G3
		t.cs.g[p.inter-','] = charsetID(final)
	case ' ':
		switch final {
		case 'F': // S7C1T: replies use ESC Fe pairs
			t.ident.c1 = false
		case 'G': // S8C1T: replies use 8-bit C1 controls (CSI 0x9b, DCS 0x90, OSC 0x9d, ST 0x9c)
			t.ident.c1 = true
		default: // ANSI conformance levels: nothing to do
			t.unknowns++
		}
		return
	default: // DOCS and friends: nothing to do in UTF-8
		t.unknowns++
		return
	}
	t.dirty = true
}

// charsetID reduces an SCS final byte to the sets this terminal draws:
// '0' DEC special graphics, 'A' UK, anything else ASCII.
func charsetID(final byte) byte {
	switch final {
	case '0', 'A':
		return final
	}
	return 'B'
}

// csiDispatch runs CSI [prefix] params [intermediate] final.
func (t *Terminal) csiDispatch(final byte) {
	p := &t.p
	// SGR and CUP, most of what programs send, before the switch's
	// search over every sequence: the same cases as below.
	if p.prefix == 0 && p.ninter == 0 && (final == 'm' || final == 'H') {
		t.last = 0
		if final == 'm' {
			t.sgr()
		} else {
			t.moveTo(p.get(0, 1)-1, p.get(1, 1)-1)
		}
		t.dirty = true
		return
	}
	n := p.get(0, 1) // the usual count parameter
	if final != 'b' {
		t.last = 0 // REP repeats only a character printed just before it
	}
	switch p.key(final) {
	case seqKey(0, 0, '@'): // ICH
		t.insertBlanks(n)
	case seqKey(0, 0, 'A'): // CUU
		t.cursorUp(n)
	case seqKey(0, 0, 'B'): // CUD
		t.cursorDown(n)
	case seqKey(0, 0, 'e'): // VPR: not held by the margins (xterm)
		t.setCursor(t.cur.row+n, t.cur.col)
	case seqKey(0, 0, 'C'), seqKey(0, 0, 'a'): // CUF, HPR
		t.setCursor(t.cur.row, t.cur.col+n)
	case seqKey(0, 0, 'D'): // CUB (xterm has no HPB/VPB: CSI j and k are ignored)
		t.setCursor(t.cur.row, t.cur.col-n)
	case seqKey(0, 0, 'E'): // CNL
		t.cursorDown(n)
		t.cur.col = 0
	case seqKey(0, 0, 'F'): // CPL
		t.cursorUp(n)
		t.cur.col = 0
	case seqKey(0, 0, 'G'), seqKey(0, 0, '`'): // CHA, HPA
		t.setCursor(t.cur.row, n-1)
	case seqKey(0, 0, 'H'), seqKey(0, 0, 'f'): // CUP, HVP
		t.moveTo(n-1, p.get(1, 1)-1)
	case seqKey(0, 0, 'I'): // CHT
		t.tab(n)
	case seqKey(0, 0, 'J'): // ED
		t.eraseDisplay(p.raw(0), false)
	case seqKey('?', 0, 'J'): // DECSED
		t.eraseDisplay(p.raw(0), true)
	case seqKey(0, 0, 'K'): // EL
		t.eraseLine(p.raw(0), false)
	case seqKey('?', 0, 'K'): // DECSEL
		t.eraseLine(p.raw(0), true)
	case seqKey(0, 0, 'L'): // IL
		t.insertLines(n)
	case seqKey(0, 0, 'M'): // DL
		t.deleteLines(n)
	case seqKey(0, 0, 'P'): // DCH
		t.deleteChars(n)
	case seqKey(0, 0, 'S'): // SU
		t.scrollUp(t.top, t.bot, n, true)
	case seqKey(0, 0, 'T'): // SD (five parameters are xterm's mouse highlight tracking)
		if p.count() < 5 {
			t.scrollDown(t.top, t.bot, n)
		}
	case seqKey(0, 0, 'X'): // ECH
		t.eraseChars(n)
	case seqKey(0, 0, 'Z'): // CBT
		t.backTab(n)
	case seqKey(0, 0, 'b'): // REP
		t.repeat(n)
		return
	case seqKey(0, 0, 'd'): // VPA
		t.moveRow(n - 1)
	case seqKey(0, 0, 'g'): // TBC
		switch p.raw(0) {
		case 0:
			t.tabs[t.cur.col] = false
		case 3:
			clear(t.tabs)
		}
	case seqKey(0, 0, 'h'), seqKey(0, 0, 'l'): // SM, RM
		for i := 0; i < p.count(); i++ {
			t.setANSIMode(p.raw(i), final == 'h')
		}
	case seqKey('?', 0, 'h'), seqKey('?', 0, 'l'): // DECSET, DECRST
		for i := 0; i < p.count(); i++ {
			t.setDECMode(p.raw(i), final == 'h')
		}
	case seqKey(0, 0, 'm'): // SGR
		t.sgr()
	case seqKey(0, 0, 'r'): // DECSTBM
		top, bot := p.get(0, 1)-1, p.get(1, t.rows)-1
		bot = min(bot, t.rows-1)
		if top < bot {
			t.top, t.bot = top, bot
			t.moveTo(0, 0)
		}
	case seqKey(0, 0, 's'): // SCOSC (DECSLRM when left/right margins are on: not supported)
		t.saveCursor()
	case seqKey(0, 0, 'u'): // SCORC
		t.restoreCursor()
	case seqKey(0, '\'', '}'): // DECIC
		t.shiftColumns(t.cur.col, n)
	case seqKey(0, '\'', '~'): // DECDC
		t.shiftColumns(t.cur.col, -n)
	case seqKey(0, ' ', '@'): // SL
		t.shiftColumns(0, -n)
	case seqKey(0, ' ', 'A'): // SR
		t.shiftColumns(0, n)
	case seqKey(0, ' ', 'q'): // DECSCUSR
		t.setCursorStyle(p.raw(0))
	case seqKey(0, '!', 'p'): // DECSTR
		t.softReset()
	case seqKey(0, '"', 'q'): // DECSCA
		if p.raw(0) == 1 {
			t.pen.Attr |= attrProtected
		} else {
			t.pen.Attr &^= attrProtected
		}

	// Queries: replies only, nothing visible changes.
	case seqKey(0, 0, 'c'): // DA1
		if p.raw(0) == 0 {
			t.replyDA1()
		}
		return
	case seqKey('>', 0, 'c'): // DA2: VT220-class, firmware version 10, no ROM cartridge
		if p.raw(0) == 0 {
			t.replyString("\x1b[>1;10;0c")
		}
		return
	case seqKey('=', 0, 'c'): // DA3: DECRPTUI, unit ID 0 as xterm reports it
		if p.raw(0) == 0 {
			t.replyString("\x1bP!|00000000\x1b\\")
		}
		return
	case seqKey(0, 0, 'x'): // DECREQTPARM: 1 = no parity, 1 = 8 bits, 128 = 38400 baud, as xterm's VT100
		if ps := p.raw(0); ps == 0 || ps == 1 {
			t.replyf("\x1b[", ps+2, ";1;1;128;128;1;0x")
		}
		return
	case seqKey(0, 0, 'n'): // DSR
		switch p.raw(0) {
		case 5: // operating status: OK
			t.replyString("\x1b[0n")
		case 6: // CPR
			row, col := t.reportedPos()
			t.replyf("\x1b[", row, ";", col, "R")
		}
		return
	case seqKey('?', 0, 'n'): // DECDSR, as a VT220 answers
		switch p.raw(0) {
		case 6: // DECXCPR
			row, col := t.reportedPos()
			t.replyf("\x1b[?", row, ";", col, "R")
		case 15: // printer status: no printer
			t.replyString("\x1b[?13n")
		case 25: // user-defined keys: locked (DECUDK is not implemented)
			t.replyString("\x1b[?21n")
		case 26: // keyboard: North American (VT220 form, no ready/type fields)
			t.replyString("\x1b[?27;1n")
		case 53, 55: // locator: none
			t.replyString("\x1b[?53n")
		}
		return
	case seqKey(0, '$', 'p'): // DECRQM (ANSI modes)
		mode := p.raw(0)
		t.replyf("\x1b[", mode, ";", t.ansiModeState(mode), "$y")
		return
	case seqKey('?', '$', 'p'): // DECRQM (DEC private modes)
		mode := p.raw(0)
		t.replyf("\x1b[?", mode, ";", t.decModeState(mode), "$y")
		return
	case seqKey(0, 0, 't'): // XTWINOPS: only the size reports are answered
		switch p.raw(0) {
		case 18: // text area in characters
			t.replyf("\x1b[8;", t.rows, ";", t.cols, "t")
		case 19: // screen in characters
			t.replyf("\x1b[9;", t.rows, ";", t.cols, "t")
		default:
			t.unknowns++
		}
		return
	case seqKey('>', 0, 'q'): // XTVERSION
		if p.raw(0) == 0 {
			t.replyString("\x1bP>|" + t.ident.xtVersion() + "\x1b\\")
		}
		return
	default:
		// XTWINOPS (t), XTMODKEYS (> m), DECSLRM, mouse highlight and
		// the rest: consumed, not drawn.
		t.unknowns++
		return
	}
	t.dirty = true
}

// reportedPos is the 1-based cursor position for CPR, relative to the
// scroll region in origin mode.
func (t *Terminal) reportedPos() (row, col int) {
	row = t.cur.row + 1
	if t.origin {
		row -= t.top
	}
	return row, t.cur.col + 1
}

// replyDA1 answers Primary Device Attributes with what this emulator
// implements: the VT220 class (62: DECSTR, DECTCEM, DECSCA, the VT220
// DSR reports), selective erase (6: DECSCA, DECSED, DECSEL), horizontal
// scrolling (21: SL, SR) and ANSI colour (22). Not a VT420 (64) as xterm
// answers: left/right margins (DECSLRM) and rectangular area operations
// are not implemented, and programs that believe 64 use them.
func (t *Terminal) replyDA1() { t.replyString("\x1b[?62;6;21;22c") }

// replyString queues a reply for the end of this Write.
func (t *Terminal) replyString(s string) {
	start := len(t.replyBuf)
	t.replyBuf = append(t.replyBuf, s...)
	t.replyC1(start)
}

// replyC1 rewrites the reply queued from start with 8-bit C1 controls
// after S8C1T: ESC [ ESC P ESC ] ESC \ become 0x9b 0x90 0x9d 0x9c.
// Replies hold no other ESC (XTGETTCAP values are hex-encoded).
func (t *Terminal) replyC1(start int) {
	if !t.ident.c1 {
		return
	}
	b, out := t.replyBuf[start:], t.replyBuf[start:start]
	for i := 0; i < len(b); i++ {
		if b[i] == 0x1b && i+1 < len(b) && strings.IndexByte("[P]\\", b[i+1]) >= 0 {
			out = append(out, b[i+1]+0x40)
			i++
			continue
		}
		out = append(out, b[i])
	}
	t.replyBuf = t.replyBuf[:start+len(out)]
}

// replyf queues a reply made of strings and integers.
func (t *Terminal) replyf(parts ...any) {
	start := len(t.replyBuf)
	defer t.replyC1(start)
	for _, x := range parts {
		switch v := x.(type) {
		case string:
			t.replyBuf = append(t.replyBuf, v...)
		case int:
			t.replyBuf = strconv.AppendInt(t.replyBuf, int64(v), 10)
		}
	}
}

// setCursorStyle is DECSCUSR: 0-2 block, 3-4 underline, 5-6 bar; odd
// values (and 0) blink.
func (t *Terminal) setCursorStyle(ps int) {
	switch ps {
	case 0, 1, 2:
		t.shape = CursorBlock
	case 3, 4:
		t.shape = CursorUnderline
	case 5, 6:
		t.shape = CursorBar
	default:
		return
	}
	t.blink = ps == 0 || ps%2 == 1
}

// setANSIMode is SM/RM: IRM (4) and LNM (20).
func (t *Terminal) setANSIMode(mode int, on bool) {
	switch mode {
	case 4:
		t.insert = on
	case 20:
		t.modes.LineFeedNL = on
	}
}

// ansiModeState is the DECRPM value of an ANSI mode: 1 set, 2 reset,
// 0 not recognised.
func (t *Terminal) ansiModeState(mode int) int {
	switch mode {
	case 4:
		return modeState(t.insert)
	case 20:
		return modeState(t.modes.LineFeedNL)
	}
	return 0
}

// modeState turns a flag into a DECRPM value.
func modeState(on bool) int {
	if on {
		return 1
	}
	return 2
}

// setDECMode is DECSET/DECRST of one private mode.
func (t *Terminal) setDECMode(mode int, on bool) {
	switch mode {
	case 1: // DECCKM
		t.modes.AppCursor = on
	case 6: // DECOM: homes the cursor either way
		t.origin = on
		t.moveTo(0, 0)
	case 7: // DECAWM
		t.autowrap = on
		if !on {
			t.cur.wrap = false
		}
	case 5: // DECSCNM: reverse video for the whole screen
		t.modes.ReverseVideo = on
	case 12: // cursor blink (att610)
		t.blink = on
	case 25: // DECTCEM
		t.visible = on
	case 45: // reverse wraparound
		t.reverseWrap = on
	case 66: // DECNKM
		t.modes.AppKeypad = on
	case 9, 1000, 1001, 1002, 1003: // mouse tracking
		if on {
			t.modes.Mouse = mode
		} else if t.modes.Mouse == mode {
			t.modes.Mouse = 0
		}
	case 1004: // focus events
		t.focus = on
	case 1007: // alternate scroll: the wheel sends arrow keys on the alternate screen
		t.modes.AltScroll = on
	case 1005, 1006, 1015, 1016: // mouse encodings
		if on {
			t.mouseEnc = mode
		} else if t.mouseEnc == mode {
			t.mouseEnc = 0
		}
	case 47: // alternate screen, kept as it is
		t.switchScreen(on)
	case 1047: // alternate screen, cleared when leaving it
		if !on && t.scr == t.alt {
			t.clearScreen(t.alt)
		}
		t.switchScreen(on)
	case 1048: // save / restore cursor
		if on {
			t.saveCursor()
		} else {
			t.restoreCursor()
		}
	case 1049: // save cursor, alternate screen, clear it; and back
		// As xterm: the cursor is saved and restored even when the
		// screen is already the one asked for.
		if on {
			t.saveCursor()
			t.switchScreen(true)
			t.clearScreen(t.alt)
		} else {
			t.switchScreen(false)
			t.restoreCursor()
		}
	case 2004:
		t.modes.BracketedPaste = on
	case 2026:
		t.modes.SyncOutput = on
	default:
		return
	}
	t.dirty = true
}

// decModeState is the DECRPM value of a private mode.
func (t *Terminal) decModeState(mode int) int {
	switch mode {
	case 1:
		return modeState(t.modes.AppCursor)
	case 2: // DECANM: always ANSI (no VT52 mode)
		return 3
	case 3: // DECCOLM: ignored, as xterm does by default
		return 4
	case 5:
		return modeState(t.modes.ReverseVideo)
	case 6:
		return modeState(t.origin)
	case 7:
		return modeState(t.autowrap)
	case 12:
		return modeState(t.blink)
	case 25:
		return modeState(t.visible)
	case 45:
		return modeState(t.reverseWrap)
	case 66:
		return modeState(t.modes.AppKeypad)
	case 9, 1000, 1001, 1002, 1003:
		return modeState(t.modes.Mouse == mode)
	case 1004:
		return modeState(t.focus)
	case 1005, 1006, 1015, 1016:
		return modeState(t.mouseEnc == mode)
	case 1007:
		return modeState(t.modes.AltScroll)
	case 47, 1047, 1049:
		return modeState(t.scr == t.alt)
	case 1048:
		return modeState(t.scr.saved.valid)
	case 2004:
		return modeState(t.modes.BracketedPaste)
	case 2026:
		return modeState(t.modes.SyncOutput)
	}
	return 0
}

// sgr is Select Graphic Rendition. Extended colours take both forms:
// 38;5;n and 38;2;r;g;b, and 38:5:n, 38:2:r:g:b or 38:2:cs:r:g:b (ITU
// T.416, colour-space id skipped); 4:n picks an underline style.
func (t *Terminal) sgr() {
	p := &t.p
	pen := &t.pen
	// The whole sequence one extended colour, 38;2;r;g;b or 48;2;r;g;b
	// (a TUI's every cell), set without the loop: what the loop's 38
	// and 48 cases do with it.
	if p.nparams == 4 && p.sub == 0 && p.params[1] == 2 {
		switch c := rgbParams(int(p.params[2]), int(p.params[3]), int(p.params[4])); p.params[0] {
		case 38:
			pen.FG = c
			return
		case 48:
			pen.BG = c
			return
		}
	}
	for i := 0; i < p.count(); i++ {
		// One switch on the value (its cases are constants, so it
		// compiles to a jump table, not a chain of comparisons).
		switch v := p.raw(i); v {
		case 0:
			link := pen.Link
			*pen = Cell{Width: 1, Link: link, Attr: pen.Attr & attrProtected}
		case 1:
			pen.Attr |= AttrBold
		case 2:
			pen.Attr |= AttrDim
		case 3:
			pen.Attr |= AttrItalic
		case 4:
			style := 1
			if p.isSub(i + 1) {
				i++
				style = p.raw(i)
			}
			pen.Attr &^= AttrUnderline | AttrULMask
			if style >= 1 && style <= 5 {
				pen.Attr |= AttrUnderline | Attr(style-1)<<AttrULShift
			}
		case 5, 6:
			pen.Attr |= AttrBlink
		case 7:
			pen.Attr |= AttrInverse
		case 8:
			pen.Attr |= AttrHidden
		case 9:
			pen.Attr |= AttrStrike
		case 21: // double underline (ECMA-48, xterm; the same as 4:2)
			pen.Attr &^= AttrULMask
			pen.Attr |= AttrUnderline | 1<<AttrULShift
		case 22:
			pen.Attr &^= AttrBold | AttrDim
		case 23:
			pen.Attr &^= AttrItalic
		case 24:
			pen.Attr &^= AttrUnderline | AttrULMask
		case 25:
			pen.Attr &^= AttrBlink
		case 27:
			pen.Attr &^= AttrInverse
		case 28:
			pen.Attr &^= AttrHidden
		case 29:
			pen.Attr &^= AttrStrike
		case 30, 31, 32, 33, 34, 35, 36, 37:
			pen.FG = PaletteColor(uint8(v - 30))
		case 38:
			var c Color
			c, i = t.sgrColor(i)
			if c != badColor {
				pen.FG = c
			}
		case 39:
			pen.FG = ColorDefault
		case 40, 41, 42, 43, 44, 45, 46, 47:
			pen.BG = PaletteColor(uint8(v - 40))
		case 48:
			var c Color
			c, i = t.sgrColor(i)
			if c != badColor {
				pen.BG = c
			}
		case 49:
			pen.BG = ColorDefault
		case 53:
			pen.Attr |= AttrOverline
		case 55:
			pen.Attr &^= AttrOverline
		case 58:
			var c Color
			c, i = t.sgrColor(i)
			if c != badColor {
				pen.UL = c
			}
		case 59:
			pen.UL = ColorDefault
		case 90, 91, 92, 93, 94, 95, 96, 97:
			pen.FG = PaletteColor(uint8(v - 90 + 8))
		case 100, 101, 102, 103, 104, 105, 106, 107:
			pen.BG = PaletteColor(uint8(v - 100 + 8))
		}
		// Sub-parameters a case did not use belong to it, not to the
		// next attribute.
		for p.isSub(i + 1) {
			i++
		}
	}
}

// badColor is an impossible Color: the extended colour was malformed.
const badColor Color = 0xFF << 24

// sgrColor reads the extended colour whose selector (38, 48 or 58) is
// parameter i; it returns the colour and the index of the last parameter
// it used.
func (t *Terminal) sgrColor(i int) (Color, int) {
	p := &t.p
	if p.isSub(i + 1) {
		// Colon form: all the sub-parameters belong to this colour.
		j := i + 1
		for p.isSub(j + 1) {
			j++
		}
		n := j - i // sub-parameters, the kind included
		switch p.raw(i + 1) {
		case 5:
			if n >= 2 {
				return PaletteColor(uint8(min(p.raw(i+2), 255))), j
			}
		case 2:
			switch {
			case n >= 5: // 2:cs:r:g:b
				return rgbParams(p.raw(i+3), p.raw(i+4), p.raw(i+5)), j
			case n == 4: // 2:r:g:b
				return rgbParams(p.raw(i+2), p.raw(i+3), p.raw(i+4)), j
			}
		}
		return badColor, j
	}
	switch p.raw(i + 1) {
	case 5:
		if i+2 <= p.nparams {
			return PaletteColor(uint8(min(p.raw(i+2), 255))), i + 2
		}
		return badColor, p.nparams
	case 2:
		if i+4 <= p.nparams {
			return rgbParams(p.raw(i+2), p.raw(i+3), p.raw(i+4)), i + 4
		}
		return badColor, p.nparams
	}
	return badColor, i + 1
}

// rgbParams builds a direct colour from parameters, clamping to 255.
func rgbParams(r, g, b int) Color {
	return RGBColor(uint8(min(r, 255)), uint8(min(g, 255)), uint8(min(b, 255)))
}

// oscDispatch runs an OSC string "Ps;Pt".
func (t *Terminal) oscDispatch(s []byte) {
	t.last = 0
	num, rest, _ := strings.Cut(string(s), ";")
	switch num {
	case "0", "2": // title (0 also sets the icon name)
		t.title = rest
		t.dirty = true
	case "8": // hyperlink: 8;params;URI, an empty URI ends the link
		params, uri, ok := strings.Cut(rest, ";")
		if !ok {
			return
		}
		t.pen.Link = t.linkID(params, uri)
	case "4": // palette colour queries
		t.oscPalette(rest)
	case "10", "11", "12": // default foreground, background, cursor colour queries
		n, _ := strconv.Atoi(num)
		t.oscDynamic(n, rest)
	case "104", "110", "111", "112":
		// Resets of OSC 4, 10, 11, 12: sets are not honoured, so the
		// colours already are the session theme's; nothing to undo.
	case "133", "7": // shell integration marks, current directory (vt_marks.go)
		t.shellMark(num, rest)
	default:
		t.unknowns++
	}
}

// rgbSpec formats a colour the way xterm reports it: rgb:rrrr/gggg/bbbb.
func rgbSpec(c [3]uint8) string {
	const hex = "0123456789abcdef"
	b := []byte("rgb:")
	for i, v := range c {
		if i > 0 {
			b = append(b, '/')
		}
		b = append(b, hex[v>>4], hex[v&15], hex[v>>4], hex[v&15])
	}
	return string(b)
}

// vtMaxLinks bounds the hyperlink table; later links are not kept.
const vtMaxLinks = 4096

// linkID returns the id of the link (params carries OSC 8's id=),
// registering it; an empty URI is no link.
func (t *Terminal) linkID(params, uri string) uint16 {
	if uri == "" {
		return 0
	}
	key := params + ";" + uri
	if id, ok := t.linkIDs[key]; ok {
		return id
	}
	if len(t.links) >= vtMaxLinks {
		return 0
	}
	if t.linkIDs == nil {
		t.linkIDs = make(map[string]uint16)
	}
	t.links = append(t.links, uri)
	id := uint16(len(t.links))
	t.linkIDs[key] = id
	return id
}

// dcsDispatch runs a finished DCS string: DECRQSS (DCS $ q Pt ST) and
// XTGETTCAP (DCS + q Pt ST) are answered.
func (t *Terminal) dcsDispatch(key uint32, data []byte) {
	t.last = 0
	if key == seqKey(0, '+', 'q') {
		t.xtgettcap(data)
		return
	}
	if key != seqKey(0, '$', 'q') {
		t.unknowns++
		return
	}
	var v string
	switch string(data) {
	case "m": // SGR
		v = sgrParams(t.pen) + "m"
	case "r": // DECSTBM
		v = strconv.Itoa(t.top+1) + ";" + strconv.Itoa(t.bot+1) + "r"
	case " q": // DECSCUSR
		ps := 2 * (int(t.shape) + 1)
		if t.blink {
			ps--
		}
		v = strconv.Itoa(ps) + " q"
	case "\"q": // DECSCA
		ps := 2
		if t.pen.Attr&attrProtected != 0 {
			ps = 1
		}
		v = strconv.Itoa(ps) + "\"q"
	default:
		t.replyString("\x1bP0$r\x1b\\")
		return
	}
	t.replyString("\x1bP1$r" + v + "\x1b\\")
}
