package main

// tools_keys_test.go: escapes in shell_send input, named keys (with DECCKM),
// keystroke units for type_delay_ms, and the escape stripper used by
// wait_for.

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		err      bool
	}{
		{"plain", "plain", false},
		{`ls -la\r`, "ls -la\r", false},
		{`a\nb\tc`, "a\nb\tc", false},
		{`\e[A\x1b[B`, "\x1b[A\x1b[B", false},
		{`\x03`, "\x03", false},
		{`\xFF`, "\xff", false},
		{`\u00e9\u4e2d`, "é中", false},
		{`back\\slash`, `back\slash`, false},
		{`\\r`, `\r`, false},
		{`grep 'a\.b'`, `grep 'a\.b'`, false},
		{`end\`, `end\`, false},
		{"real\r\ncontrol", "real\r\ncontrol", false},
		{`\x1`, "", true},
		{`\xg0`, "", true},
		{`\u12`, "", true},
		{`\ud800`, "", true},
		{`\ud83d\ude00!`, "\U0001F600!", false}, // a surrogate pair, as JSON writes it
		{`\uD83D\uDE00`, "\U0001F600", false},
		{`\ud83d x`, "", true},     // a lone high surrogate
		{`\ud83d\u0041`, "", true}, // not followed by a low one
		{`\ude00\ud83d`, "", true}, // the wrong way round
		{`\ud83d\ude0`, "", true},  // cut short
	}
	for _, tt := range tests {
		got, err := decodeInput(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("decodeInput(%q): error %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if !tt.err && string(got) != tt.want {
			t.Errorf("decodeInput(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzInputEscapes(f *testing.F) {
	for _, s := range []string{"", `ls\r`, `\x1b[A`, `\u00e9`, `\\`, `\`, `\x`, `\u12345`, "é\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := decodeInput(s)
		if err != nil {
			if !strings.Contains(err.Error(), "escape") {
				t.Errorf("error without a hint: %v", err)
			}
			return
		}
		if len(got) > len(s) {
			t.Errorf("decodeInput(%q) grew to %d bytes", s, len(got))
		}
		if !strings.Contains(s, `\`) && string(got) != s {
			t.Errorf("decodeInput(%q) = %q, want it unchanged", s, got)
		}
		// Doubling every backslash makes any text literal.
		lit, err := decodeInput(strings.ReplaceAll(s, `\`, `\\`))
		if err != nil || string(lit) != s {
			t.Errorf("decodeInput(escaped %q) = %q, %v", s, lit, err)
		}
	})
}

func TestEncodeKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key       string
		appCursor bool
		want      string
	}{
		{"Enter", false, "\r"},
		{"enter", false, "\r"},
		{"Tab", false, "\t"},
		{"S-Tab", false, "\x1b[Z"},
		{"Backspace", false, "\x7f"},
		{"Escape", false, "\x1b"},
		{"Space", false, " "},
		{"C-Space", false, "\x00"},
		{"Up", false, "\x1b[A"},
		{"Up", true, "\x1bOA"},
		{"Down", true, "\x1bOB"},
		{"Right", false, "\x1b[C"},
		{"Left", true, "\x1bOD"},
		{"Home", false, "\x1b[H"},
		{"Home", true, "\x1bOH"},
		{"End", true, "\x1bOF"},
		{"C-Left", true, "\x1b[1;5D"},
		{"M-Right", false, "\x1b[1;3C"},
		{"S-Up", false, "\x1b[1;2A"},
		{"C-M-Up", false, "\x1b[1;7A"},
		{"PageUp", false, "\x1b[5~"},
		{"PageDown", false, "\x1b[6~"},
		{"C-PageDown", false, "\x1b[6;5~"},
		{"Insert", false, "\x1b[2~"},
		{"Delete", false, "\x1b[3~"},
		{"F1", false, "\x1bOP"},
		{"F4", false, "\x1bOS"},
		{"S-F1", false, "\x1b[1;2P"},
		{"F5", false, "\x1b[15~"},
		{"F12", false, "\x1b[24~"},
		{"C-F5", false, "\x1b[15;5~"},
		{"C-c", false, "\x03"},
		{"^C", false, "\x03"},
		{"^c", false, "\x03"},
		{"^[", false, "\x1b"},
		{"^?", false, "\x7f"},
		{"^", false, "^"},
		{"C-C", false, "\x03"},
		{"Ctrl-d", false, "\x04"},
		{"ctrl+z", false, "\x1a"},
		{"C-[", false, "\x1b"},
		{"C-\\", false, "\x1c"},
		{"C-?", false, "\x7f"},
		{"C-@", false, "\x00"},
		{"M-x", false, "\x1bx"},
		{"Alt-b", false, "\x1bb"},
		{"M-C-a", false, "\x1b\x01"},
		{"M-Enter", false, "\x1b\r"},
		{"S-a", false, "A"},
		{"q", false, "q"},
		{"é", false, "é"},
		{"-", false, "-"},
	}
	for _, tt := range tests {
		got, err := encodeKey(tt.key, tt.appCursor)
		if err != nil || string(got) != tt.want {
			t.Errorf("encodeKey(%q, appCursor %v) = %q, %v; want %q", tt.key, tt.appCursor, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "Hyper-a", "F13", "Enterprise", "C-Enter", "C-é", "X-a", "ab"} {
		_, err := encodeKey(bad, false)
		if err == nil {
			t.Errorf("encodeKey(%q) succeeded", bad)
		} else if !strings.Contains(err.Error(), "Enter") && !strings.Contains(err.Error(), "Ctrl") {
			t.Errorf("encodeKey(%q): error %q does not list valid keys", bad, err)
		}
	}
}

func TestInputUnits(t *testing.T) {
	t.Parallel()
	in := "ab\x1b[1;5Dé\x1bOA\x1bx\x1b"
	want := []string{"a", "b", "\x1b[1;5D", "é", "\x1bOA", "\x1bx", "\x1b"}
	var got []string
	for _, u := range inputUnits([]byte(in)) {
		got = append(got, string(u))
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("inputUnits(%q) = %q, want %q", in, got, want)
	}
}

func TestANSIStripper(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain text\r\n", "plain text\n"},
		{"\x1b[1;31mred\x1b[0m", "red"},
		{"\x1b]0;title\x07after", "after"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1b(0qqq\x1b(B", "qqq"},
		{"\x1bPdcs\x1b\\x", "x"},
		{"a\x1b7b\x1b8c", "abc"},
		{"tab\there\x08", "tab\there"},
		{"\x1b[?1049h\x1b[Hscreen", "screen"},
		{"é中\x1b[K", "é中"},
	}
	for _, tt := range tests {
		// Every split point: escape sequences cut across reads.
		for cut := 0; cut <= len(tt.in); cut++ {
			var a ansiStripper
			got := a.appendText(nil, []byte(tt.in[:cut]))
			got = a.appendText(got, []byte(tt.in[cut:]))
			if string(got) != tt.want {
				t.Errorf("strip(%q) cut at %d = %q, want %q", tt.in, cut, got, tt.want)
				break
			}
		}
	}
}

func FuzzANSIStripper(f *testing.F) {
	f.Add([]byte("\x1b[1mhi\x1b]0;t\x07"), 3)
	f.Add([]byte("plain"), 0)
	f.Fuzz(func(t *testing.T, p []byte, cut int) {
		if cut < 0 || cut > len(p) {
			cut = len(p)
		}
		var a, b ansiStripper
		whole := a.appendText(nil, p)
		split := b.appendText(b.appendText(nil, p[:cut]), p[cut:])
		if !bytes.Equal(whole, split) {
			t.Errorf("split at %d: %q vs %q", cut, split, whole)
		}
		if bytes.IndexByte(whole, 0x1b) >= 0 || len(whole) > len(p) {
			t.Errorf("strip(%q) = %q", p, whole)
		}
	})
}

func TestTailText(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("line\n", 100) + "LAST"
	got, cut := tailText(long, 60, false)
	if !cut || !strings.HasPrefix(got, truncatedMarker) || !strings.HasSuffix(got, "LAST") || len(got) > 60 {
		t.Errorf("tailText: %q %v", got, cut)
	}
	if body := strings.TrimPrefix(got, truncatedMarker); !strings.HasPrefix(body, "line\n") {
		t.Errorf("tail does not start at a line: %q", body)
	}
	if got, cut := tailText("short", 30, false); got != "short" || cut {
		t.Errorf("tailText(short) = %q %v", got, cut)
	}
	got, _ = tailText(strings.Repeat("é", 50), 11, false)
	if !utf8.ValidString(got) {
		t.Errorf("tail splits a character: %q", got)
	}
	// max_bytes is a bound on what comes back, the marker included.
	for _, max := range []int{1, 5, 19, 37, 38, 100} {
		if got, _ := tailText(long, max, false); len(got) > max {
			t.Errorf("tailText(long, %d) is %d bytes: %q", max, len(got), got)
		}
	}
}

func TestParseWaitFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		re      bool
		subject string
		match   bool
	}{
		{"$ ", false, "user@host:~$ ", true},
		{"/^\\$ $/m", true, "out\n$ ", true},
		{"/ready/i", true, "READY", true},
		{"/ready/", true, "READY", false},
		{"/usr/bin", false, "/usr/bin/env", true},
		{"/a.c/g", true, "abc", true},
		{"/# $/", true, "out\nwork# \nnext", true}, // ^ and $ at line ends without the m flag
	}
	for _, tt := range tests {
		m, err := parseWaitFor(tt.in)
		if err != nil {
			t.Errorf("parseWaitFor(%q): %v", tt.in, err)
			continue
		}
		if (m.re != nil) != tt.re || m.matchString(tt.subject) != tt.match {
			t.Errorf("parseWaitFor(%q): regex %v, match(%q) %v; want %v %v", tt.in, m.re != nil, tt.subject, m.matchString(tt.subject), tt.re, tt.match)
		}
	}
}

// TestEncodeText: text is sent as written, newlines as CR, bracketed when
// the program enabled mode 2004, one character a unit when typed.
func TestEncodeText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text             string
		bracketed, typed bool
		want             []string
	}{
		{`printf 'a\tb\n'`, false, false, []string{`printf 'a\tb\n'`}},
		{"a\nb\r\nc", false, false, []string{"a\rb\rc"}},
		{"x\ny", true, false, []string{"\x1b[200~x\ry\x1b[201~"}},
		// A trailing newline is Enter after the paste: inside it would run nothing.
		{"echo one\necho two\n", true, false, []string{"\x1b[200~echo one\recho two\x1b[201~\r"}},
		{"a\t\n\n", true, false, []string{"\x1b[200~a\t\x1b[201~\r\r"}},
		{"é\n", true, true, []string{"é", "\r"}},
		{"", true, false, nil},
	}
	for _, tt := range tests {
		units, err := encodeText(tt.text, tt.bracketed, tt.typed)
		var got []string
		for _, u := range units {
			got = append(got, string(u))
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("encodeText(%q, %v, %v) = %q, %v; want %q", tt.text, tt.bracketed, tt.typed, got, err, tt.want)
		}
	}
	for _, bad := range []string{"a\x1b[201~b", "echo 'x\x03y'", "a\x1bb", "a\x7fb"} {
		if _, err := encodeText(bad, true, false); err == nil {
			t.Errorf("encodeText(%q) was accepted: a control character would act on its own inside the paste", bad)
		}
	}
}

// TestTextEndingInNewlineRuns: text whose last character is a newline is
// run, as a paste followed by Enter, in a shell with bracketed paste on.
func TestTextEndingInNewlineRuns(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := shellIn(t, a, t.TempDir())
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo o''ne\necho t''wo\n",
		"wait_for": "/^two$/", "timeout_ms": 5000})
	if m["matched"] != true || !strings.Contains(m["bufferAfter"].(string), "one\n") {
		t.Errorf("the pasted lines did not run: %q", m["bufferAfter"])
	}
}
