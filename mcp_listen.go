package main

// listen.go: subscriptions/listen, the 2026-07-28 replacement for
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
	"time"
)

// listenStream is one open subscriptions/listen request. Its maps and
// closed flag are guarded by resState.mu; sends happen under
// resState.sendMu.
type listenStream struct {
	id   json.RawMessage // the request id: the subscription id
	ctx  context.Context // the request's: cancelled by notifications/cancelled
	send func(method string, params any)

	uris   map[resourceURI]*debouncer // resourceSubscriptions
	list   *debouncer                 // resourcesListChanged; nil when not asked for
	closed bool
}

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
	st := &listenStream{id: id, ctx: ctx, send: s.notify, uris: map[resourceURI]*debouncer{}}
	acked := listenFilter{ResourcesListChanged: p.Notifications.ResourcesListChanged}
	for _, raw := range p.Notifications.ResourceSubscriptions {
		u, err := s.app.subscribable(raw)
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
	if err := s.app.watch(st, acked); err != nil {
		return nil, err
	}
	if len(st.uris) > 0 || st.list != nil {
		select {
		case <-ctx.Done(): // notifications/cancelled, or shutdown after eofGrace
		case <-s.stopped: // shutdown: close the stream with a result
		}
	}
	s.app.unwatch(st)
	return closing, nil
}

// watch registers st and sends its acknowledgement, under sendMu so that no
// notification of st can go before it.
func (a *App) watch(st *listenStream, acked listenFilter) error {
	r := &a.res
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	n := len(st.uris)
	for o := range r.streams {
		n += len(o.uris)
	}
	if n+len(r.subs) > maxSubscriptions {
		r.mu.Unlock()
		return invalidParams("already %d subscribed URIs: end some listen streams first", n-len(st.uris)+len(r.subs))
	}
	if r.streams == nil {
		r.streams = map[*listenStream]struct{}{}
	}
	r.streams[st] = struct{}{}
	r.nstreams.Store(int32(len(r.streams)))
	r.mu.Unlock()
	st.send("notifications/subscriptions/acknowledged", map[string]any{
		"_meta": map[string]any{metaSubscriptionID: st.id}, "notifications": acked})
	return nil
}

// unwatch removes st; once it returns no notification of st is on its way.
func (a *App) unwatch(st *listenStream) {
	r := &a.res
	r.mu.Lock()
	st.closed = true
	delete(r.streams, st)
	r.nstreams.Store(int32(len(r.streams)))
	r.mu.Unlock()
	r.sendMu.Lock()
	r.sendMu.Unlock() // wait out a send that passed its check before
}

// streamsUpdated arms the updated notification of every stream that
// subscribed to u. r.mu must be held.
func (a *App) streamsUpdated(u resourceURI) {
	for st := range a.res.streams {
		if d := st.uris[u]; d != nil {
			a.armStream(st, d, "notifications/resources/updated")
		}
	}
}

// streamsListChanged arms list_changed on every stream that asked for it;
// their subscribed URIs hear only of their own changes (streamsUpdated).
// r.mu must be held.
func (a *App) streamsListChanged() {
	for st := range a.res.streams {
		if st.list != nil {
			a.armStream(st, st.list, "notifications/resources/list_changed")
		}
	}
}

// armStream schedules method for d on st, debounced. r.mu must be held.
func (a *App) armStream(st *listenStream, d *debouncer, method string) {
	if delay, ok := a.res.due(d); ok {
		time.AfterFunc(delay, func() { a.fireStream(st, d, method) })
	}
}

// fireStream sends what armStream scheduled, tagged with the subscription
// id, unless the stream has ended or its request was cancelled.
func (a *App) fireStream(st *listenStream, d *debouncer, method string) {
	r := &a.res
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	d.pending = false
	d.last = time.Now()
	closed := st.closed
	r.mu.Unlock()
	if closed || st.ctx.Err() != nil {
		return
	}
	params := map[string]any{"_meta": map[string]any{metaSubscriptionID: st.id}}
	if d != st.list {
		params["uri"] = d.uri
	}
	st.send(method, params)
}
