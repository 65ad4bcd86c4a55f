package main

// mcp_http_legacy.go: the legacy eras (2024-11-05 to 2025-11-25) over
// Streamable HTTP. An initialize POST without the 2026-07-28 envelope
// makes a session, one Server, whose id goes back in Mcp-Session-Id; later
// POSTs carry it and their messages (requests, notifications, responses to
// the server's elicitation/create; batches before 2025-06-18). A POST's
// response, and what the Server sends for that request before it
// (progress, elicitation/create), go on that POST's stream; the session's
// own messages (resources/updated, list_changed, log messages, a response
// whose POST went away) on the GET stream, numbered for Last-Event-ID and
// kept in a ring of httpRingEvents while no GET stream is open. DELETE ends
// the session; an unknown id is 404. MCP-Protocol-Version, when sent, must
// be the negotiated version.

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// httpSession is one legacy session: its Server and its HTTP streams.
type httpSession struct {
	id     string
	srv    *Server
	ctx    context.Context // the session's requests'; cancelled when it ends
	cancel context.CancelFunc
	lineMu sync.Mutex // one POST's messages into the Server at a time, in arrival order

	mu        sync.Mutex
	posts     map[string]*httpStream // by the raw id of each request waiting for its response
	get       *httpStream            // the GET stream; nil when none is open
	ring      []httpMsg              // the session's messages, for Last-Event-ID
	ringBytes int
	seq       uint64 // the last event id
	active    int    // POSTs and GETs in progress: no idle expiry while > 0
	last      time.Time
	ended     bool
}

// sink routes one line of the Server's (Server.sink): to the POST stream
// of the request it belongs to while that stream lives, else to the
// session's stream.
func (s *httpSession) sink(o outgoing) {
	final := o.kind == outResponse
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	if st := s.posts[string(o.related)]; st != nil {
		if st.put(httpMsg{line: o.line, code: o.code}, final) {
			if final {
				s.unlinkLocked(st)
			}
			return
		}
		s.unlinkLocked(st) // dropped: what follows goes to the session's stream
	}
	s.seq++
	m := httpMsg{line: o.line, code: o.code, event: s.seq}
	s.ring = append(s.ring, m)
	s.ringBytes += len(o.line)
	for len(s.ring) > httpRingEvents || s.ringBytes > httpRingBytes {
		s.ringBytes -= len(s.ring[0].line)
		s.ring = s.ring[1:]
	}
	if s.get != nil && !s.get.put(m, false) {
		s.get = nil // dropped; the client may come back with Last-Event-ID
	}
}

// unlinkLocked forgets the request ids of st.
func (s *httpSession) unlinkLocked(st *httpStream) {
	for _, id := range st.ids {
		if s.posts[id] == st {
			delete(s.posts, id)
		}
	}
}

// newSession makes a session within the principal's limit. When the
// table is full the least recently used idle session (no request running,
// no GET stream open) is ended to make room: one-shot clients never
// DELETE theirs, and would otherwise fill the table until the idle
// timeout. It returns nil only when every session is busy.
func (h *httpMCP) newSession() *httpSession {
	s := &httpSession{id: rand.Text(), posts: map[string]*httpStream{}, last: time.Now()}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	h.p.mu.Lock()
	var evicted *httpSession
	if len(h.p.sessions) >= h.maxSessions {
		if evicted = h.evictLocked(); evicted == nil {
			h.p.mu.Unlock()
			s.cancel()
			return nil
		}
	}
	s.srv = h.newConn()
	s.srv.sink = s.sink
	h.p.sessions[s.id] = s
	h.p.mu.Unlock()
	if evicted != nil {
		evicted.release()
		h.evictLog.Do(func() {
			h.errlog.Printf("http: %d legacy sessions open, the most at once: ending the least recently used idle one for each new one (clients that never DELETE their session; logged once)", h.maxSessions)
		})
	}
	return s
}

// evictLocked ends the least recently used idle session and takes it out
// of the table; under h.p.mu. It returns the session, whose Server the
// caller releases, or nil when every session is busy.
func (h *httpMCP) evictLocked() *httpSession {
	var lru *httpSession
	var at time.Time
	for _, s := range h.p.sessions {
		s.mu.Lock()
		if s.active == 0 && !s.ended && (lru == nil || s.last.Before(at)) {
			lru, at = s, s.last
		}
		s.mu.Unlock()
	}
	if lru == nil {
		return nil
	}
	lru.mu.Lock()
	defer lru.mu.Unlock()
	if lru.active > 0 || !lru.endLocked("") { // busy since the scan
		return nil
	}
	delete(h.p.sessions, lru.id)
	return lru
}

// session looks up the session of id.
func (h *httpMCP) session(id string) *httpSession {
	h.p.mu.Lock()
	defer h.p.mu.Unlock()
	return h.p.sessions[id]
}

// endSession ends s: its streams close, its requests are cancelled (the
// ones still waiting for their response answered with a -32000 error, msg,
// unless msg is ""), its Server leaves the hub once they returned. It
// returns at once.
func (h *httpMCP) endSession(s *httpSession, msg string) {
	h.p.mu.Lock()
	if h.p.sessions[s.id] == s {
		delete(h.p.sessions, s.id)
	}
	h.p.mu.Unlock()
	s.mu.Lock()
	ended := s.endLocked(msg)
	s.mu.Unlock()
	if ended {
		s.release()
	}
}

// endLocked marks s ended and closes its streams (see endSession); under
// s.mu. It reports false when s had already ended.
func (s *httpSession) endLocked(msg string) bool {
	if s.ended {
		return false
	}
	s.ended = true
	for _, st := range s.posts {
		if msg != "" {
			st.abort(codeConnectionClosed, msg)
		} else {
			st.finish()
		}
	}
	if s.get != nil {
		s.get.finish()
	}
	s.posts, s.get, s.ring = nil, nil, nil
	return true
}

// release stops the Server of an ended session and cancels its requests;
// the Server leaves the hub once they returned.
func (s *httpSession) release() {
	s.srv.stop()
	s.cancel()
	go func() {
		if !s.srv.waitTimeout(stopGrace) {
			s.srv.errlog.Printf("http: requests of an ended session still running %v after it ended", stopGrace)
		}
		s.srv.close()
	}()
}

// expireSessions ends the sessions idle for sessionIdle, until Close.
func (h *httpMCP) expireSessions() {
	t := time.NewTicker(max(h.sessionIdle/4, time.Second))
	defer t.Stop()
	for {
		select {
		case <-h.stopped:
			return
		case <-t.C:
		}
		var idle []*httpSession
		h.p.mu.Lock()
		for _, s := range h.p.sessions {
			s.mu.Lock()
			if s.active == 0 && time.Since(s.last) > h.sessionIdle {
				idle = append(idle, s)
			}
			s.mu.Unlock()
		}
		h.p.mu.Unlock()
		for _, s := range idle {
			h.endSession(s, "")
		}
	}
}

// legacyInitialize serves an initialize POST: a new session.
func (h *httpMCP) legacyInitialize(w http.ResponseWriter, r *http.Request, f frame) {
	s := h.newSession()
	if s == nil {
		// A session is free for a new one as soon as its request returns
		// or its GET stream closes: the retry is worth making soon.
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, codeServerBusy, fmt.Sprintf("server busy: all %d sessions, the most at once, are busy (each has a request running or a GET stream open): retry when one is done, or DELETE a session you no longer use", h.maxSessions))
		return
	}
	h.legacyServe(w, r, s, f, true)
}

// legacyPost serves a POST of session sid.
func (h *httpMCP) legacyPost(w http.ResponseWriter, r *http.Request, sid string, f frame) {
	s := h.sessionFor(w, r, sid)
	if s != nil {
		h.legacyServe(w, r, s, f, false)
	}
}

// sessionFor finds the session of sid and checks MCP-Protocol-Version:
// one this server does not speak is 400, as the Streamable HTTP
// transport requires; another version it speaks than the one the session
// negotiated is served (the transport asks 400 only for an unsupported
// one, and some clients send their newest). It answers the request
// itself (404, 400) and returns nil when the request cannot go on.
func (h *httpMCP) sessionFor(w http.ResponseWriter, r *http.Request, sid string) *httpSession {
	s := h.session(sid)
	if s == nil {
		httpError(w, http.StatusNotFound, codeInvalidRequest, "session not found: it ended or never was; send initialize for a new one")
		return nil
	}
	v := s.srv.negotiated()
	if hv := strings.TrimSpace(r.Header.Get("MCP-Protocol-Version")); hv != "" && !slices.Contains(protocolVersions, hv) {
		httpError(w, http.StatusBadRequest, codeInvalidRequest, fmt.Sprintf("bad request: MCP-Protocol-Version %q is not one this server speaks in a session (%s); this session's is %s",
			hv, strings.Join(protocolVersions, ", "), v))
		return nil
	}
	return s
}

// legacyMessages checks the messages of a POST (f) and returns the ids
// of its requests and of the requests it cancels; a non-nil reply is the
// 400 to answer instead. In a session (not its initialize POST) an
// initialize is refused here, where the answer can say how HTTP opens
// another session.
func legacyMessages(f frame, batches, inSession bool) (ids, cancels []string, reply *response) {
	if f.batch {
		if !batches {
			return nil, nil, errorResponse(nullID, codeInvalidRequest, "invalid request: no JSON-RPC batches in initialize or since MCP 2025-06-18: POST each message alone")
		}
		if f.err != nil || len(f.msgs) == 0 {
			return nil, nil, decodeError(f.err, "invalid request: a batch must be a non-empty array of messages")
		}
	}
	for _, m := range f.msgs {
		switch {
		case m.reply != nil:
			return nil, nil, m.reply
		case m.invalid, m.Method == "": // needs no answer; a response of the client's
			continue
		case inSession && m.Method == "initialize":
			return nil, nil, errorResponse(m.ID, codeInvalidRequest, "invalid request: this session is initialized already: send initialize without Mcp-Session-Id to open another session")
		case m.ID != nil:
			ids = append(ids, string(m.ID))
		}
		if m.Method == "notifications/cancelled" && m.RequestID != nil {
			cancels = append(cancels, string(m.RequestID))
		}
	}
	return ids, cancels, nil
}

// legacyServe hands a POST's messages to the session's Server and writes
// the POST's stream: 202 when the body holds no request.
func (h *httpMCP) legacyServe(w http.ResponseWriter, r *http.Request, s *httpSession, f frame, isInit bool) {
	batches := !isInit && !s.srv.atLeast(protoV20250618)
	ids, cancels, reply := legacyMessages(f, batches, !isInit)
	if reply == nil && isInit && len(ids) != 1 {
		reply = errorResponse(nullID, codeInvalidRequest, "invalid request: initialize is a request, with an id")
	}
	st := newHTTPStream()
	st.ids = ids
	s.mu.Lock()
	for _, id := range ids {
		if reply == nil && s.posts[id] != nil {
			reply = errorResponse(json.RawMessage(id), codeInvalidRequest, "invalid request: id %s is already in use by a running request", id)
		}
	}
	if reply == nil && !s.ended {
		for _, id := range ids {
			s.posts[id] = st
		}
		s.active++
		s.last = time.Now()
	}
	ended := s.ended
	s.mu.Unlock()
	if reply != nil || ended {
		if isInit {
			h.endSession(s, "")
		}
		if reply != nil {
			writeJSONResponse(w, http.StatusBadRequest, reply.marshal())
		} else {
			httpError(w, http.StatusNotFound, codeInvalidRequest, "session not found: it ended; send initialize for a new one")
		}
		return
	}
	defer func() {
		s.mu.Lock()
		s.unlinkLocked(st)
		s.active--
		s.last = time.Now()
		s.mu.Unlock()
	}()
	s.lineMu.Lock()
	s.srv.handleFrame(s.ctx, f)
	s.lineMu.Unlock()
	h.cancelStreams(s, cancels)
	if isInit && s.srv.negotiated() == "" {
		h.endSession(s, "") // initialize failed: the error goes back, no session
	} else if isInit {
		w.Header().Set("Mcp-Session-Id", s.id)
	}
	if len(ids) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st.run(w, r, streamOpts{stall: h.writeStall, keepAlive: h.keepAlive, done: h.stopped})
}

// cancelStreams ends the POST streams of the requests a
// notifications/cancelled named: no response will come for them.
func (h *httpMCP) cancelStreams(s *httpSession, ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if st := s.posts[id]; st != nil {
			st.finish()
			s.unlinkLocked(st)
		}
	}
}

// get serves GET: a legacy session's stream, resumed after Last-Event-ID.
// 2026-07-28 has no GET stream: without a session it is 405.
func (h *httpMCP) get(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get("Mcp-Session-Id")
	if sid == "" {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, codeInvalidRequest, "method not allowed: GET opens a legacy session's stream (send its Mcp-Session-Id); 2026-07-28 clients POST subscriptions/listen")
		return
	}
	if a := r.Header.Get("Accept"); a != "" && !strings.Contains(a, "text/event-stream") && !strings.Contains(a, "*/*") {
		httpError(w, http.StatusNotAcceptable, codeInvalidRequest, "not acceptable: the stream is text/event-stream; send Accept: text/event-stream")
		return
	}
	s := h.sessionFor(w, r, sid)
	if s == nil {
		return
	}
	if !h.p.take(true) {
		w.Header().Set("Retry-After", "5")
		httpError(w, http.StatusTooManyRequests, codeServerBusy, fmt.Sprintf("server busy: %d streams are open, the most at once: close one", httpMaxStreams))
		return
	}
	defer h.p.give(true)
	after, _ := strconv.ParseUint(strings.TrimSpace(r.Header.Get("Last-Event-ID")), 10, 64)
	st := newHTTPStream()
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		httpError(w, http.StatusNotFound, codeInvalidRequest, "session not found: it ended; send initialize for a new one")
		return
	}
	old := s.get
	s.get = st
	for _, m := range s.ring {
		if after > 0 && m.event > after {
			st.put(m, false)
		}
	}
	s.active++
	s.mu.Unlock()
	if old != nil {
		old.finish() // one GET stream a session: the newest wins
	}
	st.run(w, r, streamOpts{sse: true, stall: h.writeStall, keepAlive: h.keepAlive, done: h.stopped})
	s.mu.Lock()
	if s.get == st {
		s.get = nil
	}
	s.active--
	s.last = time.Now()
	s.mu.Unlock()
}

// delete serves DELETE: the session ends (204), an unknown one is 404.
func (h *httpMCP) delete(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get("Mcp-Session-Id")
	if sid == "" {
		httpError(w, http.StatusBadRequest, codeInvalidRequest, "bad request: DELETE ends the session its Mcp-Session-Id names")
		return
	}
	if s := h.sessionFor(w, r, sid); s != nil {
		h.endSession(s, "the session was ended by DELETE before this request was answered")
		w.WriteHeader(http.StatusNoContent)
	}
}
