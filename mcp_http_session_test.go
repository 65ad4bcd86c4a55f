package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
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

// TestHTTPShutdownAnswers: a request still running when the server stops
// gets a JSON-RPC error, "the server is shutting down", as JSON or, when
// its POST had turned into a stream, as its last event; never an empty
// 200.
func TestHTTPShutdownAnswers(t *testing.T) {
	cases := []struct {
		name   string
		modern bool
		sse    bool // the POST turned into SSE (a keep-alive) before the stop
	}{
		{"legacy, JSON", false, false},
		{"legacy, SSE", false, true},
		{"2026-07-28, JSON", true, false},
		{"2026-07-28, SSE", true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			keepAlive := time.Minute
			if c.sse {
				keepAlive = 50 * time.Millisecond
			}
			ht := startHTTP(t, HTTPConfig{}, func(h *httpMCP) { h.keepAlive = keepAlive })
			body, hdr := modernBody(7, "tools/call", map[string]any{"name": "test_block"}), modernHeaders("tools/call", "test_block")
			if !c.modern {
				body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"test_block"}}`
				hdr = map[string]string{"Mcp-Session-Id": ht.initialize(protoV20251125, "{}"), "MCP-Protocol-Version": protoV20251125}
			}
			got := make(chan *http.Response, 1)
			go func() { got <- ht.do("POST", body, hdr) }()
			<-httpBlocked
			var resp *http.Response
			if c.sse {
				resp = <-got // its headers came with the first keep-alive
			}
			ht.h.Close()
			if !c.sse {
				resp = <-got
			}
			ct := resp.Header.Get("Content-Type")
			msgs := messages(t, resp)
			want := map[bool]string{false: "application/json", true: "text/event-stream"}[c.sse]
			if resp.StatusCode != 200 || ct != want || len(msgs) != 1 || errCode(msgs[0]) != codeConnectionClosed ||
				fmt.Sprint(msgs[0]["id"]) != "7" || !strings.Contains(fmt.Sprint(msgs[0]), "the server is shutting down") {
				t.Errorf("%d %q %v, want 200 %s and the shutdown error for id 7", resp.StatusCode, ct, msgs, want)
			}
			select {
			case <-httpUnblocked:
			case <-time.After(10 * time.Second):
				t.Error("the request was not cancelled")
			}
		})
	}
}
