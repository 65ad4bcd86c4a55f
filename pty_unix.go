//go:build linux || darwin

package main

// pty_unix.go: starting a program on a pseudo-terminal with x/sys ioctls
// (no cgo, no third-party package), resizing it, signalling its process
// group and asking how much output waits unread. Opening the master is per
// system: pty_linux.go and pty_darwin.go.

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// startPTY starts cmd on the slave side of a new cols x rows
// pseudo-terminal and returns the master and the slave's path. The child leads a new session
// (setsid) whose controlling terminal is the slave, so a Ctrl-C typed into
// the master reaches its foreground process group as SIGINT. cmd must not
// have Stdin, Stdout, Stderr or SysProcAttr set.
func startPTY(cmd *exec.Cmd, cols, rows int) (master *os.File, slaveName string, err error) {
	master, slaveName, err = openPTY()
	if err != nil {
		return nil, "", err
	}
	defer func() {
		if err != nil {
			_ = master.Close() // Best effort: the error path reports err.
		}
	}()
	if err := setPTYSize(master, cols, rows); err != nil {
		return nil, "", err
	}
	slave, err := os.OpenFile(slaveName, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, "", fmt.Errorf("pty: open %s: %w", slaveName, err)
	}
	// The parent's copy must be closed once the child has it: reading the
	// master returns EIO (end of output) only when every slave fd is closed.
	defer slave.Close()

	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	// Ctty is a descriptor number in the child: its stdin.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	resetIgnoredSignals()
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	return master, slaveName, nil
}

// ptyControl runs fn with the master's descriptor without switching it to
// blocking mode (as File.Fd would, which would stop Close from
// interrupting a pending Read).
func ptyControl(master *os.File, fn func(fd int) error) error {
	rc, err := master.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

// setPTYSize sets the terminal size (TIOCSWINSZ); the kernel sends
// SIGWINCH to the foreground process group when it changes.
func setPTYSize(master *os.File, cols, rows int) error {
	ws := &unix.Winsize{Row: uint16(rows), Col: uint16(cols)}
	err := ptyControl(master, func(fd int) error { return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, ws) })
	if err != nil {
		return fmt.Errorf("pty: set size %dx%d: %w", cols, rows, err)
	}
	return nil
}

// ptyUnread returns how many bytes of output wait in the master unread
// (FIONREAD, TIOCINQ on Linux).
func ptyUnread(master *os.File) (int, error) {
	var n int
	err := ptyControl(master, func(fd int) error {
		var err error
		n, err = unix.IoctlGetInt(fd, ioctlUnread)
		return err
	})
	return n, err
}

// ptyForeground returns the terminal's foreground process group
// (TIOCGPGRP on the master, which asks the slave side).
func ptyForeground(master *os.File) (pgid int, err error) {
	err = ptyControl(master, func(fd int) error {
		pgid, err = unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		return err
	})
	return pgid, err
}

// lineMode is the slave's line discipline, as tcgetattr on the master
// reads it: whether it echoes what is typed (ECHO) and hands it to the
// program a line at a time (ICANON).
type lineMode struct {
	echo, canonical bool
}

// ptyLineMode reads the terminal's lineMode.
func ptyLineMode(master *os.File) (lineMode, error) {
	var m lineMode
	err := ptyControl(master, func(fd int) error {
		t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
		if err == nil {
			m = lineMode{echo: t.Lflag&unix.ECHO != 0, canonical: t.Lflag&unix.ICANON != 0}
		}
		return err
	})
	return m, err
}

// ptyInputPending returns how many bytes typed into the terminal wait
// for the program to read them (FIONREAD on the slave, opened by its
// path without becoming anyone's controlling terminal; in canonical mode
// whole lines only, as a read would return them).
func ptyInputPending(slave string) (int, error) {
	f, err := os.OpenFile(slave, os.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n := 0
	err = ptyControl(f, func(fd int) error {
		n, err = unix.IoctlGetInt(fd, ioctlUnread)
		return err
	})
	return n, err
}

// signalGroup sends sig to the process group led by pid and to every
// other process of the session pid leads (jobs a shell put in groups of
// their own), so that nothing the program started outlives a stop. A
// group or session that is already gone is not an error.
func signalGroup(pid int, sig syscall.Signal) {
	if pid <= 0 {
		return
	}
	_ = unix.Kill(-pid, sig) // ESRCH when the group has ended: nothing to do.
	for _, p := range sessionMembers(pid) {
		_ = unix.Kill(p, sig) // Best effort: the process may have just exited.
	}
}

// signalByName maps "SIGINT", "INT", "sigint" or "2" to a signal.
func signalByName(name string) (syscall.Signal, bool) {
	if n, err := strconv.Atoi(name); err == nil {
		sig := syscall.Signal(n)
		return sig, n > 0 && unix.SignalName(sig) != ""
	}
	s := strings.ToUpper(strings.TrimSpace(name))
	if !strings.HasPrefix(s, "SIG") {
		s = "SIG" + s
	}
	sig := unix.SignalNum(s)
	return sig, sig != 0
}

// signalName returns "SIGKILL" for SIGKILL, or "" for 0.
func signalName(sig syscall.Signal) string {
	if sig == 0 {
		return ""
	}
	if n := unix.SignalName(sig); n != "" {
		return n
	}
	return fmt.Sprintf("signal %d", int(sig))
}

// ignoredSink receives SIGHUP and SIGINT after resetIgnoredSignals claimed
// them; nothing reads it, so the server itself still ignores them.
var ignoredSink = make(chan os.Signal, 1)

// resetIgnoredSignals makes sure children start with the default action
// for SIGHUP and SIGINT. A server started with them ignored (a background
// job of a shell, nohup) keeps SIG_IGN, which exec passes on: Ctrl-C would
// not interrupt anything and a stop would not hang up the shell. Routing
// them to a channel that nobody reads makes Go install a handler, which
// exec resets to the default in the child while the server keeps ignoring
// them. Signals with a handler already are left alone.
func resetIgnoredSignals() {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT} {
		if signalIgnored(sig) {
			signal.Notify(ignoredSink, sig)
		}
	}
}

// endMarked ends the processes that carry marker in their environment
// but left the session (a daemon that called setsid, `setsid cmd &`): sig
// first, SIGKILL to those left after grace; it gives up on any that a
// further second does not end (uninterruptible sleep).
func endMarked(marker string, sig syscall.Signal, grace time.Duration) {
	endListed(func() []int { return markedProcesses(marker) }, sig, grace)
}

// endOrphans ends the processes that carry one of markers wherever they
// are, as endMarked does: the sessions of a shared service that died
// without stopping them (SIGKILL), whose programs it no longer parents.
func endOrphans(markers []string, sig syscall.Signal, grace time.Duration) {
	endListed(func() []int { return processesMarked(markers, 0) }, sig, grace)
}

// endListed sends sig to the processes list returns, then SIGKILL to
// those still listed after grace, giving up a second later.
func endListed(list func() []int, sig syscall.Signal, grace time.Duration) {
	pids := list()
	if len(pids) == 0 {
		return
	}
	killPIDs(pids, sig)
	kill := time.NewTimer(grace)
	defer kill.Stop()
	pollKill(list, func(pids []int) { killPIDs(pids, syscall.SIGKILL) }, kill.C, grace+time.Second)
}

// killPIDs sends sig to each of pids; one that is gone already (ESRCH) is
// skipped.
func killPIDs(pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, sig)
	}
}

// pollKill waits until members lists no process. It polls every 20 ms;
// from when killAt fires it calls kill with the processes left at every
// poll. It gives up after giveUp: a process in uninterruptible sleep
// ignores even SIGKILL, and the kernel ends it when it wakes.
func pollKill(members func() []int, kill func(pids []int), killAt <-chan time.Time, giveUp time.Duration) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	quit := time.NewTimer(giveUp)
	defer quit.Stop()
	killing := false
	for {
		pids := members()
		if len(pids) == 0 {
			return
		}
		if killing {
			kill(pids)
		}
		select {
		case <-tick.C:
		case <-killAt:
			killing = true
		case <-quit.C:
			return
		}
	}
}

// renice lowers the scheduling priority of the program pid starts, and
// of what it starts after: its nice value (setpriority), and on Linux its
// autogroup's (reniceGroup). A program in a session runs in a process
// session of its own, and under Linux's autogroup scheduling each session
// is a group the kernel shares the CPU with equally: with 8 programs
// flooding their terminals the server had an eighth of the CPU, and its
// threads waited five times as long as they ran (a ping took 60 ms at the
// 99th percentile). Lowered, the programs still take every CPU cycle the
// server leaves. nice 0 leaves the priority as it is; errors are ignored
// (the program then keeps the server's priority).
func renice(pid, nice int) {
	if nice <= 0 {
		return
	}
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, pid, nice)
	reniceGroup(pid, nice)
}
