package main

// mcp_test.go: the MCP layer: version negotiation, capabilities, tools/list
// per version, tools/call results, strict argument binding, logging, the
// call log; BenchmarkInitializeToolsList.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestInitializeNegotiation(t *testing.T) {
	tests := []struct {
		asked, want string
		title       bool // serverInfo.title and 2025-06-18 fields
		completions bool
	}{
		{"2024-11-05", "2024-11-05", false, false},
		{"2025-03-26", "2025-03-26", false, true},
		{"2025-06-18", "2025-06-18", true, true},
		{"2025-11-25", "2025-11-25", true, true},
		{"1999-01-01", "2025-11-25", true, true},
		{"", "2025-11-25", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.asked, func(t *testing.T) {
			c := startServer(t)
			res := c.initialize(tt.asked)
			if got := res["protocolVersion"]; got != tt.want {
				t.Errorf("protocolVersion %v, want %s", got, tt.want)
			}
			info, _ := res["serverInfo"].(map[string]any)
			if info["name"] != "ttywright" || info["version"] == "" {
				t.Errorf("serverInfo %v", info)
			}
			if _, ok := info["title"]; ok != tt.title {
				t.Errorf("serverInfo.title present: %v, want %v", ok, tt.title)
			}
			caps, _ := res["capabilities"].(map[string]any)
			for _, k := range []string{"tools", "resources", "prompts", "logging"} {
				if caps[k] == nil {
					t.Errorf("capability %s missing: %v", k, caps)
				}
			}
			if _, ok := caps["completions"]; ok != tt.completions {
				t.Errorf("completions capability present: %v, want %v", ok, tt.completions)
			}
			if r, _ := caps["resources"].(map[string]any); r["subscribe"] != true || r["listChanged"] != true {
				t.Errorf("resources capability %v", r)
			}
			if s, _ := res["instructions"].(string); !strings.Contains(s, "shell_start") || !strings.Contains(s, "text:") || !strings.Contains(s, "keys:") {
				t.Errorf("instructions do not teach shell_start, text and keys: %q", s)
			}
		})
	}
}

func TestToolsListPerVersion(t *testing.T) {
	for _, v := range protocolVersions {
		t.Run(v, func(t *testing.T) {
			c := startServer(t, echoTool)
			c.initialize(v)
			r := c.request(1, "tools/list", nil)
			var res struct {
				Tools      []map[string]json.RawMessage
				NextCursor *string
			}
			if err := json.Unmarshal(r.Result, &res); err != nil || r.Error != nil {
				t.Fatalf("tools/list: %v %+v", err, r.Error)
			}
			if res.NextCursor != nil {
				t.Errorf("nextCursor %q on a single page", *res.NextCursor)
			}
			var echo map[string]json.RawMessage
			for _, tool := range res.Tools {
				if !strings.HasPrefix(string(tool["inputSchema"]), "{") || !strings.Contains(string(tool["inputSchema"]), `"type":"object"`) {
					t.Errorf("tool %s: inputSchema %s", tool["name"], tool["inputSchema"])
				}
				if string(tool["name"]) == `"test_echo"` {
					echo = tool
				}
			}
			if echo == nil {
				t.Fatal("test_echo not listed")
			}
			for field, since := range map[string]string{"title": protoV20250618, "outputSchema": protoV20250618, "annotations": protoV20250326} {
				if _, ok := echo[field]; ok != protoAtLeast(v, since) {
					t.Errorf("%s present: %v, want %v", field, ok, protoAtLeast(v, since))
				}
			}
			if a := string(echo["annotations"]); a != "" && !strings.Contains(a, `"readOnlyHint":true`) {
				t.Errorf("annotations %s", a)
			}
		})
	}
}

// TestRealToolsListed: every tool of App.tools has a valid name, a
// description and an object input schema (checked again as tools land).
func TestRealToolsListed(t *testing.T) {
	c := startServer(t)
	c.initialize("2025-06-18")
	r := c.request(1, "tools/list", nil)
	var res struct{ Tools []toolInfo }
	json.Unmarshal(r.Result, &res)
	if want := goldenToolNames(t); len(res.Tools) != len(want) {
		t.Errorf("%d tools, want the %d of testdata/tools/list.json", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		if tool.Name == "" || len(tool.Name) > 128 || strings.Trim(tool.Name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != "" {
			t.Errorf("bad tool name %q", tool.Name)
		}
		if tool.InputSchema["type"] != "object" {
			t.Errorf("%s: inputSchema type %v, want object", tool.Name, tool.InputSchema["type"])
		}
		if tool.OutputSchema != nil && tool.OutputSchema["type"] != "object" {
			t.Errorf("%s: outputSchema type %v, want object", tool.Name, tool.OutputSchema["type"])
		}
	}
}

func TestToolCallResults(t *testing.T) {
	linkTool := &Tool{Name: "test_link", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		return &ToolResult{Structured: map[string]any{"ok": true}, Extra: []Content{
			{Type: "image", Data: "iVBORw0KGgo=", MimeType: "image/png"},
			{Type: "resource_link", URI: "session://s1/screenshots/a", Name: "a", MimeType: "image/png"},
		}}
	}}
	textTool := &Tool{Name: "test_text", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		return &ToolResult{Text: "line 1\nline 2", Structured: map[string]any{"text": "line 1\nline 2"}}
	}}
	nilTool := &Tool{Name: "test_nil", Handle: func(ctx context.Context, call *ToolCall) *ToolResult { return nil }}
	tests := []struct {
		version, tool string
		want          string // the result, exactly
	}{
		{"2025-06-18", "test_link", `{"content":[{"type":"text","text":"{\"ok\":true}"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},{"type":"resource_link","uri":"session://s1/screenshots/a","name":"a","mimeType":"image/png"}],"structuredContent":{"ok":true},"isError":false}`},
		{"2025-03-26", "test_link", `{"content":[{"type":"text","text":"{\"ok\":true}"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}],"isError":false}`},
		{"2025-11-25", "test_text", `{"content":[{"type":"text","text":"line 1\nline 2"}],"structuredContent":{"text":"line 1\nline 2"},"isError":false}`},
		{"2024-11-05", "test_text", `{"content":[{"type":"text","text":"line 1\nline 2"},{"type":"text","text":"{\"text\":\"line 1\\nline 2\"}"}],"isError":false}`},
		{"2025-06-18", "test_nil", `{"content":[{"type":"text","text":"test_nil returned no result; this is a ttywright bug, please report it"}],"isError":true}`},
		{"2025-06-18", "test_panic", `{"content":[{"type":"text","text":"test_panic failed with an internal error (boom); this is a ttywright bug, please report it, and retry or use another approach"}],"isError":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.version+"/"+tt.tool, func(t *testing.T) {
			c := startServer(t, linkTool, textTool, nilTool, panicTool)
			c.initialize(tt.version)
			r := c.request(1, "tools/call", map[string]any{"name": tt.tool, "arguments": map[string]any{}})
			if string(r.Result) != tt.want {
				t.Errorf("got  %s\nwant %s", r.Result, tt.want)
			}
		})
	}
}

func TestBindStrict(t *testing.T) {
	tests := []struct {
		name, args string
		want       string // "" = success; else a substring of the isError text
	}{
		{"ok", `{"s":"x","n":3}`, ""},
		{"unknown argument", `{"s":"x","sz":1}`, `test_echo: unknown argument "sz": the arguments are n, s`},
		{"wrong type", `{"s":5}`, `test_echo: argument "s" must be a string, not number`},
		{"fraction for an integer", `{"s":"x","n":1.5}`, `argument "n" must be an integer, not number 1.5`},
		{"missing required", `{"n":1}`, `test_echo: missing required argument "s" (the text to echo): add it and call again`},
		{"null required", `{"s":null}`, `missing required argument "s"`},
	}
	c := startServer(t, echoTool)
	c.initialize("2025-06-18")
	for i, tt := range tests {
		c.sendf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_echo","arguments":%s}}`, i, tt.args)
		r := c.recvResponse()
		var res callResult
		if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("%s: %v %s %+v", tt.name, err, r.Result, r.Error)
		}
		if tt.want == "" {
			if res.IsError {
				t.Errorf("%s: unexpected error %q", tt.name, res.Content[0].Text)
			}
			continue
		}
		if !res.IsError || !strings.Contains(res.Content[0].Text, tt.want) {
			t.Errorf("%s: got %q (isError %v), want %q", tt.name, res.Content[0].Text, res.IsError, tt.want)
		}
	}
}

// TestBindErrorWithoutResult: a handler that returns nil after a failed
// Bind gets the Bind error as its result.
func TestBindErrorWithoutResult(t *testing.T) {
	lazy := &Tool{Name: "test_lazy", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		var in struct{}
		if call.Bind(&in) != nil {
			return nil
		}
		return &ToolResult{Text: "ok"}
	}}
	c := startServer(t, lazy)
	c.initialize("2025-06-18")
	r := c.request(1, "tools/call", map[string]any{"name": "test_lazy", "arguments": map[string]any{"x": 1}})
	if want := `"test_lazy: unknown argument \"x\": this tool takes no arguments"`; !strings.Contains(string(r.Result), want) {
		t.Errorf("got %s, want it to contain %s", r.Result, want)
	}
}

func TestLogging(t *testing.T) {
	logTool := &Tool{Name: "test_log", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		return &ToolResult{Text: "logged"}
	}}
	c := startServer(t, logTool)
	app := c.app.hub
	app.log("error", "test", "before initialize: not sent")
	c.initialize("2025-06-18")

	app.log("debug", "test", "below the default level: not sent")
	app.log("warning", "pty", map[string]any{"msg": "sent"})
	if r := c.recvReply(); r.Method != "notifications/message" || string(r.Params) != `{"data":{"msg":"sent"},"level":"warning","logger":"pty"}` {
		t.Errorf("log message: %s %s", r.Method, r.Params)
	}
	if r := c.request(1, "logging/setLevel", map[string]any{"level": "error"}); r.Error != nil || string(r.Result) != "{}" {
		t.Errorf("setLevel: %+v", r)
	}
	app.log("warning", "pty", "below error now: not sent")
	app.log("critical", "", "sent")
	if r := c.recvReply(); string(r.Params) != `{"data":"sent","level":"critical"}` {
		t.Errorf("log message: %s %s", r.Method, r.Params)
	}
	if r := c.request(2, "ping", nil); r.Error != nil {
		t.Error(r.Error)
	}

	// At debug, every tool call is logged before its response.
	c.request(3, "logging/setLevel", map[string]any{"level": "debug"})
	c.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"test_log"}}`)
	r := c.recvReply()
	var m struct {
		Level, Logger string
		Data          map[string]any
	}
	json.Unmarshal(r.Params, &m)
	if r.Method != "notifications/message" || m.Level != "debug" || m.Logger != "tools" || m.Data["tool"] != "test_log" || m.Data["isError"] != false {
		t.Errorf("debug log of a call: %s %s", r.Method, r.Params)
	}
	if r := c.recvReply(); string(r.ID) != "4" {
		t.Errorf("after the debug log: %+v, want the response to 4", r)
	}
}

func TestCallLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	l, err := openCallLog(path)
	if err != nil {
		t.Fatal(err)
	}
	c := startServerWith(t, func(s *Server) { s.calls = l; s.tools = append(s.tools, echoTool) })
	c.initialize("2025-06-18")
	c.request(1, "tools/call", map[string]any{"name": "test_echo", "arguments": map[string]any{"s": "hello"}})
	c.request(2, "tools/call", map[string]any{"name": "test_echo", "arguments": map[string]any{"s": strings.Repeat("x", maxLoggedInput)}})
	c.request(3, "tools/call", map[string]any{"name": "test_echo", "arguments": map[string]any{}})
	c.request(4, "tools/call", map[string]any{"name": "test_echo", "arguments": map[string]any{"s": "x", "env": map[string]string{"GH_TOKEN": "ghp_secret77", "LANG": "C"}}})
	c.close()
	l.Close()

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var entries []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		entries = append(entries, e)
	}
	if len(entries) != 4 {
		t.Fatalf("%d log entries, want 4", len(entries))
	}
	if b, _ := json.Marshal(entries[3]["input"]); strings.Contains(string(b), "ghp_secret77") || !strings.Contains(string(b), `"LANG":"C"`) {
		t.Errorf("entry 3 keeps a secret-looking env value, or lost the rest: %s", b)
	}
	for _, k := range []string{"time", "tool", "input", "output", "duration_ms", "isError"} {
		if _, ok := entries[0][k]; !ok {
			t.Errorf("log entry lacks %q: %v", k, entries[0])
		}
	}
	if in, _ := entries[0]["input"].(map[string]any); in["s"] != "hello" || entries[0]["tool"] != "test_echo" {
		t.Errorf("entry 0: %v", entries[0])
	}
	if in, _ := entries[1]["input"].(string); !strings.Contains(in, "bytes of arguments") {
		t.Errorf("a long input is not summarised: %.100v", entries[1]["input"])
	}
	if entries[2]["isError"] != true || entries[0]["isError"] != false {
		t.Errorf("isError: %v, %v", entries[0]["isError"], entries[2]["isError"])
	}
}

func TestContentRequiredFields(t *testing.T) {
	tests := []struct {
		c    Content
		want string
	}{
		{Content{Type: "text"}, `{"type":"text","text":""}`},
		{Content{Type: "text", Text: "<b>&"}, `{"type":"text","text":"<b>&"}`},
		{Content{Type: "image"}, `{"type":"image","data":"","mimeType":""}`},
		{Content{Type: "resource_link", URI: "theme://nord", Name: "nord", Size: 3}, `{"type":"resource_link","uri":"theme://nord","name":"nord","size":3}`},
		{Content{Type: "other", Text: "t"}, `{"type":"other","text":"t"}`},
	}
	for _, tt := range tests {
		b, err := encodeLine(tt.c) // as responses are encoded: no HTML escaping
		if b = bytes.TrimSuffix(b, []byte("\n")); err != nil || string(b) != tt.want {
			t.Errorf("%+v: got %s %v, want %s", tt.c, b, err, tt.want)
		}
	}
}

// TestBeforeInitialized: a client that skips notifications/initialized is
// still served once it has sent initialize.
func TestBeforeInitialized(t *testing.T) {
	c := startServer(t)
	c.request(1, "initialize", map[string]any{"protocolVersion": "2025-06-18"})
	if r := c.request(2, "tools/list", nil); r.Error != nil {
		t.Errorf("tools/list without notifications/initialized: %+v", r.Error)
	}
}

// BenchmarkInitializeToolsList measures a full session start over pipes:
// a new server, initialize, notifications/initialized, tools/list, EOF.
func BenchmarkInitializeToolsList(b *testing.B) {
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"
	var n int64
	for b.Loop() {
		srv := newApp(Config{}).newServer()
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		go func() {
			srv.Serve(context.Background(), inR, outW)
			outW.Close()
		}()
		br := bufio.NewReader(outR)
		io.WriteString(inW, in)
		for range 2 {
			line, err := br.ReadBytes('\n')
			if err != nil {
				b.Fatal(err)
			}
			n += int64(len(line))
		}
		inW.Close()
		io.Copy(io.Discard, br)
	}
	b.SetBytes(n / int64(b.N))
	b.ReportMetric(float64(n)/float64(b.N), "resp-bytes/op")
}

// TestProtocolVersionsSorted: protocolVersions is oldest first (the dates
// sort as strings), and protoAtLeast follows its order.
func TestProtocolVersionsSorted(t *testing.T) {
	if !slices.IsSorted(protocolVersions) || len(slices.Compact(slices.Clone(protocolVersions))) != len(protocolVersions) {
		t.Errorf("protocolVersions not in order: %v", protocolVersions)
	}
	tests := []struct {
		v, want string
		ok      bool
	}{
		{protoV20241105, protoV20241105, true},
		{protoV20241105, protoV20250326, false},
		{protoV20250618, protoV20250326, true},
		{protoV20250618, protoV20250618, true},
		{protoV20251125, protoV20250618, true},
		{protoV20250326, protoV20250618, false},
		{"", protoV20241105, false},           // before initialize
		{"2099-01-01", protoV20241105, false}, // never negotiated
	}
	for _, tt := range tests {
		if got := protoAtLeast(tt.v, tt.want); got != tt.ok {
			t.Errorf("protoAtLeast(%q, %q) = %v, want %v", tt.v, tt.want, got, tt.ok)
		}
	}
}

// TestScenarios replays the conversations in testdata/protocol/*.txt
// against a server with the test tools only (so the goldens do not change
// when the real tools do). Each client line is handled to completion
// before the next, so the server stream is deterministic. Regenerate with
// -update.
func TestScenarios(t *testing.T) {
	files, _ := filepath.Glob("testdata/protocol/*.txt")
	if len(files) == 0 {
		t.Fatal("no scenarios in testdata/protocol")
	}
	linkTool := &Tool{Name: "test_link", Title: "Link", Description: "returns a resource link",
		Output: map[string]any{"type": "object"}, Destructive: true,
		Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
			return &ToolResult{Structured: map[string]any{"ok": true}, Extra: []Content{
				{Type: "resource_link", URI: "session://s1/screenshots/a", Name: "a", MimeType: "image/png"}}}
		}}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := parseScenario(string(data))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			var out bytes.Buffer
			srv := newApp(Config{}).newServer()
			srv.tools = []*Tool{echoTool, progressTool, panicTool, linkTool}
			srv.out.setOutput(&out)
			for _, line := range sc.client {
				srv.handleLine(context.Background(), []byte(line))
				srv.wg.Wait()
			}
			// A duration is the machine's, not the protocol's: it is
			// compared as 0 (a loaded machine took 1 ms for a log line's).
			got := strings.Split(strings.TrimSuffix(scenarioDuration.ReplaceAllString(out.String(), `"duration_ms":0`), "\n"), "\n")
			if *update {
				if err := os.WriteFile(file, []byte(sc.format(got)), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for i := range max(len(got), len(sc.server)) {
				var g, w string
				if i < len(got) {
					g = got[i]
				}
				if i < len(sc.server) {
					w = sc.server[i]
				}
				if g != w {
					t.Errorf("%s: server line %d:\ngot  %s\nwant %s", file, i+1, g, w)
				}
			}
		})
	}
}

// TestUnknownArgumentEveryTool: every shell_* tool refuses an unknown
// argument with one "<tool>: " prefix (not two), and its input schema says
// so with additionalProperties false.
func TestUnknownArgumentEveryTool(t *testing.T) {
	c := startServer(t)
	c.initialize("2025-06-18")
	for i, tool := range c.srv.tools {
		if !strings.HasPrefix(tool.Name, "shell_") {
			continue
		}
		if ap, ok := tool.Input["additionalProperties"]; !ok || ap != false {
			t.Errorf("%s: input schema additionalProperties = %v, want false", tool.Name, ap)
		}
		r := c.request(100+i, "tools/call", map[string]any{"name": tool.Name, "arguments": map[string]any{"session_id": "x", "bogus": 1}})
		var res callResult
		if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) == 0 {
			t.Fatalf("%s: %v %s", tool.Name, err, r.Result)
		}
		text := res.Content[0].Text
		want := tool.Name + `: unknown argument "bogus"`
		if !res.IsError || !strings.HasPrefix(text, want) {
			t.Errorf("%s: got %q, want it to start with %q", tool.Name, text, want)
		}
	}
}

// TestUnknownNestedField: an unknown field inside an object argument is
// named as such, not as a top-level argument.
func TestUnknownNestedField(t *testing.T) {
	c := startServer(t)
	c.initialize("2025-06-18")
	r := c.request(1, "tools/call", map[string]any{"name": "shell_screenshot", "arguments": map[string]any{"session_id": "x", "border": map[string]any{"foo": 1}}})
	var res callResult
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Content) == 0 {
		t.Fatalf("%v %s", err, r.Result)
	}
	want := `shell_screenshot: unknown field "foo" inside an object argument`
	if !res.IsError || !strings.HasPrefix(res.Content[0].Text, want) {
		t.Errorf("got %q, want it to start with %q", res.Content[0].Text, want)
	}
}

// TestLogRateLimit: notifications/message passes a burst of logBurst, then
// logRate a second (a fake clock); the rest is dropped and announced once,
// at the most severe dropped level, before the next message that goes out.
func TestLogRateLimit(t *testing.T) {
	type step struct {
		after time.Duration // fake time passed before this step
		n     int           // messages logged
		level string
	}
	tests := []struct {
		name    string
		steps   []step
		sent    int      // messages delivered, summaries not counted
		summary []string // summaries, as "level: data"
	}{
		{"burst fits", []step{{0, logBurst, "info"}}, logBurst, nil},
		{"flood then silence", []step{{0, logBurst + 50, "info"}}, logBurst, nil},
		{"flood then resume", []step{{0, logBurst + 50, "info"}, {time.Second, 1, "info"}}, logBurst + 1,
			[]string{"info: 50 messages dropped (log messages are limited to 100 at once, then 20 a second)"}},
		{"worst level kept", []step{{0, logBurst, "info"}, {0, 3, "warning"}, {0, 2, "error"}, {0, 4, "info"}, {time.Second, 1, "debug"}},
			logBurst + 1, []string{"error: 9 messages dropped (log messages are limited to 100 at once, then 20 a second)"}},
		{"steady rate", func() []step {
			st := []step{{0, logBurst, "info"}}
			for range 100 {
				st = append(st, step{time.Second / logRate, 1, "info"})
			}
			return st
		}(), logBurst + 100, nil},
		{"refill is capped at the burst", []step{{time.Hour, logBurst + 1, "info"}, {time.Second / logRate, 1, "info"}}, logBurst + 1,
			[]string{"info: 1 messages dropped (log messages are limited to 100 at once, then 20 a second)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			srv := newApp(Config{}).newServer()
			srv.out.setOutput(&out)
			srv.version = "2025-06-18"
			srv.level = 0 // debug
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			srv.logLim.now = func() time.Time { return now }
			for _, st := range tt.steps {
				now = now.Add(st.after)
				for range st.n {
					srv.log(st.level, "test", "m")
				}
			}
			sent := 0
			var summary []string
			sc := bufio.NewScanner(&out)
			for sc.Scan() {
				var m struct {
					Params struct {
						Level, Logger string
						Data          any
					}
				}
				if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
					t.Fatal(err)
				}
				if m.Params.Logger == "test" {
					sent++
				} else {
					summary = append(summary, m.Params.Level+": "+m.Params.Data.(string))
				}
			}
			if sent != tt.sent || !slices.Equal(summary, tt.summary) {
				t.Errorf("sent %d, summaries %q; want %d, %q", sent, summary, tt.sent, tt.summary)
			}
		})
	}
}

// TestResultFieldsByVersion: resources/list, resources/templates/list,
// resources/read and prompts/list carry only the fields the negotiated
// version defines (MCP schema/<version>/schema.ts): title and
// annotations.lastModified came in 2025-06-18, as did _meta; icons in
// 2025-11-25.
// resultFields are the fields each object kind may have in version v:
// those of 2024-11-05 and 2025-03-26, and what later versions added.
func resultFields(v string) map[string][]string {
	base := map[string][]string{
		"resource":    {"uri", "name", "description", "mimeType", "size", "annotations"},
		"template":    {"uriTemplate", "name", "description", "mimeType", "annotations"},
		"annotations": {"audience", "priority"},
		"contents":    {"uri", "mimeType", "text", "blob"},
		"prompt":      {"name", "description", "arguments"},
	}
	added := map[string]map[string][]string{
		protoV20250618: {"resource": {"title", "_meta"}, "template": {"title", "_meta"}, "annotations": {"lastModified"},
			"contents": {"_meta"}, "prompt": {"title", "_meta"}},
		protoV20251125: {"resource": {"icons"}, "template": {"icons"}, "prompt": {"icons"}},
	}
	allowed := map[string][]string{}
	for kind, fields := range base {
		allowed[kind] = slices.Clone(fields)
		for since, add := range added {
			if protoAtLeast(v, since) {
				allowed[kind] = append(allowed[kind], add[kind]...)
			}
		}
	}
	return allowed
}

func TestResultFieldsByVersion(t *testing.T) {
	for _, tt := range []struct {
		version string
		title   bool // the server has titles and times to send: they must come when defined
	}{
		{protoV20241105, false},
		{protoV20250326, false},
		{protoV20250618, true},
		{protoV20251125, true},
	} {
		t.Run(tt.version, func(t *testing.T) {
			allowed := resultFields(tt.version)
			c := startServer(t)
			s := addRecSession(c.app, "s1", 20, 4)
			// A capture is listed while its file exists.
			png := filepath.Join(c.app.cfg.OutputDir, "s1", "a.png")
			if err := os.MkdirAll(filepath.Dir(png), 0o700); err != nil || os.WriteFile(png, make([]byte, 10), 0o600) != nil {
				t.Fatal(err)
			}
			s.AddScreenshot(Capture{Name: "a", URI: "session://s1/screenshots/a", MimeType: "image/png", Path: png,
				Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Bytes: 10, Width: 160, Height: 64})
			c.initialize(tt.version)

			var titles, times int
			var check func(what, kind string, obj map[string]any)
			check = func(what, kind string, obj map[string]any) {
				t.Helper()
				for k, v := range obj {
					if !slices.Contains(allowed[kind], k) {
						t.Errorf("%s: field %q is not in the %s of %s", what, k, kind, tt.version)
					}
					if k == "title" {
						titles++
					}
					if an, ok := v.(map[string]any); ok && k == "annotations" {
						if _, ok := an["lastModified"]; ok {
							times++
						}
						check(what+".annotations", "annotations", an)
					}
				}
			}
			list := func(id int, method, key, kind string) {
				r := c.request(id, method, nil)
				var res map[string][]map[string]any
				if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || len(res[key]) == 0 {
					t.Fatalf("%s: %s %+v", method, r.Result, r.Error)
				}
				for _, obj := range res[key] {
					check(method+" "+fmt.Sprint(obj["name"]), kind, obj)
				}
			}
			list(1, "resources/list", "resources", "resource")
			list(2, "resources/templates/list", "resourceTemplates", "template")
			list(3, "prompts/list", "prompts", "prompt")
			for i, uri := range []string{"sessions://list", "session://s1/info", "theme://one-dark"} {
				r := c.request(10+i, "resources/read", map[string]any{"uri": uri})
				var res struct{ Contents []map[string]any }
				if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || len(res.Contents) != 1 {
					t.Fatalf("resources/read %s: %s %+v", uri, r.Result, r.Error)
				}
				check("resources/read "+uri, "contents", res.Contents[0])
			}
			if tt.title && (titles == 0 || times == 0) {
				t.Errorf("%s: %d titles and %d lastModified sent, want some", tt.version, titles, times)
			}
		})
	}
}

// scenarioDuration matches a duration_ms field in a scenario's output.
var scenarioDuration = regexp.MustCompile(`"duration_ms":[0-9]+`)

// TestMissingParamsNameTheFields: a request without params for a method
// that needs them gets that method's own -32602, which names the fields
// to send, as for {}.
func TestMissingParamsNameTheFields(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	c.initialize("2025-06-18")
	for i, tc := range []struct{ method, want string }{
		{"tools/call", `"name": "<tool>", "arguments"`},
		{"resources/read", "uri is missing"},
		{"logging/setLevel", "use one of debug"},
		{"prompts/get", "name"},
	} {
		r := c.rpc(100+i, tc.method, nil)
		if r.Error == nil || r.Error.Code != codeInvalidParams || !strings.Contains(r.Error.Message, tc.want) {
			t.Errorf("%s without params: %+v, want -32602 naming %q", tc.method, r.Error, tc.want)
		}
	}
}

// TestCallLogKeepsNoPageURL: --log-path keeps what a call's step keeps,
// as a trace does: shell_ask_secret's page URL (in its reply's text, for
// a client that cannot show it) and a screen are not in the log.
func TestCallLogKeepsNoPageURL(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "calls.jsonl")
	l, err := openCallLog(path)
	if err != nil {
		t.Fatal(err)
	}
	const url = "http://127.0.0.1:4242/secret/SECRETTOKEN"
	in := askSecretArgs{SessionID: "shell-1", Message: "sudo"}
	out := askSecretResult{URL: url, BufferAfter: "[sudo] password for me:", text: "Open " + url}
	v := askSecretStep(in, out)
	res := &ToolResult{Text: out.text, Structured: out, step: &v}
	l.record("shell_ask_secret", json.RawMessage(`{"session_id":"shell-1","message":"sudo"}`), res, renderResult(protoV20251125, res), time.Millisecond)
	l.Close()
	b, _ := os.ReadFile(path)
	if bytes.Contains(b, []byte("SECRETTOKEN")) || bytes.Contains(b, []byte("password for me")) {
		t.Errorf("the log keeps the page's URL or the screen:\n%s", b)
	}
	if !bytes.Contains(b, []byte(`"sum":"sudo (a page offered to the person)"`)) {
		t.Errorf("the log lacks the step's line:\n%s", b)
	}
}
