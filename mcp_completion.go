package main

// mcp_completion.go: completion/complete (MCP 2025-06-18 "Completion"): values
// for the {id} and {name} of the resource templates (session ids, capture
// names within a session, theme names) and for prompt arguments.

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strings"
)

// maxCompletions is the most values one completion returns (MCP limit).
const maxCompletions = 100

// completeParams are the params of completion/complete.
type completeParams struct {
	Ref struct {
		Type string `json:"type"` // "ref/resource" or "ref/prompt"
		URI  string `json:"uri"`  // ref/resource: the URI template
		Name string `json:"name"` // ref/prompt: the prompt name
	} `json:"ref"`
	Argument struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"argument"`
	Context struct {
		Arguments map[string]string `json:"arguments"`
	} `json:"context"`
}

// completionComplete is completion/complete -> {completion: {values,
// total, hasMore}}: the candidates that start with the typed value (case
// sensitive, as names are), at most 100, in the order the server lists
// them. An unknown ref type, template or prompt is -32602; an argument
// that has no completions gives no values.
func (h *mcpHub) completionComplete(ctx context.Context, params json.RawMessage) (any, error) {
	var p completeParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	var cands []string
	switch p.Ref.Type {
	case "ref/resource":
		i := slices.IndexFunc(resourceTemplates, func(t templateJSON) bool { return t.URITemplate == p.Ref.URI })
		if i < 0 {
			return nil, invalidParams("no resource template %q: resources/templates/list names them", p.Ref.URI)
		}
		cands = h.completeTemplate(resourceTemplates[i].kind, p.Argument.Name, p.Context.Arguments["id"])
	case "ref/prompt":
		pr := h.lookupPrompt(p.Ref.Name)
		if pr == nil {
			return nil, invalidParams("unknown prompt %q: prompts/list names them", p.Ref.Name)
		}
		for _, arg := range pr.Arguments {
			if arg.Name == p.Argument.Name && arg.complete != nil {
				cands = arg.complete(h)
			}
		}
	default:
		return nil, invalidParams("ref.type %q: use \"ref/resource\" or \"ref/prompt\"", p.Ref.Type)
	}
	values := []string{}
	for _, c := range cands {
		if strings.HasPrefix(c, p.Argument.Value) {
			values = append(values, c)
		}
	}
	total := len(values)
	values = values[:min(total, maxCompletions)]
	return map[string]any{"completion": map[string]any{
		"values": values, "total": total, "hasMore": total > len(values),
	}}, nil
}

// completeTemplate lists the candidates for one argument of a template:
// session ids for {id}; for {name}, theme names (theme://{name}) or the
// capture names of the session given as id in the context (of every
// session when none is given, each name once).
func (h *mcpHub) completeTemplate(k uriKind, arg, id string) []string {
	session := k != uriTheme // every other template is a session's
	switch {
	case arg == "id" && session:
		var ids []string
		for _, s := range h.resSessions() {
			ids = append(ids, s.ID)
		}
		return ids
	case arg == "name" && k == uriTheme:
		return themeNames()
	case arg == "n" && k == uriCommand:
		return h.completeCommandNumbers(id)
	case arg == "name" && (k == uriScreenshot || k == uriRecording):
		recordings := k == uriRecording
		var names []string
		for _, s := range h.completionSessions(id) {
			list, cs := screenshotsURI(s.ID), s.Screenshots()
			if recordings {
				list, cs = recordingsURI(s.ID), s.Recordings()
			}
			for _, c := range cs {
				// The last URI segment is the name that resolves
				// ("demo.cast" for the cast of a recording in both formats).
				n := path.Base(captureURI(list, c))
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
		}
		return names
	}
	return nil
}

// completionSessions are the sessions a completion of a session's names
// draws from: session id alone when given (none when it does not exist),
// else every session.
func (h *mcpHub) completionSessions(id string) []*resSess {
	if id == "" {
		return h.resSessions()
	}
	if s := h.resSession(id); s != nil {
		return []*resSess{s}
	}
	return nil
}
