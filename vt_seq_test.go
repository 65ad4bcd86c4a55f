package main

// vt_seq_test.go: one table per family of control functions, each case an
// input stream and the screen it must give, written out row by row. The
// cursor is marked in band by '▮' just before the cell it is on.

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// seqCase is one stream and the screen it must leave on a 10x4 terminal
// (unless cols/rows say otherwise).
type seqCase struct {
	name       string
	in         string
	want       []string // rows, trailing blanks trimmed, '▮' at the cursor
	cols, rows int
}

// render draws the terminal's rows with '▮' before the cursor's cell and
// combining marks after their base.
func render(term *Terminal) []string {
	s := term.Snapshot()
	out := make([]string, s.Rows)
	for r := 0; r < s.Rows; r++ {
		var b strings.Builder
		for c := 0; c < s.Cols; c++ {
			cell := s.Cells[r*s.Cols+c]
			if r == s.Cursor.Row && c == s.Cursor.Col {
				b.WriteRune('▮')
			}
			switch {
			case cell.Width == 0:
				continue
			case cell.Rune == 0:
				b.WriteByte(' ')
			default:
				b.WriteRune(cell.Rune)
			}
			b.WriteString(s.Marks[r*s.Cols+c])
		}
		out[r] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// runSeqCases checks each case whole and at every split point, as x/term
// does with key presses: escape sequences and runes cut across writes.
func runSeqCases(t *testing.T, cases []seqCase) {
	t.Helper()
	for _, tc := range cases {
		cols, rows := tc.cols, tc.rows
		if cols == 0 {
			cols, rows = 10, 4
		}
		want := make([]string, rows)
		copy(want, tc.want)
		term := NewTerminal(cols, rows, 10)
		term.Write([]byte(tc.in))
		got := render(term)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %q\ngot\n\t%s\nwant\n\t%s", tc.name, tc.in, strings.Join(got, "|\n\t"), strings.Join(want, "|\n\t"))
			continue
		}
		for size := 1; size < len(tc.in); size++ {
			term := NewTerminal(cols, rows, 10)
			for in := []byte(tc.in); len(in) > 0; {
				n := min(size, len(in))
				term.Write(in[:n])
				in = in[n:]
			}
			if got := render(term); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: fed in chunks of %d: got %q", tc.name, size, got)
				break
			}
		}
	}
}

func TestVTControls(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"text", "hello", []string{"hello▮"}, 0, 0},
		{"CR LF", "ab\r\ncd", []string{"ab", "cd▮"}, 0, 0},
		{"LF keeps column", "ab\ncd", []string{"ab", "  cd▮"}, 0, 0},
		{"BS", "abc\b\bX", []string{"aX▮c"}, 0, 0},
		{"BS at column 0 stays", "\bX", []string{"X▮"}, 0, 0},
		{"HT to stops every 8", "a\tb", []string{"a       b▮"}, 0, 0},
		{"HT stops at the last column", "\t\t\tX", []string{"         ▮X"}, 0, 0},
		{"VT and FF are LF", "a\vb\fc", []string{"a", " b", "  c▮"}, 0, 0},
		{"LF scrolls at the bottom", "1\r\n2\r\n3\r\n4\r\n5", []string{"2", "3", "4", "5▮"}, 0, 0},
		{"BEL and NUL draw nothing", "a\x07\x00b", []string{"ab▮"}, 0, 0},
		{"DEL is ignored", "a\x7fb", []string{"ab▮"}, 0, 0},
		{"CAN aborts a sequence", "\x1b[3\x18A", []string{"A▮"}, 0, 0},
		{"C0 inside CSI executes", "ab\x1b[\bC", []string{"ab▮"}, 0, 0},
		{"LNM: LF is CR LF", "\x1b[20hab\ncd", []string{"ab", "cd▮"}, 0, 0},
	})
}

func TestVTWrap(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"pending wrap at the last column", "0123456789", []string{"012345678▮9"}, 0, 0},
		{"wrap on the next character", "0123456789ab", []string{"0123456789", "ab▮"}, 0, 0},
		{"CR clears the pending wrap", "0123456789\rX", []string{"X▮123456789"}, 0, 0},
		{"DECAWM off overwrites the last column", "\x1b[?7l0123456789ab", []string{"012345678▮b"}, 0, 0},
		{"wide character", "a日b", []string{"a日b▮"}, 0, 0},
		{"wide character wraps early", "012345678日", []string{"012345678", "日▮"}, 0, 0},
		{"overwriting half a wide character blanks the other", "日本\x1b[2GX", []string{" X▮本"}, 0, 0},
		{"combining mark stays with its base", "e\u0301x", []string{"e\u0301x▮"}, 0, 0},
		{"ZWJ is zero width", "a\u200db", []string{"a\u200db▮"}, 0, 0},
		{"emoji presentation is wide", "\U0001F600x", []string{"\U0001F600x▮"}, 0, 0},
		{"wrap scrolls at the bottom", "0123456789012345678901234567890123456789ab",
			[]string{"0123456789", "0123456789", "0123456789", "ab▮"}, 0, 0},
	})
}

// TestVTMarks places combining marks as xterm 379 does: on the character
// written last until something resets the pending wrap (cursor motion
// but HT and CBT, CR, LF, the erases, ICH, DCH, IL, DL), then on the
// character under the cursor; with none there the mark is dropped.
func TestVTMarks(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"after the character", "abc\u0301", []string{"abc\u0301▮"}, 0, 0},
		{"after SGR", "abc\x1b[1m\u0301", []string{"abc\u0301▮"}, 0, 0},
		{"after CUP, under the cursor", "abc\x1b[1;2H\u0301", []string{"a▮b\u0301c"}, 0, 0},
		{"after BS", "abc\b\u0301", []string{"ab▮c\u0301"}, 0, 0},
		{"after CR", "abc\r\u0301", []string{"▮a\u0301bc"}, 0, 0},
		{"after HT, on the character written last", "abc\t\u0301", []string{"abc\u0301     ▮"}, 0, 0},
		{"after CBT, on the character written last", "abc\x1b[Z\u0301", []string{"▮abc\u0301"}, 0, 0},
		{"after HT at the pending wrap", "0123456789\t\u0301", []string{"012345678▮9\u0301"}, 0, 0},
		{"at the pending wrap", "0123456789\u0301", []string{"012345678▮9\u0301"}, 0, 0},
		{"in the last column without DECAWM", "\x1b[?7l0123456789\u0301", []string{"012345678▮9\u0301"}, 0, 0},
		{"before the last column without DECAWM", "\x1b[?7l\x1b[1;8Hab\u0301", []string{"       ab\u0301▮"}, 0, 0},
		{"after BS onto a wide character", "\x1b[1;9H日\b\u0301", []string{"        ▮日\u0301"}, 0, 0},
		{"on an empty cell: dropped", "\x1b[2C\u0301X", []string{"  X▮"}, 0, 0},
		{"after CUP to the same place: dropped", "abc\x1b[1;4H\u0301", []string{"abc▮"}, 0, 0},
		{"after LF: dropped", "abc\n\u0301", []string{"abc", "   ▮"}, 0, 0},
	})
}

func TestVTUTF8(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"two, three and four bytes", "é€😀", []string{"é€😀▮"}, 0, 0},
		{"invalid lead byte", "a\xffb", []string{"a\ufffdb▮"}, 0, 0},
		{"truncated sequence then ASCII", "a\xe2\x82b", []string{"a\ufffdb▮"}, 0, 0},
		{"truncated sequence then ESC", "\xe2\x1b[2GX", []string{"\ufffdX▮"}, 0, 0},
		{"stray continuation bytes", "\x80\x9c", []string{"\ufffd\ufffd▮"}, 0, 0},
		{"overlong form", "\xc0\xafx", []string{"\ufffd\ufffdx▮"}, 0, 0},
		{"surrogate", "\xed\xa0\x80x", []string{"\ufffd\ufffd\ufffdx▮"}, 0, 0},
		{"C1 code points are neither controls nor printed", "a\xc2\x9bb", []string{"ab▮"}, 0, 0},
	})
}

func TestVTCursorMotion(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"CUP", "\x1b[2;3HX", []string{"", "  X▮"}, 0, 0},
		{"CUP defaults home", "ab\x1b[HX", []string{"X▮b"}, 0, 0},
		{"CUP clamps", "\x1b[99;99HX", []string{"", "", "", "         ▮X"}, 0, 0},
		{"HVP", "\x1b[3;2fX", []string{"", "", " X▮"}, 0, 0},
		{"CUU CUD CUF CUB", "\x1b[3;5H\x1b[2A\x1b[C\x1b[2DX\x1b[BY", []string{"   X", "    Y▮"}, 0, 0},
		{"CUU stops at row 0", "\x1b[9AX", []string{"X▮"}, 0, 0},
		{"CNL and CPL go to column 0", "ab\x1b[2EX\x1b[FY", []string{"ab", "Y▮", "X"}, 0, 0},
		{"CHA and HPA", "\x1b[5GX\x1b[2`Y", []string{" Y▮  X"}, 0, 0},
		{"VPA keeps the column", "ab\x1b[3dX", []string{"ab", "", "  X▮"}, 0, 0},
		{"HPR and VPR", "\x1b[2a\x1b[1eX", []string{"", "  X▮"}, 0, 0},
		{"no HPB or VPB, as xterm", "\x1b[3;5H\x1b[2j\x1b[2kX", []string{"", "", "    X▮"}, 0, 0},
		{"VPR ignores the margins", "\x1b[1;2r\x1b[5eX", []string{"", "", "", "X▮"}, 0, 0},
		{"CUD stops at the bottom margin", "\x1b[1;2r\x1b[5BX", []string{"", "X▮"}, 0, 0},
	})
}

func TestVTErase(t *testing.T) {
	t.Parallel()
	full := "abcdefghij\r\nklmnopqrst\r\nuvwxyzABCD\r\nEFGHIJKLMN"
	runSeqCases(t, []seqCase{
		{"ED 0", full + "\x1b[2;3H\x1b[J", []string{"abcdefghij", "kl▮"}, 0, 0},
		{"ED 1", full + "\x1b[2;3H\x1b[1J", []string{"", "  ▮ nopqrst", "uvwxyzABCD", "EFGHIJKLMN"}, 0, 0},
		{"ED 2 keeps the cursor", full + "\x1b[2;3H\x1b[2J", []string{"", "  ▮"}, 0, 0},
		{"EL 0", full + "\x1b[2;3H\x1b[K", []string{"abcdefghij", "kl▮", "uvwxyzABCD", "EFGHIJKLMN"}, 0, 0},
		{"EL 1", full + "\x1b[2;3H\x1b[1K", []string{"abcdefghij", "  ▮ nopqrst", "uvwxyzABCD", "EFGHIJKLMN"}, 0, 0},
		{"EL 2", full + "\x1b[2;3H\x1b[2K", []string{"abcdefghij", "  ▮", "uvwxyzABCD", "EFGHIJKLMN"}, 0, 0},
		{"ECH", "abcdef\x1b[2G\x1b[3X", []string{"a▮   ef"}, 0, 0},
		{"ECH past the edge", "abcdef\x1b[5G\x1b[99X", []string{"abcd▮"}, 0, 0},
		{"erasing half a wide character", "日本\x1b[2G\x1b[X", []string{" ▮ 本"}, 0, 0},
		{"DECSED spares protected cells", "a\x1b[1\"qb\x1b[0\"qc\x1b[?2J", []string{" b ▮"}, 0, 0},
		// At the pending wrap the cursor is on the last column: the erases
		// include it and drop the wrap, so X lands in the last column
		// (xterm 379, testdata/vt/xterm/xterm_oracle.py; xterm's t0055-EL).
		{"EL 0 at the pending wrap", "0123456789\x1b[KX", []string{"012345678▮X"}, 0, 0},
		{"EL 1 at the pending wrap", "0123456789\x1b[1KX", []string{"         ▮X"}, 0, 0},
		{"EL 2 at the pending wrap", "0123456789\x1b[2KX", []string{"         ▮X"}, 0, 0},
		{"ED 0 at the pending wrap", "0123456789\x1b[JX", []string{"012345678▮X"}, 0, 0},
		{"ED 1 at the pending wrap", "0123456789\x1b[1JX", []string{"         ▮X"}, 0, 0},
		{"ED 2 at the pending wrap", "0123456789\x1b[2JX", []string{"         ▮X"}, 0, 0},
		{"ED 3 keeps the pending wrap", "0123456789\x1b[3JX", []string{"0123456789", "X▮"}, 0, 0},
		{"DECSEL at the pending wrap", "0123456789\x1b[?KX", []string{"012345678▮X"}, 0, 0},
		{"DECSED at the pending wrap", "0123456789\x1b[?JX", []string{"012345678▮X"}, 0, 0},
		{"DECSEL at the pending wrap spares a protected last cell", "012345678\x1b[1\"q9\x1b[0\"q\x1b[?KX", []string{"012345678▮X"}, 0, 0},
	})
}

func TestVTEdit(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"ICH", "abcdef\x1b[2G\x1b[2@", []string{"a▮  bcdef"}, 0, 0},
		{"ICH drops cells at the edge", "0123456789\x1b[1G\x1b[3@", []string{"▮   0123456"}, 0, 0},
		{"DCH", "abcdef\x1b[2G\x1b[2P", []string{"a▮def"}, 0, 0},
		{"IRM inserts", "abc\x1b[1G\x1b[4hXY", []string{"XY▮abc"}, 0, 0},
		{"IL goes to column 0", "a\r\nb\r\nc\x1b[2;2H\x1b[L", []string{"a", "▮", "b", "c"}, 0, 0},
		{"DL", "a\r\nb\r\nc\x1b[1;2H\x1b[2M", []string{"▮c"}, 0, 0},
		{"IL outside the region does nothing", "a\x1b[2;3r\x1b[1;1H\x1b[L", []string{"▮a"}, 0, 0},
		{"REP", "ab\x1b[3b", []string{"abbbb▮"}, 0, 0},
		{"REP after a control repeats nothing", "ab\r\x1b[3b", []string{"▮ab"}, 0, 0},
		{"REP after an OSC repeats nothing", "ab\x1b]2;t\x07\x1b[3b", []string{"ab▮"}, 0, 0},
		{"DECALN", "\x1b#8", []string{"▮EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE"}, 0, 0},
		// xterm 379: DECALN turns DECOM off (CUP homes to the top left
		// after new margins) and leaves DECSCA on.
		{"DECALN resets DECOM", "\x1b[2;3r\x1b[?6h\x1b#8\x1b[2;3r\x1b[1;1HX", []string{"X▮EEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE", "EEEEEEEEEE"}, 0, 0},
		{"DECALN keeps DECSCA", "\x1b[1\"q\x1b#8\x1b[2;2HX\x1b[?2J", []string{"", " X▮"}, 0, 0},
		{"DECIC in the region", "abc\r\nabc\x1b[1;2r\x1b[1;2H\x1b['}", []string{"a▮ bc", "a bc"}, 0, 0},
		{"DECDC", "abc\r\nabc\x1b[1;2H\x1b['~", []string{"a▮c", "ac"}, 0, 0},
	})
}

// TestVTDECALNPen checks the pen DECALN leaves: no SGR attributes, the
// colours as they were (xterm 379).
func TestVTDECALNPen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Cell
	}{
		{"\x1b[31;41;1;2;3;4;5;7;8;9m\x1b#8X", Cell{Rune: 'X', Width: 1, FG: PaletteColor(1), BG: PaletteColor(1)}},
		{"\x1b[32;44;1m\x1b#8X", Cell{Rune: 'X', Width: 1, FG: PaletteColor(2), BG: PaletteColor(4)}},
		{"\x1b[1;4m\x1b#8X\x1b[0m", Cell{Rune: 'X', Width: 1}},
	}
	for _, tc := range tests {
		term := NewTerminal(10, 4, 0)
		term.Write([]byte(tc.in))
		if got := term.CellAt(0, 0); got != tc.want {
			t.Errorf("%q: cell %+v, want %+v", tc.in, got, tc.want)
		}
		if e := term.CellAt(1, 5); e != (Cell{Rune: 'E', Width: 1}) {
			t.Errorf("%q: the E's are in the default rendition, got %+v", tc.in, e)
		}
	}
}

func TestVTScroll(t *testing.T) {
	t.Parallel()
	rows := "1\r\n2\r\n3\r\n4"
	runSeqCases(t, []seqCase{
		{"SU", rows + "\x1b[S", []string{"2", "3", "4", " ▮"}, 0, 0},
		{"SD", rows + "\x1b[2T", []string{"", "", "1", "2▮"}, 0, 0},
		{"SD with four parameters", rows + "\x1b[1;2;3;4T", []string{"", "1", "2", "3▮"}, 0, 0},
		{"five parameters are mouse highlighting", rows + "\x1b[1;2;3;4;5T", []string{"1", "2", "3", "4▮"}, 0, 0},
		{"DECSTBM homes the cursor", "\x1b[2;3r", []string{"▮"}, 0, 0},
		{"LF scrolls inside the region", rows + "\x1b[2;3r\x1b[3;1H\nX", []string{"1", "3", "X▮", "4"}, 0, 0},
		{"RI scrolls down at the top margin", rows + "\x1b[2;3r\x1b[2;1H\x1bMX", []string{"1", "X▮", "2", "4"}, 0, 0},
		{"IND and NEL", "ab\x1bDc\x1bEd", []string{"ab", "  c", "d▮"}, 0, 0},
		{"RI at the top scrolls", "a\x1bMb", []string{" b▮", "a"}, 0, 0},
		{"DECOM: CUP is region relative", "\x1b[2;3r\x1b[?6h\x1b[1;1HX\x1b[9;1HY", []string{"", "X", "Y▮"}, 0, 0},
		{"SU in a region", rows + "\x1b[2;3r\x1b[S", []string{"▮1", "3", "", "4"}, 0, 0},
	})
}

func TestVTTabs(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"HTS and TBC 0", "\x1b[3G\x1bH\x1b[1G\tX\x1b[3G\x1b[g\x1b[1G\tY", []string{"  X     Y▮"}, 20, 2},
		{"TBC 3 clears all", "\x1b[3g\tX", []string{"                   ▮X"}, 20, 2},
		{"CHT", "\x1b[2IX", []string{"                X▮"}, 20, 2},
		{"CBT", "\x1b[18G\x1b[2ZX", []string{"        X▮"}, 20, 2},
	})
}

func TestVTCharsetsAndSave(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"DEC special graphics", "\x1b(0lqk\x1b(Bx", []string{"┌─┐x▮"}, 0, 0},
		{"SO and SI switch G1", "\x1b)0a\x0eq\x0fq", []string{"a─q▮"}, 0, 0},
		{"DECSC and DECRC", "ab\x1b7\x1b[3;3HX\x1b8Y", []string{"abY▮", "", "  X"}, 0, 0},
		{"CSI s and u", "ab\x1b[s\x1b[3;3HX\x1b[uY", []string{"abY▮", "", "  X"}, 0, 0},
		{"DECRC restores the charset", "\x1b(0\x1b7\x1b(B\x1b8q", []string{"─▮"}, 0, 0},
		{"RIS", "ab\x1b[?7l\x1bc", []string{"▮"}, 0, 0},
		{"alternate screen 1049 and back", "main\x1b[?1049halt\x1b[?1049l", []string{"main▮"}, 0, 0},
		{"1049l restores the cursor even on the main screen", "ab\x1b7\r\nc\x1b[?1049lX", []string{"abX▮", "c"}, 0, 0},
		{"47 keeps the alternate contents", "m\x1b[?47ha\x1b[?47l\x1b[?47h", []string{" a▮"}, 0, 0},
		{"1047 clears it when leaving", "m\x1b[?1047ha\x1b[?1047l\x1b[?1047h", []string{"  ▮"}, 0, 0},
	})
}

func TestVTIgnoredSequences(t *testing.T) {
	t.Parallel()
	runSeqCases(t, []seqCase{
		{"unknown CSI", "a\x1b[?999;5zb", []string{"ab▮"}, 0, 0},
		{"CSI with two intermediates", "a\x1b[1$!pb", []string{"ab▮"}, 0, 0},
		{"malformed CSI goes to ignore", "a\x1b[1?5hb", []string{"ab▮"}, 0, 0},
		{"unknown OSC", "a\x1b]777;notify;x\x07b", []string{"ab▮"}, 0, 0},
		{"0x9C inside OSC does not end it", "\x1b]2;\xe2\x9c\xb3x\x1b\\b", []string{"b▮"}, 0, 0},
		{"DCS", "a\x1bPq#0;2;0;0;0~-\x1b\\b", []string{"ab▮"}, 0, 0},
		{"APC, PM, SOS", "a\x1b_Gf=24\x1b\\\x1b^pm\x1b\\\x1bXsos\x1b\\b", []string{"ab▮"}, 0, 0},
		{"ESC with intermediates", "a\x1b%Gb\x1b#3c", []string{"abc▮"}, 0, 0},
		{"XTWINOPS", "a\x1b[22;0tb", []string{"ab▮"}, 0, 0},
		{"too many parameters", "a\x1b[" + strings.Repeat("1;", 100) + "mb", []string{"ab▮"}, 0, 0},
	})
}

// TestVTSGR checks the pen each SGR form sets.
func TestVTSGR(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Cell
	}{
		{"\x1b[1;3;4;7;9m", Cell{Attr: AttrBold | AttrItalic | AttrUnderline | AttrInverse | AttrStrike}},
		{"\x1b[1;2m", Cell{Attr: AttrBold | AttrDim}},
		{"\x1b[1;22m", Cell{}},
		{"\x1b[31;42m", Cell{FG: PaletteColor(1), BG: PaletteColor(2)}},
		{"\x1b[91;102m", Cell{FG: PaletteColor(9), BG: PaletteColor(10)}},
		{"\x1b[38;5;196;48;5;21m", Cell{FG: PaletteColor(196), BG: PaletteColor(21)}},
		{"\x1b[38:5:196m", Cell{FG: PaletteColor(196)}},
		{"\x1b[38;2;1;2;3m", Cell{FG: RGBColor(1, 2, 3)}},
		{"\x1b[38:2:1:2:3m", Cell{FG: RGBColor(1, 2, 3)}},
		{"\x1b[38:2::1:2:3m", Cell{FG: RGBColor(1, 2, 3)}},
		{"\x1b[38:2:0:1:2:3;1m", Cell{FG: RGBColor(1, 2, 3), Attr: AttrBold}},
		{"\x1b[48;2;300;2;3m", Cell{BG: RGBColor(255, 2, 3)}},
		{"\x1b[4:3m", Cell{Attr: AttrUnderline | 2<<AttrULShift}},
		{"\x1b[4:3;4:0m", Cell{}},
		{"\x1b[21m", Cell{Attr: AttrUnderline | 1<<AttrULShift}},     // double underline, as 4:2
		{"\x1b[4:3;21m", Cell{Attr: AttrUnderline | 1<<AttrULShift}}, // 21 replaces the style
		{"\x1b[21;24m", Cell{}},
		{"\x1b[58:5:4;4m", Cell{UL: PaletteColor(4), Attr: AttrUnderline}},
		{"\x1b[53;5;8m", Cell{Attr: AttrOverline | AttrBlink | AttrHidden}},
		{"\x1b[31;1m\x1b[m", Cell{}},
		{"\x1b[31;1m\x1b[39;22m", Cell{}},
		{"\x1b[38;5m", Cell{}},   // truncated: ignored
		{"\x1b[38;2;1m", Cell{}}, // truncated: ignored
	}
	for _, tc := range tests {
		term := NewTerminal(10, 2, 0)
		term.Write([]byte(tc.in + "X"))
		got := term.CellAt(0, 0)
		tc.want.Rune, tc.want.Width = 'X', 1
		if got != tc.want {
			t.Errorf("%q: got %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// TestVTBCE checks that erases keep the current background colour.
func TestVTBCE(t *testing.T) {
	t.Parallel()
	term := NewTerminal(10, 3, 0)
	term.Write([]byte("\x1b[44m\x1b[2J\x1b[m\x1b[41m\x1b[2;5H\x1b[K\x1b[m"))
	if got := term.CellAt(0, 0).BG; got != PaletteColor(4) {
		t.Errorf("ED background: got %x, want blue", got)
	}
	if got := term.CellAt(1, 3).BG; got != PaletteColor(4) {
		t.Errorf("cell before EL: got %x, want blue", got)
	}
	if got := term.CellAt(1, 9).BG; got != PaletteColor(1) {
		t.Errorf("EL background: got %x, want red", got)
	}
	if c := term.CellAt(1, 9); c.Attr != 0 || c.FG != 0 {
		t.Errorf("erased cell keeps only the background: %+v", c)
	}
}

// TestVTReplies checks every query this terminal answers.
func TestVTReplies(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"\x1b[c", "\x1b[?62;6;21;22c"},
		{"\x1b[0c", "\x1b[?62;6;21;22c"},
		{"\x1bZ", "\x1b[?62;6;21;22c"},
		{"\x1b[>c", "\x1b[>1;10;0c"},
		{"\x1b[5n", "\x1b[0n"},
		{"\x1b[3;4H\x1b[6n", "\x1b[3;4R"},
		{"\x1b[2;4r\x1b[?6h\x1b[2;1H\x1b[6n", "\x1b[2;1R"},
		{"\x1b[?6n", "\x1b[?1;1R"},
		{"\x1b[?2004h\x1b[?2004$p", "\x1b[?2004;1$y"},
		{"\x1b[?1$p", "\x1b[?1;2$y"},
		{"\x1b[?9999$p", "\x1b[?9999;0$y"},
		{"\x1b[?2$p", "\x1b[?2;3$y"}, // DECANM: permanently set
		{"\x1b[4h\x1b[4$p", "\x1b[4;1$y"},
		{"\x1b[20$p", "\x1b[20;2$y"},
		{"\x1b[>q", "\x1bP>|ttywright\x1b\\"},
		{"\x1b]10;?\x07", "\x1b]10;rgb:e5e5/e5e5/e5e5\x07"},
		{"\x1b]11;?\x1b\\", "\x1b]11;rgb:0000/0000/0000\x1b\\"},
		{"\x1b[1;31m\x1bP$qm\x1b\\", "\x1bP1$r1;31m\x1b\\"},
		{"\x1b[2;5r\x1bP$qr\x1b\\", "\x1bP1$r2;5r\x1b\\"},
		{"\x1b[5 q\x1bP$q q\x1b\\", "\x1bP1$r5 q\x1b\\"},
		{"\x1bP$qx\x1b\\", "\x1bP0$r\x1b\\"},
		{"\x1bP+q5858\x1b\\", "\x1bP0+r5858\x1b\\"},
		{"\x1b[18t", "\x1b[8;24;80t"},
		{"\x1b[?5h\x1b[?5$p", "\x1b[?5;1$y"},
	}
	for _, tc := range tests {
		term := NewTerminal(80, 24, 0)
		var out bytes.Buffer
		term.SetReplyWriter(&out)
		for i := 0; i < len(tc.in); i++ { // split replies must still come out whole
			term.Write([]byte{tc.in[i]})
		}
		if out.String() != tc.want {
			t.Errorf("%q: reply %q, want %q", tc.in, out.String(), tc.want)
		}
	}
	// Without a reply writer, queries are dropped quietly.
	term := NewTerminal(80, 24, 0)
	term.Write([]byte("\x1b[c\x1b[6n"))
}

// TestVTModes checks the modes and state other parts of the program read.
func TestVTModes(t *testing.T) {
	t.Parallel()
	term := NewTerminal(20, 5, 0)
	term.Write([]byte("\x1b[?1h\x1b=\x1b[?2004h\x1b[?2026h\x1b[?1002h\x1b[?1006h\x1b[?25l\x1b[6 q\x1b]2;my title\x07\x1b[?1049h"))
	m := term.Modes()
	want := Modes{AppCursor: true, AppKeypad: true, BracketedPaste: true, AltScreen: true, SyncOutput: true, Mouse: 1002, MouseEncoding: 1006}
	if m != want {
		t.Errorf("modes: got %+v, want %+v", m, want)
	}
	if c := term.Cursor(); c.Visible || c.Shape != CursorBar {
		t.Errorf("cursor: got %+v, want hidden bar", c)
	}
	if term.Title() != "my title" {
		t.Errorf("title: got %q", term.Title())
	}
	term.Write([]byte("\x1b[?1l\x1b>\x1b[?2004l\x1b[?2026l\x1b[?1002l\x1b[?1006l\x1b[?25h\x1b[0 q\x1b]0;other\x1b\\\x1b[?1049l"))
	if m := term.Modes(); m != (Modes{}) {
		t.Errorf("modes after reset: got %+v", m)
	}
	if c := term.Cursor(); !c.Visible || c.Shape != CursorBlock || term.Title() != "other" {
		t.Errorf("cursor %+v, title %q", c, term.Title())
	}
}

// TestVTSnapshotLinksMarks checks OSC 8 links and combining marks in a
// snapshot, and that the snapshot does not share memory with the screen.
func TestVTSnapshotLinksMarks(t *testing.T) {
	t.Parallel()
	term := NewTerminal(10, 2, 0)
	term.Write([]byte("\x1b]8;id=1;https://example.com/\x1b\\ab\x1b]8;;\x1b\\ce\u0301\u0302"))
	s := term.Snapshot()
	if s.Cells[0].Link == 0 || s.Links[s.Cells[0].Link] != "https://example.com/" {
		t.Errorf("link: cell %+v, links %v", s.Cells[0], s.Links)
	}
	if s.Cells[2].Link != 0 {
		t.Errorf("link did not end: %+v", s.Cells[2])
	}
	if s.Marks[3] != "\u0301\u0302" {
		t.Errorf("marks: got %v", s.Marks)
	}
	if got := term.Lines()[0]; got != "abce\u0301\u0302" {
		t.Errorf("line: got %q", got)
	}
	term.Write([]byte("\x1b[HZ"))
	if s.Cells[0].Rune != 'a' {
		t.Error("snapshot changed with the screen")
	}
}

// TestVTScrollback checks what goes to the history and what does not.
func TestVTScrollback(t *testing.T) {
	t.Parallel()
	term := NewTerminal(10, 2, 3)
	term.Write([]byte("1\r\n2\r\n3\r\n\x1b[31m4\x1b[m\r\n日本\r\n6"))
	if got, want := fmt.Sprint(term.ScrollbackLines()), "[2 3 4]"; got != want {
		t.Errorf("history: got %v, want %v (oldest dropped)", got, want)
	}
	if got := term.ScrollbackCells(2)[0]; got.Rune != '4' || got.FG != PaletteColor(1) {
		t.Errorf("history keeps styles: %+v", got)
	}
	if got := term.Lines(); fmt.Sprint(got) != "[日本 6]" {
		t.Errorf("screen: %q", got)
	}
	term.Write([]byte("\x1b[?1049h\r\na\r\nb\r\nc\x1b[?1049l"))
	if term.ScrollbackLen() != 3 || term.ScrollbackLines()[2] != "4" {
		t.Errorf("the alternate screen must not add history: %q", term.ScrollbackLines())
	}
	region := NewTerminal(10, 4, 10)
	region.Write([]byte("\x1b[2;4r\x1b[4;1Ha\nb\nc\n"))
	if region.ScrollbackLen() != 0 {
		t.Errorf("a region below the top must not add history: %q", region.ScrollbackLines())
	}
	region.Write([]byte("\x1b[1;3r\x1b[3;1Hx\ny\n"))
	if got := fmt.Sprintf("%q", region.ScrollbackLines()); got != `["" " b"]` {
		t.Errorf("a region at the top adds history: %q", got)
	}
	term.Write([]byte("\x1b[3J"))
	if term.ScrollbackLen() != 0 {
		t.Errorf("ED 3 keeps %d lines", term.ScrollbackLen())
	}
	cells := NewTerminal(4, 1, 5)
	cells.Write([]byte("日本\r\n"))
	if c := cells.ScrollbackCells(0); c[0].Width != 2 || c[1].Width != 0 || c[2].Rune != '本' {
		t.Errorf("wide cells in history: %+v", c)
	}
}

// TestVTScrollbackMemory bounds the memory of a full 10000-line history
// of 120-column rows.
func TestVTScrollbackMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a full history")
	}
	line := bytes.Repeat([]byte("0123456789"), 12)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	term := NewTerminal(120, 40, 10000)
	for i := 0; i < 11000; i++ {
		term.Write(line)
		term.Write([]byte("\r\n"))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	used := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("10000 x 120 history: %.1f MB", float64(used)/1e6)
	if used > 15<<20 {
		t.Errorf("history of 10000 full rows takes %d bytes, want under 15 MB", used)
	}
	if term.ScrollbackLen() != 10000 {
		t.Errorf("history holds %d rows", term.ScrollbackLen())
	}
	runtime.KeepAlive(term)
}

// TestVTGeneration checks the change counter.
func TestVTGeneration(t *testing.T) {
	t.Parallel()
	term := NewTerminal(10, 2, 0)
	g := term.Generation()
	term.Write([]byte("a"))
	if term.Generation() != g+1 {
		t.Errorf("text: generation %d, want %d", term.Generation(), g+1)
	}
	g = term.Generation()
	term.Write([]byte("b\x1b[31mc\r\n"))
	if term.Generation() != g+1 {
		t.Errorf("one write bumps once: generation %d, want %d", term.Generation(), g+1)
	}
	g = term.Generation()
	term.Write([]byte("\x1b[6n\x1b[c"))
	if term.Generation() != g {
		t.Errorf("queries changed the generation")
	}
	term.Resize(20, 3)
	if term.Generation() == g {
		t.Errorf("resize did not change the generation")
	}
}

// TestVTResize checks that rows are cut and padded, not reflowed, and the
// cursor row stays visible.
func TestVTResize(t *testing.T) {
	t.Parallel()
	term := NewTerminal(10, 4, 10)
	term.Write([]byte("1\r\n2\r\n3\r\n4日x"))
	term.Resize(3, 2)
	if got := fmt.Sprint(render(term)); got != "[3 4日▮]" {
		t.Errorf("shrunk: got %q", got)
	}
	if got := fmt.Sprint(term.ScrollbackLines()); got != "[1 2]" {
		t.Errorf("rows above the cursor went to history: got %v", got)
	}
	term.Resize(12, 3)
	if c, r := term.Size(); c != 12 || r != 3 {
		t.Errorf("size %dx%d", c, r)
	}
	term.Write([]byte("\x1b[3;12HZ"))
	if got := fmt.Sprintf("%q", term.Lines()); got != `["2" "3" "4日        Z"]` {
		t.Errorf("grown, a row back from the history: %s", got)
	}
	blank := NewTerminal(10, 6, 10)
	blank.Write([]byte("a\r\nb"))
	blank.Resize(10, 3)
	if got := fmt.Sprintf("%q %d", blank.Lines(), blank.ScrollbackLen()); got != `["a" "b" ""] 0` {
		t.Errorf("shrunk: blank rows below the cursor go first: %s", got)
	}
	term.Resize(0, -1)
	if c, r := term.Size(); c != 1 || r != 1 {
		t.Errorf("sizes below 1 become 1: %dx%d", c, r)
	}
}

// TestVTParserTransitions pins single transitions of the state machine
// that are easy to get wrong.
func TestVTParserTransitions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		from     vtState
		b        byte
		wantAct  vtAction
		wantNext vtState
	}{
		{"0x9C inside OSC is string content (UTF-8 continuation)", stOSC, 0x9C, acOSCPut, stOSC},
		{"BEL ends OSC", stOSC, 0x07, acNone, stGround},
		{"ESC inside OSC starts ST", stOSC, 0x1B, acNone, stEscape},
		{"CAN aborts CSI", stCSIParam, 0x18, acExecute, stGround},
		{"C0 inside CSI executes in place", stCSIParam, 0x0D, acExecute, stCSIParam},
		{"colon is a parameter byte", stCSIParam, ':', acParam, stCSIParam},
		{"private marker after parameters is malformed", stCSIParam, '?', acNone, stCSIIgnore},
		{"0x9C inside DCS data is data", stDCSPass, 0x9C, acPut, stDCSPass},
		{"ESC P opens DCS", stEscape, 'P', acNone, stDCSEntry},
		{"ESC _ opens APC, dropped", stEscape, '_', acNone, stString},
		{"high bytes inside CSI are ignored", stCSIEntry, 0xC3, acIgnore, stCSIEntry},
		{"DEL in ground is ignored", stGround, 0x7F, acIgnore, stGround},
	}
	for _, tc := range tests {
		tr := vtTransitions[tc.from][tc.b]
		a, next := vtAction(tr>>4), vtState(tr&0x0F)
		if a != tc.wantAct || next != tc.wantNext {
			t.Errorf("%s: %v on %#02x: action %d to %v, want action %d to %v", tc.name, tc.from, tc.b, a, next, tc.wantAct, tc.wantNext)
		}
	}
}

// TestVTUnknownCounted checks that sequences without meaning are counted
// (not drawn).
func TestVTUnknownCounted(t *testing.T) {
	t.Parallel()
	term := NewTerminal(10, 2, 0)
	term.Write([]byte("\x1b[5z\x1b]999;x\x07\x1bPzz\x1b\\\x1b#3"))
	if term.unknowns != 4 {
		t.Errorf("unknowns = %d, want 4", term.unknowns)
	}
	if got := term.Lines()[0]; got != "" {
		t.Errorf("drawn: %q", got)
	}
}

// csiParamCases are sequences of every shape for csi's parameter
// parsing: empty and long parameters, colons, more parameters than are
// kept, private markers, rejected bytes (BEL, 0xFF, an intermediate, a
// marker after the start), short and long ends. FuzzVTCSIParams starts
// from them.
var csiParamCases = []string{
	"\x1b[m", "\x1b[0m", "\x1b[38;2;255;128;0m", "\x1b[38:2::1:2:3m", "\x1b[;;;H",
	"\x1b[12345678;1m", "\x1b[1234567890123456789;2m", "\x1b[99999m", "\x1b[?1049h",
	"\x1b[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35m",
	"\x1b[1;2<3m", "\x1b[1;2 q", "\x1b[1;2\x07m", "\x1b[1;2;3;4;5;6;7;8;9;", "\x1b[00000000000000000001;2;3m",
	"\x1b[<1;2:3J", "\x1b[12;$4H", "\x1b[;\x07K", "\x1b[0\xff~", "\x1b[7::;:9?m", "\x1b[::::::::::::::::::::1H",
	"\x1b[;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;;K", "\x1b[4 ;5m", "\x1b[H", "\x1b[~",
}

// TestVTCSIParams checks csi's parameter parsing (ground's fast path)
// against vtParser.param, the table's byte-at-a-time rules, on
// csiParamCases, each alone and followed by more bytes (the fast path
// reads ahead).
func TestVTCSIParams(t *testing.T) {
	t.Parallel()
	for _, c := range csiParamCases {
		checkCSIParams(t, c)
		checkCSIParams(t, c+"padding for sixteen bytes")
	}
}

// FuzzVTCSIParams is TestVTCSIParams on any bytes after CSI.
func FuzzVTCSIParams(f *testing.F) {
	for _, c := range csiParamCases {
		f.Add([]byte(c[2:]))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkCSIParams(t, "\x1b["+string(in))
		checkCSIParams(t, "\x1b["+string(in)+"padding for sixteen bytes")
	})
}

// checkCSIParams compares csi's parse of c, which starts with CSI, with
// vtParser.param's: the length consumed, the parameters, the sub-parameter
// bits and the private marker.
func checkCSIParams(t *testing.T, c string) {
	t.Helper()
	term := NewTerminal(80, 24, 0)
	n := term.csi([]byte(c))
	var want vtParser
	wantN := 0
	for i := 2; i < len(c); i++ {
		b := c[i]
		if i == 2 && b >= 0x3C && b <= 0x3F {
			want.prefix = b
			continue
		}
		if b-'0' <= 9 || b == ';' || b == ':' {
			want.param(b)
			continue
		}
		if b >= 0x40 && b <= 0x7E {
			wantN = i + 1
		}
		break
	}
	if n != wantN {
		t.Errorf("csi(%q) = %d, want %d", c, n, wantN)
		return
	}
	if n == 0 {
		return
	}
	got := &term.p
	if got.nparams != want.nparams || got.sub != want.sub || got.prefix != want.prefix ||
		!slices.Equal(got.params[:got.nparams+1], want.params[:want.nparams+1]) {
		t.Errorf("csi(%q): params %v sub %b prefix %q, want %v sub %b prefix %q", c,
			got.params[:got.nparams+1], got.sub, got.prefix, want.params[:want.nparams+1], want.sub, want.prefix)
	}
}
