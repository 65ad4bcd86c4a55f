package main

// vt_keys.go: the keys of an xterm keyboard and the bytes each sends, the
// one table both the agent's keys (shell_send keys, tools_keys.go) and
// the XTGETTCAP replies for key capabilities (vt_reply.go) read.

import "strconv"

// xtermKey is a key as xterm sends it: a final byte after CSI or SS3
// (cursor keys, Home, End, F1-F4), or CSI n ~ (the editing keys and
// F5-F12), or plain bytes (Enter, Tab, ...; their modifiers are the
// caller's to apply).
type xtermKey struct {
	final byte   // 'A' ... for CSI/SS3 keys
	tilde int    // n of CSI n ~
	ss3   bool   // unmodified it is SS3 final even without DECCKM (F1-F4)
	plain string // plain keys
}

// xtermKeys maps lower-case key names to keys.
var xtermKeys = map[string]xtermKey{
	"enter": {plain: "\r"}, "return": {plain: "\r"}, "tab": {plain: "\t"},
	"backspace": {plain: "\x7f"}, "bs": {plain: "\x7f"},
	"escape": {plain: "\x1b"}, "esc": {plain: "\x1b"}, "space": {plain: " "},
	"up": {final: 'A'}, "down": {final: 'B'}, "right": {final: 'C'}, "left": {final: 'D'},
	"home": {final: 'H'}, "end": {final: 'F'},
	"insert": {tilde: 2}, "ins": {tilde: 2}, "delete": {tilde: 3}, "del": {tilde: 3},
	"pageup": {tilde: 5}, "pgup": {tilde: 5}, "pagedown": {tilde: 6}, "pgdn": {tilde: 6},
	"f1": {final: 'P', ss3: true}, "f2": {final: 'Q', ss3: true}, "f3": {final: 'R', ss3: true}, "f4": {final: 'S', ss3: true},
	"f5": {tilde: 15}, "f6": {tilde: 17}, "f7": {tilde: 18}, "f8": {tilde: 19},
	"f9": {tilde: 20}, "f10": {tilde: 21}, "f11": {tilde: 23}, "f12": {tilde: 24},
}

// bytes encodes k with xterm's modifier parameter mod (0 none, else 1
// plus the bits Shift 1, Alt 2, Ctrl 4: 2 Shift, 3 Alt, 5 Ctrl, ...):
// modified keys as CSI 1 ; mod final or CSI n ; mod ~, unmodified cursor
// keys, Home and End as SS3 under DECCKM (appCursor), F1-F4 as SS3. A
// plain key is its bytes whatever mod says.
func (k xtermKey) bytes(mod int, appCursor bool) string {
	switch {
	case k.plain != "":
		return k.plain
	case k.tilde != 0 && mod != 0:
		return "\x1b[" + strconv.Itoa(k.tilde) + ";" + strconv.Itoa(mod) + "~"
	case k.tilde != 0:
		return "\x1b[" + strconv.Itoa(k.tilde) + "~"
	case mod != 0:
		return "\x1b[1;" + strconv.Itoa(mod) + string(k.final)
	case k.ss3 || appCursor:
		return "\x1bO" + string(k.final)
	}
	return "\x1b[" + string(k.final)
}
