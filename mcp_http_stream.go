package main

// mcp_http_stream.go: one HTTP response that carries MCP messages. The
// Server's goroutines queue messages (put, which never blocks); the HTTP
// handler's goroutine writes them (run): a lone response as JSON, anything
// else as server-sent events, one message an event. A client that does not
// read blocks only its own handler, for httpWriteStall a write; a stream
// whose queue passes httpStreamBytes is dropped. A quiet stream gets a
// comment every httpKeepAlive (a quiet POST turns into SSE for it), so
// tunnels do not time it out.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// codeConnectionClosed answers the requests still running when their
// session ends or the server stops: -32000, the TypeScript SDK's
// ConnectionClosed.
const codeConnectionClosed = -32000

// msgShuttingDown is the error of the requests running at shutdown.
const msgShuttingDown = "the server is shutting down"

// httpMsg is one queued message: its line (ending in '\n'), a response's
// error code (0: a result, or not a response) and its SSE event id (0:
// none).
type httpMsg struct {
	line  []byte
	code  int
	event uint64
}

// httpStream is the queue of one response. Build it with newHTTPStream.
type httpStream struct {
	wake chan struct{} // one token: something to write

	mu    sync.Mutex
	queue []httpMsg
	bytes int
	final bool // the response is queued: the stream ends after it
	ended bool // finished or dropped: put refuses
	ids   []string
}

func newHTTPStream() *httpStream { return &httpStream{wake: make(chan struct{}, 1)} }

// put queues m; final marks the request's response, after which the
// stream ends. It reports false when the stream has ended, or is dropped
// now because its queue would pass httpStreamBytes.
func (st *httpStream) put(m httpMsg, final bool) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.ended || st.final {
		return false
	}
	if st.bytes+len(m.line) > httpStreamBytes {
		st.queue, st.bytes = nil, 0
		if final {
			// The response itself is too large: the client gets an
			// error for it, not a stream that ends with no answer.
			st.abortLocked(codeInternalError, fmt.Sprintf("the response is %d bytes, over the %d bytes one HTTP response may carry", len(m.line), httpStreamBytes))
			return false
		}
		st.ended = true
		st.poke()
		return false
	}
	st.queue = append(st.queue, m)
	st.bytes += len(m.line)
	st.final = final
	st.poke()
	return true
}

// finish ends the stream once what is queued is written.
func (st *httpStream) finish() {
	st.mu.Lock()
	st.ended = true
	st.poke()
	st.mu.Unlock()
}

// abort ends the stream like finish, but when its response has not been
// queued yet each of its requests is answered with error code and msg
// first, so the client gets a JSON-RPC answer rather than an empty body.
func (st *httpStream) abort(code int, msg string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.abortLocked(code, msg)
}

// abortLocked is abort with st.mu held.
func (st *httpStream) abortLocked(code int, msg string) {
	if st.ended || st.final {
		return
	}
	var lines [][]byte
	for _, id := range st.ids {
		lines = append(lines, bytes.TrimRight(errorResponse(json.RawMessage(id), code, "%s", msg).marshal(), "\n"))
	}
	switch {
	case len(lines) == 1:
		st.queue = append(st.queue, httpMsg{line: append(lines[0], '\n'), code: code})
	case len(lines) > 1: // a batch's requests: one array, as its response would be
		st.queue = append(st.queue, httpMsg{line: append(append([]byte{'['}, bytes.Join(lines, []byte{','})...), ']', '\n')})
	}
	st.ended = true
	st.poke()
}

func (st *httpStream) poke() {
	select {
	case st.wake <- struct{}{}:
	default:
	}
}

// take returns the queued messages and whether the stream ends after them.
func (st *httpStream) take() ([]httpMsg, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	q := st.queue
	st.queue, st.bytes = nil, 0
	return q, st.final || st.ended
}

// streamOpts say how run writes a stream.
type streamOpts struct {
	sse       bool                 // always SSE (a GET stream, a listen)
	status    func(code int) int   // the status of a lone JSON response, by its error code; nil = 200
	header    func(hd http.Header) // headers to add before the first byte
	stall     time.Duration        // one write's deadline
	keepAlive time.Duration        // a comment on a quiet stream
	done      <-chan struct{}      // ends the stream, its requests answered with msgShuttingDown (shutdown); nil = never
}

// run writes st to w until its response, its end, the client's leaving
// or o.done.
func (st *httpStream) run(w http.ResponseWriter, r *http.Request, o streamOpts) {
	rc := http.NewResponseController(w)
	started := false
	start := func() bool {
		if o.header != nil {
			o.header(w.Header())
		}
		hd := w.Header()
		hd.Set("Content-Type", "text/event-stream")
		hd.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		started = true
		return rc.Flush() == nil
	}
	tick := time.NewTicker(o.keepAlive)
	defer tick.Stop()
	for {
		msgs, end := st.take()
		if !started && !o.sse && end && len(msgs) == 1 {
			status := http.StatusOK
			if o.status != nil {
				status = o.status(msgs[0].code)
			}
			if o.header != nil {
				o.header(w.Header())
			}
			_ = rc.SetWriteDeadline(time.Now().Add(o.stall))
			writeJSONResponse(w, status, msgs[0].line)
			return
		}
		if !started && (o.sse || len(msgs) > 0 || end) && !start() {
			return
		}
		for _, m := range msgs {
			if !writeEvent(w, rc, m, o.stall) {
				return
			}
		}
		if end {
			return
		}
		select {
		case <-st.wake:
		case <-tick.C:
			if !started && !start() {
				return
			}
			if sseSend(w, rc, o.stall, []byte(sseKeepAlive)) != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-o.done:
			st.abort(codeConnectionClosed, msgShuttingDown)
		}
	}
}

// writeEvent writes one message as an SSE event within stall.
func writeEvent(w http.ResponseWriter, rc *http.ResponseController, m httpMsg, stall time.Duration) bool {
	return sseSend(w, rc, stall, appendSSE(make([]byte, 0, len(m.line)+32), m.event, "message", m.line)) == nil
}
