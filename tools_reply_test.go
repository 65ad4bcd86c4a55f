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
			map[string]any{"text": "\n", "wait_for_command": true}, "NO COMMAND: the line was empty", "held: wait_for_command"},
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
