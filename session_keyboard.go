package main

// session_keyboard.go: who holds a session's keyboard. The agent holds it
// unless a person watching the session (a viewer: ttywright attach in a
// terminal, a page in a browser, or the terminal app in a conversation)
// took it; while a person holds it the agent's typing is refused and
// only the holder's keys reach the program. A viewer that goes away
// while holding gives the keyboard back. The agent hears of the person
// through KeyboardInfo in its next reply (person_typed) and through the
// commands the person ran (by).

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Viewer kinds.
const (
	viewerTerminal = "terminal"
	viewerBrowser  = "browser"
	viewerApp      = "app" // the terminal app in a conversation (tools_app.go)
)

// Keyboard holders, as replies and the attach protocol name them.
const (
	holderAgent  = "agent"
	holderPerson = "person"
)

// errPersonTyping refuses the agent's typing while a person holds the
// keyboard; the text is the tool error the model reads.
var errPersonTyping = errors.New("a person is typing in this session (they took the keyboard in ttywright attach, the live view or the terminal app in the conversation); read with shell_read or shell_wait, or ask them to give it back (Ctrl-] g, or the page's or the app's button)")

// keyboardState is the viewers of a session and who holds its keyboard.
// Guarded by Session.mu; personTyped and personLast are set by the
// person's input and read by the agent's calls and the marks.
type keyboardState struct {
	viewers map[uint64]string // viewer id to kind
	nextID  uint64
	holder  uint64 // the viewer holding the keyboard; 0: the agent
	gen     uint64 // bumped on every change of viewers or holder (ViewGen)

	personTyped bool // the person typed since the agent's last reply with a screen
	personLast  bool // the last input written was the person's

	personWrites uint64 // the person's writes so far (PersonWrites)

	typing int           // the agent's calls writing their input now (BeginAgentInput)
	typed  chan struct{} // closed when typing drops to 0; nil while none types
}

// KeyboardInfo is the part of a reply, session://{id}/info and
// sessions://list that says a person is there: every field is left out
// while no one watches and the agent holds the keyboard.
type KeyboardInfo struct {
	Viewers     int    `json:"viewers,omitempty"`
	Keyboard    string `json:"keyboard,omitempty"`     // "agent" or "person", with viewers
	PersonTyped bool   `json:"person_typed,omitempty"` // the person typed since the agent's last call
}

// KeyboardStatus is the keyboard as a viewer sees it.
type KeyboardStatus struct {
	Holder   string // holderAgent or holderPerson
	HolderID uint64 // the holding viewer; 0 for the agent
	Viewers  int
	ByKind   map[string]int // viewers by kind
}

// AddViewer registers a viewer of kind (viewerTerminal, viewerBrowser,
// viewerApp);
// remove unregisters it, giving the keyboard back if it held it, and may
// be called more than once.
func (s *Session) AddViewer(kind string) (id uint64, remove func()) {
	s.mu.Lock()
	if s.kb.viewers == nil {
		s.kb.viewers = map[uint64]string{}
	}
	s.kb.nextID++
	id = s.kb.nextID
	s.kb.viewers[id] = kind
	s.keyboardChangedLocked()
	s.mu.Unlock()
	s.Emit(Event{Kind: EventKeyboard})
	return id, func() {
		s.mu.Lock()
		_, ok := s.kb.viewers[id]
		delete(s.kb.viewers, id)
		if s.kb.holder == id {
			s.kb.holder = 0
		}
		if ok {
			s.keyboardChangedLocked()
		}
		s.mu.Unlock()
		if ok {
			s.Emit(Event{Kind: EventKeyboard})
		}
	}
}

// maxTakeWait bounds how long a take waits for the agent's call to type
// the rest of its input (type_delay_ms can spread it out).
const maxTakeWait = 30 * time.Second

// TakeKeyboard gives the keyboard to viewer id; it fails when another
// person holds it or id is no viewer. While the agent's call types its
// input, the take waits until it has typed all of it (at most
// maxTakeWait), so that no line is left half typed.
func (s *Session) TakeKeyboard(id uint64) error {
	s.mu.Lock()
	for s.kb.typing > 0 {
		typed := s.kb.typed
		s.mu.Unlock()
		select {
		case <-typed:
		case <-time.After(maxTakeWait):
			return errors.New("the agent is still typing a long input (type_delay_ms): take the keyboard again in a moment")
		}
		s.mu.Lock()
	}
	switch {
	case s.kb.viewers[id] == "":
		s.mu.Unlock()
		return errors.New("not a viewer of this session")
	case s.kb.holder == id:
		s.mu.Unlock()
		return nil
	case s.kb.holder != 0:
		s.mu.Unlock()
		return fmt.Errorf("another person holds the keyboard of %s", s.ID)
	}
	s.kb.holder = id
	s.keyboardChangedLocked()
	s.mu.Unlock()
	s.Emit(Event{Kind: EventKeyboard})
	return nil
}

// GiveKeyboard gives the keyboard back to the agent when viewer id holds
// it.
func (s *Session) GiveKeyboard(id uint64) {
	s.mu.Lock()
	held := id != 0 && s.kb.holder == id
	if held {
		s.kb.holder = 0
		s.keyboardChangedLocked()
	}
	s.mu.Unlock()
	if held {
		s.Emit(Event{Kind: EventKeyboard})
	}
}

// keyboardChangedLocked bumps the keyboard generation and wakes the
// waiters (WaitView). s.mu is held.
func (s *Session) keyboardChangedLocked() {
	s.kb.gen++
	s.signalLocked()
}

// Keyboard returns who holds the keyboard and the viewers.
func (s *Session) Keyboard() KeyboardStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := KeyboardStatus{Holder: holderAgent, HolderID: s.kb.holder, Viewers: len(s.kb.viewers), ByKind: map[string]int{}}
	if s.kb.holder != 0 {
		st.Holder = holderPerson
	}
	for _, k := range s.kb.viewers {
		st.ByKind[k]++
	}
	return st
}

// KeyboardInfo is the keyboard part of a reply. With take it also says
// whether the person typed since the last call that took it, and resets
// that: each agent call that returns a screen takes it.
func (s *Session) KeyboardInfo(take bool) KeyboardInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var k KeyboardInfo
	if take {
		k.PersonTyped, s.kb.personTyped = s.kb.personTyped, false
	}
	if n := len(s.kb.viewers); n > 0 || s.kb.holder != 0 {
		k.Viewers, k.Keyboard = n, holderAgent
		if s.kb.holder != 0 {
			k.Keyboard = holderPerson
		}
	}
	return k
}

// PersonWrites is how many times a person has typed into s (each key or
// paste a viewer sent), for a trace to note that they did.
func (s *Session) PersonWrites() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kb.personWrites
}

// TakePersonTyped reports whether the person typed since the last call,
// and resets it.
func (s *Session) TakePersonTyped() bool { return s.KeyboardInfo(true).PersonTyped }

// PersonHolds reports whether a person holds the keyboard.
func (s *Session) PersonHolds() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kb.holder != 0
}

// AgentMayType returns errPersonTyping while a person holds the keyboard.
func (s *Session) AgentMayType() error {
	if s.PersonHolds() {
		return errPersonTyping
	}
	return nil
}

// BeginAgentInput holds the keyboard for the agent's call while it
// writes its input, and end lets it go: a person's take waits for end,
// so a call types all of its input or, when a person holds the keyboard
// already, none (errPersonTyping, nothing written).
func (s *Session) BeginAgentInput() (end func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kb.holder != 0 {
		return nil, errPersonTyping
	}
	if s.kb.typing == 0 {
		s.kb.typed = make(chan struct{})
	}
	s.kb.typing++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.kb.typing--; s.kb.typing == 0 {
				close(s.kb.typed)
				s.kb.typed = nil
			}
		})
	}, nil
}

// PersonInput writes the keys of viewer id to the program, only while id
// holds the keyboard.
func (s *Session) PersonInput(ctx context.Context, id uint64, p []byte) error {
	s.mu.Lock()
	held := id != 0 && s.kb.holder == id
	if held {
		s.kb.personTyped, s.kb.personLast = true, true
		s.kb.personWrites++
	}
	s.mu.Unlock()
	if !held {
		return errors.New("you do not hold the keyboard: take it first")
	}
	return s.write(ctx, p)
}

// noteAgentInputLocked records that the agent wrote the last input.
// s.mu is held.
func (s *Session) noteAgentInputLocked() { s.kb.personLast = false }

// inputByLocked is who a command starting now was typed by: the person
// when they hold the keyboard or wrote the last input (the command's
// start mark may come after they gave the keyboard back), else the
// agent, as "". s.mu is held.
func (s *Session) inputByLocked() string {
	if s.kb.holder != 0 || s.kb.personLast {
		return holderPerson
	}
	return ""
}

// ViewGen is what a viewer has seen of a session: the screen's generation
// and the keyboard's.
type ViewGen struct {
	Screen, Keyboard uint64
}

// WaitView blocks until the screen or the keyboard changed since since,
// the program has exited, or ctx ends; it returns the current
// generations and whether the program has exited.
func (s *Session) WaitView(ctx context.Context, since ViewGen) (ViewGen, bool, error) {
	for {
		s.mu.Lock()
		now := ViewGen{Screen: s.term.Generation(), Keyboard: s.kb.gen}
		exited, ch := s.exited, s.changed
		s.mu.Unlock()
		if now != since || exited {
			return now, exited, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return now, exited, ctx.Err()
		}
	}
}

// Idle is how long the program has written nothing (since its start
// when it never wrote).
func (s *Session) Idle() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.lastOutput)
}
