package main

// mcp_listen.go: subscriptions/listen, the 2026-07-28 replacement for
// resources/subscribe and the unsolicited list_changed notifications. A
// listen request stays open: the server first sends
// notifications/subscriptions/acknowledged with the notification kinds it
// honours, then only those kinds, each tagged with the subscription id (the
// request's JSON-RPC id) in _meta, debounced like the legacy subscriptions
// (one per interval per URI, the last change never lost). The client ends
// it with notifications/cancelled (nothing more is sent for it); at
// shutdown the server answers it with a closing result. Several streams may
// be open at once, each with its own debouncers.

import (
	"context"
	"encoding/json"
)

// listenFilter is the notifications object of subscriptions/listen and
// of its acknowledgement.
type listenFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// listen handles subscriptions/listen {notifications}. URIs that cannot
// exist are -32602 before anything is acknowledged. The tool and prompt
// lists never change while the server runs (the capabilities carry no
// listChanged for them), so those kinds are left out of the
// acknowledgement, as the revision asks for kinds a server does not honour.
func (s *Server) listen(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Notifications *listenFilter `json:"notifications"`
	}
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	if p.Notifications == nil {
		return nil, invalidParams(`subscriptions/listen needs "notifications": {"resourceSubscriptions": [uri], "resourcesListChanged": true, ...}`)
	}
	id := requestIDFrom(ctx)
	st := &watcher{id: id, ctx: ctx, send: s.notify, uris: map[resourceURI]*debouncer{}}
	acked := listenFilter{ResourcesListChanged: p.Notifications.ResourcesListChanged}
	for _, raw := range p.Notifications.ResourceSubscriptions {
		u, err := s.hub.subscribable(raw)
		if err != nil {
			return nil, modernError(err)
		}
		if st.uris[u] == nil {
			st.uris[u] = &debouncer{uri: raw}
			acked.ResourceSubscriptions = append(acked.ResourceSubscriptions, raw)
		}
	}
	if acked.ResourcesListChanged {
		st.list = &debouncer{}
	}
	closing := map[string]any{"_meta": map[string]any{metaSubscriptionID: id}}
	ack := func() {
		st.send("notifications/subscriptions/acknowledged", map[string]any{
			"_meta": map[string]any{metaSubscriptionID: id}, "notifications": acked})
	}
	if err := s.hub.addWatcher(st, ack); err != nil {
		return nil, err
	}
	if len(st.uris) > 0 || st.list != nil {
		select {
		case <-ctx.Done(): // notifications/cancelled, or shutdown after eofGrace
		case <-s.stopped: // shutdown: close the stream with a result
		}
	}
	s.hub.removeWatcher(st)
	return closing, nil
}
