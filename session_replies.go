package main

// session_replies.go: the queue of the emulator's replies (DSR, DA1, DECRQM,
// OSC 10/11 ...) on their way back to the program.

import (
	"errors"
	"io"
	"os"
	"sync"
)

// replyQueueCap is how many bytes of unsent replies a session keeps.
const replyQueueCap = 64 << 10

// replyQueue takes the emulator's replies and hands them to run, which
// writes them to the program. Terminal.Write produces replies under
// Session.mu, and a write to a program that is not reading could block
// there; Write only appends and never blocks. A program that floods
// queries without reading loses the replies beyond replyQueueCap.
type replyQueue struct {
	mu    sync.Mutex
	buf   []byte        // replies not yet taken by run
	ready chan struct{} // capacity 1: buf is not empty
}

func newReplyQueue() *replyQueue { return &replyQueue{ready: make(chan struct{}, 1)} }

// Write queues p (the io.Writer for Terminal.SetReplyWriter); it never
// fails.
func (q *replyQueue) Write(p []byte) (int, error) {
	q.mu.Lock()
	if len(q.buf)+len(p) <= replyQueueCap {
		q.buf = append(q.buf, p...)
	}
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
	return len(p), nil
}

// run writes queued replies to w (the PTY master) until closed is closed.
// A write that fails for another reason than a deadline drops the rest of
// that batch: the program is gone and nobody is left to answer.
func (q *replyQueue) run(w io.Writer, closed <-chan struct{}) {
	for {
		select {
		case <-q.ready:
		case <-closed:
			return
		}
		q.mu.Lock()
		p := q.buf
		q.buf = nil
		q.mu.Unlock()
		for len(p) > 0 {
			n, err := w.Write(p)
			p = p[n:]
			if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
				break
			}
		}
	}
}
