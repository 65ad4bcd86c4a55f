package main

// mcp_http_modern.go: 2026-07-28 over Streamable HTTP, stateless. Each
// POST is one request served by a Server of its own on the shared hub (so
// no id of one client meets another's), answered as JSON or, when
// notifications come first (progress, log messages, a listen's
// acknowledgement), as an SSE stream that ends with the response; a
// subscriptions/listen stream stays open until the client closes it, which
// cancels the request, as closing any stream does. Before the Server sees
// it the transport checks what the revision puts on HTTP: the envelope
// (-32602), MCP-Protocol-Version against it, Mcp-Method and Mcp-Name
// against the body (-32020, HeaderMismatch, a missing header too). Statuses: 400 for those and
// for -32021 and -32022, 404 for -32601, 202 for a notification.

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// codeHeaderMismatch is the 2026-07-28 HeaderMismatch error (HTTP only).
const codeHeaderMismatch = -32020

// modernPost serves one 2026-07-28 POST, decoded (f).
func (h *httpMCP) modernPost(w http.ResponseWriter, r *http.Request, f frame) {
	if f.batch {
		httpError(w, http.StatusBadRequest, codeInvalidRequest, "invalid request: MCP 2026-07-28 has no batches, and a legacy batch needs its session's Mcp-Session-Id")
		return
	}
	m := f.msgs[0]
	switch {
	case m.reply != nil:
		writeJSONResponse(w, http.StatusBadRequest, m.reply.marshal())
		return
	case m.ID == nil:
		w.WriteHeader(http.StatusAccepted) // 2026-07-28 defines no client notification over HTTP
		return
	case m.Method == "":
		httpError(w, http.StatusBadRequest, codeInvalidRequest, "invalid request: a response without a session: 2026-07-28 clients send none, a legacy client sends its session's Mcp-Session-Id")
		return
	}
	if err := checkModernHeaders(r.Header, m); err != nil {
		writeJSONResponse(w, http.StatusBadRequest, newResponse(m.ID, nil, err).marshal())
		return
	}
	stream := mcpMethods[m.Method].flags&flagStream != 0 // subscriptions/listen
	if stream {
		if !h.p.take(true) {
			w.Header().Set("Retry-After", "5")
			httpError(w, http.StatusTooManyRequests, codeServerBusy, fmt.Sprintf("server busy: %d streams are open, the most at once: close one, or put its URIs in one listen", httpMaxStreams))
			return
		}
		defer h.p.give(true)
	}
	srv := h.newConn()
	st := newHTTPStream()
	st.ids = []string{string(m.ID)}
	srv.sink = func(o outgoing) { st.put(httpMsg{line: o.line, code: o.code}, o.kind == outResponse) }
	h.p.mu.Lock()
	h.p.modern[srv] = stream
	h.p.mu.Unlock()
	ctx, cancel := context.WithCancel(r.Context())
	defer func() {
		cancel()
		srv.stop()
		srv.waitTimeout(stopGrace)
		srv.close()
		h.p.mu.Lock()
		delete(h.p.modern, srv)
		h.p.mu.Unlock()
	}()
	srv.handleFrame(ctx, f)
	st.run(w, r, streamOpts{status: modernStatus, stall: h.writeStall, keepAlive: h.keepAlive, done: h.stopped})
}

// modernStatus is the HTTP status of a lone 2026-07-28 response with
// error code code (0: a result).
func modernStatus(code int) int {
	switch code {
	case codeMethodNotFound:
		return http.StatusNotFound
	case codeHeaderMismatch, codeMissingClientCapability, codeUnsupportedVersion, codeInvalidRequest, codeParseError:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// checkModernHeaders checks request m's envelope and the headers that
// mirror it: MCP-Protocol-Version equal to the envelope's version,
// Mcp-Method to the method, Mcp-Name to params.name (tools/call,
// prompts/get) or params.uri (resources/read), after decoding the
// =?base64?...?= form. Values are compared as sent, spaces around them
// trimmed (RFC 9110's OWS).
func checkModernHeaders(hd http.Header, m *message) error {
	if !m.claim {
		return invalidParams("missing _meta %s: a request without a session is a %s request and carries the envelope (or send initialize for a legacy session)", metaProtocolVersion, protoV20260728)
	}
	if m.envErr != nil {
		return m.envErr
	}
	mismatch := func(format string, a ...any) error {
		return &RPCError{Code: codeHeaderMismatch, Message: "Header mismatch: " + fmt.Sprintf(format, a...)}
	}
	for _, c := range []struct{ name, want, field string }{
		{"MCP-Protocol-Version", m.env.version, "_meta " + metaProtocolVersion},
		{"Mcp-Method", m.Method, "method"},
	} {
		switch v := strings.TrimSpace(hd.Get(c.name)); {
		case v == "":
			return mismatch("the %s header is missing: send %s: %s, the body's %s", c.name, c.name, c.want, c.field)
		case v != c.want:
			return mismatch("%s %q is not the body's %s %q", c.name, v, c.field, c.want)
		}
	}
	var field string
	var want *string
	switch m.Method {
	case "tools/call", "prompts/get":
		field, want = "name", m.Name
	case "resources/read":
		field, want = "uri", m.URI
	}
	if want == nil {
		return nil // no name in the body: the method's own -32602
	}
	raw, sent := hd[http.CanonicalHeaderKey("Mcp-Name")]
	if !sent || len(raw) != 1 {
		return mismatch("Mcp-Name is required once for %s, with the body's params.%s", m.Method, field)
	}
	got, ok := decodeHeaderValue(strings.TrimSpace(raw[0]))
	if !ok {
		return mismatch("Mcp-Name %q is not valid =?base64?...?= (standard Base64 of UTF-8)", raw[0])
	}
	if got != *want {
		return mismatch("Mcp-Name %q does not match the body's params.%s %q", got, field, *want)
	}
	return nil
}

// decodeHeaderValue decodes the =?base64?...?= sentinel form of a
// mirrored header value; any other value is itself.
func decodeHeaderValue(v string) (string, bool) {
	inner, ok := strings.CutPrefix(v, "=?base64?")
	if !ok {
		return v, true
	}
	inner, ok = strings.CutSuffix(inner, "?=")
	if !ok {
		return v, true
	}
	b, err := base64.StdEncoding.Strict().DecodeString(inner)
	if err != nil || !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}
