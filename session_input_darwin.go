package main

import (
	"bytes"
	"time"

	"golang.org/x/sys/unix"
)

// foregroundReader cannot see system calls on macOS: the group's leader,
// known false (the caller falls back on quiet output).
func foregroundReader(leader, pgid int) (pid int, reads, known bool, timeout time.Duration) {
	return pgid, false, false, -1
}

// processCommand returns process pid's name from the kernel (p_comm);
// its arguments are not read.
func processCommand(pid int) (string, []string) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return "", nil
	}
	name := k.Proc.P_comm[:]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	return string(name), nil
}

// processExe and processArgv are not read on macOS: the page shows the
// kernel's name and the arguments a reply has.
func processExe(pid int) string { return "" }

func processArgv(pid int) []string { return nil }
