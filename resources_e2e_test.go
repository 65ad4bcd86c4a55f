package main

// resources_e2e_test.go: the resources end to end, through the protocol
// with the real tools: shell_start, two screenshots and a recording, then
// resources/list, every template, blobs against the files, the buffer
// against shell_read, list_changed from each tool, and a subscription
// under a real output flood.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/gif"
	"image/png"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// noteClient wraps testClient: requests return their response while the
// notifications that arrive meanwhile are kept, with arrival times.
type noteClient struct {
	*testClient
	t     *testing.T
	id    int
	notes []timedNote
}

type timedNote struct {
	reply
	at time.Time
}

// next reads one message, keeping notifications; it returns false after d
// without a message.
func (c *noteClient) next(d time.Duration) (reply, bool) {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatal("server closed its output")
		}
		var r reply
		if err := json.Unmarshal(line, &r); err != nil {
			c.t.Fatalf("decoding %.200q: %v", line, err)
		}
		if r.Method != "" {
			c.notes = append(c.notes, timedNote{r, time.Now()})
		}
		return r, true
	case <-time.After(d):
		return reply{}, false
	}
}

// req sends a request and returns its result, failing on an error.
func (c *noteClient) req(method string, params any, v any) {
	c.t.Helper()
	if r := c.reqReply(method, params); r.Error != nil {
		c.t.Fatalf("%s %v: %+v", method, params, r.Error)
	} else if v != nil {
		if err := json.Unmarshal(r.Result, v); err != nil {
			c.t.Fatalf("%s: %v in %s", method, err, r.Result)
		}
	}
}

func (c *noteClient) reqReply(method string, params any) reply {
	c.t.Helper()
	c.id++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	c.send(string(b))
	want, _ := json.Marshal(c.id)
	for {
		r, ok := c.next(stuckAfter)
		if !ok {
			c.t.Fatalf("%s: no response in %v", method, stuckAfter)
		}
		if r.Method == "" {
			if string(r.ID) != string(want) {
				c.t.Fatalf("%s: response for id %s, want %s", method, r.ID, want)
			}
			return r
		}
	}
}

// tool calls a tool and returns its structuredContent, failing on isError.
func (c *noteClient) tool(name string, args map[string]any) map[string]any {
	c.t.Helper()
	var res struct {
		IsError           bool
		Content           []Content
		StructuredContent map[string]any
	}
	c.req("tools/call", map[string]any{"name": name, "arguments": args}, &res)
	if res.IsError {
		c.t.Fatalf("%s %v: %+v", name, args, res.Content)
	}
	return res.StructuredContent
}

// count returns how many notifications of method (for uri, if given)
// arrived at index from or later.
func (c *noteClient) count(from int, method, uri string) int {
	n := 0
	for _, x := range c.notes[min(from, len(c.notes)):] {
		if x.Method == method && (uri == "" || strings.Contains(string(x.Params), `"`+uri+`"`)) {
			n++
		}
	}
	return n
}

// waitNote reads until a notification of method (for uri) arrived at
// index from or later, or d passed.
func (c *noteClient) waitNote(from int, method, uri string, d time.Duration) bool {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for c.count(from, method, uri) == 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		c.next(left)
	}
	return true
}

// settle waits until the in-process server has no resource notification
// armed or on its way (notificationsSettled), then reads up to the reply
// to a ping, which the server writes after every notification it sent
// before: from then on, c.notes holds all that the changes so far
// caused.
func (c *noteClient) settle() {
	c.t.Helper()
	waitSettled(c.t, c.app.hub)
	c.req("ping", nil, nil)
}

// End-to-end notification methods and the shell prompt of the session.
const (
	e2eChanged = "notifications/resources/list_changed"
	e2eUpdated = "notifications/resources/updated"
	e2ePrompt  = "rt$ "
)

func TestResourcesEndToEnd(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	c := &noteClient{testClient: startServer(t), t: t}
	c.initialize("2025-06-18")

	// shell_start: list_changed.
	mark := len(c.notes)
	st := c.tool("shell_start", map[string]any{"command": sh, "cols": 60, "rows": 12,
		"env": map[string]any{"PS1": e2ePrompt, "ENV": "", "HISTFILE": "/dev/null"}})
	id, _ := st["shell_session_id"].(string)
	if id == "" {
		t.Fatalf("shell_start = %v", st)
	}
	if !c.waitNote(mark, e2eChanged, "", deadlockGuard) {
		t.Error("no list_changed after shell_start")
	}
	c.tool("shell_wait", map[string]any{"session_id": id, "wait_for": e2ePrompt, "timeout_ms": 5000})

	// Subscribe to the buffer; one change gives an updated within a second.
	buf := bufferURI(id).String()
	c.req("resources/subscribe", map[string]any{"uri": buf}, nil)
	c.settle()
	mark = len(c.notes)
	t0 := time.Now()
	c.tool("shell_send", map[string]any{"session_id": id, "input": `echo hello-$((6*7))\r`, "wait_for": "hello-42"})
	if !c.waitNote(mark, e2eUpdated, buf, deadlockGuard) {
		t.Error("no notifications/resources/updated after output")
	} else {
		t.Logf("first updated %v after shell_send began", c.notes[len(c.notes)-1].at.Sub(t0))
	}

	files := e2eCaptures(c, id)
	e2eCheckList(c, id)
	e2eCheckReads(c, id, files)
	e2eFlood(c, id, buf)

	// shell_stop: list_changed, and the session stays readable.
	mark = len(c.notes)
	c.tool("shell_stop", map[string]any{"session_id": id})
	if !c.waitNote(mark, e2eChanged, "", deadlockGuard) {
		t.Error("no list_changed after shell_stop")
	}
	var info map[string]any
	if rc := c.read(infoURI(id).String()); rc.Text == nil || json.Unmarshal([]byte(*rc.Text), &info) != nil || info["exited"] != true {
		t.Errorf("info after stop: %v", info)
	}
}

// e2eCaptures takes two screenshots and a recording, each with its
// list_changed, and returns each one's resource URI with its file.
func e2eCaptures(c *noteClient, id string) map[string]string {
	t := c.t
	t.Helper()
	files := map[string]string{} // uri -> png_path or gif_path
	for _, name := range []string{"one", "two"} {
		mark := len(c.notes)
		r := c.tool("shell_screenshot", map[string]any{"session_id": id, "name": name})
		files["session://"+id+"/screenshots/"+name], _ = r["png_path"].(string)
		if !c.waitNote(mark, e2eChanged, "", deadlockGuard) {
			t.Errorf("no list_changed after screenshot %s", name)
		}
	}
	c.tool("shell_record_start", map[string]any{"session_id": id, "fps": 10})
	c.tool("shell_send", map[string]any{"session_id": id, "input": `echo rec-$((1+1))\r`, "wait_for": "rec-2"})
	mark := len(c.notes)
	rec := c.tool("shell_record_stop", map[string]any{"session_id": id, "name": "clip"})
	if !c.waitNote(mark, e2eChanged, "", deadlockGuard) {
		t.Error("no list_changed after shell_record_stop")
	}
	files["session://"+id+"/recordings/clip"], _ = rec["gif_path"].(string)
	return files
}

// e2eCheckList checks that resources/list lists exactly what exists.
func e2eCheckList(c *noteClient, id string) {
	t := c.t
	t.Helper()
	var list struct {
		Resources []struct{ URI, MimeType string }
	}
	c.req("resources/list", nil, &list)
	var got []string
	for _, r := range list.Resources {
		got = append(got, r.URI)
	}
	want := []string{"sessions://list", "themes://list"}
	for _, th := range themeList {
		want = append(want, "theme://"+th.Name)
	}
	s := func(p string) string { return "session://" + id + "/" + p }
	want = append(want, s("info"), s("buffer"), s("screenshots"), s("screenshots/one"), s("screenshots/two"), s("recordings"), s("recordings/clip"), s("commands"), s("tape"))
	if !slices.Equal(got, want) {
		t.Errorf("resources/list:\n got %q\nwant %q", got, want)
	}
}

// read is resources/read of uri, which must give one entry.
func (c *noteClient) read(uri string) resourceContents {
	c.t.Helper()
	var r struct{ Contents []resourceContents }
	c.req("resources/read", map[string]any{"uri": uri}, &r)
	if len(r.Contents) != 1 {
		c.t.Fatalf("read %s: %d contents", uri, len(r.Contents))
	}
	return r.Contents[0]
}

// e2eCheckReads checks that every template resolves, that the blobs equal
// the files (uri -> path) and decode, and that the buffer is what
// shell_read returns.
func e2eCheckReads(c *noteClient, id string, files map[string]string) {
	t := c.t
	t.Helper()
	for uri, path := range files {
		rc := c.read(uri)
		file, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if rc.Blob == nil {
			t.Errorf("%s: no blob", uri)
			continue
		}
		b, err := base64.StdEncoding.DecodeString(*rc.Blob)
		if err != nil || !bytes.Equal(b, file) {
			t.Errorf("%s: blob (%v) differs from %s", uri, err, path)
		}
		if wantMime := map[bool]string{true: "image/gif", false: "image/png"}[strings.Contains(uri, "recordings")]; rc.MimeType != wantMime {
			t.Errorf("%s: mimeType %q, want %q", uri, rc.MimeType, wantMime)
		}
		decode := png.Decode
		if rc.MimeType == "image/gif" {
			decode = gif.Decode
		}
		if _, err := decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: the blob does not decode as %s: %v", uri, rc.MimeType, err)
		}
	}
	s := func(p string) string { return "session://" + id + "/" + p }
	for _, uri := range []string{s("info"), s("screenshots"), s("recordings"), "theme://dracula"} {
		if rc := c.read(uri); rc.Text == nil || !json.Valid([]byte(*rc.Text)) || rc.MimeType != "application/json" {
			t.Errorf("%s: %+v", uri, rc)
		}
	}
	rd := c.tool("shell_read", map[string]any{"session_id": id, "max_bytes": 1 << 20})
	if rc := c.read(s("buffer")); rc.Text == nil || *rc.Text != rd["text"] {
		t.Errorf("buffer resource differs from shell_read:\n%q\n%q", deref(rc.Text), rd["text"])
	}
}

// e2eFlood floods output into the subscribed buffer: no more than one
// updated per 250 ms; then unsubscribes: nothing more.
func e2eFlood(c *noteClient, id, buf string) {
	t := c.t
	t.Helper()
	c.settle()
	mark := len(c.notes)
	start := time.Now()
	c.tool("shell_send", map[string]any{"session_id": id, "timeout_ms": 20000, "wait_for": "flood-0done",
		"input": `end=$(($(date +%s)+2)); while [ $(date +%s) -lt $end ]; do echo flood; done; echo flood-$((0))done\r`})
	c.settle() // the trailing updated comes before this returns
	span := time.Since(start)
	n := c.count(mark, e2eUpdated, buf)
	if limit := int(span/defaultUpdateInterval) + 1; n > limit {
		t.Errorf("%d updated in %v of flood, want at most %d (one per 250 ms)", n, span, limit)
	}
	if n < 1 {
		t.Errorf("no updated in %v of flood", span)
	}
	t.Logf("flood: %d updated notifications for %s in %v", n, buf, span)

	c.req("resources/unsubscribe", map[string]any{"uri": buf}, nil)
	mark = len(c.notes)
	c.tool("shell_send", map[string]any{"session_id": id, "input": `echo after\r`, "wait_for": "after"})
	c.settle()
	if n := c.count(mark, e2eUpdated, buf); n != 0 {
		t.Errorf("%d updated after unsubscribe", n)
	}
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
