package main

// mcp_oauth_token.go: /oauth/token (the authorization_code and
// refresh_token grants), /oauth/revoke (RFC 7009), and the grants they
// make. A code is used once within oauthCodeLife, by the client, redirect
// URI and PKCE verifier it was issued for; a second use revokes what the
// first got. A refresh token is rotated on every use, and a rotated one
// presented again revokes its whole grant (a stolen one was used by
// someone). Access tokens are opaque, live an hour and are bound to the
// resource. With --http-token-file FILE the registrations and grants are
// kept, by their tokens' SHA-256 only, in FILE.grants (0600), so a
// restart signs no client out.

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

// authCode is an authorization code: what it was issued for.
type authCode struct {
	client    secretHash
	name      string
	redirect  string
	challenge string
	resource  string
	expires   time.Time
	grant     *oauthGrant // set once exchanged: a second use revokes it
}

// oauthGrant is one sign-in of one client: its current refresh token,
// the rotated ones (remembered to catch a reuse) and its live access
// tokens.
type oauthGrant struct {
	client         secretHash
	name           string // the client's, for the log
	redirectHost   string
	resource       string
	used           time.Time
	refresh        secretHash
	refreshExpires time.Time
	rotated        []secretHash
	access         []secretHash
}

type refreshEntry struct {
	grant   *oauthGrant
	rotated bool
}

type accessEntry struct {
	grant   *oauthGrant
	expires time.Time
}

// newCode keeps c under a new code, within oauthMaxCodes.
func (s *oauthServer) newCode(c *authCode) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	s.codes.deleteIf(func(o *authCode) bool { return !now.Before(o.expires) })
	if s.codes.len() >= oauthMaxCodes {
		return "", false
	}
	code := longToken()
	s.codes.add(code, c)
	return code, true
}

// token answers POST /oauth/token.
func (s *oauthServer) token(w http.ResponseWriter, r *http.Request) {
	f, err := oauthForm(w, r)
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	id := formClientID(r, f)
	if id == "" {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "the request names no client (client_id): a public client names itself in the body")
		return
	}
	// The client's rate is spent by its failed requests only: client ids
	// are public, and requests that name one must not keep it from
	// refreshing with its own valid token.
	key := hashSecret(id)
	if res := f.Get("resource"); res != "" && !s.isResource(res) {
		s.refused(r, "a token request for another resource")
		oauthError(w, http.StatusBadRequest, "invalid_target", "resource names another server than "+s.resource)
		return
	}
	var resp map[string]any
	var note, why string
	switch f.Get("grant_type") {
	case "authorization_code":
		resp, note, why = s.exchange(f, key)
	case "refresh_token":
		resp, note, why = s.refreshGrant(f, key)
	case "":
		oauthError(w, http.StatusBadRequest, "invalid_request", "grant_type is missing: authorization_code or refresh_token")
		return
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
		return
	}
	s.store.changed()
	if why != "" {
		if !s.allow(key) {
			s.refused(r, "a client past its rate of failed requests")
			oauthError(w, http.StatusTooManyRequests, "invalid_request", "too many failed requests naming this client: wait, then retry")
			return
		}
		s.refused(r, why)
		oauthError(w, http.StatusBadRequest, "invalid_grant", why)
		return
	}
	s.logf("%s", note)
	oauthJSON(w, http.StatusOK, resp)
}

// formClientID is the client_id of a token or revocation request: the
// form's, else the user of HTTP Basic (a client may send it so, with an
// empty secret).
func formClientID(r *http.Request, f url.Values) string {
	if id := f.Get("client_id"); id != "" {
		return id
	}
	if u, _, ok := r.BasicAuth(); ok {
		if id, err := url.QueryUnescape(u); err == nil {
			return id
		}
	}
	return ""
}

// exchange is the authorization_code grant: the token response and a
// line for the log, or why the grant is refused. Any code presented is
// used up, right or wrong: a stolen code gets one try.
func (s *oauthServer) exchange(f url.Values, client secretHash) (resp map[string]any, note, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.codes.lookup(f.Get("code"))
	switch {
	case !ok:
		why = "the code is unknown, expired or used"
	case c.grant != nil:
		s.revokeLocked(c.grant)
		why = "the code was used already: the tokens it gave are revoked"
	case !time.Now().Before(c.expires):
		why = "the code has expired (it works 60 seconds)"
	case c.client != client:
		why = "the code was issued to another client"
	case f.Get("redirect_uri") != c.redirect:
		why = "the redirect_uri is not the one of the authorization request"
	case !pkceMatches(f.Get("code_verifier"), c.challenge):
		why = "the code_verifier does not match the code_challenge"
	case c.resource != "" && f.Get("resource") != "" && !s.isResource(f.Get("resource")):
		why = "the resource differs from the authorization request's"
	}
	if why != "" {
		if ok && c.grant == nil {
			s.codes.delete(hashSecret(f.Get("code")))
		}
		return nil, "", why
	}
	g := &oauthGrant{client: client, name: c.name, redirectHost: redirectHost(c.redirect), resource: s.resource}
	c.grant = g
	s.evictGrantLocked()
	s.grants[g] = true
	return s.issueLocked(g), fmt.Sprintf("granted %.64q (redirect to %s): tokens for %s", g.name, g.redirectHost, g.resource), ""
}

// pkceMatches reports whether verifier (43 to 128 unreserved characters,
// RFC 7636 §4.1) hashes to the S256 challenge.
func pkceMatches(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	for _, c := range verifier {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	sum := sha256.Sum256([]byte(verifier))
	return hashSecret(base64.RawURLEncoding.EncodeToString(sum[:])).matches(challenge)
}

// refreshGrant is the refresh_token grant, answered as exchange's: the
// token is rotated; a rotated one presented again revokes the whole
// grant.
func (s *oauthServer) refreshGrant(f url.Values, client secretHash) (resp map[string]any, note, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.refresh.lookup(f.Get("refresh_token"))
	switch {
	case !ok:
		why = "the refresh token is unknown or revoked"
	case e.grant.client != client:
		why = "the refresh token was issued to another client"
	case e.rotated:
		s.revokeLocked(e.grant)
		why = "the refresh token was used already: every token of its grant is revoked (one of them may be stolen)"
	case !time.Now().Before(e.grant.refreshExpires):
		s.revokeLocked(e.grant)
		why = "the refresh token has expired (30 days unused): sign in again"
	case e.grant.resource != s.resource:
		why = "the refresh token is for another resource (" + e.grant.resource + ")"
	}
	if why != "" {
		return nil, "", why
	}
	return s.issueLocked(e.grant), fmt.Sprintf("refreshed %.64q (redirect to %s)", e.grant.name, e.grant.redirectHost), ""
}

// issueLocked mints a new access token and a new refresh token for g,
// rotating out its refresh token, and returns the token response.
func (s *oauthServer) issueLocked(g *oauthGrant) map[string]any {
	now := time.Now()
	g.used = now
	access := longToken()
	g.access = append(g.access, s.access.add(access, &accessEntry{grant: g, expires: now.Add(oauthAccessLife)}))
	if n := len(g.access) - oauthGrantAccess; n > 0 {
		for _, h := range g.access[:n] {
			s.access.delete(h)
		}
		g.access = g.access[n:]
	}
	if e, ok := s.refresh.get(g.refresh); ok {
		e.rotated = true
		g.rotated = append(g.rotated, g.refresh)
		if n := len(g.rotated) - oauthGrantRotated; n > 0 {
			for _, h := range g.rotated[:n] {
				s.refresh.delete(h)
			}
			g.rotated = g.rotated[n:]
		}
	}
	refresh := longToken()
	g.refresh = s.refresh.add(refresh, &refreshEntry{grant: g})
	g.refreshExpires = now.Add(oauthRefreshLife)
	return map[string]any{
		"access_token":  access,
		"token_type":    "Bearer",
		"expires_in":    int(oauthAccessLife.Seconds()),
		"refresh_token": refresh,
		"scope":         oauthScope,
	}
}

// revokeLocked ends g: its access tokens, its refresh tokens, current
// and rotated.
func (s *oauthServer) revokeLocked(g *oauthGrant) {
	for _, h := range g.access {
		s.access.delete(h)
	}
	for _, h := range g.rotated {
		s.refresh.delete(h)
	}
	s.refresh.delete(g.refresh)
	g.access, g.rotated = nil, nil
	delete(s.grants, g)
}

// evictGrantLocked makes room for one more grant: past oauthMaxGrants the
// one used least recently is revoked.
func (s *oauthServer) evictGrantLocked() {
	if len(s.grants) < oauthMaxGrants {
		return
	}
	var old *oauthGrant
	for g := range s.grants {
		if old == nil || g.used.Before(old.used) {
			old = g
		}
	}
	s.revokeLocked(old)
}

// revoke answers POST /oauth/revoke (RFC 7009): a refresh token ends its
// whole grant, an access token only itself. An unknown token is answered
// 200 as the RFC says; a token of another client (when client_id is
// given) is refused.
func (s *oauthServer) revoke(w http.ResponseWriter, r *http.Request) {
	f, err := oauthForm(w, r)
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	tok := f.Get("token")
	if tok == "" {
		oauthError(w, http.StatusBadRequest, "invalid_request", "send the token to revoke")
		return
	}
	id := formClientID(r, f)
	s.mu.Lock()
	var g *oauthGrant
	what := ""
	if a, ok := s.access.lookup(tok); ok {
		g, what = a.grant, "an access token of"
	} else if e, ok := s.refresh.lookup(tok); ok {
		g, what = e.grant, "the grant of"
	}
	switch {
	case g != nil && id != "" && g.client != hashSecret(id):
		s.mu.Unlock()
		s.refused(r, "a revocation of another client's token")
		oauthError(w, http.StatusUnauthorized, "invalid_client", "the token was issued to another client")
		return
	case what == "an access token of":
		s.access.delete(hashSecret(tok))
	case g != nil:
		s.revokeLocked(g)
	}
	s.mu.Unlock()
	if g != nil {
		s.store.changed()
		s.logf("revoked %s %.64q (redirect to %s)", what, g.name, g.redirectHost)
	}
	w.WriteHeader(http.StatusOK)
}

// grantStore keeps the registrations and grants in a 0600 file, written
// behind each change by one goroutine and once more at close.
type grantStore struct {
	path string
	s    *oauthServer
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
}

// grantsFile is the file's JSON: hashes, never a token.
type grantsFile struct {
	Note    string             `json:"note"`
	Clients []grantsFileClient `json:"clients"`
	Grants  []grantsFileGrant  `json:"grants"`
}

type grantsFileClient struct {
	ID           string    `json:"client_id_sha256"`
	Name         string    `json:"client_name"`
	RedirectURIs []string  `json:"redirect_uris"`
	Used         time.Time `json:"used"`
}

type grantsFileGrant struct {
	Client         string             `json:"client_id_sha256"`
	Name           string             `json:"client_name"`
	RedirectHost   string             `json:"redirect_host"`
	Resource       string             `json:"resource"`
	Used           time.Time          `json:"used"`
	Refresh        string             `json:"refresh_token_sha256"`
	RefreshExpires time.Time          `json:"refresh_expires"`
	Rotated        []string           `json:"rotated_sha256,omitempty"`
	Access         []grantsFileAccess `json:"access_tokens,omitempty"`
}

type grantsFileAccess struct {
	Hash    string    `json:"sha256"`
	Expires time.Time `json:"expires"`
}

const grantsNote = "ttywright's OAuth registrations and grants, by their tokens' SHA-256. Delete this file while ttywright is stopped to sign every client out."

// openGrantStore reads path into s, when it exists (openOwnFile's
// checks), and starts the writer.
func openGrantStore(path string, s *oauthServer) (*grantStore, error) {
	f, err := openOwnFile(path, "the grants file", "the grants")
	switch {
	case err == nil:
		defer f.Close()
		var gf grantsFile
		if err := json.NewDecoder(io.LimitReader(f, 8<<20)).Decode(&gf); err != nil {
			return nil, fmt.Errorf("the grants file %s: %v (delete it to sign every client out and start afresh)", path, err)
		}
		gf.load(s)
	case !os.IsNotExist(err):
		return nil, err
	}
	st := &grantStore{path: path, s: s, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go st.run()
	return st, nil
}

// load puts the file's live entries into s, before s serves.
func (gf *grantsFile) load(s *oauthServer) {
	now := time.Now()
	for _, c := range gf.Clients {
		if h, ok := unhex(c.ID); ok {
			s.clients.put(h, &oauthClient{name: c.Name, redirects: c.RedirectURIs, used: c.Used})
		}
	}
	for _, fg := range gf.Grants {
		client, ok1 := unhex(fg.Client)
		refresh, ok2 := unhex(fg.Refresh)
		if !ok1 || !ok2 || !now.Before(fg.RefreshExpires) {
			continue
		}
		g := &oauthGrant{client: client, name: fg.Name, redirectHost: fg.RedirectHost, resource: fg.Resource,
			used: fg.Used, refresh: refresh, refreshExpires: fg.RefreshExpires}
		s.refresh.put(refresh, &refreshEntry{grant: g})
		for _, r := range fg.Rotated {
			if h, ok := unhex(r); ok {
				g.rotated = append(g.rotated, h)
				s.refresh.put(h, &refreshEntry{grant: g, rotated: true})
			}
		}
		for _, a := range fg.Access {
			if h, ok := unhex(a.Hash); ok && now.Before(a.Expires) {
				g.access = append(g.access, h)
				s.access.put(h, &accessEntry{grant: g, expires: a.Expires})
			}
		}
		s.grants[g] = true
	}
}

func unhex(s string) (secretHash, bool) {
	var h secretHash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, false
	}
	copy(h[:], b)
	return h, true
}

// changed asks the writer to write the file; nil (no file) does nothing.
func (st *grantStore) changed() {
	if st == nil {
		return
	}
	select {
	case st.kick <- struct{}{}:
	default: // a write is due already
	}
}

func (st *grantStore) run() {
	defer close(st.done)
	for {
		select {
		case <-st.kick:
			st.write()
		case <-st.stop:
			st.write()
			return
		}
	}
}

// close writes the file a last time and stops the writer.
func (st *grantStore) close() {
	close(st.stop)
	<-st.done
}

// write replaces the file with s's state: a new 0600 file beside it,
// renamed over it, so a crash leaves the old or the new.
func (st *grantStore) write() {
	b, err := json.MarshalIndent(st.s.snapshot(), "", "  ")
	if err == nil {
		err = writePrivateFile(st.path, b)
	}
	if err != nil {
		st.s.errlog.Printf("oauth: cannot keep the grants in %s: %v (a restart will sign clients out)", st.path, err)
	}
}

// writePrivateFile replaces path with b through a 0600 temporary file in
// its directory.
func writePrivateFile(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".ttywright-grants-*") // mode 0600
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// snapshot is s's registrations and grants as the file keeps them.
func (s *oauthServer) snapshot() grantsFile {
	s.mu.Lock()
	defer s.mu.Unlock()
	gf := grantsFile{Note: grantsNote, Clients: []grantsFileClient{}, Grants: []grantsFileGrant{}}
	for h, c := range s.clients.all() {
		gf.Clients = append(gf.Clients, grantsFileClient{ID: hex.EncodeToString(h[:]), Name: c.name, RedirectURIs: c.redirects, Used: c.used})
	}
	for g := range s.grants {
		fg := grantsFileGrant{Client: hex.EncodeToString(g.client[:]), Name: g.name, RedirectHost: g.redirectHost,
			Resource: g.resource, Used: g.used, Refresh: hex.EncodeToString(g.refresh[:]), RefreshExpires: g.refreshExpires}
		for _, h := range g.rotated {
			fg.Rotated = append(fg.Rotated, hex.EncodeToString(h[:]))
		}
		for _, h := range g.access {
			if a, ok := s.access.get(h); ok {
				fg.Access = append(fg.Access, grantsFileAccess{Hash: hex.EncodeToString(h[:]), Expires: a.expires})
			}
		}
		gf.Grants = append(gf.Grants, fg)
	}
	return gf
}
