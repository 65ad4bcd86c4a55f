package main

// session_integ_ready_test.go: shell_start's readiness against real
// shells and full-screen programs: ready means the program reads its
// terminal with everything it wrote before that on the screen.

import (
	"os"
	"path/filepath"
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
// was ready too early.
func TestShellReadyUnderLoad(t *testing.T) {
	workers, starts := 4, 60
	if testing.Short() {
		starts = 10
	}
	for _, shell := range []string{"zsh", "bash"} {
		t.Run(shell, func(t *testing.T) {
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
