package main

// app.go: the shared contract between the parts. CONTRACT SKELETON: the
// protocol work owns this file and may extend it, but keeps these names.

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// Config is the server configuration from flags and TTYWRIGHT_* variables.
type Config struct {
	Theme         string   // default theme name
	Cols, Rows    int      // default screen size in cells
	OutputDir     string   // where captures are written (created 0700)
	Scale         int      // integer pixel scale of the bitmap font for files on disk
	InlineImages  bool     // screenshots inline by default
	LogPath       string   // JSONL log of every tool call; "" = none
	MaxSessions   int      // live sessions at most
	Scrollback    int      // history lines per session
	AllowCommands []string // when non-empty, shell_start refuses any other command
}

// App is the server's state: configuration, sessions and the notifier.
// Its methods are safe for concurrent use.
type App struct {
	cfg Config

	mu       sync.Mutex
	sessions map[string]*Session
	nextID   int

	res resState // resources.go: subscriptions and notification debouncing

	// notify sends a JSON-RPC notification to the client (set by the
	// protocol layer; nil-safe through App.Notify).
	notify func(method string, params any)
}

// Notify sends a notification to the client, if one is connected.
func (a *App) Notify(method string, params any) {
	if a.notify != nil {
		a.notify(method, params)
	}
}

// Tool is one MCP tool: its schemas, annotations and handler.
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
}

// ToolCall is one tools/call request as a handler sees it.
type ToolCall struct {
	Args     json.RawMessage // the "arguments" object ({} when absent)
	Version  string          // negotiated protocol version
	Progress func(progress, total float64, message string)
}

// Bind decodes the arguments into v, refusing unknown fields and wrong
// types with a message that names the field.
func (c *ToolCall) Bind(v any) error {
	if len(c.Args) == 0 {
		return nil
	}
	if err := json.Unmarshal(c.Args, v); err != nil {
		return fmt.Errorf("bad arguments: %v", err)
	}
	return nil
}

// Content is one MCP content block (text, image, resource_link).
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
}

// toolErrorf returns an isError result whose text names the problem and
// the fix.
func toolErrorf(format string, a ...any) *ToolResult {
	return &ToolResult{Text: fmt.Sprintf(format, a...), IsError: true}
}

// tools lists every tool the server offers, in tools/list order.
func (a *App) tools() []*Tool {
	return []*Tool{
		a.toolShellStart(),
		a.toolShellSend(),
		a.toolShellRead(),
		a.toolShellWait(),
		a.toolShellScreenshot(),
		a.toolShellRecordStart(),
		a.toolShellRecordStop(),
		a.toolShellResize(),
		a.toolShellStop(),
	}
}

// Method handles one JSON-RPC request method (resources/*, prompts/*,
// completion/complete, ...). params is the raw "params" value (nil when
// absent). It returns the result object, or an error: an *RPCError is sent
// as that JSON-RPC error; any other error as -32603.
type Method func(ctx context.Context, params json.RawMessage) (any, error)

// RPCError is a JSON-RPC 2.0 error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

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
