package main

// tools.go: what a tool is to the protocol layer (Tool, ToolCall,
// ToolResult, Content), the typed constructor newTool every tool is built
// with, the decoding of arguments with errors that name the fix, and the
// JSON Schema helpers the tool declarations share.

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ToolsConfig is what the tools need of the server's configuration,
// passed down as values.
type ToolsConfig struct {
	Theme        string // default theme of new sessions; "" = the first of themeList
	Scale        int    // integer pixel scale of screenshots on disk (1-4; else 2)
	InlineImages bool   // screenshots inline by default
	Trace        bool   // trace every session (--trace), as shell_start {trace: true} does one
	// KeepPauses keeps every pause of a recording as long as it was (a
	// tape's Sleep); else a pause plays at most gifIdleCap.
	KeepPauses bool
	// Layout places every picture of the sessions (screenshots,
	// recordings) on a larger canvas: a tape's Width, Height, Padding
	// and Margin. The zero Layout draws the cells alone.
	Layout Layout
}

// Toolbox is what the tools work on: the sessions, the capture store and
// the recordings running in sessions. Its methods are safe for
// concurrent use. Build it with newToolbox.
type Toolbox struct {
	cfg      ToolsConfig
	sessions *Sessions
	store    *captureStore
	rec      recLimits     // caps on each recording (tool_record.go)
	recs     *recordings   // the recordings of each session (tools_recorder.go)
	turns    turnTable     // the calls typing into each session, in turn (tools_turns.go)
	web      *webDoor      // the secret pages (web.go); nil with --web=off
	views    *sessionViews // the sessions' live views on web (attach_web.go)
	asks     secretAsks    // pages offered to 2026-07-28 clients, until their retry (tool_ask_secret.go)
	steps    stepLogs      // each live session's steps and trace (tools_steps.go)
	after    followUps     // the watch each session's last typing call left for the wait that follows (tools_followup.go)
	running  sessionCalls  // the calls running on each session, by connection (tools_turns.go)
	apps     appViews      // the terminal app's views of the sessions (tools_app.go)
	// log sends an MCP log message to the clients (mcpHub.log, installed
	// by the program); nil sends nothing.
	log func(level, logger string, data any)
}

// newToolbox returns the tools' state over sessions and store.
func newToolbox(cfg ToolsConfig, sessions *Sessions, store *captureStore) *Toolbox {
	return &Toolbox{cfg: cfg, sessions: sessions, store: store, recs: &recordings{}}
}

// logf sends a log message through tb.log, if any.
func (tb *Toolbox) logf(level, logger, format string, a ...any) {
	if tb.log != nil {
		tb.log(level, logger, fmt.Sprintf(format, a...))
	}
}

// session returns the live or exited session with the given id or
// name (shell_start's name), or an error whose text says how to find a
// valid one.
func (tb *Toolbox) session(id string) (*Session, error) {
	s := tb.sessions.Find(id)
	switch {
	case s != nil:
		return s, nil
	case id == "":
		return nil, errors.New("session_id is missing: pass the shell_session_id that shell_start returned")
	case len(id) > maxNameLen:
		// Not echoed: a megabyte id would come back in the reply.
		return nil, fmt.Errorf("session_id is %d bytes, and ids are at most %d (shell_start returns ids like shell-1): read sessions://list for the ids", len(id), maxNameLen)
	case tb.sessions.WasStopped(id):
		// sessions://list still shows it: say why the tools refuse it.
		return nil, fmt.Errorf("session %q was stopped with shell_stop, so the tools no longer take it: read what it left at session://%s/buffer (and .../screenshots, .../recordings), or start a new one with shell_start", id, id)
	}
	return nil, fmt.Errorf("no session %q: start one with shell_start, or read sessions://list for the ids", id)
}

// Tool is one MCP tool: its schemas, annotations and handler. The
// server's tools are built with newTool, which writes Handle; tests also
// build them by hand.
type Tool struct {
	Name        string
	Title       string
	Description string
	Input       map[string]any // JSON Schema of the arguments (object root)
	Output      map[string]any // JSON Schema of structuredContent (object root)
	ReadOnly    bool           // annotations.readOnlyHint
	Destructive bool           // annotations.destructiveHint
	Idempotent  bool           // annotations.idempotentHint
	OpenWorld   bool           // annotations.openWorldHint
	Handle      func(ctx context.Context, call *ToolCall) *ToolResult
	// Arrive, when not nil, sees a call's arguments as its request
	// arrives, on the protocol's reader and so in line order, before
	// Handle runs on a goroutine of its own; Handle gets the context it
	// returns (shell_send queues there for its session's turn).
	Arrive func(ctx context.Context, args json.RawMessage) context.Context
	// App is how the tool meets the terminal app in a conversation
	// (tools_app.go): not at all, its result shows the app, or it is
	// one of the app's own tools, hidden from the model.
	App toolApp

	// argsType and resultType are newTool's A and R (nil for a Tool built
	// by hand, as tests do), and stepOf its step form, called with an A
	// and an R (nil for a Tool built by hand: its calls are no steps).
	argsType, resultType reflect.Type
	stepOf               func(in, out any) stepView
}

// ToolCall is one tools/call request as a handler sees it.
type ToolCall struct {
	Args    json.RawMessage // the "arguments" object ({} when absent)
	Version string          // negotiated protocol version
	// Progress sends notifications/progress when the request carried
	// _meta.progressToken, and does nothing otherwise (never nil when
	// called through tools/call). progress must grow from call to call
	// (smaller or equal values are dropped); total <= 0 means unknown.
	Progress func(progress, total float64, message string)
	// Ask is how this call can put a page before the client's person
	// (URL-mode elicitation); its zero value means it cannot.
	Ask Asker
	// Answers holds what a 2026-07-28 retry of a call that returned
	// ToolResult.InputRequired brought back; nil on a first call.
	Answers *InputAnswers
	// Origin says what made the call, for its step: a tape's line
	// ("demo.tape:12: Expect \"ok\""); "" for an agent's.
	Origin string
	// Client names the MCP client the call came from (its
	// clientInfo.name), "" when unknown; Conn is its connection, which
	// tells another client's calls from this one's (nil for a tape's).
	Client string
	Conn   any
	// Cwd is the client's working directory where it is not the
	// server's (the front end's of a shared service): shell_start's
	// default cwd, and what a relative cwd is under. "" = the server's.
	Cwd string

	tool    *Tool // for Bind's messages: the schema's properties and required
	bindErr error // the last Bind error, reported if the handler returns nil
}

// Bind decodes the arguments into v (a pointer to a struct with json
// tags). It refuses unknown fields, wrong types and missing required
// arguments (the "required" list of the tool's input schema) with an
// error that names the argument and the fix, ready to return as
// toolErrorf("%v", err). If the handler then returns nil, tools/call
// sends that error as the isError result.
func (c *ToolCall) Bind(v any) error {
	args := c.Args
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		err = c.checkRequired(args)
	}
	if err == nil {
		err = c.checkNulls(args)
	}
	if err != nil {
		c.bindErr = c.argError(err, args)
		return c.bindErr
	}
	return nil
}

// checkRequired reports the first required argument that is absent or null.
func (c *ToolCall) checkRequired(args json.RawMessage) error {
	if c.tool == nil {
		return nil
	}
	var present map[string]json.RawMessage
	_ = json.Unmarshal(args, &present) // decoded once already
	for _, name := range c.schemaList("required") {
		if v, ok := present[name]; !ok || string(v) == "null" {
			return &missingArgError{name}
		}
	}
	return nil
}

// checkNulls refuses a null anywhere in the arguments: no schema allows
// one, and encoding/json would take it as "not given" and use the
// default without a word ({"cols": null} would start 120 columns).
func (c *ToolCall) checkNulls(args json.RawMessage) error {
	if path, ok := firstNull(args, ""); ok {
		return &nullArgError{path}
	}
	return nil
}

type nullArgError struct{ path string }

func (e *nullArgError) Error() string { return e.path + " is null" }

// firstNull finds, keys in sorted order, the first null member of the
// object or array v (at path): its path ("cols", "env.A", "args[1]").
func firstNull(v json.RawMessage, path string) (string, bool) {
	switch rawKind(v) {
	case "object":
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) != nil {
			return "", false
		}
		keys := slices.Sorted(maps.Keys(obj))
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if rawKind(obj[k]) == "null" {
				return p, true
			}
			if p, ok := firstNull(obj[k], p); ok {
				return p, true
			}
		}
	case "array":
		var arr []json.RawMessage
		if json.Unmarshal(v, &arr) != nil {
			return "", false
		}
		for i, m := range arr {
			p := path + "[" + strconv.Itoa(i) + "]"
			if rawKind(m) == "null" {
				return p, true
			}
			if p, ok := firstNull(m, p); ok {
				return p, true
			}
		}
	}
	return "", false
}

type missingArgError struct{ name string }

func (e *missingArgError) Error() string { return "missing " + e.name }

// argError rewrites a decoding error as "<tool>: <problem>: <fix>".
func (c *ToolCall) argError(err error, args json.RawMessage) error {
	tool := "arguments"
	if c.tool != nil {
		tool = c.tool.Name
	}
	var typeErr *json.UnmarshalTypeError
	var missing *missingArgError
	var null *nullArgError
	switch {
	case errors.As(err, &typeErr):
		field, at := argPathValue(typeErr.Field, args)
		if field != "" {
			field = memberPath(field, at, typeErr.Type, typeErr.Value)
		}
		if field == "" {
			return fmt.Errorf("%s: the arguments must be a JSON object", tool)
		}
		return fmt.Errorf("%s: argument %q must be %s, not %s: fix its type and call again", tool, field, jsonKind(typeErr.Type), typeErr.Value)
	case errors.As(err, &missing):
		msg := fmt.Sprintf("%s: missing required argument %q", tool, missing.name)
		if d := c.propertyDescription(missing.name); d != "" {
			msg += " (" + d + ")"
		}
		return errors.New(msg + ": add it and call again")
	case errors.As(err, &null):
		return fmt.Errorf("%s: argument %q is null: leave it out to use its default, or give a value of its type", tool, null.path)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.TrimPrefix(err.Error(), "json: unknown field ")
		var top map[string]json.RawMessage
		_ = json.Unmarshal(args, &top)
		if unq, uerr := strconv.Unquote(name); uerr == nil && top != nil {
			if _, ok := top[unq]; !ok {
				// Not a top-level argument: a field of an object argument
				// (e.g. border); listing the top-level names would mislead.
				return fmt.Errorf("%s: unknown field %s inside an object argument: see the tool's input schema for the fields each object takes", tool, name)
			}
		}
		valid := c.schemaProperties()
		if len(valid) == 0 {
			return fmt.Errorf("%s: unknown argument %s: this tool takes no arguments", tool, name)
		}
		return fmt.Errorf("%s: unknown argument %s: the arguments are %s", tool, name, strings.Join(valid, ", "))
	}
	return fmt.Errorf("%s: bad arguments: %v", tool, err)
}

// argPathValue turns encoding/json's field path, which names embedded
// structs by their Go type ("WaitArgs.commandWaitArgs.wait_for_command"),
// into the path of keys the client sent ("wait_for_command"): a segment
// that is no key of the object at its level is an embedded struct's and
// left out. It also returns the value found at the end of the path (the
// deepest object member it reached).
func argPathValue(field string, args json.RawMessage) (string, json.RawMessage) {
	var keep []string
	level := args
	for _, seg := range strings.Split(field, ".") {
		var obj map[string]json.RawMessage
		if json.Unmarshal(level, &obj) != nil {
			keep = append(keep, seg) // inside an array or a value: as given
			continue
		}
		if v, ok := obj[seg]; ok {
			keep = append(keep, seg)
			level = v
		}
	}
	return strings.Join(keep, "."), level
}

// memberPath extends path, the argument a type error names, to the map
// entry or array element whose value has the wrong type: encoding/json
// stops at the map or slice ("env" for {"env":{"A":5}}), which is not
// the value to fix ("env.A"; "args[1]" for {"args":["a",3]}). at is the
// value at path, want the Go type the bad value should decode to, got
// the JSON kind the error names ("number", "number 1.5"). The rule: go
// down while at is an object or array that is not itself the bad value
// (its kind is not got's, or want is no object or array of that kind),
// into its first member of got's kind.
func memberPath(path string, at json.RawMessage, want reflect.Type, got string) string {
	gotKind, _, _ := strings.Cut(got, " ")
	for {
		k := rawKind(at)
		if k != "object" && k != "array" || k == gotKind && schemaKind(want) == k {
			return path
		}
		seg, v, ok := firstMemberOfKind(at, gotKind, got)
		if !ok {
			return path
		}
		path, at = path+seg, v
	}
}

// rawKind is the JSON kind of a raw value as encoding/json's type errors
// name it: object, array, string, bool, null or number.
func rawKind(v json.RawMessage) string {
	v = bytes.TrimLeft(v, " \t\r\n")
	if len(v) == 0 {
		return ""
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// firstMemberOfKind finds, in document order, the first member of the
// object or array v whose kind is kind (and, when got names the number,
// "number 1.5", that number): its path segment (".key" or "[i]") and
// value.
func firstMemberOfKind(v json.RawMessage, kind, got string) (string, json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(v))
	open, err := dec.Token()
	if err != nil {
		return "", nil, false
	}
	for i := 0; dec.More(); i++ {
		seg := "[" + strconv.Itoa(i) + "]"
		if open == json.Delim('{') {
			key, err := dec.Token()
			if err != nil {
				return "", nil, false
			}
			seg = "." + fmt.Sprint(key)
		}
		var m json.RawMessage
		if dec.Decode(&m) != nil {
			return "", nil, false
		}
		if rawKind(m) == kind && (got == kind || got == kind+" "+string(m)) {
			return seg, m, true
		}
	}
	return "", nil, false
}

// schemaKind is the JSON Schema type a value of Go type t encodes to:
// boolean, integer, number, string, array or object; "" for a type with
// none (an interface).
func schemaKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return ""
}

// jsonKind names the JSON type that decodes into t, for error messages:
// "true or false", "an integer", "a string", ...
func jsonKind(t reflect.Type) string {
	switch k := schemaKind(t); k {
	case "":
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		return t.String()
	case "boolean":
		return "true or false"
	case "integer", "array", "object":
		return "an " + k
	default:
		return "a " + k
	}
}

// schemaProperties lists the property names of the tool's input schema, sorted.
func (c *ToolCall) schemaProperties() []string {
	if c.tool == nil {
		return nil
	}
	props, _ := c.tool.Input["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// schemaList reads a list of strings (e.g. "required") from the input schema.
func (c *ToolCall) schemaList(key string) []string {
	switch l := c.tool.Input[key].(type) {
	case []string:
		return l
	case []any:
		var out []string
		for _, v := range l {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// propertyDescription returns the schema's description of one argument.
func (c *ToolCall) propertyDescription(name string) string {
	props, _ := c.tool.Input["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	d, _ := p["description"].(string)
	return d
}

// Content is one MCP content block: text {text}, image {data (base64),
// mimeType} or resource_link {uri, name, title?, description?, mimeType?,
// size?}. MarshalJSON always writes the fields its type requires, even
// when empty.
type Content struct {
	Type        string `json:"type"`
	Text        string `json:"text,omitempty"`
	Data        string `json:"data,omitempty"`     // image: base64
	MimeType    string `json:"mimeType,omitempty"` // image, resource_link
	URI         string `json:"uri,omitempty"`      // resource_link
	Name        string `json:"name,omitempty"`     // resource_link
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// MarshalJSON writes the block with the fields required for its type.
func (c Content) MarshalJSON() ([]byte, error) {
	var v any
	switch c.Type {
	case "text":
		v = struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{c.Type, c.Text}
	case "image", "audio":
		v = struct {
			Type     string `json:"type"`
			Data     string `json:"data"`
			MimeType string `json:"mimeType"`
		}{c.Type, c.Data, c.MimeType}
	case "resource_link":
		v = struct {
			Type        string `json:"type"`
			URI         string `json:"uri"`
			Name        string `json:"name"`
			Title       string `json:"title,omitempty"`
			Description string `json:"description,omitempty"`
			MimeType    string `json:"mimeType,omitempty"`
			Size        int64  `json:"size,omitempty"`
		}{c.Type, c.URI, c.Name, c.Title, c.Description, c.MimeType, c.Size}
	default:
		type plain Content // without this method
		v = plain(c)
	}
	return marshalJSON(v)
}

// ToolResult is what a handler returns. The protocol layer turns
// Structured into a JSON text block plus structuredContent (when the
// negotiated version has it), uses Text instead of the JSON text when set
// (shell_read), appends Extra blocks (dropping resource_link before
// 2025-06-18) and sets isError.
type ToolResult struct {
	Text       string
	Structured any
	Extra      []Content
	IsError    bool
	// InputRequired, when set, makes the result the interim
	// input_required of a 2026-07-28 call (Asker.InputRequired); the
	// other fields are then unused.
	InputRequired *InputRequired

	// step is the call as a step of its session, as the tool's step form
	// says it (newTool); Toolbox.Run records it. nil: no step.
	step *stepView
}

// URLElicitation is a URL-mode elicitation: the client shows Message to
// its person and lets them open URL, outside the model's context. ID is
// the elicitationId of the legacy eras, unique within the server.
type URLElicitation struct {
	ID      string
	URL     string
	Message string
}

// Asker is what the client of one call can do to put a page before its
// person. Both fields are nil, and InputRequired false, when it cannot
// (it declared no elicitation.url): the tool then shows the URL in its
// reply.
type Asker struct {
	// Request sends elicitation/create {mode: "url"} to a legacy client
	// and returns the person's action: "accept" (they open the page),
	// "decline" or "cancel". Complete then sends
	// notifications/elicitation/complete {elicitationId}.
	Request  func(ctx context.Context, e URLElicitation) (action string, err error)
	Complete func(id string)
	// InputRequired is true for a 2026-07-28 request whose client
	// declared URL elicitation: the tool returns ToolResult.InputRequired
	// and the client retries the call with the answers.
	InputRequired bool
}

// InputRequired is an interim result of a 2026-07-28 tools/call: the
// requests for the client to fulfil, by key, and the state the retry
// sends back (opaque to the client, and checked by the tool: the client
// may alter it).
type InputRequired struct {
	Requests map[string]URLElicitation
	State    string
}

// InputAnswers is what a retry carries: inputResponses (each an
// ElicitResult such as {"action": "accept"}, by the key of its request)
// and requestState.
type InputAnswers struct {
	Responses map[string]json.RawMessage
	State     string
}

// toolErrorf returns an isError result whose text names the problem and
// the fix.
func toolErrorf(format string, a ...any) *ToolResult {
	return &ToolResult{Text: fmt.Sprintf(format, a...), IsError: true}
}

// newTool returns spec with a Handle that decodes the arguments into an A
// (ToolCall.Bind: unknown fields, wrong types and missing required
// arguments are refused with the fix), calls handle, and turns what it
// returns into the result: an error becomes the isError result
// "<name>: <error>" (the name is prefixed here, never by handle); a
// value becomes structuredContent and, unless R implements
// contentBlocks, its JSON as the text block. step is the tool's step
// form: what a call with arguments in that returned out is as a step of
// its session (its trace line and its tape commands); for a call whose
// handle failed it gets a zero R, and only its session and summary are
// kept (stepView.failed). Without spec.Output the output schema is R's
// (outputSchemaOf). A and R are kept so that the tests can check
// spec.Input and spec.Output against them.
func newTool[A, R any](spec Tool, handle func(ctx context.Context, call *ToolCall, in A) (R, error), step func(in A, out R) stepView) *Tool {
	t := &spec
	t.argsType = reflect.TypeFor[A]()
	t.resultType = reflect.TypeFor[R]()
	t.stepOf = func(in, out any) stepView { return step(in.(A), out.(R)) }
	if t.Output == nil {
		t.Output = outputSchemaOf(t.Name, t.resultType)
	}
	t.Handle = func(ctx context.Context, call *ToolCall) *ToolResult {
		var in A
		if err := call.Bind(&in); err != nil {
			return toolErrorf("%v", err) // argError names the tool already
		}
		if r, ok := any(&in).(rawReader); ok {
			r.readRaw(call.Args)
		}
		res, err := handle(ctx, call, in)
		if err != nil {
			out := toolErrorf("%s: %v", t.Name, err)
			var zero R
			v := t.stepOf(in, zero).failed(out.Text)
			out.step = &v
			return out
		}
		if ir, ok := any(res).(interim); ok && ir.inputRequired() != nil {
			return &ToolResult{InputRequired: ir.inputRequired()}
		}
		v := t.stepOf(in, res)
		out := &ToolResult{Structured: res, step: &v}
		if cb, ok := any(res).(contentBlocks); ok {
			out.Text, out.Extra = cb.blocks()
		}
		return out
	}
	return t
}

// rawReader is implemented by an arguments struct that reads from the
// call's JSON what a struct cannot hold (shell_send: the order of its
// arguments), once Bind has decoded it.
type rawReader interface {
	readRaw(args json.RawMessage)
}

// objectKeys are those of names that the JSON object obj has as its own
// keys, in the order it has them; nil when obj is no object.
func objectKeys(obj json.RawMessage, names []string) []string {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		if k, _ := t.(string); slices.Contains(names, k) {
			out = append(out, k)
		}
		var skip json.RawMessage // the value, whatever it is
		if dec.Decode(&skip) != nil {
			return out
		}
	}
	return out
}

// interim is implemented by a tool result that may be, instead, the
// input_required of a 2026-07-28 call: a non-nil inputRequired replaces
// the result.
type interim interface {
	inputRequired() *InputRequired
}

// contentBlocks is implemented by a tool result shown as more than its
// JSON: text, when not "", replaces the JSON text block (shell_read's
// screen text); extra blocks follow it (shell_screenshot's image and
// resource_link).
type contentBlocks interface {
	blocks() (text string, extra []Content)
}

// JSON Schema helpers for the tool declarations.

// objectSchema is an input schema: an object of props, nothing else.
func objectSchema(props map[string]any, required ...string) map[string]any {
	m := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		m["required"] = required
	}
	return m
}

// outputSchemaOf is the output schema of tool name whose results are of
// type t: the JSON types of its fields (jsonFields), each field without
// omitempty required, and no prose: no model reads an output schema, and
// README.md describes the fields. Its $id names the tool and a hash of
// the schema, so that a client compiles its validator once per version
// of it (the TypeScript SDK caches validators by $id).
func outputSchemaOf(name string, t reflect.Type) map[string]any {
	m := typeSchema(t)
	b, _ := marshalJSON(m) // maps of strings and slices always encode
	sum := sha256.Sum256(b)
	m["$id"] = "urn:ttywright:output:" + name + ":" + hex.EncodeToString(sum[:4])
	return m
}

// typeSchema is the JSON Schema of the values of Go type t.
func typeSchema(t reflect.Type) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	m := map[string]any{"type": cmp.Or(schemaKind(t), "object")}
	switch t.Kind() {
	case reflect.Struct:
		props := map[string]any{}
		var required []string
		for _, f := range jsonFields(t) {
			props[f.name] = typeSchema(f.typ)
			if !f.omitEmpty {
				required = append(required, f.name)
			}
		}
		m["properties"] = props
		if len(required) > 0 {
			m["required"] = required
		}
	case reflect.Slice, reflect.Array:
		m["items"] = typeSchema(t.Elem())
	case reflect.Map:
		m["additionalProperties"] = typeSchema(t.Elem())
	}
	return m
}

// jsonField is one field of a struct as encoding/json sees it.
type jsonField struct {
	name      string
	typ       reflect.Type
	omitEmpty bool
}

// jsonFields lists t's fields by their JSON names, embedded structs
// flattened, fields tagged "-" and unexported ones left out.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if f.Anonymous && tag == "" {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, typ: f.Type, omitEmpty: strings.Contains(opts, "omitempty")})
	}
	return out
}

// prop is a property of JSON type typ.
func prop(typ, desc string) map[string]any { return map[string]any{"type": typ, "description": desc} }

// Waiting limits (milliseconds unless stated).
const (
	defaultTimeoutMS = 10000
	maxTimeoutMS     = 120000 // a wait never lasts longer: call shell_wait again
	defaultDelayMS   = 100
	defaultReadBytes = 8192
	maxTypeDelayMS   = 5000
	streamCap        = 64 << 10 // bytes of new output (escapes removed) kept for matching
)

// sessionIDProp is the session_id argument. shell_start's description
// says what it is (its shell_session_id), once for every tool.
var sessionIDProp = map[string]any{"type": "string"}

// scaleProp is the pixel scale argument of the tools that draw, def its
// default.
func scaleProp(def int) map[string]any {
	return prop("integer", fmt.Sprintf("8x16-pixel cells times this (1-4, default %d).", def))
}

// borderSchema describes the border argument of the tools that draw
// (shell_screenshot, shell_record_start); parseBorder checks it.
var borderSchema = map[string]any{
	"type":        "object",
	"description": "A macOS window frame: {title}.",
	"properties":  map[string]any{"style": map[string]any{"type": "string"}, "title": map[string]any{"type": "string"}},
}

// parseBorder checks a border argument: nil or style "none" is no frame,
// "" or "macos" a macOS title bar.
func parseBorder(b *Border) (*Border, error) {
	if b == nil {
		return nil, nil
	}
	switch b.Style {
	case "", "macos":
		return &Border{Style: "macos", Title: b.Title}, nil
	case "none":
		return nil, nil
	}
	return nil, fmt.Errorf("border style %q is unknown: use \"macos\", \"none\" or leave border out", b.Style)
}

// scaleArg checks an optional pixel scale (1-4), def when absent.
func scaleArg(v *int, def int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < 1 || *v > 4 {
		return 0, fmt.Errorf("scale %d is out of range: use 1 to 4 (a cell is 8*scale x 16*scale pixels)", *v)
	}
	return *v, nil
}

// exitInfo is the exit part of a result.
type exitInfo struct {
	Exited       bool        `json:"exited"`
	ExitCode     *int        `json:"exit_code,omitempty"`
	Signal       string      `json:"signal,omitempty"`
	Foreground   *Foreground `json:"foreground,omitempty"` // while it runs: what the foreground program waits for (session_input.go)
	KeyboardInfo             // viewers, keyboard, person_typed: only while a person watches (session_keyboard.go)
}

func exitOf(st SessionStatus) exitInfo {
	if !st.Exited {
		return exitInfo{}
	}
	code := st.ExitCode
	return exitInfo{Exited: true, ExitCode: &code, Signal: st.Signal}
}

// stateOf is how s's program ended, or while it runs, what its
// foreground program waits for: the part of every reply that shows a
// screen.
func stateOf(s *Session) exitInfo {
	st := s.Status()
	e := exitOf(st)
	if !st.Exited {
		fg := s.Foreground()
		e.Foreground = &fg
	}
	e.KeyboardInfo = s.KeyboardInfo(true)
	return e
}

// msArg checks an optional duration in milliseconds.
func msArg(name string, v *int, def, max int) (time.Duration, error) {
	if v == nil {
		return time.Duration(def) * time.Millisecond, nil
	}
	if *v < 0 || *v > max {
		return 0, fmt.Errorf("%s %d is out of range: use 0..%d (milliseconds); for longer waits call shell_wait again", name, *v, max)
	}
	return time.Duration(*v) * time.Millisecond, nil
}

// encodeLine marshals v as one line of JSON ending in '\n'. HTML escaping
// is off: '<' stays '<', which keeps screen text readable for a model.
func encodeLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// marshalJSON is json.Marshal without HTML escaping.
func marshalJSON(v any) ([]byte, error) {
	b, err := encodeLine(v)
	return bytes.TrimSuffix(b, []byte("\n")), err
}
