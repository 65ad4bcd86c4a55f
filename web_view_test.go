package main

// web_view_test.go: the live view over real loopback HTTP against a fake
// session: the page, the event stream, the keyboard, the refused
// requests, a viewer that never reads, the view's end, a fuzz of raw
// requests, and a demo server for the browser test in interop/.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// viewFake is the session's side of a view: the current frame, who holds
// the keyboard, the viewers, and a log of the calls the door made.
type viewFake struct {
	mu      sync.Mutex
	frame   []byte
	holder  int // the viewer holding the keyboard; 0 is the agent
	viewers int
	next    int
	keys    []byte
	log     []string
	changed chan struct{} // closed and replaced on every change
	over    chan struct{} // closed when the session ends
	refuse  error         // what Join returns
}

// newViewFake returns a fake showing frame.
func newViewFake(frame string) *viewFake {
	return &viewFake{frame: []byte(frame), changed: make(chan struct{}), over: make(chan struct{})}
}

// bumpLocked wakes every watcher.
func (f *viewFake) bumpLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// setFrame shows p from now on.
func (f *viewFake) setFrame(p string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frame = []byte(p)
	f.bumpLocked()
}

// end ends the session: every channel closes.
func (f *viewFake) end() { close(f.over) }

// note logs one call.
func (f *viewFake) noteLocked(format string, args ...any) {
	f.log = append(f.log, fmt.Sprintf(format, args...))
}

// calls returns the log so far.
func (f *viewFake) calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

// typed returns the keys that reached the program.
func (f *viewFake) typed() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return string(f.keys)
}

// watch returns a channel that sends what value returns now, then again
// after each change, until ctx or the session ends.
func (f *viewFake) watch(ctx context.Context, value func() []byte) <-chan []byte {
	ch := make(chan []byte)
	go func() {
		defer close(ch)
		for {
			f.mu.Lock()
			p, changed := value(), f.changed
			f.mu.Unlock()
			select {
			case ch <- p:
			case <-ctx.Done():
				return
			case <-f.over:
				return
			}
			select {
			case <-changed:
			case <-ctx.Done():
				return
			case <-f.over:
				return
			}
		}
	}()
	return ch
}

// page is a ViewPage of f.
func (f *viewFake) page() ViewPage {
	return ViewPage{
		Session: "shell-1",
		Title:   "bash -l",
		Frames:  func(ctx context.Context) <-chan []byte { return f.watch(ctx, func() []byte { return f.frame }) },
		Join:    f.join,
	}
}

// join adds a viewer, numbered from 1.
func (f *viewFake) join(ctx context.Context) (*ViewViewer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.refuse != nil {
		return nil, f.refuse
	}
	f.next++
	id := f.next
	f.viewers++
	f.noteLocked("join %d", id)
	f.bumpLocked()
	status := func() []byte {
		kb := "agent"
		if f.holder != 0 {
			kb = "person"
		}
		b, _ := json.Marshal(map[string]any{"keyboard": kb, "you": f.holder == id, "viewers": f.viewers})
		return b
	}
	return &ViewViewer{
		Status: f.watch(ctx, status),
		Take:   func() error { return f.take(id) },
		Give:   func() { f.give(id, "give") },
		Keys:   func(p []byte) error { return f.type_(id, p) },
		Leave: func() {
			f.mu.Lock()
			f.viewers--
			f.mu.Unlock()
			f.give(id, "leave")
		},
	}, nil
}

func (f *viewFake) take(id int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holder != 0 && f.holder != id {
		f.noteLocked("take %d refused", id)
		return errors.New("a person holds the keyboard")
	}
	f.holder = id
	f.noteLocked("take %d", id)
	f.bumpLocked()
	return nil
}

func (f *viewFake) give(id int, what string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holder == id {
		f.holder = 0
	}
	f.noteLocked("%s %d", what, id)
	f.bumpLocked()
}

func (f *viewFake) type_(id int, p []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.holder != id {
		f.noteLocked("keys %d refused", id)
		return errors.New("this viewer does not hold the keyboard")
	}
	f.keys = append(f.keys, p...)
	f.noteLocked("keys %d %q", id, p)
	return nil
}

// viewFrame is a small screen frame whose one line is text.
func viewFrame(text string) string {
	b, _ := json.Marshal(map[string]any{
		"op": "screen", "cols": 20, "rows": 2, "cursor": []int{0, len(text), 1}, "caret": "#528bff",
		"styles": []map[string]any{{"fg": "#abb2bf", "bg": "#282c34"}},
		"lines":  [][][]any{{{0, text}}, {}},
	})
	return string(b)
}

// viewOffer offers p on d.
func viewOffer(t testing.TB, d *webDoor, p ViewPage) *ViewOffer {
	t.Helper()
	o, err := d.OfferView(p)
	if err != nil {
		t.Fatalf("OfferView: %v", err)
	}
	return o
}

// viewEventMsg is one server-sent event; name "" with err set is the
// stream's end.
type viewEventMsg struct {
	name, data string
	err        error
}

// viewStream is one open event stream: one viewer.
type viewStream struct {
	resp   *http.Response
	events chan viewEventMsg
	csrf   string
	last   map[string]string // the data of the last event of each name read
}

// viewStreamClient keeps connections apart: each stream is its own.
var viewStreamClient = &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}

// openViewStream opens o's event stream as the page would and reads its
// viewer event.
func openViewStream(t testing.TB, o *ViewOffer) *viewStream {
	t.Helper()
	return openViewURL(t, o.URL)
}

// openViewURL opens the event stream of the view at url.
func openViewURL(t testing.TB, url string) *viewStream {
	t.Helper()
	req, err := http.NewRequest("GET", url+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := viewStreamClient.Do(req)
	if err != nil {
		t.Fatalf("GET events: %v", err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET events: status %d, %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	s := &viewStream{resp: resp, events: make(chan viewEventMsg, 1024), last: map[string]string{}}
	go s.read()
	ev := s.next(t, "viewer")
	var hello struct{ CSRF string }
	if err := json.Unmarshal([]byte(ev.data), &hello); err != nil || !webToken.MatchString(hello.CSRF) {
		t.Fatalf("viewer event %q: want {\"csrf\": a 128-bit token}", ev.data)
	}
	s.csrf = hello.CSRF
	return s
}

// read parses the stream into events, as a browser does.
func (s *viewStream) read() {
	defer close(s.events)
	sc := bufio.NewScanner(s.resp.Body)
	sc.Buffer(nil, maxViewFrame+64)
	var name string
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != nil {
				s.events <- viewEventMsg{name: name, data: strings.Join(data, "\n")}
			}
			name, data = "", nil
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: "))
		}
	}
	s.events <- viewEventMsg{err: cmpErr(sc.Err(), io.EOF)}
}

// cmpErr is err, or def when err is nil.
func cmpErr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// next returns the next event named name, skipping others; it fails when
// the stream ends first. The timeout only keeps a broken door from
// hanging the test.
func (s *viewStream) next(t testing.TB, name string) viewEventMsg {
	t.Helper()
	return s.until(t, name, func(string) bool { return true })
}

// until returns the last event named name read so far when its data
// satisfies ok, else the next such event: a status and a screen sent
// together may come in either order.
func (s *viewStream) until(t testing.TB, name string, ok func(data string) bool) viewEventMsg {
	t.Helper()
	if data, seen := s.last[name]; seen && ok(data) {
		delete(s.last, name) // next must not return it twice
		return viewEventMsg{name: name, data: data}
	}
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev, open := <-s.events:
			if !open || ev.err != nil {
				t.Fatalf("the stream ended (%v) before a %s event", ev.err, name)
			}
			if ev.name == name && ok(ev.data) {
				delete(s.last, name)
				return ev
			}
			s.last[ev.name] = ev.data
		case <-deadline:
			t.Fatalf("no %s event", name)
		}
	}
}

// ends waits for the stream to end and returns the events after the
// last one read, the end event among them.
func (s *viewStream) ends(t testing.TB) []string {
	t.Helper()
	var names []string
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev, open := <-s.events:
			if !open || ev.err != nil {
				return names
			}
			names = append(names, ev.name)
		case <-deadline:
			t.Fatal("the stream did not end")
		}
	}
}

// viewPost sends a POST to o's action as the page does, with csrf, and
// edit's changes.
func viewPost(t *testing.T, o *ViewOffer, action, csrf, body string, edit func(*http.Request)) webAnswer {
	t.Helper()
	return viewPostURL(t, o.URL, action, csrf, body, edit)
}

// viewPostURL is viewPost to the view at url.
func viewPostURL(t *testing.T, url, action, csrf, body string, edit func(*http.Request)) webAnswer {
	t.Helper()
	return webSend(t, "POST", url+"/"+action, body, func(r *http.Request) {
		r.Header.Set("Origin", "null") // what a browser sends under Referrer-Policy: no-referrer
		r.Header.Set("Sec-Fetch-Site", "same-origin")
		r.Header.Set(viewCSRFHeader, csrf)
		if action == "keys" {
			r.Header.Set("Content-Type", "application/octet-stream")
		}
		if edit != nil {
			edit(r)
		}
	})
}

// viewCheckHeaders fails unless r carries the door's security headers
// (the page its own policy) and no CORS header.
func viewCheckHeaders(t *testing.T, what string, r webAnswer) {
	t.Helper()
	for _, h := range webSecurityHeaders {
		got := r.header.Get(h[0])
		if h[0] == "Content-Security-Policy" && strings.HasPrefix(got, "default-src 'none'; script-src 'nonce-") {
			continue
		}
		if got != h[1] {
			t.Errorf("%s: %s is %q, want %q", what, h[0], got, h[1])
		}
	}
	for k := range r.header {
		if strings.HasPrefix(k, "Access-Control-") {
			t.Errorf("%s: has the CORS header %s", what, k)
		}
	}
}

// viewWaitCalls waits until f's log holds want.
func viewWaitCalls(t *testing.T, f *viewFake, want string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if webContains(f.calls(), want) {
			return
		}
	}
	t.Fatalf("no %q in the calls %q", want, f.calls())
}

var viewNonce = regexp.MustCompile(`script-src 'nonce-([A-Z2-7]{26,})'; style-src 'nonce-([A-Z2-7]{26,})'; connect-src 'self'`)

// TestWebViewPage reads the page: its texts escaped, two nonced scripts
// (the painter's and its own) and a style that the policy names, a
// fresh nonce per response, nothing loaded from elsewhere and no token
// in the page.
func TestWebViewPage(t *testing.T) {
	d := newWebTestDoor(t, "")
	f := newViewFake(viewFrame("$ "))
	p := f.page()
	p.Title = "vim <b>notes</b> \u202etxt"
	o := viewOffer(t, d, p)
	if !strings.HasPrefix(o.URL, "http://"+d.Addr()+"/view/") || !webToken.MatchString(strings.TrimPrefix(o.URL, "http://"+d.Addr()+"/view/")) {
		t.Fatalf("URL %q, want http://%s/view/TOKEN with a 128-bit token", o.URL, d.Addr())
	}
	var nonces []string
	for range 2 {
		r := webSend(t, "GET", o.URL, "", nil)
		viewCheckHeaders(t, "GET", r)
		if r.status != http.StatusOK {
			t.Fatalf("GET: status %d\n%s", r.status, r.body)
		}
		m := viewNonce.FindStringSubmatch(r.header.Get("Content-Security-Policy"))
		if m == nil || m[1] != m[2] {
			t.Fatalf("policy %q: want one nonce for script and style, connections to 'self'", r.header.Get("Content-Security-Policy"))
		}
		nonces = append(nonces, m[1])
		for _, want := range []string{
			`<script nonce="` + m[1] + `">`, `<style nonce="` + m[1] + `">`, "<code>shell-1</code>",
			`vim &lt;b&gt;notes&lt;/b&gt; \u202etxt`, `id="screen"`, `>Take the keyboard</button>`,
		} {
			if !strings.Contains(r.body, want) {
				t.Errorf("the page lacks %q", want)
			}
		}
		token := strings.TrimPrefix(o.URL, "http://"+d.Addr()+"/view/")
		for _, bad := range []string{"http://", "https://", "src=", "<b>", token, "\u202e"} {
			if strings.Contains(r.body, bad) {
				t.Errorf("the page holds %q", bad)
			}
		}
		if n := strings.Count(r.body, `<script nonce="`+m[1]+`">`); n != 3 || strings.Count(r.body, "<script") != 3 {
			t.Errorf("the page has %d nonced scripts, want 3 (the painter's, the keys' and its own) and no other", n)
		}
	}
	if nonces[0] == nonces[1] {
		t.Error("two responses share a nonce")
	}
	if calls := f.calls(); len(calls) != 0 {
		t.Errorf("the page GET called the session: %q", calls)
	}
}

// TestWebViewStream checks the event stream: the tab's token, the first
// frame and status, a later frame, and a second tab counted in both.
func TestWebViewStream(t *testing.T) {
	d := newWebTestDoor(t, "")
	f := newViewFake(viewFrame("$ one"))
	o := viewOffer(t, d, f.page())
	a := openViewStream(t, o)
	if got := a.next(t, "screen").data; got != viewFrame("$ one") {
		t.Errorf("first frame %s, want %s", got, viewFrame("$ one"))
	}
	a.until(t, "status", func(s string) bool { return s == `{"keyboard":"agent","viewers":1,"you":false}` })
	f.setFrame(viewFrame("$ two"))
	a.until(t, "screen", func(s string) bool { return s == viewFrame("$ two") })

	b := openViewStream(t, o)
	if b.csrf == a.csrf {
		t.Error("two tabs got one token")
	}
	b.until(t, "screen", func(s string) bool { return s == viewFrame("$ two") })
	for _, s := range []*viewStream{a, b} {
		s.until(t, "status", func(s string) bool { return strings.Contains(s, `"viewers":2`) })
	}
}

// TestWebViewKeyboard takes, types and gives back from two tabs: keys
// reach the session only from the tab that holds the keyboard, and a
// tab that goes away gives it back.
func TestWebViewKeyboard(t *testing.T) {
	d := newWebTestDoor(t, "")
	f := newViewFake(viewFrame("$ "))
	o := viewOffer(t, d, f.page())
	tabs := []*viewStream{openViewStream(t, o), openViewStream(t, o)}
	for _, step := range []struct {
		tab    int
		action string
		body   string
		status int
		call   string // the call it leaves in the log, "" for none
	}{
		{0, "keys", "x", http.StatusConflict, ""},
		{0, "take", "", http.StatusNoContent, "take 1"},
		{1, "take", "", http.StatusConflict, "take 2 refused"},
		{1, "keys", "rm -rf ~\r", http.StatusConflict, ""},
		{0, "keys", "ls\r", http.StatusNoContent, `keys 1 "ls\r"`},
		{0, "keys", "\x1b[A", http.StatusNoContent, `keys 1 "\x1b[A"`},
		{0, "give", "", http.StatusNoContent, "give 1"},
		{0, "keys", "y", http.StatusConflict, ""},
		{1, "take", "", http.StatusNoContent, "take 2"},
		{1, "keys", "\x03", http.StatusNoContent, `keys 2 "\x03"`},
	} {
		before := len(f.calls())
		r := viewPost(t, o, step.action, tabs[step.tab].csrf, step.body, nil)
		viewCheckHeaders(t, step.action, r)
		if r.status != step.status {
			t.Errorf("tab %d %s %q: status %d, want %d\n%s", step.tab, step.action, step.body, r.status, step.status, r.body)
		}
		calls := f.calls()[before:]
		if (step.call == "") != (len(calls) == 0) || (step.call != "" && (len(calls) != 1 || calls[0] != step.call)) {
			t.Errorf("tab %d %s %q: calls %q, want %q", step.tab, step.action, step.body, calls, step.call)
		}
	}
	tabs[0].until(t, "status", func(s string) bool {
		return strings.Contains(s, `"keyboard":"person"`) && strings.Contains(s, `"you":false`)
	})
	tabs[1].until(t, "status", func(s string) bool { return strings.Contains(s, `"you":true`) })

	tabs[1].resp.Body.Close() // the holder's tab closes
	viewWaitCalls(t, f, "leave 2")
	tabs[0].until(t, "status", func(s string) bool { return s == `{"keyboard":"agent","viewers":1,"you":false}` })
	if r := viewPost(t, o, "keys", tabs[1].csrf, "z", nil); r.status != http.StatusForbidden {
		t.Errorf("keys with a closed tab's token: status %d, want 403", r.status)
	}
	if got := f.typed(); got != "ls\r\x1b[A\x03" {
		t.Errorf("the program got %q, want %q", got, "ls\r\x1b[A\x03")
	}
}

// viewRefusal is one request of TestWebViewRefused.
type viewRefusal struct {
	name   string
	method string                   // "" is POST
	path   func(u string) string    // the URL sent, from the view's
	csrf   func(good string) string // the header's value; nil is good
	body   string
	edit   func(*http.Request) // after the page's own headers
	status int
	allow  string // the Allow header of a 405
	call   string // the call it may make, "" for none
}

// viewRefusals are what an attacker or a broken client could send.
func viewRefusals() []viewRefusal {
	setHeader := func(k, v string) func(*http.Request) { return func(r *http.Request) { r.Header.Set(k, v) } }
	at := func(suffix string) func(string) string { return func(u string) string { return u + suffix } }
	other := func(suffix string) func(string) string {
		return func(u string) string { return u[:strings.LastIndex(u, "/")+1] + rand.Text() + suffix }
	}
	return []viewRefusal{
		{name: "wrong token, page", method: "GET", path: other(""), status: http.StatusNotFound},
		{name: "wrong token, events", method: "GET", path: other("/events"), status: http.StatusNotFound},
		{name: "wrong token, take", path: other("/take"), status: http.StatusNotFound},
		{name: "token cut short", method: "GET", path: func(u string) string { return u[:len(u)-1] }, status: http.StatusNotFound},
		{name: "trailing slash", method: "GET", path: at("/"), status: http.StatusNotFound},
		{name: "unknown action", path: at("/resize"), status: http.StatusNotFound},
		{name: "action with more", path: at("/take/x"), status: http.StatusNotFound},
		{name: "no token", method: "GET", path: func(u string) string { return u[:strings.LastIndex(u, "/")+1] }, status: http.StatusNotFound},
		{name: "Host evil.example, page", method: "GET", path: at(""), edit: func(r *http.Request) { r.Host = "evil.example" }, status: http.StatusMisdirectedRequest},
		{name: "Host localhost, events", method: "GET", path: at("/events"), edit: func(r *http.Request) { r.Host = strings.Replace(r.URL.Host, "127.0.0.1", "localhost", 1) }, status: http.StatusMisdirectedRequest},
		{name: "Host evil.example, take", path: at("/take"), edit: func(r *http.Request) { r.Host = "evil.example" }, status: http.StatusMisdirectedRequest},
		{name: "cross-origin take", path: at("/take"), edit: setHeader("Origin", "http://evil.example"), status: http.StatusForbidden},
		{name: "Origin of another port", path: at("/take"), edit: setHeader("Origin", "http://127.0.0.1:1"), status: http.StatusForbidden},
		{name: "cross-site keys", path: at("/keys"), body: "x", edit: setHeader("Sec-Fetch-Site", "cross-site"), status: http.StatusForbidden},
		{name: "same-site give", path: at("/give"), edit: setHeader("Sec-Fetch-Site", "same-site"), status: http.StatusForbidden},
		{name: "Origin null without fetch metadata", path: at("/take"), edit: func(r *http.Request) { r.Header.Del("Sec-Fetch-Site") }, status: http.StatusForbidden},
		{name: "cross-site events", method: "GET", path: at("/events"), edit: setHeader("Sec-Fetch-Site", "cross-site"), status: http.StatusForbidden},
		{name: "cross-origin events", method: "GET", path: at("/events"), edit: setHeader("Origin", "http://evil.example"), status: http.StatusForbidden},
		{name: "missing CSRF", path: at("/take"), edit: func(r *http.Request) { r.Header.Del(viewCSRFHeader) }, status: http.StatusForbidden},
		{name: "wrong CSRF", path: at("/take"), csrf: func(string) string { return rand.Text() }, status: http.StatusForbidden},
		{name: "CSRF cut short", path: at("/take"), csrf: func(g string) string { return g[:len(g)-1] }, status: http.StatusForbidden},
		{name: "CSRF twice", path: at("/take"), edit: func(r *http.Request) { r.Header.Add(viewCSRFHeader, r.Header.Get(viewCSRFHeader)) }, status: http.StatusForbidden},
		{name: "keys as text/plain", path: at("/keys"), body: "x", edit: setHeader("Content-Type", "text/plain"), status: http.StatusUnsupportedMediaType},
		{name: "keys as a form", path: at("/keys"), body: "x", edit: setHeader("Content-Type", "application/x-www-form-urlencoded"), status: http.StatusUnsupportedMediaType},
		{name: "no keys", path: at("/keys"), status: http.StatusBadRequest},
		{name: "keys over the limit", path: at("/keys"), body: strings.Repeat("a", maxViewKeys+1), status: http.StatusRequestEntityTooLarge},
		{name: "keys over the limit, chunked", path: at("/keys"), body: strings.Repeat("a", maxViewKeys+1),
			edit: func(r *http.Request) { r.ContentLength, r.Body = 0, io.NopCloser(io.MultiReader(r.Body)) }, status: http.StatusRequestEntityTooLarge},
		{name: "take with a body", path: at("/take"), body: "x", status: http.StatusRequestEntityTooLarge},
		{name: "GET take", method: "GET", path: at("/take"), status: http.StatusMethodNotAllowed, allow: "POST"},
		{name: "POST the page", path: at(""), status: http.StatusMethodNotAllowed, allow: "GET"},
		{name: "POST events", path: at("/events"), status: http.StatusMethodNotAllowed, allow: "GET"},
		{name: "PUT keys", method: "PUT", path: at("/keys"), body: "x", status: http.StatusMethodNotAllowed, allow: "GET, POST"},
		{name: "OPTIONS take (preflight)", method: "OPTIONS", path: at("/take"), edit: setHeader("Origin", "http://evil.example"), status: http.StatusMethodNotAllowed, allow: "GET, POST"},
		{name: "the page from a link elsewhere", method: "GET", path: at(""), edit: setHeader("Sec-Fetch-Site", "cross-site"), status: http.StatusOK},
		{name: "the page typed in", method: "GET", path: at(""), edit: setHeader("Sec-Fetch-Site", "none"), status: http.StatusOK},
		{name: "take from the page", path: at("/take"), status: http.StatusNoContent, call: "take 1"},
		{name: "take without browser headers (curl)", path: at("/take"), edit: func(r *http.Request) { r.Header.Del("Origin"); r.Header.Del("Sec-Fetch-Site") }, status: http.StatusNoContent, call: "take 1"},
	}
}

// TestWebViewRefused sends each of viewRefusals from an open tab's
// headers to a fresh view; none may reach the session but those its row
// allows, and every answer has the security headers.
func TestWebViewRefused(t *testing.T) {
	for _, tc := range viewRefusals() {
		t.Run(tc.name, func(t *testing.T) {
			d := newWebTestDoor(t, "")
			f := newViewFake(viewFrame("$ "))
			o := viewOffer(t, d, f.page())
			tab := openViewStream(t, o)
			csrf := tab.csrf
			if tc.csrf != nil {
				csrf = tc.csrf(csrf)
			}
			method := tc.method
			if method == "" {
				method = "POST"
			}
			r := webSend(t, method, tc.path(o.URL), tc.body, func(r *http.Request) {
				r.Header.Set("Origin", "null")
				r.Header.Set("Sec-Fetch-Site", "same-origin")
				r.Header.Set(viewCSRFHeader, csrf)
				r.Header.Set("Content-Type", "application/octet-stream")
				if method == "GET" {
					r.Header.Del("Origin") // a same-origin GET carries none
				}
				if tc.edit != nil {
					tc.edit(r)
				}
			})
			viewCheckHeaders(t, tc.name, r)
			if r.status != tc.status {
				t.Errorf("status %d, want %d\n%s", r.status, tc.status, r.body)
			}
			if tc.allow != "" && r.header.Get("Allow") != tc.allow {
				t.Errorf("Allow %q, want %q", r.header.Get("Allow"), tc.allow)
			}
			var calls []string
			for _, c := range f.calls() {
				if c != "join 1" {
					calls = append(calls, c)
				}
			}
			if want := tc.call; (want == "") != (len(calls) == 0) || (want != "" && calls[0] != want) {
				t.Errorf("calls %q, want %q", calls, want)
			}
		})
	}
}

// TestWebViewViewers checks the bound on tabs: the one past
// maxViewViewers is refused with 503, a closed one makes room, and a
// Join that fails refuses the tab.
func TestWebViewViewers(t *testing.T) {
	d := newWebTestDoor(t, "")
	f := newViewFake(viewFrame("$ "))
	o := viewOffer(t, d, f.page())
	var tabs []*viewStream
	for range maxViewViewers {
		tabs = append(tabs, openViewStream(t, o))
	}
	events := func() webAnswer {
		return webSend(t, "GET", o.URL+"/events", "", func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "same-origin") })
	}
	if r := events(); r.status != http.StatusServiceUnavailable {
		t.Fatalf("tab %d: status %d, want 503", maxViewViewers+1, r.status)
	}
	if r := webSend(t, "GET", o.URL, "", nil); r.status != http.StatusOK {
		t.Errorf("the page with every viewer taken: status %d, want 200 (only streams are bounded)", r.status)
	}
	tabs[0].resp.Body.Close()
	viewWaitCalls(t, f, "leave 1")
	openViewStream(t, o)

	f.mu.Lock()
	f.refuse = errors.New("session shell-1 has exited")
	f.mu.Unlock()
	tabs[1].resp.Body.Close()
	viewWaitCalls(t, f, "leave 2")
	if r := events(); r.status != http.StatusServiceUnavailable || !strings.Contains(r.body, "session shell-1 has exited") {
		t.Errorf("a refused Join: status %d, want 503 with its reason\n%s", r.status, r.body)
	}
}

// TestWebViewSlowViewer floods frames at a tab that reads nothing: the
// producer never waits for it, and once it reads it gets far fewer
// frames than were sent (the socket's buffers' worth), the last one
// among them.
func TestWebViewSlowViewer(t *testing.T) {
	d := newWebTestDoor(t, "")
	f := newViewFake("")
	type stream struct {
		ch  chan []byte
		ctx context.Context
	}
	frames := make(chan stream, 1)
	p := f.page()
	p.Frames = func(ctx context.Context) <-chan []byte {
		ch := make(chan []byte)
		frames <- stream{ch, ctx}
		return ch
	}
	o := viewOffer(t, d, p)

	conn, err := net.Dial("tcp", d.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.(*net.TCPConn).SetReadBuffer(64 << 10); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "GET %s/events HTTP/1.1\r\nHost: %s\r\nSec-Fetch-Site: same-origin\r\n\r\n", strings.TrimPrefix(o.URL, "http://"+d.Addr()), d.Addr())
	s := <-frames
	const n, size = 2000, 64 << 10
	pad := strings.Repeat("x", size)
	for i := range n {
		select {
		case s.ch <- []byte(`{"op":"screen","n":` + strconv.Itoa(i) + `,"pad":"` + pad + `"}`):
		case <-s.ctx.Done():
			// A browser that reads nothing for webIOTimeout is cut off:
			// the other bound, reached when feeding is slow (-race).
			t.Logf("the stream was cut after %d frames", i)
			return
		case <-time.After(30 * time.Second):
			t.Fatalf("frame %d: the door stopped reading the producer's channel", i)
		}
	}
	close(s.ch) // the session ends: the stream sends what it holds, then ends

	br := bufio.NewReaderSize(conn, 1<<20)
	got, last := 0, -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			break
		}
		if rest, ok := strings.CutPrefix(line, `data: {"op":"screen","n":`); ok {
			got++
			fmt.Sscanf(rest, "%d", &last)
		}
		if strings.HasPrefix(line, "event: end") {
			break
		}
	}
	t.Logf("%d of %d frames of %d KiB reached the tab that read late", got, n, size>>10)
	if got == 0 || got > n/4 || last != n-1 {
		t.Errorf("the tab got %d of %d frames, the last %d: want a bounded few, ending with %d", got, n, last, n-1)
	}
}

// TestWebViewEnds ends a view each way it can end: every stream gets an
// end event (or its connection closes) and its viewer leaves; a
// cancelled or expired view answers 404 and lets the listener close.
func TestWebViewEnds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		life    time.Duration // 0: no deadline
		end     func(d *webDoor, o *ViewOffer, f *viewFake)
		event   bool // the stream sends "end" before it closes
		gone    bool // the view is over: 404 and no listener
		session bool // only the session ended: the page still answers
	}{
		{"cancel", 0, func(_ *webDoor, o *ViewOffer, _ *viewFake) { o.Cancel() }, true, true, false},
		{"cancel twice", 0, func(_ *webDoor, o *ViewOffer, _ *viewFake) { o.Cancel(); o.Cancel() }, true, true, false},
		{"expires", time.Second, func(_ *webDoor, o *ViewOffer, _ *viewFake) { <-o.Done() }, true, true, false},
		{"session ends", 0, func(_ *webDoor, _ *ViewOffer, f *viewFake) { f.end() }, true, false, true},
		{"door closes", 0, func(d *webDoor, _ *ViewOffer, _ *viewFake) { d.Close() }, false, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newWebTestDoor(t, "")
			f := newViewFake(viewFrame("$ "))
			p := f.page()
			if tc.life != 0 {
				p.Expires = time.Now().Add(tc.life)
			}
			o := viewOffer(t, d, p)
			addr := d.Addr()
			tabs := []*viewStream{openViewStream(t, o), openViewStream(t, o)}
			tabs[0].next(t, "screen")
			tc.end(d, o, f)
			for i, s := range tabs {
				names := s.ends(t)
				if tc.event != webContains(names, "end") {
					t.Errorf("tab %d: events %q at the end, want an end event: %v", i, names, tc.event)
				}
			}
			viewWaitCalls(t, f, "leave 1")
			viewWaitCalls(t, f, "leave 2")
			if tc.session {
				if r := webSend(t, "GET", o.URL, "", nil); r.status != http.StatusOK {
					t.Errorf("the page after the session ended: status %d, want 200 until Cancel", r.status)
				}
				return
			}
			select {
			case <-o.Done():
			default:
				t.Error("Done is open")
			}
			if d.Addr() != "" || webDialable(addr) {
				t.Errorf("still listening at %s with no view and no secret page", addr)
			}
			if _, err := d.OfferView(p); tc.name == "door closes" && err == nil {
				t.Error("OfferView after Close: no error")
			}
		})
	}
}

// TestWebViewListener checks that a view and a secret page share the
// listener, which stays open while either lives, and that a cancelled
// view's URL answers 404 while the listener is open.
func TestWebViewListener(t *testing.T) {
	d := newWebTestDoor(t, "")
	f := newViewFake(viewFrame("$ "))
	v := viewOffer(t, d, f.page())
	addr := d.Addr()
	s := webOffer(t, d, webTestPage(&webSink{}))
	if d.Addr() != addr || !strings.HasPrefix(s.URL, "http://"+addr+"/secret/") {
		t.Fatalf("the secret page at %s, the view at %s: want one listener", s.URL, v.URL)
	}
	s.Cancel()
	if !webDialable(addr) {
		t.Fatal("the listener closed with a view open")
	}
	if r := webSend(t, "GET", v.URL, "", nil); r.status != http.StatusOK {
		t.Errorf("the view after the secret page ended: status %d", r.status)
	}
	s = webOffer(t, d, webTestPage(&webSink{}))
	v.Cancel()
	if r := webSend(t, "GET", v.URL, "", nil); r.status != http.StatusNotFound {
		t.Errorf("a cancelled view: status %d, want 404", r.status)
	}
	s.Cancel()
	if d.Addr() != "" || webDialable(addr) {
		t.Error("still listening after the last page and view ended")
	}
}

// TestWebViewBadPage checks the views OfferView refuses, and the cap on
// views at once.
func TestWebViewBadPage(t *testing.T) {
	d := newWebTestDoor(t, "")
	f := newViewFake(viewFrame("$ "))
	for _, tc := range []struct {
		name string
		edit func(*ViewPage)
	}{
		{"no Frames", func(p *ViewPage) { p.Frames = nil }},
		{"no Join", func(p *ViewPage) { p.Join = nil }},
		{"expired already", func(p *ViewPage) { p.Expires = time.Now().Add(-time.Second) }},
	} {
		p := f.page()
		tc.edit(&p)
		if _, err := d.OfferView(p); err == nil {
			t.Errorf("%s: OfferView gave no error", tc.name)
		}
	}
	if d.Addr() != "" {
		t.Errorf("listening on %s after refused views", d.Addr())
	}
	var views []*ViewOffer
	for range maxViewOffers {
		views = append(views, viewOffer(t, d, f.page()))
	}
	if _, err := d.OfferView(f.page()); err == nil {
		t.Errorf("view %d: no error, want a refusal past %d", maxViewOffers+1, maxViewOffers)
	}
	views[0].Cancel()
	viewOffer(t, d, f.page())
}

// TestWebViewEvent checks how JSON becomes one server-sent event: a line
// break cannot end it early, and what is not JSON, or too big, is
// dropped.
func TestWebViewEvent(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"op":"screen"}`, "event: screen\ndata: {\"op\":\"screen\"}\n\n"},
		{"{\n\"a\":1}", "event: screen\ndata: {\ndata: \"a\":1}\n\n"},
		{"{\r\n\"a\":1\r}", "event: screen\ndata: {\ndata: \"a\":1\ndata: }\n\n"},
		{"{}\n\nevent: status\ndata: {}", ""},
		{"{}\n", "event: screen\ndata: {}\n\n"},
		{"", ""},
		{"not json", ""},
		{`{"t":"` + strings.Repeat("a", maxViewFrame) + `"}`, ""},
	} {
		if got := viewEvent("screen", []byte(tc.in)); got != tc.want {
			t.Errorf("viewEvent(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestWebViewRoute checks which paths reach a view: its page, its event
// stream and its three actions, each by its method; every other shape is
// 404, with no redirect to a clean form of the path.
func TestWebViewRoute(t *testing.T) {
	t.Parallel()
	d := newWebTestDoor(t, "")
	o := viewOffer(t, d, newViewFake(viewFrame("$ ")).page())
	origin := "http://" + d.Addr()
	tok := strings.TrimPrefix(o.URL, origin+"/view/")
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/view/" + tok, http.StatusOK},
		{"POST", "/view/" + tok + "/take", http.StatusForbidden}, // routed: refused for its missing CSRF token
		{"POST", "/view/" + tok + "/give", http.StatusForbidden},
		{"POST", "/view/" + tok + "/keys", http.StatusForbidden},
		{"POST", "/view/" + tok + "/events", http.StatusMethodNotAllowed},
		{"GET", "/view/" + tok + "/keys", http.StatusMethodNotAllowed},
		{"POST", "/view/" + tok, http.StatusMethodNotAllowed},
		{"GET", "/view/" + tok + "/", http.StatusNotFound},
		{"POST", "/view/" + tok + "/keys/", http.StatusNotFound},
		{"POST", "/view/" + tok + "/Keys", http.StatusNotFound},
		{"POST", "/view/" + tok + "/resize", http.StatusNotFound},
		{"GET", "/view/" + tok[:len(tok)-1], http.StatusNotFound},
		{"GET", "/view/" + tok + "x", http.StatusNotFound},
		{"GET", "/view/", http.StatusNotFound},
		{"GET", "/view", http.StatusNotFound},
		{"GET", "/secret/" + tok, http.StatusNotFound},
		{"GET", "/view//" + tok, http.StatusNotFound},
		{"POST", "/view/" + tok + "/./take", http.StatusNotFound},
		{"POST", "/view/x/../" + tok + "/take", http.StatusNotFound},
		{"POST", "/view/" + tok + "%2Ftake", http.StatusNotFound},
	} {
		r := webSend(t, tc.method, origin+tc.path, "", nil)
		viewCheckHeaders(t, tc.method+" "+tc.path, r)
		if r.status != tc.status {
			t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, r.status, tc.status)
		}
	}
}

// viewFuzzCSRF names the fuzzed view's open tab's token.
var viewFuzzCSRF = webPlaceholder("@VCSRF")

// viewFlushEnds is a recorder whose first flush ends the request, so an
// event stream answers its first event and returns.
type viewFlushEnds struct {
	*httptest.ResponseRecorder
	cancel context.CancelFunc
}

func (w viewFlushEnds) Flush() {
	w.ResponseRecorder.Flush()
	w.cancel()
}

// FuzzWebViewRequest feeds raw HTTP requests to the door's handler, with
// the placeholders replaced by a live view's token, an open tab's CSRF
// token (the tab holds the keyboard) and the host: it never panics,
// every answer has the security headers and no CORS header, and the
// session's Take, Give and Keys run only for a POST to that view's own
// action with the right Host and token, Keys with exactly the body.
func FuzzWebViewRequest(f *testing.F) {
	page := "/view/" + webFuzzToken
	self := []string{"Host: " + webFuzzHost, "Origin: null", "Sec-Fetch-Site: same-origin", viewCSRFHeader + ": " + viewFuzzCSRF}
	keys := append(self, "Content-Type: application/octet-stream")
	for _, seed := range [][]byte{
		webRawRequest("GET", page, []string{"Host: " + webFuzzHost}, ""),
		webRawRequest("GET", page+"/events", []string{"Host: " + webFuzzHost, "Sec-Fetch-Site: same-origin"}, ""),
		webRawRequest("GET", page+"/events", []string{"Host: " + webFuzzHost, "Sec-Fetch-Site: cross-site"}, ""),
		webRawRequest("POST", page+"/keys", keys, "ls\r"),
		webRawRequest("POST", page+"/keys", append(keys, "Origin: http://evil.example"), "ls\r"),
		webRawRequest("POST", page+"/keys", []string{"Host: evil.example", "Content-Type: application/octet-stream", viewCSRFHeader + ": " + viewFuzzCSRF}, "ls\r"),
		webRawRequest("POST", page+"/keys", append(self, "Content-Type: text/plain"), "ls\r"),
		webRawRequest("POST", page+"/keys", []string{"Host: " + webFuzzHost, "Content-Type: application/octet-stream", viewCSRFHeader + ": wrong"}, "x"),
		webRawRequest("POST", page+"/take", self, ""),
		webRawRequest("POST", page+"/give", self, ""),
		webRawRequest("POST", page+"/give", self, "body"),
		webRawRequest("POST", page+"/keys/x", keys, "x"),
		webRawRequest("GET", page+"/keys", self, ""),
		webRawRequest("POST", "/view/"+webFuzzToken[:len(webFuzzToken)-1]+"/take", self, ""),
		webRawRequest("POST", "/view/%2e%2e/secret/"+webFuzzToken, self, ""),
		[]byte("POST " + page + "/keys HTTP/1.1\r\nHost: " + webFuzzHost + "\r\n" + viewCSRFHeader + ": " + viewFuzzCSRF +
			"\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nls\r\n1\r\n\r\r\n0\r\n\r\n"),
	} {
		f.Add(seed)
	}
	d := newWebTestDoor(f, "")
	keep := newViewFake(viewFrame("$ "))
	viewOffer(f, d, keep.page()) // keeps the listener, and so the host, for the whole run
	f.Fuzz(func(t *testing.T, raw []byte) {
		fake := newViewFake(viewFrame("$ "))
		o := viewOffer(t, d, fake.page())
		defer o.Cancel()
		tab, status, why := o.join(context.Background())
		if tab == nil {
			t.Fatalf("join: %d %s", status, why)
		}
		defer o.leave(tab)
		if err := tab.act("take", nil); err != nil {
			t.Fatal(err)
		}
		host := d.Addr()
		token := strings.TrimPrefix(o.URL, "http://"+host+"/view/")
		raw = bytes.ReplaceAll(raw, []byte(webFuzzToken), []byte(token))
		raw = bytes.ReplaceAll(raw, []byte(viewFuzzCSRF), []byte(tab.csrf))
		raw = bytes.ReplaceAll(raw, []byte(webFuzzHost), []byte(host))
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
		if err != nil {
			return
		}
		body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		req.Body = io.NopCloser(bytes.NewReader(body))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req = req.WithContext(ctx)
		before := len(fake.calls())
		rec := httptest.NewRecorder()
		d.ServeHTTP(viewFlushEnds{rec, cancel}, req)

		viewCheckHeaders(t, fmt.Sprintf("status %d", rec.Code), webAnswer{status: rec.Code, header: rec.Header()})
		own := req.Host == host && req.Method == http.MethodPost && webContains(req.Header.Values(viewCSRFHeader), tab.csrf)
		for _, c := range fake.calls()[before:] {
			action, _, _ := strings.Cut(c, " ")
			switch {
			case action == "join" || action == "leave":
			case !own || req.URL.Path != "/view/"+token+"/"+action:
				t.Fatalf("%s for a request not the tab's own:\n%q", c, raw)
			case action == "keys" && c != fmt.Sprintf("keys 1 %q", body):
				t.Fatalf("%s for the body %q", c, body)
			}
		}
		if rec.Code == http.StatusNoContent && (!own || !strings.HasPrefix(req.URL.Path, "/view/"+token+"/")) {
			t.Fatalf("204 for a request not the tab's own:\n%q", raw)
		}
	})
}
