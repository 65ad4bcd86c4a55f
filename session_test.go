package main

// session_test.go: sessions with real programs (sh, bash, cat, printf):
// output, exit codes and signals, draining before the exit is reported,
// Ctrl-C, replies to queries, resize, waits, stop and shutdown leaving no
// process behind (checked in /proc), the environment, and the limits.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// newTestApp returns an App with an 80x24 default screen whose sessions
// are shut down when the test ends.
func newTestApp(t testing.TB) *App {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skipf("no pseudo-terminals on %s", runtime.GOOS)
	}
	a := newApp(Config{Cols: 80, Rows: 24, Theme: "one-dark", Scrollback: 1000, MaxSessions: 16, OutputDir: t.TempDir()})
	t.Cleanup(a.shutdown)
	return a
}

// toolByName finds one of a's tools.
func toolByName(t testing.TB, a *App, name string) *Tool {
	t.Helper()
	for _, tool := range a.tools.list() {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// call runs a tool handler directly with args (a map or struct) and
// returns the result; the structured part is decoded into a map.
func call(t testing.TB, a *App, name string, args any) (*ToolResult, map[string]any) {
	t.Helper()
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	tool := toolByName(t, a, name)
	r := a.tools.Run(context.Background(), tool, &ToolCall{Args: b, tool: tool}) // as tools/call runs it: a step of its session
	if r == nil {
		t.Fatalf("%s returned nil", name)
	}
	var m map[string]any
	if r.Structured != nil {
		sb, err := json.Marshal(r.Structured)
		if err != nil {
			t.Fatalf("%s: structured result does not encode: %v", name, err)
		}
		if err := json.Unmarshal(sb, &m); err != nil {
			t.Fatal(err)
		}
	}
	return r, m
}

// mustCall is call that fails the test on an isError result.
func mustCall(t testing.TB, a *App, name string, args any) map[string]any {
	t.Helper()
	r, m := call(t, a, name, args)
	if r.IsError {
		t.Fatalf("%s %v: error %s", name, args, r.Text)
	}
	return m
}

// start starts a session through shell_start and returns its id.
func start(t testing.TB, a *App, command string, args ...string) string {
	t.Helper()
	if args == nil {
		args = []string{}
	}
	m := mustCall(t, a, "shell_start", map[string]any{"command": command, "args": args})
	return m["shell_session_id"].(string)
}

// waitExit waits (bounded) until the session reports its exit.
func waitExit(t testing.TB, a *App, id string) SessionStatus {
	t.Helper()
	s, err := a.tools.session(id)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s (%s) did not exit", id, s.Command)
	}
	return s.Status()
}

// rawText is the session's raw output so far.
func rawText(t testing.TB, a *App, id string) string {
	t.Helper()
	s, err := a.tools.session(id)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.RawTail(rawTailCap)
	return string(p)
}

// procState returns the state letter of pid ("R", "S", "Z", ...) or ""
// when it does not exist.
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return f[0]
}

// checkGone fails if pid still exists (alive or as a zombie of ours) or if
// any live process remains in its session.
func checkGone(t testing.TB, pid int) {
	t.Helper()
	if runtime.GOOS != "linux" {
		return
	}
	if st := procState(pid); st != "" {
		t.Errorf("process %d still exists (state %s): not reaped", pid, st)
	}
	if m := sessionMembers(pid); len(m) > 0 {
		t.Errorf("processes %v of session %d still run (orphans)", m, pid)
	}
}

func TestStartOutputAndExitCodes(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	tests := []struct {
		name   string
		cmd    []string
		output string
		code   int
		signal string
	}{
		{"printf", []string{"printf", `hello\nworld\n`}, "hello\r\nworld\r\n", 0, ""},
		{"exit 0", []string{"sh", "-c", "echo zero; exit 0"}, "zero", 0, ""},
		{"exit 3", []string{"sh", "-c", "echo three; exit 3"}, "three", 3, ""},
		{"SIGTERM", []string{"sh", "-c", "echo term; kill -TERM $$"}, "term", 128 + 15, "SIGTERM"},
		{"SIGKILL", []string{"sh", "-c", "kill -KILL $$"}, "", 128 + 9, "SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := start(t, a, tt.cmd[0], tt.cmd[1:]...)
			st := waitExit(t, a, id)
			if !st.Exited || st.ExitCode != tt.code || st.Signal != tt.signal {
				t.Errorf("status %+v, want exit code %d signal %q", st, tt.code, tt.signal)
			}
			if got := rawText(t, a, id); !strings.Contains(got, tt.output) {
				t.Errorf("output %q does not contain %q", got, tt.output)
			}
			// The exit is visible to the tools, and the session stays readable.
			_, m := call(t, a, "shell_read", map[string]any{"session_id": id, "raw": true})
			if m["exited"] != true || m["exit_code"] != float64(tt.code) {
				t.Errorf("shell_read after exit: exited %v exit_code %v, want true %d", m["exited"], m["exit_code"], tt.code)
			}
			stop := mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
			if stop["exit_code"] != float64(tt.code) || stop["success"] != true {
				t.Errorf("shell_stop %v, want success and exit code %d", stop, tt.code)
			}
			if _, err := a.tools.session(id); err == nil {
				t.Errorf("session %s still listed after shell_stop", id)
			}
		})
	}
}

// TestFastExitLastLine pins the lost-last-line bug: a program that prints
// and exits at once must have all its output read before the exit is
// reported.
func TestFastExitLastLine(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	n := 200
	if testing.Short() {
		n = 40
	}
	a.cfg.MaxSessions = n // exited sessions stay until the cleanup's shutdown stops them all at once
	reconfigure(a)
	var wg sync.WaitGroup
	errs := make(chan string, n)
	work := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				s, err := a.tools.startSession(StartOptions{Command: "printf", Args: []string{`first\nsecond\nLAST-%d`, strconv.Itoa(i)}})
				if err != nil {
					errs <- err.Error()
					continue
				}
				<-s.done
				want := fmt.Sprintf("LAST-%d", i)
				p, _ := s.RawTail(rawTailCap)
				if !strings.HasSuffix(string(p), want) {
					errs <- fmt.Sprintf("run %d: raw output %q lacks %q", i, p, want)
				} else if txt := s.Text(false); !strings.Contains(txt, want) && !emulatorIsSkeleton() {
					errs <- fmt.Sprintf("run %d: screen %q lacks %q", i, txt, want)
				}
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// emulatorIsSkeleton reports whether the Terminal still returns empty
// screens (before the emulator lands); screen checks are skipped then.
func emulatorIsSkeleton() bool {
	t := NewTerminal(10, 2, 0)
	t.Write([]byte("x"))
	return t.Lines()[0] != "x"
}

func TestCtrlCInterruptsSleep(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `sleep 100; echo NOT-INTER""RUPTED\r`, "delay_ms": 200})
	if m["exited"] == true {
		t.Fatalf("sh exited: %v", m)
	}
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"C-c"}, "delay_ms": 0})
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `echo AF""TER-$?\r`, "wait_for": "AFTER-130", "timeout_ms": 5000})
	if m["matched"] != true {
		t.Errorf("after Ctrl-C, sh did not report status 130: %v\nraw %q", m, rawText(t, a, id))
	}
	if strings.Contains(rawText(t, a, id), "NOT-INTERRUPTED") {
		t.Errorf("sleep was not interrupted")
	}
}

func TestWaitFor(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `sleep 0.3; echo RE""ADY\r`, "wait_for": "READY", "timeout_ms": 10000})
	if m["matched"] != true || m["timed_out"] != false {
		t.Errorf("wait_for READY: %v", m)
	}
	// Regex with flags.
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `echo Val""ue=42\r`, "wait_for": `/value=\d+/i`})
	if m["matched"] != true {
		t.Errorf("wait_for /value=\\d+/i: %v", m)
	}
	// Timeout: matched false, not an error.
	r, m := call(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "NEVER-SHOWN", "timeout_ms": 300})
	if r.IsError || m["matched"] != false || m["timed_out"] != true {
		t.Errorf("shell_wait for absent text: error %v, %v", r.IsError, m)
	}
	// Idle wait.
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `for i in 1 2 3; do echo tick; sleep 0.05; done\r`, "wait_idle_ms": 1000, "timeout_ms": 5000})
	if m["matched"] != true || strings.Count(rawText(t, a, id), "tick\r\n") != 3 {
		t.Errorf("wait_idle_ms: %v, raw %q", m, rawText(t, a, id))
	}
	// Waiting for exit.
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `exit 5\r`, "delay_ms": 0})
	m = mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "timeout_ms": 5000})
	if m["matched"] != true || m["exited"] != true || m["exit_code"] != float64(5) {
		t.Errorf("shell_wait for exit: %v", m)
	}
}

// TestWaitCancelled checks that a cancelled request ends its wait.
func TestWaitCancelled(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *ToolResult)
	waiting := make(chan struct{}, 1) // the wait's progress: it runs
	progress := func(float64, float64, string) {
		select {
		case waiting <- struct{}{}:
		default:
		}
	}
	go func() {
		done <- toolByName(t, a, "shell_wait").Handle(ctx, &ToolCall{Progress: progress,
			Args: json.RawMessage(`{"session_id":"` + id + `","wait_for":"NEVER","timeout_ms":60000}`)})
	}()
	select {
	case <-waiting:
	case r := <-done:
		t.Fatalf("the wait ended before it was cancelled: %+v", r)
	}
	cancel()
	select {
	case r := <-done:
		if !r.IsError {
			t.Errorf("cancelled wait: %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelling did not end the wait")
	}
}

func TestEnvironment(t *testing.T) {
	a := newTestApp(t)
	t.Setenv("TMUX", "/tmp/tmux-1/default,1,0")
	t.Setenv("TERM_PROGRAM", "iTerm.app")
	t.Setenv("KITTY_WINDOW_ID", "3")
	t.Setenv("TTYWRIGHT_TEST_KEEP", "kept")
	m := mustCall(t, a, "shell_start", map[string]any{"command": "env", "env": map[string]string{"EXTRA": "yes", "TTYWRIGHT_TEST_KEEP": "over"}, "cwd": "/"})
	id := m["shell_session_id"].(string)
	waitExit(t, a, id)
	env := rawText(t, a, id)
	for _, want := range []string{"TERM=xterm-256color\r\n", "COLORTERM=truecolor\r\n", "EXTRA=yes\r\n", "TTYWRIGHT_TEST_KEEP=over\r\n", "PWD=/\r\n"} {
		if !strings.Contains(env, want) {
			t.Errorf("environment lacks %q", want)
		}
	}
	for _, bad := range []string{"TMUX=", "TERM_PROGRAM=", "KITTY_WINDOW_ID=", "TTYWRIGHT_TEST_KEEP=kept"} {
		if strings.Contains(env, bad) {
			t.Errorf("environment has %q", bad)
		}
	}
}

// TestCwdHome: cwd "~" and "~/dir" are the home directory, as a shell
// would read them (they were refused as not existing).
func TestCwdHome(t *testing.T) {
	home := t.TempDir()
	if err := os.Mkdir(filepath.Join(home, "proj"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	a := newTestApp(t)
	for cwd, want := range map[string]string{"~": home, "~/proj": filepath.Join(home, "proj")} {
		m := mustCall(t, a, "shell_start", map[string]any{"command": "true", "cwd": cwd})
		if got := m["cwd"]; got != want {
			t.Errorf("cwd %q started in %v, want %q", cwd, got, want)
		}
	}
}

// TestDefaultShellFallback: without a command, a $SHELL that this machine
// lacks falls back to bash (it was an error about a command the agent
// never gave). The session's environment is the server's with env over
// it, so SHELL comes in env here, with a clean HOME for the shell.
func TestDefaultShellFallback(t *testing.T) {
	t.Parallel()
	want := "bash"
	if _, err := exec.LookPath("bash"); err != nil {
		want = "sh"
	}
	a := newTestApp(t)
	home := t.TempDir()
	m := mustCall(t, a, "shell_start", map[string]any{"cwd": home, "env": map[string]string{"SHELL": "/nonexistent/zsh", "HOME": home}})
	if m["command"] != want {
		t.Errorf("shell_start without a command, SHELL=/nonexistent/zsh: ran %v, want %s", m["command"], want)
	}
	mustCall(t, a, "shell_stop", map[string]any{"session_id": m["shell_session_id"]})
}

// TestIgnoredSignalsNotInherited runs this test binary with SIGINT and
// SIGHUP ignored (as a shell starts a background job, or nohup) and checks
// that a program started in a session does not ignore them.
func TestIgnoredSignalsNotInherited(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	if os.Getenv("TTYWRIGHT_SIGNAL_HELPER") == "1" {
		a := newTestApp(t)
		server := sigIgnMask(t, os.Getpid())
		s, err := a.tools.startSession(StartOptions{Command: "sleep", Args: []string{"100"}})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("server %s child %s\n", server, sigIgnMask(t, s.Status().Pid))
		return
	}
	cmd := exec.Command("sh", "-c", `trap "" INT HUP; exec "$0" -test.run='^TestIgnoredSignalsNotInherited$' -test.v`, os.Args[0])
	cmd.Env = append(os.Environ(), "TTYWRIGHT_SIGNAL_HELPER=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	var server, child uint64
	i := strings.Index(string(out), "server ")
	if i < 0 {
		t.Fatalf("helper output: %s", out)
	}
	if _, err := fmt.Sscanf(string(out[i:]), "server %x child %x", &server, &child); err != nil {
		t.Fatalf("helper output %q: %v", out, err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGHUP} {
		bit := uint64(1) << (sig - 1)
		if server&bit == 0 {
			t.Errorf("the helper server does not ignore %v: the test does not test anything", sig)
		}
		if child&bit != 0 {
			t.Errorf("the session's program ignores %v (SigIgn %x)", sig, child)
		}
	}
}

// sigIgnMask returns the SigIgn line of /proc/PID/status (hex).
func sigIgnMask(t testing.TB, pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no SigIgn for %d", pid)
	return ""
}

func TestStopNoOrphans(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	a := newTestApp(t)
	tests := []struct {
		name   string
		cmd    []string
		input  string // typed after start
		signal string
		code   int
	}{
		{"shell", []string{"sh"}, "", "", 128 + 1},
		{"ignores SIGHUP", []string{"sh", "-c", `trap "" HUP; echo READY; sleep 100`}, "", "", 128 + 9},
		{"SIGINT", []string{"cat"}, "", "INT", 128 + 2},
		// An interactive shell puts each job in its own process group; this
		// one ignores SIGHUP too, so only the session sweep catches it.
		{"background job", []string{"bash", "--norc", "--noprofile", "-i"}, `nohup sleep 100 >/dev/null 2>&1 & sleep 100 & echo JO""BS\r`, "", 128 + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each waits out the 2 s before SIGKILL
			if _, err := exec.LookPath(tt.cmd[0]); err != nil {
				t.Skipf("%s not installed", tt.cmd[0])
			}
			id := start(t, a, tt.cmd[0], tt.cmd[1:]...)
			if tt.input != "" {
				mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": tt.input, "wait_for": "JOBS", "wait_idle_ms": 200})
			} else {
				mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_idle_ms": 100})
			}
			s, _ := a.tools.session(id)
			pid := s.Status().Pid
			if tt.input != "" && len(sessionMembers(pid)) < 3 {
				t.Fatalf("expected the shell and two jobs in session %d, got %v", pid, sessionMembers(pid))
			}
			args := map[string]any{"session_id": id}
			if tt.signal != "" {
				args["signal"] = tt.signal
			}
			m := mustCall(t, a, "shell_stop", args)
			if m["exit_code"] != float64(tt.code) {
				t.Errorf("shell_stop: %v, want exit code %d", m, tt.code)
			}
			checkGone(t, pid)
		})
	}
}

func TestShutdownReapsAll(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	a := newTestApp(t)
	var pids []int
	for _, cmd := range [][]string{{"sh"}, {"cat"}, {"sleep", "100"}, {"sh", "-c", `trap "" HUP; echo READY; sleep 100`}} {
		s, err := a.tools.startSession(StartOptions{Command: cmd[0], Args: cmd[1:]})
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, s.Status().Pid)
	}
	// The last one ignores SIGHUP once it printed READY: SIGKILL must follow.
	mustCall(t, a, "shell_wait", map[string]any{"session_id": "shell-4", "wait_for": "READY"})
	a.shutdown()
	for _, pid := range pids {
		checkGone(t, pid)
	}
	if n := len(a.sessions.List()); n != 0 {
		t.Errorf("%d sessions left after shutdown", n)
	}
}

func TestToolErrors(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	big := strings.Repeat("x", maxInputBytes+1)
	tests := []struct {
		tool string
		args map[string]any
		want string // in the error text
	}{
		{"shell_send", map[string]any{"session_id": "nope", "input": "x"}, "shell_start"},
		{"shell_send", map[string]any{"session_id": id}, "nothing to send"},
		{"shell_send", map[string]any{"session_id": id, "input": big}, "limit"},
		{"shell_send", map[string]any{"session_id": id, "keys": []string{"Hyper-q"}}, "Enter, Tab"},
		{"shell_send", map[string]any{"session_id": id, "input": `\xZZ`}, `\x takes two hex digits`},
		{"shell_send", map[string]any{"session_id": id, "input": "x", "wait_for": "/a(/"}, "regular expression"},
		{"shell_send", map[string]any{"session_id": id, "input": "x", "timeout_ms": 999999}, "out of range"},
		{"shell_read", map[string]any{"session_id": id, "max_bytes": 0}, "max_bytes"},
		{"shell_resize", map[string]any{"session_id": id, "cols": 1, "rows": 10}, "cols must be"},
		{"shell_resize", map[string]any{"session_id": id, "cols": 80, "rows": 5000}, "cols must be"},
		{"shell_stop", map[string]any{"session_id": id, "signal": "SIGNOPE"}, "unknown signal"},
		{"shell_stop", map[string]any{"session_id": id, "signal": "SIGSTOP"}, "does not stop a program"},
		{"shell_stop", map[string]any{"session_id": id, "signal": "10"}, "does not stop a program"},
		{"shell_start", map[string]any{"command": "no-such-program-xyz"}, "not found"},
		{"shell_start", map[string]any{"command": "python3 -i"}, "args"},
		{"shell_start", map[string]any{"command": "sh", "cols": 5000}, "cols must be"},
		{"shell_start", map[string]any{"command": "sh", "cols": 0}, "screen size 0x"},
		{"shell_start", map[string]any{"command": "sh", "rows": 0}, "x0 is out of range"},
		{"shell_start", map[string]any{"command": "sh", "theme": "no-such-theme"}, "one-dark"},
		{"shell_start", map[string]any{"command": "sh", "cwd": "/no/such/dir"}, "not an existing directory"},
		{"shell_start", map[string]any{"command": "sh", "env": map[string]string{"A=B": "x"}}, "env name"},
	}
	for _, tt := range tests {
		r, _ := call(t, a, tt.tool, tt.args)
		if !r.IsError || !strings.Contains(r.Text, tt.want) {
			t.Errorf("%s %v: isError %v %q, want an error containing %q", tt.tool, tt.args, r.IsError, r.Text, tt.want)
		}
	}
}

func TestSessionLimits(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	a.cfg.MaxSessions = 2
	reconfigure(a)
	a.cfg.AllowCommands = []string{"sh", "/bin/cat"}
	reconfigure(a)
	first := start(t, a, "sh")
	if r, _ := call(t, a, "shell_start", map[string]any{"command": "printf", "args": []string{"x"}}); !r.IsError || !strings.Contains(r.Text, "not allowed") {
		t.Errorf("printf with --allow-command sh,/bin/cat: %q", r.Text)
	}
	if r, _ := call(t, a, "shell_start", map[string]any{"command": "/tmp/elsewhere/sh"}); !r.IsError {
		t.Errorf("a program named sh elsewhere was allowed")
	}
	catPath, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat")
	}
	if catPath == "/bin/cat" || catPath == "/usr/bin/cat" {
		// cat by name resolves to the allowed path (or /bin is a link to /usr/bin).
		if r, _ := call(t, a, "shell_start", map[string]any{"command": "/bin/cat"}); r.IsError {
			t.Errorf("/bin/cat refused: %q", r.Text)
		}
	} else {
		start(t, a, "sh")
	}
	r, _ := call(t, a, "shell_start", map[string]any{"command": "sh"})
	if !r.IsError || !strings.Contains(r.Text, "--max-sessions") {
		t.Errorf("third session: %q", r.Text)
	}
	mustCall(t, a, "shell_stop", map[string]any{"session_id": first})
	start(t, a, "sh")
}

func TestRawRing(t *testing.T) {
	t.Parallel()
	s := &Session{}
	var all []byte
	sizes := []int{1, 4096, 100, rawTailCap - 3, 70000, 2*rawTailCap + 5, 3, 512 << 10, 700 << 10}
	for i, size := range sizes {
		chunk := bytes.Repeat([]byte{'a' + byte(i)}, size)
		all = append(all, chunk...)
		s.fed += int64(len(chunk))
		s.raw.append(chunk)
		for _, n := range []int{1, 100, rawTailCap} {
			got, cut := s.RawTail(n)
			want := all[max(0, len(all)-n):]
			if !bytes.Equal(got, want) || cut != (len(all) > n) {
				t.Fatalf("after %d bytes, RawTail(%d): %d bytes cut %v, want %d bytes cut %v", len(all), n, len(got), cut, len(want), len(all) > n)
			}
		}
	}
}

// TestStopReportsSavedRecording: shell_stop saves a running recording and
// says where, since the session id is gone afterwards.
func TestStopReportsSavedRecording(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	mustCall(t, a, "shell_record_start", map[string]any{"session_id": id, "name": "last"})
	m := mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
	if m["recording_uri"] != "session://"+id+"/recordings/last" {
		t.Errorf("shell_stop result %v: want recording_uri session://%s/recordings/last", m, id)
	}
	for _, k := range []string{"gif_path", "cast_path"} {
		p, _ := m[k].(string)
		if _, err := os.Stat(p); p == "" || err != nil {
			t.Errorf("shell_stop %s = %q: %v", k, p, err)
		}
	}
	id2 := start(t, a, "sh")
	if m := mustCall(t, a, "shell_stop", map[string]any{"session_id": id2}); m["recording_uri"] != nil {
		t.Errorf("a stop without a recording reports one: %v", m)
	}
}

// TestProgramsRunNiced: a session's program runs at the nice value
// --nice gives (and, on Linux with autogroups, so does its session's
// autogroup), and at the server's with --nice 0.
func TestProgramsRunNiced(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	for _, nice := range []int{5, 0} {
		a := newTestApp(t)
		a.cfg.Nice = nice
		reconfigure(a)
		id := start(t, a, "cat") // reads: shell_start returns at once
		s, _ := a.tools.session(id)
		pid := s.Status().Pid
		want := nice
		if nice == 0 {
			want = niceOf(t, os.Getpid())
		}
		if got := niceOf(t, pid); got != want {
			t.Errorf("--nice %d: the program runs at nice %d, want %d", nice, got, want)
		}
		if g, err := os.ReadFile(fmt.Sprintf("/proc/%d/autogroup", pid)); err == nil && nice > 0 && !strings.HasSuffix(strings.TrimSpace(string(g)), "nice "+strconv.Itoa(nice)) {
			t.Errorf("--nice %d: its autogroup is %q", nice, g)
		}
	}
}

// niceOf reads pid's nice value, field 19 of /proc/PID/stat.
func niceOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:])) // after the command name
	n, err := strconv.Atoi(f[16])
	if err != nil {
		t.Fatal(err)
	}
	return n
}
