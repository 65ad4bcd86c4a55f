package main

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// maxGroupWalk bounds the processes foregroundReader looks at: the
// session's own, from its leader down.
const maxGroupWalk = 64

// foregroundReader finds, among the processes of the session led by
// leader, those of process group pgid, and returns the one asleep
// reading the terminal (reads true), with the timeout of its wait (-1:
// none). When none does, it returns one whose threads cannot be seen (a
// setuid program such as sudo, known false: the caller falls back on
// quiet output), else the group's leader (known true).
func foregroundReader(leader, pgid int) (pid int, reads, known bool, timeout time.Duration) {
	tty, ok := procTTY(leader)
	if !ok || tty == 0 {
		return pgid, false, false, -1
	}
	// Most often the group's leader is the reader (a shell at its
	// prompt, vim): then the walk of the session's processes is not made.
	if r, _, d := processReads(pgid, tty); r {
		return pgid, true, true, d
	}
	unseen := 0
	for _, p := range sessionTree(leader) {
		if f := statFields(p); len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		r, k, d := processReads(p, tty)
		switch {
		case r:
			return p, true, true, d
		case !k && unseen == 0:
			unseen = p
		}
	}
	if unseen != 0 {
		return unseen, false, false, -1
	}
	return pgid, false, true, -1
}

// sessionTree lists leader and its descendants, parents first, at most
// maxGroupWalk of them (children from /proc/PID/task/TID/children).
func sessionTree(leader int) []int {
	procs := []int{leader}
	for n := 0; n < len(procs) && len(procs) < maxGroupWalk; n++ {
		tasks, err := os.ReadDir("/proc/" + strconv.Itoa(procs[n]) + "/task")
		if err != nil {
			continue // it exited meanwhile
		}
		for _, task := range tasks {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(procs[n]) + "/task/" + task.Name() + "/children")
			for _, c := range strings.Fields(string(b)) {
				if c, err := strconv.Atoi(c); err == nil && len(procs) < maxGroupWalk {
					procs = append(procs, c)
				}
			}
		}
	}
	return procs
}

// processReads reports whether one of process pid's threads is asleep
// reading terminal tty (tty_nr of /proc/PID/stat), as readsTerminal
// tells it for one process, and the timeout of that wait (-1: none);
// known is false when its threads cannot be seen (another user's
// process, or a setuid one).
func processReads(pid int, tty uint64) (reads, known bool, timeout time.Duration) {
	proc := "/proc/" + strconv.Itoa(pid)
	t := &termFDs{proc: proc, major: uint32(tty>>8) & 0xfff, minor: uint32(tty&0xff) | uint32(tty>>12)&0xfff00, is: map[int]bool{}}
	tasks, err := os.ReadDir(proc + "/task")
	if err != nil {
		return false, false, -1
	}
	known = true
	for _, task := range tasks {
		r, k := t.taskReads(proc + "/task/" + task.Name() + "/syscall")
		if r {
			return true, true, t.timeout
		}
		known = known && k
	}
	return false, known, -1
}

// processCommand returns the kernel's name for process pid
// (/proc/PID/comm) and its arguments after argv[0] (/proc/PID/cmdline),
// bounded for a reply.
func processCommand(pid int) (string, []string) {
	proc := "/proc/" + strconv.Itoa(pid)
	comm, _ := os.ReadFile(proc + "/comm")
	b, _ := os.ReadFile(proc + "/cmdline")
	argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	name := strings.TrimSpace(string(comm))
	if name == "" && len(argv) > 0 {
		name = argv[0]
	}
	if len(argv) <= 1 {
		return name, nil
	}
	return name, clipArgs(argv[1:])
}

// processExe is the path of the file process pid runs (/proc/PID/exe),
// which the process cannot choose as it chooses its name; "" when it
// cannot be read.
func processExe(pid int) string {
	p, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return ""
	}
	return p
}

// processArgv is process pid's arguments after argv[0], whole (a page
// shows them; processCommand clips them for replies).
func processArgv(pid int) []string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	if len(argv) <= 1 {
		return nil
	}
	return argv[1:]
}
