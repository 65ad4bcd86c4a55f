//go:build linux

package main

// pty_linux.go: the Linux half of pty_unix.go: /dev/ptmx with
// TIOCSPTLCK/TIOCGPTN, and the members of a session from /proc.

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a new master (/dev/ptmx), unlocks its slave (TIOCSPTLCK 0)
// and returns the slave's path (/dev/pts/N from TIOCGPTN). The master is
// registered with Go's poller, so Close interrupts a pending Read and write
// deadlines work.
func openPTY() (master *os.File, slave string, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, "", fmt.Errorf("pty: open /dev/ptmx: %w", err)
	}
	defer func() {
		if err != nil {
			_ = master.Close() // Best effort: the error path reports err.
		}
	}()
	var n int
	err = ptyControl(master, func(fd int) error {
		if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
			return fmt.Errorf("pty: unlock (TIOCSPTLCK): %w", err)
		}
		var err error
		if n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN); err != nil {
			return fmt.Errorf("pty: slave number (TIOCGPTN): %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return master, "/dev/pts/" + strconv.Itoa(n), nil
}

// sessionMembers returns the live (not zombie) processes whose session id
// is sid, read from /proc/PID/stat (field 6); nil when /proc is unreadable.
// Reading every process's stat takes milliseconds, so concurrent callers
// (a shutdown stops all sessions at once) share one scan (liveProcesses).
func sessionMembers(sid int) []int {
	return liveProcesses().bySID[sid]
}

// procScanFresh is how long a scan of /proc answers liveProcesses.
const procScanFresh = 10 * time.Millisecond

// procTable is one scan of /proc: the live processes' parents, and the
// processes of each session id. It is not changed once made.
type procTable struct {
	parent map[int]int
	bySID  map[int][]int
}

// procScan is the shared scan of liveProcesses.
var procScan struct {
	mu    sync.Mutex
	at    time.Time
	table *procTable
}

// liveProcesses returns a scan of /proc no older than procScanFresh:
// concurrent stops (each lists its session's members and its marked
// processes several times) share one instead of each reading every
// process's stat.
func liveProcesses() *procTable {
	procScan.mu.Lock()
	defer procScan.mu.Unlock()
	if procScan.table == nil || time.Since(procScan.at) > procScanFresh {
		procScan.table = scanProcesses()
		procScan.at = time.Now()
	}
	return procScan.table
}

// scanProcesses reads every live process's stat.
func scanProcesses() *procTable {
	t := &procTable{parent: map[int]int{}, bySID: map[int][]int{}}
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return t
	}
	for _, e := range dir {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProcStat(e.Name()); ok && p.live() {
			t.parent[pid] = p.ppid
			t.bySID[p.sid] = append(t.bySID[p.sid], pid)
		}
	}
	return t
}

// procStat is what /proc/PID/stat says of a process.
type procStat struct {
	state           byte // R, S, D, ...; Z a zombie (dead, waiting to be reaped), X dead
	ppid, pgrp, sid int
}

// live reports whether the process runs (is not a zombie or dead).
func (p procStat) live() bool { return p.state != 'Z' && p.state != 'X' }

// readProcStat reads /proc/PID/stat (pid in decimal); false when the
// process is gone. The command name in parentheses may hold spaces and
// parentheses, so fields are counted from the last ')'.
func readProcStat(pid string) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	// After ")": state ppid pgrp session ...
	f := bytes.Fields(b[i+1:])
	if len(f) < 4 || len(f[0]) != 1 {
		return procStat{}, false
	}
	var p procStat
	var err1, err2, err3 error
	p.state = f[0][0]
	p.ppid, err1 = strconv.Atoi(string(f[1]))
	p.pgrp, err2 = strconv.Atoi(string(f[2]))
	p.sid, err3 = strconv.Atoi(string(f[3]))
	return p, err1 == nil && err2 == nil && err3 == nil
}

// markedProcesses lists the live descendants of this process whose
// environment (as it was at their exec, /proc/PID/environ) holds the
// entry marker, "NAME=value". A session's program and everything it
// starts inherit the session's marker (sessionVar), so this finds what
// left the session and its process group too: a daemon that called
// setsid, whose parent may be gone (then it is this subreaper's child).
// Only descendants count: another server's sessions are never touched.
func markedProcesses(marker string) []int { return processesMarked([]string{marker}, os.Getpid()) }

// processesMarked lists the live processes whose environment holds one
// of the entries markers ("NAME=value"): with ancestor > 0 its
// descendants only, with 0 wherever they are, which a shared service
// uses for the sessions of a service that died (their markers are its
// alone: random tokens).
func processesMarked(markers []string, ancestor int) []int {
	var want [][]byte
	for _, m := range markers {
		if strings.Contains(m, "=") { // no marker: never match every environment
			want = append(want, []byte(m+"\x00"))
		}
	}
	if len(want) == 0 {
		return nil
	}
	parent := liveProcesses().parent
	var out []int
	for pid := range parent {
		if ancestor > 0 && !descends(pid, ancestor, parent) {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err != nil {
			continue
		}
		for _, w := range want {
			if bytes.HasPrefix(env, w) || bytes.Contains(env, append([]byte{0}, w...)) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// descends reports whether ancestor is a proper ancestor of pid in the
// parent table (a snapshot, so the walk is bounded by its size).
func descends(pid, ancestor int, parent map[int]int) bool {
	for range len(parent) {
		p, ok := parent[pid]
		if !ok || p == 0 {
			return false
		}
		if p == ancestor {
			return true
		}
		pid = p
	}
	return false
}

// ioctlUnread asks how many bytes wait to be read (FIONREAD).
const ioctlUnread = unix.TIOCINQ

// ioctlGetTermios reads a terminal's termios (tcgetattr).
const ioctlGetTermios = unix.TCGETS

// signalIgnored reports whether sig's disposition is SIG_IGN, from the
// SigIgn mask in /proc/self/status (signal.Ignored only knows about
// signal.Ignore calls, not what the process inherited or what a
// signal.Reset restored).
func signalIgnored(sig syscall.Signal) bool {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return signal.Ignored(sig)
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("SigIgn:")); ok {
			mask, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 16, 64)
			return err == nil && mask&(1<<(sig-1)) != 0
		}
	}
	return signal.Ignored(sig)
}

// reniceGroup sets the nice value of pid's autogroup, where the kernel
// has them (/proc/PID/autogroup; an unprivileged process may raise it).
func reniceGroup(pid, nice int) {
	_ = os.WriteFile(fmt.Sprintf("/proc/%d/autogroup", pid), []byte(strconv.Itoa(nice)), 0)
}

// ptyReadsHeld is true where ptyReadLocked consumes output from the
// master only with the session's lock held: a reader of the session's
// state under that lock then sees each byte either still in the master
// (ptyOutputPending) or fed, never in between.
const ptyReadsHeld = true

// ptyReadLocked waits in Go's poller until master has output, then locks
// mu and reads it into buf: it returns n > 0 with mu held (the caller
// feeds the bytes and unlocks), or the error that ended the output
// (EIO once the terminal's last holder is gone, or the master closed)
// with mu not held. inFlight is for platforms whose reads cannot take
// the lock first; it is not used here.
func ptyReadLocked(master *os.File, buf []byte, mu *sync.Mutex, _ *atomic.Int64) (n int, err error) {
	rc, err := master.SyscallConn()
	if err != nil {
		return 0, err
	}
	rerr := rc.Read(func(fd uintptr) bool {
		mu.Lock()
		n, err = unix.Read(int(fd), buf)
		for err == unix.EINTR {
			n, err = unix.Read(int(fd), buf)
		}
		switch {
		case err == unix.EAGAIN:
			mu.Unlock()
			return false // wait in the poller, without the lock
		case n <= 0:
			mu.Unlock()
			n = 0
			if err == nil {
				err = io.EOF
			}
		}
		return true
	})
	if rerr != nil { // the master closed while waiting: the lock is not held
		return 0, rerr
	}
	return n, err
}
