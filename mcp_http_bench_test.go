package main

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkHTTPToolCall: one tools/call round trip (shell_read of a
// session running cat) over stdio, over HTTP in a legacy session and as a
// 2026-07-28 request; median and p95 per op.
func BenchmarkHTTPToolCall(b *testing.B) {
	needProgram(b, "cat")
	b.Run("stdio", func(b *testing.B) {
		c := startAppServer(b, nil, func(*App, *Server) {})
		c.initialize(protoV20251125)
		sc := c.mustTool("shell_start", map[string]any{"command": "cat"})
		args := map[string]any{"session_id": sc["shell_session_id"]}
		ds := make([]time.Duration, 0, b.N)
		for b.Loop() {
			start := time.Now()
			if _, _, isErr := c.tool("shell_read", args); isErr {
				b.Fatal("shell_read failed")
			}
			ds = append(ds, time.Since(start))
		}
		reportLatency(b, ds)
	})
	for _, era := range []string{"legacy", "modern"} {
		b.Run("http-"+era, func(b *testing.B) {
			ht := startHTTP(b, HTTPConfig{}, nil)
			call := httpCaller(b, ht, era)
			id := httpStartCat(b, call)
			ds := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				call("shell_read", `{"session_id":"`+id+`"}`)
				ds = append(ds, time.Since(start))
			}
			reportLatency(b, ds)
		})
	}
}

// BenchmarkHTTPToolsCallLargeArgs: one 2026-07-28 tools/call whose
// arguments hold 1 MiB of text (test_progress ignores them), so that the
// time and bytes per call show how often the transport and the Server
// decode a request's body.
func BenchmarkHTTPToolsCallLargeArgs(b *testing.B) {
	ht := startHTTP(b, HTTPConfig{}, nil)
	args := map[string]any{"text": strings.Repeat("x", 1<<20)}
	body := modernBody(1, "tools/call", map[string]any{"name": "test_progress", "arguments": args})
	hdr := modernHeaders("tools/call", "test_progress")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		resp := ht.do("POST", body, hdr)
		if msgs := messages(b, resp); resp.StatusCode != 200 || len(msgs) != 1 || msgs[0]["result"] == nil {
			b.Fatalf("%d %v", resp.StatusCode, msgs)
		}
	}
}

// BenchmarkHTTPConcurrent: 64 clients, each its own legacy session and
// terminal, call shell_read at once; calls a second and the p99.
func BenchmarkHTTPConcurrent(b *testing.B) {
	needProgram(b, "cat")
	const clients = 64
	ht := startHTTP(b, HTTPConfig{}, nil)
	ht.c.Transport = &http.Transport{MaxIdleConnsPerHost: clients}
	calls := make([]func(tool, args string) map[string]any, clients)
	ids := make([]string, clients)
	for i := range clients {
		calls[i] = httpCaller(b, ht, "legacy")
		ids[i] = httpStartCat(b, calls[i])
	}
	var mu sync.Mutex
	var ds []time.Duration
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i := range clients {
		n := b.N / clients
		if i < b.N%clients {
			n++
		}
		wg.Go(func() {
			mine := make([]time.Duration, 0, n)
			for range n {
				t := time.Now()
				calls[i]("shell_read", `{"session_id":"`+ids[i]+`"}`)
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			ds = append(ds, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(len(ds))/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(percentile(ds, 0.99).Microseconds()), "p99-µs")
}

// BenchmarkHTTPIdleConns: ping p99 while 10,000 idle connections are
// open (fewer when the file limit does not allow them); the transport
// keeps at most httpMaxConns of them.
func BenchmarkHTTPIdleConns(b *testing.B) {
	want := 10000
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) == nil && rl.Cur < uint64(want+httpMaxConns+256) {
		want = int(rl.Cur) - httpMaxConns - 256
	}
	ht := startHTTP(b, HTTPConfig{}, nil)
	addr := strings.TrimSuffix(strings.TrimPrefix(ht.url, "http://"), "/mcp")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range want {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatalf("after %d connections: %v", len(conns), err)
		}
		conns = append(conns, c)
	}
	call := httpCaller(b, ht, "modern")
	ds := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		call("", "")
		ds = append(ds, time.Since(start))
	}
	b.ReportMetric(float64(len(conns)), "idle-conns")
	b.ReportMetric(float64(openConns(&ht.h.conns)), "server-conns")
	b.ReportMetric(float64(percentile(ds, 0.99).Microseconds()), "p99-µs")
}

// httpCaller returns a function that calls tool with args (JSON) over ht
// in era ("legacy": a session of its own, "modern": stateless) and
// returns the result; tool "" is server/discover for modern, ping for
// legacy.
func httpCaller(b *testing.B, ht *httpTest, era string) func(tool, args string) map[string]any {
	hdr := map[string]string{}
	if era == "legacy" {
		hdr = map[string]string{"Mcp-Session-Id": ht.initialize(protoV20251125, "{}"), "MCP-Protocol-Version": protoV20251125}
	}
	var mu sync.Mutex
	n := 100
	return func(tool, args string) map[string]any {
		mu.Lock()
		n++
		id := n
		mu.Unlock()
		var body string
		h := hdr
		switch {
		case era == "legacy" && tool == "":
			body = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id)
		case era == "legacy":
			body = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
		case tool == "":
			body, h = modernBody(id, "server/discover", nil), modernHeaders("server/discover", "")
		default:
			body = strings.Replace(modernBody(id, "tools/call", map[string]any{"name": tool}), `"name":`, `"arguments":`+args+`,"name":`, 1)
			h = modernHeaders("tools/call", tool)
		}
		resp := ht.do("POST", body, h)
		msgs := messages(b, resp)
		if resp.StatusCode != 200 || len(msgs) == 0 || msgs[len(msgs)-1]["result"] == nil {
			b.Fatalf("%s %s: %d %v", era, tool, resp.StatusCode, msgs)
		}
		return msgs[len(msgs)-1]["result"].(map[string]any)
	}
}

// httpStartCat starts cat through call and returns its session id.
func httpStartCat(b *testing.B, call func(tool, args string) map[string]any) string {
	r := call("shell_start", `{"command":"cat"}`)
	sc, _ := r["structuredContent"].(map[string]any)
	id, _ := sc["shell_session_id"].(string)
	if id == "" {
		b.Fatalf("shell_start: %v", r)
	}
	return id
}

// reportLatency reports the median and the p95 of ds in µs.
func reportLatency(b *testing.B, ds []time.Duration) {
	b.ReportMetric(float64(percentile(ds, 0.5).Microseconds()), "median-µs")
	b.ReportMetric(float64(percentile(ds, 0.95).Microseconds()), "p95-µs")
	b.ReportMetric(0, "ns/op")
}
