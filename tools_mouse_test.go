package main

// tools_mouse_test.go: mouse reports byte for byte as xterm's ctlseqs ("Mouse
// Tracking") documents them, for every tracking mode and encoding, at
// the columns where the encodings part ways (95/96 for UTF-8, 223/224
// for the one-byte form), the alternate-scroll arrows, and the modes the
// emulator tracks. The expected bytes are written out by hand from the
// document, not computed.

import (
	"strings"
	"testing"
)

// sessionWithModes is a Session with only a terminal that has been fed
// setup (DECSET sequences), for the tools' encoding paths.
func sessionWithModes(cols, rows int, setup string) *Session {
	s := &Session{ID: "t1", term: NewTerminal(cols, rows, 0)}
	s.term.Write([]byte(setup))
	return s
}

// TestClickBytesEveryModeAndEncoding: a click (press, release) or wheel
// step at 0-based row 4, col 9 (1-based x 10, y 5) in each mode and
// encoding. Pixels (1016) are the middle of the cell at the default
// screenshot scale 2: cells of 16x32 pixels, so x 9*16+8+1, y 4*32+16+1.
func TestClickBytesEveryModeAndEncoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		setup  string
		button string
		mods   []string
		want   string
	}{
		// X10 (9): press only, button-1 plus 32, no release.
		{"\x1b[?9h", "left", nil, "\x1b[M *%"},
		{"\x1b[?9h", "right", nil, "\x1b[M\"*%"},
		{"\x1b[?9h\x1b[?1006h", "left", nil, "\x1b[<0;10;5M"},
		{"\x1b[?9h\x1b[?1015h", "middle", nil, "\x1b[33;10;5M"},
		// Normal (1000): press, then release as button 3.
		{"\x1b[?1000h", "left", nil, "\x1b[M *%\x1b[M#*%"},
		{"\x1b[?1000h", "middle", nil, "\x1b[M!*%\x1b[M#*%"},
		{"\x1b[?1000h", "right", []string{"ctrl"}, "\x1b[M2*%\x1b[M3*%"},
		{"\x1b[?1000h", "left", []string{"shift", "alt", "ctrl"}, "\x1b[M<*%\x1b[M?*%"},
		{"\x1b[?1000h\x1b[?1005h", "left", nil, "\x1b[M *%\x1b[M#*%"},
		{"\x1b[?1000h\x1b[?1006h", "left", nil, "\x1b[<0;10;5M\x1b[<0;10;5m"},
		{"\x1b[?1000h\x1b[?1006h", "right", []string{"ctrl"}, "\x1b[<18;10;5M\x1b[<18;10;5m"},
		{"\x1b[?1000h\x1b[?1015h", "left", nil, "\x1b[32;10;5M\x1b[35;10;5M"},
		{"\x1b[?1000h\x1b[?1015h", "right", []string{"shift"}, "\x1b[38;10;5M\x1b[39;10;5M"},
		{"\x1b[?1000h\x1b[?1016h", "left", nil, "\x1b[<0;153;145M\x1b[<0;153;145m"},
		// Button-event (1002) and any-event (1003): a click is the same.
		{"\x1b[?1002h", "left", nil, "\x1b[M *%\x1b[M#*%"},
		{"\x1b[?1002h\x1b[?1006h", "middle", nil, "\x1b[<1;10;5M\x1b[<1;10;5m"},
		{"\x1b[?1002h\x1b[?1005h", "right", nil, "\x1b[M\"*%\x1b[M#*%"},
		{"\x1b[?1002h\x1b[?1015h", "left", nil, "\x1b[32;10;5M\x1b[35;10;5M"},
		{"\x1b[?1002h\x1b[?1016h", "right", nil, "\x1b[<2;153;145M\x1b[<2;153;145m"},
		{"\x1b[?1003h", "left", nil, "\x1b[M *%\x1b[M#*%"},
		{"\x1b[?1003h\x1b[?1006h", "left", []string{"alt"}, "\x1b[<8;10;5M\x1b[<8;10;5m"},
		{"\x1b[?1003h\x1b[?1005h", "left", nil, "\x1b[M *%\x1b[M#*%"},
		{"\x1b[?1003h\x1b[?1015h", "middle", nil, "\x1b[33;10;5M\x1b[35;10;5M"},
		{"\x1b[?1003h\x1b[?1016h", "left", nil, "\x1b[<0;153;145M\x1b[<0;153;145m"},
		// Wheel: buttons 4 and 5 as 64 and 65, no release.
		{"\x1b[?1000h", "wheel_up", nil, "\x1b[M`*%"},
		{"\x1b[?1000h", "wheel_down", []string{"shift"}, "\x1b[Me*%"},
		{"\x1b[?1002h\x1b[?1005h", "wheel_down", []string{"alt", "ctrl"}, "\x1b[My*%"},
		{"\x1b[?1000h\x1b[?1006h", "wheel_up", nil, "\x1b[<64;10;5M"},
		{"\x1b[?1003h\x1b[?1006h", "wheel_down", []string{"ctrl"}, "\x1b[<81;10;5M"},
		{"\x1b[?1000h\x1b[?1015h", "wheel_up", nil, "\x1b[96;10;5M"},
		{"\x1b[?1000h\x1b[?1016h", "wheel_down", nil, "\x1b[<65;153;145M"},
		// The last encoding and the last mode set win; resetting another
		// one changes nothing.
		{"\x1b[?1006h\x1b[?1015h", "left", nil, ""},
		{"\x1b[?1000h\x1b[?1006h\x1b[?1015h", "left", nil, "\x1b[32;10;5M\x1b[35;10;5M"},
		{"\x1b[?1000h\x1b[?1006h\x1b[?1015l", "left", nil, "\x1b[<0;10;5M\x1b[<0;10;5m"},
		{"\x1b[?1000h\x1b[?1006h\x1b[?1006l", "left", nil, "\x1b[M *%\x1b[M#*%"},
	}
	a := newApp(Config{Scale: 2})
	for _, tt := range tests {
		s := sessionWithModes(80, 24, tt.setup)
		row, col := 4, 9
		got, _, err := a.tools.clickBytes(s, clickArgs{Button: tt.button, Modifiers: tt.mods}, row, col)
		if tt.want == "" {
			if err == nil {
				t.Errorf("%q %s: no error with no mouse mode, sent %q", tt.setup, tt.button, got)
			}
			continue
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("%q %s %v: got %q (%v), want %q", tt.setup, tt.button, tt.mods, got, err, tt.want)
		}
	}
}

// TestMousePositionEncodings: the column (x) where the encodings differ.
// One-byte: 32+x up to x 223 (byte 255), x 224 and beyond clamp to the
// past-the-end mark 0. UTF-8 (1005): one byte up to x 95, two-byte UTF-8
// of 32+x from x 96. SGR and urxvt: decimal, no limit. Row 0 (y 1).
func TestMousePositionEncodings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		enc  int
		col  int // 0-based
		want string
	}{
		{0, 94, "\x1b[M \x7f!"},
		{0, 95, "\x1b[M \x80!"},
		{0, 222, "\x1b[M \xff!"},
		{0, 223, "\x1b[M \x00!"},
		{0, 299, "\x1b[M \x00!"},
		{encUTF8, 94, "\x1b[M \x7f!"},
		{encUTF8, 95, "\x1b[M \xc2\x80!"},
		{encUTF8, 222, "\x1b[M \xc3\xbf!"},
		{encUTF8, 223, "\x1b[M \xc4\x80!"},
		{encUTF8, 299, "\x1b[M \xc5\x8c!"},
		{encUTF8, 2014, "\x1b[M \xdf\xbf!"},
		{encUTF8, 2015, "\x1b[M \x00!"},
		{encSGR, 94, "\x1b[<0;95;1M"},
		{encSGR, 95, "\x1b[<0;96;1M"},
		{encSGR, 223, "\x1b[<0;224;1M"},
		{encSGR, 299, "\x1b[<0;300;1M"},
		{encURXVT, 95, "\x1b[32;96;1M"},
		{encURXVT, 223, "\x1b[32;224;1M"},
		{encURXVT, 299, "\x1b[32;300;1M"},
		{encSGRPixels, 299, "\x1b[<0;300;1M"}, // px 299 given directly
	}
	for _, tt := range tests {
		ev := mouseEvent{button: btnLeft, col: tt.col, px: tt.col}
		if got := string(encodeMouse(mouseNormal, tt.enc, ev)); got != tt.want {
			t.Errorf("encoding %d col %d: got %q, want %q", tt.enc, tt.col, got, tt.want)
		}
	}
	// The row goes through the same encoding: y 96 in 1005.
	if got, want := string(encodeMouse(mouseNormal, encUTF8, mouseEvent{row: 95})), "\x1b[M !\xc2\x80"; got != want {
		t.Errorf("1005 row 95: got %q, want %q", got, want)
	}
}

// TestClickDoubleAndWheelSteps: count 2 is two press/release pairs, a
// wheel count is that many presses.
func TestClickDoubleAndWheelSteps(t *testing.T) {
	t.Parallel()
	a := newApp(Config{Scale: 2})
	s := sessionWithModes(80, 24, "\x1b[?1000h\x1b[?1006h")
	two, three := 2, 3
	got, _, err := a.tools.clickBytes(s, clickArgs{Count: &two}, 0, 0)
	if want := "\x1b[<0;1;1M\x1b[<0;1;1m\x1b[<0;1;1M\x1b[<0;1;1m"; err != nil || string(got) != want {
		t.Errorf("double click: got %q (%v), want %q", got, err, want)
	}
	got, _, err = a.tools.clickBytes(s, clickArgs{Button: "wheel_down", Count: &three}, 0, 0)
	if want := strings.Repeat("\x1b[<65;1;1M", 3); err != nil || string(got) != want {
		t.Errorf("3 wheel steps: got %q (%v), want %q", got, err, want)
	}
}

// TestAltScrollArrows: with no mouse mode, alternate scroll (1007) on the
// alternate screen turns a wheel step into five arrow keys (xterm's
// default wheel binding), ESC O A in application-cursor mode; on the
// main screen, or without 1007, the click is refused.
func TestAltScrollArrows(t *testing.T) {
	t.Parallel()
	a := newApp(Config{Scale: 2})
	tests := []struct {
		setup, button string
		want          string // "" = refused
	}{
		{"\x1b[?1007h\x1b[?1049h", "wheel_up", strings.Repeat("\x1b[A", 5)},
		{"\x1b[?1007h\x1b[?1049h\x1b[?1h", "wheel_down", strings.Repeat("\x1bOB", 5)},
		{"\x1b[?1007h", "wheel_up", ""},
		{"\x1b[?1049h", "wheel_up", ""},
		{"\x1b[?1007h\x1b[?1049h", "left", ""},
		{"\x1b[?1007h\x1b[?1049h\x1b[?1000h", "wheel_up", "\x1b[M`!!"},
	}
	for _, tt := range tests {
		got, _, err := a.tools.clickBytes(sessionWithModes(80, 24, tt.setup), clickArgs{Button: tt.button}, 0, 0)
		if tt.want == "" {
			if err == nil || !strings.Contains(err.Error(), "keys") {
				t.Errorf("%q %s: got %q, %v; want an error suggesting keys", tt.setup, tt.button, got, err)
			}
			continue
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("%q %s: got %q (%v), want %q", tt.setup, tt.button, got, err, tt.want)
		}
	}
}

// TestClickRefusals: what a mode cannot send, and bad arguments, are
// errors that name the fix.
func TestClickRefusals(t *testing.T) {
	t.Parallel()
	a := newApp(Config{Scale: 2})
	four, zero := 4, 0
	tests := []struct {
		setup string
		in    clickArgs
		want  string
	}{
		{"", clickArgs{}, "has not enabled mouse reporting"},
		{"\x1b[?9h", clickArgs{Modifiers: []string{"shift"}}, "no modifier"},
		{"\x1b[?9h", clickArgs{Button: "wheel_up"}, "no wheel"},
		{"\x1b[?1001h", clickArgs{}, "highlight"},
		{"\x1b[?1000h", clickArgs{Button: "back"}, "use left, middle, right"},
		{"\x1b[?1000h", clickArgs{Count: &four}, "double click"},
		{"\x1b[?1000h", clickArgs{Count: &zero}, "out of range"},
		{"\x1b[?1000h", clickArgs{Modifiers: []string{"super"}}, "use shift, alt or ctrl"},
	}
	for _, tt := range tests {
		_, _, err := a.tools.clickBytes(sessionWithModes(80, 24, tt.setup), tt.in, 0, 0)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q %+v: error %v, want one containing %q", tt.setup, tt.in, err, tt.want)
		}
	}
	s := sessionWithModes(80, 24, "\x1b[?1000h")
	row, col := 24, 5
	if _, _, err := clickTarget(s, clickArgs{Row: &row, Col: &col}); err == nil || !strings.Contains(err.Error(), "80x24") {
		t.Errorf("row 24 on a 24-row screen: %v, want an error naming 80x24", err)
	}
}

// TestMouseModesTracked: DECSET/DECRST of the tracking modes, encodings
// and alternate scroll show in Modes and in DECRQM replies.
func TestMouseModesTracked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in        string
		mode, enc int
		altScroll bool
	}{
		{"\x1b[?1000h\x1b[?1016h\x1b[?1007h", 1000, 1016, true},
		{"\x1b[?1003h\x1b[?1005h\x1b[?1007h\x1b[?1007l", 1003, 1005, false},
		{"\x1b[?1002h\x1b[?1006h\x1b[?1002l\x1b[?1006l", 0, 0, false},
		{"\x1b[?9h\x1b[?1015h\x1b[?1000l", 9, 1015, false},
	}
	for _, tt := range tests {
		term := NewTerminal(80, 24, 0)
		term.Write([]byte(tt.in))
		m := term.Modes()
		if m.Mouse != tt.mode || m.MouseEncoding != tt.enc || m.AltScroll != tt.altScroll {
			t.Errorf("%q: Mouse %d MouseEncoding %d AltScroll %v, want %d %d %v", tt.in, m.Mouse, m.MouseEncoding, m.AltScroll, tt.mode, tt.enc, tt.altScroll)
		}
	}
	var reply strings.Builder
	term := NewTerminal(80, 24, 0)
	term.SetReplyWriter(&reply)
	term.Write([]byte("\x1b[?1016h\x1b[?1007h\x1b[?1016$p\x1b[?1007$p\x1b[?1006$p"))
	if got, want := reply.String(), "\x1b[?1016;1$y\x1b[?1007;1$y\x1b[?1006;2$y"; got != want {
		t.Errorf("DECRQM: got %q, want %q", got, want)
	}
	if got, want := mouseModeName(1002, 1006), "1002 button-event, SGR 1006"; got != want {
		t.Errorf("mouseModeName: %q, want %q", got, want)
	}
}

// FuzzEncodeMouse: any event in any mode and encoding encodes without a
// panic to a report that starts with CSI.
func FuzzEncodeMouse(f *testing.F) {
	f.Add(1000, 1006, 0, false, 0, 5, 10)
	f.Add(9, 0, 65, true, 28, 3000, 70000)
	f.Fuzz(func(t *testing.T, mode, enc, button int, release bool, mods, row, col int) {
		if row < 0 || col < 0 || button < 0 || button > 65 || mods < 0 || mods > 28 {
			return
		}
		b := encodeMouse(mode, enc, mouseEvent{button: button, release: release, mods: mods, row: row, col: col, px: col, py: row})
		if len(b) > 0 && !strings.HasPrefix(string(b), "\x1b[") {
			t.Errorf("report %q does not start with CSI", b)
		}
	})
}
