package main

// mcp_apps_test.go: the MCP Apps extension as a client sees it, in both
// eras: what is declared, listed and refused with and without it, the
// app's document, and the secret typed in the app in nothing the client
// received.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// appsCaps are a client's capabilities with the MCP Apps extension.
var appsCaps = map[string]any{"extensions": map[string]any{appsExtension: map[string]any{"mimeTypes": []string{appsMIME}}}}

// appsClient is a connection of one era whose client declared caps: do
// sends a request, with the envelope in the 2026-07-28 era.
type appsClient struct {
	w      *wire
	modern bool
	caps   map[string]any
	id     int
}

// connectApps starts a server and connects a client of version (a
// legacy one initializes; protoV20260728 sends the envelope) that
// declares caps; it returns the client and the server's capabilities.
func connectApps(t *testing.T, c *testClient, version string, caps map[string]any) (*appsClient, map[string]any) {
	t.Helper()
	ac := &appsClient{w: &wire{c: c}, modern: version == protoV20260728, caps: caps}
	if ac.modern {
		res := resultMap(t, ac.do("server/discover", nil))
		sc, _ := res["capabilities"].(map[string]any)
		return ac, sc
	}
	res := resultMap(t, ac.w.do(0, "initialize", map[string]any{"protocolVersion": version, "capabilities": caps,
		"clientInfo": map[string]any{"name": "host", "version": "1"}}))
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	sc, _ := res["capabilities"].(map[string]any)
	return ac, sc
}

func (ac *appsClient) do(method string, params map[string]any) reply {
	ac.w.c.t.Helper()
	ac.id++
	if params == nil {
		params = map[string]any{}
	}
	if ac.modern {
		params["_meta"] = envelope(map[string]any{metaClientCapabilities: ac.caps})
	}
	return ac.w.do(ac.id, method, params)
}

// tool calls a tool and returns the reply: a JSON-RPC error, or the
// result's text, structured content and isError.
func (ac *appsClient) tool(name string, args map[string]any) (reply, string, map[string]any, bool) {
	ac.w.c.t.Helper()
	r := ac.do("tools/call", map[string]any{"name": name, "arguments": args})
	text, m, isErr := toolResult(r)
	return r, text, m, isErr
}

// TestAppsNegotiation: ttywright declares the extension in both eras; a
// client that declared it (with the HTML MIME type) gets the app's tools
// marked app-only, shell_start and shell_read linked to the app and the
// app's resource listed; a client that did not gets none of it, and its
// call of an app-only tool is refused as a tool it was never listed.
func TestAppsNegotiation(t *testing.T) {
	t.Parallel()
	other := map[string]any{"extensions": map[string]any{appsExtension: map[string]any{"mimeTypes": []string{"text/html"}}}}
	bare := map[string]any{"extensions": map[string]any{appsExtension: map[string]any{}}}
	for _, tt := range []struct {
		name    string
		version string
		caps    map[string]any
		apps    bool
	}{
		{"2025-11-25 without", protoV20251125, map[string]any{}, false},
		{"2025-11-25 with", protoV20251125, appsCaps, true},
		{"2025-06-18 with", protoV20250618, appsCaps, true},
		{"2024-11-05 with", protoV20241105, appsCaps, true},
		{"another MIME type", protoV20251125, other, false},
		{"no mimeTypes", protoV20251125, bare, false},
		{"2026-07-28 without", protoV20260728, map[string]any{}, false},
		{"2026-07-28 with", protoV20260728, appsCaps, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ac, sc := connectApps(t, startServer(t), tt.version, tt.caps)
			ext, _ := sc["extensions"].(map[string]any)
			if ui, _ := ext[appsExtension].(map[string]any); fmt.Sprint(ui["mimeTypes"]) != "["+appsMIME+"]" {
				t.Errorf("server capabilities' extensions: %v, want %s with mimeTypes [%s]", sc["extensions"], appsExtension, appsMIME)
			}
			var list struct{ Tools []toolInfo }
			json.Unmarshal(ac.do("tools/list", nil).Result, &list)
			for _, ti := range list.Tools {
				ui, _ := ti.Meta["ui"].(map[string]any)
				appOnly := strings.HasPrefix(ti.Name, "app_")
				shows := ti.Name == "shell_start" || ti.Name == "shell_read"
				switch {
				case !tt.apps && (appOnly || ti.Meta != nil):
					t.Errorf("without the extension: %s listed with _meta %v", ti.Name, ti.Meta)
				case tt.apps && (appOnly || shows) && ui["resourceUri"] != "ui://ttywright/terminal":
					t.Errorf("%s: _meta %v, want ui.resourceUri ui://ttywright/terminal", ti.Name, ti.Meta)
				case tt.apps && appOnly != (fmt.Sprint(ui["visibility"]) == "[app]"):
					t.Errorf("%s: _meta %v, want visibility [app] on the app's tools only", ti.Name, ti.Meta)
				case tt.apps && !appOnly && !shows && ti.Meta != nil:
					t.Errorf("%s: _meta %v, want none", ti.Name, ti.Meta)
				}
			}
			if n := len(list.Tools); n != len(goldenToolNames(t))+4*boolInt(tt.apps) {
				t.Errorf("%d tools listed", n)
			}
			r, text, _, isErr := ac.tool("app_screen", map[string]any{"session_id": "shell-9"})
			switch {
			case tt.apps && (r.Error != nil || !isErr || !strings.Contains(text, `no session "shell-9"`)):
				t.Errorf("app_screen with the extension: %+v %q, want the tool's own error", r.Error, text)
			case !tt.apps && (r.Error == nil || r.Error.Code != codeInvalidParams || !strings.Contains(r.Error.Message, "terminal app's own tools")):
				t.Errorf("app_screen without the extension: %+v, want -32602 naming the extension", r.Error)
			}
			if r := ac.do("tools/call", map[string]any{"name": "nope"}); r.Error == nil || strings.Contains(r.Error.Message, "app_screen") != tt.apps {
				t.Errorf("an unknown tool's error names the app's tools %v, want %v: %+v", !tt.apps, tt.apps, r.Error)
			}
			res := ac.do("resources/list", nil)
			if listed := strings.Contains(string(res.Result), `"ui://ttywright/terminal"`); listed != tt.apps {
				t.Errorf("resources/list names the app: %v, want %v", listed, tt.apps)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestAppResource: ui://ttywright/terminal is one document of the app's
// MIME type, at most maxAppDocument bytes, with _meta.ui declaring no
// domain and a border; it fetches nothing (no src, href or URL of its
// own) and carries the one painter and the one key encoder once.
func TestAppResource(t *testing.T) {
	t.Parallel()
	ac, _ := connectApps(t, startServer(t), protoV20260728, appsCaps)
	var res struct {
		Contents []struct {
			URI, MimeType, Text string
			Meta                map[string]any `json:"_meta"`
		}
		TTL *int `json:"ttlMs"`
	}
	r := ac.do("resources/read", map[string]any{"uri": "ui://ttywright/terminal"})
	if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Contents) != 1 {
		t.Fatalf("resources/read: %s %+v", r.Result, r.Error)
	}
	c := res.Contents[0]
	if c.URI != "ui://ttywright/terminal" || c.MimeType != appsMIME || fmt.Sprint(c.Meta) != "map[ui:map[csp:map[] prefersBorder:true]]" || res.TTL == nil || *res.TTL != ttlStatic {
		t.Errorf("the app's resource: uri %q mimeType %q _meta %v ttlMs %v", c.URI, c.MimeType, c.Meta, res.TTL)
	}
	if len(c.Text) > maxAppDocument || !strings.HasPrefix(c.Text, "<!doctype html>") {
		t.Errorf("the document: %d bytes (at most %d), starts %.20q", len(c.Text), maxAppDocument, c.Text)
	}
	t.Logf("ui://ttywright/terminal: %d bytes", len(c.Text))
	for _, once := range []string{htmlPainter(), strings.TrimSpace(htmlScreenCSS), webKeysScript(), "ttyScreen.paint("} {
		if n := strings.Count(c.Text, once); n != 1 {
			t.Errorf("the document holds %.40q %d times, want once", once, n)
		}
	}
	for _, bad := range []string{"src=", "href=", "http://", "https://", "fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "@import"} {
		if strings.Contains(c.Text, bad) {
			t.Errorf("the document holds %q: it must fetch nothing", bad)
		}
	}
}

// TestAppSecretNowhere: a secret typed in the app reaches bash's read -s
// (the program prints its digest), and is in nothing the client
// received (every reply and notification), nor in the call log, the
// session's trace, tape, recording or raw output.
func TestAppSecretNowhere(t *testing.T) {
	t.Parallel()
	needShell(t, "bash")
	logPath := filepath.Join(t.TempDir(), "calls.jsonl")
	c := startAppServer(t, nil, func(_ *App, s *Server) {
		var err error
		if s.calls, err = openCallLog(logPath); err != nil {
			t.Fatal(err)
		}
	})
	ac, _ := connectApps(t, c, protoV20251125, appsCaps)
	secret := "app-" + strings.Repeat("s3cr3t", 3)
	home := t.TempDir()
	_, text, st, isErr := ac.tool("shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile"}, "trace": true,
		"cwd": home, "env": map[string]any{"HOME": home, "PS1": "$ "}})
	if isErr {
		t.Fatal(text)
	}
	id := st["shell_session_id"].(string)
	ac.tool("shell_record_start", map[string]any{"session_id": id})
	ac.tool("shell_send", map[string]any{"session_id": id, "text": `read -rs -p "Passphrase: " P; echo; echo "len=${#P} rev=$(rev <<<"$P")"` + "\n", "wait_for_input": true})
	_, _, scr, _ := ac.tool("app_screen", map[string]any{"session_id": id})
	fg, _ := scr["foreground"].(map[string]any)
	if fg["input"] != inputSecret || scr["prompt"] != "Passphrase:" {
		t.Fatalf("app_screen at the prompt: foreground %v prompt %q", fg, scr["prompt"])
	}
	viewer := scr["viewer"].(string)
	if _, text, _, isErr := ac.tool("app_secret", map[string]any{"session_id": id, "viewer": viewer, "secret": "a\nb"}); !isErr || !strings.Contains(text, "control character") {
		t.Errorf("a secret with a newline: %q", text)
	}
	_, text, res, isErr := ac.tool("app_secret", map[string]any{"session_id": id, "viewer": viewer, "secret": secret})
	if isErr || !strings.Contains(res["account"].(string), "typed a secret into bash") {
		t.Fatalf("app_secret: %q %v", text, res)
	}
	rev := []rune(secret)
	slices.Reverse(rev)
	_, text, _, _ = ac.tool("shell_wait", map[string]any{"session_id": id, "wait_for": "rev=" + string(rev), "timeout_ms": 10000})
	if !strings.Contains(text, fmt.Sprintf("len=%d", len(secret))) {
		t.Errorf("the program did not read the secret: %q", text)
	}
	if _, text, _, isErr := ac.tool("app_secret", map[string]any{"session_id": id, "viewer": viewer, "secret": secret}); !isErr || !strings.Contains(text, "nothing was typed") {
		t.Errorf("app_secret with no prompt: %q", text)
	}
	ac.tool("app_screen", map[string]any{"session_id": id, "viewer": viewer})
	ac.tool("shell_read", map[string]any{"session_id": id, "raw": true})
	ac.tool("shell_record_stop", map[string]any{"session_id": id, "format": "both"})
	for _, uri := range []string{"session://" + id + "/tape", "session://" + id + "/trace", "session://" + id + "/commands"} {
		ac.do("resources/read", map[string]any{"uri": uri})
	}
	ac.tool("shell_stop", map[string]any{"session_id": id})
	for _, r := range ac.w.log {
		if b, _ := json.Marshal(r); strings.Contains(string(b), secret) {
			t.Errorf("the client received the secret: %.300s", b)
		}
	}
	files := []string{logPath}
	filepath.WalkDir(c.app.cfg.OutputDir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return nil
	})
	if len(files) < 4 {
		t.Errorf("files written: %v, want the log, the trace and the recording's GIF and asciicast", files)
	}
	if b, _ := os.ReadFile(logPath); !strings.Contains(string(b), `"tool":"shell_start"`) || strings.Contains(string(b), `"tool":"app_`) {
		t.Errorf("the call log has no shell_start, or has the app's calls:\n%s", b)
	}
	for _, f := range files {
		if b, err := os.ReadFile(f); err != nil || strings.Contains(string(b), secret) {
			t.Errorf("%s holds the secret (%v)", f, err)
		}
	}
}
