package main

// session.go: a program running in a pseudo-terminal with its emulator:
// starting it, feeding its output, writing its input, stopping it.
//
// Goroutines. Three serve each session, started by startSession:
//   - the reader (readLoop) is the only one that reads the PTY master; it
//     feeds each read to the Terminal, the raw ring and the output
//     listeners under Session.mu before the next read (readLoop says why
//     not in parallel), and closes drained at the end of output;
//   - the waiter (waitLoop) is the only one that waits for the process; it
//     closes reaped, then reports the exit (exited, under mu) only after
//     every byte the program wrote has been fed, and closes done;
//   - the replier (replyQueue.run, replyqueue.go) is the only one that
//     writes the emulator's replies to the master, so no PTY write happens
//     under Session.mu. Input is written by the tool call itself
//     (writeInput, under writeMu).
//
// release (once, relOne) closes closed and the master, which ends the
// reader and the replier. changed is closed and replaced under mu on every
// change, waking WaitChange and settle. A running recording has a
// goroutine of its own (record.go) that owns its GIF encoder.
//
// Lock order. "A -> B" means B may be taken while A is held; nothing is
// taken the other way round, and locks not linked here are never held
// together:
//
//	Session.stopMu     -> Session.mu                 (stop reads the final status)
//	Session.shotMu     -> Session.mu, resState.changeMu, resState.mu (a screenshot registers itself)
//	resState.changeMu  -> App.mu, resState.mu, Session.mu (resourceListChanged freezes stopped sessions)
//	App.mu             -> Session.mu                 (register counts the exited sessions)
//	resState.sendMu    -> resState.mu, the client's output (a notification is checked, then sent)
//	Session.mu         -> replyQueue.mu, castWriter.mu (Terminal.Write queues replies; output listeners)
//
// Session.mu is never held while App.mu or a resState lock is taken: the
// reader and the waiter release it before resourceUpdated. writeMu,
// replyQueue.mu and castWriter.mu are leaves: nothing is taken under them.

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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

// StartOptions describe a program to start in a session. Zero fields take
// the server's defaults.
type StartOptions struct {
	Command string            // program name (looked up in PATH) or path; "" = $SHELL, else bash
	Args    []string          // arguments after the program name
	Cols    int               // screen width in cells; 0 = Config.Cols
	Rows    int               // screen height in cells; 0 = Config.Rows
	Theme   string            // theme name; "" = Config.Theme
	Cwd     string            // working directory; "" = the server's
	Env     map[string]string // variables added to (and overriding) the inherited environment

	ShellIntegration *bool // mark commands in bash, zsh and fish (OSC 133, shellinteg.go); nil: as --shell-integration says
}

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

	mu          sync.Mutex
	term        *Terminal
	pid         int
	exited      bool   // the process is reaped and its output drained
	exitCode    int    // exit status, or 128+signal number when killed
	exitSignal  string // "SIGKILL" etc. when a signal ended it, else ""
	screenshots []Capture
	recordings  []Capture
	recorder    *recorder // the running recording (record.go), nil when none
	recEnded    *recorder // the last recording, if a limit ended and saved it and no stop has reported it yet

	changed    chan struct{} // closed and replaced on every output batch, resize and exit
	fed        int64         // bytes of output fed to term so far
	lastOutput time.Time     // when the last output was fed (Started before any)
	raw        rawRing       // the last rawTailCap bytes of output
	listeners  map[int]func(p []byte, at time.Time)
	nextListen int

	app     *App
	cmd     *exec.Cmd
	marker  string // sessionVar=token, in the program's environment
	master  *os.File
	queued  atomic.Int64  // bytes read from the master and not yet fed (decremented under mu)
	drained chan struct{} // closed when the reader hit the end (EIO): all output is fed
	reaped  chan struct{} // closed when the process has been waited for
	done    chan struct{} // closed when the exit is reported (exited is true)
	closed  chan struct{} // closed by release: the PTY is closed
	relOne  sync.Once
	stopMu  sync.Mutex // one stop at a time
	shotMu  sync.Mutex // one shell_screenshot at a time: its default name and its .part files

	writeMu sync.Mutex  // one input write at a time (deadlines are per file)
	replies *replyQueue // the emulator's replies on their way to the program

	integ       shellIntegration // set at start (shellinteg.go)
	cmdsChanged bool             // a command ended since the reader last said so (commands.go)
	sh          shellState       // what the shell's marks told, guarded by mu (commands.go)
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

func (s *Session) textLocked(scrollback bool) string {
	return s.term.Text(scrollback) // vt_text.go: wrapped rows joined, the blanks before the cursor kept
}

// RawTail returns at most max bytes of the most recent raw output (escape
// sequences kept) and whether older output was left out.
func (s *Session) RawTail(max int) (p []byte, cut bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p = s.raw.tail(max)
	return p, int64(len(p)) < s.fed
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

// AddScreenshot and AddRecording record a capture (kept after exit).
func (s *Session) AddScreenshot(c Capture) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.screenshots {
		if s.screenshots[i].Name == c.Name { // retaken under the same name: the file was replaced
			s.screenshots[i] = c
			return
		}
	}
	s.screenshots = append(s.screenshots, c)
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
	s, ok := a.sessions[id]
	a.mu.Unlock()
	switch {
	case ok:
		return s, nil
	case id == "":
		return nil, errors.New("session_id is missing: pass the shell_session_id that shell_start returned")
	case len(id) > maxNameLen:
		// Not echoed: a megabyte id would come back in the reply.
		return nil, fmt.Errorf("session_id is %d bytes, and ids are at most %d (shell_start returns ids like shell-1): read sessions://list for the ids", len(id), maxNameLen)
	case a.wasStopped(id):
		// sessions://list still shows it: say why the tools refuse it.
		return nil, fmt.Errorf("session %q was stopped with shell_stop, so the tools no longer take it: read what it left at session://%s/buffer (and .../screenshots, .../recordings), or start a new one with shell_start", id, id)
	}
	return nil, fmt.Errorf("no session %q: start one with shell_start, or read sessions://list for the ids", id)
}

// wasStopped reports whether id is a session shell_stop closed whose
// resources are still kept (resState.gone).
func (a *App) wasStopped(id string) bool {
	a.res.mu.Lock()
	defer a.res.mu.Unlock()
	return slices.ContainsFunc(a.res.gone, func(v *resSess) bool { return v.ID == id })
}

// listSessions returns every session (running or exited, not yet
// stopped), oldest first.
func (a *App) listSessions() []*Session {
	a.mu.Lock()
	list := make([]*Session, 0, len(a.sessions))
	for _, s := range a.sessions {
		list = append(list, s)
	}
	a.mu.Unlock()
	sort.Slice(list, func(i, j int) bool {
		if !list[i].Started.Equal(list[j].Started) {
			return list[i].Started.Before(list[j].Started)
		}
		return list[i].ID < list[j].ID
	})
	return list
}

// maxSessions is the configured session limit (16 when unset).
func (a *App) maxSessions() int {
	if a.cfg.MaxSessions > 0 {
		return a.cfg.MaxSessions
	}
	return 16
}

// startSession validates opts, starts the program in a new PTY and
// registers the session. Errors name the problem and the fix, ready for a
// tool result.
func (a *App) startSession(opts StartOptions) (*Session, error) {
	s := &Session{
		Command: opts.Command,
		Args:    append([]string(nil), opts.Args...),
		Theme:   opts.Theme,
		changed: make(chan struct{}),
		drained: make(chan struct{}),
		reaped:  make(chan struct{}),
		done:    make(chan struct{}),
		closed:  make(chan struct{}),
		replies: newReplyQueue(),
		app:     a,
	}
	cols, rows, err := a.screenSize(opts)
	if err != nil {
		return nil, err
	}
	if s.Theme, err = a.sessionTheme(s.Theme); err != nil {
		return nil, err
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
	execPath, release, err := a.resolveCommand(s, env, opts.Env)
	if err != nil {
		return nil, err
	}
	defer release() // the checked file stays open until the program runs
	s.term = a.newSessionTerminal(s, cols, rows, env)
	plan := planIntegration(filepath.Base(s.Command), execPath, s.Args, env, integrationOff(opts.ShellIntegration, a.cfg.NoShellIntegration))
	args, env, err := plan.install(env)
	if err != nil {
		return nil, fmt.Errorf("shell integration: %v: start with shell_integration false", err)
	}
	s.integ = plan.integ
	if s.integ.nonce != "" {
		s.term.SetMarkNonce(s.integ.nonce) // before the program runs: its first prompt carries it
	}
	s.cmd = &exec.Cmd{Path: execPath, Args: append([]string{s.Command}, args...), Env: env, Dir: cwd}

	unlock := lockChildren() // reaper_linux.go: the reaper must know s.pid before it can see it
	err = a.register(s, cols, rows)
	if err == nil {
		trackSessionProgram(s.pid)
	}
	unlock()
	if err != nil {
		s.removeIntegration()
		return nil, err
	}
	go s.readLoop()
	go s.waitLoop()
	go s.replies.run(s.master, s.closed)
	a.resourceListChanged()
	a.resourceUpdated(sessionsListURI())
	return s, nil
}

// screenSize is the size opts asks for, Config's where it asks for none,
// else 120x40; out of bounds is an error naming them.
func (a *App) screenSize(opts StartOptions) (cols, rows int, err error) {
	cols, rows = opts.Cols, opts.Rows
	if cols == 0 {
		cols = a.cfg.Cols
	}
	if rows == 0 {
		rows = a.cfg.Rows
	}
	if cols == 0 {
		cols = 120
	}
	if rows == 0 {
		rows = 40
	}
	return cols, rows, checkSize(cols, rows)
}

// sessionTheme is the theme called name, Config's for "", else the first
// of themeList; an unknown name is an error listing the known ones.
func (a *App) sessionTheme(name string) (string, error) {
	if name == "" {
		name = a.cfg.Theme
	}
	if name == "" {
		name = themeList[0].Name
	}
	if _, err := lookupTheme(name); err != nil {
		return "", fmt.Errorf("%v (see themes://list)", err)
	}
	return name, nil
}

// sessionCwd turns the cwd argument into an absolute existing directory:
// "~" expanded (agents write "~/project", and no shell expands it here),
// "" the server's working directory.
func sessionCwd(arg string) (string, error) {
	cwd := expandHome(arg)
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("the server's working directory is unusable (%v): pass cwd", err)
		}
		cwd = wd
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return "", fmt.Errorf("cwd %q: %v: pass an absolute directory", arg, err)
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("cwd %q is not an existing directory: pass one that exists, e.g. %q", arg, os.TempDir())
	}
	return cwd, nil
}

// environ checks s.Args and builds the program's environment (childEnv
// with extra) carrying s's new marker.
func (s *Session) environ(extra map[string]string) ([]string, error) {
	for i, arg := range s.Args {
		if strings.ContainsRune(arg, 0) {
			return nil, fmt.Errorf("args[%d] holds a NUL byte, which no program can receive: remove it", i)
		}
	}
	env, err := childEnv(os.Environ(), s.Cwd, extra)
	if err != nil {
		return nil, err
	}
	// The marker every process of the session inherits: shell_stop ends
	// the ones that left the session too (markedProcesses).
	s.marker = sessionVar + "=" + rand.Text()
	return append(slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, sessionVar+"=") }), s.marker), nil
}

// resolveCommand picks the default shell when s.Command is "", resolves
// it with env's PATH (as the program's execvp would) and applies
// --allow-command; extra is the env the caller asked for.
func (a *App) resolveCommand(s *Session, env []string, extra map[string]string) (execPath string, release func(), err error) {
	cwd := s.Cwd
	if s.Command != "" && strings.TrimSpace(s.Command) == "" {
		return "", nil, fmt.Errorf("command %q is blank: give a program name (e.g. \"bash\"), or leave command out for the default shell", s.Command)
	}
	// The environment is checked before the command is looked up with it:
	// a refused PATH must be named as the fault, not the lookup it broke.
	if len(a.cfg.AllowCommands) > 0 {
		if err := checkAllowedEnv(extra); err != nil {
			return "", nil, err
		}
	}
	if s.Command == "" {
		// $SHELL when it can be run here, else bash, else sh: a client's
		// environment may name a shell this machine lacks (SHELL=/bin/zsh),
		// and the agent asked for no command to be told about.
		s.Command = "sh"
		for _, c := range []string{envValue(env, "SHELL"), "bash"} {
			if _, err := lookPath(c, cwd, envValue(env, "PATH")); c != "" && err == nil {
				s.Command = c
				break
			}
		}
	}
	path, err := lookPath(s.Command, cwd, envValue(env, "PATH"))
	if err != nil {
		hint := "give a program name found in PATH or an absolute path"
		if strings.ContainsAny(s.Command, " \t") && len(s.Args) == 0 {
			f := strings.Fields(s.Command)
			hint = fmt.Sprintf("put the arguments in args: command %q, args %q", f[0], f[1:])
		}
		return "", nil, fmt.Errorf("command %q: %v: %s", s.Command, err, hint)
	}
	return a.allowedExec(s.Command, path) // allow.go
}

// newSessionTerminal makes s's emulator: cols x rows with the configured
// scrollback, replies queued for the program, OSC 4/10/11/12 reporting the
// theme's colours and XTGETTCAP TN the child's TERM.
func (a *App) newSessionTerminal(s *Session, cols, rows int, env []string) *Terminal {
	t := NewTerminal(cols, rows, max(a.cfg.Scrollback, 0))
	t.SetReplyWriter(s.replies)
	if th, err := lookupTheme(s.Theme); err == nil {
		t.SetColors(th.reportColors())
	}
	t.SetTermName(envValue(env, "TERM"))
	t.SetVersion(buildVersion())
	return t
}

// register starts s's program and adds s to the sessions under one hold
// of a.mu, so concurrent starts cannot exceed --max-sessions.
func (a *App) register(s *Session, cols, rows int) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.sessions); n >= a.maxSessions() {
		var ended []string
		for id, o := range a.sessions {
			if o.Status().Exited {
				ended = append(ended, id)
			}
		}
		sort.Strings(ended)
		fix := "stop one with shell_stop"
		if len(ended) > 0 {
			fix = "these have exited and can be stopped with shell_stop: " + strings.Join(ended, ", ")
		}
		return fmt.Errorf("%d sessions are open, the limit (--max-sessions) is %d: %s", n, a.maxSessions(), fix)
	}
	master, err := startPTY(s.cmd, cols, rows)
	if err != nil {
		return fmt.Errorf("starting %q failed: %v", s.Command, err)
	}
	s.master = master
	s.pid = s.cmd.Process.Pid
	s.Started = time.Now()
	s.lastOutput = s.Started
	s.ID = a.claimSessionID()
	if a.sessions == nil {
		a.sessions = make(map[string]*Session)
	}
	a.sessions[s.ID] = s
	return nil
}

// checkSize validates a screen size, naming the bounds.
func checkSize(cols, rows int) error {
	if cols < minCols || cols > maxCols || rows < minRows || rows > maxRows {
		return fmt.Errorf("screen size %dx%d is out of range: cols must be %d..%d and rows %d..%d (e.g. cols 120, rows 40)",
			cols, rows, minCols, maxCols, minRows, maxRows)
	}
	return nil
}

// lookPath resolves a command like execvp(3) would in cwd with the
// child's PATH: a name containing a slash is a path (relative to cwd),
// anything else is searched in pathEnv. Empty PATH entries are skipped.
func lookPath(command, cwd, pathEnv string) (string, error) {
	if command == "" {
		return "", errors.New("empty command")
	}
	if strings.Contains(command, "/") {
		p := command
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if err := isExecutable(p); err != nil {
			return "", err
		}
		return filepath.Clean(p), nil
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // relative PATH entries depend on cwd: not searched (Go's exec.ErrDot rule)
		}
		p := filepath.Join(dir, command)
		if isExecutable(p) == nil {
			return p, nil
		}
	}
	return "", errors.New("not found in PATH")
}

func isExecutable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return errors.New("no such file")
	}
	if fi.IsDir() {
		return errors.New("is a directory")
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return errors.New("not executable")
	}
	return nil
}

// sessionVar names the environment variable, an opaque token per session,
// by which shell_stop finds the session's processes that left its process
// group and session (setsid daemons) on Linux.
const sessionVar = "TTYWRIGHT_SESSION_TOKEN"

// identityVars are variables that describe the terminal the server runs
// in (or a multiplexer); a program in our PTY must not believe it runs
// there. Entries ending in '_' are prefixes.
var identityVars = []string{
	"TMUX", "TMUX_PANE", "STY", "WINDOW", "WINDOWID", "TERM_PROGRAM", "TERM_PROGRAM_VERSION",
	"TERM_SESSION_ID", "TERMCAP", "COLUMNS", "LINES", "COLORFGBG", "LC_TERMINAL", "LC_TERMINAL_VERSION",
	"VTE_VERSION", "WT_SESSION", "WT_PROFILE_ID", "KITTY_", "WEZTERM_", "ALACRITTY_", "ITERM_",
	"KONSOLE_", "GNOME_TERMINAL_", "TERMINATOR_", "TILIX_ID", "ZELLIJ", "ZELLIJ_", "GHOSTTY_",
	"INSIDE_EMACS", "NVIM", "NVIM_LISTEN_ADDRESS", "VSCODE_INJECTION", "TERM", "COLORTERM", "PWD",
}

// childEnv builds a child's environment: base (the server's) without the
// terminal-identity variables, then TERM=xterm-256color,
// COLORTERM=truecolor and PWD=cwd, then extra (which wins, TERM included).
func childEnv(base []string, cwd string, extra map[string]string) ([]string, error) {
	env := make([]string, 0, len(base)+len(extra)+2)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, over := extra[name]; !over && !isIdentityVar(name) {
			env = append(env, kv)
		}
	}
	if _, ok := extra["TERM"]; !ok {
		env = append(env, "TERM=xterm-256color")
	}
	if _, ok := extra["COLORTERM"]; !ok {
		env = append(env, "COLORTERM=truecolor")
	}
	if _, ok := extra["PWD"]; !ok {
		env = append(env, "PWD="+cwd)
	}
	names := make([]string, 0, len(extra))
	for k := range extra {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := extra[k]
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, fmt.Errorf("env name %q is invalid: names may not be empty or contain '=' or NUL", k)
		}
		if strings.ContainsRune(v, 0) {
			return nil, fmt.Errorf("env %s holds a NUL byte: remove it", k)
		}
		env = append(env, k+"="+v)
	}
	return env, nil
}

func isIdentityVar(name string) bool {
	for _, v := range identityVars {
		if name == v || strings.HasSuffix(v, "_") && strings.HasPrefix(name, v) {
			return true
		}
	}
	return false
}

// envValue returns the last value of name in env.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
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
	uri := bufferURI(s.ID)
	buf := make([]byte, readBufSize)
	for {
		n, err := s.master.Read(buf)
		if n > 0 {
			s.queued.Store(int64(n)) // for settle, until fed
			s.mu.Lock()
			gen := s.term.Generation()
			s.feedLocked(buf[:n], time.Now())
			changed := s.term.Generation() != gen
			cmds, ended := s.cmdsChanged, s.sh.ended != s.sh.told
			s.cmdsChanged, s.sh.told = false, s.sh.ended
			s.signalLocked()
			s.mu.Unlock()
			if changed {
				s.app.resourceUpdated(uri)
			}
			if cmds {
				s.app.commandsUpdated(s, ended)
			}
		}
		if err != nil {
			return
		}
	}
}

// feedLocked gives p to the emulator and the listeners. s.mu is held.
func (s *Session) feedLocked(p []byte, at time.Time) {
	_, _ = s.term.Write(p) // Terminal.Write never fails.
	s.raw.append(p)
	s.fed += int64(len(p))
	s.queued.Add(-int64(len(p)))
	s.lastOutput = at
	if s.takeMarksLocked() {
		s.cmdsChanged = true
	}
	for _, fn := range s.listeners {
		fn(p, at)
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
		s.app.commandsUpdated(s, true)
	}
	s.app.resourceUpdated(infoURI(s.ID))
	s.app.resourceUpdated(sessionsListURI())
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

// writeInput sends p to the program, giving up when ctx ends (a program
// that does not read its input cannot block the caller forever).
func (s *Session) writeInput(ctx context.Context, p []byte) error {
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
	s.mu.Unlock()
	if n, err := ptyUnread(s.master); err == nil {
		target += int64(n)
	}
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

// pollKill waits until members lists no process. It polls every 20 ms;
// from when killAt fires it calls kill with the processes left at every
// poll. It gives up after giveUp: a process in uninterruptible sleep
// ignores even SIGKILL, and the kernel ends it when it wakes.
func pollKill(members func() []int, kill func(pids []int), killAt <-chan time.Time, giveUp time.Duration) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	quit := time.NewTimer(giveUp)
	defer quit.Stop()
	killing := false
	for {
		pids := members()
		if len(pids) == 0 {
			return
		}
		if killing {
			kill(pids)
		}
		select {
		case <-tick.C:
		case <-killAt:
			killing = true
		case <-quit.C:
			return
		}
	}
}

// release closes the PTY (ending the reader) and stops the reply writer.
func (s *Session) release() {
	s.relOne.Do(func() {
		close(s.closed)
		_ = s.master.Close() // Best effort: nothing reads or writes it any more.
	})
}

// stopSession stops the session and forgets it.
func (a *App) stopSession(s *Session, sig syscall.Signal) (SessionStatus, *recordStopResult) {
	st := s.stop(sig, killGrace)
	rec := a.finishRecordings(s) // record.go: save a running recording, final screen included
	a.releaseSessionDir(s.ID)    // safety.go: when nothing was captured
	s.removeIntegration()
	a.mu.Lock()
	if a.sessions[s.ID] == s {
		delete(a.sessions, s.ID)
	}
	a.mu.Unlock()
	a.resourceListChanged()
	a.resourceUpdated(sessionsListURI()) // stopped: true
	a.resourceUpdated(infoURI(s.ID))
	return st, rec
}

// shutdown stops every session at once (SIGHUP to each process group,
// SIGKILL after 2 s) and returns when all are reaped. The protocol layer
// calls it on stdin EOF, SIGTERM and SIGINT.
func (a *App) shutdown() {
	var wg sync.WaitGroup
	for _, s := range a.listSessions() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.stopSession(s, syscall.SIGHUP)
		}()
	}
	wg.Wait()
}
