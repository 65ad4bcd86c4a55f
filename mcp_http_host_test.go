package main

import (
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestHTTPHostAndOrigin: Host must carry the listener's port (a
// --http-host name any port), and an Origin is the server's own only
// with its scheme, a served name and its port.
func TestHTTPHostAndOrigin(t *testing.T) {
	ht := startHTTP(t, HTTPConfig{Hosts: []string{"tunnel.example"}}, nil)
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(ht.url, "http://"), "/mcp"))
	cases := []struct {
		name, host, origin string
		status             int
	}{
		{"Host with the port", "127.0.0.1:" + port, "", 200},
		{"another loopback name", "localhost:" + port, "", 200},
		{"IPv6 loopback", "[::1]:" + port, "", 200},
		{"Host without the port", "127.0.0.1", "", 403},
		{"Host with another port", "127.0.0.1:1", "", 403},
		{"a --http-host name", "tunnel.example", "", 200},
		{"a --http-host name with a port", "tunnel.example:8443", "", 200},
		{"the server's own origin", "", "http://127.0.0.1:" + port, 200},
		{"its other name", "", "http://localhost:" + port, 200},
		{"an origin on port 80", "", "http://127.0.0.1", 403},
		{"localhost on port 80", "", "http://localhost", 403},
		{"another scheme", "", "https://127.0.0.1:" + port, 403},
		{"another port", "", "http://127.0.0.1:1", 403},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("POST", ht.url, strings.NewReader(modernBody(1, "server/discover", nil)))
		for k, v := range modernHeaders("server/discover", "") {
			req.Header.Set(k, v)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+ht.token)
		if c.host != "" {
			req.Host = c.host
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := ht.c.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		msgs := messages(t, resp)
		if resp.StatusCode != c.status {
			t.Errorf("%s: %d %v, want %d", c.name, resp.StatusCode, msgs, c.status)
		}
	}
}

// TestHTTPHostDefaultPort: on the scheme's default port a Host or an
// origin without a port is the server's.
func TestHTTPHostDefaultPort(t *testing.T) {
	h := &httpMCP{hosts: map[string]bool{"mcp.test": true}, port: "443"}
	cases := []struct {
		hostport, scheme string
		want             bool
	}{
		{"mcp.test", "https", true},
		{"mcp.test:443", "https", true},
		{"mcp.test", "http", false},
		{"mcp.test:80", "https", false},
	}
	for _, c := range cases {
		if got := h.hostServed(c.hostport, c.scheme); got != c.want {
			t.Errorf("%s over %s: %v, want %v", c.hostport, c.scheme, got, c.want)
		}
	}
}
