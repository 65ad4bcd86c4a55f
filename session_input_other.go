//go:build !linux && !darwin

package main

import "time"

// foregroundReader and processCommand know nothing where there are no
// pseudo-terminals.
func foregroundReader(leader, pgid int) (pid int, reads, known bool, timeout time.Duration) {
	return pgid, false, false, -1
}

func processCommand(pid int) (string, []string) { return "", nil }

func processExe(pid int) string { return "" }

func processArgv(pid int) []string { return nil }
