package main

// tools_styled_test.go: the styled markup and runs of screens fed to the
// emulator (reverse video, bold colours, 256 and truecolor, links, a
// base background, the cursor, wide characters), shell_find's matching
// and style filter, and a fuzz test of the markup.

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// styledOf feeds in to a cols x rows terminal and renders it styled.
func styledOf(cols, rows int, in string) styledScreen {
	term := NewTerminal(cols, rows, 0)
	term.Write([]byte(in))
	return renderStyled(term.Snapshot())
}

func TestStyledMarkup(t *testing.T) {
	t.Parallel()
	hide := "\x1b[?25l"
	tests := []struct {
		name, in, want string
	}{
		{"plain rows stay plain", hide + "hello\r\n  world", "hello\n  world"},
		{"reverse item", hide + "  \x1b[7m< OK >\x1b[m  <Cancel>", "  {rev}< OK >{/}  <Cancel>"},
		{"SGR 31 with bold is red, not bright-red", hide + "\x1b[1;31mError: bad\x1b[m here", "{bold red}Error: bad{/} here"},
		{"bright, 256 and truecolor", hide + "\x1b[91ma\x1b[38;5;196mb\x1b[38;2;255;0;0mc\x1b[m", "{bright-red}a{196}b{#ff0000}c"},
		{"background and attributes", hide + "\x1b[2;3;4;33;44mx\x1b[m", "{dim italic ul yellow on-blue}x"},
		{"a blank between words joins the run", hide + "\x1b[32mok  go\x1b[m", "{green}ok  go"},
		{"trailing coloured blanks are dropped", hide + "\x1b[32mok   \x1b[m", "{green}ok"},
		{"link", hide + "\x1b]8;;https://x.test/\x07site\x1b]8;;\x07", "{link=https://x.test/}site"},
		{"cursor", "ab\x1b[7mcd\x1b[m\x1b[1;4H", "ab{rev}c{|}d"},
		{"cursor after the text", "ab ", "ab {|}"},
		{"back to plain", hide + "\x1b[7mon\x1b[m off", "{rev}on{/} off"},
		{"frames show only their background", hide + "\x1b[1;37;44m┌─\x1b[22;30m OK \x1b[1;37m─┐\x1b[m", "{on-blue}┌─ {black on-blue}OK ─┐"},
		{"often used colours are numbered", hide + "\x1b[32mab\x1b[m|\x1b[32mcd\x1b[m|\x1b[32mef\x1b[m|\x1b[31mx\x1b[m|\x1b[31my\x1b[m|\x1b[31mz", "{1=green}\n{1}ab{/}|{1}cd{/}|{1}ef{/}|{red}x{/}|{red}y{/}|{red}z"},
		{"wide characters once", hide + "\x1b[7m日本\x1b[m!", "{rev}日本{/}!"},
		{"base background", hide + "\x1b[44m\x1b[2J\x1b[Hmenu \x1b[30;47m item \x1b[44m", "{base on-blue}\nmenu {black on-white} item "},
		{"default run on a base", hide + "\x1b[44m\x1b[2J\x1b[H\x1b[49mplain", "{base on-blue}\n{on-default}plain"},
	}
	for _, tt := range tests {
		if got := styledOf(30, 3, tt.in).Text; got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestStyledRuns(t *testing.T) {
	t.Parallel()
	st := styledOf(20, 3, "\x1b[?25lab\r\n\x1b[7m OK \x1b[m \x1b[1;38;5;196mx\x1b[m")
	got, _ := json.Marshal(st.Runs)
	want := `[{"row":1,"col":0,"len":4,"text":" OK ","style":{"reverse":true}},{"row":1,"col":5,"len":1,"text":"x","style":{"bold":true,"fg":"196"}}]`
	if string(got) != want {
		t.Errorf("runs:\n got %s\nwant %s", got, want)
	}
}

func TestColorNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		c    Color
		name string
	}{
		{PaletteColor(0), "black"}, {PaletteColor(1), "red"}, {PaletteColor(7), "white"},
		{PaletteColor(9), "bright-red"}, {PaletteColor(15), "bright-white"},
		{PaletteColor(16), "16"}, {PaletteColor(196), "196"}, {RGBColor(255, 0, 16), "#ff0010"},
	}
	for _, tt := range tests {
		if got := colorName(tt.c); got != tt.name {
			t.Errorf("colorName(%#x) = %q, want %q", uint32(tt.c), got, tt.name)
		}
		if c, ok := parseColorName(tt.name); !ok || c != tt.c {
			t.Errorf("parseColorName(%q) = %#x, %v, want %#x", tt.name, uint32(c), ok, uint32(tt.c))
		}
	}
	for _, bad := range []string{"", "purple", "256", "#ff00", "bright-", "-1"} {
		if _, ok := parseColorName(bad); ok {
			t.Errorf("parseColorName(%q) accepted", bad)
		}
	}
}

// TestFindQuery: text and /regex/ matches with 0-based cells, within
// the runs of cells that pass the style filter (every cell of a match
// has it, and a /regex/ is matched within a run), a
// style alone (its runs, blanks at either end left out), mixed, and wide
// characters.
func TestFindQuery(t *testing.T) {
	t.Parallel()
	tru, fal := true, false
	st := func(s Style) *styleFilter { return &styleFilter{Style: s} }
	screen := "\x1b[?25l  Open  \x1b[7mSave\x1b[m  Quit\r\n" + // row 0
		"\x1b[31mred \x1b[1mbold\x1b[m save\r\n" + // row 1
		"日本 Save"
	tests := []struct {
		text  string
		style *styleFilter
		want  string // row:col:len:text[:mixed] per match
	}{
		{"Save", nil, "0:8:4:Save 2:5:4:Save"},
		{"save", nil, "1:9:4:save"},
		{"/(?i)save/", nil, "0:8:4:Save 1:9:4:save 2:5:4:Save"},
		{"/sa?ve/i", nil, "0:8:4:Save 1:9:4:save 2:5:4:Save"},
		{"Save", st(Style{Reverse: &tru}), "0:8:4:Save"},
		{"Save", st(Style{Reverse: &fal}), "2:5:4:Save"},
		{"/[A-Z]\\w+/", st(Style{Reverse: &tru}), "0:8:4:Save"},
		{"/\\S.*\\S/", st(Style{Reverse: &tru}), "0:8:4:Save"}, // the row is longer: the run bounds the match
		{"/\\w.*\\w/", st(Style{Bold: &tru}), "1:4:4:bold"},    // not "red bold save": red and save are not bold
		{"", st(Style{Reverse: &tru}), "0:8:4:Save"},           // the style alone
		{"", st(Style{FG: "red"}), "1:0:8:red bold:mixed"},     // a run ends at its last glyph
		{"", &styleFilter{Selected: &tru}, "0:8:4:Save"},       // reverse video is a bar on any row
		{"red bold", nil, "1:0:8:red bold:mixed"},
		{"red bold", st(Style{FG: "red"}), "1:0:8:red bold:mixed"},
		{"red bold", st(Style{Bold: &tru}), ""},
		{"bold", st(Style{Bold: &tru, FG: "red"}), "1:4:4:bold"},
		{"本", nil, "2:2:2:本"},
		{"Missing", nil, ""},
	}
	term := NewTerminal(30, 4, 0)
	term.Write([]byte(screen))
	for _, tt := range tests {
		q, err := parseFind(tt.text, tt.style)
		if err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		var got []string
		for _, m := range q.findLocked(term) {
			s := strings.Join([]string{strconv.Itoa(m.Row), strconv.Itoa(m.Col), strconv.Itoa(m.Len), m.Text}, ":")
			if m.Mixed {
				s += ":mixed"
			}
			got = append(got, s)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("find %q style %+v: got %q, want %q", tt.text, tt.style, g, tt.want)
		}
	}
	for _, bad := range []struct {
		text  string
		style *styleFilter
		want  string
	}{{"", nil, "nothing to find"}, {"/(/", nil, "not a valid regular expression"}, {"x", st(Style{FG: "purple"}), "is not a colour"}} {
		if _, err := parseFind(bad.text, bad.style); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("parseFind(%q): %v, want an error containing %q", bad.text, err, bad.want)
		}
	}
}

// TestFindScrollback: lines above the screen match with rows -1 upwards.
func TestFindScrollback(t *testing.T) {
	t.Parallel()
	term := NewTerminal(20, 2, 100)
	term.Write([]byte("needle 1\r\nhay\r\nneedle 3\r\nhay\r\nlast"))
	q, _ := parseFind("needle", nil)
	if got := q.findLocked(term); len(got) != 0 {
		t.Errorf("screen only: %+v, want none", got)
	}
	q.scrollback = true
	got := q.findLocked(term)
	if len(got) != 2 || got[0].Row != -3 || got[1].Row != -1 || got[1].Text != "needle" {
		t.Errorf("with scrollback: %+v, want rows -3 and -1", got)
	}
}

// TestStyledTextKeepsHead: a styled read cut to max_bytes keeps the line
// that defines the numbered styles.
func TestStyledTextKeepsHead(t *testing.T) {
	t.Parallel()
	s := sessionWithModes(40, 10, "\x1b[?25l")
	for i := 0; i < 10; i++ {
		s.term.Write([]byte("\x1b[32mgreen\x1b[m row " + strconv.Itoa(i) + "\r\n"))
	}
	var res shellReadResult
	res.Text, res.Truncated, res.Runs, res.Base = readStyled(s, 60)
	text := res.Text
	if !res.Truncated || !strings.HasPrefix(text, "{1=green}\n"+truncatedMarker) || !strings.HasSuffix(text, "{1}green{/} row 9") || len(text) > 60+len(truncatedMarker) {
		t.Errorf("readStyled max 60: truncated %v, %q", res.Truncated, text)
	}
	if len(res.Runs) != 9 || res.Base != nil { // row 0 scrolled off
		t.Errorf("readStyled: %d runs, base %v; want 9 runs, no base", len(res.Runs), res.Base)
	}
}

// TestStyledRunsLeaveOutTheBase: on a screen with a base, the runs are
// what differs from it, and the base is reported once.
func TestStyledRunsLeaveOutTheBase(t *testing.T) {
	t.Parallel()
	st := styledOf(20, 3, "\x1b[?25l\x1b[37;44m\x1b[2J\x1b[Hmenu \x1b[7m item \x1b[27m rest")
	got, _ := json.Marshal(struct {
		Base *Style
		Runs []StyledRun
	}{st.Base, st.Runs})
	want := `{"Base":{"fg":"white","bg":"blue"},"Runs":[{"row":0,"col":5,"len":6,"text":" item ","style":{"reverse":true,"fg":"white","bg":"blue"}}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if want := "{base white on-blue}\nmenu {rev} item {/} rest"; st.Text != want {
		t.Errorf("markup %q, want %q", st.Text, want)
	}
}

// FuzzColorName: whatever parses as a colour, and every colour, survives
// colorName and parseColorName.
func FuzzColorName(f *testing.F) {
	f.Add("bright-red", uint8(1), uint8(9), uint8(0), uint8(255))
	f.Add("#00ff7f", uint8(2), uint8(0), uint8(128), uint8(7))
	f.Fuzz(func(t *testing.T, name string, kind, x, y, z uint8) {
		if col, ok := parseColorName(name); ok && !col.IsDefault() {
			if back, ok := parseColorName(colorName(col)); !ok || back != col {
				t.Errorf("%q parses to %#x, named %q, which parses to %#x", name, uint32(col), colorName(col), uint32(back))
			}
		}
		col := PaletteColor(x)
		if kind%2 == 0 {
			col = RGBColor(x, y, z)
		}
		if back, ok := parseColorName(colorName(col)); !ok || back != col {
			t.Errorf("colour %#x named %q parses to %#x, %v", uint32(col), colorName(col), uint32(back), ok)
		}
	})
}

// FuzzStyled: any output renders to markup and runs without a panic, and
// every run's text fits its cells.
func FuzzStyled(f *testing.F) {
	f.Add("\x1b[7m< OK >\x1b[m \x1b[1;31mx")
	f.Add("\x1b[44m\x1b[2J日本\x1b[38;2;1;2;3mz\u0301\x1b]8;;u\x07l")
	f.Fuzz(func(t *testing.T, in string) {
		st := styledOf(12, 4, in)
		for _, r := range st.Runs {
			if r.Len < 1 || r.Col < 0 || r.Col+r.Len > 12 || r.Row < 0 || r.Row >= 4 || textWidth(r.Text) > r.Len {
				t.Errorf("run %+v does not fit its cells", r)
			}
		}
		if strings.Count(st.Text, "\n") > 4 {
			t.Errorf("%d lines for 4 rows: %q", strings.Count(st.Text, "\n")+1, st.Text)
		}
	})
}

// FuzzFind: any screen and any text or /regex/ find without a panic, and
// every match lies on its row with the text of its cells.
func FuzzFind(f *testing.F) {
	f.Add("\x1b[7m< OK >\x1b[m 日本 Save", "Save")
	f.Add("a\u0301bc\x1b[31mdef", "/[a-z]\u0301?b/i")
	f.Fuzz(func(t *testing.T, screen, text string) {
		q, err := parseFind(text, nil)
		if err != nil {
			return
		}
		term := NewTerminal(12, 3, 10)
		term.Write([]byte(screen))
		for _, m := range q.findLocked(term) {
			if m.Len < 1 || m.Col < 0 || m.Col+m.Len > 12 || m.Row >= 3 || m.Text == "" {
				t.Errorf("match %+v does not lie on a 12x3 screen", m)
			}
		}
	})
}

// textWidth is the number of cells s takes on the screen.
func textWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

// TestSelectedFindsTheBar: style {selected: true} alone finds the
// highlighted item of a list whatever its colours, on screens drawn as
// htop (a black-on-cyan bar under a green header whose sort column is
// cyan too, above a key bar: at the list's top, middle and end), mc (a
// cyan bar in a blue panel, the active panel's title set apart too),
// dialog (tag and item on blue, the blanks between them white), a menu
// in reverse video and one with a 256-colour background; and nothing
// where no row is set apart: coloured text, a hint line under a panel,
// a menu bar and a key bar on the screen's edges.
func TestSelectedFindsTheBar(t *testing.T) {
	const (
		hdr = "\x1b[30;42m" // htop's header
		bar = "\x1b[30;46m" // htop's and mc's selection, and their key bars
		off = "\x1b[m"
		pnl = "\x1b[97;44m" // mc's panel, dialog's backdrop
		box = "\x1b[30;47m" // dialog's box
	)
	htop := func(sel int) []string {
		rows := []string{"CPU[|||   ]  Tasks: 3", "", hdr + "  PID USER  " + bar + "CPU%" + hdr + " Command      " + off}
		for i, p := range []string{"  101 root   9.0 sleep 1", "  102 root   0.0 sleep 2", "  103 root   0.0 sleep 3"} {
			if i == sel {
				p = bar + p + "     " + off
			}
			rows = append(rows, p)
		}
		return append(rows, "F1"+bar+"Help  "+off+"F10"+bar+"Quit        "+off)
	}
	tests := []struct {
		name string
		rows []string
		want []string
	}{
		{"htop, the list's first row", htop(0), []string{"PID USER  CPU% Command", "101 root   9.0 sleep 1"}},
		{"htop, the middle", htop(1), []string{"PID USER  CPU% Command", "102 root   0.0 sleep 2"}},
		{"htop, the last row, above the key bar", htop(2), []string{"PID USER  CPU% Command", "103 root   0.0 sleep 3"}},
		{"mc", []string{
			bar + " Left  File  Command       ",
			pnl + "┌─" + box + " /tmp " + pnl + "─────────────────┐",
			pnl + "│/..          │UP--DIR    │",
			pnl + "│" + bar + "alpha.txt    │      5    " + pnl + "│",
			pnl + "│bravo.txt    │      5    │",
			pnl + "└─────────────────────────┘",
			off + "Hint: Tab changes panels",
			"1" + bar + "Help " + off + "2" + bar + "Menu " + off,
		}, []string{"/tmp", "alpha.txt    │      5"}},
		{"dialog", []string{
			pnl + "                            ",
			pnl + "  " + box + "┌──────────────────────┐" + pnl + "  ",
			pnl + "  " + box + "│ \x1b[31m1" + box + "  Apple              │" + pnl + "  ",
			pnl + "  " + box + "│ " + pnl + "\x1b[1;31m2" + box + "  " + pnl + "\x1b[1;97mBanana" + box + "             │" + pnl + "  ",
			pnl + "  " + box + "│ \x1b[31m3" + box + "  Cherry             │" + pnl + "  ",
			pnl + "  " + box + "└──────────────────────┘" + pnl + "  ",
			pnl + "                            ",
		}, []string{"2  Banana"}},
		{"a menu in reverse video", []string{"Pick a fruit:", "\x1b[7m> apple \x1b[m", "  banana", "  cherry"}, []string{"> apple"}},
		{"a menu with a background", []string{"Pick a fruit:", "  apple", "\x1b[48;5;24m> banana     " + off, "  cherry", ""}, []string{"> banana"}},
		{"coloured text, nothing set apart", []string{"$ ls", "\x1b[34mdir\x1b[m  file", "\x1b[32mexec\x1b[m", "$"}, nil},
	}
	tru := true
	for _, tt := range tests {
		term := NewTerminal(28, len(tt.rows), 0)
		var in strings.Builder
		in.WriteString("\x1b[?25l")
		for i, r := range tt.rows {
			fmt := "\x1b[%d;1H%s\x1b[m"
			in.WriteString(strings.Replace(strings.Replace(fmt, "%d", strconv.Itoa(i+1), 1), "%s", r, 1))
		}
		term.Write([]byte(in.String()))
		q, err := parseFind("", &styleFilter{Selected: &tru})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range q.findLocked(term) {
			got = append(got, m.Text)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: found %q, want %q", tt.name, got, tt.want)
		}
	}
}
