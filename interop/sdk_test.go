package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolNames are the server's tools, as testdata/tools/list.json (the
// product's reviewed golden of tools/list) lists them.
var toolNames = func() []string {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "tools", "list.json"))
	if err != nil {
		panic(err)
	}
	var res struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(b, &res); err != nil {
		panic(err)
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return names
}()

// templates are the server's resource templates (README "Resources").
var templates = []string{
	"session://{id}/info", "session://{id}/buffer", "session://{id}/screenshots",
	"session://{id}/screenshots/{name}", "session://{id}/recordings",
	"session://{id}/recordings/{name}", "session://{id}/commands", "session://{id}/commands/{n}",
	"session://{id}/trace", "session://{id}/tape", "theme://{name}",
}

// promptNames are the server's prompts (README "Prompts").
var promptNames = []string{"vim-edit", "record-session", "terminal-basics", "theme-selection", "tui-navigate", "write-regression-test"}

// TestGoSDKHandshake: the official Go client connects with its defaults
// (server/discover first; ttywright answers it, so the client speaks the
// stateless 2026-07-28 with no initialize), sees the capabilities and
// every tool with schemas and annotations, and pings.
func TestGoSDKHandshake(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	init := s.cs.InitializeResult()
	if init == nil || init.ServerInfo == nil || init.ServerInfo.Name != "ttywright" {
		t.Fatalf("initialize result %+v: want serverInfo.name ttywright", init)
	}
	if init.ProtocolVersion != "2026-07-28" {
		t.Errorf("the SDK's default negotiated %q, want the stateless 2026-07-28 through server/discover", init.ProtocolVersion)
	}
	if !slices.Contains(mcp.SupportedProtocolVersions(), init.ProtocolVersion) {
		t.Errorf("negotiated version %q is not one the SDK supports", init.ProtocolVersion)
	}
	caps := init.Capabilities
	if caps == nil || caps.Tools == nil {
		t.Fatalf("capabilities %+v: want tools", caps)
	}
	if err := s.cs.Ping(s.ctx(), nil); err != nil {
		t.Fatalf("ping: %v", err)
	}
	res, err := s.cs.ListTools(s.ctx(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var got []string
	newProto := init.ProtocolVersion >= "2025-06-18"
	for _, tool := range res.Tools {
		got = append(got, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil {
			t.Errorf("tool %s: want a description and an input schema", tool.Name)
		}
		if newProto && (tool.OutputSchema == nil || tool.Title == "" && (tool.Annotations == nil || tool.Annotations.Title == "")) {
			t.Errorf("tool %s: want an output schema and a title at %s", tool.Name, init.ProtocolVersion)
		}
		a := tool.Annotations
		switch tool.Name {
		case "shell_read", "shell_screenshot", "shell_wait":
			if a == nil || !a.ReadOnlyHint {
				t.Errorf("tool %s: want readOnlyHint", tool.Name)
			}
		case "shell_stop":
			if a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
				t.Errorf("tool %s: want destructiveHint", tool.Name)
			}
		}
	}
	sort.Strings(got)
	want := slices.Clone(toolNames)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("tools/list = %v, want %v", got, want)
	}
	// An unknown tool is a JSON-RPC error, not a tool result.
	_, err = s.cs.CallTool(s.ctx(), &mcp.CallToolParams{Name: "no_such_tool"})
	if code := rpcCode(err); code != -32602 {
		t.Errorf("unknown tool: error %v (code %d), want -32602", err, code)
	}
}

// TestGoSDKOlderProtocols: a client that asks for a legacy revision gets
// it through initialize, with the fields that revision lacks left out, and
// the tools still work through the JSON text block.
func TestGoSDKOlderProtocols(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			s := startServerVersion(t, version)
			if got := s.cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("negotiated %q, want %q", got, version)
			}
			res, err := s.cs.ListTools(s.ctx(), nil)
			if err != nil {
				t.Fatal(err)
			}
			modern := version >= "2025-06-18"
			for _, tool := range res.Tools {
				if (tool.OutputSchema != nil) != modern {
					t.Errorf("%s at %s: outputSchema present = %v, want %v", tool.Name, version, tool.OutputSchema != nil, modern)
				}
			}
			id := s.startBash("")
			raw := s.callRaw("shell_send", map[string]any{"session_id": id, "input": `echo v-$((7*6))\r`, "wait_for": "v-42"})
			if (raw.StructuredContent != nil) != modern {
				t.Errorf("structuredContent present = %v at %s, want %v", raw.StructuredContent != nil, version, modern)
			}
			if r := structured(t, raw); r["matched"] != true {
				t.Errorf("shell_send at %s = %v", version, r)
			}
			shot := s.callRaw("shell_screenshot", map[string]any{"session_id": id, "inline": true})
			for _, c := range shot.Content {
				if _, ok := c.(*mcp.ResourceLink); ok && !modern {
					t.Errorf("resource_link sent at %s", version)
				}
			}
		})
	}
}

// TestGoSDKScenario calls every tool, reads every resource kind and
// template, subscribes and receives an update, gets every prompt and runs
// completion, all through the official Go client.
func TestGoSDKScenario(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.startBash("")

	// shell_send with wait_for, and the shellwright result fields
	// (bufferBefore only when asked for).
	r := s.send(id, `echo hello-\x41PI$((1+1))\r`, "hello-API2")
	for _, k := range []string{"success", "bufferAfter", "matched"} {
		if _, ok := r[k]; !ok {
			t.Errorf("shell_send result lacks %q: %v", k, r)
		}
	}
	if _, ok := r["bufferBefore"]; ok {
		t.Errorf("shell_send returned bufferBefore unasked: %v", r)
	}
	if r := s.call("shell_send", map[string]any{"session_id": id, "input": "\r", "include_before": true, "wait_idle_ms": 50}); r["bufferBefore"] == nil {
		t.Errorf("shell_send with include_before lacks bufferBefore: %v", r)
	}
	if !strings.Contains(fmt.Sprint(r["bufferAfter"]), "hello-API2") {
		t.Errorf("bufferAfter lacks the output: %q", r["bufferAfter"])
	}

	// shell_read: the text block is the screen itself.
	res := s.callRaw("shell_read", map[string]any{"session_id": id})
	if res.IsError || !strings.Contains(textOf(res), "hello-API2") {
		t.Errorf("shell_read text = %q, want the screen with hello-API", textOf(res))
	}
	if m := structured(t, res); m["cols"] == nil || m["rows"] == nil {
		t.Errorf("shell_read structuredContent = %v, want cols and rows", m)
	}

	// shell_wait on idle output ends without a match and without an error.
	r = s.call("shell_wait", map[string]any{"session_id": id, "wait_for": "never-printed", "timeout_ms": 300})
	if r["matched"] != false || r["timed_out"] != true {
		t.Errorf("shell_wait timeout = %v, want matched false, timed_out true", r)
	}

	// Subscribe to the buffer before changing it.
	buf := "session://" + id + "/buffer"
	if err := s.cs.Subscribe(s.ctx(), &mcp.SubscribeParams{URI: buf}); err != nil {
		t.Fatalf("resources/subscribe: %v", err)
	}
	drain(s.updates)
	s.send(id, `echo tick$((2+2))\r`, "tick4")
	waitUpdate(t, s.updates, buf)

	// shell_screenshot, inline: an image block, a resource link, files.
	drain(s.listed)
	res = s.callRaw("shell_screenshot", map[string]any{"session_id": id, "name": "first", "inline": true,
		"border": map[string]any{"style": "macos", "title": "interop"}})
	if res.IsError {
		t.Fatalf("shell_screenshot: %s", textOf(res))
	}
	shot := structured(t, res)
	var sawImage, sawLink bool
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.ImageContent:
			sawImage = c.MIMEType == "image/png"
			if _, err := png.Decode(bytes.NewReader(c.Data)); err != nil {
				t.Errorf("inline image: %v", err)
			}
		case *mcp.ResourceLink:
			sawLink = c.URI == shot["uri"]
		}
	}
	if !sawImage {
		t.Error("inline screenshot: no image/png content block")
	}
	if s.cs.InitializeResult().ProtocolVersion >= "2025-06-18" && !sawLink {
		t.Errorf("screenshot: no resource_link to %v", shot["uri"])
	}
	for _, k := range []string{"png_path", "svg_path", "ansi_path", "txt_path"} {
		p, _ := shot[k].(string)
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("screenshot %s = %q: %v", k, p, err)
		}
	}
	waitSignal(t, s.listed, "notifications/resources/list_changed after a screenshot")

	// A recording: start, some output, stop as both formats.
	r = s.call("shell_record_start", map[string]any{"session_id": id, "fps": 10})
	if r["recording"] == nil || r["recording"] == false || r["recording"] == "" {
		t.Errorf("shell_record_start = %v, want recording set", r)
	}
	s.send(id, `for i in 1 2 3; do echo rec-$i; sleep 0.1; done\r`, "rec-3")
	rec := s.call("shell_record_stop", map[string]any{"session_id": id, "name": "clip", "format": "both"})
	if fc, _ := rec["frame_count"].(float64); fc < 2 {
		t.Errorf("recording frame_count = %v, want several", rec["frame_count"])
	}
	gifPath, _ := rec["gif_path"].(string)
	if f, err := os.Open(gifPath); err != nil {
		t.Errorf("gif_path: %v", err)
	} else {
		if _, err := gif.DecodeAll(f); err != nil {
			t.Errorf("recording GIF: %v", err)
		}
		f.Close()
	}
	if b, err := os.ReadFile(rec["cast_path"].(string)); err != nil || !bytes.HasPrefix(b, []byte(`{"version":2`)) && !bytes.HasPrefix(b, []byte(`{"version": 2`)) {
		t.Errorf("cast_path: %v, starts %q", err, firstLine(b))
	}

	// shell_resize.
	r = s.call("shell_resize", map[string]any{"session_id": id, "cols": 100, "rows": 30})
	if r["cols"] != 100.0 || r["rows"] != 30.0 {
		t.Errorf("shell_resize = %v", r)
	}
	s.send(id, `stty size\r`, "30 100")

	// Bad arguments are tool errors that name the problem.
	if msg := s.callErr("shell_send", map[string]any{"session_id": "nope", "input": "x"}); !strings.Contains(msg, "nope") {
		t.Errorf("missing session error = %q, want the id named", msg)
	}
	s.callErr("shell_screenshot", map[string]any{"session_id": id, "name": "../escape"})

	// Resources: list what exists and read every one of them.
	lr, err := s.cs.ListResources(s.ctx(), nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	uris := map[string]string{}
	for _, r := range lr.Resources {
		uris[r.URI] = r.MIMEType
	}
	for _, u := range []string{"sessions://list", "themes://list", "session://" + id + "/info", buf,
		"session://" + id + "/screenshots", "session://" + id + "/screenshots/first",
		"session://" + id + "/recordings", "session://" + id + "/recordings/clip", "theme://one-dark"} {
		if _, ok := uris[u]; !ok {
			t.Errorf("resources/list lacks %s (has %v)", u, keys(uris))
		}
	}
	for u := range uris {
		readResource(t, s, u)
	}
	sessions := readJSON(t, s, "sessions://list")
	if !strings.Contains(string(mustJSON(sessions)), id) {
		t.Errorf("sessions://list = %v, want %s", sessions, id)
	}
	themes, _ := readJSON(t, s, "themes://list").([]any)
	if len(themes) < 5 {
		t.Errorf("themes://list has %d themes, want 5", len(themes))
	}

	tr, err := s.cs.ListResourceTemplates(s.ctx(), nil)
	if err != nil {
		t.Fatalf("resources/templates/list: %v", err)
	}
	var tmpl []string
	for _, r := range tr.ResourceTemplates {
		tmpl = append(tmpl, r.URITemplate)
	}
	for _, want := range templates {
		if !slices.Contains(tmpl, want) {
			t.Errorf("templates %v lack %s", tmpl, want)
		}
	}
	// Resource not found: -32602 in the stateless era (the SDK's default,
	// 2026-07-28), -32002 in a legacy session.
	_, err = s.cs.ReadResource(s.ctx(), &mcp.ReadResourceParams{URI: "session://no-such/info"})
	wantCode := int64(-32002)
	if s.cs.InitializeResult().ProtocolVersion >= "2026-07-28" {
		wantCode = -32602
	}
	if code := rpcCode(err); code != wantCode {
		t.Errorf("reading an unknown URI: %v (code %d), want %d", err, code, wantCode)
	}

	// Prompts: every one, with its required arguments filled in.
	pr, err := s.cs.ListPrompts(s.ctx(), nil)
	if err != nil {
		t.Fatalf("prompts/list: %v", err)
	}
	var pn []string
	for _, p := range pr.Prompts {
		pn = append(pn, p.Name)
		args := map[string]string{}
		for _, a := range p.Arguments {
			args[a.Name] = promptArg(a.Name, id)
		}
		g, err := s.cs.GetPrompt(s.ctx(), &mcp.GetPromptParams{Name: p.Name, Arguments: args})
		if err != nil {
			t.Errorf("prompts/get %s: %v", p.Name, err)
			continue
		}
		if len(g.Messages) == 0 {
			t.Errorf("prompt %s has no messages", p.Name)
			continue
		}
		text, _ := g.Messages[0].Content.(*mcp.TextContent)
		if text == nil || !strings.Contains(text.Text, "shell_") {
			t.Errorf("prompt %s does not name the tools: %+v", p.Name, g.Messages[0].Content)
		}
	}
	for _, want := range promptNames {
		if !slices.Contains(pn, want) {
			t.Errorf("prompts %v lack %s", pn, want)
		}
	}

	// Completion of session ids, theme names and capture names.
	complete := func(uri, arg, value string, ctxArgs map[string]string) []string {
		t.Helper()
		p := &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: uri},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}}
		if ctxArgs != nil {
			p.Context = &mcp.CompleteContext{Arguments: ctxArgs}
		}
		c, err := s.cs.Complete(s.ctx(), p)
		if err != nil {
			t.Errorf("completion/complete %s %s=%q: %v", uri, arg, value, err)
			return nil
		}
		return c.Completion.Values
	}
	if v := complete("session://{id}/info", "id", id[:1], nil); !slices.Contains(v, id) {
		t.Errorf("completing session ids from %q = %v, want %s", id[:1], v, id)
	}
	if v := complete("theme://{name}", "name", "dr", nil); !slices.Contains(v, "dracula") {
		t.Errorf("completing themes from dr = %v, want dracula", v)
	}
	if v := complete("session://{id}/screenshots/{name}", "name", "fi", map[string]string{"id": id}); !slices.Contains(v, "first") {
		t.Errorf("completing screenshot names = %v, want first", v)
	}

	// shell_stop ends the program; typing into it afterwards is a tool error.
	r = s.call("shell_stop", map[string]any{"session_id": id})
	if r["success"] != true {
		t.Errorf("shell_stop = %v", r)
	}
	s.callErr("shell_send", map[string]any{"session_id": id, "input": "echo too late\\r"})
}

// promptArg gives a plausible value for a prompt argument by its name.
func promptArg(name, id string) string {
	switch {
	case strings.Contains(name, "session"):
		return id
	case strings.Contains(name, "theme"):
		return "dracula"
	case strings.Contains(name, "file") || strings.Contains(name, "path"):
		return "/tmp/notes.txt"
	}
	return "example"
}

// readResource reads uri and checks its contents against its kind.
func readResource(t *testing.T, s *server, uri string) *mcp.ResourceContents {
	t.Helper()
	rr, err := s.cs.ReadResource(s.ctx(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Errorf("resources/read %s: %v", uri, err)
		return nil
	}
	if len(rr.Contents) != 1 {
		t.Errorf("resources/read %s: %d contents, want 1", uri, len(rr.Contents))
		return nil
	}
	c := rr.Contents[0]
	if c.URI != uri {
		t.Errorf("resources/read %s: contents uri %q", uri, c.URI)
	}
	switch c.MIMEType {
	case "application/json":
		var v any
		if err := json.Unmarshal([]byte(c.Text), &v); err != nil {
			t.Errorf("%s: not JSON: %v", uri, err)
		}
	case "text/plain":
		if c.Text == "" {
			t.Errorf("%s: empty text", uri)
		}
	case "image/png":
		if _, err := png.Decode(bytes.NewReader(c.Blob)); err != nil {
			t.Errorf("%s: blob is not a PNG: %v", uri, err)
		}
	case "image/gif":
		if _, err := gif.DecodeAll(bytes.NewReader(c.Blob)); err != nil {
			t.Errorf("%s: blob is not a GIF: %v", uri, err)
		}
	case "application/x-asciicast": // JSON lines, read as text
		if c.Blob != nil || !strings.HasPrefix(c.Text, `{"version":2`) {
			t.Errorf("%s: text is not asciicast v2: %q (blob %d bytes)", uri, firstLine([]byte(c.Text)), len(c.Blob))
		}
	default:
		t.Errorf("%s: unexpected mimeType %q", uri, c.MIMEType)
	}
	return c
}

// readJSON reads a JSON resource and decodes it.
func readJSON(t *testing.T, s *server, uri string) any {
	t.Helper()
	c := readResource(t, s, uri)
	if c == nil {
		return nil
	}
	var v any
	_ = json.Unmarshal([]byte(c.Text), &v)
	return v
}

func waitUpdate(t *testing.T, ch chan string, uri string) {
	t.Helper()
	deadline := time.After(waitTimeout)
	for {
		select {
		case u := <-ch:
			if u == uri {
				return
			}
		case <-deadline:
			t.Errorf("no notifications/resources/updated for %s", uri)
			return
		}
	}
}

func waitSignal(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(waitTimeout):
		t.Errorf("no %s", what)
	}
}

func drain[T any](ch chan T) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

func keys(m map[string]string) []string {
	var k []string
	for u := range m {
		k = append(k, u)
	}
	sort.Strings(k)
	return k
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	if len(b) > 80 {
		b = b[:80]
	}
	return string(b)
}

// TestGoSDKConcurrencyAndCancel: a long shell_wait does not hold up other
// requests, and cancelling it through the SDK (notifications/cancelled)
// leaves the session usable.
func TestGoSDKConcurrencyAndCancel(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.startBash("")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell_wait",
			Arguments: map[string]any{"session_id": id, "wait_for": "never-printed", "timeout_ms": 120000}})
		done <- err
	}()
	// These answer while the wait is pending.
	if err := s.cs.Ping(s.ctx(), nil); err != nil {
		t.Fatalf("ping during a wait: %v", err)
	}
	s.send(id, `echo during-$((1+1))\r`, "during-2")
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("the cancelled shell_wait returned no error")
		}
	case <-time.After(waitTimeout):
		t.Fatal("cancelling shell_wait did not return")
	}
	s.send(id, `echo after-$((2+2))\r`, "after-4")
}

// TestGoSDKCommands: three commands run with wait_for_command in an
// integrated bash are listed by session://{id}/commands, oldest first,
// each with its exit code and an output resource, read through the SDK.
func TestGoSDKCommands(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.startBash("")
	lines := []string{"echo one", "false", `printf 'x\ny\n'`}
	for _, line := range lines {
		// shell_send reads escapes in input: a backslash is typed as \\.
		typed := strings.ReplaceAll(line, `\`, `\\`)
		r := s.call("shell_send", map[string]any{"session_id": id, "input": typed + "\r", "wait_for_command": true})
		if c, _ := r["command"].(map[string]any); c == nil || c["line"] != line {
			t.Fatalf("shell_send %q: command %v", line, r["command"])
		}
	}
	list, _ := readJSON(t, s, "session://"+id+"/commands").([]any)
	if len(list) != 3 {
		t.Fatalf("session://%s/commands: %d entries, want 3: %v", id, len(list), list)
	}
	wantExit := []float64{0, 1, 0}
	wantOut := []string{"one", "", "x\ny"}
	for i, v := range list {
		c, _ := v.(map[string]any)
		if c["n"] != float64(i+1) || c["line"] != lines[i] || c["exit_code"] != wantExit[i] || c["output_bytes"] != float64(len(wantOut[i])) {
			t.Errorf("command %d: %v", i+1, c)
		}
		if wantOut[i] == "" {
			continue // readResource refuses empty text/plain
		}
		if out := readResource(t, s, fmt.Sprint(c["uri"])); out != nil && out.Text != wantOut[i] {
			t.Errorf("%v: %q, want %q", c["uri"], out.Text, wantOut[i])
		}
	}
}
