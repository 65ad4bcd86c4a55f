package main

// mcp_http.go: MCP over Streamable HTTP (--http), from the same Server
// code as stdio. One endpoint, /mcp (or /mcp/{token}), for every era: an
// initialize without the 2026-07-28 envelope opens a legacy session
// (mcp_http_legacy.go), a request with the envelope is served statelessly
// (mcp_http_modern.go). Every request first passes the checks here, in
// this order: the path, a token in the query string (refused), Host
// against the served names, Origin, then the bearer token (auth in
// mcp_http_auth.go) or, with --http-auth=oauth, an OAuth access token
// (mcp_oauth*.go, whose paths are routed after the Host check). The HTTP streams that carry the Server's output are
// in mcp_http_stream.go. SECURITY.md gives the limits' figures.

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The limits of the HTTP transport (SECURITY.md, "MCP over HTTP").
const (
	httpMaxBody           = 16 << 20 // bytes of one POST body (413 past it)
	httpMaxHeader         = 16 << 10 // bytes of a request's header block (431 past it)
	httpReadHeaderTimeout = 10 * time.Second
	httpReadTimeout       = 60 * time.Second  // a whole request, its body included
	httpIdleTimeout       = 120 * time.Second // a keep-alive connection between requests
	httpWriteStall        = 30 * time.Second  // one write to a client that does not read, then its stream is dropped
	httpKeepAlive         = 15 * time.Second  // a comment on a quiet stream (and a quiet POST turns into SSE)
	httpMaxConns          = 4096              // connections at once; past it the oldest idle one is closed
	httpMaxSessions       = 64                // legacy sessions of one principal
	httpMaxRequests       = 256               // POSTs of one principal being answered at once
	httpMaxStreams        = 64                // GET and subscriptions/listen streams of one principal open at once
	httpSessionIdle       = 30 * time.Minute  // a legacy session with no request and no stream is ended
	httpStreamBytes       = 32 << 20          // bytes queued for one stream before it is dropped
	httpRingEvents        = 256               // session messages kept for Last-Event-ID
	httpRingBytes         = 16 << 20
)

// HTTPConfig is the HTTP transport's part of the configuration.
type HTTPConfig struct {
	Addr        string   // --http host:port; "" = stdio only
	Auth        string   // --http-auth: "oauth" (default), "token" or "none" (loopback only)
	PublicURL   string   // --http-public-url: the issuer and resource's origin, and a served name
	TokenFile   string   // --http-token-file: the token's file, read, or written 0600 when absent
	AllowOrigin []string // --http-allow-origin: origins allowed, with CORS
	Hosts       []string // --http-host: more names clients reach the server by (a tunnel's)
	TLSCert     string   // --tls-cert
	TLSKey      string   // --tls-key
	Insecure    bool     // --http-insecure: plain HTTP on a non-loopback address

	AllowCommands []string // --allow-command, which the OAuth consent page names
}

// oauth reports whether the MCP endpoint is an OAuth protected resource.
func (c *HTTPConfig) oauth() bool { return c.Auth == "" || c.Auth == "oauth" }

// validate checks the combination of flags: no auth only on loopback, no
// plain HTTP off loopback unless Insecure, both TLS files or neither, and
// origins that are scheme://host[:port].
func (c *HTTPConfig) validate() error {
	if c.Addr == "" {
		if c.Auth != "" || c.PublicURL != "" || c.TokenFile != "" || c.TLSCert != "" || c.TLSKey != "" || c.Insecure || len(c.AllowOrigin)+len(c.Hosts) > 0 {
			return errors.New("the --http-* and --tls-* flags go with --http ADDR, which serves MCP over HTTP")
		}
		return nil
	}
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return fmt.Errorf("--http %q: %v: give host:port, e.g. 127.0.0.1:8765", c.Addr, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return fmt.Errorf("--http %q: the port must be a number from 0 to 65535", c.Addr)
	}
	loop := isLoopbackHost(host)
	switch c.Auth {
	case "", "oauth", "token":
	case "none":
		if !loop {
			return fmt.Errorf("--http-auth=none is accepted only on a loopback address (127.0.0.1, ::1, localhost), not %q: anyone who reaches the port could run commands as you", host)
		}
		if c.PublicURL != "" {
			return errors.New("--http-public-url with --http-auth=none would let anyone who reaches the URL run commands as you: use --http-auth=oauth (the default) or token")
		}
	default:
		return fmt.Errorf("--http-auth %q: use oauth, token or none", c.Auth)
	}
	if c.PublicURL != "" {
		if _, err := parsePublicURL(c.PublicURL); err != nil {
			return err
		}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return errors.New("--tls-cert and --tls-key go together: give both files, or neither")
	}
	if !loop && c.TLSCert == "" && !c.Insecure {
		return fmt.Errorf("--http %q is not loopback and has no TLS: give --tls-cert and --tls-key, or --http-insecure when a tunnel in front terminates TLS", c.Addr)
	}
	for _, o := range c.AllowOrigin {
		if _, err := parseOrigin(o); err != nil {
			return fmt.Errorf("--http-allow-origin %q: %v", o, err)
		}
	}
	for _, n := range c.Hosts {
		// A name, not host:port: the port of a proxy's Host header is
		// the proxy's, so any is accepted with the name.
		bare := strings.Trim(n, "[]")
		if n == "" || strings.ContainsAny(n, "/?#@ ") || strings.Contains(bare, ":") && net.ParseIP(bare) == nil {
			return fmt.Errorf("--http-host %q: give a host name without a port or path, e.g. abc123.trycloudflare.com (a Host header with that name is accepted with any port)", n)
		}
		if strings.ContainsAny(n, "*?[]") && net.ParseIP(bare) == nil {
			return fmt.Errorf("--http-host %q: a name is matched exactly, not as a pattern: give the tunnel's full name, e.g. abc123.trycloudflare.com (a pattern would let any tunnel's name in)", n)
		}
	}
	return nil
}

// isLoopbackHost reports whether host (no port) names only this machine.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// principal is what one credential may reach: with one token (or none)
// there is one, holding the legacy sessions and the counts its limits
// bound. The terminals themselves are the process's (the hub's), so every
// request of the principal drives the same ones, whatever its era.
type principal struct {
	mu       sync.Mutex
	sessions map[string]*httpSession
	requests int              // POSTs being answered
	streams  int              // GET and listen streams open
	modern   map[*Server]bool // modern requests running, to stop at shutdown; true for a listen
}

// take counts one more request (or stream), within its limit.
func (p *principal) take(stream bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if stream {
		if p.streams >= httpMaxStreams {
			return false
		}
		p.streams++
		return true
	}
	if p.requests >= httpMaxRequests {
		return false
	}
	p.requests++
	return true
}

// give returns what take counted.
func (p *principal) give(stream bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if stream {
		p.streams--
	} else {
		p.requests--
	}
}

// httpMCP is the HTTP transport: the listener, the checks, the principal.
// Build it with newHTTPMCP, run it with Serve.
type httpMCP struct {
	cfg     HTTPConfig
	newConn func() *Server // a Server on the app's hub, its errlog and call log set
	errlog  *log.Logger
	auth    *httpAuth    // nil: --http-auth=none
	oauth   *oauthServer // nil: --http-auth other than oauth
	public  string       // --http-public-url's origin; ""
	origins map[string]bool
	p       principal
	conns   connLimiter

	evictLog sync.Once // the first eviction of an idle legacy session is logged

	// Tunables, the constants above; tests lower them.
	readHeaderTimeout, writeStall, keepAlive, sessionIdle time.Duration
	maxBody                                               int64
	maxSessions                                           int

	mu      sync.Mutex
	ln      net.Listener
	srv     *http.Server
	hosts   map[string]bool // lower-case names the Host header may carry, ports stripped
	port    string
	closing bool
	stopped chan struct{}
}

// newHTTPMCP returns the transport for cfg (validated); newConn makes
// the Servers. The token is made or read here, so its errors come before
// anything listens.
func newHTTPMCP(cfg HTTPConfig, newConn func() *Server, errlog *log.Logger) (*httpMCP, error) {
	h := &httpMCP{cfg: cfg, newConn: newConn, errlog: errlog, origins: map[string]bool{},
		readHeaderTimeout: httpReadHeaderTimeout, writeStall: httpWriteStall, keepAlive: httpKeepAlive,
		sessionIdle: httpSessionIdle, maxBody: httpMaxBody, maxSessions: httpMaxSessions, stopped: make(chan struct{})}
	h.p.sessions, h.p.modern = map[string]*httpSession{}, map[*Server]bool{}
	h.conns.max = httpMaxConns
	for _, o := range cfg.AllowOrigin {
		u, _ := parseOrigin(o) // validated
		h.origins[u] = true
	}
	if cfg.Auth != "none" {
		a, err := newHTTPAuth(cfg.TokenFile, errlog)
		if err != nil {
			return nil, err
		}
		h.auth = a
	}
	if cfg.PublicURL != "" {
		h.public, _ = parsePublicURL(cfg.PublicURL) // validated
		u, _ := url.Parse(h.public)
		// Its name is a proxy's, served with any port as --http-host's are.
		h.cfg.Hosts = append(slices.Clone(cfg.Hosts), u.Hostname())
	}
	if cfg.oauth() {
		grants := ""
		if cfg.TokenFile != "" {
			grants = cfg.TokenFile + ".grants"
		}
		o, err := newOAuthServer(h.auth.hash, cfg.AllowCommands, grants, errlog)
		if err != nil {
			h.auth.close()
			return nil, err
		}
		h.oauth, h.auth.oauth = o, o
	}
	return h, nil
}

// Listen opens the listener and works out the served names: the host of
// the address (every loopback name for a loopback one), the TLS
// certificate's names and --http-host. It returns the URL to give clients
// (clientURL).
func (h *httpMCP) Listen() (string, error) {
	ln, err := net.Listen("tcp", h.cfg.Addr)
	if err != nil {
		return "", fmt.Errorf("--http: %v", err)
	}
	host, _, _ := net.SplitHostPort(h.cfg.Addr)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	hosts := map[string]bool{strings.ToLower(strings.Trim(host, "[]")): true}
	if isLoopbackHost(host) {
		for _, n := range []string{"localhost", "127.0.0.1", "::1"} {
			hosts[n] = true
		}
	}
	for _, n := range h.cfg.Hosts {
		hosts[strings.ToLower(strings.Trim(n, "[]"))] = true
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: h.readHeaderTimeout,
		ReadTimeout:       httpReadTimeout,
		IdleTimeout:       httpIdleTimeout,
		MaxHeaderBytes:    httpMaxHeader,
		ConnState:         h.conns.track,
		ErrorLog:          log.New(io.Discard, "", 0), // TLS handshake noise from scanners
	}
	scheme, certNames := "http", []string(nil)
	if h.cfg.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(h.cfg.TLSCert, h.cfg.TLSKey)
		if err != nil {
			ln.Close()
			return "", fmt.Errorf("--tls-cert/--tls-key: %v", err)
		}
		if cert.Leaf != nil {
			for _, n := range cert.Leaf.DNSNames {
				hosts[strings.ToLower(n)] = true
				certNames = append(certNames, n)
			}
			for _, ip := range cert.Leaf.IPAddresses {
				hosts[ip.String()] = true
				certNames = append(certNames, ip.String())
			}
		}
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		ln = tls.NewListener(ln, srv.TLSConfig)
		scheme = "https"
	}
	h.mu.Lock()
	h.ln, h.srv, h.hosts, h.port = ln, srv, hosts, port
	h.mu.Unlock()
	origin := scheme + "://" + net.JoinHostPort(h.clientHost(host, certNames), port)
	if h.public != "" {
		origin = h.public
	}
	if h.oauth != nil {
		h.oauth.setIssuer(origin)
	}
	return origin + "/mcp", nil
}

// clientHost is the host of the URL Listen gives: the address's, or for
// one on every interface a name a remote client can use: the first
// --http-host, else the certificate's first name (with a log line naming
// them all), else 127.0.0.1 (plain HTTP there has a tunnel in front).
func (h *httpMCP) clientHost(host string, certNames []string) string {
	if host != "" && host != "0.0.0.0" && host != "::" {
		return host
	}
	switch {
	case len(h.cfg.Hosts) > 0:
		return strings.Trim(h.cfg.Hosts[0], "[]")
	case len(certNames) > 0:
		if len(certNames) > 1 {
			h.errlog.Printf("http: serving on every interface; clients reach it by a name of the certificate: %s", strings.Join(certNames, ", "))
		}
		return certNames[0]
	}
	return "127.0.0.1"
}

// Serve answers requests until Close; it returns nil after Close.
func (h *httpMCP) Serve() error {
	h.mu.Lock()
	srv, ln := h.srv, h.ln
	h.mu.Unlock()
	if srv == nil {
		return errors.New("http: Serve before Listen")
	}
	go h.expireSessions()
	err := srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close ends every session and stream (a listen stream gets its closing
// result; a request still running gets a -32000 error, "the server is
// shutting down"), waits up to stopGrace for the handlers, then closes
// the connections, and removes a token file it wrote.
func (h *httpMCP) Close() {
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		return
	}
	h.closing = true
	srv := h.srv
	h.mu.Unlock()
	h.p.mu.Lock()
	sessions := make([]*httpSession, 0, len(h.p.sessions))
	for _, s := range h.p.sessions {
		sessions = append(sessions, s)
	}
	modern := maps.Clone(h.p.modern)
	h.p.mu.Unlock()
	for s := range modern {
		s.stop()
	}
	// A listen answers stop at once with its closing result: let it be
	// queued before h.stopped makes the streams answer with an error.
	for s, listen := range modern {
		if listen {
			s.waitTimeout(stopGrace)
		}
	}
	for _, s := range sessions {
		h.endSession(s, msgShuttingDown)
	}
	close(h.stopped)
	if srv != nil {
		ctx, cancel := context.WithTimeout(context.Background(), stopGrace)
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		cancel()
	}
	h.auth.close()
	h.oauth.close()
}

// ServeHTTP runs the checks, then the method.
func (h *httpMCP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	pathToken, ok := mcpPath(r.URL.Path)
	oauth := h.oauth.route(r.URL.Path)
	if !ok && oauth == nil {
		httpError(w, http.StatusNotFound, codeInvalidRequest, "not found: the MCP endpoint is /mcp")
		return
	}
	if status, msg := h.auth.checkQuery(r); status != 0 {
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "1")
		}
		httpError(w, status, codeInvalidRequest, msg)
		return
	}
	if !h.hostServed(r.Host, requestScheme(r)) {
		httpError(w, http.StatusForbidden, codeInvalidRequest, fmt.Sprintf("forbidden: Host %q is not a name this server serves (DNS rebinding?); add it with --http-host", r.Host))
		return
	}
	if oauth != nil && r.URL.Path == oauthAuthorizePath {
		oauth(w, r) // a browser's page: the consent form checks its own origin
		return
	}
	origin := r.Header.Get("Origin")
	if origin != "" && !h.originAllowed(origin, r) {
		httpError(w, http.StatusForbidden, codeInvalidRequest, fmt.Sprintf("forbidden: Origin %q is not allowed; allow it with --http-allow-origin", origin))
		return
	}
	if origin != "" && h.origins[origin] {
		h.cors(w, origin)
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	if oauth != nil {
		oauth(w, r)
		return
	}
	if status, msg := h.auth.check(r, pathToken); status != 0 {
		challenge := `Bearer realm="ttywright"`
		if h.oauth != nil {
			// RFC 9728 §5.1: where a client finds how to get a token.
			challenge += `, resource_metadata="` + h.oauth.resourceMetadataURL(r) + `"`
		}
		switch {
		case status == http.StatusUnauthorized && (pathToken != "" || r.Header.Get("Authorization") != ""):
			// RFC 6750 §3.1: a credential was sent, and it is wrong or expired.
			w.Header().Set("WWW-Authenticate", challenge+`, error="invalid_token", error_description="the token is not this server's, or has expired"`)
		case status == http.StatusUnauthorized:
			w.Header().Set("WWW-Authenticate", challenge) // none was sent: no error code
		default:
			w.Header().Set("Retry-After", "1")
		}
		httpError(w, status, codeInvalidRequest, msg)
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		httpError(w, http.StatusMethodNotAllowed, codeInvalidRequest, "method not allowed: POST messages, GET a legacy session's stream, DELETE to end it")
	}
}

// mcpPath reports whether path is the endpoint, and the token it carries
// (/mcp/{token}); "" for /mcp.
func mcpPath(path string) (token string, ok bool) {
	if path == "/mcp" || path == "/mcp/" {
		return "", true
	}
	token, ok = strings.CutPrefix(path, "/mcp/")
	return token, ok && token != "" && !strings.Contains(token, "/")
}

// hostServed reports whether hostport, from a Host header or an origin
// of scheme, names this server: one of the served names, with the
// listener's port; no port means the scheme's default (80, 443), so it
// passes only when the listener is on it. A name given with --http-host
// is a proxy's, and so is its port: any passes.
func (h *httpMCP) hostServed(hostport, scheme string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, ""
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.hosts[host] {
		return false
	}
	return port == h.port || slices.ContainsFunc(h.cfg.Hosts, func(n string) bool { return strings.EqualFold(strings.Trim(n, "[]"), host) })
}

// requestScheme is the scheme r came by to this listener.
func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// originAllowed: an origin named by --http-allow-origin, or the server's
// own: the same scheme, a served name and the listener's port (its
// default when absent), for a page the server itself would serve.
func (h *httpMCP) originAllowed(origin string, r *http.Request) bool {
	if h.origins[origin] || h.public != "" && strings.EqualFold(origin, h.public) {
		return true
	}
	u, err := parseOrigin(origin)
	if err != nil {
		return false
	}
	scheme, hostport, _ := strings.Cut(u, "://")
	return scheme == requestScheme(r) && h.hostServed(hostport, scheme)
}

// cors sets the CORS headers for an origin named by --http-allow-origin.
func (h *httpMCP) cors(w http.ResponseWriter, origin string) {
	hd := w.Header()
	hd.Set("Access-Control-Allow-Origin", origin)
	hd.Set("Vary", "Origin")
	hd.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
	hd.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Last-Event-ID, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name")
	hd.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate")
	hd.Set("Access-Control-Max-Age", "600")
}

// parseOrigin normalises an Origin value, scheme://host[:port], lower case;
// anything else (a path, "null") is an error.
func parseOrigin(o string) (string, error) {
	scheme, rest, ok := strings.Cut(o, "://")
	if !ok || (scheme != "http" && scheme != "https") || rest == "" || strings.ContainsAny(rest, "/?#@ ") {
		return "", errors.New("an origin is scheme://host[:port], e.g. https://chatgpt.com")
	}
	return strings.ToLower(o), nil
}

// post reads the body within the limit and hands it to its era: a legacy
// session's (Mcp-Session-Id, or an initialize without the envelope), else
// the stateless 2026-07-28 path.
func (h *httpMCP) post(w http.ResponseWriter, r *http.Request) {
	// application/json, with parameters (charset) or none; a missing
	// Content-Type too is refused: every MCP client sends it.
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		httpError(w, http.StatusUnsupportedMediaType, codeInvalidRequest, fmt.Sprintf("unsupported media type %q: POST a JSON-RPC message with Content-Type: application/json", r.Header.Get("Content-Type")))
		return
	}
	if !h.p.take(false) {
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusTooManyRequests, codeServerBusy, fmt.Sprintf("server busy: %d requests are being answered (at most %d at once): wait for some replies, then retry", httpMaxRequests, httpMaxRequests))
		return
	}
	defer h.p.give(false)
	if r.ContentLength > h.maxBody {
		httpError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest, fmt.Sprintf("request body too large: %d bytes, at most %d", r.ContentLength, h.maxBody))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			httpError(w, http.StatusRequestEntityTooLarge, codeInvalidRequest, fmt.Sprintf("request body too large: at most %d bytes", h.maxBody))
			return
		}
		httpError(w, http.StatusBadRequest, codeInvalidRequest, "cannot read the request body: "+err.Error())
		return
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		httpError(w, http.StatusBadRequest, codeInvalidRequest, "empty body: POST one JSON-RPC message")
		return
	}
	f := decodeFrame(body) // the one decode: the Server reads f
	if sid := r.Header.Get("Mcp-Session-Id"); sid != "" {
		h.legacyPost(w, r, sid, f)
		return
	}
	if !f.batch && f.msgs[0].Method == "initialize" && !f.msgs[0].claim {
		h.legacyInitialize(w, r, f) // without the 2026-07-28 envelope
		return
	}
	h.modernPost(w, r, f)
}

// httpError writes a JSON-RPC error response without an id, with status.
func httpError(w http.ResponseWriter, status, code int, msg string) {
	writeJSONResponse(w, status, errorResponse(nullID, code, "%s", msg).marshal())
}

// writeJSONResponse writes one JSON-RPC message as the whole response.
func writeJSONResponse(w http.ResponseWriter, status int, line []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(line)))
	w.WriteHeader(status)
	_, _ = w.Write(line)
}

// clientAddr names the client for the log: its address, and the address
// a proxy says it forwards for (unverified, so only for the log).
func clientAddr(r *http.Request) string {
	if f := r.Header.Get("X-Forwarded-For"); f != "" {
		return fmt.Sprintf("%s (for %.64q)", r.RemoteAddr, f)
	}
	return r.RemoteAddr
}

// connLimiter bounds the connections open at once: past max, the one that
// has been idle (or new, no request yet) the longest is closed, so idle
// connections cannot keep a working client out.
type connLimiter struct {
	max   int
	mu    sync.Mutex
	conns map[net.Conn]connInfo
}

type connInfo struct {
	idle  bool // new or idle: no request being read or answered
	since time.Time
}

// track is the http.Server's ConnState hook.
func (l *connLimiter) track(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conns == nil {
		l.conns = map[net.Conn]connInfo{}
	}
	switch st {
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
		return
	case http.StateActive:
		l.conns[c] = connInfo{since: time.Now()}
		return
	}
	l.conns[c] = connInfo{idle: true, since: time.Now()}
	if len(l.conns) <= l.max {
		return
	}
	var oldest net.Conn
	var t time.Time
	for o, in := range l.conns {
		if in.idle && o != c && (oldest == nil || in.since.Before(t)) {
			oldest, t = o, in.since
		}
	}
	if oldest != nil {
		delete(l.conns, oldest)
		oldest.Close()
	}
}
