package main

// session_integ.go: shell integration. An interactive bash, zsh or fish
// started by shell_start is made to mark its prompts and commands with
// OSC 133 and its directory with OSC 7, without touching the user's
// files: the start-up files it would have read are still read, in the
// same order, and the marks are added after them. bash gets --rcfile
// with a wrapper that reads what bash would have read (for a login shell
// the profile chain); zsh gets ZDOTDIR pointing at wrapper files that read
// the user's ZDOTDIR files; fish gets --init-command, which runs after its
// configuration. The wrappers live in a private temporary directory made
// for the session and removed with it (or, when the server was killed, by
// the next server to start). A user's own integration (a
// prompt or hook that already writes OSC 133) is kept and ours left out.

import (
	"bytes"
	"context"
	"crypto/rand"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed session_integ.bash
var bashIntegration string

//go:embed session_integ.zsh
var zshIntegration string

//go:embed session_integ_zdotdir.zsh
var zshWrapper string

//go:embed session_integ.fish
var fishIntegration string

// shellIntegration is what a session knows of its shell's integration;
// session://{id}/info shows it.
type shellIntegration struct {
	Active bool   `json:"active"`          // marks were installed, or the program writes its own
	Shell  string `json:"shell,omitempty"` // bash, zsh or fish
	Reason string `json:"reason,omitempty"`
	dir    string // the wrappers' directory, removed with the session
	nonce  string // carried by the integration's marks (Terminal.SetMarkNonce)
}

// nonceMarker stands for the session's mark nonce in the integration
// scripts: each mark they write carries tw_nonce=<nonce>, so that marks
// in a program's output cannot end a command or move the directory. The
// nonce is written into the session's private copies of the scripts, not
// passed in the environment, which every program the shell runs would
// inherit.
const nonceMarker = "__TW_NONCE__"

// integrationPlan is how to start a program with integration: its
// arguments after the program name and extra environment.
type integrationPlan struct {
	path  string // the program
	args  []string
	env   map[string]string
	files map[string]string // name to content, written to the private directory
	integ shellIntegration
}

// planIntegration decides whether the program shell (its name as
// started, e.g. "bash"), run from the file path, with args gets shell
// integration, and how. env is the program's environment. off is why
// integration is turned off (integrationOff), "" when it is on.
func planIntegration(shell, path string, args, env []string, off string) integrationPlan {
	p := integrationPlan{path: path, args: args, integ: shellIntegration{Shell: shell}}
	if !slices.Contains([]string{"bash", "zsh", "fish"}, shell) {
		p.integ.Shell = ""
		p.integ.Reason = "the program is not bash, zsh or fish, which are the shells ttywright marks commands in (OSC 133)"
		return p
	}
	if off != "" {
		p.integ.Reason = off
		return p
	}
	var err error
	switch shell {
	case "bash":
		err = p.bash(args)
	case "zsh":
		err = p.zsh(args, env)
	case "fish":
		err = p.fish(args)
	}
	if err != nil {
		p.args, p.env, p.files = args, nil, nil
		p.integ.Reason = err.Error()
		return p
	}
	p.integ.Active = true
	p.integ.nonce = rand.Text()
	for name, text := range p.files {
		p.files[name] = strings.ReplaceAll(text, nonceMarker, p.integ.nonce)
	}
	return p
}

// integrationOff is why a session starts without integration, "" when
// it gets it: the shell_start argument decides when given (true turns it
// on even under --shell-integration=false), else the server's flag.
func integrationOff(arg *bool, flagOff bool) string {
	switch {
	case arg != nil && !*arg:
		return "turned off by shell_start's shell_integration false"
	case arg == nil && flagOff:
		return "turned off by the server's --shell-integration=false (shell_start with shell_integration true turns it on for one session)"
	}
	return ""
}

// errNotInteractive is the reason a shell running a command or a script
// gets no integration: it draws no prompt.
var errNotInteractive = errors.New("the shell runs a command or a script, not an interactive session (-c or a file argument)")

// bash plans bash: its own rc choice (--norc, --rcfile F) and a login
// shell's profile chain are passed to the wrapper, which bash reads
// through --rcfile as a non-login shell.
func (p *integrationPlan) bash(args []string) error {
	rc, login, noprofile := "", false, false
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return errNotInteractive
			}
		case a == "--norc":
			rc = ":norc"
		case a == "--noprofile":
			noprofile = true
		case a == "--login":
			login = true
		case a == "--rcfile" || a == "--init-file":
			if i+1 >= len(args) {
				return errors.New("bash " + a + " lacks its file")
			}
			rc = args[i+1]
			i++
		case a == "--posix":
			return errors.New("bash --posix reads $ENV, not an rc file, so the marks cannot be added")
		case strings.HasPrefix(a, "--"):
			out = append(out, a)
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			if strings.ContainsRune(a, 'c') && a[0] == '-' {
				return errNotInteractive
			}
			if a[0] == '-' && strings.ContainsRune(a, 'l') {
				login = true
				a = strings.ReplaceAll(a, "l", "")
			}
			if a != "-" {
				out = append(out, a)
			}
			if strings.ContainsAny(a[1:], "oO") && i+1 < len(args) { // -o option, -O shopt
				out = append(out, args[i+1])
				i++
			}
		default:
			return errNotInteractive
		}
	}
	if rc == ":norc" && !login {
		// No start-up file to wrap: bash keeps --norc, and the
		// integration comes in through PROMPT_COMMAND at the first prompt.
		p.env = map[string]string{"PROMPT_COMMAND": ". \x00bashrc", "TTYWRIGHT_BASH_RC": ":env"}
		p.files = map[string]string{"bashrc": bashIntegration}
		p.args = append([]string{"--norc"}, out...)
		return nil
	}
	p.env = map[string]string{"TTYWRIGHT_BASH_RC": rc}
	if rc == "" && bashReadsSysRC(p.path) {
		p.env["TTYWRIGHT_BASH_RC"] = ":user" // bash read /etc/bash.bashrc already
	}
	if login {
		p.env["TTYWRIGHT_BASH_LOGIN"] = "1"
		if noprofile {
			p.env["TTYWRIGHT_BASH_LOGIN"] = "noprofile"
		}
	}
	p.files = map[string]string{"bashrc": bashIntegration}
	p.args = append([]string{"--rcfile", "\x00bashrc"}, out...)
	return nil
}

// zsh plans zsh: the arguments stay as given; ZDOTDIR points at the
// wrappers, which read the user's ZDOTDIR (or $HOME) files.
func (p *integrationPlan) zsh(args []string, env []string) error {
	for _, a := range args {
		switch {
		case a == "-f" || a == "--no-rcs" || a == "--norcs":
			return errors.New("zsh -f reads no start-up files, so the marks cannot be added")
		case a == "-c" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'c'):
			return errNotInteractive
		case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			return errNotInteractive
		}
	}
	user, set := envLookup(env, "ZDOTDIR")
	if !set || user == "" {
		user = envValue(env, "HOME")
	}
	p.env = map[string]string{"ZDOTDIR": "\x00", "TTYWRIGHT_ZDOTDIR": user}
	if !set {
		p.env["TTYWRIGHT_ZDOTDIR_UNSET"] = "1"
	}
	p.files = map[string]string{"integration.zsh": zshIntegration}
	for _, f := range []string{".zshenv", ".zprofile", ".zshrc", ".zlogin"} {
		p.files[f] = strings.ReplaceAll(zshWrapper, "__TW_FILE__", f)
	}
	return nil
}

// fish plans fish: --init-command sources the integration after the
// user's configuration.
func (p *integrationPlan) fish(args []string) error {
	for i, a := range args {
		switch {
		case a == "-c" || a == "--command" || strings.HasPrefix(a, "--command="):
			return errNotInteractive
		case a == "-n" || a == "--no-execute":
			return errNotInteractive
		case !strings.HasPrefix(a, "-"):
			if i == 0 || !slices.Contains([]string{"-C", "--init-command", "-d", "--debug", "-o", "--debug-output", "-f", "--features"}, args[i-1]) {
				return errNotInteractive
			}
		}
	}
	p.files = map[string]string{"integration.fish": fishIntegration}
	p.args = append([]string{"--init-command", "source \x00integration.fish"}, args...)
	return nil
}

// sysRCRead caches bashReadsSysRC by path.
var sysRCRead sync.Map

// bashReadsSysRC reports whether the bash at path reads /etc/bash.bashrc
// itself before an --rcfile (Debian's and Ubuntu's builds do: the path is
// compiled in), so that the wrapper must not read it again.
func bashReadsSysRC(path string) bool {
	if v, ok := sysRCRead.Load(path); ok {
		return v.(bool)
	}
	b, err := os.ReadFile(path)
	yes := err == nil && bytes.Contains(b, []byte("/etc/bash.bashrc\x00"))
	sysRCRead.Store(path, yes)
	return yes
}

// envLookup returns the last value of name in env and whether it is there.
func envLookup(env []string, name string) (string, bool) {
	v, ok := "", false
	for _, kv := range env {
		if k, val, found := strings.Cut(kv, "="); found && k == name {
			v, ok = val, true
		}
	}
	return v, ok
}

// install writes the plan's files into a new private directory and puts
// its path where the arguments and environment hold "\x00" (followed by
// a file name, or alone for the directory itself). It returns the
// arguments and env.
func (p *integrationPlan) install(env []string) ([]string, []string, error) {
	if len(p.files) == 0 {
		return p.args, env, nil
	}
	dir, err := os.MkdirTemp("", integDirPattern())
	if err != nil {
		return nil, nil, err
	}
	for name, text := range p.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			os.RemoveAll(dir)
			return nil, nil, err
		}
	}
	p.integ.dir = dir
	fill := func(s string) string {
		if i := strings.IndexByte(s, 0); i >= 0 {
			return s[:i] + filepath.Join(dir, s[i+1:])
		}
		return s
	}
	args := make([]string, len(p.args))
	for i, a := range p.args {
		args[i] = fill(a)
	}
	if a := args; len(a) > 1 && strings.HasPrefix(a[1], "source ") { // fish: a quoted path
		args[1] = "source " + fishQuote(strings.TrimPrefix(a[1], "source "))
	}
	names := make([]string, 0, len(p.env))
	for k := range p.env {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, k+"=") })
		env = append(env, k+"="+fill(p.env[k]))
	}
	return args, env, nil
}

// fishQuote quotes s for fish: single quotes, with \ and ' escaped.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// integDirPrefix begins the name of every wrapper directory, which is
// ttywright-shell-PID-START-NS-RANDOM: PID, START (processStart) and NS
// (pidNamespace) of the server that made it, so that a later server can
// tell whether the one that made it still runs (removeStaleIntegrationDirs).
const integDirPrefix = "ttywright-shell-"

// integDirPattern is the os.MkdirTemp pattern of this server's wrapper
// directories.
func integDirPattern() string {
	pid := os.Getpid()
	return fmt.Sprintf("%s%d-%s-%s-*", integDirPrefix, pid, processStart(pid), pidNamespace())
}

// removeStaleIntegrationDirs removes from os.TempDir() the wrapper
// directories that servers left behind when they were killed before they
// could remove them (SIGKILL, a crash). A directory is removed only when
// it is this user's, is a directory (not a link to one), and its name
// says its server ran in this PID namespace and is gone: nothing runs
// with its pid, or what runs with it started at another time (a reused
// pid). Every other entry is kept: a running server's directories,
// another user's, another namespace's, names of another form. The
// program calls it once at start; it returns the directories removed.
func removeStaleIntegrationDirs() (removed []string, err error) {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil, err
	}
	ns := pidNamespace()
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), integDirPrefix)
		if !ok || !e.IsDir() { // IsDir is false for a symbolic link
			continue
		}
		f := strings.SplitN(rest, "-", 4)
		if len(f) != 4 || f[1] == "" || f[2] != ns {
			continue
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil || pid <= 0 || processStart(pid) == f[1] {
			continue
		}
		path := filepath.Join(tmp, e.Name())
		fi, err := os.Lstat(path)
		if err != nil || !fi.IsDir() || !ownedByUser(fi) {
			continue
		}
		if os.RemoveAll(path) == nil {
			removed = append(removed, path)
		}
	}
	return removed, nil
}

// removeIntegration deletes the session's wrapper directory.
func (s *Session) removeIntegration() {
	if d := s.integ.dir; d != "" {
		_ = os.RemoveAll(d) // best effort: a temporary directory
	}
}

// Readiness: how long shell_start waits for the program.
const (
	readyShellMax   = 3 * time.Second        // an integrated shell: until its first prompt mark, at most this
	readyMax        = 500 * time.Millisecond // any other program, while it keeps writing or has written nothing
	readyOutputMax  = 3 * time.Second        // any other program that has taken its terminal, written and paused by readyMax, or still loads: until it reads its terminal (mc waits for its subshell before it draws)
	readyQuiet      = 30 * time.Millisecond  // after its first output, this much quiet: a program that has not taken its terminal is ready (and any, where its reads cannot be seen)
	readyInputQuiet = 5 * time.Millisecond   // blocked reading its terminal, with this much quiet
	readyStuckQuiet = time.Second            // an integrated shell with no B yet, blocked reading: its hooks failed
	readyPoll       = 2 * time.Millisecond   // how often the program's state is looked at
)

// readsInput reports whether program pid, its output quiet for quiet,
// now waits for its input: it is asleep reading its terminal
// (readsTerminal) after at least after of quiet. A program reads its
// terminal once it has drawn, so its output up to that read is what
// shell_start shows; one that reads at once (cat) is ready without any.
// Asleep for anything else (htop's pause before it draws, mc's wait for
// its subshell) it is not, and neither is a shell that is quiet but
// still running between its prompt and its line editor's set-up (zsh
// turns bracketed paste on after drawing the prompt; a loaded machine
// can hold it there for tens of milliseconds). Only where the program's
// system calls cannot be seen, asleep waiting for any input
// (waitingForInput) counts, and so does readyQuiet of quiet after its
// first output (wrote). shell_start's readiness and a wait_for_command's
// end both wait for it.
func readsInput(pid int, quiet, after time.Duration, wrote bool) bool {
	if quiet < after {
		return false
	}
	if reads, known := readsTerminal(pid); known {
		return reads
	}
	return waitingForInput(pid) || wrote && quiet >= readyQuiet
}

// waitReady returns when s's program is ready for input: an integrated
// shell once its first prompt is drawn (the B mark, or A when it writes
// no B) and it reads its input; any other program once it reads its
// input after its output has gone quiet (readsInput for both), or once
// it has printed and paused without taking its terminal (printedAndPaused:
// a dev server, a ticker). Either only once everything the program wrote
// before is on the screen (outputSettled). It never waits past
// readyShellMax for a shell, past readyMax for a program that keeps
// writing or has written nothing and is not loading, past readyOutputMax
// for one that has taken its terminal, written and paused, or still loads
// (readyLonger), or once the program has exited.
// ready is false when it gave up or the program exited first; note then
// says what to do (shell_start's result), "" for an exit.
func (s *Session) waitReady(ctx context.Context) (ready bool, note string) {
	limit := readyMax
	if s.integ.Active {
		limit = readyShellMax
	}
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	poll := time.NewTicker(readyPoll)
	defer poll.Stop()
	var output outputSettled
	for {
		s.mu.Lock()
		ch, exited, last, fed, alt := s.changed, s.exited, s.lastOutput, s.fed, s.term.Modes().AltScreen
		// A shell with our integration draws B at the end of each
		// prompt; one with its own marks may write only A.
		prompt := s.sh.seenB || !s.integ.Active && s.sh.seenA && time.Since(last) >= readyQuiet
		s.mu.Unlock()
		quiet, wrote := time.Since(last), fed > 0
		reads := false // the program now waits for its input
		switch {
		case prompt && readsInput(s.pid, quiet, readyPoll, true):
			// The prompt is drawn and the line editor reads: zsh turns
			// bracketed paste on after its prompt, so the B mark alone
			// is too early for a paste.
			reads = true
		case prompt:
		case exited:
			return false, "" // the caller says where the exit code is
		case s.integ.Active:
			if quiet >= readyStuckQuiet && waitingForInput(s.pid) {
				return false, "the shell reads its input but drew no marked prompt (its start-up files may replace the prompt hooks or wait for input): wait_for_command may not work, wait with wait_for instead"
			}
		default:
			reads = readsInput(s.pid, quiet, readyInputQuiet, wrote) || s.printedAndPaused(quiet, wrote, alt)
		}
		s.mu.Lock()
		settled := output.check(s, reads, fed)
		s.mu.Unlock()
		if settled {
			return true, ""
		}
		select {
		case <-ch:
		case <-poll.C:
		case <-deadline.C:
			if s.integ.Active {
				return false, fmt.Sprintf("no prompt yet after %v (slow start-up files?): the shell is still starting; shell_wait {wait_for_command: true} returns at its first prompt", limit)
			}
			// Output still on its way counts as written: on a busy
			// machine the reader may not have fed it yet.
			wrote := wrote || ptyOutputPending(s.master)
			if more := readyLonger(s.pid, limit, wrote, time.Since(last)); more > 0 {
				deadline.Reset(more)
				limit += more
				continue
			}
			if wrote {
				return false, fmt.Sprintf("the program has not read its terminal after %v: it is still starting, or does not read its input; screen is its output so far; wait with shell_wait {wait_for: ...} or {wait_idle_ms: ...}", limit)
			}
			return false, fmt.Sprintf("no output yet after %v: the program is still starting, or prints nothing before its input; look with shell_read or wait with shell_wait {wait_for: ...}", limit)
		case <-ctx.Done():
			return false, "cancelled before the program was ready"
		}
	}
}

// printedAndPaused reports whether s's program, not an integrated shell,
// has written, been quiet for readyQuiet and is asleep (programBusy is
// false), all without taking its terminal: its line discipline is still
// canonical with echo (ptyLineMode) and the screen is not the alternate
// screen (alt). Such a program (a dev server that printed "listening", a
// ticker, a log follower) has shown what it shows until its next event,
// and is ready. One that has taken its terminal will draw and read it:
// mc, in raw mode, draws only once its subshell has started, so it is
// ready only when it reads (readsInput), at most readyOutputMax.
func (s *Session) printedAndPaused(quiet time.Duration, wrote, alt bool) bool {
	if !wrote || quiet < readyQuiet || alt {
		return false
	}
	lm, err := ptyLineMode(s.master)
	return err == nil && lm.echo && lm.canonical && !programBusy(s.pid)
}

// readyLonger is how much longer waitReady gives program pid, not an
// integrated shell, when its deadline comes after limit with its output
// quiet for quiet, 0 for no longer: up to readyOutputMax for one that has
// written and paused without being ready (one that has taken its terminal
// and waits for something before it draws: mc for its subshell; or one
// still busy after it wrote) and for one that has written nothing but
// still loads (programBusy: a busy machine can hold python's start past
// readyMax); readyQuiet, at the first deadline, for one that wrote just
// now, to tell one that keeps writing (it writes again) from one that
// paused right after writing.
func readyLonger(pid int, limit time.Duration, wrote bool, quiet time.Duration) time.Duration {
	switch {
	case limit >= readyOutputMax:
		return 0
	case wrote && quiet >= readyQuiet, !wrote && programBusy(pid):
		return readyOutputMax - limit
	case wrote && limit == readyMax:
		return readyQuiet
	}
	return 0
}

// outputSettled confirms that a program seen waiting for its input has
// nothing more on its way to the screen. Asleep reading, the program has
// written all it will before its read, but the bytes may still be in
// transit: in the kernel between the two sides of the PTY (Linux hands
// them over in a worker, which on a busy machine runs milliseconds
// later, while the master's FIONREAD already says 0; ptyOutputPending's
// poll completes that hand-over), or read by the reader but not yet fed.
// On Linux the reader takes bytes from the master only with s.mu held
// (ptyReadsHeld), so one look with s.mu held after the program was seen
// waiting, finding the master empty, settles it: every byte it wrote is
// fed. Elsewhere a read's bytes are in flight before the reader takes
// s.mu, and the program counts as ready only on two looks at least
// readyPoll apart, with nothing queued and no byte fed between them: by
// the second look, bytes the reader held at the first are fed. (zsh
// writes \e[?2004h after its prompt mark; without this, about 1 start in
// 120 on two busy cores was ready before it.)
type outputSettled struct {
	since time.Time // the first look that saw it settled; zero: none yet
	fed   int64     // Session.fed at that look
	pid   int       // the reader at that look (checkReader)
}

// check reports whether the program is ready: reads says it was just
// seen waiting for input, fed is Session.fed taken before that was
// looked at. s.mu is held.
func (o *outputSettled) check(s *Session, reads bool, fed int64) bool {
	if !reads || s.queued.Load() > 0 || ptyOutputPending(s.master) {
		o.since = time.Time{}
		return false
	}
	if ptyReadsHeld {
		return true
	}
	now := time.Now()
	if o.since.IsZero() || o.fed != fed {
		o.since, o.fed = now, fed
		return false
	}
	return now.Sub(o.since) >= readyPoll
}

// checkReader is check for wait_for_input: the same process, fg's, seen
// waiting for input at two looks readyPoll apart, with nothing fed
// between, even where one look would do for output in transit: a
// program's launcher may read the terminal for a moment before the
// program does (pyenv's shims, a wrapper script), and a wait that held
// then would answer before the program read anything. s.mu is held.
func (o *outputSettled) checkReader(s *Session, fg Foreground, fed int64) bool {
	if fg.Input == inputNone || s.queued.Load() > 0 || ptyOutputPending(s.master) {
		o.since = time.Time{}
		return false
	}
	now := time.Now()
	if o.since.IsZero() || o.fed != fed || o.pid != fg.PID {
		o.since, o.fed, o.pid = now, fed, fg.PID
		return false
	}
	return now.Sub(o.since) >= readyPoll
}
