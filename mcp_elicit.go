package main

// mcp_elicit.go: URL-mode elicitation, the one way ttywright asks the
// client's person for something the model must not see (a password for
// the program in the terminal). A legacy client that declared
// elicitation.url (2025-11-25) gets an elicitation/create request and,
// once the page has done its work, notifications/elicitation/complete; a
// 2026-07-28 client that declared it gets the input_required result of
// multi round-trip requests and retries the call. Form mode is never
// used: MCP forbids it for sensitive input.

import (
	"context"
	"encoding/json"
	"fmt"
)

// declaresURLElicitation reports whether a client's capabilities hold
// elicitation.url (the key, with an object value).
func declaresURLElicitation(caps map[string]json.RawMessage) bool {
	var e struct {
		URL json.RawMessage `json:"url"`
	}
	raw, ok := caps["elicitation"]
	return ok && json.Unmarshal(raw, &e) == nil && len(e.URL) > 0 && e.URL[0] == '{'
}

// asker is what the client of the request ctx belongs to can do to put a
// page before its person.
func (s *Server) asker(ctx context.Context) Asker {
	if m := modernFrom(ctx); m != nil {
		return Asker{InputRequired: declaresURLElicitation(m.caps)}
	}
	s.mu.Lock()
	ok := protoAtLeast(s.version, protoV20251125) && declaresURLElicitation(s.clientCaps)
	s.mu.Unlock()
	if !ok {
		return Asker{}
	}
	return Asker{Request: s.elicitURL, Complete: s.elicitComplete}
}

// elicitURL sends elicitation/create {mode: "url"} and returns the
// person's action. An id is made here when e has none.
func (s *Server) elicitURL(ctx context.Context, e URLElicitation) (string, error) {
	raw, err := s.request(ctx, "elicitation/create", map[string]any{
		"mode": "url", "url": e.URL, "message": e.Message, "elicitationId": e.ID,
	})
	if err != nil {
		return "", err
	}
	var r struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return "", fmt.Errorf("the client answered elicitation/create with %.100s, not {\"action\": ...}", raw)
	}
	switch r.Action {
	case "accept", "decline", "cancel":
		return r.Action, nil
	}
	return "", fmt.Errorf("the client answered elicitation/create with action %q: the actions are accept, decline and cancel", r.Action)
}

// elicitComplete tells a legacy client that the page of elicitation id
// has done its work.
func (s *Server) elicitComplete(id string) {
	s.notify("notifications/elicitation/complete", map[string]any{"elicitationId": id})
}

// answersOf reads a retry's inputResponses and requestState from
// tools/call m; nil when there are none, or when either is of the wrong
// type.
func answersOf(m *message) *InputAnswers {
	var responses map[string]json.RawMessage
	var state *string
	if m.InputResponses != nil && json.Unmarshal(m.InputResponses, &responses) != nil ||
		m.RequestState != nil && json.Unmarshal(m.RequestState, &state) != nil ||
		responses == nil && state == nil {
		return nil
	}
	a := &InputAnswers{Responses: responses}
	if state != nil {
		a.State = *state
	}
	return a
}

// inputRequiredResult is the 2026-07-28 input_required result of ir:
// each request an elicitation/create in URL mode (the revision has no
// elicitationId; the retry's key says which answer is whose).
func inputRequiredResult(ir *InputRequired) map[string]any {
	reqs := map[string]any{}
	for key, e := range ir.Requests {
		reqs[key] = map[string]any{
			"method": "elicitation/create",
			"params": map[string]any{"mode": "url", "url": e.URL, "message": e.Message},
		}
	}
	return map[string]any{"resultType": "input_required", "inputRequests": reqs, "requestState": ir.State}
}
