package main

// web_sse.go: the one writer of server-sent events (the HTML Living
// Standard's text/event-stream), for the live view's stream (web_view.go)
// and MCP's Streamable HTTP (mcp_http_stream.go).

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"time"
)

// sseKeepAlive is a comment line: it keeps proxies from closing an idle
// stream and is ignored by every client.
const sseKeepAlive = ": keep-alive\n\n"

// appendSSE appends to b one event: "id: ID" when id > 0, "event: NAME"
// when name is not "", data as data lines, then the blank line that ends
// the event. data is split at each CR, LF or CRLF into data lines, so no
// byte of it can end the event early or start a field of its own; a
// client joins the lines with LF.
func appendSSE(b []byte, id uint64, name string, data []byte) []byte {
	if id > 0 {
		b = append(b, "id: "...)
		b = strconv.AppendUint(b, id, 10)
		b = append(b, '\n')
	}
	if name != "" {
		b = append(b, "event: "...)
		b = append(b, name...)
		b = append(b, '\n')
	}
	for {
		i := bytes.IndexAny(data, "\r\n")
		if i < 0 {
			i = len(data)
		}
		b = append(b, "data: "...)
		b = append(b, data[:i]...)
		b = append(b, '\n')
		if i == len(data) {
			break
		}
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
		if len(data) == 0 {
			break // a trailing line break ends the value, not an empty line
		}
	}
	return append(b, '\n')
}

// sseSend writes p (whole events, or sseKeepAlive) to w and flushes it,
// with a write deadline of stall from now: a client that stops reading
// ends its stream rather than holding a goroutine.
func sseSend(w io.Writer, rc *http.ResponseController, stall time.Duration, p []byte) error {
	_ = rc.SetWriteDeadline(time.Now().Add(stall)) // not supported by a test recorder
	if _, err := w.Write(p); err != nil {
		return err
	}
	return rc.Flush()
}
