// Package interop drives the real ttywright binary over stdio with the
// official MCP client libraries (the Go SDK here, the TypeScript SDK through
// ts/interop.mjs) and runs end-to-end scenarios with real programs (bash,
// vim, less, htop). It is a separate module so that the product's go.mod
// keeps its two requirements; run it with `cd interop && go test ./...`.
package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// binPath is the ttywright binary built once by TestMain from the parent
// directory (the product module), or $TTYWRIGHT_BIN when set.
var binPath string

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		// The tests wait on programs, browsers and node far more than
		// they compute: four at a time on two cores.
		flag.Set("test.parallel", strconv.Itoa(max(4, 2*runtime.GOMAXPROCS(0))))
	}
	if p := os.Getenv("TTYWRIGHT_BIN"); p != "" {
		// A prebuilt binary, e.g. one built with -race or from another tree.
		binPath = p
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "ttywright-interop-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binPath = filepath.Join(dir, "ttywright")
	args := []string{"build", "-o", binPath}
	if os.Getenv("TTYWRIGHT_RACE") != "" {
		// The race detector inside the server catches data races that only
		// real clients and programs provoke.
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, ".")...)
	build.Dir = ".."
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building ttywright:", err)
		os.RemoveAll(dir)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// waitTimeout bounds every wait in these tests; wait_for ends far sooner
// when the program behaves.
const waitTimeout = 15 * time.Second

// server is one running ttywright binary with a connected Go SDK client.
type server struct {
	t       *testing.T
	cs      *mcp.ClientSession
	cmd     *exec.Cmd
	outDir  string
	stderr  *syncBuffer
	updates chan string // URIs from notifications/resources/updated
	listed  chan struct{}
	pidsMu  sync.Mutex
	pids    []int // children started through shell_start, checked for orphans
}

// syncBuffer is a bytes.Buffer safe for the exec copier and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// startServer runs the binary with a private output directory and connects
// the official Go SDK client with the default options (so it negotiates as
// it would against any server). On cleanup it closes the client, waits for
// the server to exit and checks that every child it started is gone.
func startServer(t *testing.T, extraArgs ...string) *server {
	t.Helper()
	return startServerVersion(t, "", extraArgs...)
}

// startServerVersion is startServer with the protocol version the client
// asks for ("" = the SDK's default negotiation).
func startServerVersion(t *testing.T, version string, extraArgs ...string) *server {
	t.Helper()
	return startServerWith(t, clientSetup{version: version}, extraArgs...)
}

// clientSetup is how startServerWith makes its client: the protocol
// version it asks for ("" = the SDK's default negotiation), a change to
// the client's options (handlers, capabilities) and a writer that gets
// every JSON-RPC message either way (mcp.LoggingTransport).
type clientSetup struct {
	version string
	options func(*mcp.ClientOptions)
	wire    io.Writer
}

// startServerWith is startServer with the client made as setup says.
func startServerWith(t *testing.T, setup clientSetup, extraArgs ...string) *server {
	t.Helper()
	version := setup.version
	s := &server{
		t:       t,
		outDir:  t.TempDir(),
		stderr:  &syncBuffer{},
		updates: make(chan string, 256),
		listed:  make(chan struct{}, 256),
	}
	args := append([]string{"--output-dir", s.outDir}, extraArgs...)
	s.cmd = exec.Command(binPath, args...)
	s.cmd.Env = append(os.Environ(), "SHELL=/bin/bash")
	s.cmd.Stderr = s.stderr
	copts := &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case s.updates <- r.Params.URI:
			default:
			}
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			select {
			case s.listed <- struct{}{}:
			default:
			}
		},
	}
	if setup.options != nil {
		setup.options(copts)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "ttywright-interop", Version: "1.0.0"}, copts)
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	var transport mcp.Transport = &mcp.CommandTransport{Command: s.cmd, TerminateDuration: 5 * time.Second}
	if setup.wire != nil {
		transport = &mcp.LoggingTransport{Transport: transport, Writer: setup.wire}
	}
	cs, err := client.Connect(ctx, transport, opts)
	if err != nil {
		t.Fatalf("connect: %v\nserver stderr:\n%s", err, s.stderr.String())
	}
	s.cs = cs
	t.Cleanup(s.close)
	return s
}

// close ends the client (closing the server's stdin), which must make the
// server hang up its children, reap them and exit.
func (s *server) close() {
	t := s.t
	if err := s.cs.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		t.Logf("closing the client: %v", err)
	}
	if st := s.cmd.ProcessState; st != nil && !st.Success() {
		t.Errorf("server exited with %v after stdin closed", st)
	}
	s.pidsMu.Lock()
	pids := append([]int(nil), s.pids...)
	s.pidsMu.Unlock()
	for _, pid := range pids {
		if alive := waitGone(pid, 5*time.Second); alive {
			t.Errorf("child pid %d still alive after the server exited: orphan", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		// Each program leads its own session (setsid): whatever it started
		// (vim from bash, background jobs) is in that session too.
		for _, m := range sessionMembers(pid) {
			if alive := waitGone(m, 5*time.Second); alive {
				t.Errorf("pid %d of session %d still alive after the server exited: orphan", m, pid)
				_ = syscall.Kill(m, syscall.SIGKILL)
			}
		}
	}
	if t.Failed() {
		t.Logf("server stderr:\n%s", s.stderr.String())
	}
}

// sessionMembers lists the live processes whose session id is sid
// (field 6 of /proc/PID/stat), zombies excluded.
func sessionMembers(sid int) []int {
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range dir {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name (field 2) is in parentheses and may hold spaces.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 3 && f[0] != "Z" && f[3] == strconv.Itoa(sid) {
			out = append(out, pid)
		}
	}
	return out
}

// waitGone polls until pid no longer exists (or is a zombie about to be
// reaped by init); it reports whether the process is still running.
func waitGone(pid int, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return false
		}
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
				return false
			}
		}
		if time.Now().After(deadline) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (s *server) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitTimeout)
	s.t.Cleanup(cancel)
	return ctx
}

// callRaw calls a tool and returns the SDK result; a protocol error fails
// the test.
func (s *server) callRaw(name string, args map[string]any) *mcp.CallToolResult {
	s.t.Helper()
	res, err := s.cs.CallTool(s.ctx(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s(%v): %v", name, args, err)
	}
	return res
}

// call calls a tool that must succeed and returns its structured result.
func (s *server) call(name string, args map[string]any) map[string]any {
	s.t.Helper()
	res := s.callRaw(name, args)
	if res.IsError {
		s.t.Fatalf("%s(%v) failed: %s", name, args, textOf(res))
	}
	m := structured(s.t, res)
	if name == "shell_start" {
		if pid, ok := m["pid"].(float64); ok && pid > 0 {
			s.pidsMu.Lock()
			s.pids = append(s.pids, int(pid))
			s.pidsMu.Unlock()
		}
	}
	return m
}

// callErr calls a tool that must fail with isError and returns its text.
func (s *server) callErr(name string, args map[string]any) string {
	s.t.Helper()
	res := s.callRaw(name, args)
	if !res.IsError {
		s.t.Fatalf("%s(%v) succeeded, want isError: %s", name, args, textOf(res))
	}
	return textOf(res)
}

// structured returns structuredContent as an object, or the JSON text block
// decoded when the negotiated version has no structuredContent.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("structuredContent is not an object: %s", b)
		}
		return m
	}
	// Before 2025-06-18 the fields come as the last text block.
	var last string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			last = tc.Text
		}
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(last), &m); err != nil {
		t.Fatalf("no structuredContent and the last text block is not a JSON object: %q", textOf(res))
	}
	return m
}

// textOf joins the text content blocks of a result.
func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// start runs command in a new session and returns its id.
func (s *server) start(command string, args []string, extra map[string]any) string {
	s.t.Helper()
	a := map[string]any{"command": command}
	if args != nil {
		a["args"] = args
	}
	for k, v := range extra {
		a[k] = v
	}
	r := s.call("shell_start", a)
	id, _ := r["shell_session_id"].(string)
	if id == "" {
		s.t.Fatalf("shell_start gave no shell_session_id: %v", r)
	}
	return id
}

// startBash starts an interactive bash without rc files and with a fixed
// prompt, and waits for that prompt.
func (s *server) startBash(cwd string) string {
	s.t.Helper()
	extra := map[string]any{"env": map[string]any{"PS1": prompt, "HISTFILE": "/dev/null", "LC_ALL": "C.UTF-8"}}
	if cwd != "" {
		extra["cwd"] = cwd
	}
	id := s.start("/bin/bash", []string{"--norc", "--noprofile", "-i"}, extra)
	s.wait(id, promptWait)
	return id
}

// prompt is the PS1 of startBash sessions: distinctive, so that waiting for
// it never matches program output by accident.
const prompt = "tw$ "

// promptWait is what tests wait for to see the prompt; waiting for the
// prompt with its trailing blank is TestWaitForTrailingSpace's case.
const promptWait = "tw$"

// send types input (escapes as the spec defines) and waits for waitFor
// (text or /regex/) when non-empty; it fails the test when the text never
// appears.
func (s *server) send(id, input, waitFor string) map[string]any {
	s.t.Helper()
	a := map[string]any{"session_id": id, "input": input, "timeout_ms": waitTimeout.Milliseconds()}
	if waitFor != "" {
		a["wait_for"] = waitFor
	}
	r := s.call("shell_send", a)
	if waitFor != "" && r["matched"] != true {
		s.t.Fatalf("shell_send %q: %q never appeared; screen:\n%s", input, waitFor, s.screen(id))
	}
	return r
}

// keys sends named keys and waits like send.
func (s *server) keys(id string, keys []string, waitFor string) map[string]any {
	s.t.Helper()
	a := map[string]any{"session_id": id, "keys": keys, "timeout_ms": waitTimeout.Milliseconds()}
	if waitFor != "" {
		a["wait_for"] = waitFor
	}
	r := s.call("shell_send", a)
	if waitFor != "" && r["matched"] != true {
		s.t.Fatalf("shell_send keys %v: %q never appeared; screen:\n%s", keys, waitFor, s.screen(id))
	}
	return r
}

// wait waits for text (or /regex/) on the screen.
func (s *server) wait(id, waitFor string) map[string]any {
	s.t.Helper()
	r := s.call("shell_wait", map[string]any{"session_id": id, "wait_for": waitFor, "timeout_ms": waitTimeout.Milliseconds()})
	if r["matched"] != true {
		s.t.Fatalf("shell_wait: %q never appeared (%v); screen:\n%s", waitFor, r, s.screen(id))
	}
	return r
}

// settle waits until the program has written nothing for ms milliseconds.
func (s *server) settle(id string, ms int) {
	s.t.Helper()
	s.call("shell_wait", map[string]any{"session_id": id, "wait_idle_ms": ms, "timeout_ms": waitTimeout.Milliseconds()})
}

// screen is the visible screen text (no scrollback), as shell_read gives it.
func (s *server) screen(id string) string {
	s.t.Helper()
	res, err := s.cs.CallTool(s.ctx(), &mcp.CallToolParams{Name: "shell_read",
		Arguments: map[string]any{"session_id": id, "scrollback": false, "max_bytes": 1 << 20}})
	if err != nil {
		return "(shell_read: " + err.Error() + ")"
	}
	return textOf(res)
}

// rpcCode returns the JSON-RPC error code inside err, or 0.
func rpcCode(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return 0
}
