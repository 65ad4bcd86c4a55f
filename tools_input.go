package main

// tools_input.go: the waits on what the foreground program reads
// (session_input.go): wait_for_input; the early end of a
// wait_for_command whose command stops at a password or a question, so
// that an agent never waits out its timeout at a [sudo] password prompt;
// and after a typing call's wait, its reply held back until the program
// has read what the call typed (awaitRead), so that a wait that matched
// early does not show a TUI halfway through a paste.

import (
	"context"
	"fmt"
	"time"
)

// readWaitMax bounds how long a typing call waits, after its own wait,
// for the program to read what it typed; readQuiet is how long a program
// that reads no more (busy) must print nothing for its answer to count
// as drawn.
const (
	readWaitMax = time.Second
	readQuiet   = 50 * time.Millisecond
)

// awaitRead waits, when the terminal's input queue still holds some of
// what the call typed, until the program has read it all and drawn its
// answer: the queue is empty and the foreground program reads again with
// its output drained (outputSettled), or, busy, has printed nothing for
// readQuiet since the later of its last output and the first look that
// found the queue empty (a program prints its answer after the read).
// It waits at most d (0: only looks) and reports whether all was read.
// With the queue empty it returns at once: the wait ended after the
// program read its input.
func (w *outputWatch) awaitRead(ctx context.Context, d time.Duration) bool {
	s := w.s
	if s.inputRead() {
		return true
	}
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	poll := time.NewTimer(readyPoll)
	defer poll.Stop()
	var settled outputSettled
	var readAt time.Time // when a look first found the queue empty
	for {
		s.mu.Lock()
		ch, exited, read := s.changed, s.exited, s.inputRead()
		done := exited
		if read && !exited {
			if readAt.IsZero() {
				readAt = time.Now()
			}
			fed := s.fed
			reads := s.foregroundLocked().Input != inputNone
			quiet := time.Since(s.lastOutput)
			done = settled.check(s, reads, fed) || !reads && min(quiet, time.Since(readAt)) >= readQuiet
		}
		s.mu.Unlock()
		if done {
			return read || exited
		}
		select {
		case <-ch:
		case <-poll.C:
			poll.Reset(readyPoll)
		case <-deadline.C:
			return s.inputRead()
		case <-ctx.Done():
			return s.inputRead()
		}
	}
}

// promptPoll is how often a wait_for_command looks whether its command
// reads a secret or a line: nothing is printed while a program waits for
// its input, so only a look can tell. promptHold is how long the same
// program must be seen reading so: a program may read a line for a
// moment on its way out (vim, in cooked mode, for the answers to its
// terminal queries), while a prompt for a person waits for one.
const (
	promptPoll = 25 * time.Millisecond
	promptHold = 250 * time.Millisecond
)

// inputWait is what the input looks of one wait found.
type inputWait struct {
	settled    outputSettled // wait_for_input: the output drawn after the read has all arrived
	prompt     outputSettled // wait_for_command: the same, for the prompt it stopped at
	since      time.Time     // wait_for_command: when promptAt was first seen reading a secret or a line
	nextLook   time.Time     // wait_for_command: the earliest next look (promptWaitLocked); zero: none yet
	promptAt   Foreground
	kind       string     // wait_for_input held: the input kind
	waitingFor string     // wait_for_command stopped at a secret or a line prompt
	fg         Foreground // the foreground program at either
	// page is the Done of a secret page still open for the session's
	// prompt (shell_ask_secret): until it ends, the program's wait for a
	// secret is the person's to answer, and wait_for_input does not hold.
	page <-chan struct{}
}

// inputWaitLocked is wait_for_input's check: everything typed has been
// read (nothing left in the terminal's input queue), and the foreground
// program is asleep reading the terminal again with its output drained,
// on two looks readyPoll apart (outputSettled). s.mu is held.
func (w *outputWatch) inputWaitLocked(exited bool) (bool, time.Duration) {
	s, in := w.s, &w.inputs
	if exited {
		return false, 0 // the wait ends with the exit
	}
	if in.page != nil {
		select {
		case <-in.page:
			in.page = nil
		default:
			return false, promptHold // the person has the page
		}
	}
	if !s.inputRead() {
		in.settled = outputSettled{}
		return false, readyPoll
	}
	fg := s.foregroundLocked()
	if d := w.escapeWindow(fg); d > 0 {
		in.settled = outputSettled{}
		return false, min(d, readyPoll)
	}
	if !in.settled.checkReader(s, fg, s.fed) {
		return false, readyPoll
	}
	in.kind, in.fg = fg.Input, fg
	return true, 0
}

// Escape timeouts: a program that reads a lone Escape waits a moment
// for the rest of a key sequence (vim's ttimeoutlen, 100 ms in Debian's
// defaults.vim, its timeoutlen, 1 s, without; readline's vi mode's
// keyseq-timeout, 500 ms) before it acts on the Escape, in a poll or
// select with that timeout. escKeyWait is the longest such timeout
// taken for it; escMax bounds how long a wait gives it after the Escape.
const (
	escKeyWait = 1500 * time.Millisecond
	escMax     = 1100 * time.Millisecond
)

// escapeWindow is how long wait_for_input still gives a program that was
// sent a lone Escape as the last key and now reads in a timed wait of at
// most escKeyWait: it has not acted on the Escape yet (vim still shows
// -- INSERT --, and a key typed now would join the Escape). 0 when the
// wait may hold. s.mu is held.
func (w *outputWatch) escapeWindow(fg Foreground) time.Duration {
	if w.escAt.IsZero() || fg.readTimeout < 0 || fg.readTimeout > escKeyWait {
		return 0
	}
	return time.Until(w.escAt.Add(escMax))
}

// promptWaitLocked looks, while a wait_for_command's command runs,
// whether it reads a secret or a line (sudo's password, a [y/N]
// question): then the wait ends early with waitingFor set. It returns
// when to look again (0: only a change can tell). s.mu is held.
func (w *outputWatch) promptWaitLocked(exited bool) time.Duration {
	s, in := w.s, &w.inputs
	if exited || s.sh.running == nil {
		return 0
	}
	// A look walks /proc with s.mu held, and output wakes the wait at
	// every read: one look per promptPoll at most, the first after
	// promptPoll (most commands end before; a prompt waits promptHold).
	now := time.Now()
	if in.nextLook.IsZero() {
		in.nextLook = now.Add(promptPoll)
	}
	if d := in.nextLook.Sub(now); d > 0 {
		return d
	}
	in.nextLook = now.Add(promptPoll)
	fg := s.foregroundLocked()
	if fg.Input != inputSecret && fg.Input != inputLine {
		in.prompt, in.since = outputSettled{}, time.Time{}
		return promptPoll
	}
	if in.since.IsZero() || fg.PID != in.promptAt.PID || fg.Input != in.promptAt.Input {
		in.since, in.promptAt = time.Now(), fg
	}
	if d := time.Until(in.since.Add(promptHold)); d > 0 {
		return min(d, promptPoll)
	}
	if !in.prompt.check(s, true, s.fed) {
		return readyPoll
	}
	in.waitingFor, in.fg = fg.Input, fg
	return 0
}

// waitingSummary is the first line of a wait_for_command that stopped at
// a prompt of kind (inputSecret or inputLine) of fg.
func waitingSummary(kind string, fg Foreground) string {
	if kind == inputSecret {
		return fmt.Sprintf("WAITING FOR A SECRET: %s (pid %d) reads with echo off, before the command ended: a person must type it; "+
			"call shell_ask_secret {session_id} and never type a password yourself.", fg.Command, fg.PID)
	}
	return fmt.Sprintf("WAITING FOR INPUT: %s (pid %d) reads a line before the command ended: "+
		"answer with shell_send {text: \"...\\n\", wait_for_command: true}, or send C-c.", fg.Command, fg.PID)
}
