package main

// mcp_oauth_authorize.go: /oauth/authorize, the authorization code grant
// with PKCE (S256 only) and the consent page where the owner approves a
// client. The owner proves they are the owner with a one-time approval
// code that ttywright prints on its stderr for this request only (or
// with the bearer token); a page that cannot tell who is at it cannot
// tell a phished click from the owner's. The page has the secret page's
// CSP, frame and CSRF rules (web.go). The redirect carries code, state
// and iss (RFC 9207); a refusal after the client and its redirect URI
// are known goes back as error=... (RFC 6749 §4.1.2.1), one before as a
// page.

import (
	"crypto/rand"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// consentRequest is one open consent page: the authorization request it
// approves, its CSRF token and the hash of its approval code.
type consentRequest struct {
	client    secretHash // of the client_id
	name      string     // the client's name
	doc       string     // its metadata document's URL; "" for a registered client
	redirect  string
	state     string
	challenge string // PKCE S256 code_challenge
	resource  string // as requested; "" for none
	csrf      string
	code      secretHash // of the approval code's six digits
	expires   time.Time
	tries     int // wrong approval codes so far
}

// pkceChallengeRE is an S256 code_challenge: the base64url SHA-256 of
// the verifier, 43 characters (RFC 7636 §4.2).
var pkceChallengeRE = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// authorize answers /oauth/authorize: GET opens the consent page, POST
// is its form.
func (s *oauthServer) authorize(w http.ResponseWriter, r *http.Request) {
	webSecure(w)
	switch r.Method {
	case http.MethodGet:
		s.authorizeGet(w, r)
	case http.MethodPost:
		s.consentPost(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		webReply(w, http.StatusMethodNotAllowed, "Method not allowed", "This address takes only GET and POST.")
	}
}

// authorizeGet checks an authorization request and opens its consent
// page. An unknown client or redirect URI is a page (the request cannot
// be sent back); anything else wrong goes back to the client.
func (s *oauthServer) authorizeGet(w http.ResponseWriter, r *http.Request) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	for k, vs := range q {
		if err == nil && len(vs) > 1 {
			err = fmt.Errorf("the parameter %s is given %d times", k, len(vs))
		}
	}
	if err != nil {
		s.refused(r, "an authorization request: "+err.Error())
		webReply(w, http.StatusBadRequest, "Bad request", "The sign-in request could not be read: "+err.Error()+".")
		return
	}
	id := q.Get("client_id")
	key, status, why := s.admit(r, id)
	if status != 0 {
		webReply(w, status, http.StatusText(status), "ttywright cannot sign this client in: "+why+".")
		return
	}
	c, err := s.client(r.Context(), id)
	if err != nil {
		s.refused(r, "an authorization request: "+err.Error())
		webReply(w, http.StatusBadRequest, "Unknown client", "ttywright cannot sign this client in: "+err.Error()+".")
		return
	}
	redirect, err := c.redirectURI(q.Get("redirect_uri"))
	if err != nil {
		s.refused(r, fmt.Sprintf("an authorization request of %.64q: %v", c.name, err))
		webReply(w, http.StatusBadRequest, "Wrong redirect address", "ttywright will not send a sign-in to this address: "+err.Error()+".")
		return
	}
	back := func(code, desc string) {
		s.refused(r, fmt.Sprintf("an authorization request of %.64q: %s", c.name, desc))
		s.redirect(w, r, redirect, url.Values{"error": {code}, "error_description": {desc}, "state": {q.Get("state")}})
	}
	switch {
	case q.Get("response_type") != "code":
		back("unsupported_response_type", "response_type must be code")
		return
	case q.Get("code_challenge") == "":
		back("invalid_request", "PKCE is required: send code_challenge with code_challenge_method S256")
		return
	case q.Get("code_challenge_method") != "S256":
		back("invalid_request", "code_challenge_method must be S256 (plain is not accepted)")
		return
	case !pkceChallengeRE.MatchString(q.Get("code_challenge")):
		back("invalid_request", "code_challenge must be the 43-character base64url SHA-256 of the verifier")
		return
	case q.Get("resource") != "" && !s.isResource(q.Get("resource")):
		back("invalid_target", "resource names another server than "+s.resource)
		return
	}
	p := &consentRequest{client: key, name: c.name, doc: c.doc, redirect: redirect, state: q.Get("state"),
		challenge: q.Get("code_challenge"), resource: q.Get("resource"), csrf: rand.Text(), expires: time.Now().Add(oauthConsentLife)}
	reqID, digits, ok := s.openConsent(p)
	if !ok {
		s.refused(r, fmt.Sprintf("a consent page for %.64q: too many open or opened", c.name))
		webReply(w, http.StatusTooManyRequests, "Too many sign-ins", "Too many sign-in pages are open or were opened lately: finish or wait for one, then start again.")
		return
	}
	s.errlog.Printf("oauth: approval code for %.64q (redirect to %s, from %s): %s (valid 5 minutes, 5 tries)", c.name, redirectHost(redirect), clientAddr(r), digits)
	s.consentPage(w, http.StatusOK, p, reqID, "")
}

// openConsent keeps p under a new request id with a new approval code,
// within the rate and the count of open pages; it returns the id and the
// code as the owner reads it ("483-921").
func (s *oauthServer) openConsent(p *consentRequest) (reqID, digits string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.pending.deleteIf(func(o *consentRequest) bool { return !now.Before(o.expires) })
	if s.pending.len() >= oauthMaxPending {
		return "", "", false
	}
	if ok, _, _ := s.consents.take(0); !ok {
		return "", "", false
	}
	d := approvalDigits()
	p.code = hashSecret(d)
	reqID = longToken()
	s.pending.add(reqID, p)
	return reqID, d[:3] + "-" + d[3:], true
}

// approvalDigits returns six random decimal digits, made from one
// crypto/rand.Text value: 60 bits of its base32 characters, reduced
// modulo 10^6 (a bias under 10^-12).
func approvalDigits() string {
	var n uint64
	for _, c := range rand.Text()[:12] {
		v := uint64(c - 'A')
		if c >= '2' && c <= '7' {
			v = uint64(c-'2') + 26
		}
		n = n<<5 | v
	}
	return fmt.Sprintf("%06d", n%1000000)
}

// consentPost answers the consent form: request, csrf, approval_code and
// decision (approve or deny). The checks, in order: the page's own
// origin (403), the form (400), an open request (400), its CSRF token
// (403); then deny sends access_denied back, and approve takes the
// approval code or the bearer token: a wrong one shows the page again,
// the fifth ends the request with access_denied.
func (s *oauthServer) consentPost(w http.ResponseWriter, r *http.Request) {
	if why := webForeignOrigin(r, s.issuer); why != "" && webForeignOrigin(r, requestScheme(r)+"://"+r.Host) != "" {
		s.refused(r, "a consent form from another origin")
		webReply(w, http.StatusForbidden, "Refused", why)
		return
	}
	f, err := oauthForm(w, r)
	if err != nil {
		webReply(w, http.StatusBadRequest, "Bad form", "The form could not be read: "+err.Error()+".")
		return
	}
	reqID := f.Get("request")
	s.mu.Lock()
	p, ok := s.pending.lookup(reqID)
	if ok && !time.Now().Before(p.expires) {
		s.pending.delete(hashSecret(reqID))
		ok = false
	}
	s.mu.Unlock()
	switch {
	case !ok:
		s.refused(r, "a consent form of no open request")
		webReply(w, http.StatusBadRequest, "No such sign-in", "This sign-in page has expired (it works 5 minutes), was used, or took 5 wrong codes: start again from the client.")
		return
	case !hashSecret(p.csrf).matches(f.Get("csrf")):
		s.refused(r, fmt.Sprintf("a consent form for %.64q without its CSRF token", p.name))
		webReply(w, http.StatusForbidden, "Refused", "The form's token does not match this page: open the sign-in link again.")
		return
	}
	switch f.Get("decision") {
	case "deny":
		s.closeConsent(reqID)
		s.logf("denied %.64q (redirect to %s)", p.name, redirectHost(p.redirect))
		s.redirect(w, r, p.redirect, url.Values{"error": {"access_denied"}, "error_description": {"the owner declined"}, "state": {p.state}})
	case "approve":
		s.approve(w, r, f.Get("approval_code"), reqID, p)
	default:
		webReply(w, http.StatusBadRequest, "Bad form", "The form must say approve or deny.")
	}
}

// approve checks the approval code of p (or the bearer token); right, it
// sends the client its authorization code.
func (s *oauthServer) approve(w http.ResponseWriter, r *http.Request, given, reqID string, p *consentRequest) {
	digits := strings.Map(func(c rune) rune {
		if c >= '0' && c <= '9' {
			return c
		}
		return -1
	}, given)
	right := s.static.matches(strings.TrimSpace(given)) || p.code.matches(digits)
	s.mu.Lock()
	left := 0
	if !right {
		p.tries++
		left = oauthCodeTries - p.tries
	}
	s.mu.Unlock()
	switch {
	case !right && left > 0:
		s.refused(r, fmt.Sprintf("a wrong approval code for %.64q (%d tries left)", p.name, left))
		s.consentPage(w, http.StatusBadRequest, p, reqID, fmt.Sprintf("That is not the approval code ttywright printed for this sign-in: %d tries left.", left))
		return
	case !right:
		s.closeConsent(reqID)
		s.refused(r, fmt.Sprintf("5 wrong approval codes for %.64q: the sign-in is refused", p.name))
		s.redirect(w, r, p.redirect, url.Values{"error": {"access_denied"}, "error_description": {"5 wrong approval codes"}, "state": {p.state}})
		return
	}
	if !s.closeConsent(reqID) {
		webReply(w, http.StatusBadRequest, "No such sign-in", "This sign-in page was used already: start again from the client.")
		return
	}
	code, ok := s.newCode(&authCode{client: p.client, name: p.name, redirect: p.redirect, challenge: p.challenge,
		resource: p.resource, expires: time.Now().Add(oauthCodeLife)})
	if !ok {
		s.redirect(w, r, p.redirect, url.Values{"error": {"temporarily_unavailable"}, "error_description": {"too many sign-ins at once"}, "state": {p.state}})
		return
	}
	s.logf("approved %.64q (redirect to %s)", p.name, redirectHost(p.redirect))
	s.redirect(w, r, p.redirect, url.Values{"code": {code}, "state": {p.state}})
}

// closeConsent forgets a consent request; it reports whether it was open
// (two approvals racing: one wins).
func (s *oauthServer) closeConsent(reqID string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.pending.lookup(reqID)
	s.pending.delete(hashSecret(reqID))
	return ok
}

// redirect sends the browser to the client's redirect URI with params
// and iss (RFC 9207), the issuer as the client of r knows it; an empty
// state is left out.
func (s *oauthServer) redirect(w http.ResponseWriter, r *http.Request, redirect string, params url.Values) {
	u, _ := url.Parse(redirect) // checked when the client was
	q := u.Query()
	for k, v := range params {
		if v[0] != "" {
			q.Set(k, v[0])
		}
	}
	q.Set("iss", s.issuerFor(r))
	u.RawQuery = q.Encode()
	w.Header().Set("Location", u.String())
	w.WriteHeader(http.StatusSeeOther)
}

// consentData is what the consent page shows.
type consentData struct {
	Title    string
	Client   string // its name, as it gives it
	Doc      string // its metadata document's URL; "" for a registered client
	Redirect string // the host the sign-in goes to
	Grant    string // what approving grants
	Expires  string
	Request  string
	CSRF     string
	Error    string // why the page shows again
}

// consentPage writes the consent page of p, with msg when a code was
// wrong. Its CSP lets the form's redirect go to the client's redirect
// origin (form-action applies to redirects) and nowhere else; for an
// IPv6 loopback redirect, which no CSP source can name (browsers take no
// IPv6 literal there), any http origin: the form's own action stays
// 'self' and the redirect is the client's registered one.
func (s *oauthServer) consentPage(w http.ResponseWriter, status int, p *consentRequest, reqID, msg string) {
	u, _ := url.Parse(p.redirect)
	target := u.Scheme + "://" + u.Host
	if strings.HasPrefix(u.Host, "[") {
		target = "http:"
	}
	for _, h := range webSecurityHeaders {
		if h[0] == "Content-Security-Policy" {
			w.Header().Set(h[0], strings.Replace(h[1], "form-action 'self'", "form-action 'self' "+target, 1))
		}
	}
	webRender(w, status, consentTemplate, consentData{
		Title:    "Sign in to ttywright",
		Client:   webVisible(p.name, 100),
		Doc:      webVisible(p.doc, 300),
		Redirect: webVisible(u.Host, 200),
		Grant:    s.consent,
		Expires:  p.expires.Format("15:04:05 MST"),
		Request:  reqID,
		CSRF:     p.csrf,
		Error:    msg,
	})
}

// consentTemplate is the secret page's layout with the consent form.
var consentTemplate = template.Must(template.Must(webPage.Clone()).Parse(`{{define "body"}}
<p>A program asks to use this ttywright server. Approve only if you started this sign-in yourself, just now.</p>
<dl>
<dt>The client calls itself</dt><dd><code>{{.Client}}</code></dd>
{{if .Doc}}<dt>Its metadata is at</dt><dd><code>{{.Doc}}</code></dd>
{{end}}<dt>The sign-in goes to</dt><dd><code>{{.Redirect}}</code></dd>
<dt>Approving lets it</dt><dd>{{.Grant}}</dd>
<dt>This page works until</dt><dd>{{.Expires}}</dd>
</dl>
{{with .Error}}<p><strong>{{.}}</strong></p>
{{end}}<form method="post" autocomplete="off">
<input type="hidden" name="request" value="{{.Request}}">
<input type="hidden" name="csrf" value="{{.CSRF}}">
<label for="approval_code">Approval code (ttywright printed it where it runs, with this client's name; or its bearer token)</label>
<input id="approval_code" name="approval_code" type="password" autocomplete="one-time-code" autocapitalize="off" spellcheck="false" maxlength="200" autofocus>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</form>
<p class="note">The code stops anyone but you from approving: a page that someone else sent you cannot know it.</p>
{{end}}`))
