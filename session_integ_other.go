//go:build !linux

package main

import (
	"errors"
	"os"
	"reflect"
	"syscall"
)

// waitingForInput cannot tell without /proc: shell_start waits for the
// program's first output and a short quiet instead.
func waitingForInput(int) bool { return false }

// processStart is "0" while a process with pid runs, "" when none does.
// Without /proc its start time is unknown: a reused pid counts as the
// same process, which keeps a stale wrapper directory, never removes a
// live one.
func processStart(pid int) string {
	p, err := os.FindProcess(pid)
	if err != nil {
		return ""
	}
	if err := p.Signal(syscall.Signal(0)); errors.Is(err, os.ErrProcessDone) {
		return ""
	}
	return "0" // running, or not ours to signal (EPERM): alive either way
}

// pidNamespace is "": there are no PID namespaces to tell apart.
func pidNamespace() string { return "" }

// ownedByUser reports whether fi (from os.Lstat) belongs to this user:
// its Uid (each Unix's syscall.Stat_t has one, of its own type) is
// getuid(). Where files have no Uid, nothing is this user's to remove.
func ownedByUser(fi os.FileInfo) bool {
	v := reflect.ValueOf(fi.Sys())
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return false
	}
	uid := v.FieldByName("Uid")
	return uid.IsValid() && uid.CanUint() && os.Getuid() >= 0 && uid.Uint() == uint64(os.Getuid())
}

// ptyOutputPending reports whether output waits to be read from master
// (FIONREAD).
func ptyOutputPending(master *os.File) bool {
	n, err := ptyUnread(master)
	return err == nil && n > 0
}

// programBusy cannot tell without /proc: a program that has written
// nothing by readyMax is not given longer, and one that has written and
// paused is taken to be asleep.
func programBusy(int) bool { return false }

// readsTerminal cannot tell without /proc: known is false.
func readsTerminal(int) (reads, known bool) { return false, false }
