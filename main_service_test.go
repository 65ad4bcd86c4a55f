//go:build linux

package main

// main_service_test.go: the shared service through the real binary:
// front ends (ttywright --shared) that start at once start one service;
// sessions outlive a front end and are found by the next; a service
// killed with SIGKILL leaves no program of its sessions, and the front
// ends' next calls say so and recover; the idle exit; service stop;
// another uid refused; 64 front ends at once. Each test has its own
// socket directory (XDG_RUNTIME_DIR) and HOME.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// sharedDir is one test's socket directory, HOME and output directory,
// which its front ends and the service they start use.
type sharedDir struct {
	t                   testing.TB
	bin, run, home, out string
}

// newSharedDir makes the directories; at cleanup the service is stopped
// (after the test's front ends are gone).
func newSharedDir(t testing.TB) *sharedDir {
	t.Helper()
	d := &sharedDir{t: t, bin: hardenBinary(t), run: t.TempDir(), home: t.TempDir(), out: t.TempDir()}
	t.Cleanup(func() {
		d.service("stop")
		for end := time.Now().Add(stuckAfter); len(d.services()) > 0; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(end) {
				t.Errorf("the service did not exit: %+v", d.services())
				return
			}
		}
	})
	return d
}

// env is the environment of the test's processes.
func (d *sharedDir) env(more ...string) []string {
	return append(os.Environ(), append([]string{"XDG_RUNTIME_DIR=" + d.run, "HOME=" + d.home, "SHELL=/bin/bash"}, more...)...)
}

// sockDir is where the service's socket and files are.
func (d *sharedDir) sockDir() string { return filepath.Join(d.run, "ttywright") }

// frontEnd starts a front end and initializes it.
func (d *sharedDir) frontEnd(args ...string) *testClient {
	d.t.Helper()
	return startProcWith(d.t, d.bin, func(cmd *exec.Cmd) { cmd.Env = d.env() }, append([]string{"--shared", "--output-dir", d.out}, args...)...)
}

// service runs `ttywright service ARGS` and returns its output.
func (d *sharedDir) service(args ...string) string {
	cmd := exec.Command(d.bin, append([]string{"service"}, args...)...)
	cmd.Env = d.env()
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// services lists the running services of the test's directory (never a
// zombie: whoever is their parent reaps them).
func (d *sharedDir) services() []int {
	var out []int
	for _, p := range scanProcs() {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.pid))
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.pid))
		if p.state != "Z" && bytes.HasPrefix(cmdline, []byte(d.bin+"\x00service\x00")) && bytes.Contains(env, []byte("XDG_RUNTIME_DIR="+d.run+"\x00")) {
			out = append(out, p.pid)
		}
	}
	return out
}

// state reads service.json.
func (d *sharedDir) state() serviceState {
	d.t.Helper()
	st, err := readServiceState(d.sockDir())
	if err != nil {
		d.t.Fatalf("service.json: %v", err)
	}
	return st
}

// startFrontEnds starts n front ends back to back, then initializes
// each; it returns them and how far apart the first and last started.
func (d *sharedDir) startFrontEnds(n int, args ...string) ([]*testClient, time.Duration) {
	d.t.Helper()
	cs := make([]*testClient, n)
	outs := make([]*os.File, n)
	for i := range cs {
		c := &testClient{t: d.t, cmd: exec.Command(d.bin, append([]string{"--shared", "--output-dir", d.out}, args...)...)}
		c.cmd.Env = d.env()
		c.cmd.Stderr = &c.stderr
		var err error
		if c.in, err = c.cmd.StdinPipe(); err != nil {
			d.t.Fatal(err)
		}
		var w *os.File
		if outs[i], w, err = os.Pipe(); err != nil {
			d.t.Fatal(err)
		}
		c.cmd.Stdout = w
		defer w.Close()
		cs[i] = c
	}
	first := time.Now()
	for _, c := range cs {
		if err := c.cmd.Start(); err != nil {
			d.t.Fatal(err)
		}
	}
	spread := time.Since(first)
	for i, c := range cs {
		d.t.Cleanup(func() { c.cmd.Process.Kill(); c.cmd.Wait() })
		c.start(outs[i])
	}
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			r := c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
				"clientInfo": map[string]any{"name": fmt.Sprintf("client-%d", i), "version": "1"}})
			if r.Error != nil {
				d.t.Errorf("front end %d: initialize: %+v; stderr:\n%s", i, r.Error, c.stderr.String())
			}
			c.sendMsg(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
		})
	}
	wg.Wait()
	return cs, spread
}

// listed is sessions://list, decoded.
func listed(t testing.TB, c *testClient) []sessionJSON {
	t.Helper()
	var list []sessionJSON
	if err := json.Unmarshal([]byte(readResource(t.(*testing.T), c, "sessions://list")), &list); err != nil {
		t.Fatal(err)
	}
	return list
}

// TestSharedFrontEndsStartOneService: two front ends started together
// (well within 10 ms), again and again, start one service between them,
// which each sees the other's session in.
func TestSharedFrontEndsStartOneService(t *testing.T) {
	for try := range 8 {
		t.Run(strconv.Itoa(try), func(t *testing.T) {
			d := newSharedDir(t)
			cs, spread := d.startFrontEnds(2)
			t.Logf("the two front ends started %v apart", spread)
			if n := d.services(); len(n) != 1 {
				t.Fatalf("%d services run: %v", len(n), n)
			}
			for i, c := range cs {
				c.mustTool("shell_start", map[string]any{"command": "sleep", "args": []string{"600"}, "name": fmt.Sprintf("s%d", i)})
			}
			for i, c := range cs {
				var names []string
				for _, s := range listed(t, c) {
					names = append(names, s.Name+"/"+s.Client)
				}
				if slices.Sort(names); !slices.Equal(names, []string{"s0/client-0", "s1/client-1"}) {
					t.Errorf("front end %d lists %v", i, names)
				}
			}
		})
	}
}

// TestSharedSessionsOutliveTheClient: a session named by one front end
// runs on after it exits; the next front end drives it by name, its
// screen unchanged, and a shell_start of the same name is refused with
// the way to the running one.
func TestSharedSessionsOutliveTheClient(t *testing.T) {
	needShell(t, "bash")
	d := newSharedDir(t)
	a := d.frontEnd()
	a.mustTool("shell_start", map[string]any{"command": "bash", "name": "dev", "cwd": d.home})
	a.mustTool("shell_send", map[string]any{"session_id": "dev", "text": "echo kept-$((6*7))\n", "wait_for_command": true})
	a.in.Close()
	<-a.exited

	b := d.frontEnd()
	list := listed(t, b)
	if len(list) != 1 || list[0].Name != "dev" || list[0].Client != "test" || list[0].Driven.Before(list[0].Started) {
		t.Fatalf("the next front end lists %+v", list)
	}
	m := b.mustTool("shell_read", map[string]any{"session_id": "dev"})
	if text, _ := m["text"].(string); !strings.Contains(text, "kept-42") {
		t.Errorf("the screen lost what the first client did: %v", m)
	}
	if _, text, isErr := b.tool("shell_start", map[string]any{"command": "bash", "name": "dev"}); !isErr || !strings.Contains(text, `drive it with session_id "dev"`) {
		t.Errorf("a second session named dev: %v %q", isErr, text)
	}
}

// TestSharedServiceKilled: the service killed with SIGKILL leaves no
// process of its sessions (their process groups, sessions, and a setsid
// daemon found by its marker in /proc); a front end's call running then
// and the next one say the service died and which sessions went; the
// call after reaches a new service.
func TestSharedServiceKilled(t *testing.T) {
	needShell(t, "bash")
	d := newSharedDir(t)
	a := d.frontEnd()
	b := d.frontEnd()
	a.mustTool("shell_start", map[string]any{"command": "bash", "name": "dev", "cwd": d.home})
	daemon := fmt.Sprintf("%d.%d", 4242, os.Getpid()%1000)
	a.mustTool("shell_send", map[string]any{"session_id": "dev", "text": "sleep 1000 & nohup sleep 1001 >/dev/null 2>&1 & setsid sleep " + daemon + " & echo up-$((6*7))\n", "wait_for_command": true})
	b.mustTool("shell_start", map[string]any{"command": "sh", "args": []string{"-c", `trap "" HUP; while :; do sleep 1; done`}})
	st := d.state()
	var ids []int
	for _, s := range st.Sessions {
		ids = append(ids, s.PID)
	}
	if len(leftovers(ids)) < 4 || len(findCmdline("sleep\x00"+daemon+"\x00")) != 1 {
		t.Fatalf("the sessions do not run as set up: %+v", leftovers(ids))
	}

	driven := listed(t, b)[0].Driven
	waiting := make(chan reply, 1)
	go func() {
		waiting <- a.call("tools/call", map[string]any{"name": "shell_wait", "arguments": map[string]any{"session_id": "dev", "wait_for": "never-shown", "timeout_ms": 60000}})
	}()
	for end := time.Now().Add(stuckAfter); !listed(t, b)[0].Driven.After(driven); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the shell_wait never reached the service")
		}
	}
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r := <-waiting
	if r.Error == nil || !strings.Contains(r.Error.Message, "died") || !strings.Contains(r.Error.Message, "dev (shell-1, bash)") {
		t.Errorf("the call running at the kill: %+v", r)
	}
	_, text, isErr := b.tool("shell_read", map[string]any{"session_id": "shell-2"})
	if !isErr || !strings.Contains(text, fmt.Sprintf("(pid %d) died", st.PID)) || !strings.Contains(text, "shell-2 (sh)") {
		t.Errorf("b's next call after the kill: %v %q", isErr, text)
	}
	for end := time.Now().Add(stuckAfter); len(leftovers(ids)) > 0 || len(findCmdline("sleep\x00"+daemon+"\x00")) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("programs of the killed service's sessions remain: %+v %+v", leftovers(ids), findCmdline("sleep\x00"+daemon+"\x00"))
		}
	}
	if got := processesMarked([]string{st.Sessions[0].Marker, st.Sessions[1].Marker}, 0); len(got) > 0 {
		t.Errorf("processes with the sessions' markers remain: %v", got)
	}
	// Recovered: both front ends reach the new service, which has none
	// of the old sessions.
	b.mustTool("shell_start", map[string]any{"command": "sleep", "args": []string{"600"}, "name": "again"})
	if list := listed(t, a); len(list) != 1 || list[0].Name != "again" {
		t.Errorf("a lists %+v on the new service", list)
	}
	if pids := d.services(); len(pids) != 1 || pids[0] == st.PID {
		t.Errorf("services after the kill: %v (the killed one was %d)", pids, st.PID)
	}
}

// TestSharedServiceStop: ttywright service stop stops the service and
// its sessions, and says so; a front end's next call says it was
// stopped, and status then finds none.
func TestSharedServiceStop(t *testing.T) {
	d := newSharedDir(t)
	a := d.frontEnd()
	m := a.mustTool("shell_start", map[string]any{"command": "sleep", "args": []string{"600"}, "name": "nap"})
	pid := int(m["pid"].(float64))
	svc := d.state().PID
	if out := d.service("status"); !strings.Contains(out, fmt.Sprintf("service pid %d", svc)) || !strings.Contains(out, "1 client(s), 1 session(s)") || !strings.Contains(out, "nap") {
		t.Errorf("status:\n%s", out)
	}
	if out := d.service("stop"); !strings.Contains(out, fmt.Sprintf("stopped the service (pid %d) and its 1 session(s)", svc)) {
		t.Errorf("stop: %q", out)
	}
	if left := leftovers([]int{pid}); len(left) > 0 {
		t.Errorf("the session's program outlived service stop: %+v", left)
	}
	r := a.call("tools/call", map[string]any{"name": "shell_read", "arguments": map[string]any{"session_id": "nap"}})
	if r.Error == nil || !strings.Contains(r.Error.Message, "was stopped (ttywright service stop)") || !strings.Contains(r.Error.Message, "nap (shell-1, sleep)") {
		t.Errorf("the call after the stop: %+v", r)
	}
	if out := d.service("status"); strings.Contains(out, "service pid "+strconv.Itoa(svc)) {
		t.Errorf("status after the stop:\n%s", out)
	}
}

// TestSharedIdleExit: with no client and no running session the service
// exits after --idle-exit; a running session keeps it.
func TestSharedIdleExit(t *testing.T) {
	d := newSharedDir(t)
	a := d.frontEnd("--idle-exit", "200ms")
	m := a.mustTool("shell_start", map[string]any{"command": "sh", "args": []string{"-c", "read x"}})
	a.in.Close()
	<-a.exited
	svc := d.state().PID
	if !liveServer(svc) {
		t.Fatal("the service exited while a session ran")
	}
	// The session's program ends: nothing keeps the service.
	if err := syscall.Kill(int(m["pid"].(float64)), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(stuckAfter); liveServer(svc); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the idle service did not exit")
		}
	}
	log, _ := os.ReadFile(filepath.Join(d.sockDir(), serviceLogFile))
	if !strings.Contains(string(log), "stopping: idle: no client and no running session for 200ms") {
		t.Errorf("the log does not say why it stopped:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(d.sockDir(), serviceSocket)); !os.IsNotExist(err) {
		t.Errorf("the socket outlived the service: %v", err)
	}
}

// TestSharedOtherUIDRefused: as root, a process of another uid that
// reaches the socket (the directories opened up on purpose) is closed
// without an answer, and the service logs it.
func TestSharedOtherUIDRefused(t *testing.T) {
	d := newSharedDir(t)
	d.frontEnd()
	for _, p := range []string{filepath.Dir(d.run), d.run, d.sockDir()} {
		os.Chmod(p, 0o755) // defeats the directory's protection, leaving the uid check alone
	}
	defer os.Chmod(d.sockDir(), 0o700) // for service stop at cleanup
	other, self := otherUIDAnswers(t, filepath.Join(d.sockDir(), serviceSocket), `{"op":"status"}`)
	if other != "b''" {
		t.Errorf("another uid got %s, want nothing", other)
	}
	log, _ := os.ReadFile(filepath.Join(d.sockDir(), serviceLogFile))
	if !strings.Contains(string(log), "service: refused a connection from uid 65534") {
		t.Errorf("the log does not name the refused uid:\n%s", log)
	}
	if !strings.Contains(self, `"op":"status"`) { // the refusal was the uid's
		t.Errorf("this uid's client got %s", self)
	}
}

// TestShared64FrontEnds: 64 front ends started at once share one
// service, each served: every one lists the session one of them
// started, and status counts them.
func TestShared64FrontEnds(t *testing.T) {
	d := newSharedDir(t)
	cs, spread := d.startFrontEnds(64)
	t.Logf("64 front ends started within %v", spread)
	if n := d.services(); len(n) != 1 {
		t.Fatalf("%d services run: %v", len(n), n)
	}
	cs[0].mustTool("shell_start", map[string]any{"command": "sleep", "args": []string{"600"}, "name": "one"})
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			if list := listed(t, c); len(list) != 1 || list[0].Name != "one" {
				t.Errorf("front end %d lists %+v", i, list)
			}
		})
	}
	wg.Wait()
	if out := d.service("status"); !strings.Contains(out, "64 client(s)") {
		t.Errorf("status:\n%s", out)
	}
}

// TestSharedFlagsDiffer: a front end whose settings differ from the
// running service's is told which apply, on stderr.
func TestSharedFlagsDiffer(t *testing.T) {
	d := newSharedDir(t)
	d.frontEnd("--max-sessions", "3")
	b := d.frontEnd("--max-sessions", "5", "--theme", "dracula")
	e, ok := b.stderr.waitFor(func(s string) bool { return strings.Contains(s, "apply to every client") }, stuckAfter)
	if !ok {
		t.Fatalf("stderr: %s", e)
	}
	if !strings.Contains(e, `--max-sessions "3" (you gave "5")`) || !strings.Contains(e, `--theme "one-dark" (you gave "dracula")`) {
		t.Errorf("stderr: %s", e)
	}
}

// TestSharedServiceHTTP: `ttywright service --http` run by hand shares
// its sessions between a front end's stdio client and an HTTP client,
// and never exits idle.
func TestSharedServiceHTTP(t *testing.T) {
	d := newSharedDir(t)
	var stderr procOutput
	cmd := exec.Command(d.bin, "service", "--http", "127.0.0.1:0", "--http-auth", "none", "--output-dir", d.out, "--idle-exit", "1ms")
	cmd.Env = d.env()
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.service("stop"); cmd.Wait() })
	var url string
	if e, ok := stderr.waitFor(func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if _, u, ok := strings.Cut(l, "serving MCP on "); ok {
				url, _, _ = strings.Cut(u, " ")
			}
		}
		return url != ""
	}, stuckAfter); !ok {
		t.Fatalf("the service did not serve HTTP: %s", e)
	}
	a := d.frontEnd()
	a.mustTool("shell_start", map[string]any{"command": "sleep", "args": []string{"600"}, "name": "both"})
	if pids := d.services(); len(pids) != 1 || pids[0] != cmd.Process.Pid {
		t.Errorf("the front end did not use the running service %d: %v", cmd.Process.Pid, pids)
	}
	ht := &httpTest{t: t, url: url, c: &http.Client{Timeout: stuckAfter}}
	msgs := messages(t, ht.do("POST", modernBody(1, "resources/read", map[string]any{"uri": "sessions://list"}), modernHeaders("resources/read", "sessions://list")))
	if len(msgs) != 1 || !strings.Contains(fmt.Sprint(msgs[0]), `"name":"both"`) {
		t.Errorf("the HTTP client lists %v", msgs)
	}
	if out := d.service("status"); !strings.Contains(out, "idle exit never") || !strings.Contains(out, "serving MCP over HTTP on 127.0.0.1:0") {
		t.Errorf("status:\n%s", out)
	}
}

// TestResponseIDs: the relay reads the id a line of the service's
// answers from its head alone; requests and notifications of the
// service's answer none.
func TestResponseIDs(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`, []string{"7"}},
		{`{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32602,"message":"x"}}`, []string{`"a\"b"`}},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, nil},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, nil},
		{`{"jsonrpc":"2.0","id":"ttywright-1","method":"elicitation/create","params":{}}`, nil},
		{`[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{}}]`, []string{"1", "2"}},
		{`{"jsonrpc":"2.0","id":3,"result":` + strings.Repeat(" ", 1<<20) + `{}}`, []string{"3"}},
		{`not json`, nil},
		{`{"jsonrpc":"2.0","id":{"x":1}`, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, id := range responseIDs([]byte(tt.line)) {
			got = append(got, string(id))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%.60s: %v, want %v", tt.line, got, tt.want)
		}
	}
}

// FuzzResponseIDs: any line: no panic, and an id read from a valid
// response is the one the whole line holds.
func FuzzResponseIDs(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":7,"result":{}}`))
	f.Add([]byte(`[{"id":1,"result":2}]`))
	f.Add([]byte(`{"id":1,"method":"x"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		ids := responseIDs(line)
		var whole struct{ ID json.RawMessage }
		if len(ids) == 1 && line[0] == '{' && json.Unmarshal(line, &whole) == nil && !bytes.Equal(bytes.TrimSpace(whole.ID), bytes.TrimSpace(ids[0])) {
			t.Errorf("%q: id %s, the line's %s", line, ids[0], whole.ID)
		}
	})
}

// TestServiceArgs: the service gets the front end's flags but --shared.
func TestServiceArgs(t *testing.T) {
	got := serviceArgs([]string{"--shared", "--cols", "80", "-shared=true", "--shared=1", "--theme", "shared", "--sharedx"})
	if want := []string{"--cols", "80", "--theme", "shared", "--sharedx"}; !slices.Equal(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestSessionNames: the names shell_start takes.
func TestSessionNames(t *testing.T) {
	for name, ok := range map[string]bool{"dev": true, "web.2": true, "a_b-c": true, strings.Repeat("n", maxSessionName): true,
		"shell-3": false, "": false, " dev": false, "a/b": false, "..": false, strings.Repeat("n", maxSessionName+1): false} {
		if err := checkSessionName(name); (err == nil) != ok {
			t.Errorf("%q: %v", name, err)
		}
	}
}

// TestSharedDrivenWhileWaited: a session two connections of one app
// drive: the call that types while the other connection's shell_wait
// waits is told so, naming that client; the waiting call itself, and
// calls of one connection, are not.
func TestSharedDrivenWhileWaited(t *testing.T) {
	a := startServer(t)
	a.initialize(protoV20250618)
	b := serveAlso(t, a.app, "other-agent")
	m := a.mustTool("shell_start", map[string]any{"command": "cat", "name": "pipe"})
	if m["name"] != "pipe" {
		t.Errorf("shell_start's name: %v", m["name"])
	}
	waiting := make(chan reply, 1)
	go func() {
		waiting <- b.call("tools/call", map[string]any{"name": "shell_wait", "arguments": map[string]any{"session_id": "pipe", "wait_for": "go-on", "timeout_ms": 30000}})
	}()
	for end := time.Now().Add(stuckAfter); ; time.Sleep(5 * time.Millisecond) {
		s := a.app.sessions.Find("pipe")
		a.app.tools.running.mu.Lock()
		n := len(a.app.tools.running.m[s])
		a.app.tools.running.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the shell_wait never ran")
		}
	}
	r := a.call("tools/call", map[string]any{"name": "shell_send", "arguments": map[string]any{"session_id": "pipe", "text": "go-on\n"}})
	if !strings.Contains(string(r.Result), `shell_wait of client \"other-agent\"`) {
		t.Errorf("the typing call is not told of the waiting one: %s", r.Result)
	}
	if w := <-waiting; strings.Contains(string(w.Result), "another connection") || !strings.Contains(string(w.Result), "go-on") {
		t.Errorf("the waiting call: %s", w.Result)
	}
	if r := a.call("tools/call", map[string]any{"name": "shell_read", "arguments": map[string]any{"session_id": "pipe"}}); strings.Contains(string(r.Result), "another connection") {
		t.Errorf("a read is told: %s", r.Result)
	}
}

// serveAlso serves another connection of app, initialized as client.
func serveAlso(t *testing.T, app *App, client string) *testClient {
	t.Helper()
	c := serveConn(t, app, app.newServer())
	r := c.call("initialize", map[string]any{"protocolVersion": protoV20250618, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": client, "version": "1"}})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	return c
}

// BenchmarkSharedRelay: a shell_read round trip through a front end and
// the service against one to a server on stdio, each on a session
// running cat, the two taken in turn so that the machine's load falls on
// both alike; it reports each one's median and p99, and the median of
// what the relay added to each pair.
func BenchmarkSharedRelay(b *testing.B) {
	d := newSharedDir(b)
	direct := startProcWith(b, d.bin, func(cmd *exec.Cmd) { cmd.Env = d.env() }, "--output-dir", d.out)
	relayed := d.frontEnd()
	var ds, ss, added []time.Duration
	ids := map[*testClient]any{}
	for _, c := range []*testClient{direct, relayed} {
		ids[c] = c.mustTool("shell_start", map[string]any{"command": "cat"})["shell_session_id"]
	}
	read := func(c *testClient) time.Duration {
		start := time.Now()
		c.mustTool("shell_read", map[string]any{"session_id": ids[c]})
		return time.Since(start)
	}
	for b.Loop() {
		dt, st := read(direct), read(relayed)
		ds, ss, added = append(ds, dt), append(ss, st), append(added, st-dt)
	}
	b.ReportMetric(float64(percentile(ds, 0.5).Microseconds()), "direct-median-µs")
	b.ReportMetric(float64(percentile(ds, 0.99).Microseconds()), "direct-p99-µs")
	b.ReportMetric(float64(percentile(ss, 0.5).Microseconds()), "shared-median-µs")
	b.ReportMetric(float64(percentile(ss, 0.99).Microseconds()), "shared-p99-µs")
	b.ReportMetric(float64(percentile(added, 0.5).Microseconds()), "relay-median-µs")
}

// TestServiceCommandErrors: a service command that is not one says which
// are, and suggests the one it is a slip of.
func TestServiceCommandErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"stat"}, `unknown command "stat": did you mean ttywright service status?`},
		{[]string{"restart"}, `unknown command "restart": it is one of status, stop and logs`},
		{[]string{"stop", "now"}, `ttywright service stop takes no arguments, not "now"`},
	} {
		var out, errb strings.Builder
		if code := runServiceCmd(tt.args, func(string) string { return t.TempDir() }, &out, &errb); code != 2 || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("service %v: %d %q, want 2 and %q", tt.args, code, errb.String(), tt.want)
		}
	}
}

// TestSessionNameTaken: a second shell_start of a name in use is refused
// with the way to the session, and when that session's program has
// exited, with the way to free the name.
func TestSessionNameTaken(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	mustCall(t, a, "shell_start", map[string]any{"command": "sleep", "args": []string{"60"}, "name": "live"})
	m := mustCall(t, a, "shell_start", map[string]any{"command": "true", "name": "gone"})
	mustCall(t, a, "shell_wait", map[string]any{"session_id": m["shell_session_id"], "wait_for": "never-shown", "timeout_ms": 10000}) // ends at the exit
	for name, want := range map[string]string{"live": `drive it with session_id "live"`, "gone": `its program has exited: shell_stop it (session_id "gone")`} {
		r := callTool(t, a, "shell_start", `{"command":"true","name":"`+name+`"}`)
		if !r.IsError || !strings.Contains(r.Text, want) {
			t.Errorf("%s: %q, want %q", name, r.Text, want)
		}
	}
}
