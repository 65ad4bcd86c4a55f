package main

// mcp_apps.go: the MCP Apps extension (io.modelcontextprotocol/ui, stable
// since 2026-01-26; ext-apps' specification/2026-01-26/apps.mdx), which
// puts the terminal in the conversation (README "In the conversation").
// ttywright declares it in its capabilities' extensions, both eras, and
// reads the client's. To a client that declared it, shell_start and
// shell_read carry _meta.ui.resourceUri, the app's own tools
// (tools_app.go) are listed with _meta.ui.visibility ["app"], and
// resources/list names ui://ttywright/terminal; a client that did not
// gets no byte of it, and its call of an app-only tool is refused. The
// document itself is the Web room's (web_app.go).

import (
	"context"
	"encoding/json"
	"slices"
)

// The extension's identifier and the MIME type of its HTML views.
const (
	appsExtension = "io.modelcontextprotocol/ui"
	appsMIME      = "text/html;profile=mcp-app"
)

// appsCapability is the extension's entry in ServerCapabilities.extensions.
func appsCapability() map[string]any {
	return map[string]any{appsExtension: map[string]any{"mimeTypes": []string{appsMIME}}}
}

// clientDeclaresApps reports whether a client's capabilities declare the
// extension with the HTML views' MIME type among its mimeTypes (which the
// extension requires).
func clientDeclaresApps(caps map[string]json.RawMessage) bool {
	var ext map[string]struct {
		MimeTypes []string `json:"mimeTypes"`
	}
	if json.Unmarshal(caps["extensions"], &ext) != nil {
		return false
	}
	e, ok := ext[appsExtension]
	return ok && slices.Contains(e.MimeTypes, appsMIME)
}

type appsKey struct{}

// withApps notes in ctx whether the client of the request declared the
// extension: a 2026-07-28 request's envelope says, else the legacy
// session's initialize.
func (s *Server) withApps(ctx context.Context) context.Context {
	var caps map[string]json.RawMessage
	if m := modernFrom(ctx); m != nil {
		caps = m.caps
	} else {
		s.mu.Lock()
		caps = s.clientCaps
		s.mu.Unlock()
	}
	return context.WithValue(ctx, appsKey{}, clientDeclaresApps(caps))
}

// appsFrom reports whether the client of the request ctx belongs to
// declared the extension (withApps).
func appsFrom(ctx context.Context) bool {
	ok, _ := ctx.Value(appsKey{}).(bool)
	return ok
}

// visibleTool reports whether t is listed to and may be called by the
// client of ctx: an app-only tool only when it declared the extension.
func visibleTool(ctx context.Context, t *Tool) bool {
	return t.App != appOnly || appsFrom(ctx)
}

// appToolMeta is the _meta of t for the client of ctx: its link to the
// terminal app, and for an app-only tool its visibility; nil when the
// client did not declare the extension or t does not meet the app.
func appToolMeta(ctx context.Context, t *Tool) map[string]any {
	if t.App == appNone || !appsFrom(ctx) {
		return nil
	}
	ui := map[string]any{"resourceUri": appURI().String()}
	if t.App == appOnly {
		ui["visibility"] = []string{"app"}
	}
	return map[string]any{"ui": ui}
}

// errAppOnly refuses a call of the app-only tool name by a client that
// did not declare the extension, as a tool it was never listed.
func errAppOnly(name string) *RPCError {
	return invalidParams("unknown tool %q: it is one of the terminal app's own tools, for a client that declared the %s extension (%s)", name, appsExtension, appsMIME)
}

// appResource is the app's entry in resources/list.
func appResource() resourceJSON {
	return resourceJSON{URI: appURI().String(), Name: "terminal-app", Title: "Terminal app", MimeType: appsMIME,
		Description: "The live terminal for the conversation: the screen, the commands, taking the keyboard and typing a secret."}
}

// readApp is resources/read of ui://ttywright/terminal: the document, its
// _meta.ui declaring no domain at all (the host's strictest policy: no
// connection, no resource from anywhere; the app's data comes through
// the host's tools/call) and a border.
func readApp(out resourceContents) resourceContents {
	doc := appDocument()
	out.MimeType, out.Text = appsMIME, &doc
	out.Meta = map[string]any{"ui": map[string]any{"csp": map[string]any{}, "prefersBorder": true}}
	return out
}
