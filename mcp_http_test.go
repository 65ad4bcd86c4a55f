package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// httpTest is a running HTTP transport on 127.0.0.1 with a fresh App.
type httpTest struct {
	t     testing.TB
	app   *App
	h     *httpMCP
	url   string // http://127.0.0.1:PORT/mcp
	token string // "" without auth
	c     *http.Client
}

// httpTestTools are added to every Server of the tests: progress reports
// twice before its result; elicit asks the client through URL elicitation;
// flood sends the session n notifications of size bytes.
func httpTestTools(s *Server) []*Tool {
	return []*Tool{
		{Name: "test_progress", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
			call.Progress(1, 2, "half")
			call.Progress(2, 2, "done")
			return &ToolResult{Text: "progressed"}
		}},
		{Name: "test_elicit", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
			if call.Ask.Request == nil {
				return &ToolResult{Text: "cannot ask", IsError: true}
			}
			action, err := call.Ask.Request(ctx, URLElicitation{ID: "e1", URL: "http://127.0.0.1:1/x", Message: "type it"})
			if err != nil {
				return &ToolResult{Text: err.Error(), IsError: true}
			}
			return &ToolResult{Text: "action " + action}
		}},
		{Name: "test_block", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
			httpBlocked <- struct{}{}
			<-ctx.Done()
			httpUnblocked <- struct{}{}
			return &ToolResult{Text: "cancelled"}
		}},
		{Name: "test_flood", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
			var a struct{ N, Size int }
			_ = json.Unmarshal(call.Args, &a)
			pad := strings.Repeat("x", a.Size)
			for i := range a.N {
				s.notify("notifications/message", map[string]any{"level": "info", "data": fmt.Sprint(i, pad)})
			}
			return &ToolResult{Text: "flooded"}
		}},
	}
}

// httpBlocked and httpUnblocked hear test_block start and see its
// context end.
var httpBlocked, httpUnblocked = make(chan struct{}, 8), make(chan struct{}, 8)

// startHTTP serves a fresh App over HTTP with cfg (Addr and Auth filled
// in when empty) after tune adjusted the transport.
func startHTTP(t testing.TB, cfg HTTPConfig, tune func(*httpMCP)) *httpTest {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if cfg.Auth != "none" && cfg.TokenFile == "" {
		cfg.TokenFile = filepath.Join(t.TempDir(), "token")
	}
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	app := newApp(Config{Theme: "one-dark", Cols: 80, Rows: 24, Scale: 1, MaxSessions: 64, OutputDir: t.TempDir()})
	newConn := func() *Server {
		s := app.newServer()
		s.tools = append(s.tools, httpTestTools(s)...)
		return s
	}
	h, err := newHTTPMCP(cfg, newConn, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	h.writeStall, h.keepAlive = 2*time.Second, 500*time.Millisecond
	if tune != nil {
		tune(h)
	}
	url, err := h.Listen()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Serve() }()
	ht := &httpTest{t: t, app: app, h: h, url: url, c: &http.Client{Timeout: 30 * time.Second}}
	if h.auth != nil {
		ht.token = h.auth.token
	}
	t.Cleanup(func() {
		ht.c.CloseIdleConnections()
		h.Close()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		app.shutdown()
	})
	return ht
}

// testLogger writes the transport's log to the test's.
func testLogger(t testing.TB) *log.Logger { return log.New(testWriter{t}, "", 0) }

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// do sends one request; hdr holds extra headers ("-Name" removes one).
func (ht *httpTest) do(method, body string, hdr map[string]string) *http.Response {
	ht.t.Helper()
	req, err := http.NewRequest(method, ht.url, strings.NewReader(body))
	if err != nil {
		ht.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if ht.token != "" {
		req.Header.Set("Authorization", "Bearer "+ht.token)
	}
	for k, v := range hdr {
		if name, ok := strings.CutPrefix(k, "-"); ok {
			req.Header.Del(name)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := ht.c.Do(req)
	if err != nil {
		ht.t.Fatal(err)
	}
	return resp
}

// messages reads a response's messages: the JSON body, or each SSE event's
// data, until the stream ends.
func messages(t testing.TB, resp *http.Response) []map[string]any {
	t.Helper()
	defer resp.Body.Close()
	var out []map[string]any
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		if len(bytes.TrimSpace(b)) == 0 {
			return nil
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("body %q: %v", b, err)
		}
		return []map[string]any{m}
	}
	ev := newSSEReader(resp.Body)
	for {
		e, err := ev.next()
		if err != nil {
			return out
		}
		out = append(out, e.msg)
	}
}

// sseEvent is one event of a stream: its id and its message.
type sseEvent struct {
	id  string
	msg map[string]any
}

type sseReader struct{ r *bufio.Reader }

func newSSEReader(r io.Reader) *sseReader { return &sseReader{bufio.NewReaderSize(r, 1<<20)} }

// next returns the next event with data (comments and empty events are
// skipped).
func (s *sseReader) next() (sseEvent, error) {
	var e sseEvent
	var data []byte
	for {
		line, err := s.r.ReadBytes('\n')
		if err != nil {
			return e, err
		}
		line = bytes.TrimRight(line, "\r\n")
		switch {
		case len(line) == 0:
			if len(data) > 0 {
				if err := json.Unmarshal(data, &e.msg); err != nil {
					return e, fmt.Errorf("event data %q: %v", data, err)
				}
				return e, nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			data = append(data, bytes.TrimSpace(line[5:])...)
		case bytes.HasPrefix(line, []byte("id:")):
			e.id = string(bytes.TrimSpace(line[3:]))
		}
	}
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":%s,"clientInfo":{"name":"t","version":"1"}}}`

// initialize opens a legacy session at version and returns its id.
func (ht *httpTest) initialize(version, caps string) string {
	ht.t.Helper()
	resp := ht.do("POST", fmt.Sprintf(initBody, version, caps), nil)
	msgs := messages(ht.t, resp)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || sid == "" || len(msgs) != 1 || msgs[0]["result"] == nil {
		ht.t.Fatalf("initialize: %d, session %q, %v", resp.StatusCode, sid, msgs)
	}
	if r := ht.do("POST", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": version}); r.StatusCode != http.StatusAccepted {
		ht.t.Fatalf("notifications/initialized: %d", r.StatusCode)
	}
	return sid
}

// modernBody is a 2026-07-28 request with the envelope.
func modernBody(id int, method string, params map[string]any) string {
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{metaProtocolVersion: protoV20260728, metaClientCapabilities: map[string]any{}, metaClientInfo: map[string]any{"name": "t", "version": "1"}}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return string(b)
}

// modernHeaders are the headers 2026-07-28 mirrors from a body.
func modernHeaders(method, name string) map[string]string {
	h := map[string]string{"MCP-Protocol-Version": protoV20260728, "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = name
	}
	return h
}

func errCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return int(c)
}

func resultOf(t testing.TB, m map[string]any) map[string]any {
	t.Helper()
	r, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result in %v", m)
	}
	return r
}

// TestHTTPLegacySession walks a 2025-11-25 session: requests with the
// header and without, a wrong header, an unknown session, DELETE and the
// 404 after it.
func TestHTTPLegacySession(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{}, nil)
	sid := ht.initialize(protoV20251125, "{}")
	s := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": protoV20251125}
	cases := []struct {
		name   string
		method string
		body   string
		hdr    map[string]string
		status int
		code   int // the JSON-RPC error code; 0 = a result
	}{
		{"tools/list", "POST", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, s, 200, 0},
		{"ping without the version header", "POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, map[string]string{"Mcp-Session-Id": sid}, 200, 0},
		{"unsupported version header", "POST", `{"jsonrpc":"2.0","id":4,"method":"ping"}`, map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2024-01-01"}, 400, codeInvalidRequest},
		{"another supported version header", "POST", `{"jsonrpc":"2.0","id":14,"method":"ping"}`, map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-06-18"}, 200, 0},
		{"a batch after 2025-06-18", "POST", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, s, 400, codeInvalidRequest},
		{"not JSON", "POST", `{"jsonrpc":`, s, 400, codeParseError},
		{"unknown session", "POST", `{"jsonrpc":"2.0","id":6,"method":"ping"}`, map[string]string{"Mcp-Session-Id": "nope"}, 404, codeInvalidRequest},
		{"a second initialize", "POST", fmt.Sprintf(initBody, protoV20251125, "{}"), s, 400, codeInvalidRequest},
		{"a response nobody asked for", "POST", `{"jsonrpc":"2.0","id":"x","result":{}}`, s, 202, noBody},
		{"PUT", "PUT", ``, s, 405, codeInvalidRequest},
		{"DELETE", "DELETE", ``, s, 204, noBody},
		{"after DELETE", "POST", `{"jsonrpc":"2.0","id":7,"method":"ping"}`, s, 404, codeInvalidRequest},
		{"DELETE again", "DELETE", ``, s, 404, codeInvalidRequest},
	}
	for _, c := range cases {
		resp := ht.do(c.method, c.body, c.hdr)
		msgs := messages(t, resp)
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d (%v)", c.name, resp.StatusCode, c.status, msgs)
			continue
		}
		if c.code == noBody {
			if len(msgs) != 0 {
				t.Errorf("%s: a body %v, want none", c.name, msgs)
			}
			continue
		}
		if len(msgs) != 1 || errCode(msgs[0]) != c.code {
			t.Errorf("%s: %v, want error code %d", c.name, msgs, c.code)
		}
	}
}

// TestHTTPLegacyBatch: a 2025-03-26 session may POST a batch and gets
// one array back.
func TestHTTPLegacyBatch(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{}, nil)
	sid := ht.initialize(protoV20250326, "{}")
	resp := ht.do("POST", `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`, map[string]string{"Mcp-Session-Id": sid})
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var arr []map[string]any
	if resp.StatusCode != 200 || json.Unmarshal(b, &arr) != nil || len(arr) != 2 {
		t.Fatalf("batch: %d %s", resp.StatusCode, b)
	}
}

// TestHTTPLegacyProgressAndElicitation: a tool's progress comes on its
// POST's SSE stream before the result; elicitation/create too, and the
// client's answer, POSTed, reaches the tool.
func TestHTTPLegacyProgressAndElicitation(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{}, nil)
	sid := ht.initialize(protoV20251125, `{"elicitation":{"url":{}}}`)
	s := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": protoV20251125}
	resp := ht.do("POST", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_progress","_meta":{"progressToken":"p"}}}`, s)
	msgs := messages(t, resp)
	if len(msgs) != 3 || msgs[0]["method"] != "notifications/progress" || msgs[1]["method"] != "notifications/progress" || msgs[2]["id"] != 2.0 {
		t.Fatalf("progress stream: %v", msgs)
	}
	resp = ht.do("POST", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_elicit"}}`, s)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("elicit: %s", resp.Header.Get("Content-Type"))
	}
	ev := newSSEReader(resp.Body)
	e, err := ev.next()
	if err != nil || e.msg["method"] != "elicitation/create" {
		t.Fatalf("first event %v, %v", e.msg, err)
	}
	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"action":"accept"}}`, e.msg["id"])
	if r := ht.do("POST", answer, s); r.StatusCode != http.StatusAccepted {
		t.Fatalf("answer: %d", r.StatusCode)
	}
	e, err = ev.next()
	resp.Body.Close()
	if err != nil || e.msg["id"] != 3.0 || !strings.Contains(fmt.Sprint(e.msg["result"]), "action accept") {
		t.Fatalf("result %v, %v", e.msg, err)
	}
}

// TestHTTPLegacyGetStream: the session's notifications come on its GET
// stream with event ids; a GET with Last-Event-ID gets what came after.
func TestHTTPLegacyGetStream(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{}, nil)
	sid := ht.initialize(protoV20251125, "{}")
	s := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": protoV20251125}
	get := ht.do("GET", "", s)
	if get.StatusCode != 200 || !strings.HasPrefix(get.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET: %d %s", get.StatusCode, get.Header.Get("Content-Type"))
	}
	flood := func(id, n int) {
		r := ht.do("POST", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_flood","arguments":{"n":%d,"size":1}}}`, id, n), s)
		if msgs := messages(t, r); len(msgs) != 1 {
			t.Fatalf("flood: %v", msgs)
		}
	}
	flood(2, 3)
	ev := newSSEReader(get.Body)
	var ids []string
	for range 3 {
		e, err := ev.next()
		if err != nil || e.msg["method"] != "notifications/message" || e.id == "" {
			t.Fatalf("event %v %q: %v", e.msg, e.id, err)
		}
		ids = append(ids, e.id)
	}
	get.Body.Close()
	flood(3, 2) // while no stream is open: kept for Last-Event-ID
	h := map[string]string{"Last-Event-ID": ids[2]}
	for k, v := range s {
		h[k] = v
	}
	get = ht.do("GET", "", h)
	defer get.Body.Close()
	ev = newSSEReader(get.Body)
	for i := range 2 {
		e, err := ev.next()
		if err != nil {
			t.Fatal(err)
		}
		last, _ := strconv.Atoi(ids[2])
		if got, _ := strconv.Atoi(e.id); got != last+1+i || !strings.HasPrefix(fmt.Sprint(e.msg["params"]), fmt.Sprintf("map[data:%d", i)) {
			t.Errorf("resumed event %d: id %s %v", i, e.id, e.msg)
		}
	}
}

// TestHTTPModern checks what 2026-07-28 puts on HTTP: the envelope, the
// mirrored headers, the statuses.
func TestHTTPModern(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{}, nil)
	disc := modernBody(1, "server/discover", nil)
	read := modernBody(2, "resources/read", map[string]any{"uri": "themes://list"})
	b64 := "=?base64?" + base64.StdEncoding.EncodeToString([]byte("themes://list")) + "?="
	with := func(h map[string]string, k, v string) map[string]string {
		name, del := strings.CutPrefix(k, "-")
		out := map[string]string{}
		if !del {
			out[k] = v
		}
		for a, b := range h {
			if a != name {
				out[a] = b
			}
		}
		return out
	}
	cases := []struct {
		name   string
		method string
		body   string
		hdr    map[string]string
		status int
		code   int
	}{
		{"discover", "POST", disc, modernHeaders("server/discover", ""), 200, 0},
		{"no envelope", "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, modernHeaders("tools/list", ""), 400, codeInvalidParams},
		{"no version header", "POST", disc, with(modernHeaders("server/discover", ""), "-MCP-Protocol-Version", ""), 400, codeHeaderMismatch},
		{"version header mismatch", "POST", disc, with(modernHeaders("server/discover", ""), "MCP-Protocol-Version", "2025-11-25"), 400, codeHeaderMismatch},
		{"no Mcp-Method", "POST", disc, with(modernHeaders("server/discover", ""), "-Mcp-Method", ""), 400, codeHeaderMismatch},
		{"Mcp-Method upper case", "POST", disc, with(modernHeaders("server/discover", ""), "Mcp-Method", "SERVER/DISCOVER"), 400, codeHeaderMismatch},
		{"Mcp-Method with spaces", "POST", disc, with(modernHeaders("server/discover", ""), "Mcp-Method", "  server/discover "), 200, 0},
		{"resources/read", "POST", read, modernHeaders("resources/read", "themes://list"), 200, 0},
		{"Mcp-Name in base64", "POST", read, modernHeaders("resources/read", b64), 200, 0},
		{"Mcp-Name bad base64", "POST", read, modernHeaders("resources/read", "=?base64?!!?="), 400, codeHeaderMismatch},
		{"no Mcp-Name", "POST", read, modernHeaders("resources/read", ""), 400, codeHeaderMismatch},
		{"Mcp-Name mismatch", "POST", read, modernHeaders("resources/read", "theme://x"), 400, codeHeaderMismatch},
		{"unsupported version", "POST", strings.Replace(disc, protoV20260728, "2099-01-01", 1), with(modernHeaders("server/discover", ""), "MCP-Protocol-Version", "2099-01-01"), 400, codeUnsupportedVersion},
		{"removed method", "POST", modernBody(3, "ping", nil), modernHeaders("ping", ""), 404, codeMethodNotFound},
		{"unknown tool", "POST", modernBody(4, "tools/call", map[string]any{"name": "nope"}), modernHeaders("tools/call", "nope"), 200, codeInvalidParams},
		{"notification", "POST", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, modernHeaders("notifications/cancelled", ""), 202, noBody},
		{"batch", "POST", "[" + disc + "]", modernHeaders("server/discover", ""), 400, codeInvalidRequest},
		{"GET", "GET", "", modernHeaders("", ""), 405, codeInvalidRequest},
		{"text body", "POST", disc, with(modernHeaders("server/discover", ""), "Content-Type", "text/plain"), 415, codeInvalidRequest},
	}
	for _, c := range cases {
		resp := ht.do(c.method, c.body, c.hdr)
		msgs := messages(t, resp)
		if resp.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d (%v)", c.name, resp.StatusCode, c.status, msgs)
			continue
		}
		if c.code == noBody {
			continue
		}
		if len(msgs) != 1 || errCode(msgs[0]) != c.code {
			t.Errorf("%s: %v, want error code %d", c.name, msgs, c.code)
		}
	}
}

// TestHTTPSharedTerminals: a terminal started in a legacy session is
// driven by 2026-07-28 requests, its screenshot comes inline and its
// resources read, and a subscriptions/listen stream hears its update;
// closing the stream frees it.
func TestHTTPSharedTerminals(t *testing.T) {
	needProgram(t, "sh")
	ht := startHTTP(t, HTTPConfig{}, nil)
	sid := ht.initialize(protoV20250618, "{}")
	s := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": protoV20250618}
	resp := ht.do("POST", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shell_start","arguments":{"command":"sh","args":["-c","echo ready; exec cat"]}}}`, s)
	msgs := messages(t, resp)
	sc, _ := resultOf(t, msgs[0])["structuredContent"].(map[string]any)
	id, _ := sc["shell_session_id"].(string)
	if id == "" {
		t.Fatalf("shell_start: %v", msgs)
	}
	listenBody := modernBody(3, "subscriptions/listen", map[string]any{"notifications": map[string]any{"resourceSubscriptions": []string{"session://" + id + "/buffer"}}})
	listen := ht.do("POST", listenBody, modernHeaders("subscriptions/listen", ""))
	ev := newSSEReader(listen.Body)
	if e, err := ev.next(); err != nil || e.msg["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("listen: %v %v", e.msg, err)
	}
	call := modernBody(4, "tools/call", map[string]any{"name": "shell_send", "arguments": map[string]any{"session_id": id, "text": "hello\n", "wait_for": "hello"}})
	msgs = messages(t, ht.do("POST", call, modernHeaders("tools/call", "shell_send")))
	if len(msgs) != 1 || resultOf(t, msgs[0])["isError"] != false {
		t.Fatalf("modern shell_send: %v", msgs)
	}
	if e, err := ev.next(); err != nil || e.msg["method"] != "notifications/resources/updated" {
		t.Fatalf("listen update: %v %v", e.msg, err)
	}
	listen.Body.Close()
	shot := modernBody(5, "tools/call", map[string]any{"name": "shell_screenshot", "arguments": map[string]any{"session_id": id, "inline": true}})
	msgs = messages(t, ht.do("POST", shot, modernHeaders("tools/call", "shell_screenshot")))
	if !strings.Contains(fmt.Sprint(resultOf(t, msgs[0])["content"]), "type:image") {
		t.Errorf("no inline image: %.300v", msgs)
	}
	msgs = messages(t, ht.do("POST", `{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"session://`+id+`/buffer"}}`, s))
	if !strings.Contains(fmt.Sprint(resultOf(t, msgs[0])["contents"]), "hello") {
		t.Errorf("legacy read of the buffer: %v", msgs)
	}
	waitFor(t, func() bool {
		ht.h.p.mu.Lock()
		defer ht.h.p.mu.Unlock()
		return ht.h.p.streams == 0 && len(ht.h.p.modern) == 0
	})
}

// TestHTTPConfigValidate: the refused combinations.
func TestHTTPConfigValidate(t *testing.T) {
	cases := []struct {
		cfg  HTTPConfig
		fail string
	}{
		{HTTPConfig{Addr: "127.0.0.1:8765"}, ""},
		{HTTPConfig{Addr: "localhost:0", Auth: "none"}, ""},
		{HTTPConfig{Addr: "0.0.0.0:8765", Auth: "none"}, "only on a loopback"},
		{HTTPConfig{Addr: "0.0.0.0:8765"}, "has no TLS"},
		{HTTPConfig{Addr: "0.0.0.0:8765", Insecure: true}, ""},
		{HTTPConfig{Addr: "0.0.0.0:8765", TLSCert: "c"}, "go together"},
		{HTTPConfig{Addr: "8765"}, "host:port"},
		{HTTPConfig{Addr: "127.0.0.1:99999"}, "port"},
		{HTTPConfig{Addr: "127.0.0.1:1", Auth: "basic"}, "token or none"},
		{HTTPConfig{Addr: "127.0.0.1:1", AllowOrigin: []string{"chatgpt.com"}}, "scheme://host"},
		{HTTPConfig{TLSCert: "c", TLSKey: "k"}, "go with --http"},
		{HTTPConfig{Addr: "127.0.0.1:1", Hosts: []string{"t.example"}}, ""},
		{HTTPConfig{Addr: "127.0.0.1:1", Hosts: []string{"::1"}}, ""},
		{HTTPConfig{Addr: "127.0.0.1:1", Hosts: []string{"t.example:443"}}, "without a port"},
		{HTTPConfig{Addr: "127.0.0.1:1", Hosts: []string{"[::1]:443"}}, "without a port"},
		{HTTPConfig{Addr: "127.0.0.1:1", Hosts: []string{"https://t.example"}}, "without a port"},
		{HTTPConfig{Addr: "127.0.0.1:1", Hosts: []string{"*.trycloudflare.com"}}, "matched exactly, not as a pattern"},
	}
	for _, c := range cases {
		err := c.cfg.validate()
		if (err == nil) != (c.fail == "") || err != nil && !strings.Contains(err.Error(), c.fail) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.fail)
		}
	}
}

// TestHTTPTokenFile: a made token is 256 bits in a 0600 file; a given
// file is read; a readable-by-others or short one is refused.
func TestHTTPTokenFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "tok")
	a, err := newHTTPAuth(p, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if !bearerToken.MatchString(a.token) || fi.Mode().Perm() != 0o600 {
		t.Errorf("token %q (%d characters), mode %v", a.token, len(a.token), fi.Mode().Perm())
	}
	b, err := newHTTPAuth(p, testLogger(t))
	if err != nil || b.token != a.token {
		t.Errorf("read back: %v, %q", err, b.token)
	}
	os.Chmod(p, 0o644)
	if _, err := newHTTPAuth(p, testLogger(t)); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("mode 0644: %v", err)
	}
	short := filepath.Join(dir, "short")
	os.WriteFile(short, []byte("abc"), 0o600)
	if _, err := newHTTPAuth(short, testLogger(t)); err == nil {
		t.Error("a 3-character token was taken")
	}
	d, err := newHTTPAuth("", testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	made := d.Path()
	d.close()
	if _, err := os.Stat(made); err == nil {
		t.Errorf("%s left behind", made)
	}
}

// pinger measures ping round trips of one legacy session while an attack
// runs; stop returns the p99.
type pinger struct {
	mu    sync.Mutex
	times []time.Duration
	fails []string
	stop  chan struct{}
	done  chan struct{}
}

func startPinger(ht *httpTest) *pinger {
	sid := ht.initialize(protoV20251125, "{}")
	p := &pinger{stop: make(chan struct{}), done: make(chan struct{})}
	// A connection per ping: at the connection limit the server closes
	// idle connections, the pinger's kept-alive one among them between
	// two pings, and a POST on a closed one fails with EOF (net/http
	// retries no POST). A new client must still get in.
	c := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	go func() {
		defer close(p.done)
		for i := 0; ; i++ {
			select {
			case <-p.stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			req, _ := http.NewRequest("POST", ht.url, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)))
			req.Header.Set("Authorization", "Bearer "+ht.token)
			req.Header.Set("Mcp-Session-Id", sid)
			req.Header.Set("Content-Type", "application/json")
			start := time.Now()
			resp, err := c.Do(req)
			d := time.Since(start)
			p.mu.Lock()
			if err != nil {
				p.fails = append(p.fails, err.Error())
			} else {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					p.fails = append(p.fails, resp.Status)
				}
				p.times = append(p.times, d)
			}
			p.mu.Unlock()
		}
	}()
	return p
}

// finish stops the pinger; it fails the test when a ping failed or none
// was answered, and returns the p99 and the count.
func (p *pinger) finish(t testing.TB, attack string) {
	t.Helper()
	waitFor(t, func() bool { p.mu.Lock(); defer p.mu.Unlock(); return len(p.times)+len(p.fails) >= 20 })
	close(p.stop)
	<-p.done
	if len(p.fails) > 0 {
		t.Errorf("%s: %d pings failed during the attack, first: %s", attack, len(p.fails), p.fails[0])
	}
	if len(p.times) == 0 {
		t.Errorf("%s: no ping was answered during the attack", attack)
		return
	}
	t.Logf("%s: ping p50 %v, p99 %v over %d pings", attack, percentile(p.times, 0.5), percentile(p.times, 0.99), len(p.times))
}

// openConns returns the connections l tracks as open now.
func openConns(l *connLimiter) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// TestHTTPAttacks: each attack is refused or bounded while another client
// keeps being answered (its ping p99 is logged).
func TestHTTPAttacks(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{}, func(h *httpMCP) {
		h.readHeaderTimeout = 300 * time.Millisecond
		h.writeStall = 300 * time.Millisecond
		h.conns.max = 512
	})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(strings.TrimSuffix(ht.url, "/mcp"), "http://"))
	disc := modernBody(1, "server/discover", nil)
	dh := modernHeaders("server/discover", "")
	refusals := []struct {
		name   string
		url    string
		hdr    map[string]string
		body   io.Reader
		status int
	}{
		{"no token", ht.url, map[string]string{"-Authorization": ""}, nil, 401},
		{"a wrong token", ht.url, map[string]string{"Authorization": "Bearer " + strings.Repeat("A", 43)}, nil, 401},
		{"a wrong path token", ht.url + "/" + strings.Repeat("A", 43), map[string]string{"-Authorization": ""}, nil, 401},
		{"Basic auth", ht.url, map[string]string{"Authorization": "Basic dXNlcjpwYXNz"}, nil, 401},
		{"the token in the query", ht.url + "?access_token=" + ht.token, map[string]string{"-Authorization": ""}, nil, 400},
		{"the token as a query value", ht.url + "?x=" + ht.token, nil, nil, 400},
		{"a foreign Origin", ht.url, map[string]string{"Origin": "https://evil.example.com"}, nil, 403},
		{"an Origin with another port", ht.url, map[string]string{"Origin": "http://127.0.0.1:1"}, nil, 403},
		{"a rebinding Host", ht.url, map[string]string{"Host": "evil.example.com:" + port}, nil, 403},
		{"a 100 MB body", ht.url, nil, io.LimitReader(zeros{}, 100<<20), 413},
		{"another path", strings.TrimSuffix(ht.url, "/mcp") + "/admin", nil, nil, 404},
	}
	p := startPinger(ht)
	for _, c := range refusals {
		body := c.body
		if body == nil {
			body = strings.NewReader(disc)
		}
		req, _ := http.NewRequest("POST", c.url, body)
		for k, v := range dh {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+ht.token)
		for k, v := range c.hdr {
			if name, ok := strings.CutPrefix(k, "-"); ok {
				req.Header.Del(name)
			} else if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		if lr, ok := c.body.(*io.LimitedReader); ok {
			req.ContentLength = lr.N
		}
		resp, err := ht.c.Do(req)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		msgs := messages(t, resp)
		if resp.StatusCode != c.status || len(msgs) != 1 || msgs[0]["error"] == nil {
			t.Errorf("%s: %d %v, want %d with a JSON-RPC error", c.name, resp.StatusCode, msgs, c.status)
		}
	}
	p.finish(t, "refused requests")

	t.Run("idle connections", func(t *testing.T) {
		p := startPinger(ht)
		var conns []net.Conn
		for range 2000 {
			c, err := net.Dial("tcp", "127.0.0.1:"+port)
			if err != nil {
				t.Fatalf("after %d connections: %v", len(conns), err)
			}
			conns = append(conns, c)
		}
		if n := openConns(&ht.h.conns); n > ht.h.conns.max+8 {
			t.Errorf("%d connections open, the limit is %d", n, ht.h.conns.max)
		}
		p.finish(t, "2,000 idle connections")
		for _, c := range conns {
			c.Close()
		}
	})

	t.Run("slowloris", func(t *testing.T) {
		p := startPinger(ht)
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		head := "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nX-Slow: "
		closed := false
		for i := 0; i < 400 && !closed; i++ {
			if _, err := c.Write([]byte{head[min(i, len(head)-1)]}); err != nil {
				closed = true
			}
			time.Sleep(50 * time.Millisecond)
		}
		if !closed {
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, err := c.Read(make([]byte, 1024))
			closed = err != nil
		}
		if !closed {
			t.Error("a client sending its headers a byte at a time was not cut off")
		}
		p.finish(t, "slowloris headers")
	})

	t.Run("a GET stream that never reads", func(t *testing.T) {
		p := startPinger(ht)
		sid := ht.initialize(protoV20251125, "{}")
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.(*net.TCPConn).SetReadBuffer(4096)
		fmt.Fprintf(c, "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nAuthorization: Bearer %s\r\nMcp-Session-Id: %s\r\nAccept: text/event-stream\r\n\r\n", port, ht.token, sid)
		s := ht.session(sid)
		waitFor(t, func() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.get != nil })
		for i := range 8 {
			r := ht.do("POST", fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_flood","arguments":{"n":64,"size":65536}}}`, i+2), map[string]string{"Mcp-Session-Id": sid})
			messages(t, r)
		}
		waitFor(t, func() bool {
			s.mu.Lock()
			defer s.mu.Unlock()
			return s.get == nil
		})
		p.finish(t, "a GET stream that never reads")
	})
}

func (ht *httpTest) session(id string) *httpSession { return ht.h.session(id) }

// zeros is an endless reader of '0'.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}

// noBody in a case's code: the response has no body.
const noBody = 1

// TestHTTPCancel: a legacy notifications/cancelled ends the POST stream
// of the request it names with no response; closing a 2026-07-28 stream
// cancels its request.
func TestHTTPCancel(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{}, nil)
	sid := ht.initialize(protoV20251125, "{}")
	s := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": protoV20251125}
	done := make(chan []map[string]any, 1)
	go func() {
		done <- messages(t, ht.do("POST", `{"jsonrpc":"2.0","id":"b1","method":"tools/call","params":{"name":"test_block"}}`, s))
	}()
	<-httpBlocked
	if r := ht.do("POST", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b1"}}`, s); r.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %d", r.StatusCode)
	}
	<-httpUnblocked
	if msgs := <-done; len(msgs) != 0 {
		t.Errorf("a cancelled request got %v", msgs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ht.url, strings.NewReader(modernBody(2, "tools/call", map[string]any{"name": "test_block"})))
	for k, v := range modernHeaders("tools/call", "test_block") {
		req.Header.Set(k, v)
	}
	req.Header.Set("Authorization", "Bearer "+ht.token)
	req.Header.Set("Content-Type", "application/json")
	errc := make(chan error, 1)
	go func() {
		resp, err := ht.c.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	<-httpBlocked
	cancel()
	<-httpUnblocked
	<-errc
}

// TestHTTPOptions: TLS with the certificate's names, CORS for an allowed
// origin, no auth on loopback, the failure limit, idle sessions ending.
func TestHTTPOptions(t *testing.T) {
	cert, key := selfSigned(t, "mcp.test")
	ht := startHTTP(t, HTTPConfig{TLSCert: cert, TLSKey: key, AllowOrigin: []string{"https://app.example.com"}}, func(h *httpMCP) { h.sessionIdle = 200 * time.Millisecond })
	if !strings.HasPrefix(ht.url, "https://") {
		t.Fatalf("url %s", ht.url)
	}
	ht.c.Transport = &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} // the test's own certificate
	disc, dh := modernBody(1, "server/discover", nil), modernHeaders("server/discover", "")
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(ht.url, "https://"), "/mcp"))
	cases := []struct {
		name   string
		hdr    map[string]string
		method string
		status int
		acao   string // Access-Control-Allow-Origin
	}{
		{"over TLS", dh, "POST", 200, ""},
		{"the certificate's name", map[string]string{"Host": "mcp.test:" + port, "Mcp-Method": "server/discover", "MCP-Protocol-Version": protoV20260728}, "POST", 200, ""},
		{"an allowed origin", map[string]string{"Origin": "https://app.example.com", "Mcp-Method": "server/discover", "MCP-Protocol-Version": protoV20260728}, "POST", 200, "https://app.example.com"},
		{"its preflight", map[string]string{"Origin": "https://app.example.com", "-Authorization": ""}, "OPTIONS", 204, "https://app.example.com"},
		{"http origin of the server over https", map[string]string{"Origin": "http://127.0.0.1:" + port, "Mcp-Method": "server/discover", "MCP-Protocol-Version": protoV20260728}, "POST", 403, ""},
		{"the server's own origin", map[string]string{"Origin": "https://127.0.0.1:" + port, "Mcp-Method": "server/discover", "MCP-Protocol-Version": protoV20260728}, "POST", 200, ""},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, ht.url, strings.NewReader(disc))
		req.Header.Set("Authorization", "Bearer "+ht.token)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range c.hdr {
			switch name, del := strings.CutPrefix(k, "-"); {
			case del:
				req.Header.Del(name)
			case k == "Host":
				req.Host = v
			default:
				req.Header.Set(k, v)
			}
		}
		resp, err := ht.c.Do(req)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != c.status || resp.Header.Get("Access-Control-Allow-Origin") != c.acao {
			t.Errorf("%s: %d, CORS %q; want %d, %q", c.name, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), c.status, c.acao)
		}
	}
	sid := ht.initialize(protoV20251125, "{}")
	waitFor(t, func() bool { return ht.session(sid) == nil }) // idle for sessionIdle

	bad := &httpTest{t: t, h: ht.h, url: ht.url, token: strings.Repeat("B", 43), c: ht.c}
	got := map[int]int{}
	for range authFailBurst + 3 {
		r := bad.do("POST", disc, dh)
		r.Body.Close()
		got[r.StatusCode]++
	}
	if got[401] != authFailBurst || got[429] != 3 {
		t.Errorf("failed attempts: %v, want %d 401 then 429", got, authFailBurst)
	}
	if r := ht.do("POST", disc, dh); r.StatusCode != 200 {
		t.Errorf("the right token after the failures: %d", r.StatusCode)
	}

	open := startHTTP(t, HTTPConfig{Auth: "none"}, nil)
	if r := open.do("POST", disc, dh); r.StatusCode != 200 {
		t.Errorf("--http-auth=none: %d", r.StatusCode)
	}
}

// TestHTTPFlags: the flags reach HTTPConfig and are checked together.
func TestHTTPFlags(t *testing.T) {
	cfg, _, err := parseConfig([]string{"--http", "127.0.0.1:0", "--http-allow-origin", "https://a.example", "--http-host", "t.example", "--http-host", "u.example", "--http-insecure"}, func(string) string { return "" }, io.Discard)
	if err != nil || cfg.HTTP.Addr != "127.0.0.1:0" || len(cfg.HTTP.Hosts) != 2 || cfg.HTTP.AllowOrigin[0] != "https://a.example" || !cfg.HTTP.Insecure {
		t.Errorf("%+v, %v", cfg.HTTP, err)
	}
	env := map[string]string{"TTYWRIGHT_HTTP": "0.0.0.0:1", "TTYWRIGHT_HTTP_AUTH": "none"}
	if _, _, err := parseConfig(nil, func(k string) string { return env[k] }, io.Discard); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("no auth off loopback from the environment: %v", err)
	}
}

// selfSigned writes a certificate for name and 127.0.0.1 and its key.
func selfSigned(t *testing.T, name string) (certFile, keyFile string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalPKCS8PrivateKey(k)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600)
	return certFile, keyFile
}

// TestHTTPWWWAuthenticate: a 401 says how to authenticate; with a wrong
// credential it says error="invalid_token" (RFC 6750 §3.1), without one
// no error code.
func TestHTTPWWWAuthenticate(t *testing.T) {
	t.Parallel()
	ht := startHTTP(t, HTTPConfig{}, nil)
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tc := range []struct {
		name string
		hdr  map[string]string
		want string
	}{
		{"none", map[string]string{"-Authorization": ""}, `Bearer realm="ttywright"`},
		{"wrong", map[string]string{"Authorization": "Bearer nope-nope-nope-nope-nope-nope-nope"}, `error="invalid_token"`},
	} {
		resp := ht.do("POST", ping, tc.hdr)
		resp.Body.Close()
		got := resp.Header.Get("WWW-Authenticate")
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(got, tc.want) || tc.name == "none" && strings.Contains(got, "error=") {
			t.Errorf("%s: %d %q, want 401 with %s", tc.name, resp.StatusCode, got, tc.want)
		}
	}
}
