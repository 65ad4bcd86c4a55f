//go:build linux

package main

// pty_reaper_linux.go: the server as a child subreaper. Processes that a
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
// every session was stopped. The sessions' programs are reaped by os/exec,
// never here: startSession records each (trackSessionProgram, under
// lockChildren) before the reaper can see it.
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

// sessionPrograms are the server's children that os/exec waits for (the
// sessions' programs), by pid, with their start time in clock ticks since
// boot (field 22 of /proc/PID/stat): a pid that os/exec reaped and the
// kernel gave to a new orphan has another start time. childMu guards it
// and is held across starting a session's program and recording it, so
// the reaper never sees a session's program before it is recorded.
var (
	childMu         sync.Mutex
	sessionPrograms = map[int]uint64{}
)

// lockChildren holds off the reaper while a session's program is started
// and recorded with trackSessionProgram; call the returned func after.
func lockChildren() (unlock func()) {
	childMu.Lock()
	return childMu.Unlock
}

// trackSessionProgram records pid, a session's program that os/exec will
// wait for, so that the reaper leaves it alone. childMu is held.
func trackSessionProgram(pid int) {
	if st, ok := procStartTime(strconv.Itoa(pid)); ok {
		sessionPrograms[pid] = st
	}
}

// reapOrphans reaps every exited child of the server that is not a live
// session's program (os/exec waits for those): orphans reparented to the
// subreaper, session leaders (setsid daemons) included. Records of
// session programs that are gone (reaped by os/exec) are dropped. With
// kill, called once every session's program was reaped, it sends SIGKILL
// to every remaining child and reaps it.
func reapOrphans(kill bool) {
	childMu.Lock()
	defer childMu.Unlock()
	for pid, st := range sessionPrograms {
		if now, ok := procStartTime(strconv.Itoa(pid)); !ok || now != st {
			delete(sessionPrograms, pid)
		}
	}
	me := os.Getpid()
	for _, c := range adoptedChildren(me, kill) {
		if st, ok := sessionPrograms[c.pid]; ok && st == c.start && !kill {
			continue
		}
		if kill && !c.zombie {
			_ = unix.Kill(c.pid, unix.SIGKILL) // ESRCH: gone already
		}
		if kill || c.zombie {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(c.pid, &ws, 0, nil) // ECHILD: someone else reaped it
		}
	}
}

// procStartTime reads a process's start time (clock ticks since boot,
// field 22 of /proc/PID/stat); false when it is gone.
func procStartTime(pid string) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(b[i+1:]) // f[0] is field 3, state
	if len(f) < 20 {
		return 0, false
	}
	st, err := strconv.ParseUint(string(f[19]), 10, 64)
	return st, err == nil
}

type adoptedChild struct {
	pid    int
	zombie bool
	start  uint64 // procStartTime
}

// adoptedChildren lists the children of parent (from /proc/PID/stat).
// On SIGCHLD (all false) it reads only the candidates that
// /proc/self/task/*/children names, which is cheap; the kernel documents
// that list as unreliable for running children (a zombie is listed), so
// the final pass (all true) scans all of /proc.
func adoptedChildren(parent int, all bool) []adoptedChild {
	pids, ok := []string(nil), false
	if !all {
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
		if !ok || p.ppid != parent {
			continue
		}
		st, _ := procStartTime(name)
		out = append(out, adoptedChild{pid: pid, zombie: p.state == 'Z', start: st})
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
