package main

// vt_keys.go: the keys of an xterm keyboard, their names and the bytes
// each sends: the one table of key names, which the agent's keys
// (shell_send keys, tools_keys.go), the tape language's key commands
// (tape_parse.go) and the XTGETTCAP replies for key capabilities
// (vt_reply.go) read, and the one reader of modifiers in a key name.

import (
	"errors"
	"strconv"
	"strings"
)

// xtermKey is a key as xterm sends it: a final byte after CSI or SS3
// (cursor keys, Home, End, F1-F4), or CSI n ~ (the editing keys and
// F5-F12), or plain bytes (Enter, Tab, ...; their modifiers are the
// caller's to apply). name is how README, key lists and tapes spell it:
// each name is also a tape's key command (VHS's, and F1 to F12).
type xtermKey struct {
	name  string // "PageUp"
	final byte   // 'A' ... for CSI/SS3 keys
	tilde int    // n of CSI n ~
	ss3   bool   // unmodified it is SS3 final even without DECCKM (F1-F4)
	plain string // plain keys
}

// xtermKeys are the named keys, the one table of key names: shell_send's
// keys, the tape language's key commands and the XTGETTCAP replies read
// it (keyNamed).
var xtermKeys = []xtermKey{
	{name: "Enter", plain: "\r"}, {name: "Tab", plain: "\t"}, {name: "Backspace", plain: "\x7f"},
	{name: "Escape", plain: "\x1b"}, {name: "Space", plain: " "},
	{name: "Up", final: 'A'}, {name: "Down", final: 'B'}, {name: "Right", final: 'C'}, {name: "Left", final: 'D'},
	{name: "Home", final: 'H'}, {name: "End", final: 'F'},
	{name: "Insert", tilde: 2}, {name: "Delete", tilde: 3}, {name: "PageUp", tilde: 5}, {name: "PageDown", tilde: 6},
	{name: "F1", final: 'P', ss3: true}, {name: "F2", final: 'Q', ss3: true}, {name: "F3", final: 'R', ss3: true}, {name: "F4", final: 'S', ss3: true},
	{name: "F5", tilde: 15}, {name: "F6", tilde: 17}, {name: "F7", tilde: 18}, {name: "F8", tilde: 19},
	{name: "F9", tilde: 20}, {name: "F10", tilde: 21}, {name: "F11", tilde: 23}, {name: "F12", tilde: 24},
}

// keyAliases are the other names keys answer to, lower case.
var keyAliases = map[string]string{
	"return": "enter", "bs": "backspace", "esc": "escape", "ins": "insert", "del": "delete", "pgup": "pageup", "pgdn": "pagedown",
}

// keyNamed returns the key called name, in any case or by an alias
// ("pgdn", "ESC"); false for no named key.
func keyNamed(name string) (xtermKey, bool) {
	low := strings.ToLower(name)
	if a, ok := keyAliases[low]; ok {
		low = a
	}
	for _, k := range xtermKeys {
		if strings.ToLower(k.name) == low {
			return k, true
		}
	}
	return xtermKey{}, false
}

// Modifier bits of a key, as xterm numbers them in CSI 1;m X (m = 1+bits).
const (
	modShift = 1
	modAlt   = 2
	modCtrl  = 4
)

// splitKeyName reads the modifiers off a key name and returns them (bits
// modShift, modAlt, modCtrl) with the rest: "C-M-x" is Ctrl and Alt with
// "x", "ctrl+Left" Ctrl with "Left", "S-Tab" Shift with "Tab", and caret
// notation as stty and less print it, "^C", Ctrl with "C". The
// modifiers are C- (or ctrl-), M- (or meta-, alt-, a-) and S- (or
// shift-), with - or +, in any case. The error names an unknown one
// ("X-y"); what the rest names is the caller's to check.
func splitKeyName(name string) (mods int, base string, err error) {
	if len(name) == 2 && name[0] == '^' && (name[1] >= '@' && name[1] <= '_' || name[1] >= 'a' && name[1] <= 'z' || name[1] == '?') {
		return modCtrl, name[1:], nil
	}
	base = name
	for {
		var p string
		n := 0
		low := strings.ToLower(base)
		switch {
		case len(base) > 2 && (base[1] == '-' || base[1] == '+'):
			p, n = low[:1], 2
		case len(base) > 5 && (strings.HasPrefix(low, "ctrl") || strings.HasPrefix(low, "meta")) && (low[4] == '-' || low[4] == '+'):
			p, n = low[:1], 5
		case len(base) > 4 && strings.HasPrefix(low, "alt") && (low[3] == '-' || low[3] == '+'):
			p, n = "m", 4
		case len(base) > 6 && strings.HasPrefix(low, "shift") && (low[5] == '-' || low[5] == '+'):
			p, n = "s", 6
		}
		switch p {
		case "":
			return mods, base, nil
		case "c":
			mods |= modCtrl
		case "m", "a":
			mods |= modAlt
		case "s":
			mods |= modShift
		default:
			return 0, "", errors.New("key " + strconv.Quote(name) + " has an unknown modifier " + strconv.Quote(base[:1]+"-") + ": use C- (Ctrl), M- (Alt) or S- (Shift)")
		}
		base = base[n:]
	}
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
