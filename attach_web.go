package main

// attach_web.go: a session's live view in a browser, the glue between a
// session and the Web door's ViewPage. The page gets the live view's
// screen frames (viewScreenFrame, attach_frame.go) and each tab is a
// viewer of the session whose keys are the person's input. A session has at
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
	go func() {
		defer close(out)
		defer cancel()
		th := viewTheme(s)
		var sent ViewGen
		var last time.Time
		for first := true; ; first = false {
			now, exited, err := s.WaitView(ctx, sent)
			if err != nil {
				return
			}
			if first || now.Screen != sent.Screen {
				if wait := time.Until(last.Add(attachFrameGap)); wait > 0 && !sleepCtx(ctx, wait) {
					return
				}
				snap := s.Snapshot()
				now.Screen, last = snap.Generation, time.Now()
				select {
				case out <- viewScreenFrame(snap, th):
				case <-ctx.Done():
					return
				}
			}
			sent = now
			if exited {
				<-ctx.Done() // the screen changes no more; the status says the exit
				return
			}
		}
	}()
	return out
}

// viewTheme is the theme s draws with, the default when its name is
// unknown.
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
	go viewStatusLoop(ctx, s, id, status)
	return &ViewViewer{
		Status: status,
		Take:   func() error { return s.TakeKeyboard(id) },
		Give:   func() { s.GiveKeyboard(id) },
		Keys:   func(p []byte) error { return s.PersonInput(ctx, id, p) },
		Leave:  remove,
	}, nil
}

// viewStatusLoop sends viewer id's status now and on each keyboard
// change until the program exits, then once more with the exit, and
// closes out when ctx ends.
func viewStatusLoop(ctx context.Context, s *Session, id uint64, out chan<- []byte) {
	defer close(out)
	var sent ViewGen
	for first := true; ; first = false {
		now, exited, err := s.WaitView(ctx, sent)
		if err != nil {
			return
		}
		if first || exited || now.Keyboard != sent.Keyboard {
			select {
			case out <- viewStatus(s, id, exited):
			case <-ctx.Done():
				return
			}
		}
		sent = now
		if exited {
			<-ctx.Done()
			return
		}
	}
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
