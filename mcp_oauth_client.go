package main

// mcp_oauth_client.go: the clients of the authorization server. A client
// is either registered here (RFC 7591 dynamic client registration, public
// clients only, at most oauthMaxClients kept) or names itself by an https
// URL, its Client ID Metadata Document, which ttywright fetches within
// the limits below: fetching a URL a stranger names is server-side
// request forgery's door (SECURITY.md, "OAuth"). Redirect URIs are https,
// or http on a loopback host, and are matched exactly.

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// The limits of fetching a client's metadata document.
const (
	cimdMaxBytes = 5 << 10 // bytes of the document
	cimdTimeout  = 5 * time.Second
	cimdFetches  = 4 // fetches at once; more wait their turn within the timeout
)

// oauthClient is a client as the authorization server knows it.
type oauthClient struct {
	name      string   // client_name, as the client gives it
	redirects []string // its redirect URIs, matched exactly
	doc       string   // the metadata document's URL; "" for a registered client
	used      time.Time
}

// redirectURI returns the redirect URI a request names: given, when it is
// one of the client's, or the client's only one when none is given.
func (c *oauthClient) redirectURI(given string) (string, error) {
	if given == "" {
		if len(c.redirects) == 1 {
			return c.redirects[0], nil
		}
		return "", errors.New("the request has no redirect_uri and the client has several")
	}
	if !slices.Contains(c.redirects, given) {
		return "", fmt.Errorf("the redirect_uri %.200q is not one the client registered (they are matched exactly)", given)
	}
	return given, nil
}

// checkRedirectURI refuses a redirect URI that is not https, or http on
// a loopback host (RFC 8252 §7.3), or that has a fragment or a user.
func checkRedirectURI(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("redirect URI %.200q: %v", raw, err)
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return fmt.Errorf("redirect URI %.200q has a fragment", raw)
	case u.User != nil || u.Host == "":
		return fmt.Errorf("redirect URI %.200q: give scheme://host/path, with no user", raw)
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http" && isLoopbackHost(u.Hostname()):
		return nil
	}
	return fmt.Errorf("redirect URI %.200q: give an https URL, or http on a loopback host (127.0.0.1, [::1], localhost)", raw)
}

// redirectHost is the host a redirect URI sends the code to, as the
// consent page and the log name it.
func redirectHost(redirect string) string {
	if u, err := url.Parse(redirect); err == nil {
		return u.Host
	}
	return "?"
}

// client resolves a client_id: a metadata document's https URL is
// fetched, any other id must be registered.
func (s *oauthServer) client(ctx context.Context, id string) (*oauthClient, error) {
	if strings.HasPrefix(id, "https://") {
		return s.fetch.client(ctx, id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients.lookup(id)
	if !ok {
		return nil, errors.New("the client_id is not registered here (registrations are kept for the 100 clients used last): register again at " + oauthRegisterPath + ", or use a client metadata URL")
	}
	c.used = time.Now()
	return c, nil
}

// clientMetadata is the part of RFC 7591 client metadata (and of a
// Client ID Metadata Document) that ttywright reads.
type clientMetadata struct {
	ClientID                string   `json:"client_id"`
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	ClientSecret            string   `json:"client_secret"`
}

// check validates the metadata of a public client: redirect URIs, the
// grant and response types ttywright serves; it returns the client.
func (m *clientMetadata) check() (*oauthClient, error) {
	if len(m.RedirectURIs) == 0 || len(m.RedirectURIs) > 16 {
		return nil, errors.New("give 1 to 16 redirect_uris")
	}
	for _, u := range m.RedirectURIs {
		if err := checkRedirectURI(u); err != nil {
			return nil, err
		}
	}
	for _, g := range m.GrantTypes {
		if g != "authorization_code" && g != "refresh_token" {
			return nil, fmt.Errorf("grant type %.40q: only authorization_code and refresh_token are served", g)
		}
	}
	for _, t := range m.ResponseTypes {
		if t != "code" {
			return nil, fmt.Errorf("response type %.40q: only code is served", t)
		}
	}
	name := strings.TrimSpace(m.ClientName)
	if n := utf8.RuneCountInString(name); n > 100 {
		name = string([]rune(name)[:100]) + "…"
	}
	return &oauthClient{name: name, redirects: slices.Clone(m.RedirectURIs), used: time.Now()}, nil
}

// register answers POST /oauth/register (RFC 7591): a public client's
// metadata in, its client_id out. Registrations past the global rate get
// 429; past oauthMaxClients the one used least recently and holding no
// grant is forgotten.
func (s *oauthServer) register(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "POST the client's metadata as JSON")
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "send the metadata as application/json")
		return
	}
	s.mu.Lock()
	ok, _, _ := s.registers.take(0)
	s.mu.Unlock()
	if !ok {
		s.refused(r, "a registration past the rate")
		oauthError(w, http.StatusTooManyRequests, "temporarily_unavailable", "too many registrations: wait, then retry")
		return
	}
	var m clientMetadata
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, oauthMaxBody))
	if err := dec.Decode(&m); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "the metadata is not a JSON object of at most 16 KiB: "+err.Error())
		return
	}
	c, err := m.check()
	if err == nil && m.ClientSecret != "" {
		err = errors.New("a public client has no client_secret")
	}
	if err != nil {
		code := "invalid_client_metadata"
		if strings.HasPrefix(err.Error(), "redirect URI") {
			code = "invalid_redirect_uri"
		}
		s.refused(r, "a registration: "+err.Error())
		oauthError(w, http.StatusBadRequest, code, err.Error())
		return
	}
	if c.name == "" {
		c.name = "an unnamed client"
	}
	id := rand.Text()
	s.mu.Lock()
	s.evictClientLocked()
	s.clients.add(id, c)
	s.mu.Unlock()
	s.store.changed()
	s.logf("registered client %.64q (redirect to %s)", c.name, redirectHost(c.redirects[0]))
	oauthJSON(w, http.StatusCreated, map[string]any{
		"client_id":                  id,
		"client_id_issued_at":        time.Now().Unix(),
		"client_name":                c.name,
		"redirect_uris":              c.redirects,
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": "none",
	})
}

// evictClientLocked makes room for one more registration: past
// oauthMaxClients it forgets the one used least recently that holds no
// grant (a client signed in stays, so a flood of registrations cannot
// sign it out), else the one used least recently.
func (s *oauthServer) evictClientLocked() {
	if s.clients.len() < oauthMaxClients {
		return
	}
	held := map[secretHash]bool{}
	for g := range s.grants {
		held[g.client] = true
	}
	var victim, any secretHash
	var vt, at time.Time
	for h, c := range s.clients.all() {
		if at.IsZero() || c.used.Before(at) {
			any, at = h, c.used
		}
		if !held[h] && (vt.IsZero() || c.used.Before(vt)) {
			victim, vt = h, c.used
		}
	}
	if vt.IsZero() {
		victim = any
	}
	s.clients.delete(victim)
}

// cimdFetcher fetches Client ID Metadata Documents within the limits:
// https only, no redirect followed, at most cimdMaxBytes in cimdTimeout,
// no proxy, and only to addresses cimdAddrAllowed passes (checked on the
// address dialled, so a name that resolves to one is refused too).
type cimdFetcher struct {
	turns chan struct{}
	// Tunables for tests: the address rule, the roots trusted (nil: the
	// system's, which SSL_CERT_FILE replaces) and the timeout.
	allowed func(netip.Addr) bool
	roots   *x509.CertPool
	timeout time.Duration
}

func newCIMDFetcher() *cimdFetcher {
	return &cimdFetcher{turns: make(chan struct{}, cimdFetches), allowed: cimdAddrAllowed, timeout: cimdTimeout}
}

// httpClient makes a client for one fetch, from the tunables.
func (f *cimdFetcher) httpClient() *http.Client {
	d := &net.Dialer{Timeout: f.timeout, Control: func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !f.allowed(ap.Addr().Unmap()) {
			return fmt.Errorf("the address %s is this machine's, a private network's or a metadata service's", address)
		}
		return nil
	}}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                  nil, // a proxy would dial for us, past the address rule
			DialContext:            d.DialContext,
			TLSClientConfig:        &tls.Config{RootCAs: f.roots, MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout:    f.timeout,
			ResponseHeaderTimeout:  f.timeout,
			MaxResponseHeaderBytes: 8 << 10,
			DisableKeepAlives:      true,
		},
		Timeout:       f.timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// cimdAddrAllowed reports whether a metadata document may be fetched from
// ip: not loopback, private (RFC 1918, fc00::/7, where AWS's fd00:ec2::254
// is), link-local (169.254.169.254, the cloud metadata service), shared
// (100.64.0.0/10, Alibaba's 100.100.100.200), unspecified, multicast,
// broadcast, or NAT64 (64:ff9b::/96, which may map to any of these).
func cimdAddrAllowed(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range cimdBlocked {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

var cimdBlocked = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
}

// checkURL refuses a client_id URL that cannot name a metadata
// document: not https, no path, a user, a fragment, dot segments, a
// loopback name, or an address cimdAddrAllowed refuses.
func (f *cimdFetcher) checkURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("the client_id URL: %v", err)
	case u.Scheme != "https" || u.Host == "":
		return errors.New("a client_id URL must be https")
	case u.User != nil || u.Fragment != "" || strings.Contains(raw, "#"):
		return errors.New("a client_id URL has no user and no fragment")
	case u.Path == "" || u.Path == "/" || slices.ContainsFunc(strings.Split(u.Path, "/"), func(s string) bool { return s == "." || s == ".." }):
		return errors.New("a client_id URL has a path, with no . or .. segment")
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return errors.New("the client_id URL names this machine")
	}
	if ip, err := netip.ParseAddr(host); err == nil && !f.allowed(ip) {
		return fmt.Errorf("the client_id URL's address %s is this machine's, a private network's or a metadata service's", ip)
	}
	return nil
}

// client fetches and checks the metadata document at id: the document's
// client_id must be id, the client public (token_endpoint_auth_method
// none), its redirect URIs valid.
func (f *cimdFetcher) client(ctx context.Context, id string) (*oauthClient, error) {
	if err := f.checkURL(id); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	select {
	case f.turns <- struct{}{}:
		defer func() { <-f.turns }()
	case <-ctx.Done():
		return nil, errors.New("the client's metadata document: too many fetches at once, retry")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.httpClient().Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching the client's metadata document: %v", errors.Unwrap(err))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return nil, fmt.Errorf("the client's metadata document answered %d, a redirect, which is not followed", resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("the client's metadata document answered %d", resp.StatusCode)
	case resp.ContentLength > cimdMaxBytes:
		return nil, fmt.Errorf("the client's metadata document is over %d bytes", cimdMaxBytes)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, cimdMaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the client's metadata document: %v", err)
	}
	if len(b) > cimdMaxBytes {
		return nil, fmt.Errorf("the client's metadata document is over %d bytes", cimdMaxBytes)
	}
	var m clientMetadata
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("the client's metadata document is not a JSON object: %v", err)
	}
	switch {
	case m.ClientID != id:
		return nil, fmt.Errorf("the client's metadata document names client_id %.200q, not its own URL", m.ClientID)
	case m.ClientSecret != "" || m.TokenEndpointAuthMethod != "" && m.TokenEndpointAuthMethod != "none":
		return nil, errors.New("the client's metadata document is not a public client's (token_endpoint_auth_method none, no secret)")
	}
	c, err := m.check()
	if err != nil {
		return nil, fmt.Errorf("the client's metadata document: %v", err)
	}
	c.doc = id
	if c.name == "" {
		c.name = redirectHost(id)
	}
	return c, nil
}
