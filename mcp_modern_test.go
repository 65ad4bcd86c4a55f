package main

// mcp_modern_test.go: the 2026-07-28 era over the stdio framing (Serve on
// pipes, and the binary): the conformance suite's stateless checks, listen
// streams, the notification rules, and both eras on one process. The wire
// shapes of single requests are pinned by testdata/protocol/modern-*.txt.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// envelope returns params._meta for a 2026-07-28 request; extra keys
// (logLevel, progressToken) are merged in.
func envelope(extra map[string]any) map[string]any {
	m := map[string]any{
		metaProtocolVersion:    protoV20260728,
		metaClientCapabilities: map[string]any{},
		metaClientInfo:         map[string]any{"name": "test", "version": "1"},
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// modernParams returns params with the envelope added.
func modernParams(params map[string]any) map[string]any {
	out := map[string]any{"_meta": envelope(nil)}
	for k, v := range params {
		out[k] = v
	}
	return out
}

// wire records every line a server sends while a test drives it: do sends
// a request and reads up to its response, keeping the notifications.
type wire struct {
	c    *testClient
	log  []reply      // every message received, in order
	used map[int]bool // indexes in log until returned
}

// do sends a request with id and returns its response.
func (w *wire) do(id any, method string, params any) reply {
	w.c.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	w.c.sendMsg(msg)
	want, _ := json.Marshal(id)
	for {
		r := w.c.recvReply()
		w.log = append(w.log, r)
		if r.Method == "" && string(r.ID) == string(want) {
			return r
		}
	}
}

// until returns the first message that satisfies ok and no earlier
// until returned: from those do has logged already, else read anew.
func (w *wire) until(ok func(reply) bool) reply {
	w.c.t.Helper()
	if w.used == nil {
		w.used = map[int]bool{}
	}
	for i := 0; ; i++ {
		if i == len(w.log) {
			w.log = append(w.log, w.c.recvReply())
		}
		if !w.used[i] && ok(w.log[i]) {
			w.used[i] = true
			return w.log[i]
		}
	}
}

// subID returns the subscription id a notification is tagged with, or "".
func subID(r reply) string {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(r.Params, &p)
	return string(p.Meta[metaSubscriptionID])
}

// resultMap decodes a result object.
func resultMap(t *testing.T, r reply) map[string]any {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("error %d %s", r.Error.Code, r.Error.Message)
	}
	var m map[string]any
	if err := json.Unmarshal(r.Result, &m); err != nil {
		t.Fatalf("result %s: %v", r.Result, err)
	}
	return m
}

// TestModernConformance reproduces the transport-independent checks of
// the conformance suite's server-stateless and caching scenarios (which
// run only over HTTP) on the stdio server.
func TestModernConformance(t *testing.T) {
	c := startServer(t, echoTool)
	w := &wire{c: c}
	disc := resultMap(t, w.do("d", "server/discover", map[string]any{"_meta": envelope(nil)}))
	supported, _ := disc["supportedVersions"].([]any)
	if !slices.Contains(supported, any(protoV20260728)) {
		t.Errorf("supportedVersions = %v, want 2026-07-28", supported)
	}
	caps, _ := disc["capabilities"].(map[string]any)
	for _, k := range []string{"tools", "resources", "prompts", "completions", "extensions"} {
		if caps[k] == nil {
			t.Errorf("capabilities lack %s: %v", k, caps)
		}
	}
	meta, _ := disc["_meta"].(map[string]any)
	info, _ := meta[metaServerInfo].(map[string]any)
	if info["name"] != "ttywright" || info["description"] == nil || info["icons"] == nil {
		t.Errorf("discover _meta serverInfo = %v, want name, description and icons", info)
	}
	if _, ok := disc["serverInfo"]; ok {
		t.Errorf("discover has a body serverInfo; it belongs in _meta")
	}

	noInfo := envelope(nil)
	delete(noInfo, metaClientInfo)
	if r := w.do(2, "server/discover", map[string]any{"_meta": noInfo}); r.Error != nil {
		t.Errorf("discover without clientInfo: %v, want success", r.Error)
	}

	// The six cacheable methods carry ttlMs and cacheScope, every result
	// resultType "complete".
	for i, m := range []string{"server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"} {
		res := resultMap(t, w.do(10+i, m, modernParams(map[string]any{"uri": "sessions://list"})))
		if res["resultType"] != "complete" {
			t.Errorf("%s: resultType %v, want complete", m, res["resultType"])
		}
		ttl, ok := res["ttlMs"].(float64)
		if scope := res["cacheScope"]; !ok || ttl < 0 || scope != "public" && scope != "private" {
			t.Errorf("%s: ttlMs %v cacheScope %v", m, res["ttlMs"], scope)
		}
	}

	// Icons (2025-11-25 fields) on every tool, prompt and template.
	for _, l := range []struct{ method, key string }{{"tools/list", "tools"}, {"prompts/list", "prompts"}, {"resources/templates/list", "resourceTemplates"}} {
		entries, _ := resultMap(t, w.do(l.method, l.method, modernParams(nil)))[l.key].([]any)
		if len(entries) == 0 {
			t.Errorf("%s: no entries", l.method)
		}
		for _, e := range entries {
			icons, _ := e.(map[string]any)["icons"].([]any)
			if len(icons) != 1 || !strings.HasPrefix(icons[0].(map[string]any)["src"].(string), "data:image/png;base64,") {
				t.Errorf("%s: entry %v has icons %v, want the data: URI", l.method, e.(map[string]any)["name"], icons)
			}
		}
	}

	tests := []struct {
		name   string
		method string
		params any
		code   int
	}{
		{"params {}", "server/discover", map[string]any{}, codeInvalidParams},
		{"no params", "server/discover", nil, codeInvalidParams},
		{"no protocolVersion", "server/discover", map[string]any{"_meta": map[string]any{metaClientCapabilities: map[string]any{}}}, codeInvalidParams},
		{"no clientCapabilities", "server/discover", map[string]any{"_meta": map[string]any{metaProtocolVersion: protoV20260728}}, codeInvalidParams},
		{"unknown version", "tools/list", map[string]any{"_meta": envelope(map[string]any{metaProtocolVersion: "1900-01-01"})}, codeUnsupportedVersion},
		{"legacy version in the envelope", "tools/list", map[string]any{"_meta": envelope(map[string]any{metaProtocolVersion: protoV20251125})}, codeUnsupportedVersion},
		{"initialize", "initialize", modernParams(map[string]any{"protocolVersion": protoV20251125}), codeMethodNotFound},
		{"ping", "ping", modernParams(nil), codeMethodNotFound},
		{"logging/setLevel", "logging/setLevel", modernParams(map[string]any{"level": "debug"}), codeMethodNotFound},
		{"resources/subscribe", "resources/subscribe", modernParams(map[string]any{"uri": "sessions://list"}), codeMethodNotFound},
		{"resources/unsubscribe", "resources/unsubscribe", modernParams(map[string]any{"uri": "sessions://list"}), codeMethodNotFound},
		{"unknown/method", "unknown/method", modernParams(nil), codeMethodNotFound},
		{"unknown tool", "tools/call", modernParams(map[string]any{"name": "invalid_tool_name"}), codeInvalidParams},
		{"resource not found", "resources/read", modernParams(map[string]any{"uri": "session://nope/buffer"}), codeInvalidParams},
	}
	for i, tt := range tests {
		id := "e" + string(rune('a'+i))
		r := w.do(id, tt.method, tt.params)
		if r.Error == nil || r.Error.Code != tt.code {
			t.Errorf("%s: got %+v, want code %d", tt.name, r.Error, tt.code)
			continue
		}
		if string(r.ID) != `"`+id+`"` {
			t.Errorf("%s: error id %s, want %q", tt.name, r.ID, id)
		}
		if tt.code == codeUnsupportedVersion {
			data, _ := r.Error.Data.(map[string]any)
			for _, v := range data["supported"].([]any) {
				if !slices.Contains(supported, v) {
					t.Errorf("%s: data.supported %v is not in discover's %v", tt.name, v, supported)
				}
			}
			if data["requested"] == nil {
				t.Errorf("%s: data.requested missing: %v", tt.name, data)
			}
		}
		if tt.name == "unknown tool" && !strings.Contains(r.Error.Message, "invalid_tool_name") {
			t.Errorf("unknown tool: message %q does not name the tool", r.Error.Message)
		}
		if tt.name == "resource not found" {
			if data, _ := r.Error.Data.(map[string]any); data["uri"] != "session://nope/buffer" {
				t.Errorf("resource not found: data %v, want data.uri", r.Error.Data)
			}
		}
	}
	for _, r := range w.log {
		if r.Method == "notifications/message" {
			t.Errorf("notifications/message without logLevel: %s", r.Params)
		}
	}
}

// TestModernMissingClientCapability: a tool that needs a client
// capability is -32021 with data.requiredCapabilities when the envelope
// lacks it, and runs when it is declared.
func TestModernMissingClientCapability(t *testing.T) {
	c := startServerWith(t, func(s *Server) {
		s.tools = append(s.tools, echoTool)
		s.clientNeeds = map[string][]string{"test_echo": {"elicitation"}}
	})
	w := &wire{c: c}
	args := map[string]any{"name": "test_echo", "arguments": map[string]any{"s": "x"}}
	r := w.do(1, "tools/call", modernParams(args))
	if r.Error == nil || r.Error.Code != codeMissingClientCapability {
		t.Fatalf("got %+v, want -32021", r.Error)
	}
	data, _ := r.Error.Data.(map[string]any)
	if req, _ := data["requiredCapabilities"].(map[string]any); req["elicitation"] == nil {
		t.Errorf("data = %v, want requiredCapabilities.elicitation", data)
	}
	withCap := map[string]any{"name": "test_echo", "arguments": map[string]any{"s": "x"},
		"_meta": envelope(map[string]any{metaClientCapabilities: map[string]any{"elicitation": map[string]any{}}})}
	if r := w.do(2, "tools/call", withCap); r.Error != nil {
		t.Errorf("with the capability: %v", r.Error)
	}
	// Statelessness: the capability declared by request 2 does not carry
	// over to request 3.
	if r := w.do(3, "tools/call", modernParams(args)); r.Error == nil || r.Error.Code != codeMissingClientCapability {
		t.Errorf("request after one that declared it: %+v, want -32021 again", r.Error)
	}
}

// TestModernListen: a listen stream is acknowledged first, gets a
// buffer update and list_changed tagged with its id, nothing it did not ask
// for, and nothing after notifications/cancelled; a second stream open at
// once gets only list_changed and, at shutdown, a closing result. Nothing
// unsolicited reaches the modern client outside the streams.
func TestModernListen(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash")
	}
	c := startServer(t)
	w := &wire{c: c}
	start := func(id int) string {
		r := w.do(id, "tools/call", modernParams(map[string]any{"name": "shell_start",
			"arguments": map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile"}}}))
		_, st, isErr := toolResult(r)
		if isErr || st["shell_session_id"] == nil {
			t.Fatalf("shell_start: %s", r.Result)
		}
		return st["shell_session_id"].(string)
	}
	send := func(id int, sess, input, waitFor string) {
		r := w.do(id, "tools/call", modernParams(map[string]any{"name": "shell_send",
			"arguments": map[string]any{"session_id": sess, "input": input, "wait_for": waitFor}}))
		if _, st, isErr := toolResult(r); isErr || st["matched"] != true {
			t.Fatalf("shell_send %q: %s", input, r.Result)
		}
	}
	s1 := start(1)
	buffer := bufferURI(s1).String()

	c.sendMsg(map[string]any{"jsonrpc": "2.0", "id": "L1", "method": "subscriptions/listen", "params": modernParams(map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": []string{buffer}, "resourcesListChanged": true, "toolsListChanged": true}})})
	ack := w.until(func(r reply) bool { return subID(r) == `"L1"` })
	if ack.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first message of the stream: %s %s, want the acknowledgement", ack.Method, ack.Params)
	}
	var acked struct {
		Notifications listenFilter `json:"notifications"`
	}
	json.Unmarshal(ack.Params, &acked)
	if got := acked.Notifications; !got.ResourcesListChanged || !slices.Equal(got.ResourceSubscriptions, []string{buffer}) || got.ToolsListChanged {
		t.Errorf("acknowledged %+v: want the buffer and resourcesListChanged, not toolsListChanged (the tools never change)", got)
	}
	c.sendMsg(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": modernParams(map[string]any{
		"notifications": map[string]any{"resourcesListChanged": true}})})
	w.until(func(r reply) bool { return r.Method == "notifications/subscriptions/acknowledged" && subID(r) == "7" })

	send(2, s1, `echo listen-$((6*7))\r`, "listen-42")
	w.until(func(r reply) bool {
		return r.Method == "notifications/resources/updated" && subID(r) == `"L1"` && strings.Contains(string(r.Params), buffer)
	})
	s2 := start(3)
	w.until(func(r reply) bool { return r.Method == "notifications/resources/list_changed" && subID(r) == `"L1"` })
	w.until(func(r reply) bool { return r.Method == "notifications/resources/list_changed" && subID(r) == "7" })

	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"L1","reason":"done"}}`)
	w.do(4, "tools/list", modernParams(nil)) // the cancel is read before this
	cancelAt := len(w.log)
	send(5, s1, `echo after-$((6*7))\r`, "after-42")
	w.do(6, "tools/call", modernParams(map[string]any{"name": "shell_stop", "arguments": map[string]any{"session_id": s2}}))
	w.do(8, "tools/call", modernParams(map[string]any{"name": "shell_stop", "arguments": map[string]any{"session_id": s1}}))
	// A listen-only notification on stream 7 shows the debounce has fired
	// since the cancel.
	w.until(func(r reply) bool { return r.Method == "notifications/resources/list_changed" && subID(r) == "7" })

	rest := c.close()
	for _, line := range rest {
		var r reply
		json.Unmarshal(line, &r)
		w.log = append(w.log, r)
	}
	closed := false
	for i, r := range w.log {
		switch {
		case subID(r) == `"L1"` && i >= cancelAt || string(r.ID) == `"L1"`:
			t.Errorf("after the cancel, stream L1 got %s %s%s", r.Method, r.Params, r.Result)
		case subID(r) == "7" && r.Method == "notifications/resources/updated":
			t.Errorf("stream 7 got updated, which it did not ask for: %s", r.Params)
		case r.Method != "" && subID(r) == "" && r.Method != "notifications/message":
			t.Errorf("unsolicited %s outside a listen stream: %s", r.Method, r.Params)
		case string(r.ID) == "7":
			res := resultMap(t, r)
			meta, _ := res["_meta"].(map[string]any)
			closed = res["resultType"] == "complete" && meta[metaSubscriptionID] == float64(7)
		}
	}
	if !closed {
		t.Errorf("stream 7 got no closing result at shutdown")
	}
}

// TestErasInterleaved: a legacy session (2024-11-05) and modern requests on
// one process, each served by its own rules: the modern results do not
// depend on the legacy version (outputSchema, structuredContent, resultType
// are there), the legacy ones are unchanged by the modern traffic, a
// modern list_changed goes only to the stream while the legacy session gets
// its untagged one, and the legacy session still refuses a second
// initialize.
func TestErasInterleaved(t *testing.T) {
	c := startServer(t, echoTool, progressTool)
	w := &wire{c: c}
	if r := w.do(0, "initialize", map[string]any{"protocolVersion": protoV20241105}); r.Error != nil {
		t.Fatal(r.Error)
	}
	legacyTools := resultMap(t, w.do(1, "tools/list", nil))
	modernTools := resultMap(t, w.do(2, "tools/list", modernParams(nil)))
	if _, ok := legacyTools["resultType"]; ok {
		t.Errorf("legacy tools/list has resultType")
	}
	if modernTools["resultType"] != "complete" {
		t.Errorf("modern tools/list resultType = %v", modernTools["resultType"])
	}
	first := func(m map[string]any) map[string]any { return m["tools"].([]any)[0].(map[string]any) }
	if first(legacyTools)["outputSchema"] != nil || first(modernTools)["outputSchema"] == nil {
		t.Errorf("outputSchema: legacy %v, modern %v; want only modern", first(legacyTools)["outputSchema"], first(modernTools)["outputSchema"])
	}
	call := map[string]any{"name": "test_echo", "arguments": map[string]any{"s": "x"}}
	if res := resultMap(t, w.do(3, "tools/call", modernParams(call))); res["structuredContent"] == nil {
		t.Errorf("modern tools/call lacks structuredContent: %v", res)
	}
	if res := resultMap(t, w.do(4, "tools/call", call)); res["structuredContent"] != nil {
		t.Errorf("legacy 2024-11-05 tools/call has structuredContent: %v", res)
	}
	// Progress of a modern request carries its message (2025-03-26+)
	// although the legacy session speaks 2024-11-05.
	w.do(5, "tools/call", map[string]any{"name": "test_progress", "_meta": envelope(map[string]any{"progressToken": 9})})
	for _, r := range w.log {
		if r.Method == "notifications/progress" && !strings.Contains(string(r.Params), `"message"`) {
			t.Errorf("modern progress without its message: %s", r.Params)
		}
	}
	if r := w.do(6, "initialize", map[string]any{"protocolVersion": protoV20251125}); r.Error == nil || r.Error.Code != codeInvalidRequest {
		t.Errorf("second initialize: %+v, want -32600", r.Error)
	}
	if r := w.do(7, "ping", nil); r.Error != nil {
		t.Errorf("legacy ping: %v", r.Error)
	}
	if r := w.do(8, "resources/read", map[string]any{"uri": "theme://nope"}); r.Error == nil || r.Error.Code != codeResourceNotFound {
		t.Errorf("legacy resource not found: %+v, want -32002", r.Error)
	}
	if r := w.do(9, "resources/read", modernParams(map[string]any{"uri": "theme://nope"})); r.Error == nil || r.Error.Code != codeInvalidParams {
		t.Errorf("modern resource not found: %+v, want -32602", r.Error)
	}

	// One list change: the legacy session gets it untagged, the stream
	// tagged.
	c.sendMsg(map[string]any{"jsonrpc": "2.0", "id": "L", "method": "subscriptions/listen",
		"params": modernParams(map[string]any{"notifications": map[string]any{"resourcesListChanged": true}})})
	w.until(func(r reply) bool { return r.Method == "notifications/subscriptions/acknowledged" })
	c.app.hub.resourceListChanged()
	var tagged, untagged bool
	for !tagged || !untagged {
		r := w.until(func(r reply) bool { return r.Method == "notifications/resources/list_changed" })
		tagged = tagged || subID(r) == `"L"`
		untagged = untagged || subID(r) == ""
	}
}

// TestModernCancelSilences: after notifications/cancelled a modern request
// gets no response, no progress and no log message, though its tool goes on
// reporting progress and returns a result.
func TestModernCancelSilences(t *testing.T) {
	started, stopped := make(chan struct{}, 1), make(chan struct{}, 1)
	block := &Tool{Name: "test_block", Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
		started <- struct{}{}
		<-ctx.Done()
		call.Progress(1, 2, "after the cancel")
		stopped <- struct{}{}
		return &ToolResult{Text: "cancelled, but this must not be sent"}
	}}
	c := startServer(t, block)
	w := &wire{c: c}
	c.sendMsg(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"name": "test_block", "_meta": envelope(map[string]any{metaLogLevel: "debug", "progressToken": "t"})}})
	<-started
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)
	<-stopped
	w.do(2, "tools/list", modernParams(nil))
	for _, line := range c.close() {
		var r reply
		json.Unmarshal(line, &r)
		w.log = append(w.log, r)
	}
	for _, r := range w.log {
		if string(r.ID) == "1" || r.Method != "" {
			t.Errorf("after the cancel: %s %s %s", r.ID, r.Method, r.Params)
		}
	}
}

// TestModernBinary drives the built binary over its real stdin and stdout
// in the modern era only (no initialize): discover, shell_start,
// shell_send, shell_screenshot, a resource read of the buffer, shell_stop.
func TestModernBinary(t *testing.T) {
	cmd := exec.Command(serverBinary(t), "--output-dir", t.TempDir())
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	br := bufio.NewReader(out)
	n := 0
	do := func(method string, params map[string]any) map[string]any {
		t.Helper()
		n++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": n, "method": method, "params": modernParams(params)})
		in.Write(append(b, '\n'))
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				t.Fatalf("%s: %v", method, err)
			}
			var r reply
			json.Unmarshal(line, &r)
			if r.Method != "" {
				t.Errorf("%s: unsolicited %s", method, r.Method)
				continue
			}
			res := resultMap(t, r)
			if res["resultType"] != "complete" {
				t.Errorf("%s: resultType %v", method, res["resultType"])
			}
			return res
		}
	}
	tool := func(name string, args map[string]any) map[string]any {
		t.Helper()
		res := do("tools/call", map[string]any{"name": name, "arguments": args})
		st, _ := res["structuredContent"].(map[string]any)
		if res["isError"] == true || st == nil {
			t.Fatalf("%s: %v", name, res)
		}
		return st
	}
	do("server/discover", nil)
	id := tool("shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile"}})["shell_session_id"].(string)
	tool("shell_send", map[string]any{"session_id": id, "input": `echo bin-$((6*7))\r`, "wait_for": "bin-42"})
	shot := tool("shell_screenshot", map[string]any{"session_id": id})
	if shot["uri"] == nil {
		t.Errorf("screenshot: no uri in %v", shot)
	}
	read := do("resources/read", map[string]any{"uri": bufferURI(id).String()})
	if !strings.Contains(string(mustJSON(read["contents"])), "bin-42") || read["ttlMs"] != float64(0) || read["cacheScope"] != "private" {
		t.Errorf("buffer read: %v", read)
	}
	tool("shell_stop", map[string]any{"session_id": id})
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// TestServerIcon: the icon is rendered by the server's own renderer and is
// the same on every start: a 64x64 PNG whose data: URI decodes to the bytes
// iconPNG draws now (so no binary blob is kept in the repository).
func TestServerIcon(t *testing.T) {
	icons := serverIcons()
	if len(icons) != 1 {
		t.Fatalf("icons = %v", icons)
	}
	b64, ok := strings.CutPrefix(icons[0].Src, "data:image/png;base64,")
	if !ok {
		t.Fatalf("src %.40q is not a PNG data: URI", icons[0].Src)
	}
	got, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	again, err := iconPNG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, again) {
		t.Errorf("the icon differs between renders")
	}
	img, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 64 || icons[0].Sizes[0] != "64x64" {
		t.Errorf("icon is %v, sizes %v; want 64x64", b, icons[0].Sizes)
	}
}

// TestModernClaim: only the protocolVersion key in an object _meta
// marks a modern request.
func TestModernClaim(t *testing.T) {
	tests := []struct {
		params string
		want   bool
	}{
		{``, false},
		{`{}`, false},
		{`{"_meta":{}}`, false},
		{`{"_meta":{"progressToken":1}}`, false},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, true},
		{`{"_meta":{"io.modelcontextprotocol/protocolVersion":5}}`, true},
		{`{"uri":"io.modelcontextprotocol/protocolVersion"}`, false},
		{`{"_meta":"io.modelcontextprotocol/protocolVersion"}`, false},
	}
	for _, tt := range tests {
		if got := decodeMessage(messageWith(tt.params)).claim; got != tt.want {
			t.Errorf("claim of params %s = %v, want %v", tt.params, got, tt.want)
		}
	}
}

// messageWith is a tools/list request with params (none when "").
func messageWith(params string) []byte {
	if params == "" {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	}
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":` + params + `}`)
}

// TestModernResultKeepsNumbers: modernResult keeps structuredContent's
// numbers exactly (no float64 round trip).
func TestModernResultKeepsNumbers(t *testing.T) {
	s := newApp(Config{}).newServer()
	res := &callResult{Content: []Content{}, StructuredContent: json.RawMessage(`{"n":9007199254740993}`)}
	b, _ := marshalJSON(s.modernResult(&message{Method: "tools/call"}, res))
	if !strings.Contains(string(b), "9007199254740993") {
		t.Errorf("modern result %s lost the number", b)
	}
}

// FuzzEnvelope: decodeMessage never panics; a message is modern only
// when its _meta holds the protocolVersion key, an envelope that parses
// names a version and capabilities, one that does not is -32602; params
// are an object or none; and a line that is not JSON is -32700.
func FuzzEnvelope(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `{"_meta":{}}`, `{"_meta":{"progressToken":1}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"a","version":"1"},"io.modelcontextprotocol/logLevel":"debug"}}`,
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":null,"io.modelcontextprotocol/clientCapabilities":null}}`,
		`{"_meta":"io.modelcontextprotocol/protocolVersion"}`, `[]`, `null`,
	} {
		f.Add(messageWith(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		m := decodeMessage(raw)
		v, claimed := m.Meta[metaProtocolVersion]
		switch {
		case m.claim != claimed:
			t.Fatalf("claim %v with _meta %v: %q", m.claim, m.Meta, raw)
		case !m.claim && (m.env != nil || m.envErr != nil):
			t.Fatalf("an envelope without the claim: %q", raw)
		case m.claim && m.envErr == nil && (len(v) == 0 || v[0] != '"'):
			t.Fatalf("envelope parsed with protocolVersion %s", v)
		case m.claim && m.envErr == nil && (m.env.caps == nil || m.env.logLevel < -1 || m.env.logLevel >= len(logLevels)):
			t.Fatalf("envelope %+v from %q", m.env, raw)
		case m.Params != nil && m.Params[0] != '{':
			t.Fatalf("params %s are not an object", m.Params)
		case !json.Valid(raw) && (m.reply == nil || m.reply.code() != codeParseError):
			t.Fatalf("%q is not JSON, reply %+v", raw, m.reply)
		}
		if e, ok := m.envErr.(*RPCError); m.envErr != nil && (!ok || e.Code != codeInvalidParams) {
			t.Fatalf("envelope error %v, want -32602", m.envErr)
		}
	})
}

// TestListenOverLimitSaysLimit: a listen for more URIs than may be
// subscribed is refused with -32602 naming the limit, and the
// connection goes on serving.
func TestListenOverLimitSaysLimit(t *testing.T) {
	c := startServer(t)
	w := &wire{c: c}
	_, st, _ := toolResult(w.do(1, "tools/call", modernParams(map[string]any{"name": "shell_start", "arguments": map[string]any{"command": "cat"}})))
	id, _ := st["shell_session_id"].(string)
	uris := make([]string, maxSubscriptions+1)
	for i := range uris {
		uris[i] = commandURI(id, i+1).String()
	}
	r := w.do("L", "subscriptions/listen", modernParams(map[string]any{
		"notifications": map[string]any{"resourceSubscriptions": uris}}))
	if r.Error == nil || r.Error.Code != codeInvalidParams || !strings.Contains(r.Error.Message, "limit of "+strconv.Itoa(maxSubscriptions)) {
		t.Errorf("listen for %d URIs: %+v, want -32602 naming the limit", len(uris), r.Error)
	}
	if r := w.do(2, "tools/list", modernParams(nil)); r.Error != nil {
		t.Errorf("tools/list after the refused listen: %v", r.Error)
	}
}

// TestListenStreamsDoNotBlockCalls: open subscriptions/listen streams
// are counted apart from the requests in flight, so a client holding
// more of them than the in-flight cap still gets its calls answered;
// past maxListens a new stream is refused with server busy.
func TestListenStreamsDoNotBlockCalls(t *testing.T) {
	c := startServerWith(t, func(s *Server) { s.maxInflight = 4 })
	for i := range maxListens {
		c.sendMsg(map[string]any{"jsonrpc": "2.0", "id": "L" + strconv.Itoa(i), "method": "subscriptions/listen",
			"params": modernParams(map[string]any{"notifications": map[string]any{"resourcesListChanged": true}})})
	}
	if r := c.call("tools/list", modernParams(map[string]any{})); r.Error != nil {
		t.Fatalf("tools/list with %d listen streams open: %+v", maxListens, r.Error)
	}
	r := c.call("subscriptions/listen", modernParams(map[string]any{"notifications": map[string]any{"resourcesListChanged": true}}))
	if r.Error == nil || r.Error.Code != codeServerBusy || !strings.Contains(r.Error.Message, "listen streams") {
		t.Fatalf("stream %d: %+v, want server busy", maxListens+1, r.Error)
	}
}
