package main

// session_integ_stale_test.go: the wrapper directories a killed server
// leaves in the temporary directory are removed by the next server, and
// no one else's.

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRemoveStaleIntegrationDirs: a server killed with SIGKILL leaves its
// session's wrapper directory behind; removeStaleIntegrationDirs (run
// by the next server at start) removes it and one whose pid now belongs
// to a later process, and keeps the directories of running servers (this
// test's own session, a live process's), of other PID namespaces, links,
// and names of another form.
func TestRemoveStaleIntegrationDirs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	if os.Getenv("TTYWRIGHT_INTEG_DIR_HELPER") == "1" {
		// The server to be killed: a bash session, its directory on
		// stdout, then it waits for the SIGKILL.
		a := newApp(Config{Cols: 80, Rows: 24, Theme: "one-dark", Scrollback: 100, MaxSessions: 4, OutputDir: t.TempDir()})
		s, err := a.tools.startSession(StartOptions{Command: "bash", Env: map[string]string{"HOME": t.TempDir()}})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("dir %s\n", s.integ.dir)
		time.Sleep(time.Minute)
		return
	}
	needShell(t, "bash")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)

	// A server killed with SIGKILL, as a client's crash leaves it.
	killed := exec.Command(os.Args[0], "-test.run=^TestRemoveStaleIntegrationDirs$")
	killed.Env = append(os.Environ(), "TTYWRIGHT_INTEG_DIR_HELPER=1")
	stdout, err := killed.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := killed.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killed.Process.Kill(); killed.Wait() })
	var deadDir string
	for sc := bufio.NewScanner(stdout); deadDir == "" && sc.Scan(); {
		deadDir, _ = strings.CutPrefix(sc.Text(), "dir ")
	}
	if filepath.Dir(deadDir) != tmp {
		t.Fatalf("the helper server's directory %q is not in TMPDIR %s", deadDir, tmp)
	}
	if err := killed.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.Wait()
	if _, err := os.Stat(deadDir); err != nil {
		t.Fatalf("the killed server's directory is gone already: %v", err)
	}

	// This server's own session: running, its directory stays.
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", nil, nil)
	s, _ := a.tools.session(id)
	liveDir := s.integ.dir

	// Another running process as the owner, with its real start time.
	sleep := exec.Command("sleep", "60")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	pid := sleep.Process.Pid
	ns := pidNamespace()
	mk := func(name string) string {
		p := filepath.Join(tmp, name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "bashrc"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := mk(fmt.Sprintf("ttywright-shell-%d-%s-%s-1", pid, processStart(pid), ns))
	reused := mk(fmt.Sprintf("ttywright-shell-%d-%s-%s-2", pid, "1", ns))       // the pid's server is gone, another process has it now
	foreign := mk(fmt.Sprintf("ttywright-shell-%d-%s-%s-3", 1<<22+7, "1", "1")) // another namespace: its pids are not ours to look up
	oldForm := mk("ttywright-shell-123456")
	target := mk("target")
	link := filepath.Join(tmp, fmt.Sprintf("ttywright-shell-%d-1-%s-4", 1<<22+7, ns))
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	var otherUser string
	if os.Getuid() == 0 { // root can make a directory of another user's
		otherUser = mk(fmt.Sprintf("ttywright-shell-%d-1-%s-5", 1<<22+7, ns))
		if err := os.Chown(otherUser, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}

	removed, err := removeStaleIntegrationDirs()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		what, path string
		gone       bool
	}{
		{"the SIGKILLed server's", deadDir, true},
		{"a reused pid's", reused, true},
		{"this running server's", liveDir, false},
		{"another running process's", other, false},
		{"another namespace's", foreign, false},
		{"one named in the old form", oldForm, false},
		{"a link's target", target, false},
		{"a link", link, false},
		{"another user's", otherUser, false},
	} {
		if tt.path == "" {
			continue
		}
		_, err := os.Lstat(tt.path)
		if gone := os.IsNotExist(err); gone != tt.gone {
			t.Errorf("%s directory %s: gone %v, want %v (removed %q)", tt.what, tt.path, gone, tt.gone, removed)
		}
	}
	if len(removed) != 2 {
		t.Errorf("removed %q, want the 2 stale directories", removed)
	}
	if c := runCommand(t, a, id, "echo still", nil); c["output"] != "still" {
		t.Errorf("the running session after the cleanup: %v", c)
	}
}
