//go:build unix

package main

// attach_dir_unix.go: the directory of the attach sockets, one per
// server, private to the user: $XDG_RUNTIME_DIR/ttywright, else
// /run/user/UID/ttywright, else /tmp/ttywright-UID. A directory of that name that is a symlink,
// another user's, or open to the group or others is refused, since
// whoever can write it could put a socket of their own where a viewer
// looks for the server's. Sockets of servers that are gone are removed.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// attachDir is where the attach sockets of this user's servers are:
// $XDG_RUNTIME_DIR/ttywright; else, in /run/user/UID (the directory
// systemd makes a user's XDG_RUNTIME_DIR) when that is the user's own
// and private, there; else /tmp/ttywright-UID. An MCP client that starts
// its server with a bare environment (the official SDKs pass only HOME,
// LOGNAME, PATH, SHELL, TERM and USER) drops XDG_RUNTIME_DIR and TMPDIR,
// and its server must be found where the person's own shell looks.
func attachDir(getenv func(string) string) string {
	if d := getenv("XDG_RUNTIME_DIR"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "ttywright")
	}
	uid := os.Getuid()
	run := fmt.Sprintf("/run/user/%d", uid)
	if fi, err := os.Lstat(run); err == nil && fi.IsDir() && fi.Mode().Perm()&0o077 == 0 {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) == uid {
			return filepath.Join(run, "ttywright")
		}
	}
	return fmt.Sprintf("/tmp/ttywright-%d", uid)
}

// ensureAttachDir creates dir (0700) when missing, and refuses it unless
// it is a directory, not a symlink, owned by this user, with no
// permission for anyone else.
func ensureAttachDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("attach: the socket directory %s cannot be created: %w", dir, err)
	}
	return checkAttachDir(dir)
}

// checkAttachDir refuses dir unless it is a private directory of this
// user (ensureAttachDir).
func checkAttachDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("attach: the socket directory %s is a symlink: remove it", dir)
	case !fi.IsDir():
		return fmt.Errorf("attach: the socket directory %s is not a directory: remove it", dir)
	case !ok || int(st.Uid) != os.Getuid():
		return fmt.Errorf("attach: the socket directory %s belongs to another user", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("attach: the socket directory %s has mode %04o, open to other users: chmod 700 it", dir, fi.Mode().Perm())
	}
	return nil
}

// attachSocketPID is the server pid a socket's name carries ("PID.sock").
func attachSocketPID(name string) (int, bool) {
	base, ok := strings.CutSuffix(name, ".sock")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(base)
	return pid, err == nil && pid > 0 && strconv.Itoa(pid) == base
}

// removeStaleSockets removes the sockets in dir whose server is not a
// live ttywright (killed, so it could not remove its own).
func removeStaleSockets(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		pid, ok := attachSocketPID(e.Name())
		if !ok || e.Type()&os.ModeSocket == 0 || pid == os.Getpid() || liveServer(pid) {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name())) // Best effort: another server may clean it first.
	}
}

// liveServer reports whether pid is a running process that may be a
// ttywright server: where /proc tells the program's name it must be
// ttywright's or a test binary's.
func liveServer(pid int) bool {
	if err := unix.Kill(pid, 0); err != nil && !errors.Is(err, unix.EPERM) {
		return false
	}
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return true // no /proc (macOS): alive is all that is known
	}
	name := strings.TrimSpace(string(comm))
	return strings.HasPrefix(name, "ttywright") || strings.HasSuffix(name, ".test")
}

// attachSockets lists the sockets of live servers in dir, by pid.
func attachSockets(dir string) map[int]string {
	out := map[int]string{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range ents {
		if pid, ok := attachSocketPID(e.Name()); ok && e.Type()&os.ModeSocket != 0 && liveServer(pid) {
			out[pid] = filepath.Join(dir, e.Name())
		}
	}
	return out
}
