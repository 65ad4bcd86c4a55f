package main

// harness_test.go: how the tests run the server. serverBinary builds the
// binary once per test run; testClient is the one JSON-RPC client of the
// tests, over a pair of pipes to a Server in the test process
// (startServer) or to the binary's stdin and stdout (startProc).

import (
	"bufio"
	"context"
	"encoding/json"
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
)

// stuckAfter bounds how long a test waits for a line before declaring the
// server stuck: a deadlock guard, not a timing assertion.
const stuckAfter = 60 * time.Second

var (
	serverBinOnce sync.Once
	serverBinDir  string // removed by TestMain
	serverBin     string
	serverBinErr  error
)

// parallelPerCPU is how many parallel tests run at once per CPU unless
// -test.parallel says otherwise (its default is one per CPU). Most tests
// wait on real programs, pseudo-terminals and timers far longer than
// they compute: at one per CPU a 2-core machine sat idle for most of the
// suite.
const parallelPerCPU = 4

// TestMain runs the tests, parallelPerCPU parallel tests per CPU unless
// -test.parallel is given, and removes the binary serverBinary built.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(parallelPerCPU*runtime.GOMAXPROCS(0)))
	}
	code := m.Run()
	if serverBinDir != "" {
		os.RemoveAll(serverBinDir)
	}
	os.Exit(code)
}

// serverBinary builds ttywright once for all the tests that run it and
// returns its path. With -short it skips the test instead.
func serverBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	serverBinOnce.Do(func() {
		if serverBinDir, serverBinErr = os.MkdirTemp("", "ttywright-test"); serverBinErr != nil {
			return
		}
		serverBin = filepath.Join(serverBinDir, "ttywright")
		if out, err := exec.Command("go", "build", "-o", serverBin, ".").CombinedOutput(); err != nil {
			serverBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if serverBinErr != nil {
		t.Fatal(serverBinErr)
	}
	return serverBin
}

// testClient talks newline-delimited JSON-RPC to a server. Every line the
// server writes must be valid JSON; the reader goroutine fails the test
// otherwise. A response to a request sent with call is routed to that
// call (calls may come from several goroutines); every other line goes to
// lines, read in order with recv and its kin. A client of a process has
// no lines: what call does not claim is dropped, responses kept in stray.
type testClient struct {
	t      testing.TB
	app    *App      // the in-process server's App; nil for a process
	srv    *Server   // the in-process server; nil for a process
	cmd    *exec.Cmd // the process; nil in-process
	in     io.WriteCloser
	inMu   sync.Mutex
	lines  chan []byte   // lines from the server; closed at its EOF
	exited chan struct{} // closed when the server's output ended
	done   chan error    // in-process: Serve's result
	stderr procOutput

	mu     sync.Mutex
	nextID int
	wait   map[string]chan reply // pending calls by id
	stray  []reply               // a process's responses no call claimed
}

// reply is a decoded response or notification.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *RPCError       `json:"error"`
}

// startServer serves a fresh App with the extra tools appended.
func startServer(t testing.TB, extra ...*Tool) *testClient {
	t.Helper()
	return startServerWith(t, func(s *Server) { s.tools = append(s.tools, extra...) })
}

// startServerWith serves a fresh App after setup has adjusted the Server.
func startServerWith(t testing.TB, setup func(*Server)) *testClient {
	t.Helper()
	return startAppServer(t, nil, func(_ *App, s *Server) { setup(s) })
}

// startAppServer serves a fresh App, built from the tests' Config after
// config (when not nil) adjusted it, once setup has adjusted the App and
// the Server.
func startAppServer(t testing.TB, config func(*Config), setup func(*App, *Server)) *testClient {
	t.Helper()
	cfg := Config{Theme: "one-dark", Cols: 80, Rows: 24, Scale: 1, MaxSessions: 4, OutputDir: t.TempDir()}
	if config != nil {
		config(&cfg)
	}
	app := newApp(cfg)
	srv := app.newServer()
	setup(app, srv)
	return serveConn(t, app, srv)
}

// serveConn serves srv, a connection of app, to a new client over pipes.
func serveConn(t testing.TB, app *App, srv *Server) *testClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &testClient{t: t, app: app, srv: srv, in: inW, lines: make(chan []byte, 64), done: make(chan error, 1)}
	go func() {
		err := srv.Serve(context.Background(), inR, outW)
		outW.Close()
		c.done <- err
	}()
	c.start(outR)
	t.Cleanup(func() { c.close() })
	return c
}

// startProc starts the binary with args and performs the MCP handshake.
func startProc(t testing.TB, args ...string) *testClient {
	t.Helper()
	return startProcWith(t, serverBinary(t), nil, args...)
}

// startProcWith is startProc for the binary bin, with setup (when not
// nil) adjusting the command before it starts. A server run as another
// user owns the pipe it writes to, as it does when its client spawns it.
func startProcWith(t testing.TB, bin string, setup func(*exec.Cmd), args ...string) *testClient {
	t.Helper()
	c := &testClient{t: t, cmd: exec.Command(bin, args...)}
	if setup != nil {
		setup(c.cmd)
	}
	c.cmd.Stderr = &c.stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close() // the server's copy is its own
	if a := c.cmd.SysProcAttr; a != nil && a.Credential != nil {
		if err := w.Chown(int(a.Credential.Uid), int(a.Credential.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	c.cmd.Stdout = w
	if err := c.cmd.Start(); err != nil {
		out.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.cmd.Process.Kill() // no-op once it exited
		c.cmd.Wait()
	})
	c.start(out)
	r := c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	if r.Error != nil {
		t.Fatalf("initialize: %+v", r.Error)
	}
	c.sendMsg(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	return c
}

// start reads the server's output until EOF on a new goroutine.
func (c *testClient) start(out io.Reader) {
	c.exited = make(chan struct{})
	c.wait = map[string]chan reply{}
	go func() {
		defer close(c.exited)
		if c.lines != nil {
			defer close(c.lines)
		}
		br := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := readFrame(br, maxFrame)
			if err != nil {
				return
			}
			if !json.Valid(line) {
				c.t.Errorf("server wrote a line that is not JSON: %.200q", line)
			} else if c.route(line) {
				continue
			}
			if c.lines != nil {
				c.lines <- line
			}
		}
	}()
}

// route hands a response to the call waiting for it; it reports whether
// one was (for a process: whether line is dealt with).
func (c *testClient) route(line []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.wait) == 0 && c.lines != nil {
		return false
	}
	var r reply
	json.Unmarshal(line, &r)
	if r.ID == nil || string(r.ID) == "null" {
		return c.lines == nil // a notification
	}
	ch := c.wait[string(r.ID)]
	if ch == nil {
		if c.lines == nil {
			c.stray = append(c.stray, r)
		}
		return c.lines == nil
	}
	delete(c.wait, string(r.ID))
	ch <- r
	return true
}

// procOutput collects what a process writes (exec copies it from its own
// goroutine) for the test to read as it grows.
type procOutput struct {
	mu   sync.Mutex
	b    strings.Builder
	grew chan struct{} // closed at the next write
}

func (o *procOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.grew != nil {
		close(o.grew)
		o.grew = nil
	}
	return o.b.Write(p)
}

// String is everything written so far.
func (o *procOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// waitFor waits, at most d, until ok accepts what was written, woken by
// each write; it returns that text and whether ok accepted it.
func (o *procOutput) waitFor(ok func(string) bool, d time.Duration) (string, bool) {
	timeout := time.After(d)
	for {
		o.mu.Lock()
		text := o.b.String()
		if o.grew == nil {
			o.grew = make(chan struct{})
		}
		grew := o.grew
		o.mu.Unlock()
		if ok(text) {
			return text, true
		}
		select {
		case <-grew:
		case <-timeout:
			return text, false
		}
	}
}

// send writes one line to the server.
func (c *testClient) send(line string) {
	c.t.Helper()
	c.inMu.Lock()
	defer c.inMu.Unlock()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil && c.cmd == nil {
		c.t.Fatalf("writing to the server: %v", err)
	} // to a process: an error shows as a missing reply
}

// sendf sends a fmt-formatted line.
func (c *testClient) sendf(format string, a ...any) { c.t.Helper(); c.send(fmt.Sprintf(format, a...)) }

// sendMsg sends msg encoded as JSON.
func (c *testClient) sendMsg(msg any) {
	c.t.Helper()
	b, _ := json.Marshal(msg)
	c.send(string(b))
}

// call sends a request with the next numeric id and waits (bounded by
// stuckAfter) for its response. Safe for concurrent use.
func (c *testClient) call(method string, params any) reply {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan reply, 1)
	c.wait[strconv.Itoa(id)] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.sendMsg(msg)
	select {
	case r := <-ch:
		return r
	case <-c.exited:
		c.t.Errorf("%s: the server exited; stderr:\n%s", method, c.stderr.String())
	case <-time.After(stuckAfter):
		c.t.Errorf("%s: no reply in %v", method, stuckAfter)
	}
	return reply{Error: &RPCError{Code: -1, Message: "no reply"}}
}

// tool calls a tool; it returns the structured result, the text and
// isError (a JSON-RPC error counts as an error with its message).
func (c *testClient) tool(name string, args map[string]any) (map[string]any, string, bool) {
	r := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	if r.Error != nil {
		return nil, r.Error.Message, true
	}
	text, structured, isError := toolResult(r)
	return structured, text, isError
}

// mustTool is tool that fails the test on an error.
func (c *testClient) mustTool(name string, args map[string]any) map[string]any {
	c.t.Helper()
	m, text, isErr := c.tool(name, args)
	if isErr {
		c.t.Fatalf("%s %v: %s", name, args, text)
	}
	return m
}

// toolResult decodes a tools/call result.
func toolResult(r reply) (text string, structured map[string]any, isError bool) {
	var res struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		Structured map[string]any `json:"structuredContent"`
		IsError    bool           `json:"isError"`
	}
	json.Unmarshal(r.Result, &res)
	if len(res.Content) > 0 {
		text = res.Content[0].Text
	}
	return text, res.Structured, res.IsError
}

// recv returns the next line from the server.
func (c *testClient) recv() []byte {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("server closed its output")
		}
		return line
	case <-time.After(stuckAfter):
		c.t.Fatalf("no line from the server in %v", stuckAfter)
	}
	return nil
}

// recvReply decodes the next line as one message.
func (c *testClient) recvReply() reply {
	c.t.Helper()
	line := c.recv()
	var r reply
	if err := json.Unmarshal(line, &r); err != nil {
		c.t.Fatalf("decoding %.200q: %v", line, err)
	}
	return r
}

// recvResponse skips log messages (a handler's panic is logged to the
// client too) and returns the next other message.
func (c *testClient) recvResponse() reply {
	c.t.Helper()
	for {
		if r := c.recvReply(); r.Method != "notifications/message" {
			return r
		}
	}
}

// sendRequest sends a request with the given id, and params when not nil.
func (c *testClient) sendRequest(id any, method string, params any) {
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	c.sendMsg(msg)
}

// request sends a request with the given id and params and returns the
// next message, which must be its response.
func (c *testClient) request(id any, method string, params any) reply {
	c.t.Helper()
	c.sendRequest(id, method, params)
	r := c.recvResponse()
	if want, _ := json.Marshal(id); string(r.ID) != string(want) {
		c.t.Fatalf("%s: got a reply for id %s, want id %s: %+v", method, r.ID, want, r)
	}
	return r
}

// rpc is request for a server that also sends notifications (list
// changes): it skips them.
func (c *testClient) rpc(id int, method string, params any) reply {
	c.t.Helper()
	c.sendRequest(id, method, params)
	for {
		r := c.recvReply()
		if r.Method != "" {
			continue
		}
		if string(r.ID) != strconv.Itoa(id) {
			c.t.Fatalf("%s: got a reply for id %s, want %d", method, r.ID, id)
		}
		return r
	}
}

// toolCall sends tools/call and returns the raw response.
func (c *testClient) toolCall(id int, name string, args any) reply {
	c.t.Helper()
	return c.rpc(id, "tools/call", map[string]any{"name": name, "arguments": args})
}

// initialize performs the handshake with the given protocol version.
func (c *testClient) initialize(version string) map[string]any {
	c.t.Helper()
	r := c.request(0, "initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	if r.Error != nil {
		c.t.Fatalf("initialize: %+v", r.Error)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var res map[string]any
	json.Unmarshal(r.Result, &res)
	return res
}

// close ends the input and waits for Serve; it returns the lines the
// server wrote that nobody received yet.
func (c *testClient) close() [][]byte {
	c.in.Close()
	var rest [][]byte
	for line := range c.lines {
		rest = append(rest, line)
	}
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Errorf("Serve: %v", err)
		}
		c.done <- nil // for a second close
	case <-time.After(stuckAfter):
		c.t.Fatalf("Serve did not return in %v after EOF", stuckAfter)
	}
	return rest
}

// readResource reads uri with no deadline but the resource's own.
func (h *mcpHub) readResource(uri string) (resourceContents, error) {
	return h.readResourceCtx(context.Background(), uri)
}

// testConn is a legacy connection of a that is never served: its
// resource notifications go to send (nil: dropped), and its methods
// (resources/subscribe included) can be called directly.
func testConn(a *App, send func(method string, params any)) *Server {
	s := a.newServer()
	w := &watcher{uris: map[resourceURI]*debouncer{}, list: &debouncer{}, send: func(method string, params any) {
		if send != nil {
			send(method, params)
		}
	}}
	s.mu.Lock()
	s.watch = w
	s.mu.Unlock()
	if err := a.hub.addWatcher(w, nil); err != nil {
		panic(err)
	}
	return s
}

// isRecording reports whether s has a recording running.
func isRecording(a *App, s *Session) bool {
	running, _ := a.tools.recs.state(s)
	return running
}

// runningRecorder returns s's running recording, or nil.
func runningRecorder(a *App, s *Session) *recorder {
	rs := a.tools.recs
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if sl := rs.slots[s]; sl != nil {
		return sl.running
	}
	return nil
}

// reconfigure passes a.cfg, changed by a test after newApp, down to the
// rooms again, as newApp did. Call it before any session starts.
func reconfigure(a *App) {
	a.store.dir = a.cfg.OutputDir
	a.sessions.cfg = a.cfg.sessions()
	a.tools.cfg = a.cfg.tools()
}

// addTestSession lists s, a session built by the test without a program,
// in a's sessions, reporting to a's hub.
func addTestSession(a *App, s *Session) {
	s.events = a.hub
	a.sessions.mu.Lock()
	a.sessions.live[s.ID] = s
	a.sessions.mu.Unlock()
}

// realPython is the path of the Python interpreter itself, or "python3"
// when it cannot be found: a version manager's shim (pyenv's is a shell
// script that runs pyenv) can take longer to start under load than a
// readiness test gives a program to draw.
var realPython = sync.OnceValue(func() string {
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if p := strings.TrimSpace(string(out)); err == nil && p != "" {
		return p
	}
	return "python3"
})

// writeExecutable writes a program file that a test then runs. It holds
// syscall.ForkLock from open to close: a process the tests fork
// meanwhile (they run in parallel) would inherit the write descriptor
// until its own exec, and running the file then fails with ETXTBSY (text
// file busy).
func writeExecutable(t testing.TB, path string, b []byte) {
	t.Helper()
	syscall.ForkLock.RLock()
	err := os.WriteFile(path, b, 0o700)
	syscall.ForkLock.RUnlock()
	if err != nil {
		t.Fatal(err)
	}
}
