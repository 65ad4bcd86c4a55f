package main

// mcp_oauth.go: with --http-auth=oauth (the default with --http) the MCP
// endpoint is an OAuth 2.1 protected resource and ttywright is its own
// authorization server, for one owner: the person who reads its stderr.
// This file holds the server's state, its limits, the discovery
// documents (RFC 9728 protected resource metadata, RFC 8414 authorization
// server metadata) and the check of an access token on /mcp. The consent
// page is in mcp_oauth_authorize.go, the token, refresh and revocation
// endpoints and the grants' file in mcp_oauth_token.go, the clients
// (metadata documents and RFC 7591 registration) in mcp_oauth_client.go.
// Every code and token is minted by longToken and kept by its SHA-256
// only (web_secret.go). README "Remote clients" and SECURITY.md "OAuth"
// give the flow, the figures and the threats.

import (
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/user"
	"slices"
	"strings"
	"sync"
	"time"
)

// The lives of what the authorization server mints (SECURITY.md, "OAuth").
const (
	oauthAccessLife  = time.Hour           // an access token
	oauthRefreshLife = 30 * 24 * time.Hour // a refresh token unused that long expires; each refresh starts it again
	oauthCodeLife    = 60 * time.Second    // an authorization code, used once
	oauthConsentLife = 5 * time.Minute     // a consent page and its approval code
	oauthCodeTries   = 5                   // wrong approval codes one consent page takes
)

// The bounds of its state: past one, the least recently used entry goes
// (a registration with a live grant stays), or the request is refused.
const (
	oauthMaxBody      = 16 << 10 // bytes of a token, registration or consent request body
	oauthMaxClients   = 100      // registered clients kept
	oauthMaxPending   = 16       // consent pages open at once
	oauthMaxCodes     = 64       // authorization codes not yet exchanged
	oauthMaxGrants    = 256      // grants (a refresh token and its access tokens) kept
	oauthGrantAccess  = 4        // live access tokens of one grant (the older ones end)
	oauthGrantRotated = 16       // rotated refresh tokens of a grant remembered, to catch a reuse
	oauthLimitKeys    = 4096     // clients whose request rate is counted
)

// The rates: each client's requests (a burst, then a rate a second), the
// consent pages opened (each prints an approval code), registrations, and
// the refusals logged (the rest are counted in the next line).
const (
	oauthClientBurst, oauthClientRate     = 20, 2.0
	oauthConsentBurst, oauthConsentRate   = 10, 0.1
	oauthRegisterBurst, oauthRegisterRate = 20, 1.0
	oauthLogBurst, oauthLogRate           = 10, 1.0
)

// The scope a grant carries: everything the MCP endpoint serves.
const oauthScope = "ttywright"

// The endpoints' paths; the issuer is the origin they are served at.
const (
	oauthAuthorizePath = "/oauth/authorize"
	oauthTokenPath     = "/oauth/token"
	oauthRegisterPath  = "/oauth/register"
	oauthRevokePath    = "/oauth/revoke"
	oauthResourcePath  = "/.well-known/oauth-protected-resource"
	oauthServerPath    = "/.well-known/oauth-authorization-server"
	oauthOpenIDPath    = "/.well-known/openid-configuration"
)

// oauthServer is the authorization server and the token check of the
// protected resource. Build it with newOAuthServer, give it its issuer
// with setIssuer before serving, close it at the end. Its methods are
// safe for concurrent use.
type oauthServer struct {
	issuer   string     // scheme://host[:port], no path: --http-public-url, else the listener's
	resource string     // issuer + "/mcp", the resource identifier (RFC 8707) tokens are bound to
	aliases  []string   // the issuer's other loopback origins (setIssuer)
	static   secretHash // of the bearer token, accepted as an approval code
	consent  string     // what approving grants, in the page's words
	errlog   *log.Logger
	fetch    *cimdFetcher
	store    *grantStore // nil: grants live in memory only

	mu        sync.Mutex
	clients   secretTable[*oauthClient]    // registered (RFC 7591), by client_id
	pending   secretTable[*consentRequest] // open consent pages, by request id
	codes     secretTable[*authCode]       // by code; a used one stays until it expires, to catch a reuse
	refresh   secretTable[*refreshEntry]   // current and rotated refresh tokens
	access    secretTable[*accessEntry]    // live access tokens
	grants    map[*oauthGrant]bool
	limits    map[secretHash]*logLimiter // each client's rate, by its client_id
	consents  logLimiter                 // consent pages opened
	registers logLimiter                 // registrations
	lines     logLimiter                 // refusals logged; it counts those it drops
}

// newOAuthServer returns the authorization server: static is the bearer
// token's hash, allow the --allow-command list (for the consent page),
// grantsFile the file grants are kept in ("" for memory), read here.
func newOAuthServer(static secretHash, allow []string, grantsFile string, errlog *log.Logger) (*oauthServer, error) {
	s := &oauthServer{static: static, consent: consentGrant(allow), errlog: errlog, fetch: newCIMDFetcher(),
		grants: map[*oauthGrant]bool{}, limits: map[secretHash]*logLimiter{},
		consents:  logLimiter{burst: oauthConsentBurst, rate: oauthConsentRate},
		registers: logLimiter{burst: oauthRegisterBurst, rate: oauthRegisterRate},
		lines:     logLimiter{burst: oauthLogBurst, rate: oauthLogRate}}
	if grantsFile != "" {
		st, err := openGrantStore(grantsFile, s)
		if err != nil {
			return nil, err
		}
		s.store = st
	}
	return s, nil
}

// consentGrant says what approving a client grants: running programs as
// this user on this machine, all of them or the --allow-command list.
func consentGrant(allow []string) string {
	who := "you"
	if u, err := user.Current(); err == nil {
		who = u.Username
	}
	host, _ := os.Hostname()
	what := "run any program"
	if len(allow) > 0 {
		what = "run " + strings.Join(allow, ", ") + " (the programs --allow-command allows)"
	}
	return fmt.Sprintf("%s, as %s on %s, and read what they show", what, who, host)
}

// setIssuer sets the issuer (an origin, scheme://host[:port]) and the
// resource it names.
//
// On a loopback origin the other loopback names of the same port
// (127.0.0.1, localhost, [::1]) are the server too, as the Host check
// lets them in: a client that came by one of them is answered in its
// name (issuerFor), since a client checks that the metadata names the
// URL it used (mcp-remote refuses http://127.0.0.1:8765/mcp for
// http://localhost:8765/mcp). Tokens stay bound to the one resource.
func (s *oauthServer) setIssuer(issuer string) {
	s.issuer = strings.ToLower(strings.TrimSuffix(issuer, "/"))
	s.resource = s.issuer + "/mcp"
	s.aliases = nil
	if u, err := url.Parse(s.issuer); err == nil && isLoopbackHost(u.Hostname()) {
		for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
			if a := u.Scheme + "://" + h + ":" + u.Port(); a != s.issuer && u.Port() != "" {
				s.aliases = append(s.aliases, a)
			}
		}
	}
}

// issuerFor is the issuer as the client of r names it: the origin r came
// to when that is one of the issuer's loopback aliases, else the issuer.
func (s *oauthServer) issuerFor(r *http.Request) string {
	if o := strings.ToLower(requestScheme(r) + "://" + r.Host); slices.Contains(s.aliases, o) {
		return o
	}
	return s.issuer
}

// close writes the grants a last time.
func (s *oauthServer) close() {
	if s != nil && s.store != nil {
		s.store.close()
	}
}

// parsePublicURL checks --http-public-url and returns its origin: https
// (or http on a loopback host), a host that is no pattern, no path but
// "/", no user, query or fragment.
func parsePublicURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("--http-public-url %q: %v", raw, err)
	case u.Scheme != "https" && !(u.Scheme == "http" && isLoopbackHost(u.Hostname())):
		return "", fmt.Errorf("--http-public-url %q: give an https URL, e.g. https://abc.trycloudflare.com (http only on a loopback host): OAuth sends codes and tokens through it", raw)
	case u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "":
		return "", fmt.Errorf("--http-public-url %q: give scheme://host[:port] only, e.g. https://abc.trycloudflare.com", raw)
	case strings.ContainsAny(u.Host, "*?[]") && net.ParseIP(strings.Trim(u.Hostname(), "[]")) == nil:
		return "", fmt.Errorf("--http-public-url %q: a wildcard is no address clients can reach: give the tunnel's full name", raw)
	case u.Path != "" && u.Path != "/":
		return "", fmt.Errorf("--http-public-url %q: the URL must have no path (the server serves /mcp and the OAuth paths at its root)", raw)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// route returns the handler of an OAuth path, or nil for any other path
// (and on a nil server, --http-auth other than oauth).
func (s *oauthServer) route(path string) http.HandlerFunc {
	if s == nil {
		return nil
	}
	switch path {
	case oauthResourcePath, oauthResourcePath + "/mcp":
		return s.resourceMetadata
	case oauthServerPath, oauthOpenIDPath:
		return s.serverMetadata
	case oauthAuthorizePath:
		return s.authorize
	case oauthTokenPath:
		return s.token
	case oauthRegisterPath:
		return s.register
	case oauthRevokePath:
		return s.revoke
	}
	return nil
}

// resourceMetadataURL is where a 401's WWW-Authenticate points a client
// (RFC 9728 §5.1).
func (s *oauthServer) resourceMetadataURL(r *http.Request) string {
	return s.issuerFor(r) + oauthResourcePath + "/mcp"
}

// resourceMetadata answers the protected resource metadata (RFC 9728 §3).
func (s *oauthServer) resourceMetadata(w http.ResponseWriter, r *http.Request) {
	if !oauthGet(w, r) {
		return
	}
	iss := s.issuerFor(r)
	oauthJSON(w, http.StatusOK, map[string]any{
		"resource":                 iss + "/mcp",
		"authorization_servers":    []string{iss},
		"bearer_methods_supported": []string{"header"},
		"scopes_supported":         []string{oauthScope},
		"resource_name":            "ttywright",
	})
}

// serverMetadata answers the authorization server metadata (RFC 8414
// §3), also at the OpenID discovery path that clients probe.
func (s *oauthServer) serverMetadata(w http.ResponseWriter, r *http.Request) {
	if !oauthGet(w, r) {
		return
	}
	iss := s.issuerFor(r)
	oauthJSON(w, http.StatusOK, map[string]any{
		"issuer":                                         iss,
		"authorization_endpoint":                         iss + oauthAuthorizePath,
		"token_endpoint":                                 iss + oauthTokenPath,
		"registration_endpoint":                          iss + oauthRegisterPath,
		"revocation_endpoint":                            iss + oauthRevokePath,
		"scopes_supported":                               []string{oauthScope},
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none"},
		"revocation_endpoint_auth_methods_supported":     []string{"none"},
		"client_id_metadata_document_supported":          true,
		"authorization_response_iss_parameter_supported": true,
	})
}

// oauthGet refuses a method other than GET (405) and reports whether r
// may go on.
func oauthGet(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET")
	oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "GET this document")
	return false
}

// accessResult is what checkAccess found.
type accessResult uint8

const (
	accessUnknown accessResult = iota // no such token: a guess, or one revoked
	accessOK
	accessExpired       // a token of this server whose hour is over
	accessOtherResource // a token bound to another resource (another public URL)
)

// checkAccess looks an access token up: the check of each request to
// /mcp that carries one.
func (s *oauthServer) checkAccess(token string) accessResult {
	if s == nil {
		return accessUnknown
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.access.lookup(token)
	switch {
	case !ok:
		return accessUnknown
	case !time.Now().Before(a.expires):
		return accessExpired
	case a.grant.resource != s.resource:
		return accessOtherResource
	}
	return accessOK
}

// isResource reports whether a resource parameter (RFC 8707) names this
// server: its resource identifier or its origin (or a loopback alias of
// it), with a trailing slash or none, scheme and host in any case.
func (s *oauthServer) isResource(given string) bool {
	u, err := url.Parse(given)
	if err != nil || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	origin := strings.ToLower(u.Scheme + "://" + u.Host)
	path := strings.TrimSuffix(u.Path, "/")
	return (origin == s.issuer || slices.Contains(s.aliases, origin)) && (path == "" || path == "/mcp")
}

// admit takes a request's client_id and spends one of its client's
// requests: the id's hash, or the status and reason of a refusal (400
// with no id, 429 past the client's rate, logged).
func (s *oauthServer) admit(r *http.Request, id string) (secretHash, int, string) {
	key := hashSecret(id)
	switch {
	case id == "":
		return key, http.StatusBadRequest, "the request names no client (client_id)"
	case !s.allow(key):
		s.refused(r, "a client past its rate")
		return key, http.StatusTooManyRequests, "too many requests from this client: wait, then retry"
	}
	return key, 0, ""
}

// allow spends one request of the client whose client_id hashes to key.
func (s *oauthServer) allow(key secretHash) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.limits[key]
	if l == nil {
		if len(s.limits) >= oauthLimitKeys {
			clear(s.limits) // a flood of client ids: start counting again
		}
		l = &logLimiter{burst: oauthClientBurst, rate: oauthClientRate}
		s.limits[key] = l
	}
	ok, _, _ := l.take(0)
	return ok
}

// logf writes one line of what the server did: a grant, a refresh, a
// revocation. Names come quoted: a client picks its own.
func (s *oauthServer) logf(format string, args ...any) {
	s.errlog.Printf("oauth: "+format, args...)
}

// refused logs a refused request of r, within the log's budget, with the
// count of those refused unlogged since; never a token or a code.
func (s *oauthServer) refused(r *http.Request, what string) {
	s.mu.Lock()
	ok, unlogged, _ := s.lines.take(0)
	s.mu.Unlock()
	if ok {
		s.errlog.Printf("oauth: refused %s %s %s: %s%s", clientAddr(r), r.Method, r.URL.Path, what, refusedNote(unlogged))
	}
}

// oauthJSON writes v as the JSON response with status.
func oauthJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"server_error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// oauthError writes an OAuth error response (RFC 6749 §5.2): the error
// code and what went wrong.
func oauthError(w http.ResponseWriter, status int, code, desc string) {
	if status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	oauthJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// errOAuthBody is a request body past oauthMaxBody.
var errOAuthBody = fmt.Errorf("the body is over %d bytes", oauthMaxBody)

// oauthForm reads a POST's url-encoded form of at most oauthMaxBody
// bytes; a parameter given twice is an error (RFC 6749 §3.1).
func oauthForm(w http.ResponseWriter, r *http.Request) (url.Values, error) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		return nil, errors.New("POST a form (application/x-www-form-urlencoded)")
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
		return nil, fmt.Errorf("content type %q: send application/x-www-form-urlencoded", r.Header.Get("Content-Type"))
	}
	if r.ContentLength > oauthMaxBody {
		return nil, errOAuthBody
	}
	r.Body = http.MaxBytesReader(w, r.Body, oauthMaxBody)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errOAuthBody
		}
		return nil, err
	}
	for k, vs := range r.PostForm {
		if len(vs) > 1 {
			return nil, fmt.Errorf("the parameter %s is given %d times", k, len(vs))
		}
	}
	return r.PostForm, nil
}
