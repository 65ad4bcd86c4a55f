package main

// attach_web.go: a session's live view in a browser, the glue between a
// session and the Web door's ViewPage, and pumpViewer, the one loop that
// feeds every viewer, a terminal's connection or a browser tab. The page
// gets the live view's screen frames (viewScreenFrame, attach_frame.go)
// and each tab is a viewer of the session whose keys are the person's
// input. A session has at
// most one view, opened by shell_start's view argument or ttywright
// attach --web, and it lives until the session stops.

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"
)

// sessionViews are the live views of a server's sessions, one per
// session, on one Web door. The zero value with a nil door refuses every
// offer.
type sessionViews struct {
	door *webDoor // nil with --web=off

	mu    sync.Mutex
	views map[*Session]*ViewOffer
}

// newSessionViews returns the views of door (nil: views are off).
func newSessionViews(door *webDoor) *sessionViews {
	return &sessionViews{door: door, views: map[*Session]*ViewOffer{}}
}

// errViewOff is the refusal with --web=off; its text is the tool error
// the model reads.
var errViewOff = errors.New("the live view is off (ttywright runs with --web=off): the person can watch with ttywright attach in their own terminal")

// Offer returns the live view's URL of s, http://127.0.0.1:PORT/view/TOKEN,
// opening the view the first time. It fails with --web=off, when s has
// stopped, or when the door refuses (too many views, no listener).
func (sv *sessionViews) Offer(s *Session) (string, error) {
	if sv == nil || sv.door == nil {
		return "", errViewOff
	}
	sv.mu.Lock()
	defer sv.mu.Unlock()
	if o := sv.views[s]; o != nil && !isDone(o.Done()) {
		return o.URL, nil
	}
	if isDone(s.Closed()) {
		return "", errors.New("the session has stopped: start another and view that")
	}
	o, err := sv.door.OfferView(sessionViewPage(s))
	if err != nil {
		return "", err
	}
	sv.views[s] = o
	go sv.endWith(s, o)
	return o.URL, nil
}

// endWith cancels o when s stops and forgets it when it ends.
func (sv *sessionViews) endWith(s *Session, o *ViewOffer) {
	select {
	case <-s.Closed():
		o.End()
	case <-o.Done():
	}
	sv.mu.Lock()
	if sv.views[s] == o {
		delete(sv.views, s)
	}
	sv.mu.Unlock()
}

// isDone reports whether ch is closed.
func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// sessionViewPage is the ViewPage of s: its id, its command line, its
// screen frames and one session viewer per tab.
func sessionViewPage(s *Session) ViewPage {
	return ViewPage{
		Session: s.ID,
		Title:   strings.Join(append([]string{s.Command}, s.Args...), " "),
		Frames:  func(ctx context.Context) <-chan []byte { return screenFrames(ctx, s) },
		Join:    func(ctx context.Context) (*ViewViewer, error) { return joinView(ctx, s) },
	}
}

// screenFrames sends s's live view frame (viewScreenFrame) now and after
// each change, at most every attachFrameGap, until ctx ends or s stops;
// then it closes the channel. The channel holds one frame: the door
// reads it promptly, and a frame is taken fresh from the screen when it
// can be sent.
func screenFrames(ctx context.Context, s *Session) <-chan []byte {
	out := make(chan []byte, 1)
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-s.Closed():
			cancel()
		case <-ctx.Done():
		}
	}()
	th := viewTheme(s)
	go func() {
		defer close(out)
		defer cancel()
		pumpViewer(ctx, s, viewerOutputs{
			screen: func(snap *Snapshot) error { return sendCtx(ctx, out, viewScreenFrame(snap, th)) },
		})
	}()
	return out
}

// viewerOutputs are what pumpViewer sends one viewer, each when it is
// not nil; an error from one ends the pump.
type viewerOutputs struct {
	status func() error               // the keyboard's status: first, then on each change of holder or viewers
	screen func(snap *Snapshot) error // the screen: first, then on each change, at most every attachFrameGap
	exit   func() error               // once, when the program has exited, after the last screen
}

// pumpViewer is the one loop of a viewer of s, a terminal's connection
// or a browser tab: turn after turn (viewerStep) it waits for s's screen
// or keyboard to change and sends the new state through out. It returns
// when ctx ends or an output fails; once the program has exited and that
// was sent, when ctx ends.
func pumpViewer(ctx context.Context, s *Session, out viewerOutputs) {
	var sent ViewGen
	var last time.Time
	for first := true; ; first = false {
		now, exited, err := viewerStep(ctx, s, sent, first, &last, out)
		if err != nil {
			return
		}
		sent = now
		if exited {
			if out.exit == nil || out.exit() == nil {
				<-ctx.Done() // nothing changes any more
			}
			return
		}
	}
}

// viewerStep is one turn of a viewer of s: it waits until s's screen or
// keyboard changed since sent, or the program has exited (WaitView),
// then sends the status when the keyboard changed and the screen when it
// did (both when first), the screen taken when it is sent and at most
// every attachFrameGap after *last, so that a slow viewer skips screens
// rather than queueing them. It returns what the viewer has seen now and
// whether the program has exited; an error when ctx ended or an output
// failed. The terminal app's long-poll (app_screen) is one turn.
func viewerStep(ctx context.Context, s *Session, sent ViewGen, first bool, last *time.Time, out viewerOutputs) (ViewGen, bool, error) {
	now, exited, err := s.WaitView(ctx, sent)
	if err != nil {
		return sent, false, err
	}
	if out.status != nil && (first || now.Keyboard != sent.Keyboard) {
		if err := out.status(); err != nil {
			return sent, false, err
		}
	}
	if out.screen != nil && (first || now.Screen != sent.Screen) {
		if wait := time.Until(last.Add(attachFrameGap)); wait > 0 && !sleepCtx(ctx, wait) {
			return sent, false, ctx.Err()
		}
		snap := s.Snapshot()
		now.Screen, *last = snap.Generation, time.Now()
		if err := out.screen(snap); err != nil {
			return sent, false, err
		}
	}
	return now, exited, nil
}

// sendCtx sends b on out, or returns ctx's error when ctx ends first.
func sendCtx(ctx context.Context, out chan<- []byte, b []byte) error {
	select {
	case out <- b:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// viewTheme is the theme s draws with, the default when its name is
// unknown: what every viewer of s paints with.
func viewTheme(s *Session) *Theme {
	if th, err := lookupTheme(s.Theme); err == nil {
		return th
	}
	th, _ := lookupTheme("")
	return th
}

// joinView makes one browser tab a viewer of s: its status (who has the
// keyboard, as this tab sees it, and the exit once the program ended)
// on each change while ctx lives, and its hooks into the keyboard.
func joinView(ctx context.Context, s *Session) (*ViewViewer, error) {
	if isDone(s.Closed()) {
		return nil, errors.New("the session has stopped")
	}
	id, remove := s.AddViewer(viewerBrowser)
	status := make(chan []byte, 1)
	go func() {
		defer close(status)
		pumpViewer(ctx, s, viewerOutputs{
			status: func() error { return sendCtx(ctx, status, viewStatus(s, id, false)) },
			exit:   func() error { return sendCtx(ctx, status, viewStatus(s, id, true)) },
		})
	}()
	return &ViewViewer{
		Status: status,
		Take:   func() error { return s.TakeKeyboard(id) },
		Give:   func() { s.GiveKeyboard(id) },
		Keys:   func(p []byte) error { return s.PersonInput(ctx, id, p) },
		Leave:  remove,
	}, nil
}

// viewStatus is viewer id's status object: {"keyboard":"agent"|"person",
// "you":bool,"viewers":N}, with "exit_code" (and "signal") once the
// program has ended.
func viewStatus(s *Session, id uint64, exited bool) []byte {
	k := s.Keyboard()
	st := struct {
		Keyboard string `json:"keyboard"`
		You      bool   `json:"you"`
		Viewers  int    `json:"viewers"`
		ExitCode *int   `json:"exit_code,omitempty"`
		Signal   string `json:"signal,omitempty"`
	}{Keyboard: k.Holder, You: k.HolderID == id, Viewers: k.Viewers}
	if exited {
		ps := s.Status()
		st.ExitCode, st.Signal = &ps.ExitCode, ps.Signal
	}
	b, _ := encodeFrame(st) // always encodes
	return b
}

// sleepCtx waits d, or less when ctx ends; it reports whether d passed.
// The Tools room uses it too (a typing delay, a recording's frame gap).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
