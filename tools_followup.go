package main

// tools_followup.go: the watch a typing call (shell_send, shell_click)
// leaves for the wait that follows it. A wait that follows a send must
// wait for what comes after that send: neither the echo of what was
// typed nor the text on the screen before it may satisfy it, and a
// wait_for_command must wait for the command the send started, not
// answer already_done with the one before. So the send's watch (its
// output since the send, its echo marks, its command bases) stays open
// until shell_wait takes it over, the next typing call replaces it, the
// session stops, or followUpLife passes. Every wait until the next send
// counts from it: a wait takes the watch over and gives it back.

import (
	"sync"
	"time"
)

// followUpLife is how long a send's watch waits to be taken over.
const followUpLife = 10 * time.Minute

// followUps are the watches the typing calls left, one per session.
type followUps struct {
	mu sync.Mutex
	m  map[*Session]*followUp
}

// followUp is one session's kept watch and the timer that closes it.
type followUp struct {
	w     *outputWatch
	timer *time.Timer
}

// keep keeps w, the watch of a call that typed into s, for the wait that
// follows; one kept before for s is closed.
func (f *followUps) keep(s *Session, w *outputWatch) {
	fu := &followUp{w: w}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = map[*Session]*followUp{}
	}
	if old := f.m[s]; old != nil {
		old.timer.Stop()
		old.w.close()
	}
	f.m[s] = fu
	fu.timer = time.AfterFunc(followUpLife, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.m[s] == fu {
			delete(f.m, s)
			fu.w.close()
		}
	})
}

// take removes s's kept watch and returns it for a wait to go on with,
// its per-wait state cleared; nil when there is none.
func (f *followUps) take(s *Session) *outputWatch {
	f.mu.Lock()
	defer f.mu.Unlock()
	fu := f.m[s]
	if fu == nil {
		return nil
	}
	delete(f.m, s)
	fu.timer.Stop()
	fu.w.resume()
	return fu.w
}

// giveBack keeps w, taken by a wait, again for the waits after it; when a
// typing call kept a newer one meanwhile, w is closed instead.
func (f *followUps) giveBack(s *Session, w *outputWatch) {
	f.mu.Lock()
	newer := f.m[s] != nil
	f.mu.Unlock()
	if newer || w.remove == nil {
		w.close()
		return
	}
	f.keep(s, w)
}

// drop closes s's kept watch, if any: a new typing call, or the stop.
func (f *followUps) drop(s *Session) {
	f.mu.Lock()
	fu := f.m[s]
	delete(f.m, s)
	f.mu.Unlock()
	if fu != nil {
		fu.timer.Stop()
		fu.w.close()
	}
}
