package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestHTTPErrorTexts: refusals name what is wrong: a missing header as
// missing, a bearer token that disagrees with the path's, a second
// initialize with the HTTP way to another session; a body that is not
// application/json is 415.
func TestHTTPErrorTexts(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{}, nil)
	sid := ht.initialize(protoV20251125, "{}")
	disc := modernBody(1, "server/discover", nil)
	// h is discover's headers with kv set ("-Name": removed).
	h := func(kv ...string) map[string]string {
		m := modernHeaders("server/discover", "")
		for i := 0; i < len(kv); i += 2 {
			delete(m, strings.TrimPrefix(kv[i], "-"))
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name   string
		path   string // after /mcp
		body   string
		hdr    map[string]string
		status int
		text   string // in the error message; "" = a result
	}{
		{"no Mcp-Method", "", disc, h("-Mcp-Method", ""), 400, "the Mcp-Method header is missing: send Mcp-Method: server/discover"},
		{"no MCP-Protocol-Version", "", disc, h("-MCP-Protocol-Version", ""), 400, "the MCP-Protocol-Version header is missing: send MCP-Protocol-Version: " + protoV20260728},
		{"a wrong Mcp-Method", "", disc, h("Mcp-Method", "tools/list"), 400, `Mcp-Method "tools/list" is not the body's method "server/discover"`},
		{"a wrong bearer, the right path", "/" + ht.token, disc, h("Authorization", "Bearer "+strings.Repeat("W", 43)), 401, "the Authorization header and the path /mcp/TOKEN carry different tokens"},
		{"a wrong bearer, no path", "", disc, h("Authorization", "Bearer "+strings.Repeat("W", 43)), 401, "or use /mcp/TOKEN"},
		{"a second initialize", "", fmt.Sprintf(initBody, protoV20251125, "{}"), map[string]string{"Mcp-Session-Id": sid}, 400, "send initialize without Mcp-Session-Id to open another session"},
		{"application/jsonx", "", disc, h("Content-Type", "application/jsonx"), 415, "unsupported media type"},
		{"text/plain", "", disc, h("Content-Type", "text/plain"), 415, "unsupported media type"},
		{"no Content-Type", "", disc, h("-Content-Type", ""), 415, "unsupported media type"},
		{"application/json with a charset", "", disc, h("Content-Type", "application/json; charset=utf-8"), 200, ""},
	}
	for _, c := range cases {
		cl := &httpTest{t: t, h: ht.h, url: ht.url + c.path, token: ht.token, c: ht.c}
		resp := cl.do("POST", c.body, c.hdr)
		msgs := messages(t, resp)
		got := fmt.Sprint(msgs)
		if resp.StatusCode != c.status || len(msgs) != 1 || (c.text == "") != (msgs[0]["error"] == nil) || !strings.Contains(got, c.text) {
			t.Errorf("%s: %d %s, want %d with %q", c.name, resp.StatusCode, got, c.status, c.text)
		}
	}
}

// TestHTTPStreamOversizedResponse: a response over httpStreamBytes is
// answered with an error for its request, never a stream that ends with
// no answer; a notification over it drops the stream.
func TestHTTPStreamOversizedResponse(t *testing.T) {
	t.Parallel()
	big := append(bytes.Repeat([]byte("x"), httpStreamBytes), '\n')
	st := newHTTPStream()
	st.ids = []string{`7`}
	if st.put(httpMsg{line: big}, true) {
		t.Fatal("put of an oversized response reported it queued")
	}
	q, end := st.take()
	if !end || len(q) != 1 || !bytes.Contains(q[0].line, []byte(`"id":7`)) || !bytes.Contains(q[0].line, []byte("over the")) || q[0].code != codeInternalError {
		t.Errorf("queued %d messages (end %v), want the request's error", len(q), end)
	}
	st = newHTTPStream()
	st.ids = []string{`8`}
	if st.put(httpMsg{line: big}, false) {
		t.Fatal("put of an oversized notification reported it queued")
	}
	if q, end := st.take(); !end || len(q) != 0 {
		t.Errorf("an oversized notification: %d messages queued, end %v", len(q), end)
	}
}
