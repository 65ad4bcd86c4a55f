//go:build unix

package main

// attach.go: the attach listener, where a person's `ttywright attach`
// watches a session of this server and takes its keyboard. One unix
// socket per server, PID.sock in the user's private socket directory
// (attach_dir_unix.go), removed at exit; a connection from another uid is
// refused. Each connection is one viewer (attach_conn.go); at most
// maxAttachClients at once. Nothing a viewer does can stall the server or
// a session: a viewer's writes are bounded by a deadline, its screen
// frames are taken fresh when sent (a slow viewer skips frames), and a
// viewer that misbehaves is disconnected.

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Attach limits and timings.
const (
	maxAttachClients = 64               // connections at once
	attachWriteLimit = 10 * time.Second // a frame not taken by then disconnects the viewer
	attachReadLimit  = 10 * time.Second // a frame begun must end within this
)

// attachServer is the attach listener of one server. Build it with
// startAttach; Close ends it and every connection.
type attachServer struct {
	sessions *Sessions
	views    *sessionViews // the live views ttywright attach --web asks for
	path     string
	ln       *net.UnixListener
	logf     func(format string, a ...any)
	slots    chan struct{} // one token per connection being served

	readLimit, writeLimit time.Duration // attachReadLimit, attachWriteLimit (tests shorten them)

	mu      sync.Mutex
	conns   map[*attachConn]struct{}
	closed  bool
	service bool // the user's shared service: its sessions frames say so (MarkService)
	wg      sync.WaitGroup
}

// startAttach listens on dir/PID.sock for viewers of sessions, after
// checking dir (created 0700) and removing the sockets of servers that
// are gone. logf reports refused connections.
func startAttach(sessions *Sessions, views *sessionViews, dir string, logf func(format string, a ...any)) (*attachServer, error) {
	return startAttachLimits(sessions, views, dir, logf, attachReadLimit, attachWriteLimit)
}

// startAttachLimits is startAttach with the read and write limits given.
func startAttachLimits(sessions *Sessions, views *sessionViews, dir string, logf func(format string, a ...any), read, write time.Duration) (*attachServer, error) {
	if err := ensureAttachDir(dir); err != nil {
		return nil, err
	}
	removeStaleSockets(dir)
	path := filepath.Join(dir, fmt.Sprintf("%d.sock", os.Getpid()))
	_ = os.Remove(path) // Best effort: a socket of this pid is a dead server's.
	ln, err := listenPrivate(path)
	if err != nil {
		return nil, fmt.Errorf("attach: %w", err)
	}
	as := &attachServer{sessions: sessions, views: views, path: path, ln: ln, logf: logf,
		slots: make(chan struct{}, maxAttachClients), conns: map[*attachConn]struct{}{},
		readLimit: read, writeLimit: write}
	as.wg.Add(1)
	go as.serve()
	return as, nil
}

// listenPrivate listens on the unix socket path, in a directory that
// ensureAttachDir checked, with mode 0600; the socket is removed when the
// listener closes. The attach sockets and the shared service's socket
// (main_service.go) are made here.
func listenPrivate(path string) (*net.UnixListener, error) {
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// acceptPeers accepts connections on ln until it is closed and hands
// each to admit, on the accepting goroutine; a peer of another uid than
// this process's is closed without a word and logged with what, the
// listener's name ("attach").
func acceptPeers(ln *net.UnixListener, what string, logf func(format string, a ...any), admit func(*net.UnixConn)) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // EMFILE and the like: let descriptors free up
			continue
		}
		if uid, err := peerUID(c); err != nil || uid != os.Getuid() {
			logf("%s: refused a connection from uid %d (only uid %d may connect): %v", what, uid, os.Getuid(), err)
			c.Close()
			continue
		}
		admit(c)
	}
}

// serve accepts connections until Close.
func (as *attachServer) serve() {
	defer as.wg.Done()
	acceptPeers(as.ln, "attach", as.logf, as.admit)
}

// admit checks the connection limit, then serves c on a goroutine of its
// own.
func (as *attachServer) admit(c *net.UnixConn) {
	select {
	case as.slots <- struct{}{}:
	default:
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.Write(errorFrame(fmt.Sprintf("too many viewers: %d are attached, the limit", maxAttachClients))) // Best effort: it is closed anyway.
		c.Close()
		return
	}
	ac := newAttachConn(as, c)
	as.mu.Lock()
	if as.closed {
		as.mu.Unlock()
		c.Close()
		<-as.slots
		return
	}
	as.conns[ac] = struct{}{}
	as.wg.Add(1)
	as.mu.Unlock()
	go func() {
		defer as.wg.Done()
		ac.serve()
		as.mu.Lock()
		delete(as.conns, ac)
		as.mu.Unlock()
		<-as.slots
	}()
}

// Close stops listening, removes the socket, disconnects every viewer
// (which gives back the keyboards they held) and waits for them.
func (as *attachServer) Close() {
	if as == nil {
		return
	}
	as.mu.Lock()
	as.closed = true
	conns := make([]*attachConn, 0, len(as.conns))
	for ac := range as.conns {
		conns = append(conns, ac)
	}
	as.mu.Unlock()
	as.ln.Close()
	for _, ac := range conns {
		ac.close()
	}
	as.wg.Wait()
}

// MarkService makes the sessions frames say that this server is the
// user's shared service.
func (as *attachServer) MarkService() {
	if as == nil {
		return
	}
	as.mu.Lock()
	as.service = true
	as.mu.Unlock()
}

// errorFrame is an error frame line.
func errorFrame(msg string) []byte {
	b, _ := encodeFrame(struct {
		Op      string `json:"op"`
		Message string `json:"message"`
	}{"error", msg}) // strings always encode
	return b
}

// pidOf is this server's pid, which names its socket.
func pidOf() int { return os.Getpid() }
