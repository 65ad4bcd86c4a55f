package main

// vt_reply_test.go: byte-exact replies to the queries programs wait for,
// each with the form xterm's ctlseqs gives it, and the features DA1
// claims.

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// replyTo feeds in byte by byte (replies must not depend on the split) to
// a fresh 80x24 terminal set up by setup, and returns what it answered.
func replyTo(in string, setup func(*Terminal)) string {
	term := NewTerminal(80, 24, 0)
	if setup != nil {
		setup(term)
	}
	var out bytes.Buffer
	term.SetReplyWriter(&out)
	for i := 0; i < len(in); i++ {
		term.Write([]byte{in[i]})
	}
	return out.String()
}

func TestVTReplyForms(t *testing.T) {
	t.Parallel()
	lookup := func(name string) *Theme {
		th, err := lookupTheme(name)
		if err != nil {
			t.Fatal(err)
		}
		return th
	}
	oneDark := func(term *Terminal) { term.SetColors(lookup("one-dark").reportColors()) }
	tests := []struct {
		name, form string // form: the ctlseqs reply the answer follows
		in, want   string
		setup      func(*Terminal)
	}{
		{"DECREQTPARM 0", "CSI Ps=0 x -> CSI 2 ; Pp ; Pb ; Px ; Pr ; Pc ; Pf x",
			"\x1b[x", "\x1b[2;1;1;128;128;1;0x", nil},
		{"DECREQTPARM 0 explicit", "CSI 0 x -> CSI 2 ; ... x", "\x1b[0x", "\x1b[2;1;1;128;128;1;0x", nil},
		{"DECREQTPARM 1", "CSI 1 x -> CSI 3 ; Pp ; Pb ; Px ; Pr ; Pc ; Pf x",
			"\x1b[1x", "\x1b[3;1;1;128;128;1;0x", nil},
		{"DECREQTPARM 2 ignored", "only Ps 0 and 1 are answered", "\x1b[2x", "", nil},
		{"DA1", "CSI Ps c -> CSI ? 62 ; Ps... c", "\x1b[c", "\x1b[?62;6;21;22c", nil},
		{"DA3", "CSI = Ps c -> DCS ! | D...D ST (DECRPTUI, zeros)", "\x1b[=c", "\x1bP!|00000000\x1b\\", nil},
		{"DA3 0", "CSI = 0 c -> DCS ! | D...D ST", "\x1b[=0c", "\x1bP!|00000000\x1b\\", nil},
		{"DSR printer", "CSI ? 15 n -> CSI ? 13 n (no printer)", "\x1b[?15n", "\x1b[?13n", nil},
		{"DSR UDK", "CSI ? 25 n -> CSI ? 21 n (locked)", "\x1b[?25n", "\x1b[?21n", nil},
		{"DSR keyboard", "CSI ? 26 n -> CSI ? 27 ; 1 n (North American, VT220)", "\x1b[?26n", "\x1b[?27;1n", nil},
		{"DSR locator", "CSI ? 53 n -> CSI ? 53 n (no locator)", "\x1b[?53n", "\x1b[?53n", nil},
		{"DSR locator 55", "CSI ? 55 n -> CSI ? 53 n", "\x1b[?55n", "\x1b[?53n", nil},

		{"OSC 4 default palette", "OSC 4 ; c ; ? ST -> OSC 4 ; c ; rgb:rrrr/gggg/bbbb ST",
			"\x1b]4;1;?\x1b\\", "\x1b]4;1;rgb:cdcd/0000/0000\x1b\\", nil},
		{"OSC 4 BEL", "OSC 4 ; c ; ? BEL -> reply ends with BEL",
			"\x1b]4;15;?\x07", "\x1b]4;15;rgb:ffff/ffff/ffff\x07", nil},
		{"OSC 4 theme", "OSC 4 ; c ; ? ST, the session theme's colour",
			"\x1b]4;1;?\x1b\\", "\x1b]4;1;rgb:e0e0/6c6c/7575\x1b\\", oneDark},
		{"OSC 4 cube", "OSC 4 ; 196 ; ? ST: cube colour (5,0,0)",
			"\x1b]4;196;?\x1b\\", "\x1b]4;196;rgb:ffff/0000/0000\x1b\\", oneDark},
		{"OSC 4 grey", "OSC 4 ; 232 ; ? ST: first grey", "\x1b]4;232;?\x1b\\", "\x1b]4;232;rgb:0808/0808/0808\x1b\\", nil},
		{"OSC 4 two queries", "OSC 4 ; c ; ? ; c ; ? ST -> one reply each",
			"\x1b]4;0;?;7;?\x1b\\", "\x1b]4;0;rgb:3f3f/4444/5151\x1b\\\x1b]4;7;rgb:d7d7/dada/e0e0\x1b\\", oneDark},
		{"OSC 4 set then query", "a set is not honoured: the theme is what is drawn",
			"\x1b]4;1;rgb:11/22/33\x1b\\\x1b]4;1;?\x1b\\", "\x1b]4;1;rgb:e0e0/6c6c/7575\x1b\\", oneDark},
		{"OSC 4 index as a number", "the reply gives the index as xterm prints it", "\x1b]4;07;?\x1b\\", "\x1b]4;7;rgb:e5e5/e5e5/e5e5\x1b\\", nil},
		{"OSC 4 bad index", "an index over 255 ends the list", "\x1b]4;256;?\x1b\\", "", nil},
		{"OSC 104 then query", "OSC 104 ; c ST resets to the theme, no reply",
			"\x1b]104;1\x1b\\\x1b]104\x1b\\\x1b]4;1;?\x1b\\", "\x1b]4;1;rgb:e0e0/6c6c/7575\x1b\\", oneDark},
		{"OSC 10 theme", "OSC 10 ; ? ST -> OSC 10 ; rgb:... ST", "\x1b]10;?\x1b\\", "\x1b]10;rgb:abab/b2b2/bfbf\x1b\\", oneDark},
		{"OSC 11 theme", "OSC 11 ; ? BEL -> OSC 11 ; rgb:... BEL", "\x1b]11;?\x07", "\x1b]11;rgb:2828/2c2c/3434\x07", oneDark},
		{"OSC 12 theme", "OSC 12 ; ? ST -> OSC 12 ; rgb:... ST (cursor colour)",
			"\x1b]12;?\x1b\\", "\x1b]12;rgb:5252/8b8b/ffff\x1b\\", oneDark},
		{"OSC 12 default", "no theme: the cursor is the foreground", "\x1b]12;?\x1b\\", "\x1b]12;rgb:e5e5/e5e5/e5e5\x1b\\", nil},
		{"OSC 10 chained", "OSC 10 ; ? ; ? ST asks for 10 then 11",
			"\x1b]10;?;?\x1b\\", "\x1b]10;rgb:abab/b2b2/bfbf\x1b\\\x1b]11;rgb:2828/2c2c/3434\x1b\\", oneDark},
		{"OSC 110 111 112 resets", "OSC 110/111/112 ST: no reply, colours stay the theme's",
			"\x1b]110\x1b\\\x1b]111\x1b\\\x1b]112\x1b\\\x1b]11;?\x1b\\", "\x1b]11;rgb:2828/2c2c/3434\x1b\\", oneDark},

		// XTGETTCAP: DCS + q Pt ST, names hex-encoded; DCS 1 + r name=value ST.
		{"XTGETTCAP TN", "DCS + q 544E ST -> DCS 1 + r 544E=<hex TERM> ST",
			"\x1bP+q544E\x1b\\", "\x1bP1+r544E=787465726D2D323536636F6C6F72\x1b\\", nil},
		{"XTGETTCAP TN session TERM", "TN is the TERM the program got",
			"\x1bP+q544e\x1b\\", "\x1bP1+r544e=787465726D\x1b\\", func(t *Terminal) { t.SetTermName("xterm") }},
		{"XTGETTCAP name", "terminfo name \"name\" = TN", "\x1bP+q6E616D65\x1b\\", "\x1bP1+r6E616D65=787465726D2D323536636F6C6F72\x1b\\", nil},
		{"XTGETTCAP Co", "Co -> 256", "\x1bP+q436F\x1b\\", "\x1bP1+r436F=323536\x1b\\", nil},
		{"XTGETTCAP colors", "colors -> 256", "\x1bP+q636F6C6F7273\x1b\\", "\x1bP1+r636F6C6F7273=323536\x1b\\", nil},
		{"XTGETTCAP RGB", "RGB -> 8 (bits a channel)", "\x1bP+q524742\x1b\\", "\x1bP1+r524742=38\x1b\\", nil},
		{"XTGETTCAP kcuu1", "kcuu1 -> CSI A (normal cursor keys)", "\x1bP+q6B63757531\x1b\\", "\x1bP1+r6B63757531=1B5B41\x1b\\", nil},
		{"XTGETTCAP kcuu1 DECCKM", "kcuu1 -> SS3 A after DECCKM",
			"\x1b[?1h\x1bP+q6B63757531\x1b\\", "\x1bP1+r6B63757531=1B4F41\x1b\\", nil},
		{"XTGETTCAP ku", "termcap ku = kcuu1", "\x1bP+q6B75\x1b\\", "\x1bP1+r6B75=1B5B41\x1b\\", nil},
		{"XTGETTCAP kf1", "kf1 -> SS3 P", "\x1bP+q6B6631\x1b\\", "\x1bP1+r6B6631=1B4F50\x1b\\", nil},
		{"XTGETTCAP kf5", "kf5 -> CSI 15 ~", "\x1bP+q6B6635\x1b\\", "\x1bP1+r6B6635=1B5B31357E\x1b\\", nil},
		{"XTGETTCAP kf13", "kf13 -> CSI 1 ; 2 P (Shift-F1)", "\x1bP+q6B663133\x1b\\", "\x1bP1+r6B663133=1B5B313B3250\x1b\\", nil},
		{"XTGETTCAP k;", "termcap k; = kf10 -> CSI 21 ~", "\x1bP+q6B3B\x1b\\", "\x1bP1+r6B3B=1B5B32317E\x1b\\", nil},
		{"XTGETTCAP kdch1", "kdch1 -> CSI 3 ~", "\x1bP+q6B64636831\x1b\\", "\x1bP1+r6B64636831=1B5B337E\x1b\\", nil},
		{"XTGETTCAP kbs", "kbs -> DEL", "\x1bP+q6B6273\x1b\\", "\x1bP1+r6B6273=7F\x1b\\", nil},
		{"XTGETTCAP kcbt", "kcbt -> CSI Z", "\x1bP+q6B636274\x1b\\", "\x1bP1+r6B636274=1B5B5A\x1b\\", nil},
		{"XTGETTCAP kLFT", "kLFT -> CSI 1 ; 2 D", "\x1bP+q6B4C4654\x1b\\", "\x1bP1+r6B4C4654=1B5B313B3244\x1b\\", nil},
		{"XTGETTCAP kUP5", "kUP5 -> CSI 1 ; 5 A (Ctrl-Up)", "\x1bP+q6B555035\x1b\\", "\x1bP1+r6B555035=1B5B313B3541\x1b\\", nil},
		{"XTGETTCAP two", "DCS + q n1 ; n2 ST -> one reply, n1=v1;n2=v2",
			"\x1bP+q544E;436F\x1b\\", "\x1bP1+r544E=787465726D2D323536636F6C6F72;436F=323536\x1b\\", nil},
		{"XTGETTCAP unknown", "DCS 0 + r name ST echoes the name", "\x1bP+q736D6B78\x1b\\", "\x1bP0+r736D6B78\x1b\\", nil},
		{"XTGETTCAP known then unknown", "the reply stops after echoing the unknown name",
			"\x1bP+q436F;5858;544E\x1b\\", "\x1bP1+r436F=323536;5858\x1b\\", nil},
		{"XTGETTCAP not hex", "DCS 0 + r name ST", "\x1bP+qZZ\x1b\\", "\x1bP0+rZZ\x1b\\", nil},
	}
	for _, tc := range tests {
		if got := replyTo(tc.in, tc.setup); got != tc.want {
			t.Errorf("%s (%s): %q replies %q, want %q", tc.name, tc.form, tc.in, got, tc.want)
		}
	}
}

// TestVTDA1Features checks that each attribute DA1 claims works: the
// VT220 class (62: DECSTR soft reset, DECTCEM), selective erase (6),
// horizontal scrolling (21) and ANSI colour (22).
func TestVTDA1Features(t *testing.T) {
	t.Parallel()
	if got, want := replyTo("\x1b[c", nil), "\x1b[?62;6;21;22c"; got != want {
		t.Fatalf("DA1 %q, want %q: update the feature cases below with it", got, want)
	}
	runSeqCases(t, []seqCase{
		// 62: DECSTR resets the pen, DECAWM, IRM and DECOM but keeps the text.
		{name: "62 DECSTR", in: "ab\x1b[4h\x1b[?7l\x1b[!pX", want: []string{"abX▮"}},
		// 6: DECSCA 1 protects from DECSED and DECSEL, not from ED/EL.
		{name: "6 DECSED", in: "\x1b[1\"qAB\x1b[0\"qCD\x1b[?2J", want: []string{"AB  ▮"}},
		{name: "6 DECSEL", in: "\x1b[1\"qA\x1b[0\"qBC\x1b[1G\x1b[?K", want: []string{"▮A"}},
		{name: "6 ED erases protected", in: "\x1b[1\"qAB\x1b[2J", want: []string{"  ▮"}},
		// 21: SL and SR scroll the columns.
		{name: "21 SL", in: "abcd\x1b[ @", want: []string{"bcd ▮"}},
		{name: "21 SR", in: "abcd\x1b[2 A", want: []string{"  ab▮cd"}},
	})
	// 22: SGR 31 / 41 set palette colours 1.
	term := NewTerminal(10, 2, 0)
	term.Write([]byte("\x1b[31;41mx"))
	c := term.Snapshot().Cells[0]
	if fg, ok := c.FG.Palette(); !ok || fg != 1 {
		t.Errorf("22: SGR 31 gives FG %v, want palette 1", c.FG)
	}
	if bg, ok := c.BG.Palette(); !ok || bg != 1 {
		t.Errorf("22: SGR 41 gives BG %v, want palette 1", c.BG)
	}
	// 62: DECTCEM hides and shows the cursor.
	term.Write([]byte("\x1b[?25l"))
	if term.Cursor().Visible {
		t.Error("62: DECTCEM ?25l leaves the cursor visible")
	}
}

// TestVTS8C1T: after S8C1T (ESC SP G) replies use 8-bit C1 controls, as a
// VT220 sends them; S7C1T and RIS go back to ESC pairs.
func TestVTS8C1T(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"\x1b G\x1b[6n", "\x9b1;1R"},
		{"\x1b G\x1b[c", "\x9b?62;6;21;22c"},
		{"\x1b G\x1b[=c", "\x90!|00000000\x9c"},
		{"\x1b G\x1b]11;?\x1b\\", "\x9d11;rgb:0000/0000/0000\x9c"},
		{"\x1b G\x1bP+q436F\x1b\\", "\x90" + "1+r436F=323536\x9c"},
		{"\x1b G\x1b F\x1b[6n", "\x1b[1;1R"},
		{"\x1b G\x1bc\x1b[6n", "\x1b[1;1R"},
	}
	for _, tc := range tests {
		if got := replyTo(tc.in, nil); got != tc.want {
			t.Errorf("%q: reply %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzVTReplies feeds arbitrary bytes whole and byte by byte: nothing
// panics, the screen invariants hold, and the replies (and screens) do
// not depend on how the stream was split. The seeds reach every query
// this terminal answers and the regional-indicator pairing.
func FuzzVTReplies(f *testing.F) {
	for _, s := range []string{
		"\x1b[x\x1b[1x\x1b[=c\x1b[?15n\x1b[?26n\x1b[c\x1b[>c",
		"\x1b]4;1;?;2;?\x1b\\\x1b]10;?;?;?\x07\x1b]104;1\x1b\\\x1b]112\x07",
		"\x1bP+q544E;436F;6B637575;ZZ\x1b\\\x1bP+q\x1b\\\x1bP+q;\x1b\\",
		"\x1b G\x1b[6n\x1bP$qm\x1b\\\x1b F\x1b[6n",
		"🇯🇵🇺\x1b[4h🇸\r🇩🇪\x1b[1;79H🇫🇷🇮",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) > 4096 {
			return // byte-by-byte feeding of long inputs only slows the search
		}
		var whole, split bytes.Buffer
		a := NewTerminal(vtFuzzCols, vtFuzzRows, vtFuzzHistory)
		a.SetReplyWriter(&whole)
		a.Write(in)
		checkScreenInvariants(t, a, vtFuzzCols, vtFuzzRows)
		b := NewTerminal(vtFuzzCols, vtFuzzRows, vtFuzzHistory)
		b.SetReplyWriter(&split)
		for i := range in {
			b.Write(in[i : i+1])
		}
		if whole.String() != split.String() {
			t.Fatalf("replies %q in one write, %q byte by byte", whole.String(), split.String())
		}
		if d := screenDiff(a, b); d != "" {
			t.Fatalf("one write and byte by byte differ: %s", d)
		}
	})
}

// TestSessionReportsThemeAndTerm: a program in a session asks for palette
// colour 1 (OSC 4) and for TN (XTGETTCAP) and reads the session's theme
// colour and its own TERM back.
func TestSessionReportsThemeAndTerm(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	// Each reply is read whole (dd count = its length), ESC shown as E.
	script := `stty raw -echo; printf '\033]4;1;?\033\\'; a=$(dd bs=1 count=26 2>/dev/null | tr '\033' E); ` +
		`printf '\033P+q544E\033\\'; b=$(dd bs=1 count=36 2>/dev/null | tr '\033' E); stty sane; echo; echo "GOT $a $b"`
	m := mustCall(t, a, "shell_start", map[string]any{"command": "sh", "args": []string{"-c", script},
		"theme": "dracula", "env": map[string]string{"TERM": "xterm-direct"}})
	id := m["shell_session_id"].(string)
	w := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "timeout_ms": 10000})
	// dracula's red is #ff5555; "xterm-direct" is 787465726D2D646972656374.
	want := `GOT E]4;1;rgb:ffff/5555/5555E\ EP1+r544E=787465726D2D646972656374E\`
	if w["exited"] != true || !strings.Contains(rawText(t, a, id), want) {
		t.Errorf("the program read %q, want %q", rawText(t, a, id), want)
	}
}

// TestTcapKeysMatchInput: the key capabilities XTGETTCAP reports are the
// bytes the input tools send for the same keys (tools_keys.go encodes them
// for shell_send; the emulator keeps its own table, as it may not use
// server code), in normal and application cursor mode.
func TestTcapKeysMatchInput(t *testing.T) {
	t.Parallel()
	names := map[string]string{
		"kcuu1": "Up", "kcud1": "Down", "kcub1": "Left", "kcuf1": "Right", "khome": "Home", "kend": "End",
		"kHOM": "S-Home", "kEND": "S-End", "kLFT": "S-Left", "kRIT": "S-Right", "kPRV": "S-Up", "kNXT": "S-Down",
		"kich1": "Insert", "kdch1": "Delete", "kpp": "PageUp", "knp": "PageDown", "kbs": "Backspace", "kcbt": "S-Tab",
		"kDC": "S-Delete", "kIC": "S-Insert", "kUP3": "M-Up", "kDN5": "C-Down", "kRIT6": "C-S-Right", "kLFT7": "C-M-Left",
		"kHOM8": "C-M-S-Home", "kNXT5": "C-PageDown", "kPRV3": "M-PageUp", "kDC5": "C-Delete",
	}
	mods := []string{"", "S-", "C-", "C-S-", "M-", "M-S-"}
	for n := 1; n <= 63; n++ {
		names["kf"+strconv.Itoa(n)] = mods[(n-1)/12] + "F" + strconv.Itoa((n-1)%12+1)
	}
	if len(tcapKeys) < len(names) {
		t.Errorf("tcapKeys has %d names, fewer than the %d checked", len(tcapKeys), len(names))
	}
	for _, appCursor := range []bool{false, true} {
		term := NewTerminal(10, 2, 0)
		if appCursor {
			term.Write([]byte("\x1b[?1h"))
		}
		for cap, key := range names {
			want, err := encodeKey(key, appCursor)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := term.tcapValue(cap); !ok || got != string(want) {
				t.Errorf("%s (%s, DECCKM %v): %q, want %q as shell_send sends it", cap, key, appCursor, got, want)
			}
		}
	}
}
