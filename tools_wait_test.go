package main

// tools_wait_test.go: the waits against real programs: full-screen programs
// started and quit with waits written the natural way leave no typeahead
// on the shell's screen; new_only, wait_for_gone and wait_stable_ms; a
// regex over the screen text as shown; text typed exactly as written.
// The echo tracker and the matcher's rules on their own.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// shellIn starts bash without startup files in dir, with the prompt
// "tw$ ", and waits for the prompt.
func shellIn(t *testing.T, a *App, dir string) string {
	t.Helper()
	m := mustCall(t, a, "shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile"}, "cwd": dir,
		"env": map[string]string{"PS1": "tw$ ", "HOME": dir, "TERM": "xterm-256color"}})
	id := m["shell_session_id"].(string)
	if m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "tw$ "}); m["matched"] != true {
		t.Fatalf("no prompt: %v", m)
	}
	return id
}

// lastLine is the last line of a screen text.
func lastLine(v any) string {
	l := screenLines(v)
	return l[len(l)-1]
}

// TestFullScreenProgramsNoTypeahead: shell_send "prog\r" with wait_for
// a text the program shows returns once the program drew its screen (not
// on the echo of the command line), so the keys that follow reach the
// program, and after quitting the shell's screen ends in a clean prompt.
func TestFullScreenProgramsNoTypeahead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		command string // typed at the prompt
		waitFor string // what the program's screen shows
		drawn   string // how a row of the program's own screen starts
		keys    string // input typed into the program, ending in its quit
	}{
		{"vim", `vim notes.txt\r`, "notes.txt", `"notes.txt" [New]`, `ihello from vim\rsecond line\e:wq\r`},
		{"less", `less nums.txt\r`, "nums.txt", "17", `q`},
		{"htop", `htop\r`, "Tasks:", "", `q`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(tt.name); err != nil {
				t.Skip(err)
			}
			a := newTestApp(t)
			dir := t.TempDir()
			var nums strings.Builder
			for i := 1; i <= 100; i++ {
				nums.WriteString(strconv.Itoa(i) + "\n")
			}
			if err := os.WriteFile(filepath.Join(dir, "nums.txt"), []byte(nums.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			id := shellIn(t, a, dir)
			m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": tt.command, "wait_for": tt.waitFor})
			after := screenLines(m["bufferAfter"])
			if m["matched"] != true || slices.Contains(after, "tw$ "+strings.TrimSuffix(tt.command, `\r`)) ||
				!slices.ContainsFunc(after, func(row string) bool { return strings.HasPrefix(row, tt.drawn) }) {
				t.Fatalf("the wait returned before %s drew its screen: %q", tt.name, after)
			}
			m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": tt.keys, "wait_for": "tw$ "})
			if got := lastLine(m["bufferAfter"]); m["matched"] != true || got != "tw$ " {
				t.Errorf("after quitting %s the shell's last line is %q, want a clean prompt; screen %q", tt.name, got, m["bufferAfter"])
			}
			if tt.name == "vim" {
				if b, err := os.ReadFile(filepath.Join(dir, "notes.txt")); err != nil || string(b) != "hello from vim\nsecond line\n" {
					t.Errorf("notes.txt = %q, %v", b, err)
				}
			}
		})
	}
}

// TestWaitNewOnly: a shell_wait that follows a send counts from that
// send: it does not return on the prompt shown before it, but on the next
// one (it returned at once, a false "done"); new_only false lets what was
// shown count.
func TestWaitNewOnly(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := shellIn(t, a, t.TempDir())
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `sleep 1; echo sl""ept\r`, "delay_ms": 0})
	m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "tw$ "})
	if m["matched"] != true || !slices.Contains(screenLines(m["buffer"]), "slept") || lastLine(m["buffer"]) != "tw$ " {
		t.Errorf("the wait after the send returned before the next prompt: %v", m)
	}
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `sleep 1; echo sl""ept again\r`, "delay_ms": 0})
	m = mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "tw$ ", "new_only": false})
	if m["matched"] != true || strings.Contains(m["buffer"].(string), "slept again") {
		t.Errorf("new_only false: the prompt on screen should match at once: %v", m)
	}
}

// TestWaitForGone: wait_for_gone returns once the text left the screen
// (matched, ended by it), and at once when it is not there.
func TestWaitForGone(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	// The program reads a line first, so shell_start returns with
	// Loading... shown (it would wait out its readiness window for a
	// program that only sleeps, and Loading... would be gone by then).
	id := start(t, a, "sh", "-c", `echo Loading...; read x; sleep 0.3; printf '\033[2A\033[2KReady\n'; sleep 100`) // 2A: the echo of Enter took a row
	if m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "Loading...", "timeout_ms": 5000}); m["matched"] != true {
		t.Fatalf("Loading... not shown: %v", m)
	}
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "\r", "wait_for_gone": "Loading...", "timeout_ms": 5000})
	if m["matched"] != true || m["ended_by"] != "wait_for_gone" || !slices.Contains(screenLines(m["bufferAfter"]), "Ready") {
		t.Errorf("wait_for_gone: %v", m)
	}
	m = mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_gone": "/Load(ing)?/", "timeout_ms": 5000})
	if m["matched"] != true || !slices.Equal(anyStrings(m["held"]), []string{"wait_for_gone"}) {
		t.Errorf("wait_for_gone on absent text: %v", m)
	}
}

// anyStrings converts a decoded JSON array of strings.
func anyStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

// TestWaitStableIgnoresCursorAndBlink: a program that keeps blinking the
// cursor and toggling SGR 5 on a character, without changing any text,
// has a stable screen for wait_stable_ms, while its output still restarts
// wait_idle_ms's clock (the time since the last output).
func TestWaitStableIgnoresCursorAndBlink(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	// The blinking loop runs in the background and the shell reads its
	// terminal, so shell_start returns at once: a program that never
	// reads waited out the readiness window (0.5 to 3 s).
	id := start(t, a, "sh", "-c", `echo; echo STATIC; while :; do printf '\033[?25l\033[5mX\033[0m\b'; sleep 0.05; printf '\033[?25h\033[HX\b\033[3;1H'; sleep 0.05; done & read x`)
	if m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "STATIC", "timeout_ms": 5000}); m["matched"] != true {
		t.Fatalf("STATIC not shown: %v", m) // row 0 has the X the loop writes at home
	}
	m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_stable_ms": 300, "timeout_ms": 5000})
	if m["matched"] != true || m["ended_by"] != "wait_stable_ms" {
		t.Errorf("wait_stable_ms was fooled by the cursor or the blink: %v", m)
	}
	// The blinking goes on and changes no text, yet it is output: the
	// idle clock restarts. (A wait for 500 ms of idle that had to time
	// out checked this by the clock, and a loaded machine stalled the
	// loop for that long.)
	s, _ := a.tools.session(id)
	text := s.Text(false)
	s.mu.Lock()
	since := s.lastOutput
	s.mu.Unlock()
	waitFor(t, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.lastOutput.After(since)
	})
	if now := s.Text(false); now != text {
		t.Errorf("the blinking changed the text: %q, then %q", text, now)
	}
	if r, _ := call(t, a, "shell_wait", map[string]any{"session_id": id, "wait_idle_ms": 10, "wait_stable_ms": 10}); !r.IsError {
		t.Errorf("wait_idle_ms with wait_stable_ms accepted: %s", r.Text)
	}
}

// TestRegexOverShownText: /# $/ matches a root prompt: the regex runs over
// the rows as shown, $ at a line's end, no trailing blank rows.
func TestRegexOverShownText(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	m := mustCall(t, a, "shell_start", map[string]any{"command": "sh", "env": map[string]string{"PS1": "work# "}})
	id := m["shell_session_id"].(string)
	if m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "/# $/", "timeout_ms": 5000}); m["matched"] != true {
		t.Errorf("/# $/ on a root prompt: %v", m)
	}
	if m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `echo one; echo two\r`, "wait_for": "/^one\ntwo$/"}); m["matched"] != true {
		t.Errorf("/^one\\ntwo$/: %v", m)
	}
}

// TestSendTextAsWritten: text reaches the program exactly as written:
// backslashes stay, newlines are Enter, and the shell or Python runs it
// as one paste.
func TestSendTextAsWritten(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		command []string
		text    string
		want    []string // consecutive rows of the program's output
	}{
		{"printf", nil, `printf 'a\tb\n' | od -An -c`, []string{`   a  \t   b  \n`}},
		{"path", nil, `echo 'C:\Users\new\x41'`, []string{`C:\Users\new\x41`}},
		{"heredoc", nil, "cat <<'EOF'\nback\\slash \\n \\t\n\\\\two\nEOF", []string{`back\slash \n \t`, `\\two`}},
		{"python", []string{"python3", "-q"}, `print("a\nb")`, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			var id string
			if tt.command == nil {
				id = shellIn(t, a, t.TempDir())
			} else {
				m := mustCall(t, a, "shell_start", map[string]any{"command": tt.command[0], "args": tt.command[1:]})
				id = m["shell_session_id"].(string)
				mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": ">>> "})
			}
			m := mustCall(t, a, "shell_send", inOrder("session_id", id, "text", tt.text, "keys", []string{"Enter"},
				"wait_for", "/"+regexpQuoteLines(tt.want)+"/"))
			if m["matched"] != true {
				t.Errorf("output %q not seen: %q", tt.want, m["bufferAfter"])
			}
		})
	}
}

// regexpQuoteLines is a regex for lines as consecutive whole rows.
func regexpQuoteLines(lines []string) string {
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = regexp.QuoteMeta(l)
	}
	return "^" + strings.Join(q, "\n") + "$"
}

// TestEchoTrackerMarks feeds a terminal the echo of an input among other
// output and checks which screen text still satisfies a wait: the cells
// drawn as the echo do not, the program's own output does.
func TestEchoTrackerMarks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		input  string // what was typed (escapes removed, \r between lines)
		output string // what the terminal then printed
		find   string
		counts bool
	}{
		{"tty echo", "vim notes.txt\r", "tw$ vim notes.txt\r\n", "notes.txt", false},
		{"program draws the name", "vim notes.txt\r", "tw$ vim notes.txt\r\n\x1b[?1049h\x1b[24;1H\"notes.txt\" [New]", "notes.txt", true},
		{"readline redraw", "echo hi\r", "tw$ echo h\r\x1b[Ktw$ echo hi\r\n", "echo hi", false},
		{"cat repeats the line", "typed text\r", "typed text\r\ntyped text\r\n", "typed text", true},
		{"vim insert mode skips i", "ihello\x1b", "\x1b[1;1Hhello", "hello", false},
		{"output with the echo", "make\r", "$ make\r\nmake: Nothing to be done.\r\n", "make: Nothing", true},
		{"second input line", "cat\rline two\r", "$ cat\r\nline two\r\nline two\r\n", "line two", true},
		{"no input", "", "hello\r\n", "hello", true},
		// zsh reading a paste as typed keys (bracketed paste still off):
		// each line drawn after its "heredoc> " prompt as "t\b" and then
		// whole; the prompt's "oc" and " " must not pass for the skipped
		// "o" and the " " of "touch /tmp", which left the tracker a rune
		// ahead of each line after.
		{"zsh heredoc typed", "sh <<'EOF'\rtouch /tmp/m\recho real-output\rEOF\r",
			"vm# s\bsh <<'EOF'\r\r\n\r\x1b[Jheredoc> \x1b[Kt\btouch /tmp/m\r\r\n\r\x1b[Jheredoc> \x1b[Ke\becho real-output\r\r\n" +
				"\r\x1b[Jheredoc> \x1b[KE\bEOF\r\r\n", "real-output", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term := NewTerminal(40, 5, 10)
			if !term.BeginMarks(tt.input, false) {
				t.Fatal("BeginMarks refused")
			}
			if term.BeginMarks("x", false) {
				t.Error("a second marking was allowed")
			}
			term.Write([]byte(tt.output))
			text, fresh := term.ScreenTextMarked()
			m, _ := parseWaitFor(tt.find)
			if got := m.matchFresh(text, fresh); got != tt.counts {
				t.Errorf("match of %q counts %v, want %v; screen %q fresh %v", tt.find, got, tt.counts, text, fresh)
			}
			term.EndMarks()
			if text, fresh := term.ScreenTextMarked(); fresh != nil || !m.matchFresh(text, fresh) {
				t.Errorf("after EndMarks: %q %v", text, fresh)
			}
		})
	}
}

// TestOldTextMarks: with new_only's marking, text on the screen before
// does not count, the same text drawn afterwards does, also after a
// scroll moved the old rows.
func TestOldTextMarks(t *testing.T) {
	t.Parallel()
	term := NewTerminal(20, 3, 10)
	term.Write([]byte("tw$ ls\r\nfile\r\ntw$ "))
	term.BeginMarks("", true)
	m, _ := parseWaitFor("tw$ ")
	if text, fresh := term.ScreenTextMarked(); m.matchFresh(text, fresh) {
		t.Errorf("the old prompt counts: %q", text)
	}
	term.Write([]byte("\r\nout\r\n"))
	if text, fresh := term.ScreenTextMarked(); m.matchFresh(text, fresh) {
		t.Errorf("the old prompt counts after a scroll: %q", text)
	}
	term.Write([]byte("tw$ "))
	if text, fresh := term.ScreenTextMarked(); !m.matchFresh(text, fresh) {
		t.Errorf("the new prompt does not count: %q", text)
	}
}

// TestMatchFresh: a match counts when it covers a fresh byte or no
// byte at all; overlapping literal occurrences are all tried.
func TestMatchFresh(t *testing.T) {
	t.Parallel()
	tests := []struct {
		find, text, fresh string // fresh: 1 for a fresh byte
		want              bool
	}{
		{"ab", "abab", "0000", false},
		{"ab", "abab", "0001", true},
		{"aa", "aaa", "001", true},
		{"/b+/", "abbb", "0001", true},
		{"/^$/", "x\n\ny", "0000", true},
		{"/a.c/", "abc", "000", false},
	}
	for _, tt := range tests {
		m, _ := parseWaitFor(tt.find)
		fresh := make([]bool, len(tt.fresh))
		for i := range fresh {
			fresh[i] = tt.fresh[i] == '1'
		}
		if got := m.matchFresh(tt.text, fresh); got != tt.want {
			t.Errorf("%s in %q (fresh %s): %v, want %v", tt.find, tt.text, tt.fresh, got, tt.want)
		}
	}
}

// TestTextJoinsWrappedRows: a soft-wrapped line is one line in the
// screen and scrollback text, blanks at the wrap kept; the alternate
// screen keeps its rows; TextRows reads a range across both.
func TestTextJoinsWrappedRows(t *testing.T) {
	t.Parallel()
	term := NewTerminal(10, 3, 10)
	term.Write([]byte("its own copy of the text\r\nnext"))
	if got, want := term.Text(true), "its own copy of the text\nnext"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	if got, want := term.ScreenText(), "py of the text\nnext"; got != want {
		t.Errorf("ScreenText = %q, want %q", got, want)
	}
	if got, want := term.TextRows(0, 4), "its own copy of the text\nnext"; got != want {
		t.Errorf("TextRows(0, 4) = %q, want %q", got, want)
	}
	if got, want := term.TextRows(3, 5), "next"; got != want {
		t.Errorf("TextRows(3, 5) = %q, want %q", got, want)
	}
	term.Write([]byte("\x1b[?1049h\x1b[Habcdefghijkl"))
	if got, want := term.ScreenText(), "abcdefghij\nkl"; got != want {
		t.Errorf("alternate ScreenText = %q, want %q", got, want)
	}
}

// FuzzMarkedTerminal feeds arbitrary output to a terminal with a
// marking running: the text views never panic and the fresh flags
// cover the text byte for byte.
func FuzzMarkedTerminal(f *testing.F) {
	f.Add("vim notes.txt\r", []byte("tw$ vim notes.txt\r\n\x1b[?1049h\"notes.txt\""))
	f.Add("é\r", []byte("\xc3\xa9\x1b[4h\xe4\xb8\x80\x1b[2J"))
	f.Fuzz(func(t *testing.T, input string, out []byte) {
		term := NewTerminal(12, 4, 5)
		term.Write([]byte("old\r\n"))
		term.BeginMarks(input, true)
		term.Write(out)
		text, fresh := term.ScreenTextMarked()
		if len(fresh) != len(text) {
			t.Fatalf("%d flags for %d bytes", len(fresh), len(text))
		}
		_ = term.Text(true)
		term.EndMarks()
	})
}

// BenchmarkVTPlainMarked is BenchmarkVTPlain's stream with a marking
// running: the cost of the echo hook in the print path during a wait,
// when the output echoes the input once (tracking then stops) and when it
// never does (every printed cell is checked).
func BenchmarkVTPlainMarked(b *testing.B) {
	line := []byte("The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. 0123456789..\r\n")
	var in []byte
	for len(in) < 2<<20 {
		in = append(in, line...)
	}
	for _, bb := range []struct{ name, input string }{{"echoed", "The quick brown fox\r"}, {"never-echoed", "ZZZZ\r"}} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			term := NewTerminal(120, 40, 10000)
			term.BeginMarks(bb.input, true)
			cpu0 := cpuTime()
			b.ResetTimer()
			for range b.N {
				term.Write(in)
			}
			b.StopTimer()
			if d := cpuTime() - cpu0; d > 0 {
				b.ReportMetric(float64(len(in))*float64(b.N)/1e6/d.Seconds(), "cpu-MB/s")
			}
		})
	}
}

// FuzzWaitFor: any wait_for either parses or gives an error naming the
// argument, and a parsed one matches any text with any fresh flags
// without panicking; with every byte fresh it agrees with the plain
// match.
func FuzzWaitFor(f *testing.F) {
	for _, s := range []string{"$ ", "/# $/", "/a(b/", "/x*/i", "é", "//", "/^$/m"} {
		f.Add(s, "out\nwork# \né", uint64(5))
	}
	f.Fuzz(func(t *testing.T, waitFor, text string, bits uint64) {
		m, err := parseMatcher("wait_for_gone", waitFor)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "wait_for_gone") {
				t.Errorf("error %q does not name the argument", err)
			}
			return
		}
		if m == nil {
			return
		}
		fresh := make([]bool, len(text))
		all := make([]bool, len(text))
		for i := range fresh {
			fresh[i] = bits>>(i%64)&1 == 1
			all[i] = true
		}
		m.matchFresh(text, fresh)
		if got, want := m.matchFresh(text, all), m.matchString(text); got != want {
			t.Errorf("all fresh: %v, plain match %v", got, want)
		}
	})
}

// TestTextJoinsAcrossHistory: a line wrapped over several rows, partly in
// the scrollback, is one line in Text and TextRows, the blanks at each
// wrap point kept.
func TestTextJoinsAcrossHistory(t *testing.T) {
	t.Parallel()
	term := NewTerminal(4, 2, 10)
	term.Write([]byte("ab  cd  efgh ij\r\nz"))
	if got, want := term.Text(true), "ab  cd  efgh ij\nz"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
	if got, want := term.TextRows(0, 3), "ab  cd  efgh"; got != want {
		t.Errorf("TextRows(0, 3) = %q, want %q", got, want)
	}
}

// TestJoinedTextSameInHistory: a soft-wrapped line reads the same in the
// screen's text, in the scrollback's and in command output (rangeText)
// before and after it scrolls off: the cell a wide character left empty
// when it wrapped early adds no blank, a blank written at the wrap point
// stays, and erased cells at a wrapped row's end add nothing.
func TestJoinedTextSameInHistory(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cols int
		in   string
		want string
	}{
		{"wide character wrapped early", 4, "a你你", "a你你"},
		{"wide characters over three rows", 5, "ab你好世界", "ab你好世界"},
		{"blank written at the wrap", 6, "hello world", "hello world"},
		{"erased end of a wrapped row", 4, "abcdef\x1b[1;3H\x1b[41m\x1b[K\x1b[m\x1b[2;3H", "abef"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := NewTerminal(tc.cols, 3, 10)
			term.Write([]byte(tc.in))
			check := func(where string) {
				t.Helper()
				if got, _, _ := strings.Cut(term.Text(true), "\n"); got != tc.want {
					t.Errorf("%s: Text = %q, want %q", where, got, tc.want)
				}
				got, _ := rangeText(term, term.LineBase(), 0, term.LineBase()+2, tc.cols, 1<<20)
				if got, _, _ = strings.Cut(got, "\n"); got != tc.want {
					t.Errorf("%s: rangeText = %q, want %q", where, got, tc.want)
				}
			}
			check("on the screen")
			term.Write([]byte("\r\n1\r\n2\r\n3\r\n4"))
			if term.ScrollbackLen() < 2 {
				t.Fatalf("the line did not scroll off: %d rows of history", term.ScrollbackLen())
			}
			check("in the history")
		})
	}
}

// TestCommandWaitAtIdlePrompt: with no command running, shell_wait's
// wait_for_command holds at once and the stage after it is the one a
// timeout names; shell_send's Enter or Ctrl-C at the idle prompt runs no
// command and returns at the new prompt, already_done.
func TestCommandWaitAtIdlePrompt(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			runCommand(t, a, id, "true", nil)
			r, m := call(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true, "wait_for": "zz", "timeout_ms": 300})
			if held := anyStrings(m["held"]); m["matched"] != false || !slices.Equal(held, []string{"wait_for_command"}) || m["already_done"] != true ||
				!strings.HasPrefix(r.Text, `TIMED OUT after 300ms waiting for wait_for "zz"`) {
				t.Errorf("%s: wait_for_command then wait_for zz: %v (text %q)", sh.name, m, firstLine(r.Text))
			}
			keys := []string{"Enter", "C-c"}
			if sh.name == "fish" {
				keys = keys[:1] // fish clears the line on Ctrl-C and draws no new prompt
			}
			for _, k := range keys {
				m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{k}, "wait_for_command": true, "timeout_ms": 20000})
				if m["matched"] != true || m["already_done"] != true || m["command"] != nil {
					t.Errorf("%s: %s at the idle prompt: %v", sh.name, k, m)
				}
			}
			if c := runCommand(t, a, id, "echo after", nil); c["output"] != "after" {
				t.Errorf("%s: the next command: %v", sh.name, c)
			}
		})
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestEchoRepeatedFirstLetter: the echo of a command line whose first
// letter comes back later in it (s ... sync, v ... vnew.txt) is still
// only echo: the wait returns on the program's own output, in bash, zsh
// and fish.
func TestEchoRepeatedFirstLetter(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			id := startShell(t, a, shell, "", nil, nil)
			m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "sleep 0.5 && echo D''ONE && sync\r", "wait_for": "DONE", "timeout_ms": 8000})
			if m["matched"] != true || !slices.Contains(screenLines(m["bufferAfter"]), "DONE") {
				t.Errorf("wait_for returned before DONE was printed: %v", m["bufferAfter"])
			}
			mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true, "timeout_ms": 8000}) // sync: nothing typed ahead
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "vim -u NONE -N -n vnew9.txt\r", "wait_for": "vnew9", "timeout_ms": 8000})
			s, _ := a.tools.session(id)
			if !s.Modes().AltScreen {
				t.Errorf("wait_for on the file name returned before vim's screen: %q", s.Text(false))
			}
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "\x1b:q!\r", "wait_for_command": true, "timeout_ms": 8000})
		})
	}
}

// TestEmptyWaitForRefused: wait_for or wait_for_gone given as "" is an
// error naming the fix, in every tool that waits; it was taken as no
// condition, and the call returned without matched.
func TestEmptyWaitForRefused(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := mustCall(t, a, "shell_start", map[string]any{"command": "cat"})["shell_session_id"]
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"shell_send", map[string]any{"input": "x", "wait_for": ""}},
		{"shell_send", map[string]any{"input": "x", "wait_for": "x", "wait_for_gone": ""}},
		{"shell_wait", map[string]any{"wait_for": ""}},
		{"shell_wait", map[string]any{"wait_for_gone": ""}},
		{"shell_click", map[string]any{"row": 0, "col": 0, "wait_for": ""}},
	} {
		tc.args["session_id"] = id
		field := "wait_for"
		if _, ok := tc.args["wait_for_gone"]; ok {
			field = "wait_for_gone"
		}
		r, _ := call(t, a, tc.tool, tc.args)
		if want := field + " is empty: give the text"; !r.IsError || !strings.Contains(r.Text, want) || !strings.Contains(r.Text, "leave "+field+" out") {
			t.Errorf("%s %v: %q (isError %v), want an error saying %q", tc.tool, tc.args, r.Text, r.IsError, want)
		}
	}
}

// TestRegexFlagsDocumented: the flags parseMatcher takes are the ones
// regexFlagsDoc lists, each as a word; shell_wait's wait_for (the one
// place tools/list says it), the snap help and README.md say
// regexFlagsDoc, and every other description of a /regex/ argument
// refers to shell_wait's; any other letter after the last slash makes
// the argument literal text.
func TestRegexFlagsDocumented(t *testing.T) {
	t.Parallel()
	for r := 'A'; r <= 'z'; r++ {
		if !unicode.IsLetter(r) {
			continue
		}
		m, err := parseMatcher("wait_for", "/a/"+string(r))
		known := strings.ContainsRune(regexFlags+ignoredFlags, r)
		if err != nil || (m.re != nil) != known {
			t.Errorf("/a/%c: regex %v (err %v), want %v", r, m != nil && m.re != nil, err, known)
		}
		if listed := regexp.MustCompile(`(^|[ ,])` + string(r) + `([ ,;]|$)`).MatchString(regexFlagsDoc); listed != known {
			t.Errorf("regexFlagsDoc lists %c: %v, but parseMatcher takes it: %v", r, listed, known)
		}
	}
	a := newTestApp(t)
	docs := map[string]string{}
	for _, tt := range []struct{ tool, prop string }{
		{"shell_send", "wait_for"}, {"shell_wait", "wait_for"}, {"shell_click", "wait_for"}, {"shell_click", "text"}, {"shell_find", "text"},
	} {
		tool := toolByName(t, a, tt.tool)
		p, _ := tool.Input["properties"].(map[string]any)[tt.prop].(map[string]any)
		d, _ := p["description"].(string)
		docs[tt.tool+"."+tt.prop] = d
	}
	var help strings.Builder
	parseSnap([]string{"-h"}, &help)
	docs["snap -h"] = help.String()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	docs["README.md"] = strings.Join(strings.Fields(strings.ReplaceAll(string(readme), "`", "")), " ")
	for where, d := range docs {
		switch where {
		case "shell_wait.wait_for", "snap -h", "README.md":
			if !strings.Contains(d, regexFlagsDoc) {
				t.Errorf("%s does not list the regex flags as regexFlagsDoc does (%q)", where, regexFlagsDoc)
			}
		default:
			if !strings.Contains(d, "/regex/") || !strings.Contains(d, "shell_wait") && !strings.Contains(d, "wait_for") {
				t.Errorf("%s does not refer to shell_wait's wait_for for the /regex/ rules: %.300q", where, d)
			}
		}
	}
}

// TestNoCommandForRejectedLine: a line bash or zsh rejects (a syntax
// error) runs no command, and the shell draws a new prompt: shell_send's
// wait_for_command says no_command, not already_done (which would point
// at an earlier command), and its text quotes the shell's reply. An
// empty line stays already_done.
func TestNoCommandForRejectedLine(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tc := range []struct{ shell, reply string }{
		{"bash", "syntax error"},
		{"zsh", "parse error"},
	} {
		t.Run(tc.shell, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, tc.shell, "", nil, nil)
			r, m := call(t, a, "shell_send", map[string]any{"session_id": id, "input": "echo )\r", "wait_for_command": true, "timeout_ms": 20000})
			if r.IsError || m["matched"] != true || m["no_command"] != true || m["already_done"] != nil || m["command"] != nil {
				t.Errorf("echo ): %v", m)
			}
			if !strings.HasPrefix(r.Text, noCommandNote+"\necho )\n") || !strings.Contains(firstLines(r.Text, 3), tc.reply) {
				t.Errorf("echo ): text %q, want %q, the line and the shell's %q", r.Text, noCommandNote, tc.reply)
			}
			m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Enter"}, "wait_for_command": true, "timeout_ms": 20000})
			if m["matched"] != true || m["already_done"] != true || m["no_command"] != true {
				t.Errorf("Enter after the rejected line: %v", m)
			}
			if c := runCommand(t, a, id, "echo after", nil); c["output"] != "after" {
				t.Errorf("the next command: %v", c)
			}
		})
	}
}

func firstLines(s string, n int) string {
	l := strings.SplitN(s, "\n", n+1)
	return strings.Join(l[:min(n, len(l))], "\n")
}

// TestTimeoutNoCommandStarted: when shell_send's wait_for_command runs
// out and no command started since the input (a continuation prompt in
// bash and zsh, a line fish keeps in its editor for a syntax error), the
// TIMED OUT line says so and how to go on, not that it waited for the
// command to end; a command that runs still gets the usual line.
func TestTimeoutNoCommandStarted(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tc := range []struct{ shell, line string }{
		{"bash", "if true"},
		{"bash", "echo 'open"},
		{"zsh", "if true"},
		{"fish", "(exit 3)"},
	} {
		t.Run(tc.shell+" "+tc.line, func(t *testing.T) {
			t.Parallel() // wait-bound: each waits out its timeouts
			id := startShell(t, a, tc.shell, "", nil, nil)
			r, m := call(t, a, "shell_send", map[string]any{"session_id": id, "input": tc.line + "\r", "wait_for_command": true, "timeout_ms": 1000})
			if want := "TIMED OUT after 1s (matched false): no command started since the input was sent"; m["timed_out"] != true || !strings.HasPrefix(r.Text, want) || !strings.Contains(firstLine(r.Text), "send C-c") {
				t.Errorf("%q: %q, want %q...", tc.line, firstLine(r.Text), want)
			}
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"C-c"}})
			// The shell has read the C-c and reads at its prompt again
			// (100 ms of a stable screen, waited for before, could pass
			// with fish still busy on a loaded machine).
			s, _ := a.tools.session(id)
			waitFor(t, func() bool { return s.inputRead() && s.Foreground().Input == inputCommand })
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "echo st''arted; sleep 30\r", "wait_for": "started", "timeout_ms": 20000})
			r, _ = call(t, a, "shell_send", map[string]any{"session_id": id, "input": "x", "wait_for_command": true, "timeout_ms": 300})
			if want := "TIMED OUT after 300ms waiting for wait_for_command (the command to end"; !strings.HasPrefix(r.Text, want) {
				t.Errorf("during sleep: %q, want %q...", firstLine(r.Text), want)
			}
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"C-c"}, "wait_for_command": true, "timeout_ms": 20000})
		})
	}
}
