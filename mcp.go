package main

// mcp.go: the MCP layer over jsonrpc.go: the era of each request and the
// legacy session's dispatch through the method table (mcp_methods.go),
// initialize and version negotiation, logging, tools/list and
// tools/call. The stateless 2026-07-28 requests are in mcp_modern.go.
// Field names follow the MCP schema (modelcontextprotocol/modelcontextprotocol,
// schema/<version>/schema.ts).

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
)

// The MCP revisions this server speaks, named by their dates. Compare them
// with protoAtLeast, never as strings.
const (
	protoV20241105 = "2024-11-05"
	protoV20250326 = "2025-03-26" // tool annotations, completions, progress messages
	protoV20250618 = "2025-06-18" // titles, structuredContent and outputSchema, resource_link
	protoV20251125 = "2025-11-25" // icons, Implementation.description
	protoV20260728 = "2026-07-28" // stateless: no initialize, an envelope on every request
)

// protocolVersions are the legacy MCP revisions this server speaks, oldest
// first: the one list of them. initialize echoes the client's version when
// it is listed, else offers the newest; it never answers a modern one.
var protocolVersions = []string{protoV20241105, protoV20250326, protoV20250618, protoV20251125}

// modernVersions are the stateless revisions, served per request
// (mcp_modern.go), oldest first.
var modernVersions = []string{protoV20260728}

// protoAtLeast reports whether version v is want or a later one of
// protocolVersions and modernVersions. A v in neither list (none
// negotiated yet: "") is older than all.
func protoAtLeast(v, want string) bool {
	all := slices.Concat(protocolVersions, modernVersions)
	i := slices.Index(all, v)
	return i >= 0 && i >= slices.Index(all, want)
}

// instructions is sent in the initialize result: how to drive a terminal
// with these tools. Clients put it in the model's context.
const instructions = `ttywright runs programs in pseudo-terminals and shows you their screens.
1. shell_start {command, args} starts one (default: your shell); pass its shell_session_id as session_id.
2. In a shell: shell_send {session_id, text: "make test\n", wait_for_command: true} runs the line and returns the command's exit code, output and the new prompt. text is a paste: a program inserts it as data (vim in insert mode, a shell's line), never as commands.
3. Commands and mode keys go in keys or input: shell_send {session_id, keys: ["Escape"], input: ":wq\r", wait_for_input: true}; send C-c in a call of its own.
4. Elsewhere wait for what the screen will show, never sleep: wait_for (text or /regex/), wait_for_gone, wait_idle_ms or wait_stable_ms, within timeout_ms; shell_wait waits without typing.
5. Look: shell_read, shell_find locates text or the highlighted item ({style: {selected: true}}), shell_click clicks it, shell_screenshot {inline: true} shows the picture.
6. shell_record_start and shell_record_stop make a GIF or asciicast; shell_stop ends the program.
Resources: sessions://list, session://{id}/commands, .../screenshots, .../recordings.`

// logLevels are the MCP logging levels (RFC 5424 severities), least
// severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// The MCP spec asks servers to rate-limit log messages: notifications/message
// goes out in bursts of at most logBurst, refilled at logRate a second; the
// rest are dropped and counted, and the next message that may go is
// preceded by one "N messages dropped" summary.
const (
	logBurst = 100
	logRate  = 20
)

// logLimiter is a token bucket: the one behind Server.log (guarded by
// Server.mu) and the HTTP listener's failed-login limits (mcp_http_auth.go).
// The zero value is full, at logBurst and logRate.
type logLimiter struct {
	burst   float64 // tokens at most; 0: logBurst
	rate    float64 // tokens added a second; 0: logRate
	tokens  float64
	last    time.Time // last refill; zero = never used
	dropped int       // messages dropped since the last one sent
	worst   int       // most severe dropped level (index in logLevels)
	now     func() time.Time
}

// take spends a token for a message at level (index in logLevels). It
// reports whether the message may go, and then how many were dropped before
// it and the most severe of their levels (counts reset).
func (l *logLimiter) take(level int) (ok bool, dropped, worst int) {
	now := time.Now()
	if l.now != nil {
		now = l.now()
	}
	burst, rate := cmp.Or(l.burst, logBurst), cmp.Or(l.rate, logRate)
	if l.last.IsZero() {
		l.tokens = burst
	} else if d := now.Sub(l.last); d > 0 {
		l.tokens = min(burst, l.tokens+d.Seconds()*rate)
	}
	l.last = now
	if l.tokens < 1 {
		if l.dropped == 0 || level > l.worst {
			l.worst = level
		}
		l.dropped++
		return false, 0, 0
	}
	l.tokens--
	dropped, worst = l.dropped, l.worst
	l.dropped, l.worst = 0, 0
	return true, dropped, worst
}

// mcpHub is the MCP state every connection shares: the tools, the
// sessions and captures the resources show, the watchers of resource
// changes (resources_subs.go), and the connections that hear log
// messages. It is the sessions' event sink. Build it with newHub.
type mcpHub struct {
	version  string // the server's, in serverInfo
	tools    []*Tool
	toolbox  *Toolbox
	sessions *Sessions
	store    *captureStore
	res      resState

	mu    sync.Mutex
	conns map[*Server]struct{}
}

// newHub returns the shared state for tb's tools over its sessions.
func newHub(version string, tb *Toolbox) *mcpHub {
	return &mcpHub{version: version, tools: tb.list(), toolbox: tb, sessions: tb.sessions, store: tb.store, conns: map[*Server]struct{}{}}
}

// log sends an MCP log message (notifications/message) to every
// connection whose client asked for that level (Server.log). level is one
// of logLevels; logger names the part ("pty", "record"); data is any JSON
// value. Never log secrets: a client may show it to a person.
func (h *mcpHub) log(level, logger string, data any) {
	h.mu.Lock()
	conns := make([]*Server, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.log(level, logger, data)
	}
}

// Server is one MCP connection over a byte stream: the negotiated state,
// the tools and methods it dispatches to, and the requests in flight.
// Build it with newServer; tools may be appended (tests do) before Serve.
type Server struct {
	hub     *mcpHub
	tools   []*Tool               // tools/list order
	methods map[string]methodInfo // mcpMethods (mcp_methods.go); tests serve a clone with more
	calls   *callLog              // --log-path; nil = no log
	errlog  *log.Logger           // stderr in the binary; discarded in tests
	// maxFrame bounds an incoming line in bytes (the maxFrame constant;
	// tests lower it).
	maxFrame int
	// maxInflight and maxInflightBytes bound the requests running at once
	// and the bytes of their params (jsonrpc.go; tests lower them).
	maxInflight, maxInflightBytes int
	// batchRefuses answers a batch element this connection refuses to run
	// as part of a batch (with its error reply, nil for a notification);
	// newServer sets it to the eras' rule (modernInBatch).
	batchRefuses func(*message) (*response, bool)
	// clientNeeds lists, by tool name, the client capabilities a tool
	// needs; a modern tools/call whose envelope lacks one is -32021
	// (mcp_modern.go). Set before Serve; nil = none.
	clientNeeds map[string][]string
	// stopped is closed when Serve begins to shut down: open
	// subscriptions/listen requests then end with a closing result.
	stopped chan struct{}
	// cwd is the client's working directory where it is not the
	// server's (a shared service's front end's, main_service.go): the
	// default of shell_start's cwd. Set before Serve; "" = the server's.
	cwd string

	out lineWriter
	// sink, when set before the first message, takes every outgoing
	// line instead of out, with the client request it belongs to and
	// its kind (Server.write): the HTTP transport routes it to that
	// request's stream (mcp_http_stream.go).
	sink        func(outgoing)
	wg          sync.WaitGroup // running request handlers
	writeFailed sync.Once
	// clientGone is closed at the first failed write to the client: with
	// its stdout closed (EPIPE) nobody hears the replies, so Serve stops
	// as at stdin EOF instead of running the sessions on.
	clientGone chan struct{}

	mu       sync.Mutex
	version  string // negotiated protocol version; "" until initialize
	level    int    // index in logLevels of the least severe message sent
	logLim   logLimiter
	inflight map[string]*inflight
	stopping bool // Serve is shutting down: no new handlers
	// inflightBytes is the sum of len(params) of the requests in inflight
	// (under mu).
	inflightBytes int
	listens       int      // the subscriptions/listen requests among inflight
	watch         *watcher // the legacy session's resource watcher, from initialize (resources_subs.go)
	// clientCaps is the legacy client's capabilities from initialize,
	// clientName its clientInfo.name.
	clientCaps map[string]json.RawMessage
	clientName string
	// asked holds the requests this server sent the client that wait for
	// their responses, by id; askSeq numbers them (jsonrpc.go).
	asked  map[string]chan *message
	askSeq uint64
}

// newServer returns a connection to h: its tools, resource, prompt and
// completion methods, and log messages.
func newServer(h *mcpHub) *Server {
	s := &Server{
		hub:      h,
		tools:    slices.Clone(h.tools),
		maxFrame: maxFrame,
		errlog:   log.New(io.Discard, "", 0),
		level:    slices.Index(logLevels, "info"),
		inflight: map[string]*inflight{},
		stopped:  make(chan struct{}),

		clientGone: make(chan struct{}),

		batchRefuses: modernInBatch,
	}
	s.maxInflight, s.maxInflightBytes = maxInflight, maxInflightBytes
	s.methods = mcpMethods
	h.mu.Lock()
	h.conns[s] = struct{}{}
	h.mu.Unlock()
	return s
}

// close takes the connection out of the hub: no more log messages or
// resource notifications go to it.
func (s *Server) close() {
	h := s.hub
	h.mu.Lock()
	delete(h.conns, s)
	h.mu.Unlock()
	s.mu.Lock()
	w := s.watch
	s.mu.Unlock()
	if w != nil {
		h.removeWatcher(w)
	}
}

// call dispatches one request: a modern one (its params._meta holds the
// protocolVersion key) to callModern, any other to the legacy session.
func (s *Server) call(ctx context.Context, m *message) (any, error) {
	if m.claim {
		return s.callModern(ctx, m)
	}
	info, ok := s.requestMethod(m.Method)
	if ok && info.eras&eraLegacy == 0 {
		// Modern methods without the envelope: malformed, which a
		// dual-era client probing with server/discover reads as "not
		// modern" and falls back to initialize.
		return nil, invalidParams("missing _meta %s: %s is a %s request, send it with the per-request envelope (or use initialize for a legacy session)", metaProtocolVersion, m.Method, protoV20260728)
	}
	v := s.negotiated()
	progressFrom(ctx).bind(ctx, v)
	switch {
	case !ok:
		// Also before initialize: a client probing for a method this
		// server lacks gets "not found" at once.
		return nil, &RPCError{Code: codeMethodNotFound, Message: fmt.Sprintf("method not found: %q", m.Method)}
	case v == "" && info.flags&flagBeforeInit == 0:
		return nil, &RPCError{Code: codeInvalidRequest, Message: fmt.Sprintf("%s before initialize: send initialize first", m.Method)}
	}
	return info.serve(s, withVersion(ctx, v), m)
}

type versionKey struct{}

// withVersion gives a method handler the negotiated protocol version, so
// that its result leaves out the fields that version lacks, as tools/list
// and renderResult do.
func withVersion(ctx context.Context, v string) context.Context {
	return context.WithValue(ctx, versionKey{}, v)
}

// versionAtLeast reports whether the request's negotiated protocol version
// is v or newer. A handler called without one (directly, in tests) gets
// every field.
func versionAtLeast(ctx context.Context, v string) bool {
	got, _ := ctx.Value(versionKey{}).(string)
	return got == "" || protoAtLeast(got, v)
}

// notification handles a message without an id: a notification of the
// message's era in the method table. Others are ignored.
func (s *Server) notification(ctx context.Context, m *message) {
	info, ok := s.methods[m.Method]
	era := eraLegacy
	if m.claim {
		era = eraModern
	}
	if ok && info.flags&flagNotification != 0 && info.eras&era != 0 && (m.Params != nil || info.flags&flagParamsOptional != 0) {
		_, _ = info.handle(s, ctx, m)
	}
}

// initialized handles notifications/initialized: nothing to do, requests
// are served from initialize on, for clients that skip it.
func (s *Server) initialized(context.Context, *message) (any, error) { return nil, nil }

// ping handles ping.
func (s *Server) ping(context.Context, json.RawMessage) (any, error) { return struct{}{}, nil }

// client is the name of the client of ctx's request: a modern request's
// envelope's clientInfo, else the legacy session's from initialize; ""
// when it gave none.
func (s *Server) client(ctx context.Context) string {
	if m := modernFrom(ctx); m != nil {
		return m.client
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clientName
}

// negotiated returns the protocol version agreed in initialize, or "".
func (s *Server) negotiated() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// atLeast reports whether the negotiated version is v or newer; false
// before initialize.
func (s *Server) atLeast(v string) bool { return protoAtLeast(s.negotiated(), v) }

// initialize negotiates the protocol version and describes the server.
// Without params it offers the newest version.
func (s *Server) initialize(_ context.Context, params json.RawMessage) (any, error) {
	var p struct {
		ProtocolVersion any `json:"protocolVersion"`
		ClientInfo      struct {
			Name, Version string
		} `json:"clientInfo"`
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if params != nil {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &RPCError{Code: codeInvalidParams, Message: "invalid initialize params: " + err.Error()}
		}
	}
	asked, ok := p.ProtocolVersion.(string)
	if p.ProtocolVersion != nil && !ok {
		return nil, &RPCError{Code: codeInvalidParams, Message: `invalid initialize params: "protocolVersion" must be a string such as "2025-06-18"`}
	}
	version := protocolVersions[len(protocolVersions)-1]
	if slices.Contains(protocolVersions, asked) {
		version = asked
	}
	s.mu.Lock()
	if prev := s.version; prev != "" {
		// One initialize per connection (MCP lifecycle): a second one
		// would switch the protocol under requests already running.
		s.mu.Unlock()
		return nil, &RPCError{Code: codeInvalidRequest, Message: fmt.Sprintf("invalid request: this connection was already initialized (protocol %s); initialize once per connection, or start a new connection to negotiate again", prev)}
	}
	s.version = version
	_ = json.Unmarshal(p.Capabilities, &s.clientCaps) // not an object: none
	s.clientName = p.ClientInfo.Name
	s.mu.Unlock()
	s.connWatcher() // list_changed and subscriptions from now on
	s.errlog.Printf("client %q %q asked for protocol %q, speaking %s", p.ClientInfo.Name, p.ClientInfo.Version, asked, version)

	info := map[string]any{"name": "ttywright", "version": s.hub.version}
	if protoAtLeast(version, protoV20250618) {
		info["title"] = "ttywright: Playwright for the terminal"
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities":    capabilities(version),
		"serverInfo":      info,
		"instructions":    instructions,
	}, nil
}

// setLevel handles logging/setLevel {level}.
func (s *Server) setLevel(_ context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Level string `json:"level"`
	}
	_ = json.Unmarshal(params, &p) // a wrong type leaves Level empty, reported below
	i := slices.Index(logLevels, p.Level)
	if i < 0 {
		return nil, &RPCError{Code: codeInvalidParams, Message: fmt.Sprintf("unknown log level %q: use one of %s", p.Level, strings.Join(logLevels, ", "))}
	}
	s.mu.Lock()
	s.level = i
	s.mu.Unlock()
	return struct{}{}, nil
}

// log sends notifications/message when level is at or above the level the
// client set (default info), the client has initialized, and the rate
// limit (logBurst, logRate) allows (mcpHub.log calls it).
func (s *Server) log(level, logger string, data any) {
	i := slices.Index(logLevels, level)
	s.mu.Lock()
	send := s.version != "" && i >= s.level
	var dropped, worst int
	if send {
		send, dropped, worst = s.logLim.take(i)
	}
	s.mu.Unlock()
	if !send {
		return
	}
	if dropped > 0 {
		// At the most severe dropped level: the client wanted those.
		s.notify("notifications/message", map[string]any{"level": logLevels[worst], "logger": "ttywright",
			"data": fmt.Sprintf("%d messages dropped (log messages are limited to %d at once, then %d a second)", dropped, logBurst, logRate)})
	}
	params := map[string]any{"level": level, "data": data}
	if logger != "" {
		params["logger"] = logger
	}
	s.notify("notifications/message", params)
}

// logReq sends a log message that belongs to the request of ctx. For a
// modern request it goes only when its envelope set logLevel, at or above
// that level, while the request runs (before its response) and was not
// cancelled; a legacy request's message follows the session's level (log).
func (s *Server) logReq(ctx context.Context, level, logger string, data any) {
	m := modernFrom(ctx)
	if m == nil {
		s.log(level, logger, data)
		return
	}
	if m.logLevel < 0 || slices.Index(logLevels, level) < m.logLevel || ctx.Err() != nil {
		return
	}
	params := map[string]any{"level": level, "data": data}
	if logger != "" {
		params["logger"] = logger
	}
	s.notifyFor(requestIDFrom(ctx), "notifications/message", params)
}

// logf writes to stderr and, at or above the client's level, to the client.
func (s *Server) logf(level, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	s.errlog.Print(msg)
	s.log(level, "ttywright", msg)
}

// toolInfo is one entry of tools/list (MCP Tool).
type toolInfo struct {
	Name         string           `json:"name"`
	Title        string           `json:"title,omitempty"` // 2025-06-18+
	Description  string           `json:"description,omitempty"`
	InputSchema  map[string]any   `json:"inputSchema"`
	OutputSchema map[string]any   `json:"outputSchema,omitempty"` // 2025-06-18+
	Annotations  *toolAnnotations `json:"annotations,omitempty"`  // 2025-03-26+
	Icons        []icon           `json:"icons,omitempty"`        // modern
	Meta         map[string]any   `json:"_meta,omitempty"`        // the MCP Apps extension's ui, to a client that declared it (mcp_apps.go)
}

// toolAnnotations are MCP ToolAnnotations. All hints are sent, because
// the defaults of the absent ones (destructive, open world) are the
// pessimistic ones.
type toolAnnotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// toolsList handles tools/list. All tools fit one page, so any non-empty
// cursor is invalid.
func (s *Server) toolsList(ctx context.Context, params json.RawMessage) (any, error) {
	if err := checkCursor(params); err != nil {
		return nil, err
	}
	v, _ := ctx.Value(versionKey{}).(string)
	list := make([]toolInfo, 0, len(s.tools))
	for _, t := range s.tools {
		if !visibleTool(ctx, t) {
			continue
		}
		ti := toolInfo{Name: t.Name, Description: t.Description, InputSchema: t.Input, Meta: appToolMeta(ctx, t)}
		if ti.InputSchema == nil {
			ti.InputSchema = map[string]any{"type": "object", "additionalProperties": false}
		}
		if protoAtLeast(v, protoV20250326) {
			ti.Annotations = &toolAnnotations{Title: t.Title, ReadOnlyHint: t.ReadOnly,
				DestructiveHint: t.Destructive, IdempotentHint: t.Idempotent, OpenWorldHint: t.OpenWorld}
		}
		if protoAtLeast(v, protoV20250618) {
			ti.Title, ti.OutputSchema = t.Title, t.Output
		}
		if modernFrom(ctx) != nil {
			ti.Icons = serverIcons()
		}
		list = append(list, ti)
	}
	return map[string]any{"tools": list}, nil
}

// checkCursor rejects a pagination cursor: every list here is one page.
func checkCursor(params json.RawMessage) error {
	var p struct {
		Cursor any `json:"cursor"`
	}
	_ = json.Unmarshal(params, &p) // absent params: no cursor
	if p.Cursor != nil && p.Cursor != "" {
		return &RPCError{Code: codeInvalidParams, Message: fmt.Sprintf("invalid cursor %v: this list has a single page, call it without a cursor", p.Cursor)}
	}
	return nil
}

// callResult is the MCP CallToolResult.
type callResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"` // 2025-06-18+
	IsError           bool            `json:"isError"`
}

// toolArrived runs the Arrive of the tool a tools/call names, if it has
// one; a malformed call is left to toolsCall.
func (s *Server) toolArrived(ctx context.Context, m *message) context.Context {
	for _, t := range s.tools {
		if t.Name == m.name() && t.Arrive != nil {
			return t.Arrive(ctx, m.Arguments)
		}
	}
	return ctx
}

// toolsCall handles tools/call {name, arguments}. An unknown tool is
// -32602; everything that goes wrong inside a tool, bad arguments
// included, is an isError result the model can read and act on.
func (s *Server) toolsCall(ctx context.Context, m *message) (any, error) {
	name := m.name()
	if name == "" {
		return nil, &RPCError{Code: codeInvalidParams, Message: `invalid params: tools/call needs {"name": "<tool>", "arguments": {...}}`}
	}
	var tool *Tool
	var names []string
	for _, t := range s.tools {
		if t.Name == name {
			tool = t
		}
		if visibleTool(ctx, t) {
			names = append(names, t.Name)
		}
	}
	switch {
	case tool == nil:
		return nil, &RPCError{Code: codeInvalidParams, Message: fmt.Sprintf("unknown tool %q: the tools are %s", name, strings.Join(names, ", "))}
	case !visibleTool(ctx, tool):
		return nil, errAppOnly(name)
	}
	args := m.Arguments
	if args == nil || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	if args[0] != '{' {
		return nil, &RPCError{Code: codeInvalidParams, Message: fmt.Sprintf(`invalid params: "arguments" of %s must be an object`, tool.Name)}
	}

	start := time.Now()
	v, _ := ctx.Value(versionKey{}).(string)
	call := &ToolCall{Args: args, Version: v, Progress: progressFrom(ctx).report, Ask: s.asker(ctx), tool: tool,
		Client: s.client(ctx), Conn: s, Cwd: s.cwd}
	if call.Ask.InputRequired {
		call.Answers = answersOf(m)
	}
	res := s.runTool(ctx, tool, call)
	if res.InputRequired != nil {
		if call.Ask.InputRequired {
			s.logReq(ctx, "debug", "tools", map[string]any{"tool": tool.Name, "resultType": "input_required"})
			return inputRequiredResult(res.InputRequired), nil
		}
		res = toolErrorf("%s asked the client for input it cannot give; this is a ttywright bug, please report it", tool.Name)
	}
	out := renderResult(v, res)
	d := time.Since(start)
	if tool.App != appOnly { // the app's calls are the person's keys and secrets
		s.calls.record(tool.Name, args, res, out, d)
	}
	s.logReq(ctx, "debug", "tools", map[string]any{"tool": tool.Name, "duration_ms": d.Milliseconds(), "isError": out.IsError})
	return out, nil
}

// runTool calls the handler; a panic or a nil result becomes an isError
// result rather than a dead server.
func (s *Server) runTool(ctx context.Context, tool *Tool, call *ToolCall) (res *ToolResult) {
	defer func() {
		if p := recover(); p != nil {
			s.errlog.Printf("panic in tool %s: %v\n%s", tool.Name, p, debug.Stack())
			s.logReq(ctx, "error", "ttywright", fmt.Sprintf("internal error in tool %s: %v", tool.Name, p))
			res = toolErrorf("%s failed with an internal error (%v); this is a ttywright bug, please report it, and retry or use another approach", tool.Name, p)
		}
	}()
	res = s.hub.toolbox.Run(ctx, tool, call)
	switch {
	case res != nil:
	case call.bindErr != nil:
		res = &ToolResult{Text: call.bindErr.Error(), IsError: true}
	default:
		res = toolErrorf("%s returned no result; this is a ttywright bug, please report it", tool.Name)
	}
	return res
}

// renderResult turns a ToolResult into the CallToolResult for version v:
// a text block (Text, or the JSON of Structured; before 2025-06-18 Text
// and then the JSON, for want of structuredContent), then Extra
// (resource_link only from 2025-06-18), and structuredContent from
// 2025-06-18.
func renderResult(v string, res *ToolResult) *callResult {
	out := &callResult{Content: []Content{}, IsError: res.IsError}
	newer := protoAtLeast(v, protoV20250618)
	if res.Structured != nil {
		b, err := marshalJSON(res.Structured)
		if err != nil {
			return &callResult{Content: []Content{{Type: "text", Text: "internal error: cannot encode the tool result: " + err.Error()}}, IsError: true}
		}
		if newer && len(b) > 0 && b[0] == '{' {
			out.StructuredContent = b
		}
		if res.Text == "" {
			out.Content = append(out.Content, Content{Type: "text", Text: string(b)})
		}
	}
	if res.Text != "" {
		out.Content = append(out.Content, Content{Type: "text", Text: res.Text})
		if res.Structured != nil && !newer {
			// No structuredContent before 2025-06-18: the fields a
			// program reads come as a last text block, the JSON.
			b, _ := marshalJSON(res.Structured) // encoded above
			out.Content = append(out.Content, Content{Type: "text", Text: string(b)})
		}
	}
	for _, c := range res.Extra {
		if c.Type == "resource_link" && !newer {
			continue
		}
		out.Content = append(out.Content, c)
	}
	return out
}

// callLog appends one JSON line per tool call but the terminal app's own
// (tools_app.go) to the --log-path file:
// {time, tool, input, output, duration_ms, isError}, input with the
// values of env entries whose names look secret redacted (redactArgs),
// output what the call's step keeps, as a trace does (never a page's URL
// or a screen). A nil *callLog records nothing.
type callLog struct {
	mu sync.Mutex
	f  *os.File
}

// maxLoggedInput bounds the arguments copied into the log; longer ones
// are replaced by their size.
const maxLoggedInput = 16 << 10

// openCallLog opens (appending, creating 0600) the JSONL call log.
func openCallLog(path string) (*callLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &callLog{f: f}, nil
}

// record writes one entry. The output is what res's step keeps (its
// line, its reply's essentials, an error's text); for a call that is no
// step (arguments that did not decode) the error's text, cut to 300
// bytes.
func (l *callLog) record(tool string, args json.RawMessage, res *ToolResult, out *callResult, d time.Duration) {
	if l == nil {
		return
	}
	var input any = redactArgs(args) // env values with secret-like names, as traces keep them
	if len(args) > maxLoggedInput {
		input = fmt.Sprintf("(%d bytes of arguments)", len(args))
	}
	var output any = clipRunes(res.Text, 300)
	if v := res.step; v != nil {
		output = map[string]any{"sum": v.Summary, "failed": v.Failed, "error": v.Error, "reply": v.Reply}
	}
	b, err := encodeLine(map[string]any{
		"time":        time.Now().UTC().Format(time.RFC3339Nano),
		"tool":        tool,
		"input":       input,
		"output":      output,
		"duration_ms": float64(d.Microseconds()) / 1000,
		"isError":     out.IsError,
	})
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.f.Write(b) // best effort: the log must never fail a call
}

// Close closes the log file.
func (l *callLog) Close() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}
