package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
