package main

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"

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
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses: the fields after it follow the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 { // f[0] is field 3, the state
		return ""
	}
	return f[19]
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
