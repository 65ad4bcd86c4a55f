//go:build !linux

package main

// adoptOrphans is Linux-only (PR_SET_CHILD_SUBREAPER); elsewhere orphans
// of a session go to init, and the stop of each session's process group
// and session is what cleans up.
func adoptOrphans() (finish func()) { return func() {} }

// lockChildren is a no-op where there is no reaper.
func lockChildren() (unlock func()) { return func() {} }

// trackSessionProgram is a no-op where there is no reaper.
func trackSessionProgram(pid int) {}

// procStartTime is Linux's (/proc/PID/stat); elsewhere a process's start
// is not known.
func procStartTime(pid string) (uint64, bool) { return 0, false }
