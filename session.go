package main

// session.go: a program running in a pseudo-terminal with its emulator:
// feeding its output, writing its input, resizing and stopping it, and
// the events it reports. Sessions (session_list.go) starts and lists
// them.
//
// Goroutines. Three serve each session, started by Sessions.Start:
//   - the reader (readLoop) is the only one that reads the PTY master; it
//     feeds each read to the Terminal, the raw ring and the output
//     listeners under Session.mu before the next read (readLoop says why
//     not in parallel), and closes drained at the end of output;
//   - the waiter (waitLoop) is the only one that waits for the process; it
//     closes reaped, then reports the exit (exited, under mu) only after
//     every byte the program wrote has been fed, and closes done;
//   - the replier (replyQueue.run, session_replies.go) is the only one
//     that writes the emulator's replies to the master, so no PTY write
//     happens under Session.mu. Input is written by the tool call itself
//     (writeInput, under writeMu).
//
// release (once, relOne) closes closed and the master, which ends the
// reader and the replier. changed is closed and replaced under mu on every
// change, waking WaitChange and settle. A running recording has a
// goroutine of its own (tools_recorder.go) that owns its GIF encoder.
//
// Lock order. "A -> B" means B may be taken while A is held; nothing is
// taken the other way round, and locks not linked here are never held
// together:
//
//	Session.stopMu     -> Session.mu      (stop reads the final status)
//	Session.shotMu     -> Session.mu, resState.mu (a screenshot adds itself, then its event is reported)
//	Sessions.mu        -> Session.mu      (register counts the exited sessions)
//	resState.sendMu    -> resState.mu, the client's output (a notification is checked, then sent)
//	Session.mu         -> replyQueue.mu, castWriter.mu (Terminal.Write queues replies; output listeners)
//
// Session.mu is never held while an event is reported: the reader, the
// waiter and the tools release it first (Emit). writeMu, replyQueue.mu,
// castWriter.mu and recordings.mu are leaves: nothing is taken under them.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Session limits and timings.
const (
	readBufSize    = 16 << 10               // one PTY read at most (Linux returns up to 4 KiB)
	killGrace      = 2 * time.Second        // SIGHUP (or the chosen signal) to SIGKILL
	exitDrainGrace = 250 * time.Millisecond // how long an exit report waits for EIO when another process still holds the terminal
	settleMax      = time.Second            // how long a read waits for output written before it began
	maxCols        = 1000                   // screen bounds accepted by shell_start and shell_resize
	maxRows        = 500
	minCols        = 2
	minRows        = 1
)

// Session is one program in a pseudo-terminal plus its emulator. The
// exported fields are set at start and never change; the rest is guarded
// by mu.
type Session struct {
	ID      string
	Command string // as given (or the default shell)
	Args    []string
	Cwd     string // absolute
	Theme   string
	Started time.Time
	// Name is what shell_start's name called it ("" for none): unique
	// among the listed sessions, and taken wherever its ID is
	// (Sessions.Find). Client is the name of the MCP client that started
	// it (initialize's clientInfo.name), "" when unknown.
	Name, Client string

	driven atomic.Int64 // when a tool call last named it, Unix nanoseconds (MarkDriven)

	mu          sync.Mutex
	term        *Terminal
	pid         int
	exited      bool   // the process is reaped and its output drained
	exitCode    int    // exit status, or 128+signal number when killed
	exitSignal  string // "SIGKILL" etc. when a signal ended it, else ""
	screenshots []Capture
	recordings  []Capture

	changed     chan struct{} // closed and replaced on every output batch, resize and exit
	fed         int64         // bytes of output fed to term so far
	lastOutput  time.Time     // when the last output was fed (Started before any)
	raw         rawRing       // the last rawTailCap bytes of output, without the integration's marks
	strip       *markStrip    // takes the integration's marks out of raw and the listeners' output (nil: none)
	stripped    []byte        // strip's output for the current read
	lingerUntil time.Time     // when the echo of the last wait's input stops being tracked (EndMarksLocked)
	listeners   map[int]func(p []byte, at time.Time)
	nextListen  int

	events  EventSink // where the session reports what happened (nil: nowhere)
	cmd     *exec.Cmd
	marker  string // sessionVar=token, in the program's environment
	master  *os.File
	slave   string        // the terminal's path (/dev/pts/N), for ptyInputPending
	queued  atomic.Int64  // bytes read from the master and not yet fed, where reads cannot take mu first (ptyReadsHeld false; decremented under mu)
	drained chan struct{} // closed when the reader hit the end (EIO): all output is fed
	reaped  chan struct{} // closed when the process has been waited for
	done    chan struct{} // closed when the exit is reported (exited is true)
	closed  chan struct{} // closed by release: the PTY is closed
	relOne  sync.Once
	stopMu  sync.Mutex // one stop at a time
	shotMu  sync.Mutex // one shell_screenshot at a time: its default name and its .part files

	writeMu sync.Mutex  // one input write at a time (deadlines are per file)
	replies *replyQueue // the emulator's replies on their way to the program

	integ       shellIntegration // set at start (session_integ.go)
	cmdsChanged bool             // a command ended since the reader last said so (session_commands.go)
	sh          shellState       // what the shell's marks told, guarded by mu (session_commands.go)
	kb          keyboardState    // the viewers and who holds the keyboard, guarded by mu (session_keyboard.go)
}

// Closed returns a channel closed when the session has stopped: its
// PTY is closed and it takes no more input.
func (s *Session) Closed() <-chan struct{} { return s.closed }

// MarkDriven records that a tool call named the session at t.
func (s *Session) MarkDriven(t time.Time) { s.driven.Store(t.UnixNano()) }

// LastDriven is when a tool call last named the session (its start
// before any).
func (s *Session) LastDriven() time.Time {
	if n := s.driven.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return s.Started
}

// SessionStatus is a consistent view of a session's process and screen.
type SessionStatus struct {
	Pid      int
	Cols     int
	Rows     int
	Exited   bool   // the program has ended and all its output was read
	ExitCode int    // valid when Exited: the exit status, or 128+N after signal N
	Signal   string // when Exited by a signal: its name, e.g. "SIGHUP"
}

// Status returns the session's process state and screen size.
func (s *Session) Status() SessionStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statusLocked()
}

func (s *Session) statusLocked() SessionStatus {
	cols, rows := s.term.Size()
	return SessionStatus{Pid: s.pid, Cols: cols, Rows: rows, Exited: s.exited, ExitCode: s.exitCode, Signal: s.exitSignal}
}

// Snapshot copies the session's visible screen.
func (s *Session) Snapshot() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.term.Snapshot()
}

// Modes returns the terminal modes the program has set (DECCKM, ...).
func (s *Session) Modes() Modes {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.term.Modes()
}

// Text returns the screen as plain text (Terminal.Text): soft-wrapped
// rows joined into logical lines, trailing blank rows dropped, preceded
// by the scrollback history when scrollback is true
// (session://{id}/buffer, shell_read).
func (s *Session) Text(scrollback bool) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.textLocked(scrollback)
}

// textTail is Text(scrollback) cut to its newest max bytes (tailText),
// built from the newest rows only.
func (s *Session) textTail(scrollback bool, max int) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !scrollback {
		return tailText(s.term.ScreenText(), max, false)
	}
	text, older := s.term.TextTail(max)
	return tailText(text, max, older)
}

func (s *Session) textLocked(scrollback bool) string {
	return s.term.Text(scrollback) // vt_text.go: wrapped rows joined, the blanks before the cursor kept
}

// RawTail returns at most max bytes of the most recent raw output (escape
// sequences kept) and whether older output was left out.
func (s *Session) RawTail(max int) (p []byte, cut bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p = s.raw.tail(max)
	return p, int64(len(p)) < s.raw.total // not s.fed: the ring holds the output without the integration's marks
}

// WaitChange blocks until the screen generation exceeds since, the program
// has exited, or ctx ends; it returns the current generation. After the
// program exits it returns at once, so loops must stop on Status().Exited.
func (s *Session) WaitChange(ctx context.Context, since uint64) (uint64, error) {
	for {
		s.mu.Lock()
		gen, exited, ch := s.term.Generation(), s.exited, s.changed
		s.mu.Unlock()
		if gen > since || exited {
			return gen, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return gen, ctx.Err()
		}
	}
}

// AddOutputListener calls fn with every chunk of program output, after
// the emulator has consumed it, under the session lock (fn must not block
// or call back into the session). p is valid only during the call (its
// buffer is reused): copy what you keep. The returned func removes it.
func (s *Session) AddOutputListener(fn func(p []byte, at time.Time)) (remove func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listeners == nil {
		s.listeners = make(map[int]func([]byte, time.Time))
	}
	id := s.nextListen
	s.nextListen++
	s.listeners[id] = fn
	return func() {
		s.mu.Lock()
		delete(s.listeners, id)
		s.mu.Unlock()
	}
}

// AddScreenshot records a screenshot (kept after exit) and reports
// EventScreenshot; one retaken under the same name replaces the old entry.
func (s *Session) AddScreenshot(c Capture) {
	s.addScreenshot(c)
	s.Emit(Event{Kind: EventScreenshot, Name: c.Name})
}

func (s *Session) addScreenshot(c Capture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.screenshots {
		if s.screenshots[i].Name == c.Name { // the file was replaced
			s.screenshots[i] = c
			return
		}
	}
	s.screenshots = append(s.screenshots, c)
}

// AddRecording records a saved recording file; one saved again under
// the same URI replaces the old entry. The caller emits EventRecorded
// once all the files of the recording are added.
func (s *Session) AddRecording(c Capture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordings = slices.DeleteFunc(s.recordings, func(o Capture) bool { return o.URI == c.URI })
	s.recordings = append(s.recordings, c)
}

// Screenshots returns the session's screenshots, oldest first.
func (s *Session) Screenshots() []Capture {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Capture(nil), s.screenshots...)
}

// Recordings returns the session's recordings, oldest first.
func (s *Session) Recordings() []Capture {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Capture(nil), s.recordings...)
}

// readLoop feeds output from the master to the emulator until the end of
// output (EIO once the child and everything holding its terminal are gone)
// or until release closes the master, then closes drained. It reads and
// feeds in turn: a slow screen update delays the next read, and the
// kernel's buffer holds (and, when full, pauses) the program meanwhile.
// On two cores this beat every alternative measured (BenchmarkThroughput,
// e2e/raw): a separate feeder goroutine 0.52-0.67 (its wake-ups cost
// about half the emulator's CPU again), reading until EAGAIN or 64 KiB
// before feeding 0.58-0.66, a timer-batched feeder 0.48-0.64, blocking
// reads on a locked thread no better; this loop 0.70-0.86.
func (s *Session) readLoop() {
	defer close(s.drained)
	buf := make([]byte, readBufSize)
	for {
		// The bytes leave the master with s.mu held (Linux), so a look
		// under s.mu finds each either still there or fed (outputSettled).
		n, err := ptyReadLocked(s.master, buf, &s.mu, &s.queued)
		if n > 0 {
			gen := s.term.Generation()
			s.feedLocked(buf[:n], time.Now())
			s.queued.Store(0)
			changed := s.term.Generation() != gen
			cmds, ended := s.cmdsChanged, s.sh.ended != s.sh.told
			s.cmdsChanged, s.sh.told = false, s.sh.ended
			s.signalLocked()
			s.mu.Unlock()
			if changed {
				s.Emit(Event{Kind: EventScreen})
			}
			if cmds {
				s.Emit(Event{Kind: EventCommand, Ended: ended})
			}
		}
		if err != nil {
			return
		}
	}
}

// echoLinger is how long after a wait ended the echo of its input is
// still told apart (Terminal.EndMarks): a line editor may draw it after
// the call that typed it returned (fish, on a busy machine), and a wait
// after that call must not take it for output. A program that never
// echoes the input does not keep it marked for longer.
const echoLinger = 2 * time.Second

// EndMarksLocked ends a wait's marking (Terminal.EndMarks), its input's
// echo still tracked for echoLinger. s.mu is held.
func (s *Session) EndMarksLocked() {
	s.term.EndMarks()
	s.lingerUntil = time.Now().Add(echoLinger)
}

// feedLocked gives p to the emulator, and p without the integration's
// marks (session_strip.go) to the raw ring and the listeners. s.mu is
// held.
func (s *Session) feedLocked(p []byte, at time.Time) {
	if s.term.Lingering() && at.After(s.lingerUntil) {
		s.term.StopEcho()
	}
	_, _ = s.term.Write(p) // Terminal.Write never fails.
	s.fed += int64(len(p))
	s.lastOutput = at
	if s.takeMarksLocked() {
		s.cmdsChanged = true
	}
	out := p
	if s.strip != nil {
		s.stripped = s.strip.filter(s.stripped[:0], p)
		out = s.stripped
	}
	s.raw.append(out)
	for _, fn := range s.listeners {
		fn(out, at)
	}
}

// signalLocked wakes everything waiting for a change. s.mu is held.
func (s *Session) signalLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// waitLoop reaps the process and reports its exit once its output is
// drained: the reader reached EIO, or (when another process still holds
// the terminal open) exitDrainGrace passed.
func (s *Session) waitLoop() {
	err := s.cmd.Wait()
	code, sig := exitStatus(s.cmd.ProcessState, err)
	close(s.reaped)
	t := time.NewTimer(exitDrainGrace)
	select {
	case <-s.drained:
	case <-t.C:
	}
	t.Stop()
	s.mu.Lock()
	s.exited, s.exitCode, s.exitSignal = true, code, sig
	ended := s.sh.exitedLocked(s.term, time.Now())
	s.signalLocked()
	s.mu.Unlock()
	close(s.done)
	if ended {
		s.Emit(Event{Kind: EventCommand, Ended: true})
	}
	s.Emit(Event{Kind: EventExited})
}

// exitStatus turns a wait result into an exit code (128+N for signal N,
// as shells report it) and the signal's name.
func exitStatus(ps *os.ProcessState, err error) (code int, signal string) {
	if ps == nil {
		return -1, ""
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), signalName(ws.Signal())
	}
	return ps.ExitCode(), ""
}

// errExited is returned by writeInput once the program has ended.
var errExited = errors.New("the program has exited")

// writeInput sends the agent's p to the program, giving up when ctx
// ends (a program that does not read its input cannot block the caller
// forever).
func (s *Session) writeInput(ctx context.Context, p []byte) error {
	s.mu.Lock()
	s.noteAgentInputLocked()
	s.mu.Unlock()
	return s.write(ctx, p)
}

// write sends p to the program, whoever typed it (writeInput,
// PersonInput), giving up when ctx ends.
func (s *Session) write(ctx context.Context, p []byte) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	select {
	case <-s.reaped:
		return errExited
	case <-s.closed:
		return errExited
	default:
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = s.master.SetWriteDeadline(dl) // Not supported on macOS masters: the write just blocks.
		defer s.master.SetWriteDeadline(time.Time{})
	}
	n, err := s.master.Write(p)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return fmt.Errorf("the program did not read its input in time (%d of %d bytes written)", n, len(p))
		}
		select {
		case <-s.reaped:
			return errExited
		default:
		}
		return err
	}
	return nil
}

// settle waits until the output the program wrote before the call has
// been fed to the emulator: the bytes read but not yet fed, or unread in
// the master, when it began. It gives up after settleMax or when ctx ends.
func (s *Session) settle(ctx context.Context) {
	s.mu.Lock()
	target := s.fed + s.queued.Load()
	if n, err := ptyUnread(s.master); err == nil {
		target += int64(n) // with s.mu held: not read meanwhile (ptyReadsHeld)
	}
	s.mu.Unlock()
	var timeout <-chan time.Time
	for {
		s.mu.Lock()
		fed, ch := s.fed, s.changed
		s.mu.Unlock()
		if fed >= target {
			return
		}
		if timeout == nil {
			t := time.NewTimer(settleMax)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-ch:
		case <-s.drained:
			return
		case <-timeout:
			return
		case <-ctx.Done():
			return
		}
	}
}

// stop ends the program: sig to its process group and session, SIGKILL to
// whatever remains after grace, then waits until it is reaped and releases
// the PTY. It returns the final status.
func (s *Session) stop(sig syscall.Signal, grace time.Duration) SessionStatus {
	s.stopMu.Lock()
	defer s.stopMu.Unlock()
	pid := s.pid
	deadline := time.NewTimer(grace)
	defer deadline.Stop()
	select {
	case <-s.reaped:
		// Exited already; stragglers of its session still get sig.
		if len(sessionMembers(pid)) > 0 {
			signalGroup(pid, sig)
		}
	default:
		signalGroup(pid, sig)
		select {
		case <-s.reaped:
		case <-deadline.C:
			signalGroup(pid, syscall.SIGKILL)
			<-s.reaped
		}
	}
	// Processes that left the group but stayed in the session (jobs that
	// ignore SIGHUP) hold the terminal open: give them the rest of the grace
	// period, then kill them.
	pollKill(func() []int { return sessionMembers(pid) },
		func([]int) { signalGroup(pid, syscall.SIGKILL) }, deadline.C, grace+time.Second)
	endMarked(s.marker, sig, grace)
	s.release()
	<-s.done
	return s.Status()
}

// Resize sets the emulator's and the PTY's size; the kernel signals
// SIGWINCH to the program. An exited session's screen is resized only.
func (s *Session) Resize(cols, rows int) error {
	s.mu.Lock()
	s.term.Resize(cols, rows)
	s.signalLocked()
	s.mu.Unlock()
	s.Emit(Event{Kind: EventScreen})
	select {
	case <-s.closed:
		return nil
	case <-s.reaped:
		return nil
	default:
	}
	return setPTYSize(s.master, cols, rows)
}

// release closes the PTY (ending the reader) and stops the reply writer.
func (s *Session) release() {
	s.relOne.Do(func() {
		close(s.closed)
		_ = s.master.Close() // Best effort: nothing reads or writes it any more.
	})
}

// ---- events: what a session reports. The Session room calls no
// room above it: a session tells one EventSink, which the program
// installs, what happened, and the protocol turns that into resource
// notifications. Events are reported after the session's lock is
// released, on the goroutine that caused them (the reader, the waiter,
// a tool call), so a sink must not block for long.

// EventKind is what happened to a session.
type EventKind uint8

// The kinds of events, in a session's life order.
const (
	EventStarted    EventKind = iota // the program runs and the session is listed
	EventScreen                      // the screen changed: output, or a resize
	EventCommand                     // a command started or ended (Event.Ended)
	EventScreenshot                  // a screenshot was added (Event.Name)
	EventRecording                   // a recording started, or ended by itself
	EventRecorded                    // a recording was saved (Event.Name)
	EventKeyboard                    // a viewer came or went, or took or gave back the keyboard
	EventExited                      // the program ended and its output is all read
	EventStopped                     // the session was stopped and left the list
)

// Event is one report of a session.
type Event struct {
	Kind    EventKind
	Session *Session
	Name    string // EventScreenshot, EventRecorded: the capture's name
	Ended   bool   // EventCommand: a command ended (else one started)
}

// EventSink receives a session's events. SessionEvent is called from
// several goroutines at once and must be safe for that.
type EventSink interface {
	SessionEvent(Event)
}

// Emit reports e about s to its sink; e.Session is set to s. With no sink
// (a session built by a test) it does nothing.
func (s *Session) Emit(e Event) {
	if s.events == nil {
		return
	}
	e.Session = s
	s.events.SessionEvent(e)
}
