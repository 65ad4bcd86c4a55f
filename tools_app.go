package main

// tools_app.go: what the tools of the terminal app share. The app is an
// MCP App (the io.modelcontextprotocol/ui extension; README "In the
// conversation"): the client renders ui://ttywright/terminal in the
// conversation when shell_start or shell_read returns, and the page calls
// the app's own tools through the client, which keeps them from the
// model: app_screen (tool_app_screen.go), app_commands, app_keyboard and
// app_secret.
//
// Each app, one page a client renders, is a viewer of its session
// (session_keyboard.go) from its first app_screen on, named by a token
// the server gives it (crypto/rand.Text, kept by its SHA-256 as the
// secret pages' tokens are). It stays one while it polls and leaves
// appLease after its last poll ended, giving the keyboard back if it
// held it: a page the client tore down never keeps the agent from
// typing.

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// toolApp is how a tool meets the terminal app.
type toolApp uint8

const (
	appNone  toolApp = iota // not at all
	appShows                // its result shows the app (_meta.ui.resourceUri)
	appOnly                 // the app's own (_meta.ui.visibility ["app"]): listed to and called by clients that declared the extension only
)

// The limits of the terminal app.
const (
	appLease      = 15 * time.Second // an app that stopped polling leaves this long after its last poll
	appPollWait   = 25 * time.Second // the longest app_screen waits for a change
	maxAppViewers = 16               // apps viewing one session at once; each has at most one poll waiting
)

// appViews are the apps viewing the sessions, by their tokens. The zero
// value has none.
type appViews struct {
	lease time.Duration // how long an app stays after its last poll; 0: appLease (tests set less)

	mu      sync.Mutex
	viewers secretTable[*appViewer]
	count   map[*Session]int // apps of each session, joining ones included
}

// leaseTime is a.lease, or appLease.
func (a *appViews) leaseTime() time.Duration {
	if a.lease > 0 {
		return a.lease
	}
	return appLease
}

// appViewer is one app: a viewer of session s.
type appViewer struct {
	s      *Session
	id     uint64 // its viewer id (AddViewer)
	remove func()
	key    secretHash // of its token, its key in appViews.viewers

	// Guarded by appViews.mu:
	left    bool
	idle    *time.Timer        // makes it leave; stopped while a poll waits
	poll    context.CancelFunc // ends the poll waiting now; nil when none
	polls   uint64             // polls begun, to tell the waiting one
	last    time.Time          // when it was last sent a screen (attachFrameGap)
	took    time.Time          // when it last took the keyboard
	tookCmd int                // the newest command's number then (appAccount)
}

// errAppToken refuses an app call whose viewer token names no app of the
// session: the app polls again (app_screen without it) and gets a new one.
var errAppToken = errors.New("viewer is not an app of this session (it left after it stopped polling, or the server restarted): call app_screen without viewer to join again")

// join returns the app of s whose token is token, or, when token is ""
// or names none (the app left), a new app and its token. It fails when
// maxAppViewers apps view s.
func (a *appViews) join(s *Session, token string) (*appViewer, string, error) {
	a.mu.Lock()
	if v, ok := a.viewers.lookup(token); ok && token != "" && v.s == s && !v.left {
		a.mu.Unlock()
		return v, token, nil
	}
	if a.count[s] >= maxAppViewers {
		a.mu.Unlock()
		return nil, "", fmt.Errorf("%d apps view session %s already, the most at once: close one", maxAppViewers, s.ID)
	}
	if a.count == nil {
		a.count = map[*Session]int{}
	}
	a.count[s]++ // before AddViewer, which takes s.mu and emits: not under a.mu
	a.mu.Unlock()
	v := &appViewer{s: s}
	v.id, v.remove = s.AddViewer(viewerApp)
	token = rand.Text()
	a.mu.Lock()
	defer a.mu.Unlock()
	v.key = a.viewers.add(token, v)
	v.idle = time.AfterFunc(a.leaseTime(), func() { a.leave(v) })
	return v, token, nil
}

// lookup returns the app of s whose token is token and keeps it for
// another lease; errAppToken when there is none.
func (a *appViews) lookup(s *Session, token string) (*appViewer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	v, ok := a.viewers.lookup(token)
	if !ok || token == "" || v.s != s || v.left {
		return nil, errAppToken
	}
	if v.poll == nil {
		v.idle.Reset(a.leaseTime())
	}
	return v, nil
}

// appOf returns session id and its app whose token is token, as every
// call of an app but its first poll names them; the error says which is
// wrong.
func (tb *Toolbox) appOf(id, token string) (*Session, *appViewer, error) {
	s, err := tb.session(id)
	if err != nil {
		return nil, nil, err
	}
	v, err := tb.apps.lookup(s, token)
	if err != nil {
		return nil, nil, err
	}
	return s, v, nil
}

// wait makes a poll of v the one that waits, at most appPollWait: a poll
// of v waiting already ends now, so an app has one poll waiting however
// often it calls. It returns the poll's context, the time v was last sent
// a screen, and done, which ends the poll with the time of the screen it
// sent (zero for none) and starts v's lease when no newer poll waits.
func (a *appViews) wait(ctx context.Context, v *appViewer) (context.Context, time.Time, func(sent time.Time)) {
	ctx, cancel := context.WithTimeout(ctx, appPollWait)
	a.mu.Lock()
	defer a.mu.Unlock()
	if v.poll != nil {
		v.poll()
	}
	v.polls++
	n := v.polls
	v.poll = cancel
	v.idle.Stop()
	return ctx, v.last, func(sent time.Time) {
		cancel()
		a.mu.Lock()
		defer a.mu.Unlock()
		if sent.After(v.last) {
			v.last = sent
		}
		if v.polls == n && !v.left {
			v.poll = nil
			v.idle.Reset(a.leaseTime())
		}
	}
}

// leave makes v leave once: its token is forgotten, its poll ends, and it
// stops being a viewer, giving the keyboard back if it held it.
func (a *appViews) leave(v *appViewer) {
	a.mu.Lock()
	if v.left {
		a.mu.Unlock()
		return
	}
	v.left = true
	a.viewers.delete(v.key)
	if a.count[v.s]--; a.count[v.s] <= 0 {
		delete(a.count, v.s)
	}
	v.idle.Stop()
	if v.poll != nil {
		v.poll()
	}
	a.mu.Unlock()
	v.remove()
}

// took notes that v took the keyboard now, when command n was the newest.
func (a *appViews) took(v *appViewer, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	v.took, v.tookCmd = time.Now(), n
}

// since returns when v last took the keyboard and the newest command's
// number then.
func (a *appViews) since(v *appViewer) (time.Time, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return v.took, v.tookCmd
}

// newestCommand is the number of s's newest finished command, 0 for none.
func newestCommand(s *Session) int {
	cmds := s.commandsCopy()
	if len(cmds) == 0 {
		return 0
	}
	return cmds[len(cmds)-1].n
}

// appAccount is the one line the app puts in the model's context when the
// person gives the keyboard back: for how long they held it and the
// commands they ran since (after command n), with their exit codes, the
// newest maxAccountCommands; never what they typed anywhere else.
func appAccount(s *Session, took time.Time, n int) string {
	var ran []string
	for _, c := range s.commandsCopy() {
		if c.n > n && c.by == holderPerson {
			ran = append(ran, fmt.Sprintf("`%s` (exit %s)", clipRunes(c.line, maxAccountLine), exitText(c.exitCode)))
		}
	}
	if r := runningCommand(s, 0); r != nil && r.By == holderPerson {
		ran = append(ran, fmt.Sprintf("`%s` (still running)", clipRunes(r.Line, maxAccountLine)))
	}
	held := time.Since(took).Round(time.Second)
	what := "ran no command (what they typed is theirs)"
	switch {
	case len(ran) > maxAccountCommands:
		what = fmt.Sprintf("ran %d commands, the last %d: %s", len(ran), maxAccountCommands, strings.Join(ran[len(ran)-maxAccountCommands:], ", "))
	case len(ran) == 1:
		what = "ran " + ran[0]
	case len(ran) > 1:
		what = fmt.Sprintf("ran %d commands: %s", len(ran), strings.Join(ran, ", "))
	}
	return fmt.Sprintf("The person held the keyboard of terminal session %s for %s in the terminal app and %s; it is yours again.", s.ID, held, what)
}

// The bounds of appAccount's line.
const (
	maxAccountCommands = 10
	maxAccountLine     = 80 // runes of a command line
)

// appTheme is the theme an app of s paints with: s's own, unless the
// client shows the conversation in the other kind (host is "light" or
// "dark"), then the first theme of that kind, so that the terminal
// follows the client's look.
func appTheme(s *Session, host string) *Theme {
	th := viewTheme(s)
	if host == "" || th.Type == host {
		return th
	}
	for _, t := range themeList {
		if t.Type == host {
			return t
		}
	}
	return th
}

// The arguments the app's tools share.
var (
	appViewerProp = prop("string", "This app's token, from app_screen.")
)
