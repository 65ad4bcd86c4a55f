package main

// vt_reply.go: the answers to queries that report colours and
// capabilities (OSC 4/10/11/12, XTGETTCAP), and what they report: the
// session's theme and TERM.

import (
	"strconv"
	"strings"
)

// vtIdent is what reports say about the session and how: the colours
// OSC 4, 10, 11 and 12 report (nil: xterm's defaults), the terminal name
// XTGETTCAP TN reports ("": xterm-256color), and whether replies use
// 8-bit C1 controls (S8C1T; RIS and S7C1T turn it off).
type vtIdent struct {
	colors   *ReportColors
	termName string
	version  string // XTVERSION's version, e.g. "v1.2.0"
	c1       bool
}

// ReportColors are the colours queries report, as 8-bit RGB: the 256
// palette colours (OSC 4), the default foreground and background (OSC 10,
// 11) and the cursor (OSC 12).
type ReportColors struct {
	Palette        [256][3]uint8
	FG, BG, Cursor [3]uint8
}

// SetColors makes OSC 4, 10, 11 and 12 queries report c (the session
// theme's colours); nil goes back to xterm's defaults.
func (t *Terminal) SetColors(c *ReportColors) {
	t.ident.colors = c
	if c != nil {
		t.fgColor, t.bgColor = c.FG, c.BG
	}
}

// SetTermName sets the name XTGETTCAP reports for TN (and "name"): the
// TERM the program was started with.
func (t *Terminal) SetTermName(name string) { t.ident.termName = name }

// SetVersion sets the version XTVERSION reports in xterm's
// "name(version)" form: "ttywright(v1.2.0)" for SetVersion("v1.2.0").
// The emulator does not read the build itself; "" reports "ttywright".
func (t *Terminal) SetVersion(v string) { t.ident.version = v }

// xtVersion is the XTVERSION text: "ttywright(version)", or "ttywright"
// when no version was set.
func (id *vtIdent) xtVersion() string {
	if id.version == "" {
		return "ttywright"
	}
	return "ttywright(" + id.version + ")"
}

// xtermANSI is xterm's default palette for colours 0-15, reported when
// no colours were set.
var xtermANSI = [16][3]uint8{
	{0x00, 0x00, 0x00}, {0xcd, 0x00, 0x00}, {0x00, 0xcd, 0x00}, {0xcd, 0xcd, 0x00},
	{0x00, 0x00, 0xee}, {0xcd, 0x00, 0xcd}, {0x00, 0xcd, 0xcd}, {0xe5, 0xe5, 0xe5},
	{0x7f, 0x7f, 0x7f}, {0xff, 0x00, 0x00}, {0x00, 0xff, 0x00}, {0xff, 0xff, 0x00},
	{0x5c, 0x5c, 0xff}, {0xff, 0x00, 0xff}, {0x00, 0xff, 0xff}, {0xff, 0xff, 0xff},
}

// paletteColor is palette colour i as OSC 4 reports it: the set colours,
// else xterm's: its 16 colours, the 6x6x6 cube (levels 0, 95, 135, 175,
// 215, 255) for 16-231 and the grey ramp 8, 18, ... 238 for 232-255.
func (t *Terminal) paletteColor(i uint8) [3]uint8 {
	switch {
	case t.ident.colors != nil:
		return t.ident.colors.Palette[i]
	case i < 16:
		return xtermANSI[i]
	case i < 232:
		level := func(n uint8) uint8 {
			if n == 0 {
				return 0
			}
			return 55 + 40*n
		}
		i -= 16
		return [3]uint8{level(i / 36), level(i / 6 % 6), level(i % 6)}
	default:
		g := 8 + 10*(i-232)
		return [3]uint8{g, g, g}
	}
}

// cursorColor is the colour OSC 12 reports: the set cursor colour, or the
// default foreground.
func (t *Terminal) cursorColor() [3]uint8 {
	if c := t.ident.colors; c != nil {
		return c.Cursor
	}
	return t.fgColor
}

// replyOSC queues "OSC body" ended the way the query was (BEL or ST).
func (t *Terminal) replyOSC(body string) {
	t.replyString("\x1b]" + body)
	if t.p.oscBEL {
		t.replyString("\x07")
	} else {
		t.replyString("\x1b\\")
	}
}

// oscPalette is OSC 4 ; c ; spec [; c ; spec ...]: each spec "?" is
// answered with OSC 4 ; c ; rgb:rrrr/gggg/bbbb, one reply per query as
// xterm sends them. Setting colours is not honoured: screenshots draw the
// session theme, so the replies report what is drawn. A bad index ends
// the list, as in xterm.
func (t *Terminal) oscPalette(rest string) {
	items := strings.Split(rest, ";")
	for i := 0; i+1 < len(items); i += 2 {
		c, err := strconv.Atoi(items[i])
		if err != nil || c < 0 || c > 255 {
			return
		}
		if items[i+1] == "?" {
			t.replyOSC("4;" + strconv.Itoa(c) + ";" + rgbSpec(t.paletteColor(uint8(c))))
		}
	}
}

// oscDynamic is OSC 10, 11 and 12 (default foreground, background, cursor
// colour): each "?" is answered, and further items go to the next number
// (OSC 10;?;? asks for 10 and 11), as xterm reads them. Sets are not
// honoured, like OSC 4's.
func (t *Terminal) oscDynamic(num int, rest string) {
	for _, item := range strings.Split(rest, ";") {
		if item == "?" {
			var c [3]uint8
			switch num {
			case 10:
				c = t.fgColor
			case 11:
				c = t.bgColor
			case 12:
				c = t.cursorColor()
			default:
				return
			}
			t.replyOSC(strconv.Itoa(num) + ";" + rgbSpec(c))
		}
		num++
	}
}

// xtgettcap answers XTGETTCAP (DCS + q Pt ST), Pt being hex-encoded
// termcap or terminfo names separated by ';'. As xterm does, one reply
// covers the list: DCS 1 + r name=value [; name=value] ST with names and
// values in hex (values in upper case), and at the first unknown name the
// reply ends after echoing it: DCS 0 + r name ST when it is the first.
func (t *Terminal) xtgettcap(data []byte) {
	status, body := byte('0'), []byte(nil)
	for i, hexName := range strings.Split(string(data), ";") {
		name, ok := decodeHexString(hexName)
		value := ""
		if ok {
			value, ok = t.tcapValue(name)
		}
		if i == 0 && ok {
			status = '1'
		}
		if i > 0 {
			body = append(body, ';')
		}
		body = append(body, hexName...)
		if !ok {
			break
		}
		body = append(body, '=')
		body = appendHexUpper(body, value)
	}
	t.replyString("\x1bP" + string(status) + "+r" + string(body) + "\x1b\\")
}

// tcapValue is the value xterm gives capability name: TN (name) the
// terminal name, Co (colors) 256, RGB 8 bits per channel, and the key
// capabilities the bytes the key sends now (cursor keys follow DECCKM).
func (t *Terminal) tcapValue(name string) (string, bool) {
	switch name {
	case "TN", "name":
		if t.ident.termName != "" {
			return t.ident.termName, true
		}
		return "xterm-256color", true
	case "Co", "colors":
		return "256", true
	case "RGB":
		return "8", true
	}
	k, ok := tcapKeys[name]
	if !ok {
		return "", false
	}
	return k.bytes(k.mod, t.modes.AppCursor), true
}

// tcapKey is a key capability: a key (xtermKeys) with xterm's modifier
// parameter (2 Shift, 3 Alt, 5 Ctrl, ... 0 none).
type tcapKey struct {
	xtermKey
	mod int
}

// tcapKeys maps termcap and terminfo key capability names to keys, as
// xterm's table pairs them: kf13-kf63 are F1-F12 with Shift, Ctrl,
// Ctrl+Shift, Alt and Alt+Shift, and kUP, kDN3 ... the modified cursor
// and editing keys (2 Shift ... 8 Ctrl+Alt+Shift).
var tcapKeys = func() map[string]tcapKey {
	key := func(name string) tcapKey {
		k, _ := keyNamed(name) // every name below is in xtermKeys
		return tcapKey{xtermKey: k}
	}
	up, down, right, left := key("up"), key("down"), key("right"), key("left")
	home, end := key("home"), key("end")
	ins, del, pgup, pgdn := key("insert"), key("delete"), key("pageup"), key("pagedown")
	shift := func(k tcapKey) tcapKey { k.mod = 2; return k }
	m := map[string]tcapKey{}
	add := func(tc, ti string, k tcapKey) {
		if tc != "" {
			m[tc] = k
		}
		m[ti] = k
	}
	add("ku", "kcuu1", up)
	add("kd", "kcud1", down)
	add("kl", "kcub1", left)
	add("kr", "kcuf1", right)
	add("kh", "khome", home)
	add("@7", "kend", end)
	add("#2", "kHOM", shift(home))
	add("*7", "kEND", shift(end))
	add("#4", "kLFT", shift(left))
	add("%i", "kRIT", shift(right))
	add("%e", "kPRV", shift(up))
	add("%c", "kNXT", shift(down))
	add("kI", "kich1", ins)
	add("kD", "kdch1", del)
	add("kP", "kpp", pgup)
	add("kN", "knp", pgdn)
	add("kb", "kbs", key("backspace"))
	add("kB", "kcbt", tcapKey{xtermKey: xtermKey{plain: "\x1b[Z"}})
	const tcF = "123456789;" + "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqr"
	groups := [6]int{0, 2, 5, 6, 3, 4} // none, Shift, Ctrl, Ctrl+Shift, Alt, Alt+Shift
	for n := 1; n <= 63; n++ {
		tc := "F" + tcF[n-1:n] // kf11 and up: F1 ... Fr
		if n <= 10 {
			tc = "k" + tcF[n-1:n] // kf1-kf10: k1 ... k;
		}
		k := key("f" + strconv.Itoa((n-1)%12+1))
		k.mod = groups[(n-1)/12]
		add(tc, "kf"+strconv.Itoa(n), k)
	}
	for _, e := range []struct {
		name string
		k    tcapKey
	}{{"DN", down}, {"LFT", left}, {"RIT", right}, {"UP", up}, {"DC", del}, {"END", end},
		{"HOM", home}, {"IC", ins}, {"NXT", pgdn}, {"PRV", pgup}} {
		for p := 2; p <= 8; p++ {
			ti := "k" + e.name
			if p > 2 {
				ti += strconv.Itoa(p)
			}
			if _, taken := m[ti]; !taken { // kLFT, kRIT, kEND, ...: the entries above
				k := e.k
				k.mod = p
				m[ti] = k
			}
		}
	}
	return m
}()

// decodeHexString decodes a hex string (either case); false when it is
// empty, odd or not hex.
func decodeHexString(s string) (string, bool) {
	if s == "" || len(s)%2 != 0 {
		return "", false
	}
	b := make([]byte, len(s)/2)
	for i := range b {
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			return "", false
		}
		b[i] = byte(v)
	}
	return string(b), true
}

// appendHexUpper appends s in upper-case hex, two digits a byte, as
// xterm encodes XTGETTCAP values.
func appendHexUpper(b []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		b = append(b, hex[s[i]>>4], hex[s[i]&15])
	}
	return b
}
