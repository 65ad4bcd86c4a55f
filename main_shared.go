//go:build unix

package main

// main_shared.go: `ttywright --shared`, the front end an MCP client
// starts over stdio. It connects to the user's shared service
// (main_service.go), or starts it (detached, in a session of its own,
// its standard error to service.log) when none runs, and relays the
// client's lines to it and the service's back. Two front ends starting at
// once start one service: the one holding service.start starts it, the
// other then finds it listening.
//
// The relay copies lines; of the client's it decodes each once
// (decodeFrame) for what it must know, and of the service's it reads only
// the head, for the id a response answers. It keeps the client's
// requests the service has not answered, and the lines that set up the
// connection (initialize, notifications/initialized, logging/setLevel,
// subscriptions to lists), so that when the service goes away it answers
// those requests with an error that says what happened to the sessions,
// and with the next line connects to a new service and replays the set-up
// there, the client none the wiser but for that error.

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// serviceStartWait bounds how long a front end waits for the service it
// started to listen.
const serviceStartWait = 10 * time.Second

// runShared is `ttywright --shared`: it relays stdin and stdout to the
// service until stdin ends, and returns the exit status. args are the
// command line, which the service it starts gets (less --shared).
func runShared(cfg Config, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	if cfg.HTTP.Addr != "" {
		fmt.Fprintln(stderr, "ttywright: --shared relays stdio to the shared service: to serve HTTP from it, run ttywright service --http ADDR")
		return 2
	}
	cwd, _ := os.Getwd() // unknown: the service's
	r := &relay{dir: attachDir(getenv), args: serviceArgs(args), stderr: stderr, pending: map[string]struct{}{},
		hello: serviceHello{Op: "mcp", Version: buildVersion(), Cwd: cwd, Settings: cfg.Settings}}
	r.out.setOutput(stdout)
	if err := r.connect(); err != nil {
		fmt.Fprintf(stderr, "ttywright: %v\n", err)
	}
	br := bufio.NewReaderSize(stdin, 64<<10)
	for {
		line, err := readFrame(br, maxFrame)
		if errors.Is(err, errFrameTooLarge) {
			r.reply(errorResponse(nullID, codeInvalidRequest, "message too large: a line may hold at most %d bytes", maxFrame))
			continue
		}
		if err != nil {
			break
		}
		r.forward(line)
	}
	r.finish()
	return 0
}

// serviceArgs is the front end's command line without --shared: the
// service's flags.
func serviceArgs(args []string) []string {
	return slices.DeleteFunc(slices.Clone(args), func(a string) bool {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		return strings.HasPrefix(a, "-") && name == "shared"
	})
}

// relay is one front end's connection to the service.
type relay struct {
	dir    string
	args   []string
	hello  serviceHello
	stderr io.Writer
	out    lineWriter // the client's stdout: its one writer

	wmu    sync.Mutex     // one write to the service at a time
	copier sync.WaitGroup // the goroutine copying the service's lines

	mu      sync.Mutex
	conn    *net.UnixConn // nil while there is no service
	pending map[string]struct{}
	notice  string // why the service went away, for the next request when none was pending
	closing bool   // stdin ended: the service closes the connection next
	// The client's set-up lines, replayed to a new service: initialize
	// (with its id), notifications/initialized, the last
	// logging/setLevel (with its id), and the list URIs it subscribed to.
	init, initialized, level []byte
	initID, levelID          json.RawMessage
	subs                     []string
	relayIDs                 int
}

// connect connects to the service, starting it when none runs, and
// replays the client's set-up there.
func (r *relay) connect() error {
	c, a, rest, err := dialService(r.dir, r.hello)
	if err != nil {
		if c, a, rest, err = r.startService(); err != nil {
			return err
		}
	}
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(rest), c), 64<<10)
	if err := r.replay(c, br); err != nil {
		c.Close()
		return fmt.Errorf("the service (pid %d) did not take this client's set-up again: %v", a.PID, err)
	}
	r.tellDiffers(a)
	r.mu.Lock()
	r.conn = c
	r.mu.Unlock()
	r.copier.Go(func() { r.copyOut(c, br, a.PID) })
	return nil
}

// tellDiffers says on stderr which of this front end's settings the
// service does not share: the service's apply.
func (r *relay) tellDiffers(a serviceAnswer) {
	if len(a.Differs) == 0 {
		return
	}
	var parts []string
	for _, d := range a.Differs {
		parts = append(parts, fmt.Sprintf("--%s %q (you gave %q)", d.Flag, d.Service, d.Yours))
	}
	fmt.Fprintf(r.stderr, "ttywright: the shared service (pid %d) was started with other settings, and its apply to every client: %s; to change them, ttywright service stop, then start a client with the flags you want\n",
		a.PID, strings.Join(parts, ", "))
}

// startService starts the service unless another front end did, and
// connects to it once it listens.
func (r *relay) startService() (*net.UnixConn, serviceAnswer, []byte, error) {
	var a serviceAnswer
	if err := ensureAttachDir(r.dir); err != nil {
		return nil, a, nil, err
	}
	lock, err := os.OpenFile(filepath.Join(r.dir, serviceStartLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, a, nil, err
	}
	defer lock.Close() // and the lock with it
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return nil, a, nil, fmt.Errorf("cannot take %s: %v", lock.Name(), err)
	}
	if c, a, rest, err := dialService(r.dir, r.hello); err == nil {
		return c, a, rest, nil // another front end started it meanwhile
	}
	cmd, err := spawnService(r.dir, r.args)
	if err != nil {
		return nil, a, nil, fmt.Errorf("cannot start the shared service: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reaps it whenever it ends
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(serviceStartWait)
	defer deadline.Stop()
	for {
		c, a, rest, err := dialService(r.dir, r.hello)
		if err == nil {
			return c, a, rest, nil
		}
		select {
		case werr := <-exited:
			if c, a, rest, err := dialService(r.dir, r.hello); err == nil {
				return c, a, rest, nil // it found one running, which now listens
			}
			return nil, a, nil, fmt.Errorf("the shared service exited at its start (%v): %s", werr, lastLogLine(r.dir))
		case <-deadline.C:
			return nil, a, nil, fmt.Errorf("the shared service started but did not listen within %v (%v): ttywright service logs says more", serviceStartWait, err)
		case <-tick.C:
		}
	}
}

// spawnService starts `ttywright service ARGS` detached: in a session of
// its own (the client's signals and its terminal's hangup do not reach
// it), in /, its standard error appended to service.log (moved to
// service.log.1 first when longer than maxServiceLog).
func spawnService(dir string, args []string) (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, serviceLogFile)
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxServiceLog {
		_ = os.Rename(path, path+".1") // best effort: the log goes on growing otherwise
	}
	logf, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the service has its own copy
	cmd := exec.Command(exe, append([]string{"service"}, args...)...)
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "TTYWRIGHT_SHARED=") })
	cmd.Dir = "/"
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	return cmd, cmd.Start()
}

// lastLogLine is the last line of service.log, where a service that
// could not start said why.
func lastLogLine(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, serviceLogFile))
	if err != nil {
		return "ttywright service logs says more"
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// replay sends a new service the client's set-up lines, each request
// waited for and its response dropped (the client had its answer from
// the service before); what else the service sends meanwhile goes to
// the client.
func (r *relay) replay(c *net.UnixConn, br *bufio.Reader) error {
	r.mu.Lock()
	steps := []struct {
		line []byte
		id   json.RawMessage
	}{{r.init, r.initID}, {r.initialized, nil}, {r.level, r.levelID}}
	for _, uri := range r.subs {
		r.relayIDs++
		id, _ := json.Marshal(fmt.Sprintf("ttywright-relay-%d", r.relayIDs))
		line, _ := encodeLine(outgoingRequest{JSONRPC: "2.0", ID: id, Method: "resources/subscribe", Params: map[string]string{"uri": uri}})
		steps = append(steps, struct {
			line []byte
			id   json.RawMessage
		}{bytes.TrimSuffix(line, []byte("\n")), id})
	}
	r.mu.Unlock()
	if steps[0].line == nil {
		return nil // the client has not initialized yet
	}
	_ = c.SetDeadline(time.Now().Add(attachWriteLimit))
	defer c.SetDeadline(time.Time{})
	for _, st := range steps {
		if st.line == nil {
			continue
		}
		if _, err := c.Write(append(slices.Clone(st.line), '\n')); err != nil {
			return err
		}
		for st.id != nil {
			line, err := readFrame(br, maxFrame)
			if err != nil {
				return err
			}
			if ids := responseIDs(line); slices.ContainsFunc(ids, func(id json.RawMessage) bool { return bytes.Equal(id, st.id) }) {
				break
			}
			_ = r.out.write(append(line, '\n'))
		}
	}
	return nil
}

// forward sends one line of the client's to the service, connecting to
// a new service first when the last one went away; a request the
// service cannot get is answered here, with why.
func (r *relay) forward(line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	f := decodeFrame(line)
	r.mu.Lock()
	down := r.conn == nil
	r.mu.Unlock()
	if down {
		if err := r.connect(); err != nil {
			r.refuse(f, fmt.Sprintf("the shared ttywright service cannot be reached: %v", err))
			return
		}
	}
	r.mu.Lock()
	c, notice := r.conn, r.notice
	if c == nil || notice != "" && hasRequest(f) {
		r.notice = ""
		r.mu.Unlock()
		r.refuse(f, cmp.Or(notice, "the shared ttywright service went away: call again"))
		return
	}
	r.record(f, line)
	r.mu.Unlock()
	r.wmu.Lock()
	_, _ = c.Write(append(line, '\n')) // a failed write: the copier finds the service gone, and answers what was pending
	r.wmu.Unlock()
}

// hasRequest reports whether f holds a request.
func hasRequest(f frame) bool {
	return slices.ContainsFunc(f.msgs, func(m *message) bool { return !m.invalid && m.ID != nil && m.Method != "" })
}

// refuse answers every request in f with msg, as an error of the
// connection (-32000, the code of a connection closed), and a malformed
// message with its error.
func (r *relay) refuse(f frame, msg string) {
	for _, m := range f.msgs {
		switch {
		case m.invalid:
			r.reply(m.reply)
		case m.ID != nil && m.Method != "":
			r.reply(errorResponse(m.ID, codeConnectionClosed, "%s", msg))
		}
	}
}

// record notes f's requests as pending and keeps its set-up lines for a
// replay. r.mu is held.
func (r *relay) record(f frame, line []byte) {
	for _, m := range f.msgs {
		if m.invalid {
			continue
		}
		if m.ID != nil && m.Method != "" {
			r.pending[string(m.ID)] = struct{}{}
		}
		if f.batch {
			continue // set-up lines come alone
		}
		switch m.Method {
		case "initialize":
			r.init, r.initID = slices.Clone(line), m.ID
		case "notifications/initialized":
			r.initialized = slices.Clone(line)
		case "logging/setLevel":
			r.level, r.levelID = slices.Clone(line), m.ID
		case "resources/subscribe", "resources/unsubscribe":
			uri := m.uri()
			if u, err := parseResourceURI(uri); err != nil || u.session != "" {
				continue // a session's URIs name that service's sessions only
			}
			r.subs = slices.DeleteFunc(r.subs, func(s string) bool { return s == uri })
			if m.Method == "resources/subscribe" {
				r.subs = append(r.subs, uri)
			}
		case "notifications/cancelled":
			delete(r.pending, string(m.RequestID)) // a cancelled request gets no response
		}
	}
}

// reply writes a response of the front end's own to the client.
func (r *relay) reply(resp *response) {
	if resp != nil {
		_ = r.out.write(resp.marshal()) // a client that went away ends stdin next
	}
}

// copyOut copies the service's lines to the client until the service
// closes the connection, noting the requests each response answers.
func (r *relay) copyOut(c *net.UnixConn, br *bufio.Reader, pid int) {
	for {
		line, err := readFrame(br, maxFrame)
		if err != nil {
			break
		}
		if ids := responseIDs(line); len(ids) > 0 {
			r.mu.Lock()
			for _, id := range ids {
				delete(r.pending, string(id))
			}
			r.mu.Unlock()
		}
		_ = r.out.write(append(line, '\n'))
	}
	c.Close()
	r.mu.Lock()
	closing := r.closing
	r.mu.Unlock()
	notice := ""
	if !closing {
		notice = serviceGone(r.dir, pid)
		fmt.Fprintf(r.stderr, "ttywright: %s\n", notice)
	}
	r.mu.Lock()
	r.conn = nil
	ids := r.pending
	r.pending = map[string]struct{}{}
	if len(ids) == 0 {
		r.notice = notice
	}
	r.mu.Unlock()
	for id := range ids {
		r.reply(errorResponse(json.RawMessage(id), codeConnectionClosed, "%s", cmp.Or(notice, "the client's input ended")))
	}
}

// finish ends the relay at the end of stdin: the service hears the end
// too, answers the requests still running (within eofGrace, as a server
// on stdio would) and closes the connection.
func (r *relay) finish() {
	r.mu.Lock()
	r.closing = true
	c := r.conn
	r.mu.Unlock()
	if c != nil {
		_ = c.CloseWrite()
		t := time.AfterFunc(eofGrace+stopGrace+time.Second, func() { c.Close() }) // a service that hangs
		defer t.Stop()
	}
	r.copier.Wait()
}

// serviceGone says what became of the service pid and its sessions once
// its connection closed: stopped (service.json says why), killed (it
// said nothing, and it is gone: its sessions' leftovers are ended here,
// endServiceSessions), or alive with only the connection broken.
func serviceGone(dir string, pid int) string {
	st, err := readServiceState(dir)
	switch {
	case err != nil || st.PID != pid:
		return fmt.Sprintf("the shared ttywright service (pid %d) stopped, and its sessions with it: your next call starts a new service; start the sessions you need again with shell_start", pid)
	case st.Stopping != "":
		return fmt.Sprintf("the shared ttywright service (pid %d) was stopped (%s), and its sessions with it: %s. Your next call starts a new service: start the sessions you need again with shell_start",
			pid, st.Stopping, cmp.Or(st.sessionNames(), "it had none"))
	}
	for end := time.Now().Add(2 * time.Second); liveServer(pid) && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if liveServer(pid) {
		return fmt.Sprintf("the connection to the shared ttywright service (pid %d) broke, though it runs: call again to reconnect", pid)
	}
	endServiceSessions(st)
	return fmt.Sprintf("the shared ttywright service (pid %d) died (killed, or it crashed: ttywright service logs may say why), and its sessions are gone, with the programs in them: %s. Your next call starts a new service: start the sessions you need again with shell_start",
		pid, cmp.Or(st.sessionNames(), "it had none"))
}

// responseIDs reads the ids of the client requests a line of the
// service's answers: a response's, or a batch's. Of a single message
// only the head is read, never a large result: the service's encoder
// writes "jsonrpc", then "id", then "result" or "error" (a response),
// or "method" (a request or notification of its own).
func responseIDs(line []byte) []json.RawMessage {
	if len(line) > 0 && line[0] == '[' {
		var batch []struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		_ = json.Unmarshal(line, &batch) // not a batch of objects: no ids
		var ids []json.RawMessage
		for _, m := range batch {
			if m.ID != nil && m.Method == nil {
				ids = append(ids, m.ID)
			}
		}
		return ids
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var id json.RawMessage
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil
		}
		switch k {
		case "method":
			return nil
		case "result", "error":
			if id == nil || string(id) == "null" {
				return nil
			}
			return []json.RawMessage{id}
		case "id":
			err = dec.Decode(&id)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return nil
		}
	}
	return nil
}
