package main

// web_view.go: the live view of a session in a browser. A ViewOffer is
// http://127.0.0.1:PORT/view/TOKEN on the secret page's door: one page
// that draws the session's screen from server-sent events, a status line
// and a button that takes the keyboard. Unlike a secret page it is
// reusable: many GETs, many tabs, each tab its own viewer, until Cancel,
// its deadline or the end of the session. The door only passes on what
// the glue gives it (screen frames and status as JSON) and hands the
// person's keys to the glue's functions; it knows nothing of sessions.
//
// Requests are checked as the secret page's are: the exact Host, and for
// the event stream and every POST the page's own origin (Origin,
// Sec-Fetch-Site). Each tab learns a 128-bit token of its own from its
// event stream, which no other origin can read (no CORS), and sends it
// in the X-Ttywright-CSRF header of each POST; the header also makes a
// cross-origin fetch need a preflight, which the door never grants.

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"mime"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// The limits of a view.
const (
	maxViewOffers  = 64       // views live at once on one door
	maxViewViewers = 8        // event streams of one view at once: open tabs
	maxViewKeys    = 64 << 10 // bytes of one POST of keys (the page cuts a paste in pieces)
	maxViewFrame   = 4 << 20  // bytes of one frame or status; a bigger one is skipped
	viewHeartbeat  = 15 * time.Second
	viewCSRFHeader = "X-Ttywright-CSRF"
)

// ViewPage is what one live view shows, and where a person's keys go.
// The door calls its functions from HTTP handlers, never with a lock of
// its own held, and reads every channel they return promptly, keeping
// only the newest value: a producer's send waits at most for a map
// store, never for a browser.
type ViewPage struct {
	Session string    // session id shown on the page
	Title   string    // shown as the page's heading, e.g. the command line
	Expires time.Time // the view stops then; zero: until Cancel or the session ends

	// Frames returns the session's screen frames as JSON objects
	// ({"op":"screen",...}): the current one first, then each change.
	// It is called once per viewer; the channel must be closed when the
	// session ends (the viewer's stream then ends) or ctx ends.
	Frames func(ctx context.Context) <-chan []byte

	// Join adds a viewer, one browser tab, while its event stream is
	// open; ctx ends when the stream does, and then Leave is called
	// once. An error refuses the tab (the stream answers 503 with it).
	Join func(ctx context.Context) (*ViewViewer, error)
}

// ViewViewer is one viewer's hooks into the session's keyboard.
type ViewViewer struct {
	// Status sends this viewer's status as a JSON object,
	// {"keyboard":"agent"|"person","you":bool,"viewers":N}, with
	// "exit_code" (and "signal") once the program has ended; the current
	// one first, then each change; nil when there is none. It is read
	// until it closes or the Join context ends.
	Status <-chan []byte

	Take  func() error         // take the keyboard; an error when someone else holds it
	Give  func()               // give it back
	Keys  func(p []byte) error // bytes for the program; called only after a Take succeeded and before Give
	Leave func()               // the tab went away: give the keyboard back if this viewer holds it
}

// ViewOffer is one live view. URL is what a person opens:
// http://127.0.0.1:PORT/view/TOKEN, the token from crypto/rand.Text.
// URL is the token's only copy: the door keeps its SHA-256. Done closes
// when the view has ended: cancelled, expired or the door closed.
type ViewOffer struct {
	offerLife
	page ViewPage

	// Guarded by door.mu; why is read once done is closed:
	why     string                   // the end event's why: "view", or "session" after End
	viewers secretTable[*viewViewer] // by their CSRF tokens
	joining int                      // viewers counted but not in viewers yet
}

// viewViewer is one tab of a view: its token and the glue's hooks. Its
// mu serializes the calls into the hooks, so keys keep their order and
// none arrives after Leave.
type viewViewer struct {
	csrf  string     // sent once, on the tab's event stream
	key   secretHash // of csrf, its key in the view's viewers
	hooks *ViewViewer

	mu    sync.Mutex
	holds bool // the last Take succeeded and no Give or Leave followed
	left  bool
}

// OfferView opens a live view of p and returns its offer. The listener
// is started when none is running and stays open while the view lives.
// It fails when the door's addr is not loopback, the listener cannot be
// opened, maxViewOffers views live, the door is closed, p.Frames or
// p.Join is nil, or p.Expires is set and has passed.
func (d *webDoor) OfferView(p ViewPage) (*ViewOffer, error) {
	switch {
	case p.Frames == nil || p.Join == nil:
		return nil, errors.New("web: a view needs Frames and Join functions")
	case !p.Expires.IsZero() && !time.Now().Before(p.Expires):
		return nil, fmt.Errorf("web: the view's deadline %s has passed: give a time in the future, or none", p.Expires.Format(time.RFC3339))
	}
	o := &ViewOffer{page: p}
	if err := d.views.open(d, o); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *ViewOffer) deadline() time.Time { return o.page.Expires }
func (o *ViewOffer) expireLocked()       { o.endLocked() }
func (o *ViewOffer) cancelLocked()       { o.endLocked() }

// Cancel ends the view: its event streams end (each viewer leaves), its
// URL answers 404, and the listener closes when nothing else needs it.
// Cancelling an ended view does nothing.
func (o *ViewOffer) Cancel() { o.end("view") }

// End ends the view as Cancel does, because its session has ended: the
// pages say so rather than "ask for a new link".
func (o *ViewOffer) End() { o.end("session") }

func (o *ViewOffer) end(why string) {
	o.door.mu.Lock()
	defer o.door.mu.Unlock()
	if !o.ended {
		o.why = why
	}
	o.endLocked()
}

// endLocked ends o once; its URL then answers 404.
func (o *ViewOffer) endLocked() {
	if o.ended {
		return
	}
	if o.why == "" {
		o.why = "view"
	}
	o.door.views.endLocked(o)
}

// lookupView returns the live view whose token is token, or nil.
func (d *webDoor) lookupView(token string) *ViewOffer {
	d.mu.Lock()
	defer d.mu.Unlock()
	o, ok := d.views.lookupLocked(token)
	if !ok || o.ended {
		return nil
	}
	return o
}

// viewActions are the paths of a view after /view/TOKEN: "" the page,
// "events" its event stream, then the POSTs of a tab.
var viewActions = []string{"", "events", "take", "give", "keys"}

// serveView answers /view/TOKEN and /view/TOKEN/action, its Host and
// method checked already: GET the page or its events, POST take, give
// or keys.
func (d *webDoor) serveView(w http.ResponseWriter, r *http.Request, action string) {
	o := d.lookupView(r.PathValue("token"))
	get := action == "" || action == "events"
	switch {
	case o == nil:
		viewNotFound(w, r)
	case get != (r.Method == http.MethodGet):
		allow := "POST"
		if get {
			allow = "GET"
		}
		w.Header().Set("Allow", allow)
		webReply(w, http.StatusMethodNotAllowed, "Method not allowed", "This address takes only "+allow+".")
	case action == "":
		o.servePage(w)
	case action == "events":
		o.serveEvents(w, r, r.Host) // ServeHTTP checked that Host is the door's
	default:
		o.serveAction(w, r, r.Host, action)
	}
}

// viewNotFound is the 404 of a path under /view/ that is no live view.
func viewNotFound(w http.ResponseWriter, _ *http.Request) {
	webReply(w, http.StatusNotFound, "No such view", "This live view does not exist or has ended: ask the agent for a new link.")
}

// servePage writes the view's page with a fresh nonce for its style
// element and its two scripts, which its Content-Security-Policy names.
func (o *ViewOffer) servePage(w http.ResponseWriter) {
	nonce := rand.Text()
	data := viewPageData{
		Nonce:   nonce,
		Session: webVisible(o.page.Session, 128),
		Title:   webVisible(o.page.Title, 500),
		Style:   template.CSS(viewStyle),
		Keys:    template.JS(webKeysScript()),
		Script:  template.JS(viewScript),
	}
	if data.Title == "" {
		data.Title = "Session " + data.Session
	}
	if !o.page.Expires.IsZero() {
		data.Expires = o.page.Expires.Format("15:04:05 MST")
	}
	var buf bytes.Buffer
	if err := viewTemplate.Execute(&buf, data); err != nil {
		// The template and its data are ours: this is a bug, not input.
		webReply(w, http.StatusInternalServerError, "Broken page", "ttywright: the page could not be drawn.")
		return
	}
	w.Header().Set("Content-Security-Policy", viewCSP(nonce))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes()) // the browser went away: nothing to tell it
}

// viewCSP is the view page's policy: nothing but its own nonced style
// and script, and connections (the event stream, the POSTs) to itself.
func viewCSP(nonce string) string {
	return "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce +
		"'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
}

// join counts a new viewer against maxViewViewers, calls the glue's Join
// and registers the viewer under a fresh CSRF token. The status is the
// HTTP answer when it fails.
func (o *ViewOffer) join(ctx context.Context) (*viewViewer, int, string) {
	d := o.door
	d.mu.Lock()
	if o.ended {
		d.mu.Unlock()
		return nil, http.StatusNotFound, "This live view has ended."
	}
	if o.viewers.len()+o.joining >= maxViewViewers {
		d.mu.Unlock()
		return nil, http.StatusServiceUnavailable, fmt.Sprintf("This view has %d viewers already, the most at once: close another tab.", maxViewViewers)
	}
	o.joining++
	d.mu.Unlock()

	hooks, err := o.page.Join(ctx)
	if err == nil && (hooks == nil || hooks.Take == nil || hooks.Give == nil || hooks.Keys == nil || hooks.Leave == nil) {
		err = errors.New("the view's Join gave no Take, Give, Keys or Leave")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	o.joining--
	if err != nil {
		return nil, http.StatusServiceUnavailable, "The session refused a viewer: " + err.Error() + "."
	}
	v := &viewViewer{csrf: rand.Text(), hooks: hooks}
	v.key = o.viewers.add(v.csrf, v)
	return v, 0, ""
}

// leave forgets v, so no POST finds it, then calls its Leave once.
func (o *ViewOffer) leave(v *viewViewer) {
	o.door.mu.Lock()
	o.viewers.delete(v.key)
	o.door.mu.Unlock()
	v.mu.Lock()
	defer v.mu.Unlock()
	v.left, v.holds = true, false
	v.hooks.Leave()
}

// viewer returns the viewer whose CSRF token is csrf, or nil.
func (o *ViewOffer) viewer(csrf string) *viewViewer {
	o.door.mu.Lock()
	defer o.door.mu.Unlock()
	v, _ := o.viewers.lookup(csrf)
	return v
}

// serveAction answers POST take, give or keys. The checks, in order:
// the page's own origin (403), the tab's CSRF token in its header (403),
// for keys an application/octet-stream body (415) of 1 to maxViewKeys
// bytes (413, 400); then the viewer's hook runs, and 409 says the
// keyboard is not this viewer's (held by another, or not taken).
func (o *ViewOffer) serveAction(w http.ResponseWriter, r *http.Request, host, action string) {
	if why := webCrossOrigin(r, host); why != "" {
		webReply(w, http.StatusForbidden, "Refused", why)
		return
	}
	csrfs := r.Header.Values(viewCSRFHeader)
	var v *viewViewer
	if len(csrfs) == 1 {
		v = o.viewer(csrfs[0])
	}
	if v == nil {
		webReply(w, http.StatusForbidden, "Refused", "The request's token does not match an open tab of this view: reload the page.")
		return
	}
	var body []byte
	if action == "keys" {
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/octet-stream" {
			webReply(w, http.StatusUnsupportedMediaType, "Unsupported body", "Keys are sent as application/octet-stream.")
			return
		}
	}
	body, status := viewReadBody(w, r, action)
	if status != 0 {
		webReply(w, status, http.StatusText(status), fmt.Sprintf("Keys are 1 to %d bytes a request; take and give have no body. Nothing was typed.", maxViewKeys))
		return
	}
	if err := v.act(action, body); err != nil {
		webReply(w, http.StatusConflict, "Not yours", err.Error())
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// viewReadBody reads the body of a POST: up to maxViewKeys bytes, at
// least one, for keys; none for take and give. The status is 413 or 400
// when the body breaks those rules, else 0.
func viewReadBody(w http.ResponseWriter, r *http.Request, action string) ([]byte, int) {
	limit := int64(maxViewKeys)
	if action != "keys" {
		limit = 0
	}
	if r.ContentLength > limit {
		return nil, http.StatusRequestEntityTooLarge
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, http.StatusRequestEntityTooLarge
	case err != nil, action == "keys" && len(body) == 0:
		return nil, http.StatusBadRequest
	}
	return body, 0
}

// act runs one action on v's hooks, in order with its others.
func (v *viewViewer) act(action string, body []byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.left {
		return errors.New("this tab's viewer has left: reload the page")
	}
	switch action {
	case "take":
		if err := v.hooks.Take(); err != nil {
			return fmt.Errorf("the keyboard could not be taken: %v", err)
		}
		v.holds = true
	case "give":
		v.hooks.Give()
		v.holds = false
	case "keys":
		if !v.holds {
			return errors.New("this tab does not hold the keyboard: take it first")
		}
		if err := v.hooks.Keys(body); err != nil {
			return fmt.Errorf("the keys were not typed: %v", err)
		}
	}
	return nil
}

// viewLatest is what one event stream has yet to send: the newest frame
// and the newest status, each replacing the one before, so a slow
// browser skips frames and the door holds at most one of each.
type viewLatest struct {
	ready chan struct{} // holds a token while something waits to be sent

	mu     sync.Mutex
	frame  []byte
	status []byte
	over   bool // the frames closed: the session ended
}

// put stores p as the newest frame or status and wakes the writer.
func (l *viewLatest) put(status bool, p []byte) {
	l.mu.Lock()
	if status {
		l.status = p
	} else {
		l.frame = p
	}
	l.mu.Unlock()
	l.wake()
}

// end marks the frames as over and wakes the writer.
func (l *viewLatest) end() {
	l.mu.Lock()
	l.over = true
	l.mu.Unlock()
	l.wake()
}

// wake leaves a token in ready unless one is there already.
func (l *viewLatest) wake() {
	select {
	case l.ready <- struct{}{}:
	default:
	}
}

// take returns what waits to be sent, and clears it.
func (l *viewLatest) take() (frame, status []byte, over bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	frame, status, over = l.frame, l.status, l.over
	l.frame, l.status = nil, nil
	return frame, status, over
}

// viewPump reads the glue's channels into l until the frames close or
// ctx ends, so no producer ever waits on a browser. A closed status
// channel only stops the status.
func viewPump(ctx context.Context, frames, status <-chan []byte, l *viewLatest) {
	for {
		select {
		case <-ctx.Done():
			return
		case p, ok := <-frames:
			if !ok {
				l.end()
				return
			}
			l.put(false, p)
		case p, ok := <-status:
			if !ok {
				status = nil // a nil channel never receives: frames go on
				continue
			}
			l.put(true, p)
		}
	}
}

// serveEvents is the view's event stream, text/event-stream: first a
// "viewer" event with this tab's CSRF token, then "screen" and "status"
// events with the glue's JSON, a comment every viewHeartbeat, and an
// "end" event when the view or the session ends. The stream is the
// viewer: when it closes, the viewer leaves.
func (o *ViewOffer) serveEvents(w http.ResponseWriter, r *http.Request, host string) {
	if why := webCrossOrigin(r, host); why != "" {
		webReply(w, http.StatusForbidden, "Refused", why)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	v, status, why := o.join(ctx)
	if v == nil {
		cancel()
		webReply(w, status, "No viewer", why)
		return
	}
	defer func() { cancel(); o.leave(v) }() // the Join context ends before Leave
	latest := &viewLatest{ready: make(chan struct{}, 1)}
	go viewPump(ctx, o.page.Frames(ctx), v.hooks.Status, latest)

	rc := http.NewResponseController(w)
	// The server's read timeout would cancel a stream that outlives it;
	// a write deadline per event replaces its write timeout.
	_ = rc.SetReadDeadline(time.Time{}) // not supported by a test recorder: nothing to lift there
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	hello, _ := json.Marshal(map[string]string{"csrf": v.csrf})
	if viewSend(rc, w, "retry: 2000\n\n"+viewEvent("viewer", hello)) != nil {
		return
	}
	beat := time.NewTicker(viewHeartbeat)
	defer beat.Stop()
	for {
		var out string
		select {
		case <-ctx.Done():
			return
		case <-o.done:
			_ = viewSend(rc, w, viewEvent("end", []byte(`{"why":"`+o.why+`"}`)))
			return
		case <-beat.C:
			out = sseKeepAlive
		case <-latest.ready:
			frame, status, over := latest.take()
			out = viewEvent("status", status) + viewEvent("screen", frame)
			if over {
				_ = viewSend(rc, w, out+viewEvent("end", []byte(`{"why":"session"}`)))
				return
			}
		}
		if out != "" && viewSend(rc, w, out) != nil {
			return
		}
	}
}

// viewSend writes s and flushes it, within webIOTimeout.
func viewSend(rc *http.ResponseController, w io.Writer, s string) error {
	return sseSend(w, rc, webIOTimeout, []byte(s))
}

// viewEvent is one server-sent event named name whose data is p, a JSON
// value; "" when p is empty, over maxViewFrame or not JSON, so a bad
// frame is skipped rather than breaking the page.
func viewEvent(name string, p []byte) string {
	if len(p) == 0 || len(p) > maxViewFrame || !json.Valid(p) {
		return ""
	}
	return string(appendSSE(make([]byte, 0, len(p)+len(name)+16), 0, name, p))
}

// viewPageData is what the view's template shows, every text made
// visible by webVisible; Style, Keys and Script are the page's own
// constants.
type viewPageData struct {
	Nonce, Session, Title string
	Expires               string // "15:04:05 MST", or "" without a deadline
	Style                 template.CSS
	Keys, Script          template.JS
}

// viewTemplate is the view's page: a heading, the status line and its
// button, the screen the script draws, and a note on the keys.
var viewTemplate = template.Must(template.New("view").Funcs(htmlPageFuncs).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.Title}} · ttywright</title>
<style nonce="{{.Nonce}}">{{screenStyle}}{{.Style}}</style>
</head>
<body>
<header>
<h1 id="title">{{.Title}}</h1>
<p id="status" role="status">Session <code>{{.Session}}</code> · keyboard: <b id="kbd">connecting…</b> · <span id="viewers"></span>{{with .Expires}} · until {{.}}{{end}}</p>
<button id="take" type="button" disabled>Take the keyboard</button>
</header>
<p id="note" role="alert"></p>
<pre id="screen" tabindex="0" aria-label="The session's screen"></pre>
<textarea id="ime" aria-label="Keyboard input for the session" autocomplete="off" autocapitalize="off" spellcheck="false"></textarea>
<p class="help">Read-only until you take the keyboard. While you hold it, what you type goes to the program: letters, Enter, arrows, function keys, Ctrl and Alt combinations, what an input method makes, and pastes (Ctrl+Shift+V); Ctrl+Shift+letters and Cmd stay with the browser. Give it back when you are done, or close the tab.</p>
<script nonce="{{.Nonce}}">{{screenScript}}</script>
<script nonce="{{.Nonce}}">{{.Keys}}</script>
<script nonce="{{.Nonce}}">{{.Script}}</script>
</body>
</html>
`))

// viewStyle is the page's style sheet, after the painter's
// (htmlScreenCSS). The screen's colours come from each frame; the
// painter sets them through the CSS object model, which the policy
// allows without 'unsafe-inline'.
const viewStyle = `
body{margin:0;font:15px/1.4 system-ui,sans-serif;background:#1b1d21;color:#d7dae0}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1rem;padding:.5rem 1rem;background:#2a2d33;border-bottom:1px solid #40444c}
h1{font-size:1rem;margin:0;font-weight:600;overflow-wrap:anywhere}
#status{margin:0;flex:1}
code{font:14px ui-monospace,monospace}
button{font-size:.95rem;padding:.3rem .9rem;cursor:pointer}
#note{margin:.5rem 1rem 0;color:#e5c07b;min-height:1.2em}
#screen{margin:.5rem 1rem;padding:4px;font-size:15px;border:2px solid transparent;outline:none}
body.holding #screen{border-color:#e5a00d}
#ime{position:fixed;left:1rem;top:4rem;width:1px;height:1px;opacity:0;border:0;padding:0;resize:none;overflow:hidden}
.help{margin:0 1rem 1rem;color:#9da5b4;font-size:.9rem;max-width:60rem}
`

// viewScript is the page's script, after the painter's (htmlPainter) and
// the keys' (webKeysScript). It paints each screen frame, shows the
// status, and while this tab holds the keyboard posts the bytes the keys
// make (cursor keys in normal mode unless a frame says
// "modes":{"app_cursor":true}; a paste is bracketed only when a frame
// says "bracketed_paste":true) in order, one request at a time.
const viewScript = `"use strict";
(function () {
  var base = location.pathname;
  var screen = document.getElementById("screen");
  var ime = document.getElementById("ime");
  var button = document.getElementById("take");
  var kbd = document.getElementById("kbd");
  var viewersEl = document.getElementById("viewers");
  var note = document.getElementById("note");
  var csrf = "", holding = false, keyboard = "agent", ended = false;
  var appCursor = false, bracketed = false;
  var queue = [], sending = false, enc = new TextEncoder();

  function say(msg) { note.textContent = msg; }

  function post(action, body) {
    var init = {method: "POST", headers: {"X-Ttywright-CSRF": csrf}, credentials: "same-origin", cache: "no-store"};
    if (body) { init.headers["Content-Type"] = "application/octet-stream"; init.body = body; }
    return fetch(base + "/" + action, init);
  }

  // render paints a frame with the one painter (ttyScreen, html.go) and
  // follows its modes and title.
  function render(f) {
    ttyScreen.paint(screen, f, f.styles, {caret: f.caret});
    if (f.modes) { appCursor = !!f.modes.app_cursor; bracketed = !!f.modes.bracketed_paste; }
    if (typeof f.title === "string" && f.title) document.title = f.title + " · ttywright";
  }

  function show() {
    kbd.textContent = holding ? "you" : keyboard === "person" ? "a person" : "the agent";
    button.textContent = holding ? "Give it back" : "Take the keyboard";
    button.disabled = ended || !csrf || (!holding && keyboard === "person");
    document.body.classList.toggle("holding", holding);
  }

  function status(s) {
    keyboard = s.keyboard === "person" ? "person" : "agent";
    holding = !!s.you;
    var n = s.viewers | 0;
    viewersEl.textContent = n + (n === 1 ? " viewer" : " viewers");
    if (typeof s.exit_code === "number") say("The program has exited" + (s.signal ? " (" + s.signal + ")" : " with code " + s.exit_code) + ".");
    show();
  }

  // pump posts the queued keys, one request at a time so they keep their
  // order, at most 64 KiB a request.
  function pump() {
    if (sending || !queue.length) return;
    var parts = [], total = 0;
    while (queue.length && total + queue[0].length <= 65536) { total += queue[0].length; parts.push(queue.shift()); }
    if (!parts.length) { parts.push(queue[0].subarray(0, 65536)); queue[0] = queue[0].subarray(65536); total = 65536; }
    var body = new Uint8Array(total), at = 0;
    parts.forEach(function (p) { body.set(p, at); at += p.length; });
    sending = true;
    post("keys", body).then(function (r) {
      if (r.ok) return;
      queue = [];
      if (r.status === 409) { holding = false; show(); }
      say("The keys were refused (" + r.status + "): take the keyboard again.");
    }, function () { queue = []; say("The keys were not sent: the connection was lost."); })
      .finally(function () { sending = false; pump(); });
  }

  function send(s) { queue.push(enc.encode(s)); pump(); }

  ttyKeys.listen({ime: ime, screen: screen, send: send,
    holding: function () { return holding; },
    modes: function () { return {appCursor: appCursor, bracketed: bracketed}; }});

  button.addEventListener("click", function () {
    var action = holding ? "give" : "take";
    post(action).then(function (r) {
      if (r.ok) { holding = action === "take"; say(""); show(); if (holding) ime.focus(); return; }
      say(action === "take" ? "The keyboard could not be taken (" + r.status + "): someone else holds it." : "Could not give it back (" + r.status + ").");
    }, function () { say("The request failed: the connection was lost."); });
  });

  var es = new EventSource(base + "/events");
  function data(e) { try { return JSON.parse(e.data); } catch (x) { return null; } }
  es.addEventListener("viewer", function (e) { var d = data(e); if (d) { csrf = String(d.csrf || ""); holding = false; say(""); show(); } });
  es.addEventListener("screen", function (e) { var f = data(e); if (f && f.op === "screen") render(f); });
  es.addEventListener("status", function (e) { var s = data(e); if (s) status(s); });
  es.addEventListener("end", function (e) {
    var d = data(e) || {};
    ended = true; holding = false; es.close(); show();
    kbd.textContent = "nobody";
    say(d.why === "session" ? "The session has ended." : "This view has ended: ask the agent for a new link.");
  });
  es.onerror = function () {
    if (ended) return;
    holding = false; csrf = ""; show();
    say(es.readyState === EventSource.CLOSED ? "Disconnected: reload the page." : "Reconnecting…");
  };
})();
`
