package main

// protocol_fixes_test.go: protocol defects third-party clients found: a
// "both" recording listed twice under one name, resource errors without a
// hint, and subscriptions to URIs that cannot exist.

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestRecordingBothListedOnce: a format "both" recording is two entries of
// session://{id}/recordings with their own names and URIs, each with its
// own size, and the stop result's bytes is the GIF's size alone.
func TestRecordingBothListedOnce(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs bash")
	}
	c := startServer(t)
	c.initialize(protoV20251125)
	id := c.mustTool("shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile"}})["shell_session_id"].(string)
	c.mustTool("shell_record_start", map[string]any{"session_id": id, "name": "demo"})
	c.mustTool("shell_send", map[string]any{"session_id": id, "input": `echo rec-$((6*7))\r`, "wait_for": "rec-42"})
	res := c.mustTool("shell_record_stop", map[string]any{"session_id": id, "format": "both"})
	gif, _ := os.Stat(res["gif_path"].(string))
	cast, _ := os.Stat(res["cast_path"].(string))
	if gif == nil || cast == nil {
		t.Fatalf("stop result %v: files missing", res)
	}
	if res["bytes"] != float64(gif.Size()) || res["cast_bytes"] != float64(cast.Size()) {
		t.Errorf("bytes %v, cast_bytes %v; want the GIF's %d and the cast's %d", res["bytes"], res["cast_bytes"], gif.Size(), cast.Size())
	}
	rc, err := c.app.hub.readResource(recordingsURI(id).String())
	if err != nil {
		t.Fatal(err)
	}
	var list []captureJSON
	json.Unmarshal([]byte(*rc.Text), &list)
	want := []struct{ name, uri, mime string }{
		{"demo", "session://" + id + "/recordings/demo", "image/gif"},
		{"demo.cast", "session://" + id + "/recordings/demo.cast", "application/x-asciicast"},
	}
	if len(list) != len(want) {
		t.Fatalf("recordings = %+v, want %d entries", list, len(want))
	}
	for i, w := range want {
		if g := list[i]; g.Name != w.name || g.URI != w.uri || g.MimeType != w.mime {
			t.Errorf("entry %d = %s %s %s, want %s %s %s", i, g.Name, g.URI, g.MimeType, w.name, w.uri, w.mime)
		}
	}
	if list[0].Bytes != gif.Size() || list[1].Bytes != cast.Size() {
		t.Errorf("entry sizes %d, %d; want %d, %d", list[0].Bytes, list[1].Bytes, gif.Size(), cast.Size())
	}
	for _, r := range c.app.hub.allResources() {
		if strings.HasSuffix(r.Name, ".cast.cast") {
			t.Errorf("resources/list name %q repeats the extension", r.Name)
		}
	}
	for _, u := range []string{want[0].uri, want[1].uri} {
		if _, err := c.app.hub.readResource(u); err != nil {
			t.Errorf("read %s: %v", u, err)
		}
	}
}

// TestResourceErrorHints: a resource that does not exist is -32002 (legacy)
// with data.uri and a message that names where the existing ones are.
func TestResourceErrorHints(t *testing.T) {
	t.Parallel()
	a := newApp(Config{OutputDir: t.TempDir()})
	tests := []struct {
		uri  string
		hint []string
	}{
		{"theme://nope", []string{"one-dark", "themes://list"}},
		{"session://s9/info", []string{`"s9"`, "sessions://list", "shell_start"}},
		{"file:///etc/passwd", []string{"resources/list", "resources/templates/list"}},
		{"session://../buffer", []string{"resources/templates/list"}},
	}
	for _, tt := range tests {
		_, err := a.hub.readResource(tt.uri)
		e, ok := err.(*RPCError)
		if !ok || e.Code != codeResourceNotFound {
			t.Errorf("%s: %v, want -32002", tt.uri, err)
			continue
		}
		if data, _ := e.Data.(map[string]string); data["uri"] != tt.uri {
			t.Errorf("%s: data %v, want data.uri", tt.uri, e.Data)
		}
		for _, h := range tt.hint {
			if !strings.Contains(e.Message, h) {
				t.Errorf("%s: message %q lacks %q", tt.uri, e.Message, h)
			}
		}
	}
	if got := hintCapture(screenshotsURI("s1"), "x", []Capture{{Name: "a"}, {Name: "b"}}); !strings.Contains(got, "a, b") {
		t.Errorf("capture hint %q does not list the screenshots", got)
	}
}

// TestSubscribeImpossible: resources/subscribe refuses a URI that cannot
// exist (an unknown theme, no known shape, a session that was never
// started) and takes one that does.
func TestSubscribeImpossible(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	c.initialize(protoV20250618)
	tests := []struct {
		uri  string
		code int
	}{
		{"theme://nope", codeResourceNotFound},
		{"nope://x", codeResourceNotFound},
		{"", codeInvalidParams},
		{"theme://nord", 0},
		{"session://s7/buffer", codeResourceNotFound},
	}
	for i, tt := range tests {
		r := c.request(i+1, "resources/subscribe", map[string]any{"uri": tt.uri})
		code := 0
		if r.Error != nil {
			code = r.Error.Code
		}
		if code != tt.code {
			t.Errorf("subscribe %q: code %d (%+v), want %d", tt.uri, code, r.Error, tt.code)
		}
	}
}
