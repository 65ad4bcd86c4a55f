//go:build unix

package main

// attach_conn.go: one viewer's connection. Its reader (serve) runs the
// requests in order; once attached, its sender (sendLoop, pumpViewer)
// waits for the session's screen or keyboard to change and sends the new
// state, the screen taken when it is sent, so that the viewer sees the
// latest and a slow viewer skips frames rather than queueing them. Every write has a
// deadline: a viewer that stops reading is disconnected, never waited
// for.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// attachConn is one viewer's connection.
type attachConn struct {
	as     *attachServer
	c      *net.UnixConn
	ctx    context.Context // ends when the connection does
	cancel context.CancelFunc

	writeMu sync.Mutex // one frame at a time on c

	// Set by the reader only.
	s          *Session
	viewer     uint64
	remove     func()
	sendDone   chan struct{} // closed when sendLoop returns; nil before attach
	resize     bool          // the session takes the viewer's size while it holds the keyboard
	cols, rows int           // the viewer's size, 0 when unknown
	restore    [2]int        // the session's size before the viewer's resize; 0 when not resized
}

// newAttachConn returns the connection c of as.
func newAttachConn(as *attachServer, c *net.UnixConn) *attachConn {
	ctx, cancel := context.WithCancel(context.Background())
	return &attachConn{as: as, c: c, ctx: ctx, cancel: cancel}
}

// close ends the connection; serve then returns.
func (ac *attachConn) close() {
	ac.cancel()
	_ = ac.c.Close() // Best effort: serve's reads end with it.
}

// send writes one frame within attachWriteLimit; past it the viewer is
// disconnected.
func (ac *attachConn) send(frame []byte) error {
	ac.writeMu.Lock()
	defer ac.writeMu.Unlock()
	_ = ac.c.SetWriteDeadline(time.Now().Add(ac.as.writeLimit))
	if _, err := ac.c.Write(frame); err != nil {
		ac.close()
		return err
	}
	return nil
}

// serve reads and runs the viewer's requests until it detaches, breaks
// the protocol or goes away, then leaves the session as it found it.
func (ac *attachConn) serve() {
	defer ac.leave()
	fr := newFrameReader(ac.c)
	for {
		_ = ac.c.SetReadDeadline(time.Now().Add(ac.as.readLimit))
		line, err := fr.next()
		switch {
		case errors.Is(err, errFrameIdle):
			continue // a viewer may watch without a word
		case errors.Is(err, errHalfFrame), errors.Is(err, errFrameTooLong):
			_ = ac.send(errorFrame(err.Error()))
			return
		case err != nil:
			return
		}
		req, err := parseAttachRequest(line)
		if err != nil {
			_ = ac.send(errorFrame(err.Error()))
			return
		}
		if !ac.run(req) {
			return
		}
	}
}

// run runs one request; it returns false when the connection ends.
func (ac *attachConn) run(req attachRequest) bool {
	if ac.s == nil && req.Op != "list" && req.Op != "attach" && req.Op != "web" && req.Op != "detach" {
		return ac.send(errorFrame(fmt.Sprintf("%s before attach: attach to a session first", req.Op))) == nil
	}
	switch req.Op {
	case "list":
		return ac.send(ac.as.sessionsFrame()) == nil
	case "attach":
		return ac.attach(req)
	case "web":
		return ac.send(ac.webFrame(req.Session)) == nil
	case "take":
		return ac.take()
	case "give":
		ac.give()
	case "keys":
		ctx, cancel := context.WithTimeout(ac.ctx, attachWriteLimit)
		err := ac.s.PersonInput(ctx, ac.viewer, req.keys)
		cancel()
		if err != nil {
			return ac.send(errorFrame("keys: "+err.Error())) == nil
		}
	case "size":
		ac.cols, ac.rows = req.Cols, req.Rows
		if ac.restore != [2]int{} && ac.s.Keyboard().HolderID == ac.viewer {
			_ = ac.s.Resize(ac.cols, ac.rows) // Best effort: the viewer sees the size it got.
		}
	case "detach":
		return false
	}
	return true
}

// webFrame answers a web request: the live view's URL of the session id,
// {"op":"web","url":"http://127.0.0.1:PORT/view/TOKEN"}, or an error.
func (ac *attachConn) webFrame(id string) []byte {
	s := ac.as.sessions.Get(id)
	if s == nil {
		return errorFrame(fmt.Sprintf("no session %q in server %d: ttywright attach --list lists them", id, pidOf()))
	}
	url, err := ac.as.views.Offer(s)
	if err != nil {
		return errorFrame("web: " + err.Error())
	}
	b, _ := encodeFrame(struct {
		Op  string `json:"op"`
		URL string `json:"url"`
	}{"web", url}) // always encodes
	return b
}

// attach makes the connection a viewer of the session the request
// names, taking the keyboard when it asks for control, and starts
// sending it the session's state.
func (ac *attachConn) attach(req attachRequest) bool {
	if ac.s != nil {
		return ac.send(errorFrame("attached already: detach and connect again for another session")) == nil
	}
	s := ac.as.sessions.Get(req.Session)
	if s == nil {
		_ = ac.send(errorFrame(fmt.Sprintf("no session %q in server %d: ttywright attach --list lists them", req.Session, pidOf())))
		return false
	}
	ac.s, ac.resize, ac.cols, ac.rows = s, req.Resize, req.Cols, req.Rows
	ac.viewer, ac.remove = s.AddViewer(viewerTerminal)
	ac.sendDone = make(chan struct{})
	go ac.sendLoop()
	if req.Control {
		return ac.take()
	}
	return true
}

// take gives the viewer the keyboard, and with resize the session the
// viewer's size.
func (ac *attachConn) take() bool {
	if err := ac.s.TakeKeyboard(ac.viewer); err != nil {
		return ac.send(errorFrame("take: "+err.Error())) == nil
	}
	if ac.resize && ac.cols > 0 && ac.restore == [2]int{} {
		st := ac.s.Status()
		ac.restore = [2]int{st.Cols, st.Rows}
		_ = ac.s.Resize(ac.cols, ac.rows) // Best effort: an exited session keeps its size.
	}
	return true
}

// give gives the keyboard back to the agent, and the session its size.
func (ac *attachConn) give() {
	if ac.restore != [2]int{} {
		_ = ac.s.Resize(ac.restore[0], ac.restore[1]) // Best effort, as in take.
		ac.restore = [2]int{}
	}
	ac.s.GiveKeyboard(ac.viewer)
}

// leave ends the connection: the keyboard goes back, the size too, the
// viewer is removed, and the sender has stopped when it returns.
func (ac *attachConn) leave() {
	if ac.s != nil {
		ac.give()
		ac.remove()
	}
	ac.close()
	if ac.sendDone != nil {
		<-ac.sendDone
	}
}

// sendLoop sends the session's state to the viewer (pumpViewer): the
// keyboard's status and the screen when they change, a screen at most
// every attachFrameGap, and the exit once.
func (ac *attachConn) sendLoop() {
	defer close(ac.sendDone)
	th := viewTheme(ac.s)
	pumpViewer(ac.ctx, ac.s, viewerOutputs{
		status: func() error { return ac.send(ac.statusFrame()) },
		screen: func(snap *Snapshot) error { return ac.send(screenFrame(snap, th)) },
		exit:   func() error { return ac.send(exitFrame(ac.s.Status())) },
	})
}

// statusFrame is the keyboard's status as this viewer sees it.
func (ac *attachConn) statusFrame() []byte {
	k := ac.s.Keyboard()
	b, _ := encodeFrame(struct {
		Op       string `json:"op"`
		Keyboard string `json:"keyboard"`
		You      bool   `json:"you"`
		Viewers  int    `json:"viewers"`
	}{"status", k.Holder, k.HolderID == ac.viewer, k.Viewers}) // always encodes
	return b
}

// exitFrame says how the program ended.
func exitFrame(st SessionStatus) []byte {
	b, _ := encodeFrame(struct {
		Op       string `json:"op"`
		ExitCode int    `json:"exit_code"`
		Signal   string `json:"signal,omitempty"`
	}{"exited", st.ExitCode, st.Signal}) // always encodes
	return b
}

// attachSessionJSON is one entry of a sessions frame.
type attachSessionJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name,omitempty"`   // shell_start's name
	Client   string `json:"client,omitempty"` // the MCP client that started it
	Command  string `json:"command"`
	Cols     int    `json:"cols"`
	Rows     int    `json:"rows"`
	State    string `json:"state"` // "running" or "exited"
	IdleMS   int64  `json:"idle_ms"`
	Keyboard string `json:"keyboard"`
	Viewers  int    `json:"viewers"`
}

// attachSessionsFrame is a sessions frame: the server's pid and its
// sessions, oldest first.
type attachSessionsFrame struct {
	Op       string              `json:"op"`
	Server   int                 `json:"server"`
	Service  bool                `json:"service,omitempty"` // the user's shared service (ttywright --shared)
	Sessions []attachSessionJSON `json:"sessions"`
}

// sessionsFrame lists the server's sessions.
func (as *attachServer) sessionsFrame() []byte {
	as.mu.Lock()
	service := as.service
	as.mu.Unlock()
	f := attachSessionsFrame{Op: "sessions", Server: pidOf(), Service: service, Sessions: []attachSessionJSON{}}
	for _, s := range as.sessions.List() {
		st, k := s.Status(), s.Keyboard()
		state := "running"
		if st.Exited {
			state = "exited"
		}
		f.Sessions = append(f.Sessions, attachSessionJSON{ID: s.ID, Name: s.Name, Client: s.Client, Command: s.Command, Cols: st.Cols, Rows: st.Rows,
			State: state, IdleMS: s.Idle().Milliseconds(), Keyboard: k.Holder, Viewers: k.Viewers})
	}
	b, _ := encodeFrame(f) // strings and numbers always encode
	return b
}
