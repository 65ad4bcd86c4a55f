package main

// tools_reply_size_test.go: the eval of what typical calls cost the model
// that reads their replies. testdata/tools/replies.txt holds, for each
// call, the bytes of its text block (what the model reads) before the
// replies were written in plain words with folded rows and no-wait sends
// showing what changed (measured then, kept by -update), the bytes of its
// text block now and of its structuredContent, rewritten with go test
// -run TestReplySizes -update; README.md's Replies table quotes it.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// replySizeSlack is how far a reply's text may move from its golden
// before the test fails: a screen holds what the programs drew by then,
// and a prompt or a status line differs by a few bytes between runs.
const replySizeSlack = 0.15

// TestReplySizes runs the typical calls an agent makes, at 120x40 in
// bash with a fixed prompt, and compares their reply sizes with the
// golden: a command with wait_for_command (30 lines of output), a key in
// vim with wait_for_input, and a send with no wait in a session with
// 1,000 lines of history.
func TestReplySizes(t *testing.T) {
	needShell(t, "bash")
	needProgram(t, "vim")
	a := newApp(Config{Cols: 120, Rows: 40, Theme: "one-dark", Scrollback: 2000, MaxSessions: 4, OutputDir: t.TempDir()})
	t.Cleanup(a.shutdown)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "notes.txt"), []byte(notesText(10)), 0o644); err != nil {
		t.Fatal(err)
	}
	id := startShell(t, a, "bash", home, nil, nil)
	type step struct {
		name string
		args map[string]any
		eval bool // measured; else only a setup
	}
	steps := []step{
		{"prompt", map[string]any{"text": "PS1='$ '\n", "wait_for_command": true}, false},
		{"a command (wait_for_command, 30 lines of output)", map[string]any{"text": "seq -f '-rw-r--r-- 1 user user 4096 Dec  1 23:03 file-%02g.txt' 1 30\n", "wait_for_command": true}, true},
		{"history", map[string]any{"text": "seq -f 'line %g of the history, earlier output' 1 1000\n", "wait_for_command": true}, false},
		{"a send with no wait, 1,000 lines of history", map[string]any{"text": "echo hello\n"}, true},
		{"vim", map[string]any{"text": "vim -u NONE notes.txt\n", "wait_for_input": true}, false},
		{"a vim key (wait_for_input)", map[string]any{"keys": []string{"j"}, "wait_for_input": true}, true},
	}
	var lines []string
	for _, st := range steps {
		args := map[string]any{"session_id": id, "timeout_ms": 20000}
		for k, v := range st.args {
			args[k] = v
		}
		r, _ := call(t, a, "shell_send", args)
		if r.IsError {
			t.Fatalf("%s: %s", st.name, r.Text)
		}
		if !st.eval {
			continue
		}
		sc, err := json.Marshal(r.Structured)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf("%6d %6d  %s", len(r.Text), len(sc), st.name))
		t.Logf("%s:\n%s", st.name, r.Text)
	}
	path := filepath.Join("testdata", "tools", "replies.txt")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: write it with go test -run TestReplySizes -update", err)
	}
	wl := strings.Split(strings.TrimSpace(string(want)), "\n")[1:]
	if len(wl) != len(lines) {
		t.Fatalf("%s has %d calls, the test %d: rewrite it with -update", path, len(wl), len(lines))
	}
	for i, l := range lines {
		lines[i] = fmt.Sprintf("%6d %s", replyBytes(t, wl[i], 0), l)
	}
	got := "before   text struct  call\n" + strings.Join(lines, "\n") + "\n"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for i, l := range lines {
		gotN, wantN := replyBytes(t, l, 1), replyBytes(t, wl[i], 1)
		if d := float64(gotN-wantN) / float64(wantN); d > replySizeSlack || d < -replySizeSlack {
			t.Errorf("%s: the text block is %d bytes, the golden %d (go test -run TestReplySizes -update rewrites it, for review):\n%s", l[22:], gotN, wantN, got)
		}
	}
}

// replyBytes is field i of a line of replies.txt: 0 the text bytes
// before, 1 now.
func replyBytes(t *testing.T, line string, i int) int {
	t.Helper()
	n, err := strconv.Atoi(strings.Fields(line)[i])
	if err != nil {
		t.Fatalf("replies.txt line %q: %v", line, err)
	}
	return n
}

// notesText is n numbered lines of notes.
func notesText(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "note %d: something to remember\n", i+1)
	}
	return b.String()
}
