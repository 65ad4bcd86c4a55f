package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// logLines collects a logger's lines for a test to look at.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimSpace(string(p)))
	return len(p), nil
}

// matching returns the lines that contain s.
func (l *logLines) matching(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return out
}

// TestHTTPQueryCredential: a credential in the query string is refused;
// the log says to make a new token only when it is the token, and the
// refusals are limited per address like failed logins: a burst logged,
// then 429, counted in the next line.
func TestHTTPQueryCredential(t *testing.T) {
	cases := []struct {
		name   string
		query  func(token string) string
		leaked bool // the log says "make a new token"
	}{
		{"the token as access_token", func(tok string) string { return "access_token=" + tok }, true},
		{"the token as another parameter", func(tok string) string { return "x=" + tok }, true},
		{"a wrong value named token", func(string) string { return "token=" + strings.Repeat("A", 43) }, false},
		{"a short key", func(string) string { return "key=abc" }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each waits out the failure rate
			logs := &logLines{}
			ht := startHTTP(t, HTTPConfig{}, func(h *httpMCP) { h.auth.errlog = log.New(logs, "", 0) })
			url := ht.url + "?" + c.query(ht.token)
			var statuses []int
			send := func() {
				req, _ := http.NewRequest("POST", url, strings.NewReader(modernBody(1, "server/discover", nil)))
				req.Header.Set("Content-Type", "application/json")
				resp, err := ht.c.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				messages(t, resp)
				statuses = append(statuses, resp.StatusCode)
			}
			for range authFailBurst + 5 {
				send()
			}
			time.Sleep(time.Duration(1.2 * float64(time.Second) / authFailRate))
			send()
			want := fmt.Sprint(slices.Concat(slices.Repeat([]int{400}, authFailBurst), slices.Repeat([]int{429}, 5), []int{400}))
			if got := fmt.Sprint(statuses); got != want {
				t.Errorf("statuses %s, want %s", got, want)
			}
			refused, newToken := logs.matching("http: refused"), logs.matching("make a new token")
			if len(refused) != authFailBurst+1 || !strings.Contains(refused[len(refused)-1], "(5 more refused since the last report)") {
				t.Errorf("log: %q", refused)
			}
			if (len(newToken) > 0) != c.leaked {
				t.Errorf("leaked %v, but the log says %q", c.leaked, newToken)
			}
		})
	}
}

// TestHTTPTokenFileUnsafe: --http-token-file refuses a file, or a
// directory above it, that another user could read, replace or redirect,
// saying what to do; a missing file is made 0600, never through a link.
func TestHTTPTokenFileUnsafe(t *testing.T) {
	const other = 65534 // nobody
	token := strings.Repeat("k", 43) + "\n"
	cases := []struct {
		name  string
		root  bool // needs root (chown)
		setup func(t *testing.T, dir string) string
		fail  string // "" = accepted
	}{
		{"a symlink to a good file", false, func(t *testing.T, dir string) string {
			os.WriteFile(filepath.Join(dir, "real"), []byte(token), 0o600)
			os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "tok"))
			return filepath.Join(dir, "tok")
		}, "is a symlink"},
		{"a dangling symlink", false, func(t *testing.T, dir string) string {
			os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, "tok"))
			return filepath.Join(dir, "tok")
		}, "is a symlink"},
		{"a directory everyone may write", false, func(t *testing.T, dir string) string {
			d := filepath.Join(dir, "open")
			os.Mkdir(d, 0o777)
			os.Chmod(d, 0o777)
			return filepath.Join(d, "tok")
		}, "writable by other users and not sticky"},
		{"an ancestor everyone may write", false, func(t *testing.T, dir string) string {
			d := filepath.Join(dir, "open", "mine")
			os.MkdirAll(d, 0o700)
			os.Chmod(filepath.Dir(d), 0o777)
			return filepath.Join(d, "tok")
		}, "writable by other users and not sticky"},
		{"a sticky shared directory, as /tmp", false, func(t *testing.T, dir string) string {
			d := filepath.Join(dir, "sticky")
			os.Mkdir(d, 0o700)
			os.Chmod(d, 0o777|os.ModeSticky)
			return filepath.Join(d, "tok")
		}, ""},
		{"a file of another user", true, func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "tok")
			os.WriteFile(p, []byte(token), 0o600)
			os.Chown(p, other, other)
			return p
		}, "belongs to another user"},
		{"a directory of another user", true, func(t *testing.T, dir string) string {
			d := filepath.Join(dir, "theirs")
			os.Mkdir(d, 0o755)
			os.Chown(d, other, other)
			return filepath.Join(d, "tok")
		}, "belongs to another user"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a file to another user")
			}
			p := c.setup(t, t.TempDir())
			_, err := newHTTPMCP(HTTPConfig{Addr: "127.0.0.1:0", TokenFile: p}, nil, testLogger(t))
			if c.fail == "" {
				fi, serr := os.Lstat(p)
				if err != nil || serr != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
					t.Fatalf("%v; the file: %v %v", err, fi, serr)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.fail) {
				t.Fatalf("%v, want %q", err, c.fail)
			}
			if _, serr := os.Stat(filepath.Join(filepath.Dir(p), "elsewhere")); serr == nil {
				t.Error("a token was written through the link")
			}
		})
	}
}

// bearerToken matches a token newHTTPAuth makes: two crypto/rand.Text
// values, 52 base32 characters or more, 256 bits at least.
var bearerToken = regexp.MustCompile(`^[A-Z2-7]{52,}$`)

// TestHTTPTokenFileForms: a token file is read whatever made it, today's
// build (base32) or an earlier one (43 base64url characters), and its
// token then passes as a bearer and in the path, and nothing else does;
// one too short or with a '/' is refused.
func TestHTTPTokenFileForms(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, token string
		ok          bool
	}{
		{"made today", rand.Text() + rand.Text(), true},
		{"made before, base64url", "q3_Vx-0aZ9kLmN2pQr4sTu6vWx8yZa1bCd3eFg5hIj7", true},
		{"one rand.Text, too short", rand.Text(), false},
		{"with a slash", "q3_Vx-0aZ9kLmN2pQr4sTu6vWx8yZa1bCd3eFg5/Ij7", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(p, []byte(c.token+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			a, err := newHTTPAuth(p, testLogger(t))
			if !c.ok {
				if err == nil {
					t.Fatalf("the token %q was taken", c.token)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			a.errlog = log.New(&logLines{}, "", 0) // the wrong tokens below are logged
			for _, tc := range []struct {
				bearer, path string
				status       int
			}{
				{c.token, "", 0},
				{"", c.token, 0},
				{c.token[:len(c.token)-1], "", http.StatusUnauthorized},
				{"", c.token + "x", http.StatusUnauthorized},
				{strings.ToLower(c.token), "", http.StatusUnauthorized},
			} {
				r := httptest.NewRequest("POST", "/mcp", nil)
				if tc.bearer != "" {
					r.Header.Set("Authorization", "Bearer "+tc.bearer)
				}
				if status, why := a.check(r, tc.path); status != tc.status {
					t.Errorf("bearer %q, path %q: status %d (%s), want %d", tc.bearer, tc.path, status, why, tc.status)
				}
			}
		})
	}
}

// TestHTTPFailuresFromManyAddresses: wrong tokens from 2,000 loopback
// addresses are limited as a flood from one is: past the listener's
// budget they get 429, and the log gets a few lines that count the rest,
// not a line each. The right token still passes.
func TestHTTPFailuresFromManyAddresses(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer
	a, err := newHTTPAuth(filepath.Join(t.TempDir(), "tok"), log.New(&logged, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	frozen := time.Now()
	a.all.now, a.lines.now = func() time.Time { return frozen }, func() time.Time { return frozen } // no refill: the counts are exact
	codes := map[int]int{}
	for i := range 2000 {
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.RemoteAddr = fmt.Sprintf("127.%d.%d.%d:1", i>>16&0xff, i>>8&0xff, i&0xff)
		r.Header.Set("Authorization", "Bearer wrong-token-of-client-"+strconv.Itoa(i))
		code, _ := a.check(r, "")
		codes[code]++
	}
	if codes[http.StatusUnauthorized] != authAllBurst || codes[http.StatusTooManyRequests] != 2000-authAllBurst {
		t.Errorf("answers %v: want %d 401s, the rest 429", codes, authAllBurst)
	}
	if lines := strings.Count(logged.String(), "\n"); lines != authLogBurst {
		t.Errorf("%d log lines for 2,000 refusals, want %d", lines, authLogBurst)
	}
	r := httptest.NewRequest("POST", "/mcp", nil)
	r.RemoteAddr = "127.9.9.9:1"
	r.Header.Set("Authorization", "Bearer "+a.token)
	if code, msg := a.check(r, ""); code != 0 {
		t.Errorf("the right token after the flood: %d %s", code, msg)
	}
}
