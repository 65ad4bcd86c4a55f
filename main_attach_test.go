//go:build unix

package main

// main_attach_test.go: the attach subcommand's arguments and which
// session it picks.

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseAttachFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    string
		want    attachFlags
		wantErr bool
	}{
		{"", attachFlags{}, false},
		{"shell-2", attachFlags{session: "shell-2"}, false},
		{"--list", attachFlags{list: true}, false},
		{"--server 42 --control --resize shell-1", attachFlags{server: 42, control: true, resize: true, session: "shell-1"}, false},
		{"--web shell-3", attachFlags{web: true, session: "shell-3"}, false},
		{"shell-1 shell-2", attachFlags{}, true},
		{"--bogus", attachFlags{}, true},
	}
	for _, tt := range tests {
		got, err := parseAttachFlags(strings.Fields(tt.args), io.Discard)
		if (err != nil) != tt.wantErr || err == nil && got != tt.want {
			t.Errorf("%q: %+v, %v; want %+v, error %v", tt.args, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestPickSession(t *testing.T) {
	t.Parallel()
	one := foundSession{pid: 10, attachSessionJSON: attachSessionJSON{ID: "shell-1"}}
	two := foundSession{pid: 10, attachSessionJSON: attachSessionJSON{ID: "shell-2"}}
	other := foundSession{pid: 11, attachSessionJSON: attachSessionJSON{ID: "shell-1"}}
	tests := []struct {
		name    string
		found   []foundSession
		id      string
		want    foundSession
		wantErr string
	}{
		{"the only one", []foundSession{one}, "", one, ""},
		{"none", nil, "", foundSession{}, "no server of yours"},
		{"several, none named", []foundSession{one, two}, "", foundSession{}, "several sessions"},
		{"named", []foundSession{one, two}, "shell-2", two, ""},
		{"unknown", []foundSession{one}, "shell-9", foundSession{}, "no session"},
		{"in two servers", []foundSession{one, other}, "shell-1", foundSession{}, "--server"},
	}
	for _, tt := range tests {
		got, err := pickSession(tt.found, tt.id)
		if tt.wantErr == "" && (err != nil || got != tt.want) || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: %+v, %v; want %+v, error containing %q", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestAttachWebPrintsLink: ttywright attach --web SESSION finds the
// server by its socket and prints the session's live view link, one a
// browser can load; an unknown session exits 1 with the fix.
func TestAttachWebPrintsLink(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	runtime := t.TempDir()
	as, err := startAttachLimits(a.sessions, a.tools.views, filepath.Join(runtime, "ttywright"), t.Logf, attachReadLimit, attachWriteLimit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(as.Close)
	getenv := func(k string) string {
		if k == "XDG_RUNTIME_DIR" {
			return runtime
		}
		return ""
	}
	var out, errOut bytes.Buffer
	if code := runAttach([]string{"--web", id}, getenv, os.Stdin, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	url := strings.TrimSpace(out.String())
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("GET %s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out.Reset()
	errOut.Reset()
	if code := runAttach([]string{"--web", "shell-99"}, getenv, os.Stdin, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "attach --list") {
		t.Errorf("an unknown session: exit %d, %q", code, errOut.String())
	}
}
