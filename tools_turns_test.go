package main

// tools_turns_test.go: calls that type into one session take turns.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sendBurst writes the requests on one line each, all in one write (as a
// client sending them in parallel does), and returns their replies in the
// same order.
func sendBurst(t *testing.T, c *testClient, calls []map[string]any) []reply {
	t.Helper()
	chans := make([]chan reply, len(calls))
	var lines []string
	c.mu.Lock()
	for i, params := range calls {
		c.nextID++
		chans[i] = make(chan reply, 1)
		c.wait[strconv.Itoa(c.nextID)] = chans[i]
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": "tools/call", "params": params})
		lines = append(lines, string(b))
	}
	c.mu.Unlock()
	c.send(strings.Join(lines, "\n"))
	out := make([]reply, len(calls))
	for i, ch := range chans {
		out[i] = <-ch // c's reader fails the test if the server stops
	}
	return out
}

// startShellOver starts shell name through c with a clean HOME and
// returns the session id.
func startShellOver(t *testing.T, c *testClient, name string) string {
	t.Helper()
	needShell(t, name)
	home := t.TempDir()
	m := c.mustTool("shell_start", map[string]any{"command": name, "args": []string{}, "cwd": home,
		"env": map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "ZDOTDIR": home, "HISTFILE": filepath.Join(home, ".hist")}})
	id := m["shell_session_id"].(string)
	// Stopped before home is removed: fish writes there in the background.
	t.Cleanup(func() { c.tool("shell_stop", map[string]any{"session_id": id}) })
	return id
}

// TestConcurrentSendsTakeTurns: shell_send calls sent at once into one
// shell each type their command only once the previous call's wait has
// ended, so each reply is its own command, with no type-ahead in its
// output, and the commands of a burst are numbered one after another.
// They run in the order they arrived.
func TestConcurrentSendsTakeTurns(t *testing.T) {
	t.Parallel()
	const calls, rounds = 5, 4
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			c := startServer(t)
			c.initialize("2025-06-18")
			id := startShellOver(t, c, sh.name)
			c.mustTool("shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
			first := 1
			for round := range rounds {
				var reqs []map[string]any
				for i := range calls {
					reqs = append(reqs, map[string]any{"name": "shell_send", "arguments": map[string]any{
						"session_id": id, "text": fmt.Sprintf("echo conc-%d-%d\n", round, i), "wait_for_command": true, "timeout_ms": 20000}})
				}
				for i, r := range sendBurst(t, c, reqs) {
					text, m, isErr := toolResult(r)
					want := fmt.Sprintf("conc-%d-%d", round, i)
					cmd, _ := m["command"].(map[string]any)
					if r.Error != nil || isErr || cmd == nil {
						t.Errorf("round %d call %d: error %v %v: %.300s", round, i, r.Error, isErr, text)
						continue
					}
					n := int(cmd["n"].(float64))
					if cmd["line"] != "echo "+want || cmd["output"] != want || exitCode(cmd) != 0 || n != first+i {
						t.Errorf("round %d call %d: command %d %q output %q exit %v, want command %d %q", round, i, n, cmd["line"], cmd["output"], cmd["exit_code"], first+i, "echo "+want)
					}
				}
				first += calls
			}
		})
	}
}

// queuedTurns is how many calls hold or wait for s's turn.
func queuedTurns(a *App, s *Session) int {
	a.tools.turns.mu.Lock()
	defer a.tools.turns.mu.Unlock()
	return len(a.tools.turns.lines[s])
}

// awaitQueued waits until n calls hold or wait for s's turn (a deadlock
// guard bounds it; nothing is timed).
func awaitQueued(t *testing.T, a *App, s *Session, n int) {
	t.Helper()
	for guard := time.Now().Add(stuckAfter); queuedTurns(a, s) != n; time.Sleep(time.Millisecond) {
		if time.Now().After(guard) {
			t.Fatalf("%d calls in the queue of %s after %v, want %d", queuedTurns(a, s), s.ID, stuckAfter, n)
		}
	}
}

// callAsync runs the tool in a goroutine with ctx and delivers its result.
func callAsync(t *testing.T, ctx context.Context, a *App, name string, args map[string]any) <-chan *ToolResult {
	t.Helper()
	b, _ := json.Marshal(args)
	tool := toolByName(t, a, name)
	ch := make(chan *ToolResult, 1)
	go func() { ch <- tool.Handle(ctx, &ToolCall{Args: b, tool: tool}) }()
	return ch
}

// result waits (bounded by the deadlock guard) for a callAsync result.
func result(t *testing.T, ch <-chan *ToolResult) *ToolResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(stuckAfter):
		t.Fatalf("no result in %v", stuckAfter)
	}
	return nil
}

// TestSendsTakeTurnsInOrder: calls queued one after another while the
// turn is held run in the order they queued, each its own command.
func TestSendsTakeTurnsInOrder(t *testing.T) {
	t.Parallel()
	const calls = 5
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
			s, _ := a.tools.session(id)
			hold := a.tools.turns.queue(s)
			var results []<-chan *ToolResult
			for i := range calls {
				results = append(results, callAsync(t, context.Background(), a, "shell_send", map[string]any{
					"session_id": id, "text": fmt.Sprintf("echo order-%d\n", i), "wait_for_command": true, "timeout_ms": 20000}))
				awaitQueued(t, a, s, i+2)
			}
			hold.leave()
			last := 0
			for i, ch := range results {
				r := result(t, ch)
				var m map[string]any
				b, _ := json.Marshal(r.Structured)
				json.Unmarshal(b, &m)
				cmd, _ := m["command"].(map[string]any)
				if r.IsError || cmd == nil {
					t.Fatalf("call %d: %.300s", i, r.Text)
				}
				want, n := fmt.Sprintf("order-%d", i), int(cmd["n"].(float64))
				if cmd["line"] != "echo "+want || cmd["output"] != want || n <= last {
					t.Errorf("call %d: command %d %q output %q, want %q after command %d", i, n, cmd["line"], cmd["output"], "echo "+want, last)
				}
				last = n
			}
		})
	}
}

// mouseEcho runs a program that enables mouse reports and prints what it
// reads, escapes shown as ^[ (cat -v on a raw terminal).
var mouseEcho = []string{"-c", `printf '\033[?1000hREADY\n'; stty raw -echo; exec cat -v`}

// TestQueuedCallTypesNothing: a shell_send or shell_click waiting for its
// turn has typed nothing; once the turn is free it types and returns.
func TestQueuedCallTypesNothing(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tt := range []struct {
		tool string
		args map[string]any
		sent string // what cat -v prints of the input
	}{
		{"shell_send", map[string]any{"text": "typed-late", "wait_idle_ms": 100}, "typed-late"},
		{"shell_click", map[string]any{"row": 2, "col": 3, "wait_idle_ms": 100}, "^[[M"},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			t.Parallel()
			id := start(t, a, "sh", mouseEcho...)
			mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "READY", "wait_idle_ms": 100})
			s, _ := a.tools.session(id)
			hold := a.tools.turns.queue(s)
			args := map[string]any{"session_id": id, "timeout_ms": 20000}
			maps.Copy(args, tt.args)
			ch := callAsync(t, context.Background(), a, tt.tool, args)
			awaitQueued(t, a, s, 2)
			// A write that slipped past the queue went to the program
			// before the holder's barrier, and cat -v prints what it reads
			// in order: once the barrier is on the screen, so is the slip.
			if err := s.writeInput(context.Background(), []byte("BARRIER")); err != nil {
				t.Fatal(err)
			}
			mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "BARRIER", "timeout_ms": 20000})
			if raw, _ := s.RawTail(4096); strings.Contains(string(raw), tt.sent) {
				t.Fatalf("%s typed before its turn: %q", tt.tool, raw)
			}
			hold.leave()
			if r := result(t, ch); r.IsError || !strings.Contains(r.Text, tt.sent) {
				t.Errorf("%s after its turn: isError %v %.300s", tt.tool, r.IsError, r.Text)
			}
			if n := queuedTurns(a, s); n != 0 {
				t.Errorf("%d calls left in the queue", n)
			}
		})
	}
}

// TestTurnWaitEnds: a call waiting for its turn returns, having typed
// nothing, when it is cancelled, when its timeout_ms passes (the queue
// counts against it) and when shell_stop ends the session; shell_stop
// does not wait behind it.
func TestTurnWaitEnds(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tt := range []struct {
		name    string
		timeout int
		end     func(cancel context.CancelFunc, s *Session)
		want    string
	}{
		{"cancelled", 20000, func(cancel context.CancelFunc, _ *Session) { cancel() }, "cancelled"},
		{"timeout_ms", 0, func(context.CancelFunc, *Session) {}, "TIMED OUT after 1s waiting for its turn"},
		{"shell_stop", 20000, func(_ context.CancelFunc, s *Session) {
			mustCall(t, a, "shell_stop", map[string]any{"session_id": s.ID})
		}, "ended (exit code"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id := start(t, a, "sh", mouseEcho...)
			mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "READY", "wait_idle_ms": 100})
			s, _ := a.tools.session(id)
			hold := a.tools.turns.queue(s)
			defer hold.leave()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ch := callAsync(t, ctx, a, "shell_send", map[string]any{"session_id": id, "text": "never-typed", "timeout_ms": tt.timeout})
			awaitQueued(t, a, s, 2)
			tt.end(cancel, s)
			r := result(t, ch)
			if !r.IsError || !strings.Contains(r.Text, tt.want) {
				t.Errorf("isError %v %q, want an error with %q", r.IsError, r.Text, tt.want)
			}
			if raw, _ := s.RawTail(4096); strings.Contains(string(raw), "never-typed") {
				t.Errorf("the queued call typed: %q", raw)
			}
			if n := queuedTurns(a, s); n != 1 {
				t.Errorf("%d calls in the queue, want the holder only", n)
			}
		})
	}
}

// TestLookingCallsTakeNoTurn: the tools that only read or wait answer
// while another call holds the session's turn.
func TestLookingCallsTakeNoTurn(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh", mouseEcho...)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "READY", "wait_idle_ms": 100})
	s, _ := a.tools.session(id)
	hold := a.tools.turns.queue(s)
	defer hold.leave()
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"shell_read", nil},
		{"shell_find", map[string]any{"text": "READY"}},
		{"shell_wait", map[string]any{"wait_for": "READY"}},
		{"shell_screenshot", nil},
	} {
		args := map[string]any{"session_id": id}
		maps.Copy(args, tt.args)
		if r := result(t, callAsync(t, context.Background(), a, tt.tool, args)); r.IsError {
			t.Errorf("%s: %s", tt.tool, r.Text)
		}
	}
}

// TestTurnCountsAgainstTimeout: the time a call waited for its turn is
// taken from its timeout_ms, and its progress reports go on from the
// turn's, so they keep growing.
func TestTurnCountsAgainstTimeout(t *testing.T) {
	t.Parallel()
	now := time.Now()
	for _, tt := range []struct {
		waited, timeout, left time.Duration
		progress, total       float64 // what a report of 1000 of 5000 ms becomes
	}{
		{0, 10 * time.Second, 10 * time.Second, 1000, 5000},
		{3 * time.Second, 10 * time.Second, 7 * time.Second, 4000, 8000},
		{12 * time.Second, 10 * time.Second, 0, 13000, 17000},
	} {
		tr := &turn{queued: now.Add(-tt.waited), granted: now}
		if got := tr.left(tt.timeout); got != tt.left {
			t.Errorf("waited %v of %v: %v left, want %v", tt.waited, tt.timeout, got, tt.left)
		}
		var p, total float64
		c := tr.call(&ToolCall{Progress: func(progress, tot float64, _ string) { p, total = progress, tot }})
		c.Progress(1000, 5000, "")
		if p != tt.progress || total != tt.total {
			t.Errorf("waited %v: progress 1000 of 5000 reported as %v of %v, want %v of %v", tt.waited, p, total, tt.progress, tt.total)
		}
	}
}
