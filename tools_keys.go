package main

// tools_keys.go: what shell_send writes to the program: the escapes an agent
// types literally in `input` and the named `keys`, encoded as xterm does
// (xterm ctlseqs, "PC-Style Function Keys").

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxInputBytes caps the bytes one shell_send may write to the program
// (README "Limits").
const maxInputBytes = 1 << 20

// decodeInput interprets the escapes an agent writes literally in input:
// \r \n \t \e \x1b (any \xHH: one raw byte) \uHHHH (a code point, UTF-8
// encoded; a UTF-16 surrogate pair \uD83D\uDE00 is one code point) and \\
// (one backslash). Anything else after a backslash is kept
// as typed, so "grep 'a\.b'" reaches the program unchanged. An escape that
// starts like \x or \u but is malformed is an error naming its offset.
func decodeInput(s string) ([]byte, error) {
	if !strings.Contains(s, `\`) {
		return []byte(s), nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			out = append(out, c)
			continue
		}
		switch s[i+1] {
		case 'r':
			out = append(out, '\r')
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'e':
			out = append(out, 0x1b)
		case '\\':
			out = append(out, '\\')
		case 'x':
			v, ok := hexValue(s, i+2, 2)
			if !ok {
				return nil, fmt.Errorf(`input has a bad escape at byte %d: \x takes two hex digits, e.g. \x1b for Escape or \x03 for Ctrl-C (write \\ for a literal backslash)`, i)
			}
			out = append(out, byte(v))
			i += 2
		case 'u':
			v, ok := hexValue(s, i+2, 4)
			if ok && v >= 0xd800 && v <= 0xdbff && strings.HasPrefix(s[i+6:], `\u`) {
				// A UTF-16 surrogate pair, as JSON writes characters past
				// U+FFFF ("\ud83d\ude00" for U+1F600).
				if lo, ok := hexValue(s, i+8, 4); ok && lo >= 0xdc00 && lo <= 0xdfff {
					out = utf8.AppendRune(out, utf16.DecodeRune(rune(v), rune(lo)))
					i += 10
					break
				}
			}
			if !ok || v >= 0xd800 && v <= 0xdfff {
				return nil, fmt.Errorf(`input has a bad escape at byte %d: \u takes four hex digits of a code point that is not a lone surrogate, e.g. \u00e9, or a surrogate pair such as \ud83d\ude00 (write \\ for a literal backslash)`, i)
			}
			out = utf8.AppendRune(out, rune(v))
			i += 4
		default:
			out = append(out, '\\', s[i+1])
		}
		i++
	}
	return out, nil
}

// hexValue reads n hex digits of s at i.
func hexValue(s string, i, n int) (int, bool) {
	if i+n > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// keyNamesShort lists the key names for shell_send's description.
const keyNamesShort = "Enter, Tab, Escape, Up, PageDown, F5, C-c, M-x (Alt), S-Tab..."

// keyNamesHelp lists the key names for error messages.
const keyNamesHelp = "Enter, Tab, Backspace, Escape, Space, Up, Down, Left, Right, Home, End, PageUp, PageDown, " +
	"Insert, Delete, F1-F12, a single character, and modifiers C- (Ctrl), M- (Alt), S- (Shift) " +
	"as in C-c, M-x, C-Left, S-Tab (or ^C)"

// encodeKey returns the bytes for a named key such as "Enter", "C-c"
// (or "^C"), "M-b", "C-Left" or "F5". Arrow keys and Home/End follow DECCKM
// (appCursor: SS3 instead of CSI) when unmodified, as xterm sends them.
func encodeKey(name string, appCursor bool) ([]byte, error) {
	mods, base, err := splitKeyName(name)
	if err != nil {
		return nil, fmt.Errorf("%v; valid keys: %s", err, keyNamesHelp)
	}
	if k, ok := keyNamed(base); ok {
		return encodeNamed(k, mods, appCursor, name)
	}
	r, size := utf8.DecodeRuneInString(base)
	if base == "" || size != len(base) || r == utf8.RuneError {
		return nil, fmt.Errorf("unknown key %q: valid keys are %s; send text with input instead", name, keyNamesHelp)
	}
	return encodeChar(r, mods, name)
}

// encodeNamed sends k with modifiers (bits modShift, modAlt, modCtrl)
// the way xterm does: xtermKey.bytes for the cursor, editing and
// function keys; a plain key gets back tab for S-Tab, NUL for C-Space,
// ESC before it for Alt.
func encodeNamed(k xtermKey, mods int, appCursor bool, name string) ([]byte, error) {
	if k.plain == "" {
		mod := 0
		if mods != 0 {
			mod = 1 + mods
		}
		return []byte(k.bytes(mod, appCursor)), nil
	}
	p := k.plain
	if p == "\t" && mods&modShift != 0 { // S-Tab: back tab (CBT)
		p, mods = "\x1b[Z", mods&^modShift
	}
	if mods&modCtrl != 0 && p == " " { // C-Space is NUL
		p, mods = "\x00", mods&^modCtrl
	}
	mods &^= modShift // xterm sends Enter, Space, Backspace, Escape the same with Shift
	if mods&modCtrl != 0 {
		return nil, fmt.Errorf("key %q: a terminal cannot send %s with Ctrl; use it alone, with M- (Alt), or send the bytes with input", name, strings.TrimLeft(name[strings.LastIndexAny(name, "-+")+1:], " "))
	}
	if mods&modAlt != 0 {
		p = "\x1b" + p
	}
	return []byte(p), nil
}

// encodeChar sends one character with modifiers: Ctrl maps @, letters and
// [\]^_ ? to C0 (C-a = 0x01, C-? = DEL), Alt prefixes ESC, Shift upcases.
func encodeChar(r rune, mods int, name string) ([]byte, error) {
	if mods&modShift != 0 {
		r = []rune(strings.ToUpper(string(r)))[0]
	}
	var out []byte
	if mods&modCtrl != 0 {
		switch {
		case r >= 'a' && r <= 'z':
			out = []byte{byte(r - 'a' + 1)}
		case r >= '@' && r <= '_':
			out = []byte{byte(r - '@')}
		case r == '?':
			out = []byte{0x7f}
		case r == ' ' || r == '2':
			out = []byte{0}
		default:
			return nil, fmt.Errorf("key %q: Ctrl combines with a letter or one of @[\\]^_? only, e.g. C-c", name)
		}
	} else {
		out = utf8.AppendRune(nil, r)
	}
	if mods&modAlt != 0 {
		out = append([]byte{0x1b}, out...)
	}
	return out, nil
}

// inputUnits splits p into what a person types as one keystroke, for
// type_delay_ms: a UTF-8 character, or an escape sequence (ESC [ ... final,
// ESC O x, ESC x) kept whole so programs do not take it for a lone Escape.
func inputUnits(p []byte) [][]byte {
	var units [][]byte
	for i := 0; i < len(p); {
		n := 1
		switch {
		case p[i] == 0x1b && i+1 < len(p) && p[i+1] == '[':
			n = 2
			for i+n < len(p) && p[i+n] >= 0x20 && p[i+n] <= 0x3f {
				n++
			}
			if i+n < len(p) && p[i+n] >= 0x40 && p[i+n] <= 0x7e {
				n++
			}
		case p[i] == 0x1b && i+2 < len(p) && p[i+1] == 'O':
			n = 3
		case p[i] == 0x1b && i+1 < len(p) && p[i+1] != 0x1b:
			_, size := utf8.DecodeRune(p[i+1:])
			n = 1 + size
		case p[i] >= 0x80:
			_, n = utf8.DecodeRune(p[i:])
		}
		units = append(units, p[i:i+n])
		i += n
	}
	return units
}

// Bracketed paste (DECSET 2004): a program that enabled it gets pasted
// text between these, and so neither runs nor re-indents it line by line.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// encodeText returns shell_send's text as a terminal delivers a paste:
// exactly as given (no escape processing), each newline (\n or \r\n) as
// CR, between the bracketed-paste brackets when the program enabled
// mode 2004. typed (type_delay_ms) returns one unit per character
// instead, without brackets, as a person types it. While pasting
// bracketed, newlines at the end are sent after the closing bracket, as
// Enter, and control characters other than tab and newline (ESC, which
// could end the paste early, and C-c) are refused.
func encodeText(text string, bracketed, typed bool) ([][]byte, error) {
	if text == "" {
		return nil, nil
	}
	b := []byte(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\r"), "\n", "\r"))
	if typed {
		var units [][]byte
		for i := 0; i < len(b); {
			_, n := utf8.DecodeRune(b[i:])
			units = append(units, b[i:i+n])
			i += n
		}
		return units, nil
	}
	if !bracketed {
		return [][]byte{b}, nil
	}
	if strings.Contains(text, pasteEnd) {
		return nil, fmt.Errorf("text contains the end-of-paste sequence ESC [201~, which would end the paste early: send it with input instead")
	}
	// A control character inside a paste acts on its own (C-c interrupts
	// the paste half read; xterm leaves them out of a bracketed paste).
	if i := strings.IndexFunc(text, func(r rune) bool { return r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f }); i >= 0 {
		return nil, fmt.Errorf("text contains the control character %q at byte %d, which a program reads as a key, not as pasted text: send it separately with keys (e.g. [\"C-c\"]) or input", text[i], i)
	}
	// Trailing newlines are typed after the paste, as Enter: a newline
	// inside the brackets is part of the text and runs nothing, so a
	// paste that ends in one would sit unrun in the line editor.
	body := bytes.TrimRight(b, "\r")
	enter := b[len(body):]
	return [][]byte{append(append(append([]byte(pasteStart), body...), pasteEnd...), enter...)}, nil
}

// endsWithLoneEsc reports whether the last byte written ends the input
// with an Escape that starts no sequence: the Escape key itself (never
// the ESC of a cursor key's CSI or of an Alt combination, which carry
// more bytes in the same write).
func endsWithLoneEsc(units [][]byte) bool {
	if len(units) == 0 {
		return false
	}
	u := units[len(units)-1]
	return len(u) > 0 && u[len(u)-1] == 0x1b
}
