package main

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// waitingForInput reports whether process pid is asleep waiting for
// input: reading a terminal or polling its descriptors
// (/proc/PID/wchan). shell_start counts such a program as ready.
func waitingForInput(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/wchan")
	if err != nil {
		return false
	}
	w := string(b)
	for _, p := range []string{"n_tty_read", "wait_woken", "poll_schedule_timeout", "do_select", "do_sys_poll", "core_sys_select", "ep_poll"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// processStart tells a running process from an earlier one of the same
// pid: its start time in clock ticks after boot (field 22 of
// /proc/PID/stat), "" when nothing runs with that pid.
func processStart(pid int) string {
	if f := statFields(pid); len(f) >= 20 {
		return f[19]
	}
	return ""
}

// statFields returns the fields of /proc/PID/stat from the third on
// (f[0] is field 3, the state), nil when it cannot be read. The command
// name (field 2) is in parentheses and may hold spaces and parentheses:
// the fields after it follow the last ')'.
func statFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	i := bytes.LastIndexByte(b, ')')
	if err != nil || i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// pidNamespace names this process's PID namespace (the inode number of
// /proc/self/ns/pid), "" when it cannot be read: pids are compared only
// between processes of one namespace.
func pidNamespace() string {
	l, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	l = strings.TrimSuffix(strings.TrimPrefix(l, "pid:["), "]")
	if _, err := strconv.ParseUint(l, 10, 64); err != nil {
		return ""
	}
	return l
}

// ownedByUser reports whether fi (from os.Lstat) belongs to this user.
func ownedByUser(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// ptyOutputPending reports whether output the program wrote waits to be
// read from master. poll(2) on a Linux PTY master first completes the
// kernel's hand-over of bytes still in transit from the program's side
// (its flush of the flip buffer), which FIONREAD does not wait for: right
// after the program's write FIONREAD may say 0 with the bytes on their
// way.
func ptyOutputPending(master *os.File) bool {
	pending := false
	_ = ptyControl(master, func(fd int) error {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		for err == unix.EINTR {
			n, err = unix.Poll(fds, 0)
		}
		pending = err == nil && n > 0 && fds[0].Revents&unix.POLLIN != 0
		return err
	})
	return pending
}

// pollRDNorm is POLLRDNORM, which x/sys/unix does not name.
const pollRDNorm = 0x40

// waitCall is the kind of a system call a program waits for input in.
type waitCall uint8

const (
	waitOther  waitCall = iota // none that reads input
	waitRead                   // read(fd, ...), readv
	waitPoll                   // poll, ppoll(fds, nfds, ...)
	waitSelect                 // select, pselect6(nfds, readfds, ...)
	waitEpoll                  // epoll_wait, epoll_pwait, epoll_pwait2(epfd, ...)
)

// waitCalls are the system calls every Linux architecture has; oldWaitCalls
// those only some have, by GOARCH, for the architectures whose numbers
// are listed in full (arm64, riscv64 and loong64 have no others).
var (
	waitCalls = map[int]waitCall{
		unix.SYS_READ: waitRead, unix.SYS_READV: waitRead, unix.SYS_PPOLL: waitPoll, unix.SYS_PSELECT6: waitSelect,
		unix.SYS_EPOLL_PWAIT: waitEpoll, unix.SYS_EPOLL_PWAIT2: waitEpoll,
	}
	oldWaitCalls = map[string]map[int]waitCall{
		"amd64": {7: waitPoll, 23: waitSelect, 232: waitEpoll},
		"386":   {168: waitPoll, 142: waitSelect, 256: waitEpoll},
		"arm":   {168: waitPoll, 142: waitSelect, 252: waitEpoll},
		"arm64": {}, "riscv64": {}, "loong64": {},
	}
)

// readsTerminal reports whether process pid, or a process it started
// on the same terminal, is asleep waiting for input from that terminal:
// one of its threads is in read(2) of it, or in poll, select or epoll
// with it among the descriptors to read. A program asleep in poll for
// another descriptor only (mc waiting for its subshell before it draws)
// does not read its terminal; a shell script waiting for the program it
// ran does not either, but that program may. It looks at each thread's
// /proc/PID/task/TID/syscall, the descriptors' devices (the controlling
// terminal, or /dev/tty), the poll and select sets in /proc/PID/mem and
// an epoll set's fdinfo, in at most 32 processes (children from
// /proc/PID/task/TID/children) and about 256 threads. known is false when that cannot be seen
// (no access to the process, a system call this architecture's table
// does not list): waitingForInput is all there is then.
func readsTerminal(pid int) (reads, known bool) {
	tty, ok := procTTY(pid)
	if !ok || tty == 0 {
		return false, false
	}
	known = true
	procs, threads := []int{pid}, 0
	for n := 0; n < len(procs); n++ {
		if n == 32 || threads > 256 { // a reader among the rest is not seen
			return false, false
		}
		if t, ok := procTTY(procs[n]); n > 0 && (!ok || t != tty) {
			continue // gone, or on a terminal of its own (mc's subshell)
		}
		// A stopped process reads nothing, though its syscall file still
		// names the read it will restart (a background job stopped by
		// SIGTTIN); its children are looked at all the same.
		stopped := false
		if f := statFields(procs[n]); len(f) > 0 {
			stopped = f[0] == "T" || f[0] == "t"
		}
		proc := "/proc/" + strconv.Itoa(procs[n])
		t := &termFDs{proc: proc, major: uint32(tty>>8) & 0xfff, minor: uint32(tty&0xff) | uint32(tty>>12)&0xfff00, is: map[int]bool{}}
		tasks, err := os.ReadDir(proc + "/task")
		if err != nil {
			if n == 0 {
				return false, false
			}
			continue // it exited meanwhile
		}
		threads += len(tasks)
		for _, task := range tasks {
			if !stopped {
				r, k := t.taskReads(proc + "/task/" + task.Name() + "/syscall")
				if r {
					return true, true
				}
				known = known && k
			}
			b, _ := os.ReadFile(proc + "/task/" + task.Name() + "/children")
			for _, c := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(c); err == nil {
					procs = append(procs, c)
				}
			}
		}
	}
	return false, known
}

// programBusy reports whether process pid, or a process it started on
// the same terminal (sessionTree), is running or waiting for the disk
// (state R or D in /proc/PID/stat): a program still loading, or still at
// work after it wrote. One asleep on anything else (sleep 100, a pipe, a
// socket, its terminal) is not.
func programBusy(pid int) bool {
	tty, ok := procTTY(pid)
	if !ok {
		return false
	}
	for _, p := range sessionTree(pid) {
		if f := statFields(p); len(f) >= 5 && f[4] == strconv.FormatUint(tty, 10) && (f[0] == "R" || f[0] == "D") {
			return true
		}
	}
	return false
}

// procTTY returns the controlling terminal of process pid as
// /proc/PID/stat has it (field 7, tty_nr: 0 for none).
func procTTY(pid int) (uint64, bool) {
	f := statFields(pid)
	if len(f) < 5 {
		return 0, false
	}
	nr, err := strconv.ParseUint(f[4], 10, 32)
	return nr, err == nil
}

// termFDs tells which of a process's descriptors are its terminal.
type termFDs struct {
	proc         string // /proc/PID
	major, minor uint32 // the controlling terminal's device
	is           map[int]bool
	// timeout is the timeout of the wait taskReads last found reading
	// the terminal: -1 for none (a read, or a poll without one).
	timeout time.Duration
}

// terminal reports whether descriptor fd is the controlling terminal
// (opened as its /dev/pts/N or as /dev/tty).
func (t *termFDs) terminal(fd int) bool {
	if v, ok := t.is[fd]; ok {
		return v
	}
	var st unix.Stat_t
	err := unix.Stat(t.proc+"/fd/"+strconv.Itoa(fd), &st)
	major, minor := unix.Major(uint64(st.Rdev)), unix.Minor(uint64(st.Rdev))
	yes := err == nil && st.Mode&unix.S_IFMT == unix.S_IFCHR && (major == t.major && minor == t.minor || major == 5 && minor == 0)
	t.is[fd] = yes
	return yes
}

// taskReads reads one thread's syscall file: "running", or the system
// call's number, its six arguments, the stack and instruction pointers
// (-1 and the two pointers outside a system call).
func (t *termFDs) taskReads(path string) (reads, known bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return false, false
	}
	f := strings.Fields(string(b))
	if len(f) == 0 || f[0] == "running" || f[0] == "-1" {
		return false, true
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil || len(f) < 7 {
		return false, false
	}
	call, ok := waitCalls[nr]
	if !ok {
		old, listed := oldWaitCalls[runtime.GOARCH]
		if !listed {
			return false, false
		}
		call = old[nr]
	}
	var arg [6]uint64
	for i := range arg {
		if arg[i], err = strconv.ParseUint(strings.TrimPrefix(f[i+1], "0x"), 16, 64); err != nil {
			return false, false
		}
	}
	t.timeout = t.waitTimeout(nr, arg)
	switch call {
	case waitRead:
		return t.terminal(int(arg[0])), true
	case waitPoll: // struct pollfd {int fd; short events, revents;}
		n := min(arg[1], 1024)
		p, ok := t.memory(arg[0], int(n)*8)
		if !ok {
			return false, false
		}
		for i := 0; i+8 <= len(p); i += 8 {
			fd, events := int32(binary.NativeEndian.Uint32(p[i:])), binary.NativeEndian.Uint16(p[i+4:])
			if events&(unix.POLLIN|pollRDNorm) != 0 && fd >= 0 && t.terminal(int(fd)) {
				return true, true
			}
		}
		return false, true
	case waitSelect: // fd_set: bit fd%W of word fd/W, words of unsigned long
		n, w := int(min(arg[0], 1<<16)), bits.UintSize/8
		if arg[1] == 0 || n == 0 {
			return false, true
		}
		p, ok := t.memory(arg[1], (n+bits.UintSize-1)/bits.UintSize*w)
		if !ok {
			return false, false
		}
		for fd := range n {
			word := p[fd/bits.UintSize*w:][:w]
			var v uint64
			if w == 8 {
				v = binary.NativeEndian.Uint64(word)
			} else {
				v = uint64(binary.NativeEndian.Uint32(word))
			}
			if v>>(fd%bits.UintSize)&1 != 0 && t.terminal(fd) {
				return true, true
			}
		}
		return false, true
	case waitEpoll: // fdinfo lines "tfd: FD events: HEX data: ..."
		b, err := os.ReadFile(t.proc + "/fdinfo/" + strconv.FormatUint(arg[0], 10))
		if err != nil {
			return false, false
		}
		for _, line := range strings.Split(string(b), "\n") {
			g := strings.Fields(line)
			if len(g) < 4 || g[0] != "tfd:" || g[2] != "events:" {
				continue
			}
			fd, err1 := strconv.Atoi(g[1])
			ev, err2 := strconv.ParseUint(g[3], 16, 32)
			if err1 == nil && err2 == nil && ev&(unix.EPOLLIN|unix.EPOLLRDNORM) != 0 && t.terminal(fd) {
				return true, true
			}
		}
		return false, true
	}
	return false, true
}

// memory reads n bytes at addr of the process (/proc/PID/mem).
func (t *termFDs) memory(addr uint64, n int) ([]byte, bool) {
	f, err := os.Open(t.proc + "/mem")
	if err != nil {
		return nil, false
	}
	defer f.Close()
	p := make([]byte, n)
	if addr > 1<<62 {
		return nil, false
	}
	_, err = f.ReadAt(p, int64(addr))
	return p, err == nil
}

// waitTimeouts say where a wait for input keeps its timeout: the
// argument, and whether it is milliseconds (an int, negative: none) or a
// pointer to a timespec or a timeval (nil: none). The calls every
// architecture has, by number, and per GOARCH the older ones.
var (
	waitTimeouts = map[int]waitTimeoutArg{
		unix.SYS_PPOLL: {2, timespecArg}, unix.SYS_PSELECT6: {4, timespecArg},
		unix.SYS_EPOLL_PWAIT: {3, timeoutMS}, unix.SYS_EPOLL_PWAIT2: {3, timespecArg},
	}
	oldWaitTimeouts = map[string]map[int]waitTimeoutArg{
		"amd64": {7: {2, timeoutMS}, 23: {4, timevalArg}, 232: {3, timeoutMS}},
		"386":   {168: {2, timeoutMS}, 142: {4, timevalArg}, 256: {3, timeoutMS}},
		"arm":   {168: {2, timeoutMS}, 142: {4, timevalArg}, 252: {3, timeoutMS}},
	}
)

// waitTimeoutArg is where one wait call keeps its timeout.
type waitTimeoutArg struct {
	arg  int
	kind uint8 // timeoutMS, timespecArg, timevalArg
}

const (
	timeoutMS uint8 = iota
	timespecArg
	timevalArg
)

// waitTimeout is the timeout of the wait call nr with arguments arg: -1
// for none (a read, a poll that waits for as long as it takes), or one
// that cannot be read.
func (t *termFDs) waitTimeout(nr int, arg [6]uint64) time.Duration {
	w, ok := waitTimeouts[nr]
	if !ok {
		if w, ok = oldWaitTimeouts[runtime.GOARCH][nr]; !ok {
			return -1
		}
	}
	v := arg[w.arg]
	switch {
	case w.kind == timeoutMS && int32(v) < 0:
		return -1
	case w.kind == timeoutMS:
		return time.Duration(int32(v)) * time.Millisecond
	case v == 0:
		return -1 // a nil timespec or timeval
	}
	p, ok := t.memory(v, 16) // two words: seconds, then nanoseconds or microseconds
	if !ok || bits.UintSize != 64 {
		return -1
	}
	sec, frac := int64(binary.NativeEndian.Uint64(p)), int64(binary.NativeEndian.Uint64(p[8:]))
	if w.kind == timevalArg {
		frac *= 1000
	}
	return time.Duration(sec)*time.Second + time.Duration(frac)
}
