package main

// resources_subs.go: who hears of a resource change, and when. A watcher
// is one receiver: a legacy connection (its resources/subscribe URIs, and
// list_changed) or a 2026-07-28 subscriptions/listen stream (its URIs and
// list_changed, each notification tagged with the stream's subscription
// id). Each watcher has its own debouncers: at most one
// notifications/resources/updated per URI per interval (250 ms), at most
// one list_changed per interval, the last change always followed by a
// notification. Sessions report what happened (session_events.go), and
// SessionEvent turns that into the URIs that changed.

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"
)

// Resource notification limits and defaults.
const (
	defaultUpdateInterval = 250 * time.Millisecond // at most one updated per URI per interval
	defaultPageSize       = 100                    // items per resources/list, prompts/list ... page
	maxSubscriptions      = 4096                   // subscribed URIs over all watchers; more is -32602
)

// resState is the resources part of the hub: the watchers and the
// sessions shell_stop removed. The zero value is ready to use (250 ms
// interval, 100-item pages).
type resState struct {
	interval time.Duration // debounce interval; 0 = defaultUpdateInterval (tests shorten it)
	pageSize int           // items per page; 0 = defaultPageSize (tests shrink it)

	nuris atomic.Int32 // subscribed URIs over all watchers, read without mu so unsubscribed updates cost one atomic load

	mu       sync.Mutex
	watchers map[*watcher]struct{}
	// gone keeps a frozen copy of each session shell_stop removed (oldest
	// first, at most maxStoppedKept), so that its info, buffer and
	// captures stay readable (an agent stops a session, then fetches its
	// recording) while the Session and its emulator are freed.
	gone []*resSess

	// sendMu is held while a notification is checked and sent, so that
	// once a watcher drops a URI no updated for it can still be on its
	// way. resourceUpdated never takes it: the PTY path never waits for
	// the client.
	sendMu sync.Mutex
}

// debouncer limits one notification stream to one send per interval with
// the trailing edge kept: a change while a send is pending is covered by
// that send, and a change after a send schedules another at last+interval.
type debouncer struct {
	last    time.Time // when the last notification was sent; zero = never
	pending bool      // a timer is armed and will send

	uri string // subscriptions: the URI as the client spelled it, sent back in updated
}

// watcher is one receiver of resource notifications. Its maps and closed
// flag are guarded by resState.mu; sends happen under resState.sendMu.
type watcher struct {
	id   json.RawMessage // a listen stream's subscription id (its request id); nil for a connection
	ctx  context.Context // a listen stream's request; nil for a connection
	send func(method string, params any)

	uris   map[resourceURI]*debouncer
	list   *debouncer // list_changed; nil when not asked for
	closed bool
}

func (r *resState) every() time.Duration {
	if r.interval > 0 {
		return r.interval
	}
	return defaultUpdateInterval
}

func (r *resState) perPage() int {
	if r.pageSize > 0 {
		return r.pageSize
	}
	return defaultPageSize
}

// due marks d pending and returns how long until it may send, or false
// when a send is already pending (and will cover this change). r.mu must
// be held; the caller arms a timer for the delay.
func (r *resState) due(d *debouncer) (time.Duration, bool) {
	if d.pending {
		return 0, false
	}
	d.pending = true
	return max(time.Until(d.last.Add(r.every())), 0), true
}

// subscribed counts the URIs of every watcher. r.mu is held.
func (r *resState) subscribed() int {
	n := 0
	for w := range r.watchers {
		n += len(w.uris)
	}
	return n
}

// overSubscribed is the -32602 error for adding add URIs to the n
// subscribed over all connections when that passes maxSubscriptions, or
// nil.
func overSubscribed(n, add int) error {
	if n+add <= maxSubscriptions {
		return nil
	}
	return invalidParams("%d more subscribed URIs would pass the limit of %d (%d subscribed now, over all connections): subscribe to fewer URIs, or unsubscribe or end listen streams first", add, maxSubscriptions, n)
}

// addWatcher registers w, refusing it when its URIs would take the total
// past maxSubscriptions; then (under sendMu, so that no notification of
// w can go before it) it calls first, which may be nil.
func (h *mcpHub) addWatcher(w *watcher, first func()) error {
	r := &h.res
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	if err := overSubscribed(r.subscribed(), len(w.uris)); err != nil {
		r.mu.Unlock()
		return err
	}
	if r.watchers == nil {
		r.watchers = map[*watcher]struct{}{}
	}
	r.watchers[w] = struct{}{}
	r.nuris.Store(int32(r.subscribed()))
	r.mu.Unlock()
	if first != nil {
		first()
	}
	return nil
}

// removeWatcher removes w; once it returns no notification of w is on its
// way.
func (h *mcpHub) removeWatcher(w *watcher) {
	r := &h.res
	r.mu.Lock()
	w.closed = true
	delete(r.watchers, w)
	r.nuris.Store(int32(r.subscribed()))
	r.mu.Unlock()
	r.sendMu.Lock()
	r.sendMu.Unlock() // wait out a send that passed its check before
}

// resourceUpdated tells the watchers of u that it changed. It never
// blocks on a client; for a URI nobody watches it costs one atomic load
// (when nothing is subscribed) or a map lookup per watcher. Called on
// every screen change.
func (h *mcpHub) resourceUpdated(u resourceURI) {
	r := &h.res
	if r.nuris.Load() == 0 {
		return
	}
	r.mu.Lock()
	for w := range r.watchers {
		if d := w.uris[u]; d != nil {
			h.arm(w, d, u)
		}
	}
	r.mu.Unlock()
}

// resourceListChanged tells the watchers that asked for it that sessions
// or captures came or went: notifications/resources/list_changed. It
// sends no updated: updated goes only to a resource whose content
// changed, and only the caller knows which did.
func (h *mcpHub) resourceListChanged() {
	r := &h.res
	r.mu.Lock()
	for w := range r.watchers {
		if w.list != nil {
			h.arm(w, w.list, resourceURI{})
		}
	}
	r.mu.Unlock()
}

// arm schedules d's notification on w, debounced: resources/updated
// for u, or list_changed when d is w.list. r.mu must be held.
func (h *mcpHub) arm(w *watcher, d *debouncer, u resourceURI) {
	if delay, ok := h.res.due(d); ok {
		time.AfterFunc(delay, func() { h.fire(w, d, u) })
	}
}

// fire sends what arm scheduled, unless the watcher has ended, its
// request was cancelled or it dropped the URI meanwhile. A stream's
// notification carries its subscription id in _meta.
func (h *mcpHub) fire(w *watcher, d *debouncer, u resourceURI) {
	r := &h.res
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	d.pending = false
	d.last = time.Now()
	list := d == w.list
	live := !w.closed && (list || w.uris[u] == d)
	r.mu.Unlock()
	if !live || w.ctx != nil && w.ctx.Err() != nil {
		return
	}
	method := "notifications/resources/updated"
	if list {
		method = "notifications/resources/list_changed"
	}
	switch {
	case w.id != nil:
		params := map[string]any{"_meta": map[string]any{metaSubscriptionID: w.id}}
		if !list {
			params["uri"] = d.uri
		}
		w.send(method, params)
	case list:
		w.send(method, nil)
	default:
		w.send(method, map[string]string{"uri": d.uri})
	}
}

// SessionEvent turns what a session reports into the notifications of
// the resources that changed; a stopped session is frozen first, so that
// a client that reacts finds its resources.
func (h *mcpHub) SessionEvent(e Event) {
	id := e.Session.ID
	switch e.Kind {
	case EventStarted:
		h.resourceListChanged()
		h.resourceUpdated(sessionsListURI())
	case EventScreen:
		h.resourceUpdated(bufferURI(id))
	case EventCommand:
		h.resourceUpdated(infoURI(id)) // info and the list show command_running
		h.resourceUpdated(sessionsListURI())
		if e.Ended { // the list holds finished commands only
			h.resourceUpdated(commandsURI(id))
			h.resourceListChanged()
		}
	case EventScreenshot:
		// sessions://list shows no capture data.
		h.resourceListChanged()
		h.resourceUpdated(screenshotsURI(id))
		h.resourceUpdated(screenshotURI(id, e.Name))
		h.resourceUpdated(infoURI(id))
	case EventRecording:
		h.resourceUpdated(infoURI(id))
		h.resourceUpdated(sessionsListURI())
	case EventRecorded:
		h.resourceListChanged()
		h.resourceUpdated(infoURI(id))
		h.resourceUpdated(recordingsURI(id))
		h.resourceUpdated(sessionsListURI())
	case EventKeyboard:
		h.resourceUpdated(infoURI(id)) // info and the list show viewers and keyboard
		h.resourceUpdated(sessionsListURI())
	case EventExited:
		h.resourceUpdated(infoURI(id))
		h.resourceUpdated(sessionsListURI())
	case EventStopped:
		h.freeze(e.Session)
		h.resourceListChanged()
		h.resourceUpdated(sessionsListURI()) // stopped: true
		h.resourceUpdated(infoURI(id))
		h.resourceUpdated(traceURI(id)) // its end
		h.resourceUpdated(tapeURI(id))
	}
}

// connWatcher returns the legacy connection's watcher, registering it on
// first use (initialize): it hears list_changed from then on, and the
// URIs of resources/subscribe.
func (s *Server) connWatcher() *watcher {
	s.mu.Lock()
	w, fresh := s.watch, false
	if w == nil {
		w, fresh = &watcher{send: s.notify, uris: map[resourceURI]*debouncer{}, list: &debouncer{}}, true
		s.watch = w
	}
	s.mu.Unlock()
	if fresh {
		// Registered outside s.mu, so that the hub's locks never nest
		// under it; with no URIs yet it is never over the limit.
		_ = s.hub.addWatcher(w, nil)
	}
	return w
}

// resourcesSubscribe is resources/subscribe {uri}: any URI that
// subscribable takes may be subscribed, also for a capture or command of
// an existing session that is not made yet; a URI of no known shape, an
// unknown theme or session is -32002. Subscriptions are keyed by the
// parsed resourceURI (session://s1/%62uffer is session://s1/buffer), and
// subscribing twice is one subscription.
func (s *Server) resourcesSubscribe(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	u, err := s.hub.subscribable(p.URI)
	if err != nil {
		return nil, err
	}
	w := s.connWatcher()
	r := &s.hub.res
	r.mu.Lock()
	defer r.mu.Unlock()
	if w.uris[u] != nil {
		return struct{}{}, nil
	}
	if err := overSubscribed(r.subscribed(), 1); err != nil {
		return nil, err
	}
	w.uris[u] = &debouncer{uri: p.URI}
	r.nuris.Add(1)
	return struct{}{}, nil
}

// resourcesUnsubscribe is resources/unsubscribe {uri}. Once it returns, no
// updated notification for uri is sent (a pending one is dropped).
// Unsubscribing a URI that is not subscribed is not an error.
func (s *Server) resourcesUnsubscribe(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	w := s.connWatcher()
	r := &s.hub.res
	if u, err := parseResourceURI(p.URI); err == nil { // no other URI can be subscribed
		r.mu.Lock()
		if w.uris[u] != nil {
			delete(w.uris, u)
			r.nuris.Add(-1)
		}
		r.mu.Unlock()
	}
	// Wait out a notification that passed its check before the delete.
	r.sendMu.Lock()
	r.sendMu.Unlock()
	return struct{}{}, nil
}
