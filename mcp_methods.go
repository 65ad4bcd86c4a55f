package main

// mcp_methods.go: the table of the MCP methods a connection serves, what
// each needs (its eras, initialize, params) and the file that serves it;
// the go-sdk's serverMethodInfos (mcp/server.go) is the model. Adding a
// method is its entry here and its handler in the file of its concern.

import (
	"context"
	"encoding/json"
)

// methodEras is the set of protocol eras a method exists in.
type methodEras uint8

const (
	eraLegacy methodEras = 1 << iota // 2024-11-05 to 2025-11-25, in an initialized session (mcp.go)
	eraModern                        // 2026-07-28, stateless, with the envelope (mcp_modern.go)
)

// methodFlags say how a method is served.
type methodFlags uint8

const (
	flagNotification   methodFlags = 1 << iota // a notification: no id, never answered
	flagParamsOptional                         // may come without params (the go-sdk's missingParamsOK)
	flagBeforeInit                             // a legacy request served before initialize (notifications always are)
	flagInLine                                 // answered by the reader before the next line is read (jsonrpc.go admit)
	flagStream                                 // a request that stays open until cancelled, counted apart (maxListens)
)

// methodHandler serves one request (or notification) m of connection s.
// It returns the result object, or an error: an *RPCError is sent as that
// JSON-RPC error, any other error as -32603.
type methodHandler func(s *Server, ctx context.Context, m *message) (any, error)

// methodInfo is one method of the table.
type methodInfo struct {
	handle methodHandler
	eras   methodEras
	flags  methodFlags
	// arrive runs on the reader as the request is admitted, in line
	// order, before any later line is read; nil: nothing to do.
	arrive func(s *Server, ctx context.Context, m *message) context.Context
}

// mcpMethods are the methods this server serves, by name: the one table
// of them. A request for any other method is -32601; a request of an era
// its method lacks is -32602 without the envelope (mcp.go) and -32601 with
// it (mcp_modern.go, with removedHint).
var mcpMethods = map[string]methodInfo{
	// The lifecycle, logging and tools: mcp.go.
	"ping":             {handle: connMethod((*Server).ping), eras: eraLegacy, flags: flagBeforeInit | flagInLine | flagParamsOptional},
	"initialize":       {handle: connMethod((*Server).initialize), eras: eraLegacy, flags: flagBeforeInit | flagInLine | flagParamsOptional},
	"logging/setLevel": {handle: connMethod((*Server).setLevel), eras: eraLegacy, flags: flagInLine},
	"tools/list":       {handle: connMethod((*Server).toolsList), eras: eraLegacy | eraModern, flags: flagParamsOptional},
	"tools/call":       {handle: (*Server).toolsCall, eras: eraLegacy | eraModern, arrive: (*Server).toolArrived},

	// Resources: resources.go; subscriptions, the connection's own: resources_subs.go.
	"resources/list":           {handle: hubMethod((*mcpHub).resourcesList), eras: eraLegacy | eraModern, flags: flagParamsOptional},
	"resources/templates/list": {handle: hubMethod((*mcpHub).resourcesTemplatesList), eras: eraLegacy | eraModern, flags: flagParamsOptional},
	"resources/read":           {handle: hubMethod((*mcpHub).resourcesRead), eras: eraLegacy | eraModern},
	"resources/subscribe":      {handle: connMethod((*Server).resourcesSubscribe), eras: eraLegacy},
	"resources/unsubscribe":    {handle: connMethod((*Server).resourcesUnsubscribe), eras: eraLegacy, flags: flagParamsOptional},

	// Prompts: mcp_prompts.go; completion: mcp_completion.go.
	"prompts/list":        {handle: hubMethod((*mcpHub).promptsList), eras: eraLegacy | eraModern, flags: flagParamsOptional},
	"prompts/get":         {handle: hubMethod((*mcpHub).promptsGet), eras: eraLegacy | eraModern},
	"completion/complete": {handle: hubMethod((*mcpHub).completionComplete), eras: eraLegacy | eraModern},

	// 2026-07-28's own: mcp_modern.go, mcp_listen.go.
	"server/discover":      {handle: connMethod((*Server).discover), eras: eraModern, flags: flagParamsOptional},
	"subscriptions/listen": {handle: connMethod((*Server).listen), eras: eraModern, flags: flagStream},

	// Notifications: mcp.go, and cancellation in jsonrpc.go.
	"notifications/initialized": {handle: (*Server).initialized, eras: eraLegacy, flags: flagNotification | flagParamsOptional},
	"notifications/cancelled":   {handle: (*Server).cancelRequest, eras: eraLegacy | eraModern, flags: flagNotification},
}

// connMethod adapts a handler of the connection that reads only params.
func connMethod(f func(*Server, context.Context, json.RawMessage) (any, error)) methodHandler {
	return func(s *Server, ctx context.Context, m *message) (any, error) { return f(s, ctx, m.Params) }
}

// hubMethod adapts a handler of the state every connection shares that
// reads only params.
func hubMethod(f func(*mcpHub, context.Context, json.RawMessage) (any, error)) methodHandler {
	return func(s *Server, ctx context.Context, m *message) (any, error) { return f(s.hub, ctx, m.Params) }
}

// requestMethod returns the entry of the request method name; false for
// an unknown method or a notification's.
func (s *Server) requestMethod(name string) (methodInfo, bool) {
	info, ok := s.methods[name]
	return info, ok && info.flags&flagNotification == 0
}

// serve runs the handler of info for m, its context saying whether the
// client declared the MCP Apps extension (withApps, mcp_apps.go). A
// method that needs params gets {} for none: its handler's -32602 then
// names the fields it needs, as it does for {} (tools/call's {"name":
// ..., "arguments": ...}).
func (info methodInfo) serve(s *Server, ctx context.Context, m *message) (any, error) {
	if m.Params == nil && info.flags&flagParamsOptional == 0 {
		cp := *m
		cp.Params = json.RawMessage(`{}`)
		m = &cp
	}
	return info.handle(s, s.withApps(ctx), m)
}
