package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// metadataServer is an https server on 127.0.0.2 (a loopback address the
// attack test's fetcher is let reach; 127.0.0.1 stays refused) serving
// client metadata documents, a redirect, a 10 MB document and one that
// never answers.
type metadataServer struct {
	srv   *httptest.Server
	roots *x509.CertPool
	base  string // https://127.0.0.2:PORT
}

func startMetadataServer(t *testing.T, redirect string) *metadataServer {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.2")},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	ms := &metadataServer{roots: x509.NewCertPool()}
	ms.roots.AddCert(cert)
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2 here: %v", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/client.json", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"client_id": ms.base + "/client.json", "client_name": "Metadata Client",
			"redirect_uris": []string{redirect}, "token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}})
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/client.json", http.StatusFound) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		for range 10 << 10 {
			if _, err := w.Write(make([]byte, 1024)); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	ms.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: mux}}
	ms.srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: k}}}
	ms.srv.StartTLS()
	ms.base = "https://" + ln.Addr().String()
	t.Cleanup(ms.srv.Close)
	return ms
}

// trustMetadataServer lets h's fetcher reach ms: its address and its CA.
func trustMetadataServer(h *httpMCP, ms *metadataServer) {
	f := h.oauth.fetch
	f.roots, f.timeout = ms.roots, 500*time.Millisecond
	f.allowed = func(ip netip.Addr) bool { return ip == netip.MustParseAddr("127.0.0.2") || cimdAddrAllowed(ip) }
}

var pageTitleRE = regexp.MustCompile(`<h1>([^<]*)</h1>`)

// outcome is what a refusal looked like: the status and the OAuth error
// (of a JSON body, of a redirect's query), or a page's title.
func outcome(status int, body map[string]any, resp *http.Response, page string) string {
	switch {
	case resp != nil && resp.StatusCode == http.StatusSeeOther:
		u, _ := url.Parse(resp.Header.Get("Location"))
		return fmt.Sprintf("%d %s", resp.StatusCode, u.Query().Get("error"))
	case body != nil:
		return fmt.Sprintf("%d %v", status, body["error"])
	}
	title := ""
	if m := pageTitleRE.FindStringSubmatch(page); m != nil {
		title = m[1]
	}
	return fmt.Sprintf("%d %s", status, title)
}

// TestOAuthAttacks: each attack on the authorization server is refused
// with its status and error, while a client with the bearer token keeps
// being answered (the pinger's p99 is logged).
func TestOAuthAttacks(t *testing.T) {
	const redirect = "http://127.0.0.1:9/callback"
	ms := startMetadataServer(t, redirect)
	ot := startOAuth(t, HTTPConfig{}, func(h *httpMCP) { trustMetadataServer(h, ms) })
	id := ot.client(redirect)
	exchange := func(code, verifier string) (int, map[string]any) {
		return ot.token(url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {id}, "redirect_uri": {redirect}, "code_verifier": {verifier}})
	}
	authorizeWith := func(set map[string]string) string {
		_, challenge := pkce()
		p := ot.authorize(authParams(id, redirect, challenge, set))
		return outcome(p.resp.StatusCode, nil, p.resp, p.body)
	}
	cimd := func(path string) string {
		_, challenge := pkce()
		p := ot.authorize(authParams(path, redirect, challenge, nil))
		return outcome(p.resp.StatusCode, nil, p.resp, p.body)
	}
	attacks := []struct {
		name string
		run  func() string
		want string
	}{
		{"no PKCE", func() string {
			return authorizeWith(map[string]string{"code_challenge": "", "code_challenge_method": ""})
		}, "303 invalid_request"},
		{"PKCE plain", func() string {
			return authorizeWith(map[string]string{"code_challenge": strings.Repeat("a", 43), "code_challenge_method": "plain"})
		}, "303 invalid_request"},
		{"a wrong verifier", func() string {
			_, challenge := pkce()
			other, _ := pkce()
			st, m := exchange(ot.code(authParams(id, redirect, challenge, nil)), other)
			return outcome(st, m, nil, "")
		}, "400 invalid_grant"},
		{"a reused code, whose tokens it then revokes", func() string {
			verifier, challenge := pkce()
			code := ot.code(authParams(id, redirect, challenge, nil))
			st, first := exchange(code, verifier)
			if st != 200 {
				return outcome(st, first, nil, "")
			}
			st, m := exchange(code, verifier)
			if st2, _ := ot.ping(first["access_token"].(string)); st2 != 401 {
				return fmt.Sprintf("the first exchange's access token still works: %d", st2)
			}
			return outcome(st, m, nil, "")
		}, "400 invalid_grant"},
		{"a redirect URI one character off", func() string { return authorizeWith(map[string]string{"redirect_uri": redirect + "x"}) }, "400 Wrong redirect address"},
		{"an open redirect", func() string { return authorizeWith(map[string]string{"redirect_uri": "https://evil.example/cb"}) }, "400 Wrong redirect address"},
		{"registering an http redirect off loopback", func() string {
			st, m := ot.register("http://evil.example/cb")
			return outcome(st, m, nil, "")
		}, "400 invalid_redirect_uri"},
		{"a resource for another server", func() string { return authorizeWith(map[string]string{"resource": "https://other.example/mcp"}) }, "303 invalid_target"},
		{"a token request for another resource", func() string {
			st, m := ot.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"x"}, "client_id": {id}, "resource": {"https://other.example/mcp"}})
			return outcome(st, m, nil, "")
		}, "400 invalid_target"},
		{"a reused refresh token, whose grant it then revokes", func() string {
			cid, tok := ot.signIn(redirect)
			old := tok["refresh_token"].(string)
			st, m := ot.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old}, "client_id": {cid}})
			if st != 200 {
				return outcome(st, m, nil, "")
			}
			st, m2 := ot.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old}, "client_id": {cid}})
			if st2, m3 := ot.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {m["refresh_token"].(string)}, "client_id": {cid}}); st2 != 400 {
				return "the rotated token still works: " + outcome(st2, m3, nil, "")
			}
			if st3, _ := ot.ping(m["access_token"].(string)); st3 != 401 {
				return fmt.Sprintf("the grant's access token still works: %d", st3)
			}
			return outcome(st, m2, nil, "")
		}, "400 invalid_grant"},
		{"a flood of bad refresh tokens naming a client, which then refreshes", func() string {
			cid, tok := ot.signIn(redirect)
			st, m := 0, map[string]any(nil)
			for range 2 * oauthClientBurst {
				st, m = ot.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"garbage"}, "client_id": {cid}})
			}
			if st != 429 {
				return "the flood was never slowed: " + outcome(st, m, nil, "")
			}
			st, m = ot.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {cid}})
			if st == 200 {
				return "refreshed"
			}
			return outcome(st, m, nil, "")
		}, "refreshed"},
		{"a token request with no grant_type", func() string {
			st, m := ot.token(url.Values{"client_id": {id}})
			return outcome(st, m, nil, "")
		}, "400 invalid_request"},
		{"a refresh token of another client", func() string {
			_, tok := ot.signIn(redirect)
			st, m := ot.token(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {id}})
			return outcome(st, m, nil, "")
		}, "400 invalid_grant"},
		{"consent without the CSRF token", func() string {
			_, challenge := pkce()
			p := ot.authorize(authParams(id, redirect, challenge, nil))
			resp := ot.post(url.Values{"request": {p.request}, "approval_code": {p.code}, "decision": {"approve"}}, nil)
			return outcome(resp.StatusCode, nil, nil, "Refused")
		}, "403 "},
		{"consent from another site", func() string {
			_, challenge := pkce()
			p := ot.authorize(authParams(id, redirect, challenge, nil))
			resp := ot.post(url.Values{"request": {p.request}, "csrf": {p.csrf}, "approval_code": {p.code}, "decision": {"approve"}},
				map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
			return outcome(resp.StatusCode, nil, nil, "")
		}, "403 "},
		{"the consent page in a frame", func() string {
			_, challenge := pkce()
			p := ot.authorize(authParams(id, redirect, challenge, nil))
			h := p.resp.Header
			if h.Get("X-Frame-Options") != "DENY" || !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				return "framable: " + fmt.Sprint(h)
			}
			return "DENY, frame-ancestors 'none'"
		}, "DENY, frame-ancestors 'none'"},
		{"6 wrong approval codes", func() string {
			_, challenge := pkce()
			p := ot.authorize(authParams(id, redirect, challenge, nil))
			wrong := "000-000"
			if p.code == wrong {
				wrong = "000-001"
			}
			var got []string
			for range 6 {
				resp := ot.answer(p, wrong, "approve")
				got = append(got, outcome(resp.StatusCode, nil, resp, ""))
			}
			if resp := ot.answer(p, p.code, "approve"); resp.StatusCode != 400 {
				return "the right code after 5 wrong ones: " + outcome(resp.StatusCode, nil, resp, "")
			}
			return strings.Join(got, ", ")
		}, "400 , 400 , 400 , 400 , 303 access_denied, 400 "},
		{"a client metadata URL at 127.0.0.1", func() string { return cimd("https://127.0.0.1:1/client.json") }, "400 Unknown client"},
		{"a client metadata URL at 169.254.169.254", func() string { return cimd("https://169.254.169.254/latest/meta-data") }, "400 Unknown client"},
		{"a client metadata URL naming localhost", func() string { return cimd("https://localhost/client.json") }, "400 Unknown client"},
		{"a client metadata URL over http", func() string { return cimd("http://example.com/client.json") }, "400 Unknown client"},
		{"a client metadata URL that redirects", func() string { return cimd(ms.base + "/redirect") }, "400 Unknown client"},
		{"a 10 MB client metadata document", func() string { return cimd(ms.base + "/big") }, "400 Unknown client"},
		{"a client metadata server that never answers", func() string { return cimd(ms.base + "/slow") }, "400 Unknown client"},
	}
	p := startPinger(ot.httpTest)
	for _, a := range attacks {
		start := time.Now()
		if got := a.run(); got != a.want {
			t.Errorf("%s: %s, want %s", a.name, got, a.want)
		} else {
			t.Logf("%s: refused, %s (%v)", a.name, got, time.Since(start).Round(time.Millisecond))
		}
	}
	p.finish(t, "the OAuth attacks")

	t.Run("10,000 registrations", func(t *testing.T) {
		_, tok := ot.signIn(redirect) // a client signed in before the flood
		ot.h.oauth.mu.Lock()
		ot.h.oauth.registers = logLimiter{burst: oauthRegisterBurst, rate: oauthRegisterRate}
		ot.h.oauth.mu.Unlock()
		p := startPinger(ot.httpTest)
		counts := map[int]int{}
		for range 10000 {
			st, _ := ot.register("https://flood.example/cb")
			counts[st]++
		}
		p.finish(t, "10,000 registrations")
		ot.h.oauth.mu.Lock()
		kept := ot.h.oauth.clients.len()
		ot.h.oauth.mu.Unlock()
		t.Logf("10,000 registrations: %v, %d kept", counts, kept)
		if counts[201]+counts[429] != 10000 || counts[429] < 9000 || kept > oauthMaxClients {
			t.Errorf("statuses %v, %d registrations kept (at most %d)", counts, kept, oauthMaxClients)
		}
		if st, _ := ot.ping(tok["access_token"].(string)); st != 200 {
			t.Errorf("the client signed in before the flood: %d", st)
		}
	})
}

// TestOAuthClientMetadataDocument: a client named by its metadata
// document's https URL signs in; a document that names another
// client_id, a secret or a bad redirect URI is refused.
func TestOAuthClientMetadataDocument(t *testing.T) {
	t.Parallel()
	const redirect = "http://127.0.0.1:9/cb"
	ms := startMetadataServer(t, redirect)
	ot := startOAuth(t, HTTPConfig{}, func(h *httpMCP) { trustMetadataServer(h, ms) })
	id := ms.base + "/client.json"
	verifier, challenge := pkce()
	p := ot.authorize(authParams(id, redirect, challenge, nil))
	if !strings.Contains(p.body, "Metadata Client") || !strings.Contains(p.body, id) || !strings.Contains(p.body, "127.0.0.1:9") {
		t.Errorf("the consent page does not name the client, its document and its redirect host:\n%s", p.body)
	}
	if csp := p.resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' http://127.0.0.1:9;") {
		t.Errorf("CSP %q: the form's redirect must be let go to the client's origin only", csp)
	}
	back := redirected(t, ot.answer(p, p.code, "approve"))
	st, tok := ot.token(url.Values{"grant_type": {"authorization_code"}, "code": {back.Get("code")}, "client_id": {id}, "redirect_uri": {redirect}, "code_verifier": {verifier}})
	if st != 200 {
		t.Fatalf("token: %d %v", st, tok)
	}
	if st, _ := ot.ping(tok["access_token"].(string)); st != 200 {
		t.Errorf("the metadata client's access token: %d", st)
	}
	for _, tc := range []struct {
		doc  map[string]any
		want string
	}{
		{map[string]any{"client_id": "https://other.example/c.json", "redirect_uris": []string{redirect}}, "not its own URL"},
		{map[string]any{"redirect_uris": []string{redirect}, "client_secret": "s"}, "not a public client"},
		{map[string]any{"redirect_uris": []string{"http://evil.example/cb"}}, "http on a loopback host"},
		{map[string]any{"redirect_uris": []string{}}, "redirect_uris"},
	} {
		if _, ok := tc.doc["client_id"]; !ok {
			tc.doc["client_id"] = id
		}
		c, err := fetchDoc(t, tc.doc)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v %v, want an error with %q", tc.doc, c, err, tc.want)
		}
	}
}

// fetchDoc serves doc over https at a URL that becomes its client_id
// (unless it names other.example) and fetches it as a client's.
func fetchDoc(t *testing.T, doc map[string]any) (*oauthClient, error) {
	t.Helper()
	b, _ := json.Marshal(doc)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(b) }))
	defer srv.Close()
	f := newCIMDFetcher()
	f.allowed = func(netip.Addr) bool { return true }
	f.roots = x509.NewCertPool()
	f.roots.AddCert(srv.Certificate())
	id := srv.URL + "/client.json"
	if doc["client_id"] != "https://other.example/c.json" {
		doc["client_id"] = id
		b, _ = json.Marshal(doc)
	}
	return f.client(t.Context(), id)
}

// TestCIMDAddrAllowed: the addresses a metadata document may come from.
func TestCIMDAddrAllowed(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{
		"127.0.0.1": false, "127.0.0.2": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "fe80::1": false, "fd00:ec2::254": false, "100.100.100.200": false, "0.0.0.0": false,
		"::": false, "224.0.0.1": false, "::ffff:127.0.0.1": false, "::ffff:169.254.169.254": false, "64:ff9b::a9fe:a9fe": false,
		"255.255.255.255": false, "8.8.8.8": true, "2606:4700::1111": true, "192.0.2.1": true,
	} {
		if got := cimdAddrAllowed(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: %v, want %v", addr, got, want)
		}
	}
}

// TestOAuthConsentCSP: the consent page's form may redirect to the
// client's redirect origin only, and for an IPv6 loopback redirect, which
// no CSP source can name, to http origins.
func TestOAuthConsentCSP(t *testing.T) {
	t.Parallel()
	ot := startOAuth(t, HTTPConfig{}, nil)
	for redirect, want := range map[string]string{
		"http://127.0.0.1:9/cb": "form-action 'self' http://127.0.0.1:9;",
		"http://localhost:9/cb": "form-action 'self' http://localhost:9;",
		"http://[::1]:9/cb":     "form-action 'self' http:;",
	} {
		_, challenge := pkce()
		p := ot.authorize(authParams(ot.client(redirect), redirect, challenge, nil))
		if csp := p.resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, want) {
			t.Errorf("%s: CSP %q, want %q", redirect, csp, want)
		}
	}
}
