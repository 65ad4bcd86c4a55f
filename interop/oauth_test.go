package interop

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

var consentFieldRE = regexp.MustCompile(`name="(request|csrf)" value="([^"]*)"`)

// owner plays the person at ttywright's consent page without a browser:
// it opens authURL, reads the approval code ttywright printed, answers
// the form with decision (approve or deny) and returns where the page
// sends the browser back.
func (hs *httpServer) owner(ctx context.Context, authURL, decision string) (*url.URL, error) {
	nc := &http.Client{Timeout: waitTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequestWithContext(ctx, "GET", authURL, nil)
	resp, err := nc.Do(req)
	if err != nil {
		return nil, err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{"decision": {decision}}
	for _, m := range consentFieldRE.FindAllStringSubmatch(string(page), -1) {
		form.Set(m[1], m[2])
	}
	if resp.StatusCode != 200 || form.Get("request") == "" {
		return nil, fmt.Errorf("the consent page: %d %s", resp.StatusCode, page)
	}
	select {
	case code := <-hs.approvals:
		form.Set("approval_code", code)
	case <-time.After(waitTimeout):
		return nil, errors.New("no approval code on stderr")
	}
	u, _ := url.Parse(authURL)
	origin := u.Scheme + "://" + u.Host
	req, _ = http.NewRequestWithContext(ctx, "POST", origin+u.Path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", origin)
	resp, err = nc.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("the consent form: %d", resp.StatusCode)
	}
	return url.Parse(resp.Header.Get("Location"))
}

// revoke revokes token at the server's /oauth/revoke.
func (hs *httpServer) revoke(t *testing.T, token string) {
	t.Helper()
	resp, err := http.PostForm(strings.TrimSuffix(hs.url, "/mcp")+"/oauth/revoke", url.Values{"token": {token}})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("revoke: %v %v", resp, err)
	}
	resp.Body.Close()
}

// TestOAuthGoSDK: the Go SDK's OAuth client (auth.AuthorizationCodeHandler,
// dynamic client registration) signs in to ttywright --http, whose owner
// approves with the approval code; the client runs the whole story,
// refreshes its token, and after its grant is revoked is refused (the
// owner denies the next sign-in).
func TestOAuthGoSDK(t *testing.T) {
	t.Parallel()
	needProgram(t, "bash")
	start := time.Now()
	hs := startHTTPBinary(t)
	decision := "approve"
	const redirect = "http://127.0.0.1:1/callback" // the owner reads the code from the redirect; nothing listens
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Go SDK interop", RedirectURIs: []string{redirect}, GrantTypes: []string{"authorization_code", "refresh_token"},
			TokenEndpointAuthMethod: "none"}},
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			back, err := hs.owner(ctx, args.URL, decision)
			if err != nil {
				return nil, err
			}
			q := back.Query()
			if q.Get("error") != "" {
				return nil, fmt.Errorf("sign-in refused: %s", q.Get("error"))
			}
			return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
		},
		// The first token comes expired, so the SDK's token source
		// refreshes it before its first use.
		NewTokenSource: func(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			old := *tok
			old.Expiry = time.Now().Add(-time.Minute)
			return cfg.TokenSource(ctx, &old), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, updates: make(chan string, 256), listed: make(chan struct{}, 256)}
	client := mcp.NewClient(&mcp.Implementation{Name: "ttywright-interop-oauth", Version: "1.0.0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case s.updates <- r.Params.URI:
			default:
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitTimeout)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, OAuthHandler: h}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, hs.stderr.String())
	}
	s.cs = cs
	defer cs.Close()
	httpStory(t, s)
	for _, line := range []string{`granted "Go SDK interop"`, `refreshed "Go SDK interop"`} {
		if !strings.Contains(hs.stderr.String(), line) {
			t.Errorf("stderr has no %q", line)
		}
	}

	ts, _ := h.TokenSource(ctx)
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	hs.revoke(t, tok.RefreshToken)
	decision = "deny"
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shell_read", Arguments: map[string]any{"session_id": "1"}}); err == nil || !strings.Contains(err.Error(), "access_denied") {
		t.Errorf("a call after the grant was revoked and the owner denied: %v", err)
	}
	t.Logf("the Go SDK's OAuth client: signed in, the story, a refresh, refused after revocation in %v", time.Since(start).Round(time.Millisecond))
}

// TestOAuthConformance runs the conformance suite's authorization server
// scenarios (its metadata endpoint, and the authorization code grant,
// whose browser step the owner plays) against ttywright --http, with a
// client registered for the suite's callback; every check must pass.
func TestOAuthConformance(t *testing.T) {
	t.Parallel()
	node := conformanceNode(t)
	start := time.Now()
	hs := startHTTPBinary(t)
	issuer := strings.TrimSuffix(hs.url, "/mcp")
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free port for the suite's callback
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	body := fmt.Sprintf(`{"client_name":"conformance","redirect_uris":["http://127.0.0.1:%d/callback"]}`, port)
	resp, err := http.Post(issuer+"/oauth/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	out := filepath.Join(t.TempDir(), "results") // countChecks reads */*/checks.json under its parent
	cmd := exec.Command(node, filepath.Join(conformancePkg, "dist", "index.js"), "authorization", "--url", issuer,
		"--client-id", reg.ClientID, "--resource", hs.url, "-p", strconv.Itoa(port), "-o", out)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	var authURL string
	listening := false // the suite says so once its callback server listens
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		log.WriteString(line + "\n")
		listening = listening || strings.HasPrefix(line, "Callback server started")
		if strings.HasPrefix(line, issuer+"/oauth/authorize?") {
			authURL = line
		}
		if authURL == "" || !listening {
			continue
		}
		back, err := hs.owner(context.Background(), authURL, "approve")
		authURL = ""
		if err != nil {
			t.Fatalf("the owner: %v", err)
		}
		resp, err := http.Get(back.String()) // the browser lands on the suite's callback
		if err != nil {
			t.Fatalf("the callback: %v", err)
		}
		resp.Body.Close()
	}
	err = cmd.Wait()
	t.Logf("conformance authorization:\n%s", log.String())
	countChecks(t, "authorization", filepath.Dir(out), 2)
	if err != nil {
		t.Errorf("the suite failed: %v", err)
	}
	t.Logf("took %v", time.Since(start).Round(time.Millisecond))
}

// TestOAuthTypeScript runs ts/oauth.test.mjs: the TypeScript SDK's client
// auth provider with dynamic registration and with a client metadata
// document, and mcp-remote with Chromium at the consent page. The
// metadata document is served over https from 192.0.2.1 (a documentation
// address, which ttywright's address rule lets through as it would a
// public one) in a network namespace of the test's own, holding only
// loopback, with a certificate ttywright trusts through SSL_CERT_FILE;
// where no namespace can be made that case skips.
func TestOAuthTypeScript(t *testing.T) {
	t.Parallel()
	needProgram(t, "bash")
	const setup = "ip link set lo up && ip addr add 192.0.2.1/32 dev lo"
	var wrap, env []string
	if out, err := exec.Command("unshare", "-n", "sh", "-c", setup).CombinedOutput(); err != nil {
		t.Logf("no network namespace (%v: %s): the client metadata document case skips", err, out)
	} else {
		cert, key := ipCert(t, "192.0.2.1")
		wrap = []string{"unshare", "-n", "sh", "-c", setup + ` && exec "$0" "$@"`}
		env = []string{"OAUTH_CIMD_CERT=" + cert, "OAUTH_CIMD_KEY=" + key}
	}
	runNodeTestIn(t, "oauth.test.mjs", filepath.Join("@modelcontextprotocol", "sdk"), wrap, env)
}

// ipCert writes a self-signed certificate for ip, usable as its own CA,
// and its key; it returns the two files.
func ipCert(t *testing.T, ip string) (certFile, keyFile string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: ip}, IPAddresses: []net.IP{net.ParseIP(ip)},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, _ := x509.MarshalPKCS8PrivateKey(k)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}
