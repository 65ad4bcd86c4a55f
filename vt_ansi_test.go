package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestSGRParams pins the one SGR form: parameters in numeric order, ';'
// between them and inside extended colours, ':' only for underline styles.
func TestSGRParams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		c    Cell
		want string
	}{
		{"default", Cell{}, "0"},
		{"every attribute", Cell{Attr: AttrBold | AttrDim | AttrItalic | AttrUnderline | AttrBlink | AttrInverse | AttrHidden | AttrStrike | AttrOverline}, "1;2;3;4;5;7;8;9;53"},
		{"curly underline", Cell{Attr: AttrUnderline | 2<<AttrULShift | AttrBlink}, "4:3;5"},
		{"dashed underline", Cell{Attr: AttrUnderline | 4<<AttrULShift}, "4:5"},
		{"ansi colours", Cell{FG: PaletteColor(1), BG: PaletteColor(7)}, "31;47"},
		{"bright colours", Cell{FG: PaletteColor(9), BG: PaletteColor(15)}, "91;107"},
		{"256 colours", Cell{FG: PaletteColor(16), BG: PaletteColor(255)}, "38;5;16;48;5;255"},
		{"truecolour", Cell{FG: RGBColor(1, 2, 3), BG: RGBColor(250, 0, 9)}, "38;2;1;2;3;48;2;250;0;9"},
		{"underline colour ansi", Cell{Attr: AttrUnderline, UL: PaletteColor(3)}, "4;58;5;3"},
		{"underline colour rgb", Cell{Attr: AttrUnderline, UL: RGBColor(9, 8, 7)}, "4;58;2;9;8;7"},
		{"protected is no SGR", Cell{Attr: attrProtected}, "0"},
	}
	for _, tt := range tests {
		if got := sgrParams(tt.c); got != tt.want {
			t.Errorf("%s: sgrParams = %q, want %q", tt.name, got, tt.want)
		}
		want := "\x1b[0;" + tt.want + "m"
		if tt.want == "0" {
			want = "\x1b[0m"
		}
		if got := string(appendSGR(nil, tt.c)); got != want {
			t.Errorf("%s: appendSGR = %q, want %q", tt.name, got, want)
		}
	}
}

// TestDECRQSSRoundTrip sets a pen, asks for it with DECRQSS and sets the
// reply's parameters on a fresh terminal: the pens must match.
func TestDECRQSSRoundTrip(t *testing.T) {
	t.Parallel()
	for _, sgr := range []string{
		"0", "1;31", "2;3;4:4;5;7;8;9;53", "38;5;200;48;2;1;2;3", "58;2;9;8;7;4", "58:5:12;4:2;95;100",
	} {
		src := NewTerminal(10, 2, 0)
		var reply bytes.Buffer
		src.SetReplyWriter(&reply)
		src.Write([]byte("\x1b[" + sgr + "m\x1bP$qm\x1b\\"))
		got := reply.String()
		params, ok := strings.CutPrefix(got, "\x1bP1$r")
		params, ok2 := strings.CutSuffix(params, "m\x1b\\")
		if !ok || !ok2 {
			t.Errorf("SGR %s: reply %q is not DCS 1 $ r Pt m ST", sgr, got)
			continue
		}
		dst := NewTerminal(10, 2, 0)
		dst.Write([]byte("\x1b[" + params + "mx"))
		src.Write([]byte("x"))
		a, b := src.Snapshot().Cells[0], dst.Snapshot().Cells[0]
		if !sameSGR(a, b) {
			t.Errorf("SGR %s: reply %q sets %+v, want %+v", sgr, params, b, a)
		}
	}
}

// ansiReplayScreens are the screens the round trip draws: every colour
// form, every attribute, wide and combining characters, and the state a
// redraw restores (title, cursor, alternate screen, hyperlinks).
func ansiReplayScreens() []struct{ name, in string } {
	var all256, rgb strings.Builder
	for i := range 256 {
		fmt.Fprintf(&all256, "\x1b[38;5;%d;48;5;%d;58;5;%d;4mx", i, 255-i, i)
	}
	for i := range 64 {
		fmt.Fprintf(&rgb, "\x1b[38;2;%d;%d;%d;48;2;%d;1;2;58;2;3;%d;4;4:%dmy", i*4, 255-i, i, i, i, i%5+1)
	}
	return []struct{ name, in string }{
		{"empty", ""},
		{"text and cursor", "hello\r\nworld\x1b[2;3H"},
		{"colours", "\x1b[31mred\x1b[92mbright\x1b[38;5;200mcube\x1b[38;2;1;2;3mrgb\x1b[44mbg\x1b[48;5;17mbg256\x1b[48;2;9;8;7mbgrgb\x1b[0m plain"},
		{"every palette colour", all256.String()},
		{"truecolour and underline styles", rgb.String()},
		{"attributes", "\x1b[1mbold\x1b[2mdim\x1b[3mital\x1b[4mul\x1b[4:3mcurly\x1b[58;5;9mulc\x1b[5mblink\x1b[7minv\x1b[8mhid\x1b[9mstrike\x1b[53mover\x1b[0m"},
		{"each attribute alone", "\x1b[1ma\x1b[0;2mb\x1b[0;3mc\x1b[0;4md\x1b[0;4:2me\x1b[0;4:5mf\x1b[0;5mg\x1b[0;7mh\x1b[0;8mi\x1b[0;9mj\x1b[0;53mk\x1b[0m"},
		{"attributes on blanks", "\x1b[7m  \x1b[0m \x1b[4m  \x1b[0m \x1b[9m \x1b[53m \x1b[0m"},
		{"erased background", "\x1b[41m\x1b[2J\x1b[5;5Hx\x1b[0m"},
		{"wide and combining", "日本語 e\u0301 🙂|\r\n\x1b[31m中\x1b[44m文\x1b[0ma\u0308\u0301"},
		{"wide at the right edge", "\x1b[1;79H中\x1b[2;80H文"},
		{"title and hidden bar cursor", "\x1b]2;my title\a\x1b[6 q\x1b[?25lbar"},
		{"alternate screen", "main\x1b[?1049h\x1b[32malt\x1b[3;3Hhere"},
		{"hyperlink", "\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\ after"},
		{"full last row", "\x1b[24;1H" + strings.Repeat("x", 80)},
		{"dec graphics", "\x1b(0lqqk\x1b(B"},
	}
}

// TestScreenANSIRoundTrip draws screens with the emulator, encodes them with
// screenANSI and feeds the result to a fresh emulator, whole and a byte at a
// time: the redraw form must give back the whole screen (cells, marks,
// links, cursor, title, alternate screen), the lines form the cells, with
// "\n" turned into "\r\n" as a terminal's ONLCR does when `cat` prints it.
func TestScreenANSIRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tt := range ansiReplayScreens() {
		t.Run(tt.name, func(t *testing.T) {
			src := NewTerminal(80, 24, 0)
			src.Write([]byte(tt.in))
			want := src.Snapshot()

			redraw := screenANSI(want, ansiRedraw)
			for _, split := range []bool{false, true} {
				dst := NewTerminal(80, 24, 0)
				feedANSI(dst, redraw, split)
				if d := sameScreen(dst.Snapshot(), want); d != "" {
					t.Errorf("redraw (byte split %v) differs: %s\nansi %q", split, d, redraw)
				}
			}

			lines := screenANSI(want, ansiLines)
			if n := bytes.Count(lines, []byte("\n")); n != want.Rows {
				t.Errorf("lines form has %d lines, want %d", n, want.Rows)
			}
			for _, split := range []bool{false, true} {
				// One row more: the last "\n" scrolls the rows up by one.
				dst := NewTerminal(80, 25, 0)
				feedANSI(dst, bytes.ReplaceAll(lines, []byte("\n"), []byte("\r\n")), split)
				got := dst.Snapshot()
				got.Cells, got.Rows = got.Cells[:want.Rows*want.Cols], want.Rows
				if d := snapshotCellsDiff(got, want, false); d != "" {
					t.Errorf("lines (byte split %v) differ: %s\nansi %q", split, d, lines)
				}
			}
		})
	}
}

// feedANSI writes p to term in one call or, with split, a byte at a time,
// so every sequence is also cut at every byte.
func feedANSI(term *Terminal, p []byte, split bool) {
	if !split {
		term.Write(p)
		return
	}
	for i := range p {
		term.Write(p[i : i+1])
	}
}

// sameScreen compares two snapshots cell by cell (a blank written as a
// space equals an empty cell; hyperlinks by URI), then the cursor, title
// and alternate screen, and returns the first difference, or "".
func sameScreen(a, b *Snapshot) string {
	if d := snapshotCellsDiff(a, b, true); d != "" {
		return d
	}
	if a.Cursor.Row != b.Cursor.Row || a.Cursor.Col != b.Cursor.Col || a.Cursor.Visible != b.Cursor.Visible || a.Cursor.Shape != b.Cursor.Shape {
		return fmt.Sprintf("cursor %+v vs %+v", a.Cursor, b.Cursor)
	}
	if a.Title != b.Title || a.Modes.AltScreen != b.Modes.AltScreen {
		return fmt.Sprintf("title %q alt %v vs title %q alt %v", a.Title, a.Modes.AltScreen, b.Title, b.Modes.AltScreen)
	}
	return ""
}

// snapshotCellsDiff compares the cells and combining marks of two
// snapshots (a blank written as a space equals an empty cell), and their
// hyperlinks by URI when links is set; it returns the first difference,
// or "".
func snapshotCellsDiff(a, b *Snapshot, links bool) string {
	if a.Cols != b.Cols || a.Rows != b.Rows {
		return fmt.Sprintf("size %dx%d vs %dx%d", a.Cols, a.Rows, b.Cols, b.Rows)
	}
	for i := range a.Cells {
		ca, cb := a.Cells[i], b.Cells[i]
		if ca.Rune == ' ' {
			ca.Rune = 0
		}
		if cb.Rune == ' ' {
			cb.Rune = 0
		}
		la, lb := a.Links[ca.Link], b.Links[cb.Link]
		if !links {
			la, lb = "", ""
		}
		ca.Link, cb.Link = 0, 0
		if ca != cb || la != lb || a.Marks[i] != b.Marks[i] {
			return fmt.Sprintf("cell %d,%d: %+v %q %q vs %+v %q %q", i/a.Cols, i%a.Cols, ca, la, a.Marks[i], cb, lb, b.Marks[i])
		}
	}
	return ""
}
