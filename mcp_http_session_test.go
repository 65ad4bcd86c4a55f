package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestHTTPSessionEviction: with the table of legacy sessions full, a new
// initialize ends the least recently used idle session (no request, no
// GET stream), which then answers 404; only when every session is busy is
// it refused, with 503 saying so.
func TestHTTPSessionEviction(t *testing.T) {
	cases := []struct {
		name   string
		busy   []bool // a GET stream open on session i
		touch  int    // the session pinged after all were opened; -1 none
		status int    // of the new initialize
		gone   int    // the session ended for it; -1 none
	}{
		{"idle sessions: the oldest ends", []bool{false, false, false}, -1, 200, 0},
		{"a ping makes a session recent", []bool{false, false, false}, 0, 200, 1},
		{"the idle one among busy ones ends", []bool{true, false, true}, -1, 200, 1},
		{"every session busy", []bool{true, true, true}, -1, 503, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ht := startHTTP(t, HTTPConfig{}, func(h *httpMCP) { h.maxSessions = len(c.busy) })
			hdrs := make([]map[string]string, len(c.busy))
			for i, busy := range c.busy {
				hdrs[i] = map[string]string{"Mcp-Session-Id": ht.initialize(protoV20251125, "{}"), "MCP-Protocol-Version": protoV20251125}
				if busy {
					get := ht.do("GET", "", hdrs[i])
					defer get.Body.Close()
					if get.StatusCode != 200 {
						t.Fatalf("GET %d: %d", i, get.StatusCode)
					}
				}
			}
			if c.touch >= 0 {
				messages(t, ht.do("POST", `{"jsonrpc":"2.0","id":2,"method":"ping"}`, hdrs[c.touch]))
			}
			resp := ht.do("POST", fmt.Sprintf(initBody, protoV20251125, "{}"), nil)
			msgs := messages(t, resp)
			if resp.StatusCode != c.status {
				t.Fatalf("initialize: %d %v, want %d", resp.StatusCode, msgs, c.status)
			}
			if c.status == http.StatusServiceUnavailable {
				if msg := fmt.Sprint(msgs); !strings.Contains(msg, "are busy") || resp.Header.Get("Retry-After") != "1" {
					t.Errorf("refusal: Retry-After %q, %s", resp.Header.Get("Retry-After"), msg)
				}
			}
			for i, h := range hdrs {
				r := ht.do("POST", `{"jsonrpc":"2.0","id":3,"method":"ping"}`, h)
				msgs := messages(t, r)
				want := 200
				if i == c.gone {
					want = http.StatusNotFound
				}
				if r.StatusCode != want || want == 404 && !strings.Contains(fmt.Sprint(msgs), "send initialize") {
					t.Errorf("session %d: %d %v, want %d", i, r.StatusCode, msgs, want)
				}
			}
		})
	}
}
