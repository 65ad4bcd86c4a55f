package main

// session_start.go: what a session starts: the program as found in the
// child's PATH, its working directory and its environment, cleaned of
// the server terminal's identity.

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// StartOptions describe a program to start in a session. Zero fields take
// the defaults of SessionConfig.
type StartOptions struct {
	Command string            // program name (looked up in PATH) or path; "" = $SHELL, else bash
	Args    []string          // arguments after the program name
	Cols    int               // screen width in cells; 0 = SessionConfig.Cols
	Rows    int               // screen height in cells; 0 = SessionConfig.Rows
	Theme   string            // theme name, kept for the captures (Session.Theme)
	Colors  *ReportColors     // what OSC 4/10/11/12 report (the theme's); nil = the emulator's defaults
	Cwd     string            // working directory; "" = the server's
	Env     map[string]string // variables added to (and overriding) the inherited environment

	ShellIntegration *bool // mark commands in bash, zsh and fish (OSC 133, session_integ.go); nil: as --shell-integration says

	Name   string // the session's name (checkSessionName), unique among the listed sessions; "" for none
	Client string // the MCP client that starts it, for sessions://list
}

// maxSessionName bounds a session's name in bytes.
const maxSessionName = 64

// shellIDForm is the form of the ids Sessions gives, which no name may
// take: a name must never stand for another session's id.
var shellIDForm = regexp.MustCompile(`^shell-[0-9]+$`)

// checkSessionName validates a session name: a capture name's letters
// (cleanName: letters, digits, '-', '_', '.'), at most maxSessionName
// bytes, and not of the form of an id ("shell-3").
func checkSessionName(name string) error {
	if len(name) > maxSessionName {
		return fmt.Errorf("name is %d bytes long: use at most %d, e.g. \"dev\"", len(name), maxSessionName)
	}
	if _, err := cleanName(name, ""); err != nil || name != strings.TrimSpace(name) {
		return fmt.Errorf("name %q: use letters, digits, '-', '_' and '.', e.g. \"dev\"", name)
	}
	if shellIDForm.MatchString(name) {
		return fmt.Errorf("name %q has the form of a session id (shell-N): pick another, e.g. \"dev\"", name)
	}
	return nil
}

// sessionCwd turns the cwd argument into an absolute existing directory:
// "~" expanded (agents write "~/project", and no shell expands it here),
// "" the server's working directory.
func sessionCwd(arg string) (string, error) {
	cwd := expandHome(arg)
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("the server's working directory is unusable (%v): pass cwd", err)
		}
		cwd = wd
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return "", fmt.Errorf("cwd %q: %v: pass an absolute directory", arg, err)
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("cwd %q is not an existing directory: pass one that exists, e.g. %q", arg, os.TempDir())
	}
	return cwd, nil
}

// environ checks s.Args and builds the program's environment (childEnv
// with extra) carrying s's new marker.
func (s *Session) environ(extra map[string]string) ([]string, error) {
	for i, arg := range s.Args {
		if strings.ContainsRune(arg, 0) {
			return nil, fmt.Errorf("args[%d] holds a NUL byte, which no program can receive: remove it", i)
		}
	}
	env, err := childEnv(os.Environ(), s.Cwd, extra)
	if err != nil {
		return nil, err
	}
	// The marker every process of the session inherits: shell_stop ends
	// the ones that left the session too (markedProcesses).
	s.marker = sessionVar + "=" + rand.Text()
	return append(slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, sessionVar+"=") }), s.marker), nil
}

// resolveCommand picks the default shell when s.Command is "", resolves
// it with env's PATH (as the program's execvp would) and applies the
// allow-list (--allow-command); extra is the env the caller asked for.
func resolveCommand(allow []string, s *Session, env []string, extra map[string]string) (execPath string, release func(), err error) {
	cwd := s.Cwd
	if s.Command != "" && strings.TrimSpace(s.Command) == "" {
		return "", nil, fmt.Errorf("command %q is blank: give a program name (e.g. \"bash\"), or leave command out for the default shell", s.Command)
	}
	// The environment is checked before the command is looked up with it:
	// a refused PATH must be named as the fault, not the lookup it broke.
	if len(allow) > 0 {
		if err := checkAllowedEnv(extra); err != nil {
			return "", nil, err
		}
	}
	if s.Command == "" {
		// $SHELL when it can be run here, else bash, else sh: a client's
		// environment may name a shell this machine lacks (SHELL=/bin/zsh),
		// and the agent asked for no command to be told about.
		s.Command = "sh"
		for _, c := range []string{envValue(env, "SHELL"), "bash"} {
			if _, err := lookPath(c, cwd, envValue(env, "PATH")); c != "" && err == nil {
				s.Command = c
				break
			}
		}
	}
	path, err := lookPath(s.Command, cwd, envValue(env, "PATH"))
	if err != nil {
		hint := "give a program name found in PATH or an absolute path"
		if strings.ContainsAny(s.Command, " \t") && len(s.Args) == 0 {
			f := strings.Fields(s.Command)
			hint = fmt.Sprintf("put the arguments in args: command %q, args %q", f[0], f[1:])
		}
		return "", nil, fmt.Errorf("command %q: %v: %s", s.Command, err, hint)
	}
	return allowedExec(allow, s.Command, path) // session_allow.go
}

// lookPath resolves a command like execvp(3) would in cwd with the
// child's PATH: a name containing a slash is a path (relative to cwd),
// anything else is searched in pathEnv. Empty PATH entries are skipped.
func lookPath(command, cwd, pathEnv string) (string, error) {
	if command == "" {
		return "", errors.New("empty command")
	}
	if strings.Contains(command, "/") {
		p := command
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		if err := isExecutable(p); err != nil {
			return "", err
		}
		return filepath.Clean(p), nil
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // relative PATH entries depend on cwd: not searched (Go's exec.ErrDot rule)
		}
		p := filepath.Join(dir, command)
		if isExecutable(p) == nil {
			return p, nil
		}
	}
	return "", errors.New("not found in PATH")
}

func isExecutable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return errors.New("no such file")
	}
	if fi.IsDir() {
		return errors.New("is a directory")
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return errors.New("not executable")
	}
	return nil
}

// sessionVar names the environment variable, an opaque token per session,
// by which shell_stop finds the session's processes that left its process
// group and session (setsid daemons) on Linux.
const sessionVar = "TTYWRIGHT_SESSION_TOKEN"

// identityVars are variables that describe the terminal the server runs
// in (or a multiplexer); a program in our PTY must not believe it runs
// there. Entries ending in '_' are prefixes.
var identityVars = []string{
	"TMUX", "TMUX_PANE", "STY", "WINDOW", "WINDOWID", "TERM_PROGRAM", "TERM_PROGRAM_VERSION",
	"TERM_SESSION_ID", "TERMCAP", "COLUMNS", "LINES", "COLORFGBG", "LC_TERMINAL", "LC_TERMINAL_VERSION",
	"VTE_VERSION", "WT_SESSION", "WT_PROFILE_ID", "KITTY_", "WEZTERM_", "ALACRITTY_", "ITERM_",
	"KONSOLE_", "GNOME_TERMINAL_", "TERMINATOR_", "TILIX_ID", "ZELLIJ", "ZELLIJ_", "GHOSTTY_",
	"INSIDE_EMACS", "NVIM", "NVIM_LISTEN_ADDRESS", "VSCODE_INJECTION", "TERM", "COLORTERM", "PWD",
}

// childEnv builds a child's environment: base (the server's) without the
// terminal-identity variables, then TERM=xterm-256color,
// COLORTERM=truecolor and PWD=cwd, then extra (which wins, TERM included).
func childEnv(base []string, cwd string, extra map[string]string) ([]string, error) {
	env := make([]string, 0, len(base)+len(extra)+2)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		// The server's own TTYWRIGHT_* settings configure it, not a
		// ttywright run inside a session, and one names the token file.
		if _, over := extra[name]; !over && !isIdentityVar(name) && !strings.HasPrefix(name, "TTYWRIGHT_") {
			env = append(env, kv)
		}
	}
	if _, ok := extra["TERM"]; !ok {
		env = append(env, "TERM=xterm-256color")
	}
	if _, ok := extra["COLORTERM"]; !ok {
		env = append(env, "COLORTERM=truecolor")
	}
	if _, ok := extra["PWD"]; !ok {
		env = append(env, "PWD="+cwd)
	}
	names := make([]string, 0, len(extra))
	for k := range extra {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := extra[k]
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, fmt.Errorf("env name %q is invalid: names may not be empty or contain '=' or NUL", k)
		}
		if strings.ContainsRune(v, 0) {
			return nil, fmt.Errorf("env %s holds a NUL byte: remove it", k)
		}
		env = append(env, k+"="+v)
	}
	return env, nil
}

func isIdentityVar(name string) bool {
	for _, v := range identityVars {
		if name == v || strings.HasSuffix(v, "_") && strings.HasPrefix(name, v) {
			return true
		}
	}
	return false
}

// envValue returns the last value of name in env.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// expandHome replaces a leading "~" or "~/" with the home directory, as a
// shell would have; other paths, and "~" when there is no home directory,
// are returned as they are.
func expandHome(path string) string {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return path
	}
	return filepath.Join(home, path[1:])
}
