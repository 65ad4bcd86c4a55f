package main

// session_input_test.go: the foreground program and the input it waits
// for, with real programs at real prompts.

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// awaitInput polls s's Foreground until its input kind is want (a
// deadlock guard bounds it; nothing is timed) and returns it.
func awaitInput(t *testing.T, s *Session, want string) Foreground {
	t.Helper()
	var fg Foreground
	for guard := time.Now().Add(stuckAfter); time.Now().Before(guard); time.Sleep(5 * time.Millisecond) {
		if fg = s.Foreground(); fg.Input == want {
			return fg
		}
	}
	t.Fatalf("input %q (%+v) after %v, want %q; screen %q", fg.Input, fg, stuckAfter, want, s.Text(false))
	return fg
}

// testUser is the user .ci/testuser creates for the sudo cases.
const testUser = "ttywright-test"

// TestForegroundInput: each program, at the prompt it shows, gives its
// input kind and is named, also when another process of its group
// started it (less under sh).
func TestForegroundInput(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the kinds are measured from /proc (elsewhere quiet output stands in)")
	}
	key := filepath.Join(t.TempDir(), "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "old-pass", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v %s", err, out)
	}
	tests := []struct {
		name    string
		command string
		args    []string
		want    string // input kind
		program string // the foreground command
	}{
		{"read -s", "bash", []string{"-c", "read -s -p 'Password: ' x"}, inputSecret, "bash"},
		{"getpass", "python3", []string{"-c", "import getpass; getpass.getpass()"}, inputSecret, "python3"},
		{"ssh-keygen -p", "ssh-keygen", []string{"-p", "-f", key}, inputSecret, "ssh-keygen"},
		{"read -p", "bash", []string{"-c", "read -p 'Continue? [y/N] ' x"}, inputLine, "bash"},
		{"cat", "cat", nil, inputLine, "cat"},
		{"python REPL", "python3", []string{"-q"}, inputKeys, "python3"},
		{"vim", "vim", []string{"-u", "NONE", "-i", "NONE", "-n"}, inputKeys, "vim"},
		{"less under sh", "sh", []string{"-c", "less /etc/services; true"}, inputKeys, "less"},
		{"htop", "htop", nil, inputKeys, "htop"},
		{"busy", "sh", []string{"-c", "exec sleep 100"}, inputNone, "sleep"},
		{"a fake password prompt", "sh", []string{"-c", "printf 'password: '; exec sleep 100"}, inputNone, "sleep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(tt.command); err != nil {
				t.Skipf("%s is not installed", tt.command)
			}
			a := newTestApp(t)
			id := start(t, a, tt.command, tt.args...)
			s, _ := a.tools.session(id)
			if fg := awaitInput(t, s, tt.want); fg.Command != tt.program || fg.PID <= 0 {
				t.Errorf("foreground %+v, want %s", fg, tt.program)
			}
		})
	}
}

// TestForegroundInputInShells: at the prompt of each integrated shell
// the kind is command; read -s typed there is a secret (fish's read
// --silent is fish's own line editor in raw mode, so keys), read a line.
func TestForegroundInputInShells(t *testing.T) {
	t.Parallel()
	tests := []struct {
		shell        string
		secret, line string // lines that read a secret and a line
		secretKind   string
	}{
		{"bash", "read -s x", "read x", inputSecret},
		{"zsh", "read -s x", "read x", inputSecret},
		{"fish", "read -s x", "read -P 'q? ' x", inputKeys},
	}
	for _, tt := range tests {
		t.Run(tt.shell, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			id := startShell(t, a, tt.shell, "", nil, nil)
			s, _ := a.tools.session(id)
			awaitInput(t, s, inputCommand)
			for _, step := range []struct{ line, kind string }{{tt.secret, tt.secretKind}, {tt.line, ""}} {
				mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": step.line + "\n"})
				if step.kind == "" {
					step.kind = inputLine
					if tt.shell == "fish" {
						step.kind = inputKeys
					}
				}
				awaitInput(t, s, step.kind)
				mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"C-c"}})
				awaitInput(t, s, inputCommand)
			}
		})
	}
}

// TestForegroundSudo: a real sudo password prompt, as the user
// .ci/testuser creates, is a secret read by sudo.
func TestForegroundSudo(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" || os.Getuid() != 0 {
		t.Skip("needs root, to run runuser as the test user without a password")
	}
	if _, err := exec.Command("id", testUser).Output(); err != nil {
		t.Skipf("no user %s: .ci/testuser creates it (with sudo, as root)", testUser)
	}
	a := newTestApp(t)
	id := start(t, a, "runuser", "-u", testUser, "--", "sudo", "-k", "true")
	s, _ := a.tools.session(id)
	if fg := awaitInput(t, s, inputSecret); fg.Command != "sudo" {
		t.Errorf("foreground %+v, want sudo", fg)
	}
}

// BenchmarkForeground is the cost of reading the input state, as each
// reply with a screen does: a shell running vim.
func BenchmarkForeground(b *testing.B) {
	a := newTestApp(b)
	id := start(b, a, "vim", "-u", "NONE", "-i", "NONE", "-n")
	s, _ := a.tools.session(id)
	for guard := time.Now().Add(stuckAfter); s.Foreground().Input != inputKeys && time.Now().Before(guard); time.Sleep(5 * time.Millisecond) {
	}
	for b.Loop() {
		s.Foreground()
	}
}

// BenchmarkWaitForInput is the round trip of one key in vim with
// wait_for_input: vim's own time to read and redraw, plus the two looks
// the wait takes (readyPoll apart) once vim reads again.
func BenchmarkWaitForInput(b *testing.B) {
	a := newTestApp(b)
	id := start(b, a, "vim", "-u", "NONE", "-i", "NONE", "-n")
	s, _ := a.tools.session(id)
	for guard := time.Now().Add(stuckAfter); s.Foreground().Input != inputKeys && time.Now().Before(guard); time.Sleep(5 * time.Millisecond) {
	}
	keys := []string{"j", "k"}
	for i := 0; b.Loop(); i++ {
		mustCall(b, a, "shell_send", map[string]any{"session_id": id, "input": keys[i%2], "wait_for_input": true})
	}
}

// TestWaitForInputAfterEachKey: in vim, shell_send of one key with
// wait_for_input returns only once vim has read the key and redrawn: the
// screen then shows what the keys so far typed, 20 keys in a row.
func TestWaitForInputAfterEachKey(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "vim", "-u", "NONE", "-i", "NONE", "-n")
	s, _ := a.tools.session(id)
	awaitInput(t, s, inputKeys)
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"i"}, "wait_for_input": true})
	if m["ended_by"] != "input" || m["input"] != inputKeys {
		t.Fatalf("after i: %v", m)
	}
	typed := ""
	for _, k := range "abcdefghijklmnopqrs" {
		typed += string(k)
		m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": string(k), "wait_for_input": true})
		if first := screenLines(m["bufferAfter"])[0]; first != typed || m["input"] != inputKeys {
			t.Fatalf("after %q: first row %q, input %v; want %q", k, first, m["input"], typed)
		}
	}
}

// TestCommandWaitStopsAtPrompt: a wait_for_command whose command stops
// at a password prompt (a real sudo) or a question returns at once with
// waiting_for, and the text says what to do.
func TestCommandWaitStopsAtPrompt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line, kind, say string
		root                  bool
	}{
		{"sudo", "runuser -u " + testUser + " -- sudo -k true", inputSecret, "WAITING FOR A SECRET: sudo", true},
		{"read -p", "read -p 'Overwrite? [y/N] ' answer", inputLine, "WAITING FOR INPUT: bash", false},
		{"python input", `python3 -c 'input("name? ")'`, inputLine, "WAITING FOR INPUT: python3", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.root {
				if os.Getuid() != 0 {
					t.Skip("needs root, to run runuser as the test user")
				}
				if _, err := exec.Command("id", testUser).Output(); err != nil {
					t.Skipf("no user %s: .ci/testuser creates it (with sudo, as root)", testUser)
				}
			}
			a := newTestApp(t)
			id := startShell(t, a, "bash", "", nil, nil)
			r, m := call(t, a, "shell_send", map[string]any{"session_id": id, "text": tt.line + "\n", "wait_for_command": true, "timeout_ms": 20000})
			fg, _ := m["foreground"].(map[string]any)
			if m["waiting_for"] != tt.kind || m["ended_by"] != "input" || m["matched"] != false || fg["input"] != tt.kind || !strings.HasPrefix(r.Text, tt.say) {
				t.Errorf("%v; text %q", m, r.Text)
			}
		})
	}
}
