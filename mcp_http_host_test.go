package main

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/url"
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

// TestHTTPClientURL: the URL given at start names a host a remote client
// can use: on every interface, the first --http-host or else the
// certificate's name, never 127.0.0.1; and a request to it is served.
func TestHTTPClientURL(t *testing.T) {
	cert, key := selfSigned(t, "mcp.test")
	cases := []struct {
		addr  string
		hosts []string
		want  string // the URL's host
	}{
		{"0.0.0.0:0", nil, "mcp.test"},
		{"0.0.0.0:0", []string{"lan.example"}, "lan.example"},
		{"[::]:0", nil, "mcp.test"},
		{"127.0.0.1:0", []string{"tunnel.example"}, "127.0.0.1"},
	}
	for _, c := range cases {
		ht := startHTTP(t, HTTPConfig{Addr: c.addr, Hosts: c.hosts, TLSCert: cert, TLSKey: key}, nil)
		u, err := url.Parse(ht.url)
		if err != nil || u.Scheme != "https" || u.Hostname() != c.want || u.Path != "/mcp" {
			t.Errorf("%s %v: URL %s, want https://%s:PORT/mcp", c.addr, c.hosts, ht.url, c.want)
			continue
		}
		port := u.Port()
		ht.c.Transport = &http.Transport{
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // the test's own certificate
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, "127.0.0.1:"+port) // the name resolves here
			},
		}
		r := ht.do("POST", modernBody(1, "server/discover", nil), modernHeaders("server/discover", ""))
		r.Body.Close()
		if r.StatusCode != 200 {
			t.Errorf("%s: %d", ht.url, r.StatusCode)
		}
	}
}
