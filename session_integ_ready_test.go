package main

// session_integ_ready_test.go: shell_start's readiness against real
// shells and full-screen programs: ready means the program reads its
// terminal with everything it wrote before that on the screen.

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestShellReadyUnderLoad: shell_start returns a shell ready for a
// paste (its line editor turned bracketed paste on) in every one of many
// starts made side by side. zsh writes \e[?2004h after its prompt, just
// before it reads; on a busy machine the kernel may still hold those
// bytes on their way to the master when zsh is already seen asleep
// reading, and before that was taken into account about 1 start in 120
// was ready too early. And while 30 ms of quiet after the prompt counted
// as ready, about 1 start in 1000 was: zsh preempted between drawing its
// prompt and turning bracketed paste on is quiet and running
// (TestShellReadyAfterSlowLineInit holds that case on any machine). 60
// starts a shell by default, 240 with TTYWRIGHT_LONG set (the figure the
// rates above come from), 20 with -short.
func TestShellReadyUnderLoad(t *testing.T) {
	t.Parallel()
	workers, starts := 4, 15
	switch {
	case os.Getenv("TTYWRIGHT_LONG") != "":
		starts = 60
	case testing.Short():
		starts = 5
	}
	for _, shell := range []string{"zsh", "bash"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			needShell(t, shell)
			a := newTestApp(t)
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for i := range starts {
						home, err := os.MkdirTemp(t.TempDir(), "home")
						if err != nil {
							t.Error(err)
							return
						}
						_, m := call(t, a, "shell_start", map[string]any{"command": shell, "cwd": home,
							"env": map[string]string{"HOME": home, "ZDOTDIR": home, "HISTFILE": filepath.Join(home, ".hist")}})
						id, _ := m["shell_session_id"].(string)
						s, err := a.tools.session(id)
						if err != nil {
							t.Errorf("worker %d start %d: %v", w, i, m)
							return
						}
						if m["ready"] != true || !s.Modes().BracketedPaste {
							t.Errorf("worker %d start %d: ready %v before the line editor turned bracketed paste on; screen %q", w, i, m["ready"], s.Text(false))
						}
						a.tools.stopSession(s, syscall.SIGHUP)
					}
				})
			}
			wg.Wait()
		})
	}
}

// TestProgramReadyScreen: shell_start of a program other than a shell
// returns once the program reads its terminal after drawing, with what it
// drew in screen: mc (which first waits for its subshell, slow or not)
// and htop (which pauses before it draws) were ready with an empty screen
// before. Programs that wait on something else before they draw, then
// read their terminal by select, poll, epoll or /dev/tty, are ready only
// then; cat, which reads at once and prints nothing, is ready without
// output; one that loads longer than readyMax before it writes anything
// (python on a busy machine) is ready once it draws and reads. A program
// that prints and then pauses without taking its terminal (a dev server,
// a ticker) is ready once its output settles: it once waited 3 s for a
// read that never comes. One that has taken its terminal (raw mode) and
// never reads it returns ready false with a note.
func TestProgramReadyScreen(t *testing.T) {
	t.Parallel()
	src, err := filepath.Abs("session_integ_ready_test.go") // what vim and less show
	if err != nil {
		t.Fatal(err)
	}
	// A program that writes, waits for a pipe (not its terminal), draws
	// and then reads its terminal as argv[1] says.
	py := `import os, select, selectors, sys
r, w = os.pipe()
sys.stdout.write("\x1b[?1049h"); sys.stdout.flush()
select.select([r], [], [], 0.2)
print("drawn"); sys.stdout.flush()
how = sys.argv[1]
if how == "select": select.select([sys.stdin], [], [])
if how == "poll":
    p = select.poll(); p.register(sys.stdin, select.POLLIN); p.poll()
if how == "epoll":
    e = selectors.EpollSelector(); e.register(sys.stdin, selectors.EVENT_READ); e.select()
if how == "devtty": open("/dev/tty", "rb", buffering=0).read(1)
`
	tests := []struct {
		name   string
		cmd    []string
		rc     string   // the user's .bashrc (mc's subshell reads it)
		want   []string // on the first screen
		ready  bool
		note   string // in the note when not ready
		screen bool   // the first screen is not empty
	}{
		{name: "mc", cmd: []string{"mc"}, want: []string{"Options", "UP--DIR"}, ready: true, screen: true},
		{name: "mc slow subshell", cmd: []string{"mc"}, rc: "sleep 0.9\n", want: []string{"Options", "UP--DIR"}, ready: true, screen: true},
		{name: "htop", cmd: []string{"htop"}, want: []string{"Tasks:", "Load average"}, ready: true, screen: true},
		{name: "cat", cmd: []string{"cat"}, ready: true},
		{name: "sleep before drawing", cmd: []string{"sh", "-c", `printf '\033[?1049h'; sleep 0.2; echo drawn; exec cat`}, want: []string{"drawn"}, ready: true, screen: true},
		{name: "select", cmd: []string{realPython(), "-c", py, "select"}, want: []string{"drawn"}, ready: true, screen: true},
		{name: "poll", cmd: []string{realPython(), "-c", py, "poll"}, want: []string{"drawn"}, ready: true, screen: true},
		{name: "epoll", cmd: []string{realPython(), "-c", py, "epoll"}, want: []string{"drawn"}, ready: true, screen: true},
		{name: "/dev/tty", cmd: []string{realPython(), "-c", py, "devtty"}, want: []string{"drawn"}, ready: true, screen: true},
		{name: "loads past readyMax, silent", cmd: []string{realPython(), "-c", "import time\nend = time.time() + 0.7\nwhile time.time() < end: pass\nprint('drawn')\ninput()"}, want: []string{"drawn"}, ready: true, screen: true},
		{name: "vim", cmd: []string{"vim", "-u", "NONE", "-N", src}, want: []string{"package main"}, ready: true, screen: true},
		{name: "less", cmd: []string{"less", src}, want: []string{"package main"}, ready: true, screen: true},
		{name: "prints, then pauses", cmd: []string{"sh", "-c", "echo listening; exec sleep 100"}, want: []string{"listening"}, ready: true, screen: true},
		{name: "ticker", cmd: []string{"sh", "-c", "while :; do echo tick; sleep 1; done"}, want: []string{"tick"}, ready: true, screen: true},
		{name: "dev server", cmd: []string{realPython(), "-m", "http.server", "0", "--bind", "127.0.0.1"}, want: []string{"Serving HTTP on 127.0.0.1"}, ready: true, screen: true},
		{name: "takes its terminal, writes, never reads", cmd: []string{"sh", "-c", "stty raw -echo; echo started; exec sleep 100"}, want: []string{"started"}, note: "has not read its terminal", screen: true},
		{name: "a script's program reads", cmd: []string{"sh", "-c", `printf '\033[?1049h'; sleep 0.2; echo drawn; cat; true`}, want: []string{"drawn"}, ready: true, screen: true},
		{name: "keeps writing, never reads", cmd: []string{realPython(), "-c", "import time\nwhile True:\n    print('tick', flush=True)\n    end = time.time() + 0.005\n    while time.time() < end: pass"}, want: []string{"tick"}, note: "has not read its terminal", screen: true},
		{name: "silent, never reads", cmd: []string{"sleep", "100"}, note: "no output yet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			needShell(t, tt.cmd[0])
			a := newTestApp(t)
			home := t.TempDir()
			if tt.rc != "" {
				if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(tt.rc), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			m := mustCall(t, a, "shell_start", map[string]any{"command": tt.cmd[0], "args": tt.cmd[1:], "cwd": home,
				"env": map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "SHELL": "/bin/bash"}})
			s, _ := a.tools.session(m["shell_session_id"].(string))
			defer a.tools.stopSession(s, syscall.SIGHUP) // before home goes
			screen, _ := m["screen"].(string)
			note, _ := m["note"].(string)
			if m["ready"] != tt.ready || !strings.Contains(note, tt.note) {
				t.Errorf("ready %v note %q, want %v and a note with %q; screen %q", m["ready"], note, tt.ready, tt.note, screen)
			}
			if (strings.TrimSpace(screen) != "") != tt.screen {
				t.Errorf("first screen %q, want it empty: %v", screen, !tt.screen)
			}
			for _, w := range tt.want {
				if !strings.Contains(screen, w) {
					t.Errorf("the first screen lacks %q: %q", w, screen)
				}
			}
		})
	}
}

// TestShellReadyAfterSlowLineInit: a zsh whose zle-line-init hook runs for
// a while (a theme's, or any on a machine busy enough to preempt zsh
// there) has drawn its prompt and gone quiet well before its line editor
// reads with bracketed paste on. shell_start, and a wait_for_command's
// end, return only then: 30 ms of quiet after the prompt once counted as
// ready.
func TestShellReadyAfterSlowLineInit(t *testing.T) {
	t.Parallel()
	needShell(t, "zsh")
	a := newTestApp(t)
	home := t.TempDir()
	rc := "zmodload zsh/datetime\n" +
		"zle-line-init() { local end=$(( EPOCHREALTIME + 0.2 )); while (( EPOCHREALTIME < end )); do :; done }\n" +
		"zle -N zle-line-init\n"
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	m := mustCall(t, a, "shell_start", map[string]any{"command": "zsh", "cwd": home,
		"env": map[string]string{"HOME": home, "ZDOTDIR": home, "HISTFILE": filepath.Join(home, ".hist")}})
	s, _ := a.tools.session(m["shell_session_id"].(string))
	defer a.tools.stopSession(s, syscall.SIGHUP) // before home goes
	if m["ready"] != true || !s.Modes().BracketedPaste {
		t.Errorf("shell_start: ready %v before the line editor turned bracketed paste on; screen %q", m["ready"], s.Text(false))
	}
	runCommand(t, a, s.ID, "true", nil) // zsh turns bracketed paste off to run it
	if !s.Modes().BracketedPaste {
		t.Errorf("wait_for_command returned before the line editor turned bracketed paste on; screen %q", s.Text(false))
	}
}
