package main

import "golang.org/x/sys/unix"

// hideDescriptors makes the server process non-dumpable (PR_SET_DUMPABLE
// 0): its /proc/PID/fd, mem and environ then belong to root, so a program
// in a session, running as the same user, cannot open the server's
// standard output through /proc/PID/fd/1 and write forged JSON-RPC frames
// to the client, nor read its memory or attach with ptrace. Root can
// still (SECURITY.md). Programs the server starts are dumpable again:
// execve resets the flag.
func hideDescriptors() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
