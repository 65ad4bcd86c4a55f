//go:build darwin

package main

// pty_darwin.go: the macOS half of pty_unix.go: posix_openpt(3) spelled as
// /dev/ptmx plus the ioctls libc uses for grantpt, unlockpt and ptsname.

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// openPTY opens a new master and returns it with the slave's path
// (/dev/ttysNNN). The master is left in blocking mode and kept out of Go's
// poller: kqueue does not report pseudo-terminal readiness reliably on
// macOS, so reads block in a thread of their own.
func openPTY() (master *os.File, slave string, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, "", fmt.Errorf("pty: open /dev/ptmx: %w", err)
	}
	defer func() {
		if err != nil {
			_ = unix.Close(fd) // Best effort: the error path reports err.
		}
	}()
	if err := unix.IoctlSetInt(fd, unix.TIOCPTYGRANT, 0); err != nil {
		return nil, "", fmt.Errorf("pty: grant (TIOCPTYGRANT): %w", err)
	}
	if err := unix.IoctlSetInt(fd, unix.TIOCPTYUNLK, 0); err != nil {
		return nil, "", fmt.Errorf("pty: unlock (TIOCPTYUNLK): %w", err)
	}
	// TIOCPTYGNAME fills a 128-byte buffer; x/sys has no wrapper for it, so
	// this is the one raw ioctl (and the one use of unsafe) in the program.
	var buf [128]byte
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), uintptr(unix.TIOCPTYGNAME), uintptr(unsafe.Pointer(&buf[0]))); errno != 0 {
		return nil, "", fmt.Errorf("pty: slave name (TIOCPTYGNAME): %w", errno)
	}
	name, _, _ := bytes.Cut(buf[:], []byte{0})
	return os.NewFile(uintptr(fd), "/dev/ptmx"), string(name), nil
}

// sessionMembers lists the other processes of a session. macOS has no
// /proc; killing the process group (signalGroup) covers the usual case of a
// program and its children, so this returns nil.
func sessionMembers(sid int) []int { return nil }

// markedProcesses would find the processes carrying a session's marker
// variable; macOS has no /proc to read environments from, so a daemon
// that left the session lives until the server exits.
func markedProcesses(marker string) []int { return nil }

// processesMarked would find the processes carrying one of markers; see
// markedProcesses.
func processesMarked(markers []string, ancestor int) []int { return nil }

// ioctlUnread asks how many bytes wait to be read: FIONREAD,
// _IOR('f', 127, int) in <sys/filio.h> (x/sys does not export it for darwin).
const ioctlUnread = 0x4004667f

// ioctlGetTermios reads a terminal's termios (tcgetattr).
const ioctlGetTermios = unix.TIOCGETA

// signalIgnored reports whether sig is ignored as far as Go knows: an
// inherited SIG_IGN for SIGHUP and SIGINT (kept by the runtime) or
// signal.Ignore.
func signalIgnored(sig syscall.Signal) bool { return signal.Ignored(sig) }

// reniceGroup does nothing: macOS has no autogroups, setpriority does it.
func reniceGroup(pid, nice int) {}

// ptyReadsHeld is false on macOS: the master stays out of Go's poller
// (openPTY), so a read blocks with the session's lock not held, and the
// bytes it returns are in flight until fed.
const ptyReadsHeld = false

// ptyReadLocked reads output from master into buf, counts it in inFlight
// and then locks mu: it returns n > 0 with mu held (the caller feeds the
// bytes, takes them off inFlight and unlocks), or the error that ended
// the output with mu not held.
func ptyReadLocked(master *os.File, buf []byte, mu *sync.Mutex, inFlight *atomic.Int64) (int, error) {
	n, err := master.Read(buf)
	if n > 0 {
		inFlight.Store(int64(n))
		mu.Lock()
		return n, nil // an error comes back with the next read
	}
	return 0, err
}
