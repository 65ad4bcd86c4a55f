//go:build unix

package main

// main_service.go: the user's shared service, `ttywright service`: one
// server per user whose sessions outlive the MCP clients that drive them.
// Front ends (`ttywright --shared`, main_shared.go) reach it over a unix
// socket, service.sock, in the attach sockets' private directory
// (attach_dir_unix.go), which admits the user's own processes only
// (acceptPeers); each connection is one MCP Server of the service's hub,
// as each HTTP session is, so every client sees every session and a
// client's subscriptions end with its connection while the sessions run
// on. The service keeps its sessions in service.json, so that whoever
// finds it dead (a front end, the next service) can say which sessions
// went and end what their programs left running. `ttywright service
// status|stop|logs` speak to it over the same socket; the protocol is in
// docs/attach-protocol.md ("The shared service").

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The service's files in the socket directory.
const (
	serviceSocket    = "service.sock"  // the service listens here
	serviceLockFile  = "service.lock"  // flock-ed by the running service for its life; holds its pid
	serviceStartLock = "service.start" // flock-ed by a front end while it starts the service
	serviceStateFile = "service.json"  // the running service's pid and sessions (serviceState)
	serviceLogFile   = "service.log"   // a started service's standard error
)

// Service limits.
const (
	maxServiceClients = 256     // MCP connections at once
	maxServiceLog     = 1 << 20 // at a start, a longer log is moved to service.log.1
)

const serviceUsage = `usage: ttywright service [flags]     run the shared service in this process
       ttywright service status     say whether it runs, its clients, settings and sessions
       ttywright service stop       stop it and every session it runs
       ttywright service logs       print its log

The shared service is one ttywright per user whose sessions outlive the MCP
clients: ttywright --shared starts it when none runs and relays stdio to it.
Its flags are the server's (ttywright -h), fixed when it starts; with --http
it also serves MCP over HTTP, sharing its sessions with remote clients.
`

// runServiceCmd is the service subcommand; it returns the exit status.
func runServiceCmd(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	dir := attachDir(getenv)
	if len(args) > 0 {
		cmds := map[string]func(dir string, stdout, stderr io.Writer) int{"status": serviceStatus, "stop": serviceStop, "logs": serviceLogs}
		switch cmd := cmds[args[0]]; {
		case cmd != nil && len(args) > 1:
			fmt.Fprintf(stderr, "ttywright service %s takes no arguments, not %q\n", args[0], strings.Join(args[1:], " "))
			return 2
		case cmd != nil:
			return cmd(dir, stdout, stderr)
		case slices.Contains([]string{"-h", "-help", "--help", "help"}, args[0]):
			fmt.Fprint(stdout, serviceUsage)
			return 0
		case !strings.HasPrefix(args[0], "-"):
			fix := "it is one of status, stop and logs, or flags to run the service here (service -h)"
			if near := nearestName(args[0], []string{"status", "stop", "logs"}); near != "" {
				fix = fmt.Sprintf("did you mean ttywright service %s?", near)
			}
			fmt.Fprintf(stderr, "ttywright service: unknown command %q: %s\n", args[0], fix)
			return 2
		}
	}
	cfg, action, err := parseConfig(args, getenv, stdout)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "ttywright service: %v\n", err)
		return 2
	case action != "":
		fmt.Fprintf(stderr, "ttywright service: --%s is not a service flag: run ttywright --%s\n", action, action)
		return 2
	case cfg.IdleExit < 0:
		fmt.Fprintf(stderr, "ttywright service: --idle-exit %v: must not be negative (0: never)\n", cfg.IdleExit)
		return 2
	}
	if err := hideDescriptors(); err != nil {
		log.Printf("cannot make the process non-dumpable: %v (a program in a session could write to the clients through /proc)", err)
	}
	_, _ = removeStaleIntegrationDirs() // best effort, as the server does at its start
	finishOrphans := adoptOrphans()
	status := serveService(cfg, dir, getenv, stderr)
	finishOrphans()
	return status
}

// service is the running shared service. Its connections are counted for
// the idle exit; it is the sessions' event sink, passing each event on to
// the hub and writing service.json when the list changes.
type service struct {
	app    *App
	cfg    Config
	dir    string
	start  time.Time
	errlog *log.Logger
	calls  *callLog
	ctx    context.Context // ends when the service is to stop (stopWith, a signal)
	cancel context.CancelFunc
	// conns is every connection's context: it ends once service.json
	// says why the service stops, so that a front end that finds its
	// connection closed can read why.
	conns      context.Context
	closeConns context.CancelFunc
	done       chan struct{} // closed once every session is stopped

	mu      sync.Mutex
	clients int  // MCP connections being served
	closing bool // no more connections
	reason  string
	idle    *time.Timer
	mcp     sync.WaitGroup // the MCP connections' goroutines

	stateMu sync.Mutex
	removed bool // service.json is gone for good
}

// serveService runs the service until it is stopped: by a signal, by
// `ttywright service stop`, or after IdleExit without a client or a
// running session. It returns the exit status.
func serveService(cfg Config, dir string, getenv func(string) string, stderr io.Writer) int {
	errlog := log.New(stderr, "ttywright service: ", log.LstdFlags)
	if err := ensureAttachDir(dir); err != nil {
		errlog.Print(err)
		return 1
	}
	unlock, err := lockService(dir)
	if err != nil {
		errlog.Print(err)
		return 1
	}
	defer unlock()
	if st, err := readServiceState(dir); err == nil && st.PID != os.Getpid() {
		errlog.Printf("the service before (pid %d) was killed: ending what its %d session(s) left running", st.PID, len(st.Sessions))
		endServiceSessions(st)
	}
	svc := &service{app: newApp(cfg), cfg: cfg, dir: dir, start: time.Now(), errlog: errlog, done: make(chan struct{})}
	svc.app.sessions.events = svc // before any session starts
	if cfg.LogPath != "" {
		if svc.calls, err = openCallLog(cfg.LogPath); err != nil {
			errlog.Printf("--log-path: %v", err)
			return 2
		}
		defer svc.calls.Close()
	}
	path := filepath.Join(dir, serviceSocket)
	_ = os.Remove(path) // holding the lock: a socket there is a dead service's
	ln, err := listenPrivate(path)
	if err != nil {
		errlog.Printf("cannot listen on %s: %v", path, err)
		return 1
	}
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) // as run: EPIPE, not death
	sigCtx, stopSignals := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt, syscall.SIGHUP)
	defer stopSignals()
	svc.ctx, svc.cancel = context.WithCancel(sigCtx)
	svc.conns, svc.closeConns = context.WithCancel(context.Background())
	defer svc.closeConns()
	svc.writeState()
	viewers := svc.app.startAttach(getenv, errlog)
	viewers.MarkService()
	var side sync.WaitGroup
	side.Go(func() { acceptPeers(ln, "service", errlog.Printf, svc.admit) })
	if cfg.HTTP.Addr != "" {
		proto := svc.app.newServer()
		proto.errlog, proto.calls = errlog, svc.calls
		side.Go(func() {
			if err := svc.app.serveHTTP(svc.conns, cfg.HTTP, proto, stderr); err != nil {
				svc.stopWith(fmt.Sprintf("serving HTTP failed: %v", err))
			}
		})
	}
	errlog.Printf("serving (pid %d, ttywright %s) on %s; idle exit %v", os.Getpid(), buildVersion(), path, svc.idleAfter())
	svc.idleCheck()
	<-svc.ctx.Done()

	svc.stopWith("a signal (SIGTERM, SIGINT or SIGHUP)") // the reason, when no other was given
	errlog.Printf("stopping: %s", svc.why())
	svc.writeState()
	ln.Close()
	svc.closeConns()
	svc.mcp.Wait() // each connection's Serve ends with its context
	viewers.Close()
	svc.app.shutdown()
	side.Wait()
	svc.removeState()
	close(svc.done)
	errlog.Printf("stopped")
	return 0
}

// lockService takes the service lock, so that one service runs per user:
// while another holds it, it fails when that one still listens, and
// waits (at most 10 s) when it is shutting down.
func lockService(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, serviceLockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EWOULDBLOCK) || time.Now().After(end) {
			f.Close()
			return nil, fmt.Errorf("cannot take %s: %v", f.Name(), err)
		}
		if c, err := net.DialTimeout("unix", filepath.Join(dir, serviceSocket), time.Second); err == nil {
			c.Close()
			pid, _ := os.ReadFile(f.Name())
			f.Close()
			return nil, fmt.Errorf("a service runs already (pid %s): ttywright service status describes it, ttywright service stop stops it", bytes.TrimSpace(pid))
		}
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0) // for the message above; the lock is what counts
	return func() { f.Close() }, nil
}

// SessionEvent passes e to the hub and, when the list of sessions or
// their state changed, rewrites service.json and checks for idleness.
func (svc *service) SessionEvent(e Event) {
	svc.app.hub.SessionEvent(e)
	switch e.Kind {
	case EventStarted, EventExited, EventStopped:
		svc.writeState()
		svc.idleCheck()
	}
}

// stopWith stops the service for reason (the first reason given stays).
func (svc *service) stopWith(reason string) {
	svc.mu.Lock()
	if svc.reason == "" {
		svc.reason = reason
	}
	svc.closing = true
	svc.mu.Unlock()
	svc.cancel()
}

// why is the reason the service stops, "" while it runs.
func (svc *service) why() string {
	svc.mu.Lock()
	defer svc.mu.Unlock()
	return svc.reason
}

// idleAfter is how long the service waits unused before it exits; 0 for
// never (--idle-exit 0, or a service that serves HTTP: a remote client
// cannot start it again).
func (svc *service) idleAfter() time.Duration {
	if svc.cfg.HTTP.Addr != "" {
		return 0
	}
	return svc.cfg.IdleExit
}

// idleCheck arms the idle exit when no client is connected and no
// session's program runs, and disarms it otherwise.
func (svc *service) idleCheck() {
	after := svc.idleAfter()
	if after <= 0 {
		return
	}
	running := svc.runningSessions()
	svc.mu.Lock()
	defer svc.mu.Unlock()
	switch {
	case svc.closing:
	case svc.clients > 0 || running > 0:
		if svc.idle != nil {
			svc.idle.Stop()
			svc.idle = nil
		}
	case svc.idle == nil:
		var t *time.Timer
		t = time.AfterFunc(after, func() {
			svc.mu.Lock()
			armed := svc.idle == t
			svc.mu.Unlock()
			if armed {
				svc.stopWith(fmt.Sprintf("idle: no client and no running session for %v (--idle-exit)", after))
			}
		})
		svc.idle = t
	}
}

// runningSessions counts the sessions whose program has not exited.
func (svc *service) runningSessions() int {
	n := 0
	for _, s := range svc.app.sessions.List() {
		if !s.Status().Exited {
			n++
		}
	}
	return n
}

// serviceHello is the first frame a client of the service sends.
type serviceHello struct {
	Op       string            `json:"op"`                 // "mcp", "status" or "stop"
	Version  string            `json:"version,omitempty"`  // mcp: the front end's ttywright
	Cwd      string            `json:"cwd,omitempty"`      // mcp: the front end's working directory
	Settings map[string]string `json:"settings,omitempty"` // mcp: the front end's flagSettings
}

// serviceAnswer is the service's answer to a hello.
type serviceAnswer struct {
	Op      string `json:"op"` // "mcp", "status", "stopping" or "error"
	PID     int    `json:"pid,omitempty"`
	Version string `json:"version,omitempty"`
	Message string `json:"message,omitempty"`
	// Differs (mcp) lists the settings of the front end that differ
	// from the service's, which apply.
	Differs []settingDiff `json:"differs,omitempty"`
	// status, and the count of sessions for stopping.
	Started  time.Time         `json:"started,omitzero"`
	Clients  int               `json:"clients,omitempty"`
	Sessions int               `json:"sessions,omitempty"`
	Settings map[string]string `json:"settings,omitempty"`
	IdleExit string            `json:"idle_exit,omitempty"`
	HTTP     string            `json:"http,omitempty"`
}

// settingDiff is a flag whose value differs between a front end and the
// service.
type settingDiff struct {
	Flag    string `json:"flag"`
	Service string `json:"service"`
	Yours   string `json:"yours"`
}

// admit serves one connection on a goroutine of its own: its hello, then
// what it asked for.
func (svc *service) admit(c *net.UnixConn) {
	go svc.serveConn(c)
}

// serveConn reads c's hello (within attachReadLimit) and answers it; an
// mcp connection is then served as one MCP Server until either end closes
// it or the service stops.
func (svc *service) serveConn(c *net.UnixConn) {
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(attachReadLimit))
	fr := newFrameReader(c)
	line, err := fr.next()
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	var h serviceHello
	if err := json.Unmarshal(line, &h); err != nil {
		svc.answer(c, serviceAnswer{Op: "error", Message: "the first line must be a hello: {\"op\":\"mcp\"}, {\"op\":\"status\"} or {\"op\":\"stop\"}"})
		return
	}
	switch h.Op {
	case "status":
		svc.answer(c, svc.status())
	case "stop":
		svc.answer(c, serviceAnswer{Op: "stopping", PID: os.Getpid(), Sessions: len(svc.app.sessions.List())})
		svc.stopWith("ttywright service stop")
		<-svc.done // the connection closes once every session is stopped
	case "mcp":
		svc.serveMCP(c, fr.rest(), h)
	default:
		svc.answer(c, serviceAnswer{Op: "error", Message: fmt.Sprintf("unknown op %q: use mcp, status or stop", h.Op)})
	}
}

// serveMCP serves the MCP connection c (after its hello h; buffered is
// what was read past the hello) as one Server of the service's hub.
func (svc *service) serveMCP(c *net.UnixConn, buffered []byte, h serviceHello) {
	svc.mu.Lock()
	refuse := ""
	switch {
	case svc.closing:
		refuse = "the service is stopping: connect again in a moment, to the next one"
	case svc.clients >= maxServiceClients:
		refuse = fmt.Sprintf("too many clients: %d are connected, the limit", svc.clients)
	default:
		svc.clients++
		svc.mcp.Add(1)
	}
	svc.mu.Unlock()
	if refuse != "" {
		svc.answer(c, serviceAnswer{Op: "error", Message: refuse})
		return
	}
	defer func() {
		svc.mu.Lock()
		svc.clients--
		svc.mu.Unlock()
		svc.idleCheck()
		svc.mcp.Done()
	}()
	svc.idleCheck()
	svc.answer(c, serviceAnswer{Op: "mcp", PID: os.Getpid(), Version: buildVersion(), Differs: svc.differs(h)})
	srv := svc.app.newServer()
	srv.errlog, srv.calls, srv.cwd = svc.errlog, svc.calls, h.Cwd
	if err := srv.Serve(svc.conns, io.MultiReader(bytes.NewReader(slices.Clone(buffered)), c), c); err != nil {
		svc.errlog.Printf("a client's connection: %v", err)
	}
}

// answer writes one frame to c, within attachWriteLimit.
func (svc *service) answer(c net.Conn, a serviceAnswer) {
	b, err := encodeFrame(a)
	if err != nil {
		return
	}
	_ = c.SetWriteDeadline(time.Now().Add(attachWriteLimit))
	_, _ = c.Write(b) // a client that went away has nothing to hear
	_ = c.SetWriteDeadline(time.Time{})
}

// differs lists the settings of h's front end that differ from the
// service's: the service's apply to every client.
func (svc *service) differs(h serviceHello) []settingDiff {
	var out []settingDiff
	if h.Version != "" && h.Version != buildVersion() {
		out = append(out, settingDiff{Flag: "version", Service: buildVersion(), Yours: h.Version})
	}
	for _, name := range slices.Sorted(maps.Keys(h.Settings)) {
		if mine, ok := svc.cfg.Settings[name]; ok && mine != h.Settings[name] {
			out = append(out, settingDiff{Flag: name, Service: mine, Yours: h.Settings[name]})
		}
	}
	return out
}

// status is the answer to status.
func (svc *service) status() serviceAnswer {
	svc.mu.Lock()
	clients := svc.clients
	svc.mu.Unlock()
	a := serviceAnswer{Op: "status", PID: os.Getpid(), Version: buildVersion(), Started: svc.start, Clients: clients,
		Sessions: len(svc.app.sessions.List()), Settings: svc.cfg.Settings, HTTP: svc.cfg.HTTP.Addr, IdleExit: "never"}
	if d := svc.idleAfter(); d > 0 {
		a.IdleExit = d.String()
	}
	return a
}

// serviceState is service.json: the running service and its sessions,
// with what it takes to end their programs should the service die
// without stopping them.
type serviceState struct {
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	// Stopping is why the service stops, once it does: a front end that
	// loses its connection reads it to tell a stop from a death.
	Stopping string         `json:"stopping,omitempty"`
	Sessions []stateSession `json:"sessions"`
}

// stateSession is one session in service.json.
type stateSession struct {
	ID      string `json:"id"`
	Name    string `json:"name,omitempty"`
	Command string `json:"command"`
	PID     int    `json:"pid"`             // its program's, which leads the process group and session
	Start   uint64 `json:"start,omitempty"` // the program's start (procStartTime): a reused pid has another
	Marker  string `json:"marker"`          // the variable every process of the session inherits (sessionVar)
}

// writeState writes service.json (0600, replaced whole) from the
// sessions listed now.
func (svc *service) writeState() {
	st := serviceState{PID: os.Getpid(), Started: svc.start, Stopping: svc.why(), Sessions: []stateSession{}}
	for _, s := range svc.app.sessions.List() {
		pid := s.Status().Pid
		start, _ := procStartTime(strconv.Itoa(pid))
		st.Sessions = append(st.Sessions, stateSession{ID: s.ID, Name: s.Name, Command: s.Command, PID: pid, Start: start, Marker: s.marker})
	}
	b, err := json.Marshal(st)
	if err != nil {
		return
	}
	svc.stateMu.Lock()
	defer svc.stateMu.Unlock()
	if svc.removed {
		return
	}
	path := filepath.Join(svc.dir, serviceStateFile)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		svc.errlog.Printf("cannot write %s: %v", tmp, err)
		return
	}
	if err := os.Rename(tmp, path); err != nil {
		svc.errlog.Printf("cannot write %s: %v", path, err)
	}
}

// removeState removes service.json once every session is stopped.
func (svc *service) removeState() {
	svc.stateMu.Lock()
	defer svc.stateMu.Unlock()
	svc.removed = true
	_ = os.Remove(filepath.Join(svc.dir, serviceStateFile)) // gone already: nothing to do
}

// readServiceState reads dir's service.json.
func readServiceState(dir string) (serviceState, error) {
	var st serviceState
	b, err := os.ReadFile(filepath.Join(dir, serviceStateFile))
	if err != nil {
		return st, err
	}
	return st, json.Unmarshal(b, &st)
}

// endServiceSessions ends what the sessions of a dead service left
// running, as a stop would have: each program's process group and
// session (while its leader is the process recorded, by its start), and
// every process that carries a session's marker wherever it went (on
// Linux, from /proc), SIGHUP first and SIGKILL a second later.
func endServiceSessions(st serviceState) {
	var markers []string
	var leaders []int
	for _, s := range st.Sessions {
		markers = append(markers, s.Marker)
		if start, ok := procStartTime(strconv.Itoa(s.PID)); ok && s.Start != 0 && start == s.Start {
			leaders = append(leaders, s.PID)
			signalGroup(s.PID, syscall.SIGHUP)
		}
	}
	endOrphans(markers, syscall.SIGHUP, time.Second)
	for _, pid := range leaders {
		signalGroup(pid, syscall.SIGKILL) // what ignored the hangup; gone already: ESRCH
	}
}

// sessionNames is "web (shell-1), shell-2" for a state's sessions.
func (st serviceState) sessionNames() string {
	var names []string
	for _, s := range st.Sessions {
		if s.Name != "" {
			names = append(names, fmt.Sprintf("%s (%s, %s)", s.Name, s.ID, s.Command))
		} else {
			names = append(names, fmt.Sprintf("%s (%s)", s.ID, s.Command))
		}
	}
	return strings.Join(names, ", ")
}

// dialService connects to the service in dir and says hello; it returns
// the connection, the answer and what was read past it.
func dialService(dir string, h serviceHello) (*net.UnixConn, serviceAnswer, []byte, error) {
	var a serviceAnswer
	if err := checkAttachDir(dir); err != nil {
		return nil, a, nil, err
	}
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: filepath.Join(dir, serviceSocket), Net: "unix"})
	if err != nil {
		return nil, a, nil, err
	}
	b, _ := encodeFrame(h) // strings always encode
	_ = c.SetDeadline(time.Now().Add(attachWriteLimit))
	fr := newFrameReader(c)
	line, err := []byte(nil), error(nil)
	if _, err = c.Write(b); err == nil {
		line, err = fr.next()
	}
	if err == nil {
		err = json.Unmarshal(line, &a)
	}
	if err == nil && a.Op == "error" {
		err = errors.New(a.Message)
	}
	if err != nil {
		c.Close()
		return nil, a, nil, fmt.Errorf("the service did not answer: %w", err)
	}
	_ = c.SetDeadline(time.Time{})
	return c, a, slices.Clone(fr.rest()), nil
}

// serviceStatus is `ttywright service status`.
func serviceStatus(dir string, stdout, _ io.Writer) int {
	c, a, _, err := dialService(dir, serviceHello{Op: "status"})
	if err != nil {
		fmt.Fprintf(stdout, "no service is running (%v)\n", err)
		return 1
	}
	c.Close()
	fmt.Fprintf(stdout, "service pid %d, ttywright %s, up %v, %d client(s), %d session(s), idle exit %s\n",
		a.PID, a.Version, time.Since(a.Started).Round(time.Second), a.Clients, a.Sessions, a.IdleExit)
	if a.HTTP != "" {
		fmt.Fprintf(stdout, "serving MCP over HTTP on %s too\n", a.HTTP)
	}
	var flags []string
	for _, k := range slices.Sorted(maps.Keys(a.Settings)) {
		flags = append(flags, fmt.Sprintf("--%s=%s", k, a.Settings[k]))
	}
	fmt.Fprintf(stdout, "settings: %s\nlog: %s\n", strings.Join(flags, " "), filepath.Join(dir, serviceLogFile))
	if a.Sessions > 0 {
		printSessions(stdout, listServers(dir, a.PID))
	}
	return 0
}

// serviceStop is `ttywright service stop`: it returns once the service
// stopped every session.
func serviceStop(dir string, stdout, _ io.Writer) int {
	c, a, _, err := dialService(dir, serviceHello{Op: "stop"})
	if err != nil {
		fmt.Fprintf(stdout, "no service is running (%v)\n", err)
		return 0
	}
	defer c.Close()
	_, _ = io.Copy(io.Discard, c) // the service closes it once stopped
	fmt.Fprintf(stdout, "stopped the service (pid %d) and its %d session(s)\n", a.PID, a.Sessions)
	return 0
}

// serviceLogs is `ttywright service logs`: the log of the service a
// front end started (one run by hand logs to its own standard error).
func serviceLogs(dir string, stdout, stderr io.Writer) int {
	f, err := os.Open(filepath.Join(dir, serviceLogFile))
	if err != nil {
		fmt.Fprintf(stderr, "ttywright service logs: %v\n", err)
		return 1
	}
	defer f.Close()
	_, _ = io.Copy(stdout, f)
	return 0
}
