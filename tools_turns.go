package main

// tools_turns.go: the calls that type into a session (shell_send,
// shell_click) take turns. Each queues as its request arrives
// (Tool.Arrive, on the protocol's reader, so in line order, not in the
// order the Go scheduler starts the handlers) and types only once the
// call before it has typed, waited and read the screen, so each reply is
// about its own input: without turns, parallel sends typed ahead into
// one another's commands and their waits all ended with the first one.
// Calls that only look (shell_read, shell_find, shell_wait,
// shell_screenshot) take no turn. shell_stop takes none either: the end
// of the program ends the waiting calls.
//
// The time a call waits for its turn counts against its timeout_ms, so
// that a timeout is the time the caller waits; like the writes, the turn
// gets at least minWriteTime, so timeout_ms 0 still types when the call
// before ends soon.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// turnTable holds the queue of each session that has a call typing into
// it or waiting to: a session's entry goes when its last call leaves, so
// it needs no cleanup when the session ends. The zero value is ready;
// the Toolbox has one.
type turnTable struct {
	mu    sync.Mutex
	lines map[*Session][]*turn // the holder first, then the waiting calls in arrival order
}

// turn is one call's place in its session's queue.
type turn struct {
	table   *turnTable
	s       *Session
	ready   chan struct{} // closed when the turn comes
	queued  time.Time
	granted time.Time // set before ready is closed
}

// queue puts a call at the end of s's queue.
func (tt *turnTable) queue(s *Session) *turn {
	t := &turn{table: tt, s: s, ready: make(chan struct{}), queued: time.Now()}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if tt.lines == nil {
		tt.lines = map[*Session][]*turn{}
	}
	line := append(tt.lines[s], t)
	tt.lines[s] = line
	if len(line) == 1 {
		t.grant(t.queued)
	}
	return t
}

// grant gives t the turn. t.table.mu is held.
func (t *turn) grant(at time.Time) {
	t.granted = at
	close(t.ready)
}

// waited is how long t waited for its turn: 0 when no other call held
// it. Call it once t has the turn.
func (t *turn) waited() time.Duration { return t.granted.Sub(t.queued) }

// leave takes t out of its queue, handing the turn on when t held it.
// More calls do nothing.
func (t *turn) leave() {
	tt := t.table
	tt.mu.Lock()
	defer tt.mu.Unlock()
	line := tt.lines[t.s]
	i := slices.Index(line, t)
	if i < 0 {
		return
	}
	line = slices.Delete(line, i, i+1)
	if len(line) == 0 {
		delete(tt.lines, t.s)
		return
	}
	tt.lines[t.s] = line
	if i == 0 {
		line[0].grant(time.Now())
	}
}

// takeTurn queues the call on s, unless its request did on arrival
// (arriveTurn), and returns once it is the call's turn (then the caller
// must leave it). It gives up when ctx ends, when timeout (at least
// minWriteTime) passes, or when the program ends while the call waits;
// then nothing may be typed. progress, when not nil, hears about the
// wait once a second.
func (tb *Toolbox) takeTurn(ctx context.Context, s *Session, timeout time.Duration, progress func(progress, total float64, message string)) (*turn, error) {
	t, ok := ctx.Value(turnKey{}).(*turn)
	if !ok || t.s != s {
		t = tb.turns.queue(s) // called directly, not through tools/call
	}
	select {
	case <-t.ready:
		return t, nil
	default:
	}
	budget := max(timeout, minWriteTime)
	deadline := time.NewTimer(time.Until(t.queued.Add(budget)))
	defer deadline.Stop()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-t.ready:
			select {
			case <-s.reaped:
			default:
				return t, nil
			}
		case <-s.reaped:
		case <-ctx.Done():
			t.leave()
			return nil, errors.New("cancelled")
		case <-deadline.C:
			t.leave()
			return nil, fmt.Errorf("TIMED OUT after %v waiting for its turn: another shell_send or shell_click into session %s is still typing or waiting, and nothing was typed: wait for its reply (or cancel it), or give a longer timeout_ms", budget, s.ID)
		case <-tick.C:
			if progress != nil {
				elapsed := time.Since(t.queued)
				progress(float64(elapsed.Milliseconds()), float64(timeout.Milliseconds()),
					fmt.Sprintf("waiting for its turn behind another call typing into session %s (%v so far)", s.ID, elapsed.Round(time.Second)))
			}
			continue
		}
		// The program ended (shell_stop, or it exited): nothing to type into.
		t.leave()
		<-s.done // the exit is reported with all output drained
		st := s.Status()
		return nil, fmt.Errorf("session %s ended (exit code %d) while this call waited for its turn, and nothing was typed: start a new one with shell_start", s.ID, st.ExitCode)
	}
}

// turnKey is the context key of the turn arriveTurn queued.
type turnKey struct{}

// arriveTurn is the Tool.Arrive of the tools that take turns: the call
// queues for its session's turn as its request arrives. The turn is left
// when the handler returns, or when the request ends without it.
func (tb *Toolbox) arriveTurn(ctx context.Context, args json.RawMessage) context.Context {
	s := tb.sessions.Find(sessionArg(args))
	if s == nil {
		return ctx // the handler says why
	}
	t := tb.turns.queue(s)
	context.AfterFunc(ctx, t.leave)
	return context.WithValue(ctx, turnKey{}, t)
}

// left is what remains of timeout once the call has waited its turn.
func (t *turn) left(timeout time.Duration) time.Duration { return max(timeout-t.waited(), 0) }

// call is c with its progress counted from the call's arrival, so that
// the wait's reports go on growing from those of the turn's.
func (t *turn) call(c *ToolCall) *ToolCall {
	if t.waited() == 0 || c.Progress == nil {
		return c
	}
	cc := *c
	ms := float64(t.waited().Milliseconds())
	cc.Progress = func(progress, total float64, message string) { c.Progress(progress+ms, total+ms, message) }
	return &cc
}

// sessionCalls holds the tool calls running on each session with the
// connection each came on, so that a call that drives a session (any
// tool but the read-only ones) while another client's call waits on it
// is told so (Toolbox.Run): with a shared service two conversations may
// drive one session. The zero value is ready; the Toolbox has one.
type sessionCalls struct {
	mu sync.Mutex
	m  map[*Session][]*runningCall
}

// runningCall is one tool call running on a session.
type runningCall struct {
	tool   string
	client string // the client's name, "" when unknown
	conn   any    // ToolCall.Conn
	since  time.Time
}

// enter lists c as running on s until leave is called, and returns the
// calls of other connections running on s as it enters.
func (sc *sessionCalls) enter(s *Session, c *runningCall) (others []runningCall, leave func()) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.m == nil {
		sc.m = map[*Session][]*runningCall{}
	}
	for _, o := range sc.m[s] {
		if o.conn != c.conn {
			others = append(others, *o)
		}
	}
	sc.m[s] = append(sc.m[s], c)
	return others, func() {
		sc.mu.Lock()
		defer sc.mu.Unlock()
		line := slices.DeleteFunc(sc.m[s], func(o *runningCall) bool { return o == c })
		if len(line) == 0 {
			delete(sc.m, s)
		} else {
			sc.m[s] = line
		}
	}
}

// othersNote is the line a driving call's reply adds about the calls of
// other clients that were waiting on its session s when it began, or "".
func othersNote(s *Session, others []runningCall, now time.Time) string {
	if len(others) == 0 {
		return ""
	}
	var parts []string
	for _, o := range others {
		who := "another client"
		if o.client != "" {
			who = "client " + strconv.Quote(o.client)
		}
		parts = append(parts, fmt.Sprintf("%s of %s (running %v)", o.tool, who, now.Sub(o.since).Round(time.Second)))
	}
	return fmt.Sprintf("Note: session %s is shared, and another connection was waiting on it when this call began: %s. What this call typed or changed may be what that call waits for, or spoil it.", s.ID, strings.Join(parts, ", "))
}
