package main

// session_input.go: what the program in the terminal's foreground waits
// for, measured rather than guessed from the screen: the foreground
// process group (TIOCGPGRP), which of its processes is asleep reading
// the terminal (Linux: their system calls, as readiness reads them;
// elsewhere: output quiet for readyQuiet), and the terminal's line
// discipline (ECHO, ICANON). From these, one kind an agent can act on.

import (
	"strings"
	"time"
)

// Input kinds (Foreground.Input).
const (
	inputCommand = "command" // an integrated shell at its prompt
	inputSecret  = "secret"  // a line read with echo off: a password, a passphrase
	inputLine    = "line"    // a line read with echo on: a [y/N] question, read -p
	inputKeys    = "keys"    // a raw-mode reader: a full-screen program, a line editor
	inputNone    = "none"    // busy, or asleep on something else
)

// Foreground is the terminal's foreground program: the process of the
// foreground group that reads the terminal (less, not the git log that
// started it), else the group's leader; its command (the kernel's name
// for it, /proc/PID/comm, else argv[0]) and arguments; and the input it
// waits for, one of the input kinds.
type Foreground struct {
	PID     int      `json:"pid"`
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	Input   string   `json:"input"`

	// readTimeout is the timeout of the wait it reads in (-1: none, or
	// not seen): a program in a short timed read after a lone Escape is
	// still deciding whether a key sequence follows.
	readTimeout time.Duration
}

// maxForegroundArgs and maxForegroundArg bound the arguments a
// Foreground carries: they go into every reply.
const (
	maxForegroundArgs = 8
	maxForegroundArg  = 64
)

// Foreground reads what the terminal's foreground program waits for.
// It takes s.mu briefly; the rest reads the kernel's state.
func (s *Session) Foreground() Foreground {
	s.mu.Lock()
	v := s.foregroundViewLocked()
	s.mu.Unlock()
	return s.foreground(v)
}

// foregroundLocked is Foreground with s.mu held.
func (s *Session) foregroundLocked() Foreground { return s.foreground(s.foregroundViewLocked()) }

// foregroundView is what Foreground needs of the session's own state.
type foregroundView struct {
	exited   bool
	quiet    time.Duration // since the last output
	atPrompt bool          // an integrated shell idle at its prompt
}

func (s *Session) foregroundViewLocked() foregroundView {
	return foregroundView{exited: s.exited, quiet: time.Since(s.lastOutput), atPrompt: s.integ.Active && s.sh.seenA && s.sh.running == nil}
}

// foreground reads the kernel's state for v; s.master and s.pid are
// set at start and never change.
func (s *Session) foreground(v foregroundView) Foreground {
	if v.exited {
		return Foreground{Input: inputNone}
	}
	pgid, err := ptyForeground(s.master)
	if err != nil || pgid <= 0 {
		return Foreground{Input: inputNone}
	}
	pid, reads, known, timeout := foregroundReader(s.pid, pgid)
	if !known {
		reads = v.quiet >= readyQuiet // its threads cannot be seen: a quiet program is taken to wait for input
	}
	fg := Foreground{PID: pid, Input: inputNone, readTimeout: timeout}
	fg.Command, fg.Args = processCommand(pid)
	if !reads {
		return fg
	}
	lm, err := ptyLineMode(s.master)
	switch {
	case err != nil:
	case v.atPrompt && pgid == s.pid:
		fg.Input = inputCommand
	case !lm.canonical:
		fg.Input = inputKeys
	case lm.echo:
		fg.Input = inputLine
	default:
		fg.Input = inputSecret
	}
	return fg
}

// inputRead reports whether everything typed into the terminal so far
// has been read by the program (nothing waits in the terminal's input
// queue; in canonical mode a line not yet ended counts as read, since no
// read returns it). It is true when that cannot be seen.
func (s *Session) inputRead() bool {
	n, err := ptyInputPending(s.slave)
	return err != nil || n == 0
}

// describe is the foreground program and its input kind in a few words,
// for a reply's text: "sudo waits for a secret".
func (f Foreground) describe() string {
	name := f.Command
	if name == "" {
		name = "the program"
	}
	switch f.Input {
	case inputCommand:
		return name + " waits for a command"
	case inputSecret:
		return name + " waits for a secret (typed with echo off)"
	case inputLine:
		return name + " waits for a line of input"
	case inputKeys:
		return name + " reads keys"
	}
	return name + " is busy (not reading the terminal)"
}

// clipArgs bounds args to what a reply carries.
func clipArgs(args []string) []string {
	if len(args) > maxForegroundArgs {
		args = append(args[:maxForegroundArgs:maxForegroundArgs], "...")
	}
	for i, a := range args {
		if len(a) > maxForegroundArg {
			args[i] = strings.ToValidUTF8(a[:maxForegroundArg], "") + "..."
		}
	}
	return args
}
