package main

// web_test.go: the secret door over real loopback HTTP: the page, the
// one delivery, the refused requests, the listener's life, and a fuzz of
// raw requests against the handler.

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// webSecret is what the tests type: it has bytes that need escaping in
// a form and in HTML, so a decoding slip shows.
const webSecret = "hunter2 &=+%<Ω>é"

// webSink records what a page's Deliver was given.
type webSink struct {
	mu  sync.Mutex
	got [][]byte
	err error // what deliver returns
}

func (s *webSink) deliver(secret []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, bytes.Clone(secret))
	return s.err
}

// calls returns the secrets delivered so far.
func (s *webSink) calls() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.got...)
}

// webTestPage is a page for sink that expires in an hour.
func webTestPage(sink *webSink) SecretPage {
	return SecretPage{
		Session: "shell-3",
		Command: "sudo -k ls /root",
		Prompt:  "[sudo] password for ann: ",
		Expires: time.Now().Add(time.Hour),
		Deliver: sink.deliver,
	}
}

// newWebTestDoor returns a door on an ephemeral port, closed at the end,
// whose listener closes as soon as no offer lives (no linger).
func newWebTestDoor(t testing.TB, addr string) *webDoor {
	t.Helper()
	d := newWebDoor(addr)
	d.linger = 0
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// webOffer offers p on d.
func webOffer(t testing.TB, d *webDoor, p SecretPage) *SecretOffer {
	t.Helper()
	o, err := d.OfferSecret(p)
	if err != nil {
		t.Fatalf("OfferSecret: %v", err)
	}
	return o
}

// webTestClient talks to the door directly: no proxy, no pooled connection
// (the door closes its listener between offers), no redirects.
var webTestClient = &http.Client{
	Transport:     &http.Transport{Proxy: nil, DisableKeepAlives: true},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// webAnswer is one answer of the door.
type webAnswer struct {
	status int
	header http.Header
	body   string
}

// webSend sends a request; edit, when set, changes it before it goes.
func webSend(t *testing.T, method, u, body string, edit func(*http.Request)) webAnswer {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(req)
	}
	resp, err := webTestClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return webAnswer{resp.StatusCode, resp.Header, string(b)}
}

// webBrowserPost edits a request into what a browser sends from the page:
// a url-encoded form with the page's Origin and Sec-Fetch-Site.
func webBrowserPost(origin string) func(*http.Request) {
	return func(r *http.Request) {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Origin", origin)
		r.Header.Set("Sec-Fetch-Site", "same-origin")
	}
}

// webForm is the url-encoded form of csrf and secret.
func webForm(csrf, secret string) string {
	return url.Values{"csrf": {csrf}, "secret": {secret}}.Encode()
}

// webToken matches a token of crypto/rand.Text: 26 base32 characters
// or more (a later Go may make them longer).
var webToken = regexp.MustCompile(`^[A-Z2-7]{26,}$`)

var webCSRFField = regexp.MustCompile(`<input type="hidden" name="csrf" value="([^"]*)">`)

// webPageCSRF returns the CSRF token of a form page.
func webPageCSRF(t *testing.T, body string) string {
	t.Helper()
	m := webCSRFField.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF field in the page:\n%s", body)
	}
	return m[1]
}

// webCheckAnswer fails unless r carries every security header and no
// CORS header, and its body and headers hold no trace of webSecret.
func webCheckAnswer(t *testing.T, what string, r webAnswer) {
	t.Helper()
	for _, h := range webSecurityHeaders {
		if got := r.header.Get(h[0]); got != h[1] {
			t.Errorf("%s: %s is %q, want %q", what, h[0], got, h[1])
		}
	}
	for k := range r.header {
		if strings.HasPrefix(k, "Access-Control-") {
			t.Errorf("%s: has the CORS header %s", what, k)
		}
	}
	all := fmt.Sprint(r.header) + r.body
	for _, s := range []string{webSecret, url.QueryEscape(webSecret), "hunter2"} {
		if strings.Contains(all, s) {
			t.Errorf("%s: the response holds the secret (%q)", what, s)
		}
	}
}

// webWaitDone waits for o to end; the timeout only keeps a broken door
// from hanging the test.
func webWaitDone(t *testing.T, o *SecretOffer) {
	t.Helper()
	select {
	case <-o.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("Done was not closed")
	}
}

// webEnded reports whether o ended, without waiting.
func webEnded(o *SecretOffer) bool {
	select {
	case <-o.Done():
		return true
	default:
		return false
	}
}

// TestWebSecretHappyPath opens a page, reads it, submits it, and checks
// the secret arrived once, exactly, and nowhere else.
func TestWebSecretHappyPath(t *testing.T) {
	d := newWebTestDoor(t, "")
	sink := &webSink{}
	o := webOffer(t, d, webTestPage(sink))
	origin := "http://" + d.Addr()
	if !strings.HasPrefix(o.URL, origin+"/secret/") || !strings.HasPrefix(origin, "http://127.0.0.1:") {
		t.Fatalf("URL %q, want http://127.0.0.1:PORT/secret/TOKEN at %s", o.URL, d.Addr())
	}
	if tok := strings.TrimPrefix(o.URL, origin+"/secret/"); !webToken.MatchString(tok) {
		t.Errorf("token %q, want one of crypto/rand.Text (128 bits in base32)", tok)
	}

	page := webSend(t, "GET", o.URL, "", nil)
	webCheckAnswer(t, "GET", page)
	if page.status != http.StatusOK {
		t.Fatalf("GET: status %d, want 200\n%s", page.status, page.body)
	}
	for _, want := range []string{
		"<code>shell-3</code>", "<code>sudo -k ls /root</code>",
		"The program's prompt, in its own words", "<pre>[sudo] password for ann: </pre>",
		`type="password"`, `autocomplete="new-password"`, `<form method="post" autocomplete="off">`,
	} {
		if !strings.Contains(page.body, want) {
			t.Errorf("GET: the page lacks %q:\n%s", want, page.body)
		}
	}
	for _, bad := range []string{"<script", "http://", "https://", "src="} {
		if strings.Contains(page.body, bad) {
			t.Errorf("GET: the page holds %q (no script, no external resource)", bad)
		}
	}
	csrf := webPageCSRF(t, page.body)
	if csrf == "" || strings.Contains(o.URL, csrf) {
		t.Fatalf("CSRF %q: want a value of its own, not in the URL", csrf)
	}
	if webEnded(o) || len(sink.calls()) != 0 {
		t.Fatal("the GET ended the offer or delivered")
	}

	sent := webSend(t, "POST", o.URL, webForm(csrf, webSecret), webBrowserPost(origin))
	webCheckAnswer(t, "POST", sent)
	if sent.status != http.StatusOK || !strings.Contains(sent.body, "<h1>Sent</h1>") {
		t.Fatalf("POST: status %d, want 200 and a page saying it was sent:\n%s", sent.status, sent.body)
	}
	webWaitDone(t, o)
	if !o.Delivered() {
		t.Error("Delivered is false after the secret was sent")
	}
	if got := sink.calls(); len(got) != 1 || string(got[0]) != webSecret {
		t.Errorf("Deliver got %q, want [%q] once", got, webSecret)
	}
}

// webRefusal is one request of TestWebSecretRefused, and what the door
// must do with it.
type webRefusal struct {
	name    string
	expires time.Duration // the offer's life; 0 is an hour
	before  func(t *testing.T, o *SecretOffer, resubmit func() webAnswer)
	method  string                              // "" is POST
	path    func(u, otherURL string) string     // the URL sent; nil is the offer's
	body    func(csrf, otherCSRF string) string // nil is good
	edit    func(*http.Request)                 // after webBrowserPost
	status  int
	sent    int  // Deliver calls wanted
	ended   bool // the offer ended (otherwise it must be pending still)
}

// webRefusals are the requests an attacker or a broken client could
// send.
func webRefusals() []webRefusal {
	setHeader := func(k, v string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set(k, v) }
	}
	return []webRefusal{
		{name: "second submit", before: func(t *testing.T, _ *SecretOffer, resubmit func() webAnswer) {
			if r := resubmit(); r.status != http.StatusOK {
				t.Fatalf("the first submit: status %d, want 200", r.status)
			}
		}, status: http.StatusGone, sent: 1, ended: true},
		{name: "wrong token", path: func(u, _ string) string { return u[:strings.LastIndex(u, "/")+1] + rand.Text() }, status: http.StatusNotFound},
		{name: "token cut short", path: func(u, _ string) string { return u[:len(u)-1] }, status: http.StatusNotFound},
		{name: "no token", path: func(u, _ string) string { return u[:strings.LastIndex(u, "/")+1] }, status: http.StatusNotFound},
		{name: "another path", path: func(u, _ string) string { return strings.Replace(u, "/secret/", "/", 1) }, status: http.StatusNotFound},
		{name: "expired", expires: 20 * time.Millisecond, before: func(_ *testing.T, o *SecretOffer, _ func() webAnswer) { <-o.Done() }, status: http.StatusGone, ended: true},
		{name: "expired GET", expires: 20 * time.Millisecond, before: func(_ *testing.T, o *SecretOffer, _ func() webAnswer) { <-o.Done() }, method: "GET", status: http.StatusGone, ended: true},
		{name: "deadline passed, timer not yet fired", before: func(_ *testing.T, o *SecretOffer, _ func() webAnswer) {
			o.door.mu.Lock()
			o.page.Expires = time.Now().Add(-time.Second)
			o.door.mu.Unlock()
		}, status: http.StatusGone, ended: true},
		{name: "cancelled", before: func(_ *testing.T, o *SecretOffer, _ func() webAnswer) { o.Cancel() }, status: http.StatusGone, ended: true},
		{name: "cancelled GET", before: func(_ *testing.T, o *SecretOffer, _ func() webAnswer) { o.Cancel() }, method: "GET", status: http.StatusGone, ended: true},
		{name: "Host evil.example", edit: func(r *http.Request) { r.Host = "evil.example" }, status: http.StatusMisdirectedRequest},
		{name: "Host evil.example GET", method: "GET", edit: func(r *http.Request) { r.Host = "evil.example" }, status: http.StatusMisdirectedRequest},
		{name: "Host localhost:PORT", edit: func(r *http.Request) { r.Host = strings.Replace(r.URL.Host, "127.0.0.1", "localhost", 1) }, status: http.StatusMisdirectedRequest},
		{name: "Host without port", edit: func(r *http.Request) { r.Host = "127.0.0.1" }, status: http.StatusMisdirectedRequest},
		{name: "cross-origin POST", edit: setHeader("Origin", "http://evil.example"), status: http.StatusForbidden},
		{name: "Origin of another port", edit: setHeader("Origin", "http://127.0.0.1:1"), status: http.StatusForbidden},
		{name: "Origin https", edit: func(r *http.Request) { r.Header.Set("Origin", "https://"+r.URL.Host) }, status: http.StatusForbidden},
		{name: "Origin null, cross-site", edit: func(r *http.Request) { r.Header.Set("Origin", "null"); r.Header.Set("Sec-Fetch-Site", "cross-site") }, status: http.StatusForbidden},
		{name: "Origin null, no fetch metadata", edit: func(r *http.Request) { r.Header.Set("Origin", "null"); r.Header.Del("Sec-Fetch-Site") }, status: http.StatusForbidden},
		{name: "Origin null from the page itself (no-referrer)", edit: setHeader("Origin", "null"), status: http.StatusOK, sent: 1, ended: true},
		{name: "Sec-Fetch-Site cross-site", edit: setHeader("Sec-Fetch-Site", "cross-site"), status: http.StatusForbidden},
		{name: "Sec-Fetch-Site same-site", edit: setHeader("Sec-Fetch-Site", "same-site"), status: http.StatusForbidden},
		{name: "no Origin, no fetch metadata (curl)", edit: func(r *http.Request) { r.Header.Del("Origin"); r.Header.Del("Sec-Fetch-Site") }, status: http.StatusOK, sent: 1, ended: true},
		{name: "missing CSRF", body: func(string, string) string { return url.Values{"secret": {webSecret}}.Encode() }, status: http.StatusForbidden},
		{name: "wrong CSRF", body: func(string, string) string { return webForm(rand.Text(), webSecret) }, status: http.StatusForbidden},
		{name: "empty CSRF", body: func(string, string) string { return webForm("", webSecret) }, status: http.StatusForbidden},
		{name: "another offer's CSRF", body: func(_, other string) string { return webForm(other, webSecret) }, status: http.StatusForbidden},
		{name: "this CSRF on another offer's URL", path: func(_, other string) string { return other }, status: http.StatusForbidden},
		{name: "CSRF twice", body: func(csrf, _ string) string { return webForm(csrf, webSecret) + "&csrf=" + csrf }, status: http.StatusBadRequest},
		{name: "oversize body", body: func(csrf, _ string) string { return webForm(csrf, strings.Repeat("a", maxSecretBody)) }, status: http.StatusRequestEntityTooLarge},
		{name: "oversize body, chunked", body: func(csrf, _ string) string { return webForm(csrf, strings.Repeat("a", maxSecretBody)) },
			edit: func(r *http.Request) { r.ContentLength, r.Body = 0, io.NopCloser(io.MultiReader(r.Body)) }, status: http.StatusRequestEntityTooLarge},
		{name: "secret over the limit", body: func(csrf, _ string) string { return webForm(csrf, strings.Repeat("a", maxSecretLen+1)) }, status: http.StatusBadRequest},
		{name: "newline in the secret", body: func(csrf, _ string) string { return webForm(csrf, "pw\nrm -rf ~") }, status: http.StatusBadRequest},
		{name: "ESC in the secret", body: func(csrf, _ string) string { return webForm(csrf, "pw\x1b[A") }, status: http.StatusBadRequest},
		{name: "empty secret", body: func(csrf, _ string) string { return webForm(csrf, "") }, status: http.StatusBadRequest},
		{name: "no secret", body: func(csrf, _ string) string { return "csrf=" + csrf }, status: http.StatusBadRequest},
		{name: "broken escape", body: func(csrf, _ string) string { return "csrf=" + csrf + "&secret=%zz" }, status: http.StatusBadRequest},
		{name: "text/plain", edit: setHeader("Content-Type", "text/plain"), status: http.StatusUnsupportedMediaType},
		{name: "multipart", edit: setHeader("Content-Type", "multipart/form-data; boundary=x"), status: http.StatusUnsupportedMediaType},
		{name: "PUT", method: "PUT", status: http.StatusMethodNotAllowed},
		{name: "DELETE", method: "DELETE", status: http.StatusMethodNotAllowed},
		{name: "OPTIONS", method: "OPTIONS", status: http.StatusMethodNotAllowed},
		{name: "HEAD", method: "HEAD", status: http.StatusMethodNotAllowed},
	}
}

// TestWebSecretRefused sends each of webRefusals to a fresh door; none
// may deliver a secret its row does not allow, and every answer carries
// the security headers. A second offer keeps the listener open, so ended
// offers still answer.
func TestWebSecretRefused(t *testing.T) {
	for _, tc := range webRefusals() {
		t.Run(tc.name, func(t *testing.T) { tc.run(t) })
	}
}

// run sends tc's request and checks the answer and the offer after it.
func (tc webRefusal) run(t *testing.T) {
	d := newWebTestDoor(t, "")
	otherSink := &webSink{}
	other := webOffer(t, d, webTestPage(otherSink))
	sink := &webSink{}
	p := webTestPage(sink)
	if tc.expires != 0 {
		p.Expires = time.Now().Add(tc.expires)
	}
	o := webOffer(t, d, p)
	origin := "http://" + d.Addr()
	csrf, otherCSRF := o.csrf, other.csrf
	if tc.expires == 0 {
		csrf = webPageCSRF(t, webSend(t, "GET", o.URL, "", nil).body)
	}
	body := webForm(csrf, webSecret)
	if tc.body != nil {
		body = tc.body(csrf, otherCSRF)
	}
	if tc.before != nil {
		tc.before(t, o, func() webAnswer { return webSend(t, "POST", o.URL, webForm(csrf, webSecret), webBrowserPost(origin)) })
	}
	method, u := cmp.Or(tc.method, "POST"), o.URL
	if tc.path != nil {
		u = tc.path(o.URL, other.URL)
	}
	edit := func(r *http.Request) {
		webBrowserPost(origin)(r)
		if tc.edit != nil {
			tc.edit(r)
		}
	}
	r := webSend(t, method, u, body, edit)
	webCheckAnswer(t, tc.name, r)
	if r.status != tc.status {
		t.Errorf("status %d, want %d\n%s", r.status, tc.status, r.body)
	}
	if r.status == http.StatusMethodNotAllowed && r.header.Get("Allow") != "GET, POST" {
		t.Errorf("405 with Allow %q, want \"GET, POST\"", r.header.Get("Allow"))
	}
	got := sink.calls()
	if len(got) != tc.sent {
		t.Errorf("Deliver called %d times, want %d", len(got), tc.sent)
	}
	for _, s := range got {
		if string(s) != webSecret {
			t.Errorf("Deliver got %q, want %q", s, webSecret)
		}
	}
	if webEnded(o) != tc.ended {
		t.Errorf("offer ended: %v, want %v", webEnded(o), tc.ended)
	}
	if o.Delivered() != (tc.sent > 0) {
		t.Errorf("Delivered %v, want %v", o.Delivered(), tc.sent > 0)
	}
	if webEnded(other) || len(otherSink.calls()) != 0 {
		t.Error("the other offer ended or delivered")
	}
}

// TestWebSecretConcurrentSubmits sends one good form many times at once:
// exactly one delivers, the others get 410.
func TestWebSecretConcurrentSubmits(t *testing.T) {
	d := newWebTestDoor(t, "")
	webOffer(t, d, webTestPage(&webSink{})) // keeps the listener open
	sink := &webSink{}
	o := webOffer(t, d, webTestPage(sink))
	origin := "http://" + d.Addr()
	body := webForm(o.csrf, webSecret)
	const n = 8
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			req, err := http.NewRequest("POST", o.URL, strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			webBrowserPost(origin)(req)
			resp, err := webTestClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			statuses <- resp.StatusCode
		})
	}
	wg.Wait()
	close(statuses)
	count := map[int]int{}
	for s := range statuses {
		count[s]++
	}
	if count[http.StatusOK] != 1 || count[http.StatusGone] != n-1 {
		t.Errorf("statuses %v, want one 200 and %d 410", count, n-1)
	}
	if got := sink.calls(); len(got) != 1 {
		t.Errorf("Deliver called %d times, want once", len(got))
	}
}

// TestWebSecretDeliverFails checks a Deliver error: the page says the
// secret was not sent, the offer ends undelivered and does not try again.
func TestWebSecretDeliverFails(t *testing.T) {
	d := newWebTestDoor(t, "")
	webOffer(t, d, webTestPage(&webSink{}))
	sink := &webSink{err: errors.New("session shell-3 has exited")}
	o := webOffer(t, d, webTestPage(sink))
	origin := "http://" + d.Addr()
	r := webSend(t, "POST", o.URL, webForm(o.csrf, webSecret), webBrowserPost(origin))
	webCheckAnswer(t, "POST", r)
	if r.status != http.StatusInternalServerError || !strings.Contains(r.body, "session shell-3 has exited") {
		t.Errorf("status %d, want 500 naming the error:\n%s", r.status, r.body)
	}
	webWaitDone(t, o)
	if o.Delivered() {
		t.Error("Delivered is true after Deliver failed")
	}
	if r := webSend(t, "POST", o.URL, webForm(o.csrf, webSecret), webBrowserPost(origin)); r.status != http.StatusGone {
		t.Errorf("the second submit: status %d, want 410", r.status)
	}
	if got := sink.calls(); len(got) != 1 {
		t.Errorf("Deliver called %d times, want once", len(got))
	}
}

// TestWebSecretDeliverPanics checks that a Deliver that panics still
// ends its offer, undelivered, and that the door keeps serving.
func TestWebSecretDeliverPanics(t *testing.T) {
	d := newWebTestDoor(t, "")
	keep := webOffer(t, d, webTestPage(&webSink{}))
	p := webTestPage(&webSink{})
	p.Deliver = func([]byte) error { panic("deliver broke") }
	o := webOffer(t, d, p)
	req, err := http.NewRequest("POST", o.URL, strings.NewReader(webForm(o.csrf, webSecret)))
	if err != nil {
		t.Fatal(err)
	}
	webBrowserPost("http://" + d.Addr())(req)
	if resp, err := webTestClient.Do(req); err == nil {
		resp.Body.Close() // net/http cuts the connection of a handler that panicked
		t.Errorf("a Deliver that panicked answered %d", resp.StatusCode)
	}
	webWaitDone(t, o)
	if o.Delivered() {
		t.Error("Delivered is true after Deliver panicked")
	}
	if r := webSend(t, "GET", keep.URL, "", nil); r.status != http.StatusOK {
		t.Errorf("the other offer's page: status %d, want 200", r.status)
	}
}

// TestWebSecretLoopbackOnly offers a page on each address: loopback ones
// serve it at 127.0.0.1 (or [::1]), every other one is refused before
// anything listens.
func TestWebSecretLoopbackOnly(t *testing.T) {
	ipv6 := true
	if ln, err := net.Listen("tcp6", "[::1]:0"); err != nil {
		ipv6 = false
	} else {
		ln.Close()
	}
	for _, tc := range []struct {
		addr, host string // host: the URL's host without the port; "" when refused
	}{
		{"", "127.0.0.1"},
		{"127.0.0.1:0", "127.0.0.1"},
		{"localhost:0", "127.0.0.1"},
		{"LocalHost:0", "127.0.0.1"},
		{"[::1]:0", "[::1]"},
		{"0.0.0.0:0", ""},
		{":0", ""},
		{"[::]:0", ""},
		{"127.0.0.2:0", ""},
		{"[::ffff:127.0.0.1]:0", ""},
		{"192.0.2.1:0", ""},
		{"example.com:80", ""},
		{"localhost.example.com:0", ""},
		{"127.0.0.1", ""},
		{"localhost:http", ""},
		{"localhost:-1", ""},
		{"localhost:+80", ""},
		{"localhost:65536", ""},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			if tc.host == "[::1]" && !ipv6 {
				t.Skip("no IPv6 loopback here")
			}
			d := newWebTestDoor(t, tc.addr)
			o, err := d.OfferSecret(webTestPage(&webSink{}))
			if tc.host == "" {
				if err == nil {
					t.Fatalf("OfferSecret on %q: no error, want a refusal (URL %s)", tc.addr, o.URL)
				}
				if d.Addr() != "" {
					t.Errorf("refused, but listening on %s", d.Addr())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(o.URL, "http://"+tc.host+":") || !strings.HasPrefix(d.Addr(), tc.host+":") {
				t.Errorf("URL %s on %s, want host %s", o.URL, d.Addr(), tc.host)
			}
			if r := webSend(t, "GET", o.URL, "", nil); r.status != http.StatusOK {
				t.Errorf("GET: status %d, want 200", r.status)
			}
		})
	}
}

// TestWebSecretBadPage checks the pages OfferSecret refuses, and the cap
// on pending offers.
func TestWebSecretBadPage(t *testing.T) {
	d := newWebTestDoor(t, "")
	sink := &webSink{}
	for _, tc := range []struct {
		name string
		edit func(*SecretPage)
	}{
		{"no Deliver", func(p *SecretPage) { p.Deliver = nil }},
		{"expired already", func(p *SecretPage) { p.Expires = time.Now().Add(-time.Second) }},
		{"no deadline", func(p *SecretPage) { p.Expires = time.Time{} }},
	} {
		p := webTestPage(sink)
		tc.edit(&p)
		if _, err := d.OfferSecret(p); err == nil {
			t.Errorf("%s: OfferSecret gave no error", tc.name)
		}
	}
	if d.Addr() != "" {
		t.Errorf("listening on %s after refused offers", d.Addr())
	}
	var offers []*SecretOffer
	for range maxSecretOffers {
		offers = append(offers, webOffer(t, d, webTestPage(sink)))
	}
	if _, err := d.OfferSecret(webTestPage(sink)); err == nil {
		t.Errorf("offer %d: no error, want a refusal past %d pending", maxSecretOffers+1, maxSecretOffers)
	}
	offers[0].Cancel()
	webOffer(t, d, webTestPage(sink)) // a cancelled one makes room
}

// webDialable reports whether something accepts TCP connections at addr.
func webDialable(addr string) bool {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// TestWebSecretListener checks that the listener exists only while an
// offer is pending: it closes when the last one ends (sent, cancelled or
// expired), reopens on the next offer, on the same address when it is
// fixed, and Close ends everything.
func TestWebSecretListener(t *testing.T) {
	free, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fixed := free.Addr().String()
	free.Close()
	sendIt := func(t *testing.T, d *webDoor, o *SecretOffer) {
		r := webSend(t, "POST", o.URL, webForm(o.csrf, webSecret), webBrowserPost("http://"+d.Addr()))
		if r.status != http.StatusOK {
			t.Fatalf("POST: status %d, want 200", r.status)
		}
	}
	for _, tc := range []struct {
		name string
		addr string
		end  func(t *testing.T, d *webDoor, o *SecretOffer) // ends o
		life time.Duration
	}{
		{"cancel", "", func(_ *testing.T, _ *webDoor, o *SecretOffer) { o.Cancel() }, time.Hour},
		{"sent", "", sendIt, time.Hour},
		{"expired", "", func(*testing.T, *webDoor, *SecretOffer) {}, 20 * time.Millisecond},
		{"fixed address", fixed, func(_ *testing.T, _ *webDoor, o *SecretOffer) { o.Cancel() }, time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newWebTestDoor(t, tc.addr)
			if d.Addr() != "" {
				t.Fatalf("listening on %s before any offer", d.Addr())
			}
			sink := &webSink{}
			p := webTestPage(sink)
			p.Expires = time.Now().Add(tc.life)
			o := webOffer(t, d, p)
			first := d.Addr()
			if tc.addr != "" && first != tc.addr {
				t.Errorf("listening on %s, want %s", first, tc.addr)
			}
			if !webDialable(first) {
				t.Fatalf("nothing listens at %s with an offer pending", first)
			}
			keep := webOffer(t, d, webTestPage(sink))
			keep.Cancel() // one of two ended: still open
			if !webDialable(first) {
				t.Fatalf("the listener closed with an offer still pending")
			}
			tc.end(t, d, o)
			webWaitDone(t, o)
			if d.Addr() != "" || webDialable(first) {
				t.Fatalf("still listening at %s after the last offer ended", first)
			}
			o2 := webOffer(t, d, webTestPage(sink))
			if tc.addr != "" && d.Addr() != tc.addr {
				t.Errorf("reopened on %s, want %s", d.Addr(), tc.addr)
			}
			if r := webSend(t, "GET", o2.URL, "", nil); r.status != http.StatusOK {
				t.Errorf("GET after reopening: status %d, want 200", r.status)
			}
			second := d.Addr()
			if err := d.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			webWaitDone(t, o2)
			if o2.Delivered() || webDialable(second) || d.Addr() != "" {
				t.Error("after Close: still listening, or the offer delivered")
			}
			if _, err := d.OfferSecret(webTestPage(sink)); err == nil {
				t.Error("OfferSecret after Close: no error")
			}
		})
	}
}

// TestWebSecretPageText checks that what the page shows of the session,
// the command and the prompt cannot be markup, control sequences or
// reordered text.
func TestWebSecretPageText(t *testing.T) {
	d := newWebTestDoor(t, "")
	p := webTestPage(&webSink{})
	p.Command = "cat <script>x</script> \u202egnp.exe"
	p.Prompt = "\x1b[31mPassword:\r\n\xff"
	o := webOffer(t, d, p)
	r := webSend(t, "GET", o.URL, "", nil)
	for _, want := range []string{`&lt;script&gt;x&lt;/script&gt; \u202egnp.exe`, `\u001b[31mPassword:\u000d\u000a\xff`} {
		if !strings.Contains(r.body, want) {
			t.Errorf("the page lacks %q:\n%s", want, r.body)
		}
	}
	for _, bad := range []string{"<script>", "\u202e", "\x1b", "\r"} {
		if strings.Contains(r.body, bad) {
			t.Errorf("the page holds %q raw", bad)
		}
	}
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"sudo ls", 100, "sudo ls"},
		{"a\tb", 100, `a\u0009b`},
		{"\u2066x\u2069 \u200b", 100, `\u2066x\u2069 \u200b`},
		{"line\u2028two", 100, `line\u2028two`},
		{"Ωé 日本", 100, "Ωé 日本"},
		{"abcdef", 3, "abc…"},
		{"\x80\xfe", 100, `\x80\xfe`},
	} {
		if got := webVisible(tc.in, tc.max); got != tc.want {
			t.Errorf("webVisible(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// TestWebParseForm checks the in-place form decoder against what the
// page's form sends.
func TestWebParseForm(t *testing.T) {
	for _, tc := range []struct {
		body         string
		csrf, secret string // "-" is absent
		err          bool
	}{
		{"csrf=abc&secret=pw", "abc", "pw", false},
		{"secret=a+b%26c%3D%25&csrf=x", "x", "a b&c=%", false},
		{url.Values{"csrf": {"t"}, "secret": {webSecret}}.Encode(), "t", webSecret, false},
		{"other=1&csrf=t&secret=", "t", "", false},
		{"csrf=t&secret", "t", "", false},
		{"csrf=t", "t", "-", false},
		{"", "-", "-", false},
		{"%63srf=t&secret=s", "t", "s", false},
		{"csrf=t&csrf=t&secret=s", "", "", true},
		{"csrf=t&secret=s&secret=s", "", "", true},
		{"csrf=t&secret=%4", "", "", true},
		{"csrf=t&secret=%g0", "", "", true},
		{"c%srf=t", "", "", true},
	} {
		body := []byte(tc.body)
		csrf, secret, err := webParseForm(body)
		show := func(b []byte) string {
			if b == nil {
				return "-"
			}
			return string(b)
		}
		switch {
		case tc.err != (err != nil):
			t.Errorf("%q: error %v, want one: %v", tc.body, err, tc.err)
		case !tc.err && (show(csrf) != tc.csrf || show(secret) != tc.secret):
			t.Errorf("%q: csrf %q, secret %q; want %q, %q", tc.body, show(csrf), show(secret), tc.csrf, tc.secret)
		}
	}
}

// The fuzz input names the live offer's values by these placeholders;
// the token and CSRF ones are as long as a real token, so Content-Length
// stays right.
var (
	webFuzzToken = webPlaceholder("@TOKEN")
	webFuzzCSRF  = webPlaceholder("@CSRF")
)

const webFuzzHost = "@HOST@"

// webPlaceholder is name padded with '@' to the length of a token.
func webPlaceholder(name string) string {
	return name + strings.Repeat("@", len(rand.Text())-len(name))
}

// webRawRequest is an HTTP/1.1 request with a Content-Length when it has a
// body.
func webRawRequest(method, target string, headers []string, body string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", method, target)
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n" + body)
	return []byte(b.String())
}

// FuzzWebRequest feeds raw HTTP requests to the door's handler, with the
// placeholders replaced by a live offer's token, CSRF and host: it never
// panics, every answer carries the security headers, and Deliver runs
// only for a POST with the right token, Host and CSRF, once, with no
// control byte, and only then is the answer 200 to a POST.
func FuzzWebRequest(f *testing.F) {
	form := []string{"Host: " + webFuzzHost, "Content-Type: application/x-www-form-urlencoded"}
	self := append(form, "Origin: http://"+webFuzzHost, "Sec-Fetch-Site: same-origin")
	path := "/secret/" + webFuzzToken
	good := "csrf=" + webFuzzCSRF + "&secret=hunter2"
	for _, seed := range [][]byte{
		webRawRequest("GET", path, []string{"Host: " + webFuzzHost}, ""),
		webRawRequest("POST", path, self, good),
		webRawRequest("POST", path, form, good),
		webRawRequest("POST", path, append(form, "Origin: null", "Sec-Fetch-Site: same-origin"), good),
		webRawRequest("POST", path, []string{"Host: evil.example", "Content-Type: application/x-www-form-urlencoded"}, good),
		webRawRequest("POST", "http://evil.example"+path, form, good),
		webRawRequest("POST", "http://"+webFuzzHost+path, form, good),
		webRawRequest("POST", path, append(form, "Origin: http://evil.example"), good),
		webRawRequest("POST", path, append(form, "Sec-Fetch-Site: cross-site"), good),
		webRawRequest("POST", path, form, "csrf=wrong&secret=hunter2"),
		webRawRequest("POST", path, form, "csrf="+webFuzzCSRF+"&secret=pw%0Aid"),
		webRawRequest("POST", path, form, "csrf="+webFuzzCSRF+"&csrf="+webFuzzCSRF+"&secret=x"),
		webRawRequest("POST", path, form, "secret=x&csrf="+webFuzzCSRF+";"),
		webRawRequest("POST", path, []string{"Host: " + webFuzzHost, "Content-Type: text/plain"}, good),
		webRawRequest("POST", path, append(form, "Content-Length: 99999"), ""),
		[]byte("POST " + path + " HTTP/1.1\r\nHost: " + webFuzzHost + "\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n7\r\ncsrf=" + webFuzzCSRF[:2] + "\r\n" +
			fmt.Sprintf("%x", len(webFuzzCSRF)-2+15) + "\r\n" + webFuzzCSRF[2:] + "&secret=hunter2\r\n0\r\n\r\n"),
		webRawRequest("PUT", path, form, good),
		webRawRequest("OPTIONS", "*", []string{"Host: " + webFuzzHost}, ""),
		[]byte("GET " + path + " HTTP/1.0\r\n\r\n"),
		webRawRequest("GET", "/secret/", []string{"Host: " + webFuzzHost}, ""),
		webRawRequest("GET", "/secret/%2e%2e/"+webFuzzToken, []string{"Host: " + webFuzzHost}, ""),
	} {
		f.Add(seed)
	}
	d := newWebTestDoor(f, "")
	webOffer(f, d, webTestPage(&webSink{})) // keeps the listener, and so the host, for the whole run
	f.Fuzz(func(t *testing.T, raw []byte) {
		sink := &webSink{}
		o := webOffer(t, d, webTestPage(sink))
		defer o.Cancel()
		host := d.Addr()
		token := strings.TrimPrefix(o.URL, "http://"+host+"/secret/")
		raw = bytes.ReplaceAll(raw, []byte(webFuzzToken), []byte(token))
		raw = bytes.ReplaceAll(raw, []byte(webFuzzCSRF), []byte(o.csrf))
		raw = bytes.ReplaceAll(raw, []byte(webFuzzHost), []byte(host))
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
		if err != nil {
			return
		}
		body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20)) // what the handler sees, also when broken
		req.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		d.ServeHTTP(rec, req)

		for _, h := range webSecurityHeaders {
			if got := rec.Header().Get(h[0]); got != h[1] {
				t.Fatalf("status %d: %s is %q, want %q", rec.Code, h[0], got, h[1])
			}
		}
		vals, _ := url.ParseQuery(string(body)) // an independent reading of the form
		allowed := req.Method == http.MethodPost && req.Host == host && req.URL.Path == "/secret/"+token &&
			len(vals["csrf"]) > 0 && webContains(vals["csrf"], o.csrf)
		got := sink.calls()
		switch {
		case len(got) > 1:
			t.Fatalf("Deliver called %d times", len(got))
		case len(got) == 1 && !allowed:
			t.Fatalf("Deliver called for a request without the right token, Host and CSRF:\n%q", raw)
		case len(got) == 1 && bytes.ContainsFunc(got[0], func(r rune) bool { return r < 0x20 || r == 0x7f }):
			t.Fatalf("Deliver got a control byte: %q", got[0])
		case req.Method == http.MethodPost && rec.Code == http.StatusOK && len(got) != 1:
			t.Fatalf("a POST answered 200 without delivering:\n%q", raw)
		case len(got) == 1 && (rec.Code != http.StatusOK || !o.Delivered()):
			t.Fatalf("delivered, but status %d, Delivered %v", rec.Code, o.Delivered())
		}
	})
}

// webContains reports whether s holds v.
func webContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestWebSecretLinger: once the last page ended, the listener stays for
// the door's linger, so a tab still open on the page gets "No longer
// needed" (410), not a refused connection; a new page keeps it, and
// Close closes it at once.
func TestWebSecretLinger(t *testing.T) {
	t.Parallel()
	d := newWebDoor("")
	d.linger = time.Hour
	defer d.Close()
	o := webOffer(t, d, webTestPage(&webSink{}))
	addr := d.Addr()
	o.Cancel()
	webWaitDone(t, o)
	if d.Addr() != addr {
		t.Fatalf("the listener closed at once: %q", d.Addr())
	}
	if r := webSend(t, "GET", o.URL, "", nil); r.status != http.StatusGone {
		t.Errorf("the ended page: status %d, want 410", r.status)
	}
	o2 := webOffer(t, d, webTestPage(&webSink{}))
	if d.Addr() != addr || d.shut != nil {
		t.Errorf("a new page: listening on %q (was %q), linger timer %v", d.Addr(), addr, d.shut)
	}
	o2.Cancel()
	d.Close()
	if d.Addr() != "" || webDialable(addr) {
		t.Errorf("still listening at %s after Close", addr)
	}
}
