package main

// web.go: the loopback page where a person types a secret (a sudo or ssh
// password) straight into a program, so the model driving the terminal
// never sees it. A webDoor serves one-time pages, each a SecretOffer at
// http://127.0.0.1:PORT/secret/TOKEN; the listener exists only while an
// offer is pending. A page works once, until its deadline, and only for
// requests that name the exact host:port (no DNS rebinding), come from
// the page itself (Origin, Sec-Fetch-Site) and carry the form's own CSRF
// token. The secret is never logged, put in a URL or echoed back.
// The same door serves live views of sessions (web_view.go), which keep
// the listener open while they live.

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// The limits of the door.
const (
	maxSecretOffers = 16      // offers pending at once
	maxEndedOffers  = 64      // ended offers remembered, to answer 410 rather than 404
	maxSecretBody   = 4 << 10 // bytes of a POST body
	maxSecretLen    = 1 << 10 // bytes of the secret, after decoding (a tty line holds 4,095)
	webDrainTime    = 5 * time.Second
	webLinger       = 10 * time.Minute // the listener stays this long after the last offer ended
	webHeaderBytes  = 8 << 10
	webIOTimeout    = 15 * time.Second
)

// webSecurityHeaders go on every response: nothing is cached, framed,
// loaded from elsewhere or sent on as a referrer, and no CORS header is
// ever set, so no other origin may read a page.
var webSecurityHeaders = [][2]string{
	{"Cache-Control", "no-store"},
	{"Pragma", "no-cache"},
	{"Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"},
	{"X-Frame-Options", "DENY"},
	{"Referrer-Policy", "no-referrer"},
	{"X-Content-Type-Options", "nosniff"},
}

// webSecure sets webSecurityHeaders on w.
func webSecure(w http.ResponseWriter) {
	for _, h := range webSecurityHeaders {
		w.Header().Set(h[0], h[1])
	}
}

// webDoor is the loopback HTTP listener that serves secret pages and
// live views. The zero value is not usable; make one with newWebDoor.
// Its methods are safe for concurrent use.
type webDoor struct {
	addr string         // as given to newWebDoor: "" or a loopback host:port
	mux  *http.ServeMux // the door's paths, behind ServeHTTP's checks

	mu      sync.Mutex
	srv     *http.Server // nil while no offer is pending and no view lives
	ln      net.Listener
	host    string // "127.0.0.1:PORT" that ln listens on; the Host header must equal it
	secrets offerTable[*SecretOffer]
	views   offerTable[*ViewOffer]
	closed  bool
	// linger is how long the listener stays once no offer lives, so
	// that a tab still open on an ended page gets "No longer needed"
	// rather than a refused connection (webLinger; tests shorten it).
	linger time.Duration
	shut   *time.Timer // closes the listener at the end of linger
}

// newWebDoor returns a door that will listen on addr: "" is 127.0.0.1
// on an ephemeral port (a fresh one each time the listener reopens),
// otherwise a fixed loopback host:port (127.0.0.1, ::1 or localhost,
// which means 127.0.0.1). Nothing listens until the first OfferSecret,
// which also refuses an addr that is not loopback.
func newWebDoor(addr string) *webDoor {
	d := &webDoor{
		addr:   addr,
		mux:    http.NewServeMux(),
		linger: webLinger,
		secrets: offerTable[*SecretOffer]{path: "/secret/", max: maxSecretOffers, recall: maxEndedOffers,
			full: "secret pages are pending", hint: "wait for one to end or cancel one"},
		views: offerTable[*ViewOffer]{path: "/view/", max: maxViewOffers, full: "views are open", hint: "cancel one"},
	}
	d.mux.HandleFunc("/secret/{token}", d.serveSecret)
	for _, action := range viewActions {
		d.mux.HandleFunc(path.Join("/view/{token}", action), func(w http.ResponseWriter, r *http.Request) {
			d.serveView(w, r, action)
		})
	}
	d.mux.HandleFunc("/view", viewNotFound) // else the mux would redirect it to /view/
	d.mux.HandleFunc("/view/", viewNotFound)
	d.mux.HandleFunc("/", secretNotFound)
	return d
}

// offerLife is the life a secret page and a live view share. The door
// mints its token with crypto/rand.Text, keeps the offer in an
// offerTable by the token's SHA-256 (URL holds the token's only copy),
// ends it at its deadline, on Cancel or when the door closes, and closes
// the listener when no offer of either kind is left.
type offerLife struct {
	URL string

	door  *webDoor
	key   secretHash    // of the token
	done  chan struct{} // closed when the offer has ended
	timer *time.Timer   // the deadline; nil without one
	ended bool          // guarded by door.mu
}

// Done returns a channel closed when the offer has ended.
func (o *offerLife) Done() <-chan struct{} { return o.done }

// life is the shared part of a doorOffer.
func (o *offerLife) life() *offerLife { return o }

// doorOffer is a secret page or a live view, as its offerTable sees it.
// Its Locked methods run under door.mu.
type doorOffer interface {
	life() *offerLife
	deadline() time.Time // zero: none
	expireLocked()       // ends the offer because its deadline passed
	cancelLocked()       // ends the offer because the door closes
}

// offerTable is the door's offers of one kind, by their tokens' SHA-256.
// It is guarded by door.mu.
type offerTable[O doorOffer] struct {
	path       string // of the URL, before the token: "/secret/" or "/view/"
	max        int    // offers live at once
	recall     int    // ended offers kept, so that their URL answers 410 rather than 404
	full, hint string // the error past max: what is full, and what to do

	live    int // offers not ended
	byToken secretTable[O]
	ended   []secretHash // of the ended offers kept, oldest first
}

// open offers o on d: it mints o's token, makes its URL, keeps it and
// starts its deadline. The listener is started when none runs. It fails
// when d's addr is not loopback, the listener cannot be opened, max
// offers of t's kind live, or d is closed.
func (t *offerTable[O]) open(d *webDoor, o O) error {
	network, listen, err := webLoopback(d.addr)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		return errors.New("web: the door is closed")
	case t.live >= t.max:
		return fmt.Errorf("web: %d %s already, the most at once: %s", t.live, t.full, t.hint)
	}
	if d.shut != nil {
		d.shut.Stop() // a new offer: the listener stays
		d.shut = nil
	}
	if d.srv == nil {
		if err := d.openLocked(network, listen); err != nil {
			return err
		}
	}
	token := rand.Text()
	b := o.life()
	b.URL = "http://" + d.host + t.path + token
	b.door, b.done = d, make(chan struct{})
	b.key = t.byToken.add(token, o)
	t.live++
	if dl := o.deadline(); !dl.IsZero() {
		b.timer = time.AfterFunc(time.Until(dl), func() {
			d.mu.Lock()
			defer d.mu.Unlock()
			o.expireLocked()
		})
	}
	return nil
}

// lookupLocked returns the offer whose token is token, ended or not, and
// whether there is one; it ends an offer past its deadline first.
func (t *offerTable[O]) lookupLocked(token string) (O, bool) {
	o, ok := t.byToken.lookup(token)
	if ok {
		expireDueLocked(o)
	}
	return o, ok
}

// expireDueLocked ends o when its deadline has passed but its timer has
// not fired yet, so no request gets in late.
func expireDueLocked(o doorOffer) {
	if dl := o.deadline(); !o.life().ended && !dl.IsZero() && !time.Now().Before(dl) {
		o.expireLocked()
	}
}

// endLocked is the end of every offer, called once by its kind's own:
// its deadline stops, t forgets it or keeps it among the recall ended
// last, the listener closes d.linger after no offer of either kind is
// live (an open tab of an ended page is answered "No longer needed", not
// refused), and then Done closes.
func (t *offerTable[O]) endLocked(o O) {
	b := o.life()
	b.ended = true
	if b.timer != nil {
		b.timer.Stop()
	}
	t.live--
	t.ended = append(t.ended, b.key)
	if len(t.ended) > t.recall {
		t.byToken.delete(t.ended[0])
		t.ended = t.ended[1:]
	}
	if d := b.door; d.secrets.live == 0 && d.views.live == 0 && d.linger <= 0 {
		d.shutLocked(false)
	} else if d.secrets.live == 0 && d.views.live == 0 && d.shut == nil && !d.closed {
		d.shut = time.AfterFunc(d.linger, func() {
			d.mu.Lock()
			defer d.mu.Unlock()
			if d.shut != nil && d.secrets.live == 0 && d.views.live == 0 {
				d.shut = nil
				d.shutLocked(false)
			}
		})
	}
	close(b.done)
}

// forgetEndedLocked forgets the ended offers kept.
func (t *offerTable[O]) forgetEndedLocked() {
	for _, h := range t.ended {
		t.byToken.delete(h)
	}
	t.ended = nil
}

// cancelAllLocked ends every live offer as the door closes.
func (t *offerTable[O]) cancelAllLocked() {
	for _, o := range t.byToken.all() {
		o.cancelLocked() // an ended one does nothing
	}
}

// SecretPage is what one secret page shows, and where its secret goes.
type SecretPage struct {
	Session string    // session id shown on the page
	Command string    // the real foreground command line (argv joined), shown on the page
	Prompt  string    // the prompt line as the terminal shows it: the program's words, labelled so
	Message string    // why the agent asks, in its words, labelled so; "" for none
	Expires time.Time // the page stops working then; must be in the future

	// Deliver writes the secret and Enter to the PTY. It is called at
	// most once, from the HTTP handler, with no trailing newline; the
	// slice is zeroed when it returns, so it must not be kept.
	Deliver func(secret []byte) error
}

// offerState is where an offer is in its life: pending, then sending
// while Deliver runs, then one of the ended states.
type offerState uint8

const (
	offerPending offerState = iota
	offerSending
	offerSent      // Deliver returned nil
	offerFailed    // Deliver returned an error
	offerCancelled // Cancel, or the door closed
	offerExpired   // Expires passed
)

// SecretOffer is one secret page. URL is what a person opens:
// http://127.0.0.1:PORT/secret/TOKEN, the token from crypto/rand.Text.
// URL is the token's only copy: the door keeps its SHA-256. Done closes
// when the offer has ended: delivered (or its Deliver failed), cancelled
// or expired.
type SecretOffer struct {
	offerLife
	page SecretPage
	csrf string // the form's hidden field, a second crypto/rand.Text value

	state offerState // guarded by door.mu
}

// OfferSecret opens a page for p and returns its offer. The listener is
// started when none is running. It fails when the door's addr is not
// loopback, the listener cannot be opened, maxSecretOffers offers are
// pending, the door is closed, p.Deliver is nil or p.Expires has passed.
func (d *webDoor) OfferSecret(p SecretPage) (*SecretOffer, error) {
	if p.Deliver == nil {
		return nil, errors.New("web: a secret page needs a Deliver function")
	}
	if !time.Now().Before(p.Expires) {
		return nil, fmt.Errorf("web: the secret page's deadline %s has passed: give a time in the future", p.Expires.Format(time.RFC3339))
	}
	o := &SecretOffer{page: p, csrf: rand.Text()}
	if err := d.secrets.open(d, o); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *SecretOffer) deadline() time.Time { return o.page.Expires }
func (o *SecretOffer) expireLocked()       { o.door.endLocked(o, offerExpired) }
func (o *SecretOffer) cancelLocked()       { o.door.endLocked(o, offerCancelled) }

// Delivered reports whether Deliver was called and returned nil.
func (o *SecretOffer) Delivered() bool {
	o.door.mu.Lock()
	defer o.door.mu.Unlock()
	return o.state == offerSent
}

// Cancel ends the offer (the prompt is gone, or the call was cancelled);
// its URL then answers 410 Gone while another offer keeps the listener
// open, and nothing listens otherwise. Once Cancel returns, Deliver is
// running or done, or will never be called. Cancelling an ended offer
// does nothing.
func (o *SecretOffer) Cancel() { o.end(offerCancelled) }

// end moves o to the ended state st, under the door's lock.
func (o *SecretOffer) end(st offerState) {
	o.door.mu.Lock()
	defer o.door.mu.Unlock()
	o.door.endLocked(o, st)
}

// endLocked ends o with st when that is a step o can take: a pending
// offer is cancelled or expires, a sending one is sent or failed (a
// cancel during Deliver waits for Deliver instead).
func (d *webDoor) endLocked(o *SecretOffer, st offerState) {
	switch {
	case o.state == offerPending && (st == offerCancelled || st == offerExpired):
	case o.state == offerSending && (st == offerSent || st == offerFailed):
	default:
		return
	}
	o.state = st
	d.secrets.endLocked(o)
}

// Close cancels every pending offer and live view and closes the
// listener and its connections at once. Later OfferSecret and OfferView
// calls fail. An offer whose Deliver is running ends when it returns.
func (d *webDoor) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	if d.shut != nil {
		d.shut.Stop()
		d.shut = nil
	}
	err := d.shutLocked(true) // first, or the last offer's end would linger instead
	d.secrets.cancelAllLocked()
	d.views.cancelAllLocked()
	return err
}

// Addr returns the address the door listens on ("127.0.0.1:PORT" or
// "[::1]:PORT"), or "" while no offer is pending and no view lives.
func (d *webDoor) Addr() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.host
}

// webLoopback checks addr and returns the network and address to listen
// on. "" is "127.0.0.1:0"; localhost is 127.0.0.1, so the URL never
// depends on what a resolver says; any other host is refused, as is a
// port that is not a number.
func webLoopback(addr string) (network, listen string, err error) {
	if addr == "" {
		return "tcp4", "127.0.0.1:0", nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", "", fmt.Errorf("web: address %q: %v: give a loopback host:port such as 127.0.0.1:0", addr, err)
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return "", "", fmt.Errorf("web: address %q: the port must be a number from 0 to 65535", addr)
	}
	port = strconv.FormatUint(n, 10)
	switch {
	case host == "127.0.0.1" || strings.EqualFold(host, "localhost"):
		return "tcp4", net.JoinHostPort("127.0.0.1", port), nil
	case host == "::1":
		return "tcp6", net.JoinHostPort("::1", port), nil
	}
	return "", "", fmt.Errorf("web: address %q is not loopback: the secret page listens only on 127.0.0.1, ::1 or localhost", addr)
}

// openLocked starts a listener and its server.
func (d *webDoor) openLocked(network, listen string) error {
	ln, err := net.Listen(network, listen)
	if err != nil {
		return fmt.Errorf("web: listening for the secret page: %w", err)
	}
	srv := &http.Server{
		Handler:           d,
		ReadHeaderTimeout: webIOTimeout / 3,
		ReadTimeout:       webIOTimeout,
		WriteTimeout:      webIOTimeout,
		IdleTimeout:       2 * webIOTimeout,
		MaxHeaderBytes:    webHeaderBytes,
		// net/http logs only its own failures (bad TLS, panics), never
		// bodies; discarding them keeps even those off stderr.
		ErrorLog: log.New(io.Discard, "", 0),
		// "OPTIONS *" reaches ServeHTTP, its checks and headers.
		DisableGeneralOptionsHandler: true,
	}
	d.srv, d.ln, d.host = srv, ln, ln.Addr().String()
	go func() { _ = srv.Serve(ln) }() // returns when ln closes
	return nil
}

// shutLocked closes the listener now, so nothing new connects, and
// forgets the ended offers. Open connections are drained in the
// background (the response to the POST that ended the last offer is
// still being written), or closed at once when force is set.
func (d *webDoor) shutLocked(force bool) error {
	d.secrets.forgetEndedLocked()
	d.views.forgetEndedLocked()
	srv, ln := d.srv, d.ln
	if srv == nil {
		return nil
	}
	d.srv, d.ln, d.host = nil, nil, ""
	if force {
		err := srv.Close()
		_ = ln.Close() // for a Serve not started yet; else srv.Close closed it
		if errors.Is(err, net.ErrClosed) {
			err = nil
		}
		return err
	}
	err := ln.Close()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), webDrainTime)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			_ = srv.Close() // the drain timed out: cut what is left
		}
	}()
	return err
}

// lookup returns the offer whose token is token, and its state; nil when
// there is none.
func (d *webDoor) lookup(token string) (*SecretOffer, offerState) {
	d.mu.Lock()
	defer d.mu.Unlock()
	o, ok := d.secrets.lookupLocked(token)
	if !ok {
		return nil, 0
	}
	return o, o.state
}

// send calls Deliver and ends the offer as sent or failed, also when
// Deliver panics: net/http recovers the panic, and Done must still close.
func (o *SecretOffer) send(secret []byte) error {
	st := offerFailed
	defer func() { o.end(st) }()
	err := o.page.Deliver(secret)
	if err == nil {
		st = offerSent
	}
	return err
}

// ServeHTTP answers a request to the door. The Host header must be the
// served host:port (421 otherwise) and the method GET or POST (405);
// then d.mux routes it: /secret/TOKEN to a secret page (serveSecret),
// /view/TOKEN and its actions to a live view (serveView), any other path
// to 404, also one with an empty, "." or ".." segment, which the mux
// would redirect to its clean form.
func (d *webDoor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	webSecure(w)
	d.mu.Lock()
	host := d.host
	d.mu.Unlock()
	if host == "" || r.Host != host {
		webReply(w, http.StatusMisdirectedRequest, "Wrong address",
			"This page answers only at the address in its link: the request named another host.")
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		webReply(w, http.StatusMethodNotAllowed, "Method not allowed", "This page takes only GET and POST.")
		return
	}
	if path.Clean(r.URL.Path) != r.URL.Path {
		secretNotFound(w, r)
		return
	}
	d.mux.ServeHTTP(w, r)
}

// serveSecret answers /secret/TOKEN: GET shows a pending offer's form,
// POST delivers its secret; an unknown token is 404, an ended offer 410.
func (d *webDoor) serveSecret(w http.ResponseWriter, r *http.Request) {
	o, st := d.lookup(r.PathValue("token"))
	switch {
	case o == nil:
		secretNotFound(w, r)
	case st != offerPending:
		webReply(w, http.StatusGone, webGone[st][0], webGone[st][1])
	case r.Method == http.MethodGet:
		o.form(w)
	default:
		d.post(w, r, o)
	}
}

// secretNotFound is the 404 of a path that is no secret page.
func secretNotFound(w http.ResponseWriter, _ *http.Request) {
	webReply(w, http.StatusNotFound, "No such page", "This secret page does not exist: ask the agent for a new one.")
}

// webGone is the title and text of the 410 page of each state but
// pending.
var webGone = map[offerState][2]string{
	offerSending:   {"Already used", "This page was used already: each page works once."},
	offerSent:      {"Already used", "This page was used already: each page works once. The secret was typed into the program."},
	offerFailed:    {"Already used", "This page was used already, but the secret could not be typed into the program."},
	offerCancelled: {"No longer needed", "The program stopped asking, or the agent cancelled the request: nothing was typed."},
	offerExpired:   {"Expired", "This page expired: nothing was typed. Ask the agent for a new one."},
}

// form writes the page of a pending offer.
func (o *SecretOffer) form(w http.ResponseWriter) {
	webWrite(w, http.StatusOK, webPageData{
		Title: "Type a secret into a program",
		Form: &webFormData{
			Session: webVisible(o.page.Session, 128),
			Command: webVisible(o.page.Command, 2000),
			Prompt:  webVisible(o.page.Prompt, 500),
			Message: webVisible(o.page.Message, 500),
			Expires: o.page.Expires.Format("15:04:05 MST"),
			CSRF:    o.csrf,
			MaxLen:  maxSecretLen,
		},
	})
}

// post checks a POST to a pending offer and delivers its secret. The
// checks, in order: the request comes from the page itself (Origin,
// Sec-Fetch-Site: 403), is a url-encoded form (415) of at most
// maxSecretBody bytes (413), carries the offer's CSRF token (403) and a
// secret of 1 to maxSecretLen bytes without control characters (400);
// then the offer is claimed (410 when another request took it), Deliver
// runs once and the body, which holds the only copy of the secret, is
// zeroed.
func (d *webDoor) post(w http.ResponseWriter, r *http.Request, o *SecretOffer) {
	if why := webCrossOrigin(r, r.Host); why != "" { // ServeHTTP checked that Host is the door's
		webReply(w, http.StatusForbidden, "Refused", why)
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
		webReply(w, http.StatusUnsupportedMediaType, "Unsupported form", "This page takes only its own form (application/x-www-form-urlencoded).")
		return
	}
	body, status := webReadBody(w, r)
	defer clear(body)
	switch status {
	case http.StatusRequestEntityTooLarge:
		webReply(w, status, "Too long", fmt.Sprintf("The form may hold at most %d bytes: nothing was typed.", maxSecretBody))
		return
	case http.StatusBadRequest:
		webReply(w, status, "Bad form", "The form could not be read: nothing was typed.")
		return
	}
	csrf, secret, err := webParseForm(body)
	switch {
	case err != nil:
		webReply(w, http.StatusBadRequest, "Bad form", "The form could not be read: "+err.Error()+".")
		return
	case csrf == nil || !hashSecret(o.csrf).matches(string(csrf)):
		webReply(w, http.StatusForbidden, "Refused", "The form's token does not match this page: open the link again and retype the secret.")
		return
	}
	if why := webCheckSecret(secret); why != "" {
		webReply(w, http.StatusBadRequest, "Not sent", why)
		return
	}
	if st, ok := d.claim(o); !ok {
		webReply(w, http.StatusGone, webGone[st][0], webGone[st][1])
		return
	}
	if err := o.send(secret); err != nil {
		webReply(w, http.StatusInternalServerError, "Not sent",
			"The secret could not be typed into the program ("+err.Error()+"). This page will not try again.")
		return
	}
	webReply(w, http.StatusOK, "Sent",
		"The secret and Enter went to the program in session "+webVisible(o.page.Session, 128)+". You can close this page.")
}

// claim moves a pending offer to sending, so only one request delivers.
// It reports false, with the offer's state, when another request took it
// first or it ended meanwhile.
func (d *webDoor) claim(o *SecretOffer) (offerState, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	expireDueLocked(o)
	if o.state != offerPending {
		return o.state, false
	}
	o.state = offerSending
	return o.state, true
}

// webCrossOrigin returns why r was not sent by the page at host, or "".
// Origin, when present, must be the page's origin. It may be "null" only
// with Sec-Fetch-Site: same-origin: under Referrer-Policy: no-referrer a
// browser sends Origin: null on a page's own form POST. Sec-Fetch-Site,
// when present, must be same-origin or none (another port of 127.0.0.1
// is same-site, and refused). Browsers set both; neither can be set by a
// page. Clients without them rely on the Host and CSRF checks.
// http.CrossOriginProtection is not enough here: it lets GET through
// unchecked (the view's event stream is a GET, and joining it makes a
// viewer), trusts Sec-Fetch-Site: same-origin without Origin, and
// compares no scheme; SECURITY.md promises all three.
func webCrossOrigin(r *http.Request, host string) string {
	return webForeignOrigin(r, "http://"+host)
}

// webForeignOrigin is webCrossOrigin for a page at origin,
// scheme://host[:port] (the OAuth consent page may be https, behind a
// tunnel).
func webForeignOrigin(r *http.Request, origin string) string {
	sites := r.Header.Values("Sec-Fetch-Site")
	site := ""
	if len(sites) > 1 {
		return "The request carries Sec-Fetch-Site twice."
	}
	if len(sites) == 1 {
		site = sites[0]
		if site != "same-origin" && site != "none" {
			return "The form was sent from another site (Sec-Fetch-Site: " + site + ")."
		}
	}
	origins, ok := r.Header["Origin"]
	switch {
	case !ok:
		return ""
	case len(origins) != 1:
		return "The request carries Origin twice."
	case origins[0] == origin:
		return ""
	case origins[0] == "null" && site == "same-origin":
		return ""
	}
	return "The form was sent from another origin (" + origins[0] + ")."
}

// webReadBody reads r's body into one buffer of at most maxSecretBody
// bytes, so no copy of the secret is left in buffers grown and dropped
// along the way. It returns 413 for a longer body and 400 for a broken
// one, with the buffer zeroed. (net/http's own read buffer of the
// connection is not ours to clear; the next request overwrites it.)
func webReadBody(w http.ResponseWriter, r *http.Request) ([]byte, int) {
	if r.ContentLength > maxSecretBody {
		return nil, http.StatusRequestEntityTooLarge
	}
	buf := make([]byte, maxSecretBody+1)
	n, err := io.ReadFull(http.MaxBytesReader(w, r.Body, maxSecretBody), buf)
	var tooBig *http.MaxBytesError
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return buf[:n], 0
	case err == nil || errors.As(err, &tooBig):
		clear(buf)
		return nil, http.StatusRequestEntityTooLarge
	}
	clear(buf)
	return nil, http.StatusBadRequest
}

// webParseForm finds the csrf and secret fields of a url-encoded body,
// decoding each in place: the results alias body, so clearing body
// clears them. A field that is absent is nil. Other fields are ignored;
// a field given twice, or a broken %-escape, is an error.
func webParseForm(body []byte) (csrf, secret []byte, err error) {
	for len(body) > 0 {
		var pair []byte
		pair, body, _ = bytes.Cut(body, []byte("&"))
		k, v, _ := bytes.Cut(pair, []byte("="))
		if k, err = webUnescape(k); err != nil {
			return nil, nil, err
		}
		var field *[]byte
		switch string(k) {
		case "csrf":
			field = &csrf
		case "secret":
			field = &secret
		default:
			continue
		}
		if *field != nil {
			return nil, nil, fmt.Errorf("the field %s is given twice", k)
		}
		if v, err = webUnescape(v); err != nil {
			return nil, nil, err
		}
		if v == nil {
			v = []byte{} // "secret" without "=": present, and empty
		}
		*field = v
	}
	return csrf, secret, nil
}

// webUnescape decodes a url-encoded form value in place ('+' is a space,
// %XX a byte) and returns the decoded prefix of b.
func webUnescape(b []byte) ([]byte, error) {
	j := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case '+':
			c = ' '
		case '%':
			if i+2 >= len(b) || webUnhex(b[i+1]) < 0 || webUnhex(b[i+2]) < 0 {
				return nil, errors.New("a %-escape is broken")
			}
			c = byte(webUnhex(b[i+1])<<4 | webUnhex(b[i+2]))
			i += 2
		}
		b[j] = c
		j++
	}
	return b[:j], nil
}

// webUnhex is the value of the hex digit c, or -1.
func webUnhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// webCheckSecret returns why secret cannot be typed, or "". A control
// byte would act in the terminal instead of being part of the secret: a
// newline ends the line early and types the rest into whatever reads
// next (the shell), ^C, ^D, ^U and ESC do what they do.
func webCheckSecret(secret []byte) string {
	switch {
	case secret == nil:
		return "The form has no secret field."
	case len(secret) == 0:
		return "The secret is empty: nothing was typed. Go back and type it."
	case len(secret) > maxSecretLen:
		return fmt.Sprintf("The secret is %d bytes long, over the %d a page takes: nothing was typed.", len(secret), maxSecretLen)
	}
	for _, c := range secret {
		if c < 0x20 || c == 0x7f {
			return "The secret holds a control character (a newline, a tab or a Ctrl key), which the terminal would act on: nothing was typed."
		}
	}
	return ""
}

// webVisible returns s for display on a page: control and format
// characters (bidirectional overrides among them, which could make a
// command read as another) and invalid UTF-8 become \u and \x escapes,
// and after max runes it is cut with "…". html/template escapes the rest.
func webVisible(s string, max int) string {
	var b strings.Builder
	for n := 0; s != ""; n++ {
		if n == max {
			b.WriteString("…")
			break
		}
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		s = s[size:]
	}
	return b.String()
}

// webPageData is what the page template shows: a title, a message and,
// for a pending offer, its form.
type webPageData struct {
	Title   string
	Message string
	Form    *webFormData
}

// webFormData is the form of a pending offer, every text made visible
// by webVisible.
type webFormData struct {
	Session, Command, Prompt, Message string
	Expires                           string // the deadline, "15:04:05 MST" in local time
	CSRF                              string
	MaxLen                            int // bytes
}

// webReply writes a page with a title and a message, no form.
func webReply(w http.ResponseWriter, status int, title, message string) {
	webWrite(w, status, webPageData{Title: title, Message: message})
}

// webWrite renders the page into a buffer, then writes it with status.
func webWrite(w http.ResponseWriter, status int, data webPageData) {
	webRender(w, status, webPage, data)
}

// webRender renders t, webPage or a page made from it with its own
// "body", then writes it with status.
func webRender(w http.ResponseWriter, status int, t *template.Template, data any) {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		// The template and its data are ours: this is a bug, not input.
		buf.Reset()
		buf.WriteString("ttywright: the page could not be drawn\n")
		status = http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes()) // the browser went away: nothing to tell it
}

// webPage is the one template of the door: inline CSS, no script, no
// external resource (the CSP forbids them), the form posting to the
// page's own URL. Another page (the OAuth consent page) clones it and
// defines its own "body"; .Title is the layout's.
var webPage = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{{.Title}} · ttywright</title>
<style>
body{font:16px/1.45 system-ui,sans-serif;margin:0;background:#f4f4f1;color:#1c1c1a}
main{max-width:40rem;margin:2.5rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d8d8d4;border-radius:8px}
h1{font-size:1.3rem;margin:0 0 1rem}
dt{font-weight:600;margin-top:.9rem}
dd{margin:.25rem 0 0}
code,pre{font:14px/1.4 ui-monospace,monospace;background:#efefeb;border-radius:4px;white-space:pre-wrap;word-break:break-all}
code{padding:.1rem .35rem}
pre{margin:0;padding:.5rem .6rem;border-left:3px solid #c08400}
label{display:block;font-weight:600;margin:1.3rem 0 .3rem}
input[type=password]{width:100%;box-sizing:border-box;font-size:1.1rem;padding:.5rem}
button{margin-top:1rem;font-size:1rem;padding:.5rem 1.2rem}
.note{color:#555;font-size:.9rem}
</style>
</head>
<body><main>
<h1>{{.Title}}</h1>
{{block "body" .}}{{with .Message}}<p>{{.}}</p>
{{end}}{{with .Form}}<p>A program in a terminal that an agent drives through ttywright is asking for a secret. Type it here and it goes to the program; the agent does not see it.</p>
<dl>
<dt>Session</dt><dd><code>{{.Session}}</code></dd>
<dt>Program</dt><dd><code>{{.Command}}</code></dd>
<dt>The program's prompt, in its own words (not ttywright's)</dt><dd><pre>{{.Prompt}}</pre></dd>
{{if .Message}}<dt>Why the agent asks, in its own words</dt><dd>{{.Message}}</dd>
{{end}}<dt>This page works until</dt><dd>{{.Expires}}, once</dd>
</dl>
<form method="post" autocomplete="off">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<label for="secret">Secret</label>
<input id="secret" name="secret" type="password" autocomplete="new-password" autocapitalize="off" spellcheck="false" maxlength="{{.MaxLen}}" required autofocus>
<button type="submit">Type it into the program</button>
</form>
<p class="note">The secret is typed into the program's terminal, followed by Enter. If the program shows what it reads, the agent will see it on the screen: check that the program and its prompt above are what you expect.</p>
{{end}}{{end}}</main></body>
</html>
`))
