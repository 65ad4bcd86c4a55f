package main

// jsonrpc.go: JSON-RPC 2.0 over a newline-delimited byte stream (stdio).
//
// One line is one message, or a batch (a JSON array of messages) under the
// MCP versions that have batches (before 2025-06-18). A line (or an HTTP
// POST body) is decoded once, into messages the layers below read
// (decodeFrame). Requests run concurrently, each in its own goroutine
// with a context that notifications/cancelled cancels; a cancelled
// request gets no response. Exactly one lineWriter owns the output, and
// each outgoing line says its kind to the HTTP transport (outgoing). Ids
// are kept as raw JSON and echoed byte for byte, so 9007199254740993 and
// "7" come back unchanged. The MCP methods themselves are in mcp.go.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"
	"time"
)

// maxFrame bounds one line (message or batch) in bytes. Larger lines are
// skipped and answered with -32600, so a runaway client cannot exhaust
// memory; 64 MiB leaves room for multi-megabyte base64 payloads.
const maxFrame = 64 << 20

// maxInflight and maxInflightBytes bound the requests running at once
// (ping, initialize and notifications are answered by the reader and do
// not count) and the bytes of their params, which each holds until it
// returns: a client that sends requests faster than they finish gets
// -32000 "server busy" instead of growing the server's memory without
// bound (about 12 KiB a waiting request, plus its params). Every reply
// the reader writes itself (ping, busy, errors) blocks it while the
// client does not read stdout, so no input is read meanwhile.
const (
	maxInflight      = 1024
	maxInflightBytes = 256 << 20
	maxListens       = 64 // open subscriptions/listen streams of one connection
)

// codeServerBusy is the JSON-RPC server error for a request refused
// because too many are running.
const codeServerBusy = -32000

// eofGrace is how long requests still running when stdin closes may take
// to finish before they are cancelled.
const eofGrace = 2 * time.Second

// stopGrace is how long cancelled requests may take to return before
// Serve gives up on them.
const stopGrace = 5 * time.Second

// errFrameTooLarge reports a line longer than the limit (already skipped).
var errFrameTooLarge = errors.New("jsonrpc: frame too large")

// readFrame returns the next line without its line ending. A final line
// without a newline is returned before io.EOF. A line longer than limit is
// consumed and reported as errFrameTooLarge, so reading can go on.
func readFrame(r *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	tooLarge := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLarge {
			if len(line)+len(chunk) > limit+2 { // +2: the "\r\n" is not part of the frame
				tooLarge, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(line) > 0 && !tooLarge:
			return bytes.TrimRight(line, "\r\n"), nil // the caller sees io.EOF next time
		case err != nil:
			return nil, err
		case tooLarge:
			return nil, errFrameTooLarge
		}
		return bytes.TrimRight(line, "\r\n"), nil
	}
}

// lineWriter writes one JSON value per line. It is the only writer of the
// server's output; its error is sticky: after the first failed write every
// later write is a no-op that returns the same error. Before setOutput,
// writes are dropped.
type lineWriter struct {
	mu  sync.Mutex
	w   *bufio.Writer
	err error
}

// setOutput directs the writer to w.
func (lw *lineWriter) setOutput(w io.Writer) {
	lw.mu.Lock()
	lw.w, lw.err = bufio.NewWriterSize(w, 64<<10), nil
	lw.mu.Unlock()
}

// write sends line (which must end in '\n' and hold no other newline).
func (lw *lineWriter) write(line []byte) error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.err != nil || lw.w == nil {
		return lw.err
	}
	if _, err := lw.w.Write(line); err != nil {
		lw.err = err
		return err
	}
	lw.err = lw.w.Flush()
	return lw.err
}

// wireMessage is an incoming message as it arrives, fields kept raw
// (the go-sdk's wire.go does the same); decodeMessage reads it.
type wireMessage struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// message is one incoming message, decoded once where it arrives (Serve's
// line reader, an HTTP POST: decodeFrame) and passed down: the transport's
// checks, the Server and the method handlers read its fields, never its
// bytes again. A message that is not valid JSON-RPC is invalid, with the
// error reply to send (nil for a notification: no answer).
type message struct {
	ID     json.RawMessage // as received (valid unless invalid), echoed byte for byte; nil for a notification
	Method string          // "" for a response of the client's
	Params json.RawMessage // the params object; nil when absent or null
	Result json.RawMessage // a response's
	Error  json.RawMessage // a response's
	paramsHead

	// claim is set when Meta holds the 2026-07-28 protocolVersion key, the
	// one mark of a modern request (a bare _meta with only progressToken
	// is legacy traffic); env is its envelope, or envErr says what is
	// wrong with it (-32602, mcp_modern.go).
	claim  bool
	env    *modernReq
	envErr error

	invalid bool
	reply   *response // an invalid message's error reply
}

// paramsHead is what is read of params besides the method's own fields:
// the _meta envelope, the name and uri that the HTTP header Mcp-Name
// mirrors, tools/call's arguments and retry answers (read by the reader,
// Tool.Arrive, and by the handler), and notifications/cancelled's
// requestId (read by the HTTP transport and the Server). A field of the
// wrong type is left empty, as the method's own decoding would.
type paramsHead struct {
	Meta           map[string]json.RawMessage `json:"_meta"`
	Name           *string                    `json:"name"`
	URI            *string                    `json:"uri"`
	Arguments      json.RawMessage            `json:"arguments"`
	InputResponses json.RawMessage            `json:"inputResponses"`
	RequestState   json.RawMessage            `json:"requestState"`
	RequestID      json.RawMessage            `json:"requestId"`
}

// name is params.name, "" when absent or not a string.
func (h *paramsHead) name() string {
	if h.Name == nil {
		return ""
	}
	return *h.Name
}

// uri is params.uri, "" when absent or not a string.
func (h *paramsHead) uri() string {
	if h.URI == nil {
		return ""
	}
	return *h.URI
}

// decodeMessage decodes and checks one message: its envelope (jsonrpc,
// id, method, params an object), and params' head. The method and the
// head are read even when the envelope is bad, for the transport to tell
// the message's era and the Server to refuse a batched modern one.
func decodeMessage(raw []byte) *message {
	m := &message{}
	var w wireMessage
	err := json.Unmarshal(raw, &w)
	if err == nil {
		m.ID, m.Result, m.Error = w.ID, w.Result, w.Error
		_ = json.Unmarshal(w.Method, &m.Method) // not a string: "", reported below
		if len(w.Params) > 0 && w.Params[0] == '{' {
			m.Params = w.Params
			_ = json.Unmarshal(m.Params, &m.paramsHead) // a field of the wrong type stays empty
			if _, ok := m.Meta[metaProtocolVersion]; ok {
				m.claim = true
				m.env, m.envErr = parseEnvelope(m.Meta)
			}
		}
	}
	m.reply = checkMessage(raw, w, m.Method, err)
	// A notification whose params are not an object gets no answer.
	badNote := w.ID == nil && w.Params != nil && string(w.Params) != "null" && w.Params[0] != '{'
	m.invalid = m.reply != nil || badNote
	return m
}

// checkMessage checks the envelope w of raw (decoded with err; method is
// w.Method as a string, "" when it is not one) and returns the error
// reply of a bad one: -32700 when it is not JSON, -32600 for a bad
// envelope, -32602 for params that are not an object.
func checkMessage(raw []byte, w wireMessage, method string, err error) *response {
	if err != nil {
		return decodeError(err, "invalid request: a message must be a JSON object")
	}
	if t := bytes.TrimLeft(raw, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return errorResponse(nullID, codeInvalidRequest, "invalid request: a message must be a JSON object, not %s", jsonValueKind(t))
	}
	id := w.ID
	if id != nil && !validID(id) {
		return errorResponse(nullID, codeInvalidRequest, "invalid request: id must be a string or an integer")
	}
	if id == nil {
		id = nullID // for error replies to malformed notifications
	}
	if string(w.JSONRPC) != `"2.0"` {
		return errorResponse(id, codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if w.Method == nil {
		if w.ID != nil && (w.Result != nil || w.Error != nil) {
			return nil // a response of the client's
		}
		return errorResponse(id, codeInvalidRequest, `invalid request: "method" is missing`)
	}
	if method == "" {
		return errorResponse(id, codeInvalidRequest, `invalid request: "method" must be a non-empty string`)
	}
	if p := w.Params; p != nil && string(p) != "null" && p[0] != '{' && w.ID != nil {
		return errorResponse(id, codeInvalidParams, "invalid params: %s params must be an object", method)
	}
	return nil
}

// frame is one line of stdio or one HTTP POST body, decoded: a message,
// or a batch (a JSON array) of them.
type frame struct {
	msgs  []*message // the message, or the batch's elements in order
	batch bool
	err   error // the batch is not a JSON array of values (msgs is nil)
}

// decodeFrame decodes line, which is not empty.
func decodeFrame(line []byte) frame {
	if line[0] != '[' {
		return frame{msgs: []*message{decodeMessage(line)}}
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(line, &elems); err != nil {
		return frame{batch: true, err: err}
	}
	f := frame{batch: true, msgs: make([]*message, len(elems))}
	for i, e := range elems {
		f.msgs[i] = decodeMessage(e)
	}
	return f
}

// response is an outgoing JSON-RPC response. ID is the request's id as
// received, or null when it could not be read.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// notification is an outgoing JSON-RPC notification.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

var nullID = json.RawMessage("null")

// newResponse builds the response to id from a handler's result and error.
// An *RPCError is sent as is; any other error becomes -32603.
func newResponse(id json.RawMessage, result any, err error) *response {
	r := &response{JSONRPC: "2.0", ID: id}
	var rpcErr *RPCError
	switch {
	case errors.As(err, &rpcErr):
		r.Error = rpcErr
	case err != nil:
		r.Error = &RPCError{Code: codeInternalError, Message: err.Error()}
	case result == nil:
		r.Result = struct{}{}
	default:
		r.Result = result
	}
	return r
}

func errorResponse(id json.RawMessage, code int, format string, a ...any) *response {
	return &response{JSONRPC: "2.0", ID: id, Error: &RPCError{Code: code, Message: fmt.Sprintf(format, a...)}}
}

// marshal encodes r as a line; a result that cannot be encoded (a handler
// bug) turns r into -32603 so the client still gets an answer.
func (r *response) marshal() []byte {
	b, err := encodeLine(r)
	if err != nil {
		*r = *errorResponse(r.ID, codeInternalError, "internal error: cannot encode the result: %v", err)
		b, _ = encodeLine(r)
	}
	return b
}

// code is r's error code; 0 for a result.
func (r *response) code() int {
	if r.Error == nil {
		return 0
	}
	return r.Error.Code
}

// inflight is a request being handled. cancelled is set (under
// Server.mu) when the client cancels it; its response is then dropped.
type inflight struct {
	cancel    context.CancelFunc
	cancelled bool
	bytes     int  // len(params), counted in Server.inflightBytes
	listen    bool // a subscriptions/listen stream, counted in Server.listens
}

// Serve reads messages from r and writes responses and notifications to w
// until r ends (stdin EOF), a write to w fails (the client closed its end)
// or ctx is done. On EOF, requests still running
// get eofGrace to finish before they are cancelled; when ctx ends they are
// cancelled at once. Serve returns once every handler has returned, or
// stopGrace after cancelling them; the error is nil on EOF and
// cancellation, else the read error.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	s.out.setOutput(w)
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()

	readErr := make(chan error, 1)
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := readFrame(br, s.maxFrame)
			if errors.Is(err, errFrameTooLarge) {
				s.send(errorResponse(nullID, codeInvalidRequest, "message too large: a line may hold at most %d bytes", s.maxFrame))
				continue
			}
			if err != nil {
				readErr <- err
				return
			}
			if s.isStopping() {
				return // shutting down: read no more
			}
			s.handleLine(ctx, line)
		}
	}()

	var err error
	select {
	case err = <-readErr:
		if err == io.EOF {
			err = nil
		}
		s.stop()
		if !s.waitTimeout(eofGrace) {
			cancelAll()
		}
	case <-ctx.Done():
		s.stop()
		cancelAll()
	case <-s.clientGone:
		s.stop()
		cancelAll()
	}
	if !s.waitTimeout(stopGrace) {
		// A handler that ignores its context must not keep the process
		// (and the programs it started) alive.
		s.errlog.Printf("requests still running %v after shutdown began; exiting anyway", stopGrace)
	}
	s.close()
	return err
}

// goHandler runs f in a goroutine counted in s.wg, unless the server is
// stopping. The check and the count happen under s.mu, so no handler is
// added once Serve has begun to wait for them (a WaitGroup must not be
// added to from zero while it is waited on).
func (s *Server) goHandler(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopping {
		s.wg.Go(f)
	}
}

// stop makes the server start no more handlers, and ends the open
// subscriptions/listen requests (they answer with a closing result).
func (s *Server) stop() {
	s.mu.Lock()
	if !s.stopping {
		close(s.stopped)
	}
	s.stopping = true
	s.mu.Unlock()
}

func (s *Server) isStopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopping
}

// waitTimeout waits for running handlers; it reports whether they all
// returned within d. Call it only after stop.
func (s *Server) waitTimeout(d time.Duration) bool {
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// handleLine processes one line of stdio: a message or a batch.
func (s *Server) handleLine(ctx context.Context, line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	s.handleFrame(ctx, decodeFrame(line))
}

// handleFrame processes one decoded frame. Requests run in their own
// goroutines (tracked by s.wg); this returns without waiting for them, so
// the next frame (a ping, a cancellation) is read at once.
func (s *Server) handleFrame(ctx context.Context, f frame) {
	if !f.batch {
		reply, job := s.prepare(ctx, f.msgs[0])
		if job != nil {
			s.goHandler(func() { s.send(job()) })
		}
		s.send(reply)
		return
	}
	var syntax *json.SyntaxError
	if v := s.negotiated(); protoAtLeast(v, protoV20250618) && !errors.As(f.err, &syntax) {
		// MCP 2025-06-18 removed JSON-RPC batching (changelog, PR #416);
		// 2025-03-26 had added it, and 2024-11-05 takes JSON-RPC 2.0 whole.
		s.send(errorResponse(nullID, codeInvalidRequest, "invalid request: MCP has no JSON-RPC batches since 2025-06-18 (this session speaks %s): send each message on a line of its own", v))
		return
	}
	if f.err != nil || len(f.msgs) == 0 {
		s.send(decodeError(f.err, "invalid request: a batch must be a non-empty array of messages"))
		return
	}
	// Answers keep the batch order; notifications leave no entry. The
	// elements are prepared here, in order (a cancellation on the next
	// line must find them), and run concurrently in one handler.
	replies := make([]*response, len(f.msgs))
	jobs := make([]func() *response, len(f.msgs))
	for i, m := range f.msgs {
		if r, refused := s.batchRefuses(m); refused {
			replies[i] = r // nil for a notification
			continue
		}
		replies[i], jobs[i] = s.prepare(ctx, m)
	}
	s.goHandler(func() {
		var batch sync.WaitGroup
		for i, job := range jobs {
			if job != nil {
				batch.Go(func() { replies[i] = job() })
			}
		}
		batch.Wait()
		var out [][]byte
		var first json.RawMessage // the batch's reply goes where its first answered request came from
		for _, r := range replies {
			if r != nil {
				out = append(out, bytes.TrimSuffix(r.marshal(), []byte("\n")))
				if first == nil {
					first = r.ID
				}
			}
		}
		if len(out) > 0 {
			line := append(append([]byte("["), bytes.Join(out, []byte(","))...), "]\n"...)
			s.write(outgoing{line: line, related: first, kind: outResponse})
		}
	})
}

// prepare classifies one message. It returns an immediate reply (errors,
// and the methods answered in line order), or a job that handles the
// request and returns its reply (nil when cancelled), or neither
// (notifications, and responses to the requests this server sent).
func (s *Server) prepare(ctx context.Context, m *message) (reply *response, job func() *response) {
	switch {
	case m.invalid:
		return m.reply, nil
	case m.Method == "":
		s.answered(m)
		return nil, nil
	case m.ID == nil:
		s.notification(ctx, m)
		return nil, nil
	}
	return s.admit(ctx, m)
}

// admit registers request m in s.inflight within the caps and returns
// the job that runs it, or an immediate reply: a duplicate id, a method
// answered in line (flagInLine: by the reader, outside the
// caps), or server busy.
func (s *Server) admit(ctx context.Context, m *message) (*response, func() *response) {
	info := s.methods[m.Method] // the zero methodInfo for an unknown method: call reports it
	id, key := m.ID, string(m.ID)
	s.mu.Lock()
	if _, dup := s.inflight[key]; dup {
		s.mu.Unlock()
		return errorResponse(id, codeInvalidRequest, "invalid request: id %s is already in use by a running request", id), nil
	}
	if info.flags&flagInLine != 0 {
		// A goroutine per ping let a client that does not read stdout
		// grow memory without bound, while a reply written by the reader
		// blocks it until stdout drains (backpressure), so memory stays
		// flat; initialize and logging/setLevel must be in effect before
		// the next line is read.
		s.mu.Unlock()
		result, err := s.safeCall(ctx, m)
		return newResponse(id, result, err), nil
	}
	listen := info.flags&flagStream != 0
	if listen && s.listens >= maxListens {
		s.mu.Unlock()
		return errorResponse(id, codeServerBusy, "server busy: %d subscriptions/listen streams are open on this connection, the most at once: cancel one (notifications/cancelled) or put its URIs in one stream", s.listens), nil
	}
	// Open listen streams are counted apart: they never end by
	// themselves, and a client that kept many must still call tools.
	if n := len(s.inflight) - s.listens; n > 0 && (n >= s.maxInflight || s.inflightBytes+len(m.Params) > s.maxInflightBytes) {
		s.mu.Unlock()
		return errorResponse(id, codeServerBusy, "server busy: %d requests are running (at most %d, with %d bytes of params): wait for their replies or cancel some, then retry", n, s.maxInflight, s.maxInflightBytes), nil
	}
	ctx, cancel := context.WithCancel(ctx)
	fl := &inflight{cancel: cancel, bytes: len(m.Params), listen: listen}
	if listen {
		s.listens++
	}
	s.inflight[key] = fl
	s.inflightBytes += fl.bytes
	s.mu.Unlock()
	ctx = withRequestID(withProgress(ctx, s.progressReporter(m)), id)
	if info.arrive != nil {
		ctx = info.arrive(s, ctx, m) // on the reader: in line order
	}

	return nil, func() *response {
		result, err := s.safeCall(ctx, m)
		progressFrom(ctx).done()
		s.mu.Lock()
		delete(s.inflight, key)
		s.inflightBytes -= fl.bytes
		if fl.listen {
			s.listens--
		}
		cancelled := fl.cancelled
		s.mu.Unlock()
		cancel()
		if cancelled {
			return nil // MCP: no response to a cancelled request
		}
		return newResponse(id, result, err)
	}
}

// decodeError answers a line that did not decode: -32700 when it is not
// JSON at all, else -32600 with msg. (json.Unmarshal validates the whole
// input before decoding, so a syntax error means nothing was used.)
func decodeError(err error, msg string) *response {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return errorResponse(nullID, codeParseError, "parse error: the line is not valid JSON (%v at byte %d)", err, syntax.Offset)
	}
	return errorResponse(nullID, codeInvalidRequest, "%s", msg)
}

// validID reports whether id is a JSON string or number (MCP: never null).
func validID(id json.RawMessage) bool {
	if id[0] == '"' {
		return true
	}
	// An integer: MCP ids are strings or integers, so 1.5 and 1e3 are not.
	digits := bytes.TrimPrefix(id, []byte("-"))
	return len(digits) > 0 && len(bytes.Trim(digits, "0123456789")) == 0
}

// jsonValueKind names the kind of the JSON value v starts: "null",
// "an array", "a string", "a number" or "a boolean".
func jsonValueKind(v []byte) string {
	switch {
	case len(v) == 0 || v[0] == 'n':
		return "null"
	case v[0] == '[':
		return "an array"
	case v[0] == '"':
		return "a string"
	case v[0] == 't' || v[0] == 'f':
		return "a boolean"
	}
	return "a number"
}

// safeCall runs the method handler, turning a panic into -32603 so that
// one bad handler cannot take the server down.
func (s *Server) safeCall(ctx context.Context, m *message) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.errlog.Printf("panic in %s: %v\n%s", m.Method, p, debug.Stack())
			s.log("error", "ttywright", fmt.Sprintf("internal error in %s: %v", m.Method, p))
			result, err = nil, &RPCError{Code: codeInternalError, Message: fmt.Sprintf("internal error in %s: %v", m.Method, p)}
		}
	}()
	return s.call(ctx, m)
}

// cancelRequest handles notifications/cancelled: the named request's
// context is cancelled and its response suppressed. Unknown ids (finished
// already, or never sent) are ignored, as MCP asks.
func (s *Server) cancelRequest(_ context.Context, m *message) (any, error) {
	if m.RequestID == nil {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if fl, ok := s.inflight[string(m.RequestID)]; ok {
		fl.cancelled = true
		fl.cancel()
	}
	return nil, nil
}

// outgoingRequest is a request this server sends the client.
type outgoingRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  any             `json:"params,omitempty"`
}

// request sends the client the request method(params) and waits for its
// response. It returns the response's result, or the client's error as
// an *RPCError; when ctx ends first it tells the client with
// notifications/cancelled and returns ctx's error. Ids are strings
// ("ttywright-N") so that they never meet the client's own, which the
// server only answers.
func (s *Server) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	s.mu.Lock()
	s.askSeq++
	key := fmt.Sprintf("ttywright-%d", s.askSeq)
	answer := make(chan *message, 1)
	if s.asked == nil {
		s.asked = map[string]chan *message{}
	}
	s.asked[key] = answer
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.asked, key)
		s.mu.Unlock()
	}()
	id, _ := json.Marshal(key)
	line, err := encodeLine(outgoingRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	related := requestIDFrom(ctx)
	s.write(outgoing{line: line, related: related, kind: outRequest})
	select {
	case m := <-answer:
		if m.Error != nil {
			e := &RPCError{}
			if json.Unmarshal(m.Error, e) != nil {
				e = &RPCError{Code: codeInternalError, Message: "the client answered " + method + " with a malformed error"}
			}
			return nil, e
		}
		return m.Result, nil
	case <-ctx.Done():
		s.notifyFor(related, "notifications/cancelled", map[string]any{"requestId": key, "reason": "the tool call that asked was cancelled or timed out"})
		return nil, ctx.Err()
	case <-s.clientGone:
		return nil, errors.New("the client went away")
	}
}

// answered hands a response from the client to the request that waits
// for it; a response to anything else (an id this server never sent, or
// sent and given up on) is ignored.
func (s *Server) answered(m *message) {
	var key string
	if json.Unmarshal(m.ID, &key) != nil {
		return
	}
	s.mu.Lock()
	answer := s.asked[key]
	delete(s.asked, key)
	s.mu.Unlock()
	if answer != nil {
		answer <- m
	}
}

// send writes a response; nil is a no-op.
func (s *Server) send(r *response) {
	if r != nil {
		line := r.marshal()
		s.write(outgoing{line: line, related: r.ID, kind: outResponse, code: r.code()})
	}
}

// outKind is what an outgoing message is.
type outKind uint8

const (
	outNotification outKind = iota
	outRequest              // a request of the server's (elicitation/create)
	outResponse             // a response, or a batch of them
)

// outgoing is one line the Server writes, with what a transport routes it
// by, said by the writer rather than read back from the bytes.
type outgoing struct {
	line []byte // one JSON value and '\n'
	// related is the client request the line belongs to: a response's
	// own id, the request a progress notification or an
	// elicitation/create serves; nil for the connection's own messages.
	related json.RawMessage
	kind    outKind
	code    int // a response's error code; 0 for a result, and for a batch
}

// write sends one outgoing line. A Server with a sink (the HTTP
// transport, mcp_http*.go) hands it o, whose related picks the HTTP
// stream; else the line goes to out, where the first write error (the
// client went away) is logged and closes clientGone, which stops Serve.
// That error goes to stderr only: through logf it became a
// notifications/message whose own failed write re-entered writeFailed.Do,
// which blocked that goroutine, and every later writer, for good.
func (s *Server) write(o outgoing) {
	if s.sink != nil {
		s.sink(o)
		return
	}
	if err := s.out.write(o.line); err != nil {
		s.writeFailed.Do(func() {
			s.errlog.Printf("writing to the client: %v; shutting down", err)
			close(s.clientGone)
		})
	}
}

// notify sends a notification to the client.
func (s *Server) notify(method string, params any) { s.notifyFor(nil, method, params) }

// notifyFor sends a notification that belongs to the client request
// related (outgoing).
func (s *Server) notifyFor(related json.RawMessage, method string, params any) {
	b, err := encodeLine(notification{JSONRPC: "2.0", Method: method, Params: params})
	if err != nil {
		s.logf("error", "cannot encode %s: %v", method, err)
		return
	}
	s.write(outgoing{line: b, related: related, kind: outNotification})
}

// progress sends notifications/progress for one request that carried
// params._meta.progressToken; without a token every call is a no-op.
// Progress values must strictly increase (MCP), so smaller or equal ones
// are dropped, as is anything after the response or after the request was
// cancelled (MCP: nothing more for a cancelled request).
type progress struct {
	s     *Server
	token json.RawMessage

	mu       sync.Mutex
	version  string          // the request's protocol version (bind)
	ctx      context.Context // the request's; nil until bind
	last     float64
	started  bool
	finished bool
}

// bind gives p the request's context and protocol version, once the
// method handler knows them (the era is the request's, mcp.go).
func (p *progress) bind(ctx context.Context, version string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.ctx, p.version = ctx, version
	p.mu.Unlock()
}

// report sends one progress notification. total <= 0 means unknown;
// message is dropped for 2024-11-05 clients, which lack it.
func (p *progress) report(progress, total float64, message string) {
	if p == nil || p.token == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished || p.started && progress <= p.last || p.ctx != nil && p.ctx.Err() != nil {
		return
	}
	p.started, p.last = true, progress
	params := map[string]any{"progressToken": p.token, "progress": progress}
	if total > 0 {
		params["total"] = total
	}
	if message != "" && protoAtLeast(p.version, protoV20250326) {
		params["message"] = message
	}
	var related json.RawMessage
	if p.ctx != nil {
		related = requestIDFrom(p.ctx)
	}
	p.s.notifyFor(related, "notifications/progress", params) // under p.mu: keeps the order
}

// done stops further notifications (the response is on its way).
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.finished = true
	p.mu.Unlock()
}

// progressReporter reads params._meta.progressToken (a string or number).
func (s *Server) progressReporter(m *message) *progress {
	if t := m.Meta["progressToken"]; t != nil && validID(t) {
		return &progress{s: s, token: t}
	}
	return nil
}

type progressKey struct{}

func withProgress(ctx context.Context, p *progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// progressFrom returns the request's progress reporter; its methods are
// no-ops when the request carried no progress token.
func progressFrom(ctx context.Context) *progress {
	p, _ := ctx.Value(progressKey{}).(*progress)
	return p
}

type requestIDKey struct{}

// withRequestID gives a handler its request's id as received
// (subscriptions/listen uses it as the subscription id).
func withRequestID(ctx context.Context, id json.RawMessage) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// requestIDFrom returns the id of ctx's request; null when there is none.
func requestIDFrom(ctx context.Context) json.RawMessage {
	if id, ok := ctx.Value(requestIDKey{}).(json.RawMessage); ok {
		return id
	}
	return nullID
}

// RPCError is a JSON-RPC 2.0 error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// Error gives the code and the message.
func (e *RPCError) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// JSON-RPC 2.0 and MCP error codes.
const (
	codeParseError       = -32700
	codeInvalidRequest   = -32600
	codeMethodNotFound   = -32601
	codeInvalidParams    = -32602
	codeInternalError    = -32603
	codeResourceNotFound = -32002
)
