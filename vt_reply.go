package main

// vt_reply.go: the answers to queries that report colours and
// capabilities (OSC 4/10/11/12, XTGETTCAP), and what they report: the
// session's theme and TERM.

import (
	"strconv"
	"strings"
)

// vtIdent is what reports say about the session and how: the theme whose
// colours OSC 4, 10, 11 and 12 report (nil: xterm's default palette), the
// terminal name XTGETTCAP TN reports ("": xterm-256color), and whether
// replies use 8-bit C1 controls (S8C1T; RIS and S7C1T turn it off).
type vtIdent struct {
	theme    *Theme
	termName string
	c1       bool
}

// SetTheme makes OSC 4, 10, 11 and 12 queries report th's colours: the
// 16 ANSI colours, the default foreground and background, and the
// cursor. nil goes back to xterm's defaults.
func (t *Terminal) SetTheme(th *Theme) {
	t.ident.theme = th
	if th != nil {
		t.fgColor = [3]uint8{th.Foreground.R, th.Foreground.G, th.Foreground.B}
		t.bgColor = [3]uint8{th.Background.R, th.Background.G, th.Background.B}
	}
}

// SetTermName sets the name XTGETTCAP reports for TN (and "name"): the
// TERM the program was started with.
func (t *Terminal) SetTermName(name string) { t.ident.termName = name }

// xtermANSI is xterm's default palette for colours 0-15, reported when
// no theme was set.
var xtermANSI = [16][3]uint8{
	{0x00, 0x00, 0x00}, {0xcd, 0x00, 0x00}, {0x00, 0xcd, 0x00}, {0xcd, 0xcd, 0x00},
	{0x00, 0x00, 0xee}, {0xcd, 0x00, 0xcd}, {0x00, 0xcd, 0xcd}, {0xe5, 0xe5, 0xe5},
	{0x7f, 0x7f, 0x7f}, {0xff, 0x00, 0x00}, {0x00, 0xff, 0x00}, {0xff, 0xff, 0x00},
	{0x5c, 0x5c, 0xff}, {0xff, 0x00, 0xff}, {0x00, 0xff, 0xff}, {0xff, 0xff, 0xff},
}

// paletteColor is palette colour i as OSC 4 reports it: the theme's (or
// xterm's) colour for 0-15, the 6x6x6 cube and grey ramp above.
func (t *Terminal) paletteColor(i uint8) [3]uint8 {
	if i < 16 && t.ident.theme == nil {
		return xtermANSI[i]
	}
	th := t.ident.theme
	if th == nil {
		th = themeList[0] // 16-255 are the same in every theme
	}
	c := th.Palette(i)
	return [3]uint8{c.R, c.G, c.B}
}

// cursorColor is the colour OSC 12 reports: the theme's cursor, or the
// default foreground.
func (t *Terminal) cursorColor() [3]uint8 {
	if th := t.ident.theme; th != nil {
		return [3]uint8{th.Cursor.R, th.Cursor.G, th.Cursor.B}
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
			t.replyOSC("4;" + items[i] + ";" + rgbSpec(t.paletteColor(uint8(c))))
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
	key, ok := tcapKeys[name]
	if !ok {
		return "", false
	}
	b, err := encodeKey(key, t.modes.AppCursor)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// tcapKeys maps termcap and terminfo key capability names to the key
// names encodeKey takes, as xterm's table pairs them with keys; kf13-kf63
// are F1-F12 with Shift, Ctrl, Ctrl+Shift, Alt and Alt+Shift, and kUP,
// kDN3 ... the modified cursor and editing keys (2 = Shift ... 8 =
// Ctrl+Alt+Shift).
var tcapKeys = func() map[string]string {
	m := map[string]string{}
	add := func(tc, ti, key string) {
		if tc != "" {
			m[tc] = key
		}
		m[ti] = key
	}
	for _, k := range [][3]string{
		{"ku", "kcuu1", "Up"}, {"kd", "kcud1", "Down"}, {"kl", "kcub1", "Left"}, {"kr", "kcuf1", "Right"},
		{"kh", "khome", "Home"}, {"@7", "kend", "End"}, {"#2", "kHOM", "S-Home"}, {"*7", "kEND", "S-End"},
		{"#4", "kLFT", "S-Left"}, {"%i", "kRIT", "S-Right"}, {"%e", "kPRV", "S-Up"}, {"%c", "kNXT", "S-Down"},
		{"kI", "kich1", "Insert"}, {"kD", "kdch1", "Delete"}, {"kP", "kpp", "PageUp"}, {"kN", "knp", "PageDown"},
		{"kb", "kbs", "Backspace"}, {"kB", "kcbt", "S-Tab"},
	} {
		add(k[0], k[1], k[2])
	}
	const tcF = "123456789;" + "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqr"
	groups := []string{"", "S-", "C-", "C-S-", "M-", "M-S-"}
	for n := 1; n <= 63; n++ {
		tc := "F" + tcF[n-1:n] // kf11 and up: F1 ... Fr
		if n <= 10 {
			tc = "k" + tcF[n-1:n] // kf1-kf10: k1 ... k;
		}
		add(tc, "kf"+strconv.Itoa(n), groups[(n-1)/12]+"F"+strconv.Itoa((n-1)%12+1))
	}
	mods := []string{"", "", "S-", "M-", "M-S-", "C-", "C-S-", "C-M-", "C-M-S-"}
	for _, k := range [][2]string{{"DN", "Down"}, {"LFT", "Left"}, {"RIT", "Right"}, {"UP", "Up"},
		{"DC", "Delete"}, {"END", "End"}, {"HOM", "Home"}, {"IC", "Insert"}, {"NXT", "PageDown"}, {"PRV", "PageUp"}} {
		for p := 2; p <= 8; p++ {
			ti := "k" + k[0]
			if p > 2 {
				ti += strconv.Itoa(p)
			}
			if _, taken := m[ti]; !taken { // kLFT, kRIT: already the Shift entries
				m[ti] = mods[p] + k[1]
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
