package main

// mcp_http_auth.go: the bearer token of the HTTP transport. 256 random
// bits made at start and written to a 0600 file in a private directory
// (its path goes to stderr), or read from --http-token-file (written there
// when the file does not exist yet). A request carries it as
// Authorization: Bearer TOKEN or in the path, /mcp/TOKEN; its SHA-256 is
// compared in constant time (web_secret.go), and failed attempts are
// logged and limited per client address. A nil *httpAuth is
// --http-auth=none: every request passes.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Failed attempts of one client address: a burst of authFailBurst, then
// authFailRate a second; past that a wrong token gets 429 and is counted,
// not logged. The right token always passes: it cannot be guessed, so a
// lockout would only let a stranger lock its owner out.
const (
	authFailBurst = 10
	authFailRate  = 1.0
	authFailAddrs = 4096 // client addresses remembered
	minTokenLen   = 32   // characters of a token read from a file
)

// Failed attempts of every address together: loopback alone has 16
// million addresses, so a flood from many is limited as one from one is
// (authAllBurst, then authAllRate a second: past it, 429). The log has a
// budget of its own (authLogBurst, authLogRate lines): a refusal past it
// is counted in the next line.
const (
	authAllBurst = 100
	authAllRate  = 20.0
	authLogBurst = 10
	authLogRate  = 1.0
)

// httpAuth holds the token and the failure counts.
type httpAuth struct {
	hash    secretHash // of the token: compared, never the token itself
	token   string     // looked for in a query string, as a leak
	path    string     // the token file
	written string     // the private directory made for it, removed at close; "" when given
	errlog  *log.Logger
	oauth   *oauthServer // with --http-auth=oauth: its access tokens pass too

	mu       sync.Mutex
	fails    map[string]*logLimiter // by client IP
	all      logLimiter             // every address's failures
	lines    logLimiter             // the refusals logged
	unlogged int                    // refusals not logged since the last line
}

// newHTTPAuth reads the token from file, or makes one and writes it there
// (0600); with file "" it goes to a new private directory.
func newHTTPAuth(file string, errlog *log.Logger) (*httpAuth, error) {
	a := &httpAuth{errlog: errlog, fails: map[string]*logLimiter{},
		all:   logLimiter{burst: authAllBurst, rate: authAllRate},
		lines: logLimiter{burst: authLogBurst, rate: authLogRate}}
	if file != "" {
		if err := checkTokenDir(file); err != nil {
			return nil, err
		}
		t, err := readTokenFile(file)
		switch {
		case err == nil:
			a.setToken(t, file)
			return a, nil
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	} else {
		dir, err := os.MkdirTemp("", "ttywright-http-")
		if err != nil {
			return nil, fmt.Errorf("--http: a directory for the token: %v", err)
		}
		a.written, file = dir, filepath.Join(dir, "token")
	}
	// 256 bits (longToken): this token never expires and may face the
	// network. 52 characters, over minTokenLen; files written before in
	// base64url (43) still read.
	t := longToken()
	// O_EXCL and O_NOFOLLOW: a file or link put there since the read is
	// refused, not written through.
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("--http-token-file: %v", err)
	}
	_, err = f.WriteString(t + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("--http-token-file: %v", err)
	}
	a.setToken(t, file)
	return a, nil
}

// readTokenFile reads the token of file (openOwnFile's checks). A
// missing file is fs.ErrNotExist.
func readTokenFile(file string) (string, error) {
	f, err := openOwnFile(file, "--http-token-file", "the token")
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("--http-token-file: %v", err)
	}
	t := strings.TrimSpace(string(b))
	if len(t) < minTokenLen || strings.ContainsAny(t, " \t\r\n/?#") {
		return "", fmt.Errorf("--http-token-file %s: the token must be at least %d characters with no space, '/', '?' or '#' (delete the file to have one made)", file, minTokenLen)
	}
	return t, nil
}

// openOwnFile opens file for reading, refusing a file another user could
// read or have put there: a symlink, not a regular file, not this
// user's, or readable or writable by others. name says which file in
// errors (a flag), what what it holds. A missing file is fs.ErrNotExist.
func openOwnFile(file, name, what string) (*os.File, error) {
	if fi, err := os.Lstat(file); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	} else if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s %s is a symlink, which another user may point elsewhere: give the path of the file itself", name, file)
	}
	f, err := os.OpenFile(file, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
		err = fmt.Errorf("%s: %v", name, err)
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%s %s is not a regular file: give a file's path", name, file)
	case !ownedByMe(fi):
		err = fmt.Errorf("%s %s belongs to another user, who could read or change %s: delete it and have a new one made, or give a file of your own", name, file, what)
	case fi.Mode().Perm()&0o077 != 0:
		err = fmt.Errorf("%s %s: mode %v lets others read %s: chmod 600 it", name, file, fi.Mode().Perm(), what)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkTokenDir refuses a token file whose directory, or any directory
// above it, another user could write: one writable by others and not
// sticky (as /tmp is), or owned by a user other than this one or root.
// Such a user could rename the file away and put their own token, or a
// link, in its place. The rule is the output directory's ancestor rule
// (ensureOutputDir), plus the owner.
func checkTokenDir(file string) error {
	dir, err := filepath.Abs(filepath.Dir(file))
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir) // the directories that hold the file
	}
	if err != nil {
		return fmt.Errorf("--http-token-file %s: its directory: %v", file, err)
	}
	for p := dir; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			return fmt.Errorf("--http-token-file %s: %v", file, err)
		case othersCanReplace(fi):
			return fmt.Errorf("--http-token-file %s: the directory %s is writable by other users and not sticky (mode %04o), so they could replace the token: keep the file in a directory only you can write, e.g. your home directory", file, p, fi.Mode().Perm())
		case !ownedByMe(fi) && !ownedByRoot(fi):
			return fmt.Errorf("--http-token-file %s: the directory %s belongs to another user, who could replace the token: keep the file in a directory of your own, e.g. your home directory", file, p)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

func (a *httpAuth) setToken(t, path string) {
	a.token, a.path, a.hash = t, path, hashSecret(t)
}

// Path is the token file's path; "" without auth.
func (a *httpAuth) Path() string {
	if a == nil {
		return ""
	}
	return a.path
}

// close removes the directory newHTTPAuth made (a given file stays).
func (a *httpAuth) close() {
	if a != nil && a.written != "" {
		os.RemoveAll(a.written)
	}
}

// checkQuery refuses a request with a credential in its query string,
// since URLs are logged by proxies: the token, or a parameter named like
// one. It returns 0, or the status and message of the refusal: 400, or
// 429 for an address past its failures. Only the real token (compared in
// constant time) is logged as leaked; any other value is a failed
// attempt, limited and logged as the others are.
func (a *httpAuth) checkQuery(r *http.Request) (int, string) {
	raw := r.URL.RawQuery
	if a == nil || raw == "" {
		return 0, ""
	}
	leaked, named := strings.Contains(raw, a.token), false
	q, _ := url.ParseQuery(raw) // a malformed pair is still looked at above
	for k, vs := range q {
		switch strings.ToLower(k) {
		case "token", "access_token", "auth", "authorization", "bearer", "key", "api_key", "apikey":
			named = true
		}
		for _, v := range vs {
			leaked = leaked || a.hash.matches(v)
		}
	}
	what := "a query parameter named like a credential, not the token"
	switch {
	case leaked:
		what = "the token in the query string (a URL's query ends up in logs: make a new token)"
	case !named:
		return 0, ""
	}
	if !a.logRefusal(r, what) {
		return http.StatusTooManyRequests, "too many failed attempts from this address: wait, then send the right token"
	}
	return http.StatusBadRequest, "a token in the query string is refused: send Authorization: Bearer TOKEN, or put it in the path, /mcp/TOKEN"
}

// check authenticates r: the Authorization header, else the path's
// token. It returns 0, or the status and message of a refusal (401, or
// 429 for an address past its failures).
func (a *httpAuth) check(r *http.Request, pathToken string) (int, string) {
	if a == nil {
		return 0, ""
	}
	given, how := pathToken, "path"
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, t, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return a.failed(r, "an Authorization that is not Bearer")
		}
		given, how = strings.TrimSpace(t), "bearer"
	}
	if given == "" {
		return a.failed(r, "no token")
	}
	if !a.hash.matches(given) {
		if how == "bearer" {
			switch a.oauth.checkAccess(given) {
			case accessOK:
				return 0, ""
			case accessExpired: // a client's token of this server: no guess, so not counted
				return http.StatusUnauthorized, "unauthorized: the access token has expired: refresh it (" + oauthTokenPath + ")"
			case accessOtherResource:
				return http.StatusUnauthorized, "unauthorized: the access token was issued for another resource than this server's: sign in again"
			}
		}
		if how == "bearer" && pathToken != "" && a.hash.matches(pathToken) {
			// The right token in the path: pointing at the path would not help.
			if !a.logRefusal(r, "a wrong bearer token with the right path token") {
				return http.StatusTooManyRequests, "too many failed attempts from this address: wait, then send the right token"
			}
			return http.StatusUnauthorized, "unauthorized: the Authorization header and the path /mcp/TOKEN carry different tokens, and the header's is wrong: drop the header, or send the token in it"
		}
		return a.failed(r, "a wrong "+how+" token")
	}
	return 0, ""
}

// failed counts and logs a refused attempt of r's address.
func (a *httpAuth) failed(r *http.Request, what string) (int, string) {
	if !a.logRefusal(r, what) {
		return http.StatusTooManyRequests, "too many failed attempts from this address: wait, then send the right token"
	}
	return http.StatusUnauthorized, "unauthorized: send Authorization: Bearer TOKEN (the token is in the file ttywright printed at start), or use /mcp/TOKEN"
}

// logRefusal counts a refused attempt of r's address and logs it, within
// the log's budget, with the count of those refused unlogged since; it
// reports false when the address, or every address together, is past its
// failures (counted, not logged).
func (a *httpAuth) logRefusal(r *http.Request, what string) bool {
	ip, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		ip = r.RemoteAddr
	}
	a.mu.Lock()
	l := a.fails[ip]
	if l == nil {
		if len(a.fails) >= authFailAddrs {
			clear(a.fails) // a flood of addresses: start counting again (a.all still limits them)
		}
		l = &logLimiter{burst: authFailBurst, rate: authFailRate}
		a.fails[ip] = l
	}
	mine, _, _ := l.take(0)
	ok := mine
	if mine {
		ok, _, _ = a.all.take(0)
	}
	logged := false
	if ok {
		logged, _, _ = a.lines.take(0)
	}
	unlogged := a.unlogged
	if logged {
		a.unlogged = 0
	} else {
		a.unlogged++
	}
	a.mu.Unlock()
	if !logged {
		return ok
	}
	note := refusedNote(unlogged)
	path := "/mcp" // never the path's token: a wrong one may be a typo of the right one
	if strings.HasPrefix(r.URL.Path, "/mcp/") {
		path = "/mcp/..."
	}
	a.errlog.Printf("http: refused %s %s %s: %s%s", clientAddr(r), r.Method, path, what, note)
	return true
}

// refusedNote is what a refusal's log line adds when n refusals before it
// went unlogged, past the log's budget.
func refusedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d more refused since the last report)", n)
}
