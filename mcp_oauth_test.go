package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// oauthTest is a server with --http-auth=oauth (the default) and an
// OAuth client written from the RFCs, for the flows and the attacks.
type oauthTest struct {
	*httpTest
	logs *logLines
	base string // http://127.0.0.1:PORT
	iss  string // the issuer: base, or --http-public-url
	nc   *http.Client
}

// startOAuth serves a fresh App with OAuth; tune may change the server
// after the test's own settings (its log captured, the consent rate
// lifted so a test may open many pages).
func startOAuth(t *testing.T, cfg HTTPConfig, tune func(*httpMCP)) *oauthTest {
	t.Helper()
	logs := &logLines{}
	ht := startHTTP(t, cfg, func(h *httpMCP) {
		h.oauth.errlog = log.New(io.MultiWriter(logs, testWriter{t}), "", 0)
		h.oauth.consents = logLimiter{burst: 1000, rate: 1000}
		h.oauth.registers = logLimiter{burst: 1000, rate: 1000}
		if tune != nil {
			tune(h)
		}
	})
	nc := &http.Client{Timeout: ht.c.Timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	base := "http://" + ht.h.ln.Addr().String() // ht.url is --http-public-url's when given
	ht.url = base + "/mcp"
	return &oauthTest{httpTest: ht, logs: logs, base: base, iss: ht.h.oauth.issuer, nc: nc}
}

// jsonBody decodes a response's JSON object.
func jsonBody(t testing.TB, resp *http.Response) map[string]any {
	t.Helper()
	defer resp.Body.Close()
	var m map[string]any
	b, _ := io.ReadAll(resp.Body)
	if len(b) > 0 {
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%d %q: %v", resp.StatusCode, b, err)
		}
	}
	return m
}

// register registers a public client with redirects; it returns the
// status and the response.
func (ot *oauthTest) register(redirects ...string) (int, map[string]any) {
	ot.t.Helper()
	b, _ := json.Marshal(map[string]any{"client_name": "Test Client", "redirect_uris": redirects, "token_endpoint_auth_method": "none"})
	resp, err := ot.nc.Post(ot.base+oauthRegisterPath, "application/json", strings.NewReader(string(b)))
	if err != nil {
		ot.t.Fatal(err)
	}
	return resp.StatusCode, jsonBody(ot.t, resp)
}

// client registers a client whose one redirect URI is redirect.
func (ot *oauthTest) client(redirect string) string {
	ot.t.Helper()
	status, m := ot.register(redirect)
	id, _ := m["client_id"].(string)
	if status != http.StatusCreated || id == "" {
		ot.t.Fatalf("register: %d %v", status, m)
	}
	return id
}

// pkce returns a verifier and its S256 challenge.
func pkce() (verifier, challenge string) {
	verifier = rand.Text() + rand.Text()
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// authParams is a well-formed authorization request for client, changed
// by set (a value "" removes a parameter).
func authParams(client, redirect, challenge string, set map[string]string) url.Values {
	q := url.Values{"response_type": {"code"}, "client_id": {client}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"st-" + rand.Text()}}
	for k, v := range set {
		if v == "" {
			q.Del(k)
		} else {
			q.Set(k, v)
		}
	}
	return q
}

// consentPage is an open consent page: its form's fields, the approval
// code ttywright printed for it, its response.
type consentPage struct {
	request, csrf, code string
	resp                *http.Response
	body                string
}

var (
	formFieldRE    = regexp.MustCompile(`name="(request|csrf)" value="([^"]*)"`)
	approvalCodeRE = regexp.MustCompile(`approval code for .*: (\d{3}-\d{3}) `)
)

// authorize GETs the authorization endpoint with q; for a page with a
// form it reads the fields and the approval code last printed.
func (ot *oauthTest) authorize(q url.Values) *consentPage {
	ot.t.Helper()
	resp, err := ot.nc.Get(ot.base + oauthAuthorizePath + "?" + q.Encode())
	if err != nil {
		ot.t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	p := &consentPage{resp: resp, body: string(b)}
	for _, m := range formFieldRE.FindAllStringSubmatch(p.body, -1) {
		if m[1] == "request" {
			p.request = m[2]
		} else {
			p.csrf = m[2]
		}
	}
	if lines := ot.logs.matching("approval code for"); len(lines) > 0 && p.request != "" {
		if m := approvalCodeRE.FindStringSubmatch(lines[len(lines)-1]); m != nil {
			p.code = m[1]
		}
	}
	return p
}

// post sends the consent form with fields; Origin is the server's own.
func (ot *oauthTest) post(fields url.Values, hdr map[string]string) *http.Response {
	ot.t.Helper()
	req, _ := http.NewRequest("POST", ot.base+oauthAuthorizePath, strings.NewReader(fields.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", ot.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := ot.nc.Do(req)
	if err != nil {
		ot.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// answer posts p's form with code and decision.
func (ot *oauthTest) answer(p *consentPage, code, decision string) *http.Response {
	return ot.post(url.Values{"request": {p.request}, "csrf": {p.csrf}, "approval_code": {code}, "decision": {decision}}, nil)
}

// redirected returns the query of a 303's Location, failing otherwise.
func redirected(t testing.TB, resp *http.Response) url.Values {
	t.Helper()
	u, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || err != nil {
		t.Fatalf("%d, Location %q: want a 303 redirect", resp.StatusCode, resp.Header.Get("Location"))
	}
	return u.Query()
}

// code runs the authorization request q through its consent page with
// the approval code and returns the code it redirects with.
func (ot *oauthTest) code(q url.Values) string {
	ot.t.Helper()
	p := ot.authorize(q)
	if p.resp.StatusCode != 200 || p.code == "" {
		ot.t.Fatalf("consent page: %d, code %q: %s", p.resp.StatusCode, p.code, p.body)
	}
	back := redirected(ot.t, ot.answer(p, p.code, "approve"))
	if back.Get("state") != q.Get("state") || back.Get("iss") != ot.iss || back.Get("code") == "" {
		ot.t.Fatalf("redirect %v: want code, state %q and iss %q", back, q.Get("state"), ot.iss)
	}
	return back.Get("code")
}

// token POSTs form to the token endpoint.
func (ot *oauthTest) token(form url.Values) (int, map[string]any) {
	ot.t.Helper()
	resp, err := ot.nc.PostForm(ot.base+oauthTokenPath, form)
	if err != nil {
		ot.t.Fatal(err)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		ot.t.Errorf("the token endpoint's Cache-Control is %q, want no-store", cc)
	}
	return resp.StatusCode, jsonBody(ot.t, resp)
}

// signIn registers a client and runs the whole flow; it returns the
// client id and the token response.
func (ot *oauthTest) signIn(redirect string) (string, map[string]any) {
	ot.t.Helper()
	id := ot.client(redirect)
	verifier, challenge := pkce()
	code := ot.code(authParams(id, redirect, challenge, nil))
	status, tok := ot.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {id},
		"redirect_uri": {redirect}, "code_verifier": {verifier}, "resource": {ot.iss + "/mcp"}})
	if status != 200 || tok["access_token"] == nil || tok["refresh_token"] == nil {
		ot.t.Fatalf("token: %d %v", status, tok)
	}
	return id, tok
}

// ping sends a stateless server/discover with bearer ("" for none) and
// returns the status and the WWW-Authenticate header.
func (ot *oauthTest) ping(bearer string) (int, string) {
	ot.t.Helper()
	hdr := modernHeaders("server/discover", "")
	if hdr["-Authorization"] = ""; bearer != "" {
		delete(hdr, "-Authorization")
		hdr["Authorization"] = "Bearer " + bearer
	}
	resp := ot.do("POST", modernBody(1, "server/discover", nil), hdr)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
}

// TestOAuthMetadata: the discovery documents (RFC 9728, RFC 8414 and
// the OpenID path) and the 401's pointer to them.
func TestOAuthMetadata(t *testing.T) {
	t.Parallel()
	ot := startOAuth(t, HTTPConfig{}, nil)
	for _, path := range []string{oauthResourcePath, oauthResourcePath + "/mcp"} {
		resp, err := ot.nc.Get(ot.base + path)
		if err != nil {
			t.Fatal(err)
		}
		m := jsonBody(t, resp)
		if resp.StatusCode != 200 || m["resource"] != ot.url || fmt.Sprint(m["authorization_servers"]) != "["+ot.base+"]" ||
			fmt.Sprint(m["bearer_methods_supported"]) != "[header]" || m["scopes_supported"] == nil {
			t.Errorf("%s: %d %v", path, resp.StatusCode, m)
		}
	}
	for _, path := range []string{oauthServerPath, oauthOpenIDPath} {
		resp, err := ot.nc.Get(ot.base + path)
		if err != nil {
			t.Fatal(err)
		}
		m := jsonBody(t, resp)
		for k, want := range map[string]string{
			"issuer": ot.base, "authorization_endpoint": ot.base + oauthAuthorizePath, "token_endpoint": ot.base + oauthTokenPath,
			"registration_endpoint": ot.base + oauthRegisterPath, "revocation_endpoint": ot.base + oauthRevokePath,
			"response_types_supported": "[code]", "grant_types_supported": "[authorization_code refresh_token]",
			"code_challenge_methods_supported": "[S256]", "token_endpoint_auth_methods_supported": "[none]",
			"client_id_metadata_document_supported": "true", "authorization_response_iss_parameter_supported": "true",
		} {
			if got := fmt.Sprint(m[k]); got != want {
				t.Errorf("%s: %s is %s, want %s", path, k, got, want)
			}
		}
	}
	for _, tc := range []struct {
		name, bearer string
		err          bool
	}{{"no token", "", false}, {"a wrong token", "nope-nope-nope-nope-nope-nope-nope", true}} {
		status, www := ot.ping(tc.bearer)
		if status != 401 || !strings.Contains(www, `resource_metadata="`+ot.base+oauthResourcePath+`/mcp"`) || strings.Contains(www, "invalid_token") != tc.err {
			t.Errorf("%s: %d %q", tc.name, status, www)
		}
	}
}

// TestOAuthFlow: a registered client signs in (the consent page, the
// approval code, the code, the tokens), its access token reaches /mcp,
// the static token still does, a refresh rotates, revocation ends it;
// the log names each step and holds no token or code.
func TestOAuthFlow(t *testing.T) {
	t.Parallel()
	ot := startOAuth(t, HTTPConfig{}, nil)
	const redirect = "http://127.0.0.1:9/callback"
	id, tok := ot.signIn(redirect)
	access, refresh := tok["access_token"].(string), tok["refresh_token"].(string)
	if tok["token_type"] != "Bearer" || tok["expires_in"] != 3600.0 || len(access) != 52 {
		t.Errorf("token response %v", tok)
	}
	if st, _ := ot.ping(access); st != 200 {
		t.Errorf("the access token: %d", st)
	}
	if st, _ := ot.ping(ot.httpTest.token); st != 200 {
		t.Errorf("the static token next to OAuth: %d", st)
	}
	status, tok2 := ot.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {id}})
	access2, refresh2 := tok2["access_token"].(string), tok2["refresh_token"].(string)
	if status != 200 || access2 == "" || refresh2 == refresh {
		t.Fatalf("refresh: %d %v", status, tok2)
	}
	if st, _ := ot.ping(access2); st != 200 {
		t.Errorf("the refreshed access token: %d", st)
	}
	resp, _ := ot.nc.PostForm(ot.base+oauthRevokePath, url.Values{"token": {refresh2}, "client_id": {id}})
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("revoke: %d", resp.StatusCode)
	}
	for _, a := range []string{access, access2} {
		if st, www := ot.ping(a); st != 401 || !strings.Contains(www, "invalid_token") {
			t.Errorf("a revoked grant's access token: %d %q", st, www)
		}
	}
	for _, want := range []string{"registered client \"Test Client\"", "approved \"Test Client\"", "granted \"Test Client\" (redirect to 127.0.0.1:9)",
		"refreshed \"Test Client\"", "revoked the grant of \"Test Client\""} {
		if len(ot.logs.matching(want)) != 1 {
			t.Errorf("the log has no line %q", want)
		}
	}
	ot.logs.mu.Lock()
	all := strings.Join(ot.logs.lines, "\n")
	ot.logs.mu.Unlock()
	for _, secret := range []string{access, refresh, access2, refresh2, id} {
		if strings.Contains(all, secret) {
			t.Errorf("the log holds a token or a client id: %q", secret)
		}
	}
}

// TestOAuthGrantsFile: with --http-token-file the grants outlive a
// restart at the same public URL, in a 0600 file that holds no token;
// at another public URL the same tokens are for another resource and
// refused.
func TestOAuthGrantsFile(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "token")
	const redirect = "https://client.example/cb"
	a := startOAuth(t, HTTPConfig{TokenFile: file, PublicURL: "http://localhost"}, nil)
	id, tok := a.signIn(redirect)
	access, refresh := tok["access_token"].(string), tok["refresh_token"].(string)
	a.h.Close()
	fi, err := os.Stat(file + ".grants")
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the grants file: %v %v", fi, err)
	}
	b, _ := os.ReadFile(file + ".grants")
	for _, secret := range []string{access, refresh, id} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the grants file holds a token or a client id")
		}
	}

	b2 := startOAuth(t, HTTPConfig{TokenFile: file, PublicURL: "http://localhost"}, nil)
	if st, _ := b2.ping(access); st != 200 {
		t.Errorf("after a restart, the access token: %d", st)
	}
	st, m := b2.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {id}})
	if st != 200 {
		t.Fatalf("after a restart, the refresh: %d %v", st, m)
	}
	access, refresh = m["access_token"].(string), m["refresh_token"].(string)
	b2.h.Close()

	c := startOAuth(t, HTTPConfig{TokenFile: file, PublicURL: "http://127.0.0.1"}, nil)
	if st, www := c.ping(access); st != 401 || !strings.Contains(www, "invalid_token") {
		t.Errorf("a token for another resource: %d %q", st, www)
	}
	if st, m := c.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}, "client_id": {id}}); st != 400 || m["error"] != "invalid_grant" {
		t.Errorf("a refresh token for another resource: %d %v", st, m)
	}
}

// TestOAuthPublicURL: --http-public-url's checks, and the issuer, the
// served name and the origin it makes.
func TestOAuthPublicURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, want string }{
		{"https://abc.trycloudflare.com", ""},
		{"https://abc.trycloudflare.com/", ""},
		{"http://localhost:8765", ""},
		{"http://abc.trycloudflare.com", "https"},
		{"https://*.trycloudflare.com", "wildcard"},
		{"https://abc.trycloudflare.com/mcp", "no path"},
		{"https://abc.trycloudflare.com/?x=1", "scheme://host"},
		{"https://user@abc.trycloudflare.com", "scheme://host"},
		{"abc.trycloudflare.com", "https"},
	} {
		err := (&HTTPConfig{Addr: "127.0.0.1:0", PublicURL: tc.url}).validate()
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.url, err, tc.want)
		}
	}
	if err := (&HTTPConfig{Addr: "127.0.0.1:0", Auth: "none", PublicURL: "https://a.example"}).validate(); err == nil {
		t.Error("--http-public-url with --http-auth=none was accepted")
	}
	ot := startOAuth(t, HTTPConfig{PublicURL: "https://Abc.Example/"}, nil)
	if ot.h.oauth.resource != "https://abc.example/mcp" || ot.iss != "https://abc.example" {
		t.Errorf("resource %q, issuer %q", ot.h.oauth.resource, ot.iss)
	}
	if !ot.h.hostServed("abc.example", "http") || !ot.h.originAllowed("https://abc.example", httptest.NewRequest("POST", "/mcp", nil)) {
		t.Error("the public URL's name is not served, or its origin not allowed")
	}
}

// TestOAuthLoopbackAliases: a client that reaches a server listening on
// 127.0.0.1 as localhost gets the metadata in that name (a client checks
// that it names the URL it used), its resource parameter is taken, and
// its token reaches the server by either name.
func TestOAuthLoopbackAliases(t *testing.T) {
	t.Parallel()
	ot := startOAuth(t, HTTPConfig{}, nil)
	alias := strings.Replace(ot.base, "127.0.0.1", "localhost", 1)
	get := func(path string) map[string]any {
		req, _ := http.NewRequest("GET", ot.base+path, nil)
		req.Host = strings.TrimPrefix(alias, "http://")
		resp, err := ot.nc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return jsonBody(t, resp)
	}
	if m := get(oauthResourcePath + "/mcp"); m["resource"] != alias+"/mcp" || fmt.Sprint(m["authorization_servers"]) != "["+alias+"]" {
		t.Errorf("resource metadata by localhost: %v", m)
	}
	if m := get(oauthServerPath); m["issuer"] != alias || m["token_endpoint"] != alias+oauthTokenPath {
		t.Errorf("server metadata by localhost: %v", m)
	}
	if o := ot.h.oauth; !o.isResource(alias+"/mcp") || !o.isResource(ot.base+"/mcp") || o.isResource("http://localhost:1/mcp") || o.isResource("http://evil.example"+strings.TrimPrefix(ot.base, "http://127.0.0.1")+"/mcp") {
		t.Error("isResource: want the server's origin and its loopback aliases on its port only")
	}
}
