//go:build linux

package main

// reaper_linux.go: the server as a child subreaper. Processes that a
// session's program leaves behind when it dies (a background job, a
// daemon that called setsid) are reparented to the nearest subreaper
// instead of PID 1; in a container PID 1 may never reap them, and a
// daemon outside every session would outlive the server. As subreaper the
// server reaps such orphans as they exit and, at shutdown, kills and reaps
// the ones still running.

import (
	"bytes"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// adoptOrphans makes the process a child subreaper and reaps adopted
// orphans whenever a child exits. The returned func kills the adopted
// processes still running, reaps them and stops the reaper; call it after
// every session was stopped (their programs are reaped by os/exec, never
// here: a session leader is never reaped by this code).
func adoptOrphans() (finish func()) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return func() {}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGCHLD)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-sigs:
				reapOrphans(false)
			case <-quit:
				return
			}
		}
	})
	return func() {
		signal.Stop(sigs)
		close(quit)
		wg.Wait()
		reapOrphans(true)
	}
}

// reapOrphans reaps the server's children that are not session leaders
// (os/exec waits for the sessions' programs) and have exited. With kill,
// called once every session's program was reaped, it sends SIGKILL to
// every remaining child, session leaders (daemons that called setsid)
// included, and reaps them.
func reapOrphans(kill bool) {
	me := os.Getpid()
	for _, c := range adoptedChildren(me, kill) {
		if kill && !c.zombie {
			_ = unix.Kill(c.pid, unix.SIGKILL) // ESRCH: gone already
		}
		if kill || c.zombie {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(c.pid, &ws, 0, nil) // ECHILD: someone else reaped it
		}
	}
}

type adoptedChild struct {
	pid    int
	zombie bool
}

// adoptedChildren lists the children of parent (from /proc/PID/stat)
// that do not lead a session of their own, or all of them with leaders.
// On SIGCHLD (leaders false) it reads only the candidates that
// /proc/self/task/*/children names, which is cheap; the kernel documents
// that list as unreliable for running children, so the final pass
// (leaders true) scans all of /proc.
func adoptedChildren(parent int, leaders bool) []adoptedChild {
	pids, ok := []string(nil), false
	if !leaders {
		pids, ok = taskChildren()
	}
	if !ok {
		dir, err := os.ReadDir("/proc")
		if err != nil {
			return nil
		}
		for _, e := range dir {
			pids = append(pids, e.Name())
		}
	}
	var out []adoptedChild
	for _, name := range pids {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		p, ok := readProcStat(name)
		if !ok || p.ppid != parent || p.sid == pid && !leaders {
			continue
		}
		out = append(out, adoptedChild{pid: pid, zombie: p.state == 'Z'})
	}
	return out
}

// taskChildren returns the pids listed in /proc/self/task/*/children (an
// orphan is reparented to any thread of the subreaper), and false when the
// kernel lacks those files (CONFIG_PROC_CHILDREN).
func taskChildren() ([]string, bool) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, false
	}
	var pids []string
	for i, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if i == 0 && os.IsNotExist(err) {
			return nil, false
		}
		for _, f := range bytes.Fields(b) {
			pids = append(pids, string(f))
		}
	}
	return pids, true
}
