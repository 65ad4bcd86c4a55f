package main

// session_allow.go: --allow-command. The promise is the pair (executable file,
// name it runs as): a session starts only when the file that the kernel
// executes is one of the allowed entries, compared after every symlink is
// resolved (by device and inode), AND the command's base name, which the
// program receives as argv[0], is the entry's own base name. Programs that
// change behaviour with argv[0] (rbash and bash are one file, rvim and
// vim, busybox applets) therefore run only under an allowed name. The
// client's env may not change what runs: with an allow-list it may set
// only the variables of allowedEnvVars, and PATH only to the server's own
// value (a "#!/usr/bin/env bash" script looks bash up in PATH).

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// allowedEnvVars are the only variables a client may set in shell_start's
// env on a server with --allow-command. Every other variable may make an
// interpreter or the loader run code of the client's choice (LD_PRELOAD,
// BASH_ENV, ENV, BASH_FUNC_*, PYTHONSTARTUP, PYTHONPATH, PERL5OPT,
// NODE_OPTIONS, RUBYOPT, GCONV_PATH, LESSOPEN, HOME for rc files, ...),
// and a deny-list of them is never complete. Entries ending in '_' are
// prefixes.
var allowedEnvVars = []string{"TERM", "COLORTERM", "LANG", "LANGUAGE", "LC_", "TZ",
	"NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "COLUMNS", "LINES"}

// checkAllowedEnv applies --allow-command to the client's env: a name not
// in allowedEnvVars, PATH other than the server's, or a locale or TERM
// value holding '/' (glibc and ncurses then load files from that path) is
// refused with an error naming the rule.
func checkAllowedEnv(extra map[string]string) error {
	for k, v := range extra {
		if k == "PATH" {
			if v != os.Getenv("PATH") {
				return fmt.Errorf("env PATH is not allowed on a server with --allow-command unless it is the server's own PATH (%q): a script run through /usr/bin/env would find its interpreter elsewhere; leave PATH out", os.Getenv("PATH"))
			}
			continue
		}
		if !isAllowedEnvVar(k) {
			return fmt.Errorf("env %s is not allowed on a server with --allow-command: only %s may be set, since other variables can make the program load or run other code; leave it out", k, allowedEnvList())
		}
		if k != "TZ" && strings.Contains(v, "/") {
			return fmt.Errorf("env %s=%q is not allowed on a server with --allow-command: a value with '/' names files to load; use a plain name such as %s=C.UTF-8 or leave it out", k, v, k)
		}
	}
	return nil
}

// allowedEnvList is allowedEnvVars for a message, a prefix entry written
// with its wildcard: "TERM, ..., LC_*, ...".
func allowedEnvList() string {
	names := make([]string, len(allowedEnvVars))
	for i, v := range allowedEnvVars {
		if strings.HasSuffix(v, "_") {
			v += "*"
		}
		names[i] = v
	}
	return strings.Join(names, ", ")
}

func isAllowedEnvVar(name string) bool {
	for _, v := range allowedEnvVars {
		if name == v || strings.HasSuffix(v, "_") && strings.HasPrefix(name, v) {
			return true
		}
	}
	return false
}

// allowedExec applies --allow-command to command (as given, argv[0]) and
// path (where lookPath found it). It returns the path to execute and a
// release func to call once the program started (or failed to). Without
// an allow-list that is path itself. With one, the checked file is held
// open, and on Linux a binary is executed through /proc/self/fd/N, the
// very file that was checked, so a symlink or file swapped after the
// check does not change what runs. A script ("#!") is executed by its
// resolved, symlink-free path, because its interpreter opens the script
// again by the path it is given; the remaining window is a rename in one
// of that path's directories, which only their owners can do.
func allowedExec(allow []string, command, path string) (execPath string, release func(), err error) {
	if len(allow) == 0 {
		return path, func() {}, nil
	}
	refuse := fmt.Errorf("command %q (%s) is not allowed on this server: it accepts only %s (--allow-command: the same file, found in the server's PATH, run under the same name)", command, path, strings.Join(allow, ", "))
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", nil, refuse
	}
	f, err := os.Open(resolved)
	if err != nil {
		return "", nil, fmt.Errorf("command %q: %v: an allowed program must be readable by the server, which checks the file it runs", command, err)
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || !allowedFile(allow, filepath.Base(command), fi) {
		f.Close()
		return "", nil, refuse
	}
	head := make([]byte, 2)
	n, _ := io.ReadFull(f, head)
	if runtime.GOOS == "linux" && !bytes.Equal(head[:n], []byte("#!")) {
		return fmt.Sprintf("/proc/self/fd/%d", f.Fd()), func() { f.Close() }, nil
	}
	return resolved, func() { f.Close() }, nil
}

// allowedFile reports whether fi, the resolved file about to run under
// the base name name, is an entry of --allow-command: the entry, resolved
// with the server's own PATH and working directory (never the child's),
// names the same file and has the same base name.
func allowedFile(allow []string, name string, fi os.FileInfo) bool {
	wd, _ := os.Getwd()
	for _, e := range allow {
		if filepath.Base(e) != name {
			continue
		}
		p, err := lookPath(e, wd, os.Getenv("PATH"))
		if err != nil {
			continue
		}
		if efi, err := os.Stat(p); err == nil && os.SameFile(fi, efi) {
			return true
		}
	}
	return false
}
