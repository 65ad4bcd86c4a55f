package main

// tools_echo_test.go: the echo of typed input never satisfies a wait,
// however the line editor draws a paste (highlighted, redrawn, wrapped,
// one row per continuation line), during the call that typed it and in
// the waits after it.

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var pasteRuns = flag.Int("paste-runs", 2, "runs of each pasted-echo case in TestPastedEchoNeverSatisfiesWait")

// pasteCase is a text pasted with shell_send's text argument that prints
// real-output-{N} after a sleep, and creates the file {F} just before.
type pasteCase struct {
	name, text string
}

// pasteCases are the texts for shell: a line of over 200 characters, a 5-line
// heredoc (a 5-line begin block in fish, which has no heredocs), an if
// block and a python block in a multi-line quoted string. The text holds
// the placeholders {F} (the marker file) and {N} (the run).
func pasteCases(shell string) []pasteCase {
	pad := "true " + strings.Repeat("x", 200-len("true ; sleep 0.3; touch {F}; echo real-output-{N}"))
	cases := []pasteCase{{"200-char line", pad + "; sleep 0.3; touch {F}; echo real-output-{N}\n"}}
	if shell == "fish" {
		cases = append(cases,
			pasteCase{"5-line block", "begin\nsleep 0.3\ntouch {F}\necho real-output-{N}\nend\n"},
			pasteCase{"if block", "if true\n  sleep 0.3\n  touch {F}\n  echo real-output-{N}\nend\n"})
	} else {
		cases = append(cases,
			pasteCase{"5-line heredoc", "sh <<'EOF'\nsleep 0.3\ntouch {F}\necho real-output-{N}\nEOF\n"},
			pasteCase{"if block", "if true\nthen\n  sleep 0.3\n  touch {F}\n  echo real-output-{N}\nfi\n"})
	}
	return append(cases, pasteCase{"python block",
		"python3 -c '\nimport pathlib, time\ntime.sleep(0.3)\npathlib.Path(\"{F}\").touch()\nprint(\"real-output-{N}\")\n'\n"})
}

// TestPastedEchoNeverSatisfiesWait: in bash, zsh and fish, a wait_for on
// text that a pasted command prints after a sleep returns only once the
// command printed it (the marker file it creates just before exists),
// both as the shell_send's own wait and as a shell_wait after a
// shell_send without one. -paste-runs sets the runs of each case.
func TestPastedEchoNeverSatisfiesWait(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			home := t.TempDir()
			id := startShell(t, a, shell, home, nil, map[string]any{"cols": 80, "rows": 24})
			n := 0
			for _, c := range pasteCases(shell) {
				for _, separate := range []bool{false, true} {
					early := 0
					for range *pasteRuns {
						n++
						marker := filepath.Join(home, fmt.Sprintf("done-%d", n))
						text := strings.NewReplacer("{F}", marker, "{N}", fmt.Sprint(n)).Replace(c.text)
						want := fmt.Sprintf("real-output-%d", n)
						args := map[string]any{"session_id": id, "text": text, "wait_for": want, "timeout_ms": 10000}
						if separate {
							mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": text})
							args = map[string]any{"session_id": id, "wait_for": want, "timeout_ms": 10000}
						}
						tool := map[bool]string{false: "shell_send", true: "shell_wait"}[separate]
						if m := mustCall(t, a, tool, args); m["matched"] != true {
							t.Fatalf("%s, %s: %v", c.name, tool, m)
						}
						if _, err := os.Stat(marker); err != nil {
							early++
						}
						mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true, "timeout_ms": 10000})
					}
					if early > 0 {
						t.Errorf("%s, wait in %s: %d of %d waits returned on the echo, before the command printed", c.name, map[bool]string{false: "shell_send", true: "shell_wait"}[separate], early, *pasteRuns)
					}
				}
			}
		})
	}
}

// TestEchoOnlyTimeoutSaysSo: a wait that runs out while its text is on
// the screen only as the echo of typed input says so, and what to use.
func TestEchoOnlyTimeoutSaysSo(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", []string{"--norc"}, nil)
	r, m := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "true only-typed", "wait_for": "only-typed", "timeout_ms": 300})
	if m["matched"] != false || !strings.Contains(r.Text, "only as the echo of typed input") || !strings.Contains(r.Text, "wait_for_command") {
		t.Errorf("timeout on echo alone: %q", r.Text)
	}
}

// TestEchoLingers: the echo of a wait's input drawn after the wait ended
// is still echo, until it is complete; StopEcho ends that, and the next
// marking takes over what was not echoed yet.
func TestEchoLingers(t *testing.T) {
	t.Parallel()
	m, _ := parseWaitFor("real-output")
	tests := []struct {
		name  string
		steps func(term *Terminal)
		echo  bool // the screen's "real-output" is echo only
	}{
		{"drawn after the wait", func(term *Terminal) {
			term.BeginMarks("echo real-output\r", false)
			term.EndMarks()
			term.Write([]byte("$ echo real-output\r\n"))
		}, true},
		{"output after the echo", func(term *Terminal) {
			term.BeginMarks("echo real-output\r", false)
			term.EndMarks()
			term.Write([]byte("$ echo real-output\r\nreal-output\r\n"))
		}, false},
		{"stopped", func(term *Terminal) {
			term.BeginMarks("echo real-output\r", false)
			term.EndMarks()
			term.StopEcho()
			term.Write([]byte("$ echo real-output\r\n"))
		}, false},
		{"taken over by the next marking", func(term *Terminal) {
			term.BeginMarks("echo real-output\r", false)
			term.EndMarks()
			term.BeginMarks("", true)
			term.Write([]byte("$ echo real-output\r\n"))
			term.EndMarks()
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term := NewTerminal(40, 5, 10)
			tt.steps(term)
			text, fresh := term.ScreenTextEcho()
			if got := !m.matchFresh(text, fresh); got != tt.echo {
				t.Errorf("echo only %v, want %v: %q %v", got, tt.echo, text, fresh)
			}
		})
	}
}

// TestEchoAfterClear: a command line typed where an earlier one was
// echoed (after clear, a cursor home, a reset) is echo too: the wait
// holds on the output, which appears only after the sleep, never on the
// command line. Before, the earlier line's echo record made the new
// line's common prefix pass for echo and its first different character
// for output, and wait_for matched the command line in 1 ms.
func TestEchoAfterClear(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		for _, home := range []string{"clear", "tput cup 0 0", `printf '\033c'`} {
			t.Run(sh+"/"+home, func(t *testing.T) {
				t.Parallel() // wait-bound: each round sleeps before its output
				needProgram(t, sh)
				a := newTestApp(t)
				id := startShell(t, a, sh, "", nil, nil)
				for i := range 3 {
					runCommand(t, a, id, home, nil)
					want := fmt.Sprintf("real-output%d", i)
					m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "sleep 0.3; echo " + want + "\n", "wait_for": want})
					if after, _ := m["bufferAfter"].(string); m["matched"] != true || !strings.Contains(after, "\n"+want) {
						t.Fatalf("round %d: matched %v before the output: %q", i, m["matched"], after)
					}
					mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
				}
			})
		}
	}
}

// TestEchoAfterCursorLeftMidRow: after a program leaves the cursor mid-row
// (dialog's answer printed with no newline, over its own box), bash's line
// editor redraws the command line as it types it; that redraw, between
// the shell's B and C marks, is echo, so a wait_for of a word only the
// command line holds does not match.
func TestEchoAfterCursorLeftMidRow(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("dialog"); err != nil {
		t.Skip("dialog is not installed")
	}
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", nil, nil)
	pick := filepath.Join(t.TempDir(), "pick")
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "dialog --checklist Pick 15 40 4 a A off b B off c C off 2>" + pick + "; cat " + pick + "\n", "wait_for_input": true})
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Space", "Down", "Down", "Space", "Enter"}, "wait_for_command": true})
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "true zebra42; sleep 1\n", "wait_for": "zebra42", "timeout_ms": 1500})
	if m["matched"] == true {
		t.Errorf("wait_for matched the command line:\n%s", m["bufferAfter"])
	}
}

// TestEchoTypedAheadRedrawn: a line typed while a command runs is echoed
// by the terminal then and drawn again by the shell at its next prompt;
// neither is output, so a wait_for of a word only that line holds does
// not match.
func TestEchoTypedAheadRedrawn(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			id := startShell(t, a, sh, "", nil, nil)
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "sleep 1\n"})
			m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo ok; true zebra46\n", "wait_for": "zebra46", "timeout_ms": 2500})
			if m["matched"] == true {
				t.Errorf("wait_for matched the typed-ahead line:\n%s", m["bufferAfter"])
			}
		})
	}
}
