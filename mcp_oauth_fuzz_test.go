package main

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzOAuthRequest sends any method, query, body and content type to
// each OAuth endpoint: nothing panics or answers 5xx, the JSON endpoints
// answer JSON (an error object past 400), and a redirect goes only to a
// registered redirect URI.
func FuzzOAuthRequest(f *testing.F) {
	const client, redirect = "fuzz-client", "http://127.0.0.1:9/cb"
	_, challenge := pkce()
	good := authParams(client, redirect, challenge, nil).Encode()
	for i, seed := range []struct{ method, query, body, ct string }{
		{"GET", good, "", ""},
		{"GET", good + "&resource=https%3A%2F%2Fother.example", "", ""},
		{"GET", "client_id=https%3A%2F%2F169.254.169.254%2Fx&redirect_uri=x", "", ""},
		{"GET", "client_id=" + client + "&client_id=x", "", ""},
		{"POST", "", "request=x&csrf=y&approval_code=123-456&decision=approve", "application/x-www-form-urlencoded"},
		{"POST", "", "grant_type=authorization_code&code=x&client_id=" + client + "&code_verifier=" + strings.Repeat("a", 43), "application/x-www-form-urlencoded"},
		{"POST", "", "grant_type=refresh_token&refresh_token=x&client_id=" + client, "application/x-www-form-urlencoded"},
		{"POST", "", `{"redirect_uris":["https://a.example/cb"],"client_name":"x"}`, "application/json"},
		{"POST", "", "token=x&token_type_hint=refresh_token", "application/x-www-form-urlencoded"},
		{"PUT", "a=%zz", "\x00", "text/plain"},
	} {
		for p := range oauthFuzzPaths {
			if i%2 == p%2 || i < 4 {
				f.Add(uint8(p), seed.method, seed.query, seed.body, seed.ct)
			}
		}
	}
	dir := f.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(fuzzToken), 0o600); err != nil {
		f.Fatal(err)
	}
	app := newApp(Config{Theme: "one-dark", Cols: 20, Rows: 4, Scale: 1, MaxSessions: 2, OutputDir: dir})
	h, err := newHTTPMCP(HTTPConfig{Addr: "127.0.0.1:0", TokenFile: tokenFile}, app.newServer, log.New(io.Discard, "", 0))
	if err != nil {
		f.Fatal(err)
	}
	h.hosts, h.port = map[string]bool{"127.0.0.1": true}, "1"
	h.oauth.setIssuer("http://127.0.0.1:1")
	h.oauth.clients.add(client, &oauthClient{name: "fuzz", redirects: []string{redirect}})
	// No fetch ever gets a turn: a client_id URL the fuzzer makes up is
	// refused before any name is resolved, so it reaches no network.
	h.oauth.fetch.turns, h.oauth.fetch.timeout = make(chan struct{}), time.Millisecond
	f.Cleanup(func() { h.Close(); app.shutdown() })
	f.Fuzz(func(t *testing.T, path uint8, method, query, body, ct string) {
		p := oauthFuzzPaths[int(path)%len(oauthFuzzPaths)]
		r, err := http.NewRequest(method, "http://127.0.0.1:1"+p, strings.NewReader(body))
		if err != nil {
			return // net/http would not parse such a request line
		}
		r.URL.RawQuery = url.PathEscape(query)
		if u, err := url.ParseQuery(query); err == nil {
			r.URL.RawQuery = u.Encode()
		}
		r.Header.Set("Content-Type", ct)
		r.RemoteAddr = "127.0.0.1:4242"
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r.WithContext(ctx))
		checkOAuthResponse(t, p, w.Result(), redirect)
	})
}

var oauthFuzzPaths = []string{oauthAuthorizePath, oauthTokenPath, oauthRegisterPath, oauthRevokePath, oauthResourcePath, oauthServerPath}

// checkOAuthResponse fails t on a 5xx, a JSON endpoint's answer that is
// no JSON object (with "error" past 400), or a redirect anywhere but to
// redirect.
func checkOAuthResponse(t *testing.T, path string, resp *http.Response, redirect string) {
	t.Helper()
	b, _ := io.ReadAll(resp.Body)
	ct := resp.Header.Get("Content-Type")
	switch {
	case resp.StatusCode >= 500:
		t.Fatalf("%s: %d %q", path, resp.StatusCode, b)
	case resp.StatusCode == http.StatusSeeOther:
		if loc := resp.Header.Get("Location"); path != oauthAuthorizePath || !strings.HasPrefix(loc, redirect+"?") {
			t.Fatalf("%s: a redirect to %q", path, loc)
		}
	case path == oauthAuthorizePath:
		if !strings.HasPrefix(ct, "text/html") && resp.StatusCode != http.StatusNotFound {
			t.Fatalf("%s: %d with Content-Type %q", path, resp.StatusCode, ct)
		}
	case path == oauthRevokePath && resp.StatusCode == 200 && len(b) == 0:
	case ct != "application/json":
		t.Fatalf("%s: %d with Content-Type %q: %q", path, resp.StatusCode, ct, b)
	case resp.StatusCode >= 400 && !strings.Contains(string(b), `"error"`):
		t.Fatalf("%s: %d without an error: %q", path, resp.StatusCode, b)
	}
}

// BenchmarkOAuthTokenCheck: the check of one request's bearer token on
// /mcp (httpAuth.check): the static token, an OAuth access token among
// oauthMaxGrants grants, and a wrong token (its failure counted).
func BenchmarkOAuthTokenCheck(b *testing.B) {
	ht := startHTTP(b, HTTPConfig{}, nil)
	s := ht.h.oauth
	var access string
	s.mu.Lock()
	for range oauthMaxGrants {
		g := &oauthGrant{resource: s.resource}
		s.grants[g] = true
		access = s.issueLocked(g)["access_token"].(string)
	}
	s.mu.Unlock()
	ht.h.auth.fails["192.0.2.1"] = &logLimiter{burst: 1e12, rate: 1e12}
	ht.h.auth.all = logLimiter{burst: 1e12, rate: 1e12}
	ht.h.auth.errlog = log.New(io.Discard, "", 0)
	for _, tc := range []struct{ name, token string }{{"static", ht.token}, {"access", access}, {"wrong", strings.Repeat("A", 52)}} {
		b.Run(tc.name, func(b *testing.B) {
			r := httptest.NewRequest("POST", "/mcp", nil)
			r.RemoteAddr = "192.0.2.1:1"
			r.Header.Set("Authorization", "Bearer "+tc.token)
			want := tc.name != "wrong"
			for b.Loop() {
				if st, _ := ht.h.auth.check(r, ""); (st == 0) != want {
					b.Fatalf("status %d", st)
				}
			}
		})
	}
}
