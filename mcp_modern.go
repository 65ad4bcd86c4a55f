package main

// mcp_modern.go: MCP 2026-07-28, the stateless revision, served beside the
// legacy initialize-based session on the same stdio process. A request
// whose params._meta holds io.modelcontextprotocol/protocolVersion is
// modern; it carries its version and client capabilities itself and is
// served without reference to any earlier request or to the legacy session.
// The pipeline, in the revision's order: envelope validation (-32602
// naming the key), version (-32022 with data.supported and
// data.requested), methods the revision removed or never had (-32601),
// client capabilities a feature needs (-32021), then the method, whose
// result gets resultType, cache hints and serverInfo in _meta.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Envelope keys of a modern request's params._meta, and the serverInfo key
// of a modern result's _meta.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaLogLevel           = "io.modelcontextprotocol/logLevel"
	metaServerInfo         = "io.modelcontextprotocol/serverInfo"
	metaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// Error codes the 2026-07-28 revision defines.
const (
	codeMissingClientCapability = -32021
	codeUnsupportedVersion      = -32022
)

// Cache hints (ttlMs) of modern results: discover and the static lists may
// be kept; live terminal state (sessions, buffers, captures) is stale at
// once and private to this client.
const (
	ttlDiscover = 3_600_000 // one hour: the capabilities change only with the binary
	ttlStatic   = 300_000   // five minutes: tools, prompts, templates, themes
)

// removedHint names what replaced the legacy methods a modern request may
// still try, for the -32601 message.
var removedHint = map[string]string{
	"initialize":            "there is no handshake in 2026-07-28: send server/discover, or initialize without the envelope for a legacy session",
	"ping":                  "2026-07-28 removed ping",
	"logging/setLevel":      `2026-07-28 sets the level per request: put "` + metaLogLevel + `" in params._meta`,
	"resources/subscribe":   "2026-07-28 subscribes with subscriptions/listen {notifications: {resourceSubscriptions: [uri]}}",
	"resources/unsubscribe": "2026-07-28 ends a subscription with notifications/cancelled for its subscriptions/listen request",
}

// modernReq is what a modern request's envelope says; handlers find it in
// their context (modernFrom).
type modernReq struct {
	version string
	caps    map[string]json.RawMessage // clientCapabilities
	client  string                     // clientInfo's name, "" when absent
	// logLevel is the index in logLevels of the least severe
	// notifications/message this request wants, or -1: none at all.
	logLevel int
}

type modernKey struct{}

// modernFrom returns the envelope of the request ctx belongs to, or nil for
// a legacy request.
func modernFrom(ctx context.Context) *modernReq {
	m, _ := ctx.Value(modernKey{}).(*modernReq)
	return m
}

// parseEnvelope validates the envelope of a modern request, params._meta
// (decodeMessage calls it). Each problem is -32602 naming the key and
// what it must hold.
func parseEnvelope(meta map[string]json.RawMessage) (*modernReq, error) {
	m := &modernReq{logLevel: -1}
	if raw := meta[metaProtocolVersion]; len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &m.version) != nil {
		return nil, invalidParams(`_meta %s must be a string such as "%s"`, metaProtocolVersion, protoV20260728)
	}
	raw, ok := meta[metaClientCapabilities]
	if !ok {
		return nil, invalidParams("missing _meta %s: send {} when the client has none", metaClientCapabilities)
	}
	if json.Unmarshal(raw, &m.caps) != nil || m.caps == nil {
		return nil, invalidParams("_meta %s must be an object ({} when the client has none)", metaClientCapabilities)
	}
	if raw, ok := meta[metaClientInfo]; ok {
		var info struct {
			Name    *string `json:"name"`
			Version *string `json:"version"`
		}
		if json.Unmarshal(raw, &info) != nil || info.Name == nil || info.Version == nil {
			return nil, invalidParams(`_meta %s must be an object with string "name" and "version"`, metaClientInfo)
		}
		m.client = *info.Name
	}
	if raw, ok := meta[metaLogLevel]; ok {
		var level string
		_ = json.Unmarshal(raw, &level) // a wrong type leaves it empty, reported below
		if m.logLevel = slices.Index(logLevels, level); m.logLevel < 0 {
			return nil, invalidParams("_meta %s %s: use one of %s", metaLogLevel, raw, strings.Join(logLevels, ", "))
		}
	}
	return m, nil
}

// callModern serves one modern request: the pipeline in the revision's
// order, then the method with the envelope in its context.
func (s *Server) callModern(ctx context.Context, m *message) (any, error) {
	if m.envErr != nil {
		return nil, m.envErr
	}
	env := m.env
	if !slices.Contains(modernVersions, env.version) {
		return nil, &RPCError{Code: codeUnsupportedVersion,
			Message: fmt.Sprintf("Unsupported protocol version %q: this server serves %s per request, and %s through initialize without the envelope",
				env.version, strings.Join(modernVersions, ", "), strings.Join(protocolVersions, ", ")),
			Data: map[string]any{"supported": modernVersions, "requested": env.version}}
	}
	info, ok := s.requestMethod(m.Method)
	if !ok || info.eras&eraModern == 0 {
		msg := fmt.Sprintf("Method not found: %q is not a %s method", m.Method, env.version)
		if hint := removedHint[m.Method]; hint != "" {
			msg += ": " + hint
		}
		return nil, &RPCError{Code: codeMethodNotFound, Message: msg}
	}
	if err := s.checkClientCaps(env, m); err != nil {
		return nil, err
	}
	ctx = withVersion(context.WithValue(ctx, modernKey{}, env), env.version)
	progressFrom(ctx).bind(ctx, env.version)
	res, err := info.serve(s, ctx, m)
	if err != nil {
		return nil, modernError(err)
	}
	return s.modernResult(m, s.decorate(ctx, m.Method, res)), nil
}

// modernError maps the legacy resource-not-found error (-32002) to the
// revision's -32602, keeping the message and data.uri.
func modernError(err error) error {
	if e, ok := err.(*RPCError); ok && e.Code == codeResourceNotFound {
		return &RPCError{Code: codeInvalidParams, Message: e.Message, Data: e.Data}
	}
	return err
}

// checkClientCaps is -32021 when the request needs a client capability
// its envelope does not declare (data.requiredCapabilities names them).
// Only tools can need one (Server.clientNeeds); no tool of ttywright does
// today, the table is for tools that will ask the client for input.
func (s *Server) checkClientCaps(env *modernReq, m *message) error {
	if m.Method != "tools/call" || len(s.clientNeeds) == 0 {
		return nil
	}
	name := m.name() // a bad name is toolsCall's -32602
	missing := map[string]any{}
	for _, c := range s.clientNeeds[name] {
		if _, ok := env.caps[c]; !ok {
			missing[c] = map[string]any{}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &RPCError{Code: codeMissingClientCapability,
		Message: fmt.Sprintf("Missing required client capability: %s needs %s in _meta %s", name, strings.Join(slices.Sorted(maps.Keys(missing)), ", "), metaClientCapabilities),
		Data:    map[string]any{"requiredCapabilities": missing}}
}

// serverInfo is the Implementation object of this server at version v:
// title from 2025-06-18, description and icons from 2025-11-25.
func (s *Server) serverInfo(v string) map[string]any {
	info := map[string]any{"name": "ttywright", "version": s.hub.version}
	if protoAtLeast(v, protoV20250618) {
		info["title"] = "ttywright: Playwright for the terminal"
	}
	if protoAtLeast(v, protoV20251125) {
		info["description"] = serverDescription
		info["icons"] = serverIcons()
	}
	return info
}

// serverDescription is serverInfo.description (2025-11-25+).
const serverDescription = "Runs programs in a pseudo-terminal with its own VT emulator: type into them, wait for text, read the screen, take PNG screenshots and record GIFs or asciicasts."

// capabilities is the ServerCapabilities object at version v (legacy
// initialize and modern server/discover alike), with the extensions map
// in every era: MCP Apps (mcp_apps.go).
func capabilities(v string) map[string]any {
	caps := map[string]any{
		"tools":      map[string]any{},
		"resources":  map[string]any{"subscribe": true, "listChanged": true},
		"prompts":    map[string]any{},
		"logging":    map[string]any{},
		"extensions": appsCapability(),
	}
	if protoAtLeast(v, protoV20250326) {
		caps["completions"] = map[string]any{}
	}
	return caps
}

// discover is server/discover: the versions served per request, the
// capabilities and the instructions (serverInfo goes in _meta, added by
// modernResult).
func (s *Server) discover(context.Context, json.RawMessage) (any, error) {
	return map[string]any{
		"supportedVersions": modernVersions,
		"capabilities":      capabilities(protoV20260728),
		"instructions":      instructions,
	}, nil
}

// cacheHints returns ttlMs and cacheScope for the result of request m, or
// false for the methods whose results carry none.
func cacheHints(m *message) (int, string, bool) {
	switch m.Method {
	case "server/discover":
		return ttlDiscover, "public", true
	case "tools/list", "prompts/list", "resources/templates/list":
		return ttlStatic, "public", true
	case "resources/list":
		return 0, "private", true // sessions and captures come and go
	case "resources/read":
		if u, err := parseResourceURI(m.uri()); err == nil && (u.kind == uriThemes || u.kind == uriTheme || u.kind == uriApp) {
			return ttlStatic, "public", true
		}
		return 0, "private", true
	}
	return 0, "", false
}

// modernResult adds what every 2026-07-28 result carries: resultType
// "complete" (unless the handler's result is interim: input_required), serverInfo in _meta (merged with a _meta the handler set),
// and the cache hints of the list and read methods.
func (s *Server) modernResult(m *message, res any) map[string]any {
	out, ok := res.(map[string]any)
	if !ok {
		// Fields kept as raw JSON: numbers and key order of
		// structuredContent stay as the tool wrote them.
		out = map[string]any{}
		var fields map[string]json.RawMessage
		if b, err := marshalJSON(res); err == nil && json.Unmarshal(b, &fields) == nil {
			for k, v := range fields {
				out[k] = v
			}
		}
	}
	if _, interim := out["resultType"]; !interim {
		out["resultType"] = "complete"
	}
	meta, _ := out["_meta"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	// The whole Implementation (description, icons) on discover, where a
	// client shows it; name, version and title on every other result.
	info := s.serverInfo(protoV20250618)
	if m.Method == "server/discover" {
		info = s.serverInfo(protoV20260728)
	}
	meta[metaServerInfo] = info
	out["_meta"] = meta
	if ttl, scope, ok := cacheHints(m); ok {
		out["ttlMs"], out["cacheScope"] = ttl, scope
	}
	return out
}

// decorate adds the 2025-11-25 icons to the entries of prompts/list and
// resources/templates/list (tools/list adds its own). The lists are small,
// so the round trip through JSON costs little.
func (s *Server) decorate(ctx context.Context, method string, res any) any {
	key := map[string]string{"prompts/list": "prompts", "resources/templates/list": "resourceTemplates"}[method]
	icons := serverIcons()
	if key == "" || icons == nil || !versionAtLeast(ctx, protoV20251125) {
		return res
	}
	b, err := marshalJSON(res)
	var out map[string]any
	if err != nil || json.Unmarshal(b, &out) != nil {
		return res
	}
	entries, _ := out[key].([]any)
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok {
			m["icons"] = icons
		}
	}
	return out
}

// modernInBatch reports whether a batch element is a 2026-07-28 request
// (its params carry the envelope), and its refusal: that revision has no
// batches. A notification gets no reply.
func modernInBatch(m *message) (*response, bool) {
	if !m.claim {
		return nil, false
	}
	if m.ID == nil || !validID(m.ID) {
		return nil, true
	}
	return errorResponse(m.ID, codeInvalidRequest, "invalid request: MCP %s has no JSON-RPC batches: send each message on a line of its own", protoV20260728), true
}
