package main

// session_list.go: Sessions, the sessions one server runs: starting one
// within --max-sessions under a fresh id, looking one up, listing them,
// and removing a stopped one.

import (
	"cmp"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// SessionConfig is what the Session room needs of the server's
// configuration, passed down as values.
type SessionConfig struct {
	Cols, Rows         int      // default screen size in cells; 0 = 120x40
	Scrollback         int      // history lines per session
	MaxSessions        int      // live sessions at most; 0 = 16
	AllowCommands      []string // when non-empty, only these programs start (session_allow.go)
	NoShellIntegration bool     // --shell-integration=false: no OSC 133 marks added to shells
	Version            string   // the server's version, for XTVERSION
	Nice               int      // the programs' nice value (renice), 0: the server's
}

// maxStoppedKept is how many stopped sessions' ids are remembered (and
// their resources kept readable), the newest.
const maxStoppedKept = 32

// Sessions is the set of sessions: live ones and exited ones not yet
// stopped. Its methods are safe for concurrent use. Build it with
// newSessions.
type Sessions struct {
	cfg    SessionConfig
	store  *captureStore // where ids are claimed (a directory each)
	events EventSink     // given to every session; set before the first Start

	mu      sync.Mutex
	live    map[string]*Session
	nextID  int
	stopped []string // ids of the newest stopped sessions, oldest first
}

// newSessions returns an empty set that reports to events (nil: nowhere).
func newSessions(cfg SessionConfig, store *captureStore, events EventSink) *Sessions {
	return &Sessions{cfg: cfg, store: store, events: events, live: map[string]*Session{}}
}

// Find returns the live or exited session whose id or name is ref, or
// nil: the session a tool's session_id names.
func (ss *Sessions) Find(ref string) *Session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if s := ss.live[ref]; s != nil || ref == "" {
		return s
	}
	for _, s := range ss.live {
		if s.Name == ref {
			return s
		}
	}
	return nil
}

// Get returns the live or exited session id, or nil (unknown, or stopped).
func (ss *Sessions) Get(id string) *Session {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.live[id]
}

// WasStopped reports whether id is one of the newest stopped sessions.
func (ss *Sessions) WasStopped(id string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return slices.Contains(ss.stopped, id)
}

// List returns every session (running or exited, not yet stopped),
// oldest first.
func (ss *Sessions) List() []*Session {
	ss.mu.Lock()
	list := make([]*Session, 0, len(ss.live))
	for _, s := range ss.live {
		list = append(list, s)
	}
	ss.mu.Unlock()
	sort.Slice(list, func(i, j int) bool {
		if !list[i].Started.Equal(list[j].Started) {
			return list[i].Started.Before(list[j].Started)
		}
		return list[i].ID < list[j].ID
	})
	return list
}

// Max is the session limit.
func (ss *Sessions) Max() int {
	if ss.cfg.MaxSessions > 0 {
		return ss.cfg.MaxSessions
	}
	return 16
}

// Start validates opts, starts the program in a new PTY and lists the
// session. Errors name the problem and the fix, ready for a tool result.
func (ss *Sessions) Start(opts StartOptions) (*Session, error) {
	s := &Session{
		Command: opts.Command,
		Args:    append([]string(nil), opts.Args...),
		Theme:   opts.Theme,
		Name:    opts.Name,
		Client:  opts.Client,
		changed: make(chan struct{}),
		drained: make(chan struct{}),
		reaped:  make(chan struct{}),
		done:    make(chan struct{}),
		closed:  make(chan struct{}),
		replies: newReplyQueue(),
		events:  ss.events,
	}
	cols, rows, err := ss.screenSize(opts)
	if err != nil {
		return nil, err
	}
	if opts.Name != "" {
		if err := checkSessionName(opts.Name); err != nil {
			return nil, err
		}
	}
	cwd, err := sessionCwd(opts.Cwd)
	if err != nil {
		return nil, err
	}
	s.Cwd = cwd
	env, err := s.environ(opts.Env)
	if err != nil {
		return nil, err
	}
	execPath, release, err := resolveCommand(ss.cfg.AllowCommands, s, env, opts.Env)
	if err != nil {
		return nil, err
	}
	defer release() // the checked file stays open until the program runs
	s.term = ss.newTerminal(s, opts.Colors, cols, rows, env)
	plan := planIntegration(filepath.Base(s.Command), execPath, s.Args, env, integrationOff(opts.ShellIntegration, ss.cfg.NoShellIntegration))
	args, env, err := plan.install(env)
	if err != nil {
		return nil, fmt.Errorf("shell integration: %v: start with shell_integration false", err)
	}
	s.integ = plan.integ
	if s.integ.nonce != "" {
		s.term.SetMarkNonce(s.integ.nonce) // before the program runs: its first prompt carries it
		s.strip = newMarkStrip(s.integ.nonce)
	}
	s.cmd = &exec.Cmd{Path: execPath, Args: append([]string{s.Command}, args...), Env: env, Dir: cwd}

	unlock := lockChildren() // pty_reaper_linux.go: the reaper must know s.pid before it can see it
	err = ss.register(s, cols, rows)
	if err == nil {
		trackSessionProgram(s.pid)
	}
	unlock()
	if err != nil {
		s.removeIntegration()
		return nil, err
	}
	renice(s.pid, ss.cfg.Nice) // pty_unix.go: the server's requests come first
	go s.readLoop()
	go s.waitLoop()
	go s.replies.run(s.master, s.closed)
	s.Emit(Event{Kind: EventStarted})
	return s, nil
}

// screenSize is the size opts asks for, the configured one where it asks
// for none, else 120x40; out of bounds is an error naming them.
func (ss *Sessions) screenSize(opts StartOptions) (cols, rows int, err error) {
	cols, rows = cmp.Or(opts.Cols, ss.cfg.Cols, 120), cmp.Or(opts.Rows, ss.cfg.Rows, 40)
	return cols, rows, checkSize(cols, rows)
}

// newTerminal makes s's emulator: cols x rows with the configured
// scrollback, replies queued for the program, OSC 4/10/11/12 reporting
// colors (the theme's) and XTGETTCAP TN the child's TERM.
func (ss *Sessions) newTerminal(s *Session, colors *ReportColors, cols, rows int, env []string) *Terminal {
	t := NewTerminal(cols, rows, max(ss.cfg.Scrollback, 0))
	t.SetReplyWriter(s.replies)
	if colors != nil {
		t.SetColors(colors)
	}
	t.SetTermName(envValue(env, "TERM"))
	t.SetVersion(ss.cfg.Version)
	return t
}

// register starts s's program and lists s under one hold of ss.mu, so
// concurrent starts cannot exceed the limit nor take one name twice.
func (ss *Sessions) register(s *Session, cols, rows int) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, o := range ss.live {
		if s.Name != "" && o.Name == s.Name && o.Status().Exited {
			return fmt.Errorf("a session named %q is open already (%s, %s), and its program has exited: shell_stop it (session_id %q) to reuse the name, or pick another", s.Name, o.ID, o.Command, s.Name)
		}
		if s.Name != "" && o.Name == s.Name {
			return fmt.Errorf("a session named %q is open already (%s, %s): drive it with session_id %q, or pick another name", s.Name, o.ID, o.Command, s.Name)
		}
	}
	if n := len(ss.live); n >= ss.Max() {
		var ended []string
		for id, o := range ss.live {
			if o.Status().Exited {
				ended = append(ended, id)
			}
		}
		sort.Strings(ended)
		fix := "stop one with shell_stop"
		if len(ended) > 0 {
			fix = "these have exited and can be stopped with shell_stop: " + strings.Join(ended, ", ")
		}
		return fmt.Errorf("%d sessions are open, the limit (--max-sessions) is %d: %s", n, ss.Max(), fix)
	}
	master, slave, err := startPTY(s.cmd, cols, rows)
	if err != nil {
		return fmt.Errorf("starting %q failed: %v", s.Command, err)
	}
	s.master, s.slave = master, slave
	s.pid = s.cmd.Process.Pid
	s.Started = time.Now()
	s.lastOutput = s.Started
	s.ID = ss.claimID()
	ss.live[s.ID] = s
	return nil
}

// claimID returns the next free id "shell-N" and creates its directory
// in the output directory (captureStore.claimDir): an N whose directory
// exists is skipped. ss.mu is held.
func (ss *Sessions) claimID() string {
	root := ss.store.openRoot()
	if root != nil {
		defer root.Close()
	}
	for tries := 0; ; tries++ {
		ss.nextID++
		id := fmt.Sprintf("shell-%d", ss.nextID)
		if _, live := ss.live[id]; live {
			continue
		}
		if tries >= 10000 || ss.store.claimDir(root, id) {
			return id
		}
	}
}

// Remove takes the stopped session s out of the list: its capture
// directory goes when nothing was captured, its integration files go,
// and EventStopped is reported. Call it after Session.Stop.
func (ss *Sessions) Remove(s *Session) {
	ss.store.releaseDir(s.ID)
	s.removeIntegration()
	ss.mu.Lock()
	if ss.live[s.ID] == s {
		delete(ss.live, s.ID)
		ss.stopped = append(ss.stopped, s.ID)
		if n := len(ss.stopped) - maxStoppedKept; n > 0 {
			ss.stopped = slices.Delete(ss.stopped, 0, n)
		}
	}
	ss.mu.Unlock()
	s.Emit(Event{Kind: EventStopped})
}

// checkSize validates a screen size, naming the bounds.
func checkSize(cols, rows int) error {
	if cols < minCols || cols > maxCols || rows < minRows || rows > maxRows {
		return fmt.Errorf("screen size %dx%d is out of range: cols must be %d..%d and rows %d..%d (e.g. cols 120, rows 40)",
			cols, rows, minCols, maxCols, minRows, maxRows)
	}
	return nil
}
