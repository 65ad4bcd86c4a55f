package main

// session.go: a program running in a PTY with its emulator. CONTRACT
// SKELETON: the PTY work fills this in and keeps these names.

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Capture describes one screenshot or recording of a session.
type Capture struct {
	Name       string    // validated file name stem (letters, digits, -_.)
	URI        string    // session://{id}/screenshots/{name} or .../recordings/{name}
	Path       string    // main file on disk (.png, .gif or .cast)
	MimeType   string    // image/png, image/gif, application/x-asciicast
	Created    time.Time //
	Width      int       // pixels (screenshots)
	Height     int       // pixels (screenshots)
	Bytes      int64     // size of Path
	FrameCount int       // recordings
	DurationMS int64     // recordings
}

// Session is one program in a pseudo-terminal plus its emulator.
type Session struct {
	ID      string
	Command string
	Args    []string
	Cwd     string
	Theme   string
	Started time.Time

	mu          sync.Mutex
	term        *Terminal
	pid         int
	exited      bool
	exitCode    int
	screenshots []Capture
	recordings  []Capture
	recorder    *recorder // the running recording (record.go), nil when none
}

// Snapshot copies the session's visible screen.
func (s *Session) Snapshot() *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.term.Snapshot()
}

// WaitChange blocks until the screen generation exceeds since, the program
// exits, or ctx ends; it returns the current generation.
func (s *Session) WaitChange(ctx context.Context, since uint64) (uint64, error) {
	<-ctx.Done()
	return since, ctx.Err()
}

// AddOutputListener calls fn with every chunk of program output, after
// the emulator has consumed it, under the session lock (fn must not block
// or call back into the session). The returned func removes it.
func (s *Session) AddOutputListener(fn func(p []byte, at time.Time)) (remove func()) {
	return func() {}
}

// AddScreenshot and AddRecording record a capture (kept after exit).
func (s *Session) AddScreenshot(c Capture) {
	s.mu.Lock()
	s.screenshots = append(s.screenshots, c)
	s.mu.Unlock()
}

// AddRecording records a finished recording.
func (s *Session) AddRecording(c Capture) {
	s.mu.Lock()
	s.recordings = append(s.recordings, c)
	s.mu.Unlock()
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

// session returns the live or exited session with the given id, or an
// error whose text says how to find a valid one.
func (a *App) session(id string) (*Session, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s, ok := a.sessions[id]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("no session %q: start one with shell_start, or read sessions://list for the ids", id)
}
