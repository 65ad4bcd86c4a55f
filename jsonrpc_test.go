package main

// jsonrpc_test.go: the JSON-RPC layer over in-memory pipes: framing, ids,
// notifications, error codes, batches, large frames, concurrency,
// cancellation and progress; FuzzJSONRPC.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"strings"
	"sync"
	"testing"
	"time"
)

// Test tools, registered by the tests that need them.

// echoTool returns its "s" argument and its length.
var echoTool = &Tool{
	Name: "test_echo", Title: "Echo", Description: "returns s",
	Input: map[string]any{"type": "object", "properties": map[string]any{
		"s": map[string]any{"type": "string", "description": "the text to echo"},
		"n": map[string]any{"type": "integer"},
	}, "required": []string{"s"}},
	Output:   map[string]any{"type": "object"},
	ReadOnly: true,
	Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		var in struct {
			S string `json:"s"`
			N int    `json:"n"`
		}
		if err := call.Bind(&in); err != nil {
			return toolErrorf("%v", err)
		}
		return &ToolResult{Structured: map[string]any{"s": in.S, "len": len(in.S)}}
	},
}

// blockTool waits until its request is cancelled, then reports on started
// and stopped.
func blockTool(started, stopped chan<- struct{}) *Tool {
	return &Tool{Name: "test_block", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		started <- struct{}{}
		<-ctx.Done()
		stopped <- struct{}{}
		return &ToolResult{Text: "cancelled, but this must not be sent"}
	}}
}

// progressTool reports progress 1, 1 (dropped: not increasing), 0.5
// (dropped), 2, then returns.
var progressTool = &Tool{Name: "test_progress", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
	for _, p := range []float64{1, 1, 0.5, 2} {
		call.Progress(p, 2, "step")
	}
	return &ToolResult{Text: "done"}
}}

// panicTool panics.
var panicTool = &Tool{Name: "test_panic", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
	panic("boom")
}}

func TestReadFrame(t *testing.T) {
	big := strings.Repeat("x", 100)
	tests := []struct {
		name  string
		input string
		limit int
		want  []string // "!" = errFrameTooLarge
	}{
		{"lines", "a\nb\r\n\nc", 10, []string{"a", "b", "", "c"}},
		{"long line over buffer size", big + "\nz\n", 1000, []string{big, "z"}},
		{"too large then fine", big + "\nz\n", 50, []string{"!", "z"}},
		{"exactly at the limit", big + "\r\n", 100, []string{big}},
		{"too large at EOF", big, 50, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tt.input), 16)
			var got []string
			for {
				line, err := readFrame(br, tt.limit)
				if err == errFrameTooLarge {
					got = append(got, "!")
					continue
				}
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, string(line))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIDsEchoedExactly(t *testing.T) {
	c := startServer(t)
	c.initialize("2025-06-18")
	for _, id := range []string{`9007199254740993`, `"abc"`, `"9007199254740993"`, `-1`, `0`, `"\u00e9\n"`, `""`, `18446744073709551617`} {
		c.sendf(`{"jsonrpc":"2.0","id":%s,"method":"ping"}`, id)
		line := c.recv()
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}`
		if string(line) != want {
			t.Errorf("ping id %s: got %s, want %s", id, line, want)
		}
	}
}

func TestNotificationsGetNoResponse(t *testing.T) {
	c := startServer(t)
	c.initialize("2025-06-18")
	for _, n := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{}}`,
		`{"jsonrpc":"2.0","method":"no/such/notification"}`,
		`{"jsonrpc":"2.0","method":"ping"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}`,
		`{"jsonrpc":"2.0","method":"tools/list","params":"not an object"}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`, // a response the server never asked for
		``, `   `,
	} {
		c.send(n)
	}
	// Each line is handled before the next is read, and nothing above
	// answers in a goroutine, so the next line out must be the ping's.
	if r := c.request(99, "ping", nil); r.Error != nil || string(r.Result) != "{}" {
		t.Errorf("ping after notifications: %+v", r)
	}
	if rest := c.close(); len(rest) != 0 {
		t.Errorf("unexpected lines: %q", rest)
	}
}

func TestErrorCodes(t *testing.T) {
	c := startServerWith(t, func(s *Server) {
		s.tools = append(s.tools, panicTool)
		s.methods = maps.Clone(s.methods) // the table is every Server's
		for name, f := range map[string]methodHandler{
			"test/panic": func(*Server, context.Context, *message) (any, error) { panic("boom") },
			"test/fail": func(*Server, context.Context, *message) (any, error) {
				return nil, fmt.Errorf("disk full")
			},
			"test/badresult": func(*Server, context.Context, *message) (any, error) {
				return map[string]any{"f": func() {}}, nil
			},
		} {
			s.methods[name] = methodInfo{handle: f, eras: eraLegacy, flags: flagParamsOptional}
		}
	})

	// Before initialize only initialize and ping are served.
	tests := []struct {
		name, line string
		wantID     string
		wantCode   int
	}{
		{"tools/list before initialize", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `1`, codeInvalidRequest},
		{"ping before initialize", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, `2`, 0},
		{"initialize", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`, `3`, 0},

		{"not JSON", `{"jsonrpc":"2.0","id":4,"method":"ping"`, `null`, codeParseError},
		{"garbage", `hello`, `null`, codeParseError},
		{"not an object", `42`, `null`, codeInvalidRequest},
		{"string", `"ping"`, `null`, codeInvalidRequest},
		{"empty batch", `[]`, `null`, codeInvalidRequest},
		{"no jsonrpc", `{"id":5,"method":"ping"}`, `5`, codeInvalidRequest},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":6,"method":"ping"}`, `6`, codeInvalidRequest},
		{"method not a string", `{"jsonrpc":"2.0","id":7,"method":1}`, `7`, codeInvalidRequest},
		{"empty method", `{"jsonrpc":"2.0","id":8,"method":""}`, `8`, codeInvalidRequest},
		{"no method", `{"jsonrpc":"2.0","id":9}`, `9`, codeInvalidRequest},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, `null`, codeInvalidRequest},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, `null`, codeInvalidRequest},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, `null`, codeInvalidRequest},
		{"unknown method", `{"jsonrpc":"2.0","id":10,"method":"tools/frobnicate"}`, `10`, codeMethodNotFound},
		{"params not an object", `{"jsonrpc":"2.0","id":11,"method":"tools/list","params":[1]}`, `11`, codeInvalidParams},
		{"unknown tool", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"nope"}}`, `12`, codeInvalidParams},
		{"tool name missing", `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{}}`, `13`, codeInvalidParams},
		{"arguments not an object", `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"test_panic","arguments":[]}}`, `14`, codeInvalidParams},
		{"bad log level", `{"jsonrpc":"2.0","id":15,"method":"logging/setLevel","params":{"level":"loud"}}`, `15`, codeInvalidParams},
		{"bad cursor", `{"jsonrpc":"2.0","id":16,"method":"tools/list","params":{"cursor":"x"}}`, `16`, codeInvalidParams},
		{"bad protocolVersion", `{"jsonrpc":"2.0","id":17,"method":"initialize","params":{"protocolVersion":2025}}`, `17`, codeInvalidParams},
		{"handler panics", `{"jsonrpc":"2.0","id":18,"method":"test/panic"}`, `18`, codeInternalError},
		{"handler fails", `{"jsonrpc":"2.0","id":19,"method":"test/fail"}`, `19`, codeInternalError},
		{"result cannot be encoded", `{"jsonrpc":"2.0","id":20,"method":"test/badresult"}`, `20`, codeInternalError},
		{"params missing", `{"jsonrpc":"2.0","id":21,"method":"resources/read"}`, `21`, codeInvalidParams},
		{"a notification's name", `{"jsonrpc":"2.0","id":22,"method":"notifications/cancelled","params":{"requestId":1}}`, `22`, codeMethodNotFound},
		{"still serving", `{"jsonrpc":"2.0","id":23,"method":"ping"}`, `23`, 0},
	}
	for _, tt := range tests {
		c.send(tt.line)
		r := c.recvResponse()
		if string(r.ID) != tt.wantID {
			t.Errorf("%s: id %s, want %s", tt.name, r.ID, tt.wantID)
		}
		switch {
		case tt.wantCode == 0 && r.Error != nil:
			t.Errorf("%s: unexpected error %+v", tt.name, r.Error)
		case tt.wantCode != 0 && r.Error == nil:
			t.Errorf("%s: got result %s, want error %d", tt.name, r.Result, tt.wantCode)
		case tt.wantCode != 0 && r.Error.Code != tt.wantCode:
			t.Errorf("%s: error %d %q, want %d", tt.name, r.Error.Code, r.Error.Message, tt.wantCode)
		case tt.wantCode != 0 && r.Error.Message == "":
			t.Errorf("%s: error %d without a message", tt.name, r.Error.Code)
		}
	}
}

// TestOutgoingSaysKind: every line the Server writes reaches the sink
// with its kind, the request it belongs to and a response's error code,
// as the HTTP transport routes and answers by them.
func TestOutgoingSaysKind(t *testing.T) {
	t.Parallel()
	srv := newApp(Config{}).newServer()
	var mu sync.Mutex
	var got []outgoing
	srv.sink = func(o outgoing) {
		mu.Lock()
		got = append(got, o)
		mu.Unlock()
	}
	srv.handleLine(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	srv.handleLine(context.Background(), []byte(`{"jsonrpc":"2.0","id":"b","method":"tools/list"}`))
	srv.wg.Wait() // tools/list runs in a goroutine of its own
	srv.send(newResponse(json.RawMessage(`3`), map[string]any{"f": func() {}}, nil))
	srv.notify("notifications/message", map[string]any{"level": "info", "data": "x"})
	ctx, cancel := context.WithCancel(withRequestID(context.Background(), json.RawMessage(`4`)))
	cancel() // the request is sent, then given up on with notifications/cancelled
	_, _ = srv.request(ctx, "elicitation/create", map[string]any{"mode": "url"})
	want := []struct {
		related string
		kind    outKind
		code    int
		has     string
	}{
		{`1`, outResponse, 0, `"result":{}`},
		{`"b"`, outResponse, codeInvalidRequest, "before initialize"},
		{`3`, outResponse, codeInternalError, "cannot encode the result"},
		{``, outNotification, 0, `"method":"notifications/message"`},
		{`4`, outRequest, 0, `"method":"elicitation/create"`},
		{`4`, outNotification, 0, `"method":"notifications/cancelled"`},
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if string(g.related) != w.related || g.kind != w.kind || g.code != w.code || !strings.Contains(string(g.line), w.has) {
			t.Errorf("line %d: related %s kind %d code %d %s; want %s, %d, %d with %s", i, g.related, g.kind, g.code, g.line, w.related, w.kind, w.code, w.has)
		}
	}
}

func TestOversizedFrame(t *testing.T) {
	// 1 MiB: the real 64 MiB takes seconds under -race.
	c := startServerWith(t, func(s *Server) { s.maxFrame = 1 << 20 })
	c.initialize("2025-06-18")
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"` + strings.Repeat("a", c.srv.maxFrame) + `"}}`
	go c.send(big) // the pipe blocks until the server has read it all
	if r := c.recvReply(); r.Error == nil || r.Error.Code != codeInvalidRequest || string(r.ID) != "null" {
		t.Errorf("oversized frame: got %+v, want -32600 with id null", r)
	}
	if r := c.request(2, "ping", nil); r.Error != nil {
		t.Errorf("ping after an oversized frame: %+v", r.Error)
	}
}

func TestBatch(t *testing.T) {
	c := startServer(t, echoTool)
	c.initialize("2025-03-26")
	c.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},` +
		`{"jsonrpc":"2.0","method":"notifications/initialized"},` +
		`{"jsonrpc":"2.0","id":"two","method":"no/such"},` +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_echo","arguments":{"s":"hi"}}},` +
		`7]`)
	var got []reply
	if err := json.Unmarshal(c.recv(), &got); err != nil {
		t.Fatalf("batch reply is not an array: %v", err)
	}
	wantIDs := []string{`1`, `"two"`, `3`, `null`}
	if len(got) != len(wantIDs) {
		t.Fatalf("batch: %d replies, want %d: %+v", len(got), len(wantIDs), got)
	}
	for i, want := range wantIDs {
		if string(got[i].ID) != want {
			t.Errorf("batch reply %d: id %s, want %s", i, got[i].ID, want)
		}
	}
	if got[0].Error != nil || got[1].Error == nil || got[1].Error.Code != codeMethodNotFound ||
		!strings.Contains(string(got[2].Result), `"len\":2`) || got[3].Error == nil || got[3].Error.Code != codeInvalidRequest {
		t.Errorf("batch replies: %+v", got)
	}

	// A batch of notifications only gets no reply at all.
	c.send(`[{"jsonrpc":"2.0","method":"notifications/initialized"}]`)
	if r := c.request(4, "ping", nil); r.Error != nil {
		t.Errorf("ping: %+v", r.Error)
	}
}

// TestLargeMessages sends a 5 MiB argument and gets it back as a 5 MiB
// text block: large frames both ways through one tools/call.
func TestLargeMessages(t *testing.T) {
	big := &Tool{Name: "test_big", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		var in struct {
			S string `json:"s"`
		}
		if err := call.Bind(&in); err != nil {
			return toolErrorf("%v", err)
		}
		return &ToolResult{Text: in.S}
	}}
	c := startServer(t, big)
	c.initialize("2025-06-18")
	s := strings.Repeat("0123456789abcdef", 5<<20/16)
	c.send(`{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"test_big","arguments":{"s":"` + s + `"}}}`)
	var r struct {
		ID     string
		Result struct {
			Content []Content
			IsError bool
		}
	}
	if err := json.Unmarshal(c.recv(), &r); err != nil || r.ID != "big" || r.Result.IsError || len(r.Result.Content) != 1 {
		t.Fatalf("5 MiB call: %v %+v", err, r)
	}
	if got := r.Result.Content[0].Text; got != s {
		t.Errorf("5 MiB echo: got %d bytes back, want %d", len(got), len(s))
	}
}

// TestCancellation blocks one call until it is cancelled, shows that a
// ping and a second call are answered meanwhile, and that the cancelled
// call gets no response.
func TestCancellation(t *testing.T) {
	started, stopped := make(chan struct{}, 2), make(chan struct{}, 2)
	c := startServer(t, blockTool(started, stopped), echoTool)
	c.initialize("2025-06-18")

	c.send(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"test_block"}}`)
	<-started
	if r := c.request(1, "ping", nil); r.Error != nil || string(r.Result) != "{}" {
		t.Errorf("ping during a slow call: %+v", r)
	}
	if r := c.request(2, "tools/call", map[string]any{"name": "test_echo", "arguments": map[string]any{"s": "x"}}); r.Error != nil {
		t.Errorf("second call during a slow call: %+v", r.Error)
	}
	c.send(`{"jsonrpc":"2.0","id":"slow","method":"ping"}`) // duplicate in-flight id
	if r := c.recvReply(); r.Error == nil || r.Error.Code != codeInvalidRequest {
		t.Errorf("duplicate id: %+v", r)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow","reason":"user"}}`)
	<-stopped
	if r := c.request(3, "ping", nil); r.Error != nil {
		t.Errorf("ping after cancel: %+v", r.Error)
	}
	// close waits for every handler, so a response to "slow" would be here.
	for _, line := range c.close() {
		t.Errorf("unexpected line after cancellation: %s", line)
	}
}

// TestShutdownCancelsWork: when Serve's context ends, running handlers are
// cancelled and Serve returns.
func TestShutdownCancelsWork(t *testing.T) {
	started, stopped := make(chan struct{}, 1), make(chan struct{}, 1)
	srv := newApp(Config{}).newServer()
	srv.tools = append(srv.tools, blockTool(started, stopped))
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	defer inW.Close()
	var out bytes.Buffer
	done := make(chan error)
	go func() { done <- srv.Serve(ctx, inR, &out) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`+"\n"+
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_block"}}`+"\n")
	<-started
	cancel()
	<-stopped
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// failingWriter is a client that stopped reading: every write fails.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestWriteFailure: when the client stops reading, requests still finish
// (their responses fail to send) and the failure is logged once, to
// stderr. Logging it to the client re-entered the sync.Once and blocked
// every writer for good, so shutdown waited stopGrace for them.
func TestWriteFailure(t *testing.T) {
	srv := newApp(Config{}).newServer()
	var logBuf bytes.Buffer
	var logMu sync.Mutex
	srv.errlog = log.New(writerFunc(func(p []byte) (int, error) {
		logMu.Lock()
		defer logMu.Unlock()
		return logBuf.Write(p)
	}), "", 0)
	inR, inW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), inR, failingWriter{}) }()
	go func() {
		// The reader goroutine answers initialize itself: when that write
		// blocked for good, stdin was no longer read, EOF never seen, and
		// the server and its programs lived on after the client left.
		io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`+"\n")
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)
		}
		inW.Close()
	}()
	select {
	case <-done:
	case <-time.After(stuckAfter):
		t.Fatal("Serve did not return after stdin closed")
	}
	logMu.Lock()
	defer logMu.Unlock()
	if got := logBuf.String(); strings.Count(got, "writing to the client") != 1 || strings.Contains(got, "still running") {
		t.Errorf("stderr log:\n%s\nwant one write failure and no requests left running", got)
	}
}

// writerFunc adapts a function to io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestProgress(t *testing.T) {
	c := startServer(t, progressTool)
	c.initialize("2025-06-18")
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_progress","_meta":{"progressToken":"tok"}}}`)
	var progress []string
	for {
		r := c.recvReply()
		if r.Method == "" {
			break
		}
		if r.Method != "notifications/progress" {
			t.Fatalf("unexpected notification %s", r.Method)
		}
		progress = append(progress, string(r.Params))
	}
	want := []string{
		`{"message":"step","progress":1,"progressToken":"tok","total":2}`,
		`{"message":"step","progress":2,"progressToken":"tok","total":2}`,
	}
	if fmt.Sprint(progress) != fmt.Sprint(want) {
		t.Errorf("progress:\ngot  %s\nwant %s", progress, want)
	}

	// Without a token, Progress is silent: the next line is the response.
	if r := c.request(2, "tools/call", map[string]any{"name": "test_progress"}); r.Error != nil || r.Method != "" {
		t.Errorf("call without a token: %+v", r)
	}
}

// FuzzJSONRPC feeds arbitrary lines to a server: each must yield nothing,
// or well-formed JSON-RPC responses, and never a panic.
func FuzzJSONRPC(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":""}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_echo","arguments":{"s":"x","n":"y"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"test_echo","arguments":{"bogus":1}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"test_panic","_meta":{"progressToken":1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"debug"}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"},3]`,
		`[]`, `[[]]`, `{}`, `null`, `"x"`, `{"jsonrpc":"2.0","id":1e999,"method":"ping"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r",
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, `{bad`,
	} {
		f.Add(seed, true)
		f.Add(seed, false)
	}
	f.Fuzz(func(t *testing.T, line string, initialized bool) {
		var out bytes.Buffer
		srv := newApp(Config{}).newServer()
		srv.tools = []*Tool{echoTool, panicTool, progressTool} // never the real tools: no processes
		srv.out.setOutput(&out)
		if initialized {
			srv.version = protocolVersions[len(protocolVersions)-1]
		}
		srv.handleLine(context.Background(), []byte(line))
		srv.wg.Wait()
		for l := range bytes.Lines(out.Bytes()) {
			l = bytes.TrimSuffix(l, []byte("\n"))
			var msgs []map[string]json.RawMessage
			if len(l) > 0 && l[0] == '[' {
				if err := json.Unmarshal(l, &msgs); err != nil || len(msgs) == 0 {
					t.Fatalf("bad batch reply %q: %v", l, err)
				}
			} else {
				var m map[string]json.RawMessage
				if err := json.Unmarshal(l, &m); err != nil {
					t.Fatalf("reply is not a JSON object: %q", l)
				}
				msgs = append(msgs, m)
			}
			for _, m := range msgs {
				if string(m["jsonrpc"]) != `"2.0"` {
					t.Fatalf("reply without jsonrpc 2.0: %q", l)
				}
				if m["method"] != nil { // a notification (progress, log)
					continue
				}
				_, hasResult := m["result"]
				_, hasError := m["error"]
				if m["id"] == nil || hasResult == hasError {
					t.Fatalf("malformed response %q", l)
				}
			}
		}
	})
}

// TestConcurrentRequests: many blocked calls, some cancelled, with pings
// in between: every ping is answered while the calls wait, each call that
// was not cancelled gets exactly one response once released, and the
// cancelled ones get none.
func TestConcurrentRequests(t *testing.T) {
	release := make(chan struct{})
	wait := &Tool{Name: "test_wait", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		select {
		case <-release:
			return &ToolResult{Text: "released"}
		case <-ctx.Done():
			return &ToolResult{Text: "cancelled", IsError: true}
		}
	}}
	c := startServer(t, wait)
	c.initialize("2025-06-18")
	const calls = 100
	for i := range calls {
		c.sendf(`{"jsonrpc":"2.0","id":"w%d","method":"tools/call","params":{"name":"test_wait"}}`, i)
	}
	for i := 0; i < calls; i += 5 {
		c.sendf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w%d"}}`, i)
	}
	for i := range calls {
		if r := c.request(i, "ping", nil); r.Error != nil {
			t.Fatalf("ping %d: %+v", i, r.Error)
		}
	}
	close(release)
	got := map[string]int{}
	for _, line := range c.close() {
		var r reply
		json.Unmarshal(line, &r)
		got[string(r.ID)]++
	}
	for i := range calls {
		id := fmt.Sprintf(`"w%d"`, i)
		if want := map[bool]int{true: 0, false: 1}[i%5 == 0]; got[id] != want {
			t.Errorf("call %s: %d responses, want %d", id, got[id], want)
		}
		delete(got, id)
	}
	if len(got) != 0 {
		t.Errorf("unexpected responses: %v", got)
	}
}

// TestBatchByVersion: a batch is served under the MCP versions that have
// batches and refused as a whole (one -32600, id null, nothing run) under
// 2025-06-18 and later, which removed them; the server goes on serving.
func TestBatchByVersion(t *testing.T) {
	for _, tt := range []struct {
		version string
		batches bool
	}{
		{"2024-11-05", true},
		{"2025-03-26", true},
		{"2025-06-18", false},
		{"2025-11-25", false},
	} {
		t.Run(tt.version, func(t *testing.T) {
			ran := 0
			var mu sync.Mutex
			count := &Tool{Name: "test_count", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
				mu.Lock()
				ran++
				mu.Unlock()
				return &ToolResult{Text: "ok"}
			}}
			c := startServer(t, count)
			c.initialize(tt.version)
			c.send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_count"}}]`)
			line := c.recv()
			var got []reply
			batched := json.Unmarshal(line, &got) == nil
			var single reply
			json.Unmarshal(line, &single)
			switch {
			case tt.batches && (!batched || len(got) != 2 || got[0].Error != nil || got[1].Error != nil):
				t.Errorf("batch under %s: %s, want two results", tt.version, line)
			case !tt.batches && (batched || single.Error == nil || single.Error.Code != codeInvalidRequest ||
				string(single.ID) != "null" || !strings.Contains(single.Error.Message, "2025-06-18")):
				t.Errorf("batch under %s: %s, want one -32600 with id null naming 2025-06-18", tt.version, line)
			}
			if r := c.request(3, "ping", nil); r.Error != nil {
				t.Errorf("ping after the batch: %+v", r.Error)
			}
			mu.Lock()
			defer mu.Unlock()
			if want := map[bool]int{true: 1, false: 0}[tt.batches]; ran != want {
				t.Errorf("the batch's tool call ran %d times, want %d", ran, want)
			}
		})
	}
}
