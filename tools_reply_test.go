package main

// tools_reply_test.go: the text block of shell_send and shell_wait in
// the cases where it used to hide what the model needed or said it
// oddly: a right prompt, a full-screen program still running, an empty
// screen, an empty line, output past the scrollback, durations, and
// captures saved again under a name.

import (
	"strings"
	"testing"
	"time"
)

// TestReplyShowsWhatTheScreenShows: each case's text block holds want
// (and not avoid).
func TestReplyShowsWhatTheScreenShows(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		shell       string
		setup       string // a line run first, when not ""
		tool        string
		args        map[string]any
		want, avoid string
	}{
		{"zsh right prompt", "zsh", "RPROMPT='[rp%?]'", "shell_send",
			map[string]any{"text": "false\n", "wait_for_command": true}, "[rp1]", ""},
		{"fish right prompt", "fish", "function fish_right_prompt; echo RIGHT-SIDE; end", "shell_send",
			map[string]any{"text": "false\n", "wait_for_command": true}, "RIGHT-SIDE", ""},
		{"full-screen program still running", "bash", "", "shell_send",
			map[string]any{"text": `printf '\033[?1049hFULL-SCREEN-%s' 42; sleep 100` + "\n", "wait_for_command": true, "timeout_ms": 500},
			"--- the screen shows:\n\nFULL-SCREEN-42", ""},
		{"empty line", "bash", "", "shell_send",
			map[string]any{"text": "\n", "wait_for_command": true}, "NO COMMAND: the line was empty", "done: wait_for_command"},
		{"output past the scrollback", "bash", "", "shell_send",
			map[string]any{"text": "seq 1 3000\n", "wait_for_command": true}, "its oldest output is lost", "raise max_bytes"},
		{"timeout of 0", "bash", "", "shell_wait",
			map[string]any{"wait_for": "never-shown", "timeout_ms": 0}, "TIMED OUT after 0ms", "0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			id := startShell(t, a, tt.shell, "", nil, nil)
			if tt.setup != "" {
				runCommand(t, a, id, tt.setup, nil)
			}
			args := map[string]any{"session_id": id}
			for k, v := range tt.args {
				args[k] = v
			}
			r, _ := call(t, a, tt.tool, args)
			if r.IsError || !strings.Contains(r.Text, tt.want) || tt.avoid != "" && strings.Contains(r.Text, tt.avoid) {
				t.Errorf("text %q: want %q in it, and not %q", r.Text, tt.want, tt.avoid)
			}
		})
	}
}

// TestReplyEmptyScreen: a reply whose screen is empty says so, instead
// of a JSON copy of the result or a TIMED OUT line that points at
// nothing.
func TestReplyEmptyScreen(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh", "-c", "stty -echo; exec cat") // no echo, and no line ends: nothing shows
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"shell_send", map[string]any{"session_id": id, "input": "x"}},
		{"shell_wait", map[string]any{"session_id": id, "wait_idle_ms": 50}},
		{"shell_wait", map[string]any{"session_id": id, "wait_for": "never", "timeout_ms": 100}},
	} {
		r, _ := call(t, a, tc.tool, tc.args)
		if !strings.HasSuffix(r.Text, "(the screen is empty)") || strings.HasPrefix(r.Text, "{") {
			t.Errorf("%s %v: %q", tc.tool, tc.args, r.Text)
		}
	}
}

// TestDurationText: durations read alike, 0 included.
func TestDurationText(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{0: "0ms", 2 * time.Millisecond: "2ms", 1500 * time.Millisecond: "1.5s"} {
		if got := durationText(d); got != want {
			t.Errorf("durationText(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestCaptureReplacedSaysSo: a screenshot or a recording saved under a
// name the session used already says it replaced the old files.
func TestCaptureReplacedSaysSo(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh", "-c", "echo hi; exec cat") // reads: shell_start returns at once
	for i, want := range []any{nil, true} {
		if m := mustCall(t, a, "shell_screenshot", map[string]any{"session_id": id, "name": "same"}); m["replaced"] != want {
			t.Errorf("screenshot %d: replaced %v, want %v", i, m["replaced"], want)
		}
	}
	for i, want := range []any{nil, true} {
		mustCall(t, a, "shell_record_start", map[string]any{"session_id": id, "name": "rec"})
		if m := mustCall(t, a, "shell_record_stop", map[string]any{"session_id": id}); m["replaced"] != want {
			t.Errorf("recording %d: replaced %v, want %v", i, m["replaced"], want)
		}
	}
}

// TestFoldRows: runs of foldMin or more identical rows that are not
// blank fold into one row and " ×N"; shorter runs, blank rows and
// different rows stay as they are.
func TestFoldRows(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"a\n~\n~\n~\nb", "a\n~ ×3\nb"},
		{"a\n~\n~\nb", "a\n~\n~\nb"},
		{"~\n~\n~\n~", "~ ×4"},
		{"x\n\n\n\n\ny", "x\n\n\n\n\ny"},
		{"   \n   \n   ", "   \n   \n   "},
		{"a\na\na\nb\nb\nb\nb", "a ×3\nb ×4"},
		{"a\nb\na\nb\na", "a\nb\na\nb\na"},
	}
	for _, tt := range tests {
		if got := foldRows(tt.in); got != tt.want {
			t.Errorf("foldRows(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestDoneLine: a wait whose conditions all held says, in plain words,
// what each saw, in order, leaving out wait_for_command (the command's
// own line follows); a wait that did not match, or did not wait, has no
// done line.
func TestDoneLine(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	ms := func(n int) *int { return &n }
	tests := []struct {
		name    string
		args    WaitArgs
		matched bool
		fg      Foreground
		input   string
		want    string
	}{
		{"wait_for", WaitArgs{WaitFor: str("finished")}, true, Foreground{}, "", `done: wait_for "finished" matched`},
		{"a regex, then idle", WaitArgs{WaitFor: str("/fin+/i"), WaitIdleMS: ms(500)}, true, Foreground{}, "",
			"done: wait_for /fin+/i matched, then wait_idle_ms: no output for 500ms"},
		{"gone", WaitArgs{WaitForGone: str("Loading")}, true, Foreground{}, "", `done: wait_for_gone "Loading" is gone`},
		{"input", WaitArgs{WaitForInput: true}, true, Foreground{Command: "vim", Input: inputKeys}, inputKeys,
			"done: wait_for_input: your input is read; vim reads keys"},
		{"stable", WaitArgs{WaitStableMS: ms(200)}, true, Foreground{}, "", "done: wait_stable_ms: the screen unchanged for 200ms"},
		{"command only", WaitArgs{commandWaitArgs: commandWaitArgs{WaitForCommand: true}}, true, Foreground{}, "", ""},
		{"not matched", WaitArgs{WaitFor: str("finished")}, false, Foreground{}, "", ""},
		{"no wait", WaitArgs{}, true, Foreground{}, "", ""},
	}
	for _, tt := range tests {
		spec, err := tt.args.parse(true, false)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		out := waitOutcome{matched: tt.matched, input: tt.input, fg: tt.fg}
		if got := doneLine(out, spec); got != tt.want {
			t.Errorf("%s: doneLine = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestNoWaitSendShowsWhatChanged: a send with no wait replies with what
// changed since the call began, in a shell with a screenful of history:
// the rows above the prompt it typed at are said to be as before, not
// repeated; a shell_wait that follows a send shows what changed since
// that send; output that scrolled past the top is counted; on the
// alternate screen the whole screen shows. structuredContent keeps the
// whole screen.
func TestNoWaitSendShowsWhatChanged(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", nil, nil)
	runCommand(t, a, id, "PS1='$ '; seq -f 'history line %g' 1 200", nil)
	r, sc := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo hel''lo\n", "delay_ms": 300})
	if r.IsError || !strings.HasPrefix(r.Text, "(rows 0-") || !strings.Contains(r.Text, "as before)\n$ echo hel''lo\nhello\n$") ||
		strings.Contains(r.Text, "history line") || !strings.Contains(sc["bufferAfter"].(string), "history line 199") {
		t.Errorf("echo: text %q; bufferAfter %q", r.Text, sc["bufferAfter"])
	}
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "sleep 0.3; echo fini''shed\n"})
	r, _ = call(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "finished"})
	if r.IsError || !strings.HasPrefix(r.Text, "done: wait_for \"finished\" matched\n(rows 0-") || !strings.HasSuffix(strings.TrimSuffix(r.Text, "\n$"), "\nfinished") ||
		strings.Contains(r.Text, "hello") {
		t.Errorf("shell_wait after a send: text %q", r.Text)
	}
	r, _ = call(t, a, "shell_send", map[string]any{"session_id": id, "text": "seq -f 'new line %g' 1 100\n", "wait_idle_ms": 300})
	if r.IsError || !strings.Contains(r.Text, "new lines scrolled above the screen") || !strings.Contains(r.Text, "new line 100") ||
		strings.Contains(r.Text, "history line") {
		t.Errorf("seq: text %q", r.Text)
	}
	r, _ = call(t, a, "shell_send", map[string]any{"session_id": id, "text": `printf '\033[?1049hFULL\n'; sleep 5` + "\n", "wait_for": "FULL"})
	if r.IsError || strings.Contains(r.Text, "as before") || !strings.Contains(r.Text, "FULL") {
		t.Errorf("alternate screen: text %q", r.Text)
	}
}

// TestSendRepliesAfterInputRead: a send's wait that holds before the
// program has read all the call typed (a reader taking one key at a
// time, slowly) replies once it has, showing its answer to the last key;
// a program that does not read (busy) gets a reply that says NOT READ
// YET and input_unread.
func TestSendRepliesAfterInputRead(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", nil, nil)
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "wait_for": "READY",
		"text": `stty -icanon -echo min 1; echo READY; while c=$(head -c1); do echo "got $c"; sleep 0.1; done` + "\n"})
	r, sc := call(t, a, "shell_send", map[string]any{"session_id": id, "input": "abcd", "wait_for": "got a"})
	if r.IsError || !strings.Contains(r.Text, "got d") || strings.Contains(r.Text, "NOT READ YET") || sc["input_unread"] != nil {
		t.Errorf("slow reader: text %q; input_unread %v", r.Text, sc["input_unread"])
	}
	id = startShell(t, a, "bash", "", nil, nil)
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "sleep 3\n"})
	r, sc = call(t, a, "shell_send", map[string]any{"session_id": id, "input": "true\r", "wait_idle_ms": 50})
	if r.IsError || !strings.Contains(r.Text, "NOT READ YET") || sc["input_unread"] != true {
		t.Errorf("busy: text %q; input_unread %v", r.Text, sc["input_unread"])
	}
}

// TestReadFoldsRows: shell_read's text block folds runs of identical
// rows; its structured text keeps every row, and the raw output is shown
// as it is.
func TestReadFoldsRows(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh", "-c", `for i in 1 2 3 4 5 6 7 8 9 10; do echo '~'; done; echo END; exec cat`)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "END"})
	r, sc := call(t, a, "shell_read", map[string]any{"session_id": id})
	if !strings.Contains(r.Text, "~ ×10\nEND") || strings.Count(sc["text"].(string), "~\n") != 10 {
		t.Errorf("text block %q; structured text %q", r.Text, sc["text"])
	}
	r, _ = call(t, a, "shell_read", map[string]any{"session_id": id, "raw": true})
	if strings.Contains(r.Text, "×") || strings.Count(r.Text, "~") != 10 {
		t.Errorf("raw: text block %q", r.Text)
	}
}

// TestChangedRows: on the alternate screen a reply shows the rows that
// changed, each run of the others one line; none changed, one line
// saying so; most changed, the whole screen.
func TestChangedRows(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, then, want string
	}{
		{"one row", "\x1b[3;1Hthree!", "(rows 0-1 as before)\nthree!\n(rows 3-5 as before)"},
		{"first and last", "\x1b[1;1HONE\x1b[6;1HSIX", "ONE\n(rows 1-4 as before)\nSIX"},
		{"none", "\x1b[2;1Htwo", "(the screen is as before)"},
		{"most", "\x1b[1;1HA\x1b[2;1HB\x1b[3;1HC\x1b[4;1HD", "WHOLE"},
	} {
		term := NewTerminal(20, 6, 0)
		term.Write([]byte("\x1b[?1049h\x1b[1;1Hone\x1b[2;1Htwo\x1b[3;1Hthree\x1b[4;1Hfour\x1b[5;1Hfive\x1b[6;1Hsix"))
		m := markScreen(term)
		term.Write([]byte(tt.then))
		if got := changedRows(term, &m, "WHOLE"); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
