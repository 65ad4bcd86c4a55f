//go:build !(linux || darwin)

package main

// pty_other.go: systems without the pseudo-terminal support of
// pty_unix.go. Sessions cannot start there; everything else still builds.

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// errPTYUnsupported is returned by startPTY where pty_unix.go does not build.
var errPTYUnsupported = errors.New("pty: pseudo-terminals are supported on Linux and macOS only")

func startPTY(cmd *exec.Cmd, cols, rows int) (*os.File, string, error) {
	return nil, "", errPTYUnsupported
}

func ptyForeground(master *os.File) (int, error) { return 0, errPTYUnsupported }

// lineMode is the line discipline's state (pty_unix.go).
type lineMode struct {
	echo, canonical bool
}

func ptyLineMode(master *os.File) (lineMode, error) { return lineMode{}, errPTYUnsupported }

func ptyInputPending(slave string) (int, error) { return 0, errPTYUnsupported }

func setPTYSize(master *os.File, cols, rows int) error { return errPTYUnsupported }

func ptyUnread(master *os.File) (int, error) { return 0, errPTYUnsupported }

func signalGroup(pid int, sig syscall.Signal) {}

// portableSignals are the signals every Go port names.
var portableSignals = map[string]syscall.Signal{
	"SIGHUP": syscall.SIGHUP, "SIGINT": syscall.SIGINT, "SIGKILL": syscall.SIGKILL, "SIGTERM": syscall.SIGTERM,
}

func signalByName(name string) (syscall.Signal, bool) {
	s := strings.ToUpper(strings.TrimSpace(name))
	if !strings.HasPrefix(s, "SIG") {
		s = "SIG" + s
	}
	sig, ok := portableSignals[s]
	return sig, ok
}

func signalName(sig syscall.Signal) string {
	for n, s := range portableSignals {
		if s == sig {
			return n
		}
	}
	if sig == 0 {
		return ""
	}
	return sig.String()
}

func sessionMembers(sid int) []int { return nil }

func markedProcesses(marker string) []int { return nil }

func endMarked(marker string, sig syscall.Signal, grace time.Duration) {}

func endOrphans(markers []string, sig syscall.Signal, grace time.Duration) {}

func renice(pid, nice int) {}

func pollKill(members func() []int, kill func(pids []int), killAt <-chan time.Time, giveUp time.Duration) {
}

const ptyReadsHeld = false

func ptyReadLocked(master *os.File, buf []byte, mu *sync.Mutex, inFlight *atomic.Int64) (int, error) {
	return 0, errPTYUnsupported
}
