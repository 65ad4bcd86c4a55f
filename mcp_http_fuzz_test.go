package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fuzzToken is the bearer token of FuzzHTTPRequest's transport.
const fuzzToken = "fuzz-token-0123456789abcdefghijklmnopqrstuvwxyz"

// FuzzHTTPRequest feeds raw HTTP requests through the transport's
// handler: nothing panics, and every response has a valid status and, when
// it says JSON or SSE, JSON messages. (FuzzOAuthRequest covers the OAuth
// paths, so this transport has --http-auth=token.)
func FuzzHTTPRequest(f *testing.F) {
	modern := modernBody(1, "tools/list", nil)
	seeds := []string{
		"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:1\r\nAuthorization: Bearer " + fuzzToken + "\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" + fmt.Sprintf(initBody, protoV20251125, "{}"),
		"POST /mcp/" + fuzzToken + " HTTP/1.1\r\nHost: localhost:1\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: %d\r\n\r\n" + modern,
		"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:1\r\nAuthorization: Bearer " + fuzzToken + "\r\nMcp-Session-Id: x\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\n\r\n[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
		"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:1\r\nAuthorization: Bearer " + fuzzToken + "\r\nLast-Event-ID: 3\r\nContent-Length: %d\r\n\r\n",
		"DELETE /mcp?token=" + fuzzToken + " HTTP/1.1\r\nHost: evil.example.com\r\nOrigin: null\r\nContent-Length: %d\r\n\r\n",
		"OPTIONS /mcp HTTP/1.1\r\nHost: [::1]:1\r\nOrigin: https://app.example.com\r\nContent-Length: %d\r\n\r\n",
	}
	for _, s := range seeds {
		_, body, _ := strings.Cut(s, "\r\n\r\n")
		f.Add([]byte(strings.Replace(s, "%d", fmt.Sprint(len(body)), 1)))
	}
	dir := f.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(fuzzToken), 0o600); err != nil {
		f.Fatal(err)
	}
	app := newApp(Config{Theme: "one-dark", Cols: 20, Rows: 4, Scale: 1, MaxSessions: 2, OutputDir: dir, AllowCommands: []string{"/bin/true"}})
	h, err := newHTTPMCP(HTTPConfig{Addr: "127.0.0.1:0", Auth: "token", TokenFile: tokenFile, AllowOrigin: []string{"https://app.example.com"}}, app.newServer, log.New(io.Discard, "", 0))
	if err != nil {
		f.Fatal(err)
	}
	h.hosts, h.port = map[string]bool{"127.0.0.1": true, "localhost": true, "::1": true}, "1"
	h.writeStall, h.keepAlive = 50*time.Millisecond, 20*time.Millisecond
	h.maxBody = 1 << 16
	f.Cleanup(func() { h.Close(); app.shutdown() })
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
		if err != nil {
			return // not HTTP: net/http answers 400 before the handler
		}
		r.RemoteAddr = "127.0.0.1:4242"
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r.WithContext(ctx))
		checkHTTPResponse(t, w.Result())
	})
}

// checkHTTPResponse fails t unless resp has a valid status and JSON
// messages where its Content-Type says so.
func checkHTTPResponse(t *testing.T, resp *http.Response) {
	t.Helper()
	if resp.StatusCode < 100 || resp.StatusCode > 599 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	body, _ := io.ReadAll(resp.Body)
	switch ct := resp.Header.Get("Content-Type"); {
	case ct == "application/json":
		if !json.Valid(body) {
			t.Fatalf("%d: a JSON body that is not JSON: %q", resp.StatusCode, body)
		}
	case ct == "text/event-stream":
		for line := range strings.SplitSeq(string(body), "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok && !json.Valid([]byte(data)) {
				t.Fatalf("an event that is not JSON: %q", data)
			}
		}
	case resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusNoContent:
		t.Fatalf("%d with Content-Type %q", resp.StatusCode, ct)
	}
}

// FuzzHTTPParsers: the small parsers of the transport on any input:
// the =?base64?...?= header form round-trips, and an origin parses to
// itself in lower case.
func FuzzHTTPParsers(f *testing.F) {
	f.Add("=?base64?aGk=?=", "https://a.example:1")
	f.Add("plain", "null")
	f.Add("=?base64?!?=", "http://[::1]:80")
	f.Fuzz(func(t *testing.T, header, origin string) {
		if v, ok := decodeHeaderValue(header); ok && !strings.HasPrefix(header, "=?base64?") && v != header {
			t.Fatalf("%q decoded to %q", header, v)
		}
		if o, err := parseOrigin(origin); err == nil && o != strings.ToLower(origin) {
			t.Fatalf("origin %q parsed to %q", origin, o)
		}
	})
}
