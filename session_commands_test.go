package main

// session_commands_test.go: shell integration with real bash, zsh and fish:
// exit codes, output between the marks, multi-line commands, full-screen
// programs, the directory, the user's own start-up files and marks, and
// the refusals where no marks can come.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// integratedShells are the shells the tests run, each with a clean HOME
// (so the machine's rc files cannot change the prompt) and its args.
var integratedShells = []struct {
	name string
	args []string
}{
	{"bash", nil},
	{"zsh", nil},
	{"fish", nil},
}

// needShell skips the test when name is not installed.
func needShell(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed", name)
	}
}

// startShell starts name in a session with HOME set to home (a new
// temporary directory when "") and returns the session id.
func startShell(t *testing.T, a *App, name, home string, args []string, extra map[string]any) string {
	t.Helper()
	needShell(t, name)
	if home == "" {
		home = t.TempDir()
	}
	if args == nil {
		args = []string{}
	}
	in := map[string]any{"command": name, "args": args, "cwd": home,
		"env": map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "ZDOTDIR": home, "HISTFILE": filepath.Join(home, ".hist")}}
	for k, v := range extra {
		in[k] = v
	}
	m := mustCall(t, a, "shell_start", in)
	id := m["shell_session_id"].(string)
	// Stopped before home is removed (cleanups run last first): fish
	// writes its completions there in the background.
	t.Cleanup(func() {
		if s, err := a.tools.session(id); err == nil {
			a.tools.stopSession(s, syscall.SIGHUP)
		}
	})
	return id
}

// runCommand types line and Enter with wait_for_command and returns the
// command object.
func runCommand(t *testing.T, a *App, id, line string, extra map[string]any) map[string]any {
	t.Helper()
	in := map[string]any{"session_id": id, "input": line + "\r", "wait_for_command": true, "timeout_ms": 20000}
	for k, v := range extra {
		in[k] = v
	}
	m := mustCall(t, a, "shell_send", in)
	c, _ := m["command"].(map[string]any)
	if c == nil || m["timed_out"] == true {
		t.Fatalf("%q: no command in %v", line, m)
	}
	return c
}

// exitCode is a command object's exit_code, -1 when absent.
func exitCode(c map[string]any) int {
	if v, ok := c["exit_code"].(float64); ok {
		return int(v)
	}
	return -1
}

func TestCommandExitCodes(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			tests := []struct {
				line   string
				code   int
				output string
			}{
				{"true", 0, ""},
				{"false", 1, ""},
				{"echo one; echo two", 0, "one\ntwo"},
				{"sh -c 'exit 2'", 2, ""},
			}
			for _, tt := range tests {
				c := runCommand(t, a, id, tt.line, nil)
				if exitCode(c) != tt.code || c["output"] != tt.output || c["line"] != tt.line {
					t.Errorf("%s %q: exit_code %v output %q line %q, want %d %q", sh.name, tt.line, c["exit_code"], c["output"], c["line"], tt.code, tt.output)
				}
				if _, ok := c["duration_ms"].(float64); !ok {
					t.Errorf("%s %q: no duration_ms in %v", sh.name, tt.line, c)
				}
			}
			// Ctrl-C of a running command: 130, reported by the wait that
			// sent it.
			// On timeout: the running command, its output so far, no exit code.
			m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "echo partial; sleep 100\r", "wait_for_command": true, "timeout_ms": 300})
			if c, _ := m["command"].(map[string]any); m["timed_out"] != true || c == nil || c["running"] != true || c["line"] != "echo partial; sleep 100" ||
				c["output"] != "partial" || c["exit_code"] != nil {
				t.Errorf("%s: sleep 100 with timeout_ms 300: %v", sh.name, m)
			}
			c := runCommandKeys(t, a, id, "C-c")
			if out, _ := c["output"].(string); exitCode(c) != 130 || c["line"] != "echo partial; sleep 100" || strings.TrimSpace(out) != "partial\n^C" {
				t.Errorf("%s: C-c of sleep 100: %v, want exit_code 130", sh.name, c)
			}
			// Nothing running now: shell_wait answers at once with it.
			w := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
			if c, _ := w["command"].(map[string]any); w["already_done"] != true || c == nil || c["line"] != "echo partial; sleep 100" {
				t.Errorf("%s: shell_wait at the prompt: %v", sh.name, w)
			}
		})
	}
}

// TestCommandMarksInOutput: marks a command prints (cat of a log or a
// typescript that holds them) are output, not the shell's: they do not
// end the command, start another or move the directory, in bash, zsh and
// fish, and neither does a mark with a guessed nonce.
func TestCommandMarksInOutput(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			dir := readInfo(t, a, id)["cwd"]
			marks := `\e]133;D;5\a\e]133;A\afake$ \e]133;B\a\e]7;file://x/etc\a\e]133;C\a\e]133;D;tw_nonce=AAAA;7\a`
			c := runCommand(t, a, id, "printf '"+marks+"'; sleep 0.3; echo real", nil)
			if exitCode(c) != 0 || !strings.HasSuffix(c["output"].(string), "real") {
				t.Errorf("%s: the printed marks ended the command: exit_code %v output %q", sh.name, c["exit_code"], c["output"])
			}
			if c := runCommand(t, a, id, "echo next", nil); c["output"] != "next" || exitCode(c) != 0 {
				t.Errorf("%s: the command after: %v", sh.name, c)
			}
			if info := readInfo(t, a, id); info["cwd"] != dir {
				t.Errorf("%s: cwd %v after a printed OSC 7, want %v", sh.name, info["cwd"], dir)
			}
		})
	}
}

// TestMarkNonce: once a mark carries the session's nonce, marks without
// it (or with another) are ignored; before, every mark counts (a user's
// own integration writes none); the nonce is removed from the parameters.
func TestMarkNonce(t *testing.T) {
	t.Parallel()
	term := NewTerminal(40, 5, 10)
	term.SetMarkNonce("N1")
	tests := []struct {
		in   string
		want string // the marks taken: kind and params, space-separated
	}{
		{"\x1b]133;A\a\x1b]133;D;0\a", "A: D:0"},
		{"\x1b]7;tw_nonce=N1;file://h/tmp\a\x1b]133;A;tw_nonce=N1\a", "7:file://h/tmp A:"},
		{"\x1b]133;D;3\a\x1b]133;A;tw_nonce=N2\a\x1b]7;file://h/etc\a\x1b]133;D;tw_nonce=N12;1\a", ""},
		{"\x1b]133;A;tw_nonce=N1;k=s\a\x1b]133;D;tw_nonce=N1;2;tw_histcmd=4\a", "A:k=s D:2;tw_histcmd=4"},
	}
	for _, tt := range tests {
		term.Write([]byte(tt.in))
		var got []string
		for _, m := range term.TakeShellMarks() {
			got = append(got, string(m.Kind)+":"+m.Params)
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%q: marks %q, want %q", tt.in, g, tt.want)
		}
	}
}

// TestCommandEndReadyForKeys: a wait_for_command that returns leaves the
// shell reading its terminal, so keys sent at once are read as typed: a
// C-c right after a command gives a new prompt, and the next command
// keeps its first letter. Before, bash could still be between its
// prompt and its read: 5 rounds in 100 lost the C-c and the next key.
func TestCommandEndReadyForKeys(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range []string{"bash", "zsh"} {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh, "", nil, nil)
			lost := 0
			for i := range 60 {
				// A subshell, then a builtin: the two kinds of command end.
				for _, cmd := range []string{"(exit 3)", "echo one"} {
					runCommand(t, a, id, cmd, nil)
					m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"C-c"}, "wait_for_command": true, "timeout_ms": 2000})
					line := fmt.Sprintf("echo r%d", i)
					if c := runCommand(t, a, id, line, nil); m["timed_out"] == true || c["line"] != line {
						lost++
						t.Logf("round %d: C-c after %q timed out %v; then %q ran as %q", i, cmd, m["timed_out"], line, c["line"])
					}
				}
			}
			// Under the race detector on a loaded machine (the server's
			// looks 5-10x slower), 1 round in 120 was seen to lose its C-c
			// (bash, once in a full -race run, cause not found); without
			// it none has.
			allowed := 0
			if raceEnabled {
				allowed = 1
			}
			if lost > allowed {
				t.Errorf("%s: %d rounds in 120 lost keys sent right after a command (at most %d may)", sh, lost, allowed)
			}
		})
	}
}

// runCommandKeys sends keys with wait_for_command and returns the command.
func runCommandKeys(t *testing.T, a *App, id string, keys ...string) map[string]any {
	t.Helper()
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": keys, "wait_for_command": true, "timeout_ms": 20000})
	c, _ := m["command"].(map[string]any)
	if c == nil {
		t.Fatalf("keys %v: no command in %v", keys, m)
	}
	return c
}

func TestCommandOutputLarge(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	a.cfg.Scrollback = 30000
	reconfigure(a)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			var want strings.Builder
			for i := 1; i <= 20000; i++ {
				fmt.Fprintf(&want, "%d\n", i)
			}
			full := strings.TrimSuffix(want.String(), "\n")
			c := runCommand(t, a, id, "seq 20000", map[string]any{"max_bytes": commandOutputCap})
			if c["output"] != full || c["truncated"] != false {
				out, _ := c["output"].(string)
				t.Errorf("%s seq 20000 with max_bytes %d: %d bytes, truncated %v, want all %d", sh.name, commandOutputCap, len(out), c["truncated"], len(full))
			}
			c = runCommand(t, a, id, "seq 20000", nil)
			out, _ := c["output"].(string)
			if !strings.HasPrefix(out, truncatedMarker) || !strings.HasSuffix(out, "\n19999\n20000") || len(out) > defaultReadBytes+len(truncatedMarker) || c["truncated"] != true {
				t.Errorf("%s seq 20000 default max_bytes: truncated %v, %d bytes, %.40q...%q", sh.name, c["truncated"], len(out), out, out[max(len(out)-20, 0):])
			}
		})
	}
}

func TestCommandMultiLineVimCwd(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			loop := "for i in 1 2 3\rdo\recho n$i\rdone"
			if sh.name == "fish" {
				loop = "for i in 1 2 3\recho n$i\rend"
			}
			c := runCommand(t, a, id, loop, nil)
			// The line as typed, every line of it.
			want := strings.ReplaceAll(loop, "\r", "\n")
			if c["output"] != "n1\nn2\nn3" || c["line"] != want {
				t.Errorf("%s for loop: line %q output %q, want line %q", sh.name, c["line"], c["output"], want)
			}
			// vim: the command ends when vim has quit and the prompt is back.
			m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "vim -u NONE -N " + filepath.Join(t.TempDir(), "f.txt") + "\r", "wait_for": "f.txt", "timeout_ms": 10000})
			if m["matched"] != true {
				t.Fatalf("%s: vim did not start: %v", sh.name, m["bufferAfter"])
			}
			c = runCommandKeys(t, a, id, "Escape", ":", "q", "!", "Enter")
			if exitCode(c) != 0 || !strings.HasPrefix(c["line"].(string), "vim ") {
				t.Errorf("%s vim: %v", sh.name, c)
			}
			runCommand(t, a, id, "cd /tmp", nil)
			info := readInfo(t, a, id)
			if info["cwd"] != "/tmp" || info["command_running"] != false {
				t.Errorf("%s: info after cd /tmp: cwd %v command_running %v", sh.name, info["cwd"], info["command_running"])
			}
			if si, _ := info["shell_integration"].(map[string]any); si["active"] != true || si["shell"] != sh.name {
				t.Errorf("%s: shell_integration %v", sh.name, si)
			}
			if c := runCommand(t, a, id, "pwd", nil); c["cwd"] != "/tmp" || c["output"] != "/tmp" {
				t.Errorf("%s: pwd after cd: %v", sh.name, c)
			}
		})
	}
}

// readInfo reads session://{id}/info.
func readInfo(t *testing.T, a *App, id string) map[string]any {
	t.Helper()
	rc, err := a.hub.readResource(infoURI(id).String())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(*rc.Text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCommandUserBashrc: PS1, an alias and PROMPT_COMMAND from the
// user's .bashrc all work with the marks added.
func TestCommandUserBashrc(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	home := t.TempDir()
	rc := `PS1='custom-\w> '
alias hello='echo alias-works'
PROMPT_COMMAND='echo pc-ran >> ~/pc.log'
`
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	id := startShell(t, a, "bash", home, nil, nil)
	c := runCommand(t, a, id, "hello", nil)
	if c["output"] != "alias-works" || exitCode(c) != 0 {
		t.Errorf("alias: %v", c)
	}
	c = runCommand(t, a, id, "false", nil)
	if exitCode(c) != 1 {
		t.Errorf("false after PROMPT_COMMAND: %v", c)
	}
	s, _ := a.tools.session(id)
	if text := s.Text(false); !strings.Contains(text, "custom-~> hello") {
		t.Errorf("the user's PS1 is not on the screen: %q", text)
	}
	b, _ := os.ReadFile(filepath.Join(home, "pc.log"))
	if n := strings.Count(string(b), "pc-ran"); n < 3 {
		t.Errorf("the user's PROMPT_COMMAND ran %d times, want 3 (one per prompt)", n)
	}
}

// TestCommandUserMarks: a user rc that writes OSC 133 itself keeps its
// marks and gets none of ours: each command is seen once.
func TestCommandUserMarks(t *testing.T) {
	t.Parallel()
	tests := []struct{ shell, file, rc string }{
		{"bash", ".bashrc", `__my_pre() { local r=$?; [ -n "$__my_ran" ] && printf '\e]133;D;%s\a' "$r"; __my_ran=; printf '\e]133;A\a'; }
PROMPT_COMMAND=__my_pre
PS1='mine\$ \[\e]133;B\a\]'
PS0='${__my_e:$((__my_ran=1)):0}\e]133;C\a'
__my_e=x
`},
		{"zsh", ".zshrc", `my_precmd() { local r=$?; (( my_ran )) && printf '\e]133;D;%s\a' $r; my_ran=0; printf '\e]133;A\a'; }
my_preexec() { my_ran=1; printf '\e]133;C\a'; }
precmd_functions+=(my_precmd)
preexec_functions+=(my_preexec)
PS1=$'mine%% %{\e]133;B\a%}'
`},
	}
	for _, tt := range tests {
		t.Run(tt.shell, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			home := t.TempDir()
			if err := os.WriteFile(filepath.Join(home, tt.file), []byte(tt.rc), 0o600); err != nil {
				t.Fatal(err)
			}
			id := startShell(t, a, tt.shell, home, nil, nil)
			for i, line := range []string{"echo a", "false", "echo b"} {
				c := runCommand(t, a, id, line, nil)
				if int(c["n"].(float64)) != i+1 || c["line"] != line {
					t.Errorf("%q is command %v %q, want %d", line, c["n"], c["line"], i+1)
				}
			}
			s, _ := a.tools.session(id)
			raw, _ := s.RawTail(rawTailCap)
			if n, want := strings.Count(string(raw), "\x1b]133;A"), 4; n != want {
				t.Errorf("%d A marks in the output, want %d (one per prompt): ours were added too", n, want)
			}
			if cmds := commandList(s.ID, s.commandsCopy()); len(cmds) != 3 || *cmds[1].ExitCode != 1 {
				t.Errorf("commands: %+v", cmds)
			}
		})
	}
}

// TestCommandIntegrationOff: off by argument, by flag, and for a program
// that is not a shell, wait_for_command is refused at once with the
// alternatives.
func TestCommandIntegrationOff(t *testing.T) {
	t.Parallel()
	needShell(t, "bash")
	tests := []struct {
		name    string
		flagOff bool
		command string
		arg     any
		reason  string
	}{
		{"argument", false, "bash", false, "turned off by shell_start's shell_integration false"},
		{"flag", true, "bash", nil, "turned off by the server's --shell-integration=false"},
		{"argument false under the flag", true, "bash", false, "turned off by shell_start's shell_integration false"},
		{"cat", false, "cat", nil, "not bash, zsh or fish"},
		{"bash -c", false, "bash", nil, "not an interactive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			a.cfg.NoShellIntegration = tt.flagOff
			reconfigure(a)
			in := map[string]any{"command": tt.command, "args": []string{}}
			if tt.name == "bash -c" {
				in["args"] = []string{"-c", "sleep 5"}
			}
			if tt.arg != nil {
				in["shell_integration"] = tt.arg
			}
			m := mustCall(t, a, "shell_start", in)
			id := m["shell_session_id"].(string)
			if si, _ := m["shell_integration"].(map[string]any); si["active"] != false || !strings.Contains(fmt.Sprint(si["reason"]), tt.reason) {
				t.Errorf("shell_integration %v, want inactive with reason %q", si, tt.reason)
			}
			r, _ := call(t, a, "shell_send", map[string]any{"session_id": id, "input": "true\r", "wait_for_command": true})
			if !r.IsError || !strings.Contains(r.Text, "wait_for") || !strings.Contains(r.Text, "wait_idle_ms") {
				t.Errorf("shell_send wait_for_command: isError %v %q", r.IsError, r.Text)
			}
			r, _ = call(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
			if !r.IsError {
				t.Errorf("shell_wait wait_for_command: not an error: %q", r.Text)
			}
		})
	}
}

// TestCommandIntegrationArgOverridesFlag: under --shell-integration=false
// a shell_start with shell_integration true gets integration.
func TestCommandIntegrationArgOverridesFlag(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	a.cfg.NoShellIntegration = true
	reconfigure(a)
	id := startShell(t, a, "bash", "", nil, map[string]any{"shell_integration": true})
	if si := readInfo(t, a, id)["shell_integration"].(map[string]any); si["active"] != true {
		t.Errorf("shell_integration true under --shell-integration=false: %v", si)
	}
	if c := runCommand(t, a, id, "echo on", nil); c["output"] != "on" {
		t.Errorf("echo on: %v", c)
	}
}

// TestCommandsResource: session://{id}/commands lists the commands and
// .../commands/{n} has each output.
func TestCommandsResource(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", nil, nil)
	for _, line := range []string{"echo first", "false", "printf 'a\\nb\\n'"} {
		runCommand(t, a, id, line, nil)
	}
	rc, err := a.hub.readResource(commandsURI(id).String())
	if err != nil {
		t.Fatal(err)
	}
	var list []commandJSON
	if err := json.Unmarshal([]byte(*rc.Text), &list); err != nil {
		t.Fatal(err)
	}
	wantOut := []string{"first", "", "a\nb"}
	if len(list) != 3 {
		t.Fatalf("%d commands, want 3: %s", len(list), *rc.Text)
	}
	for i, c := range list {
		out, err := a.hub.readResource(c.URI)
		if err != nil || c.N != i+1 || *out.Text != wantOut[i] || c.OutputBytes != len(wantOut[i]) || out.MimeType != "text/plain" {
			t.Errorf("command %d: %+v, output %v %v", i+1, c, out.Text, err)
		}
	}
	if _, err := a.hub.readResource(commandURI(id, 9).String()); err == nil {
		t.Errorf("session://%s/commands/9 was found", id)
	}
	got := a.hub.completeTemplate(uriCommand, "n", id)
	if strings.Join(got, ",") != "3,2,1" {
		t.Errorf("completion of {n}: %v", got)
	}
}

// TestShellStartReady: shell_start returns with the first prompt on the
// screen.
func TestShellStartReady(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			needShell(t, sh.name)
			home := t.TempDir()
			m := mustCall(t, a, "shell_start", map[string]any{"command": sh.name, "cwd": home, "env": map[string]string{"HOME": home, "ZDOTDIR": home, "XDG_CONFIG_HOME": home}})
			s, _ := a.tools.session(m["shell_session_id"].(string))
			s.mu.Lock()
			seenB := s.sh.seenB
			s.mu.Unlock()
			if scr, _ := m["screen"].(string); !seenB || strings.TrimSpace(scr) == "" {
				t.Errorf("%s: returned before the prompt: B seen %v, screen %q", sh.name, seenB, scr)
			}
			a.tools.stopSession(s, syscall.SIGHUP) // before home goes
		})
	}
}

// TestBashHistoryLine reads the command line bash's D carries.
func TestBashHistoryLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		params, line string
		ok           bool
	}{
		{"0;tw_histcmd=12;tw_history_url=   12  echo hi", "echo hi", true},
		{"0;tw_histcmd=12;tw_history_url=   11  echo old", "", false},
		{"0;tw_histcmd=3;tw_history_url=    3  a; b", "a; b", true},
		{"0;tw_histcmd=4;tw_history_url=    4  cat <<'EOF'%0Aa%25b%0AEOF", "cat <<'EOF'\na%b\nEOF", true},
		{"0;tw_histcmd=4;tw_history_url=    4  bad %", "", false},
		{"0", "", false},
	}
	for _, tt := range tests {
		line, ok := bashHistoryLine(tt.params)
		if line != tt.line || ok != tt.ok {
			t.Errorf("bashHistoryLine(%q) = %q, %v, want %q, %v", tt.params, line, ok, tt.line, tt.ok)
		}
	}
}

// TestPlanIntegration: which arguments get integration, and how.
func TestPlanIntegration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path   string
		args   []string
		active bool
		args2  string
	}{
		{"/bin/bash", nil, true, "--rcfile \x00bashrc"},
		{"/bin/bash", []string{"-l"}, true, "--rcfile \x00bashrc"},
		{"/bin/bash", []string{"--norc", "-i"}, true, "--norc -i"},
		{"/bin/bash", []string{"-c", "ls"}, false, "-c ls"},
		{"/bin/bash", []string{"script.sh"}, false, "script.sh"},
		{"/bin/zsh", []string{"-l"}, true, "-l"},
		{"/bin/zsh", []string{"-f"}, false, "-f"},
		{"/usr/bin/fish", nil, true, "--init-command source \x00integration.fish"},
		{"/usr/bin/fish", []string{"-c", "ls"}, false, "-c ls"},
		{"/bin/dash", nil, false, ""},
	}
	for _, tt := range tests {
		p := planIntegration(filepath.Base(tt.path), tt.path, tt.args, []string{"HOME=/h"}, "")
		if p.integ.Active != tt.active || strings.Join(p.args, " ") != tt.args2 {
			t.Errorf("%s %q: active %v args %q, want %v %q (%s)", tt.path, tt.args, p.integ.Active, p.args, tt.active, tt.args2, p.integ.Reason)
		}
	}
	if p := planIntegration("bash", "/bin/bash", []string{"-l"}, nil, ""); p.env["TTYWRIGHT_BASH_LOGIN"] != "1" {
		t.Errorf("bash -l: env %v, want the login chain read by the wrapper", p.env)
	}
}

// TestShellIntegrationStartupFiles: the files a login or non-login shell
// reads are still read, in their order, and the wrapper directory goes
// with the session.
func TestShellIntegrationStartupFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		shell string
		args  []string
		files map[string]string
		check string // a command whose output must be want
		want  string
	}{
		{"bash", []string{"-l"}, map[string]string{".bash_profile": "P=profile\n", ".profile": "P=wrong\n", ".bashrc": "R=rc\n"},
			"echo $P-${R-none}-$0", "profile-none-bash"},
		{"bash", nil, map[string]string{".bash_profile": "P=profile\n", ".bashrc": "R=rc; f() { echo fn; }\n"},
			"echo ${P-none}-$R-$(f)", "none-rc-fn"},
		{"bash", []string{"--rcfile", "my.rc"}, map[string]string{"my.rc": "R=mine\n", ".bashrc": "R=wrong\n"},
			"echo $R", "mine"},
		{"zsh", []string{"-l"}, map[string]string{".zshenv": "E=env\n", ".zprofile": "P=profile\n", ".zshrc": "R=rc\n", ".zlogin": "L=login\n"},
			"echo $E-$P-$R-$L-${ZDOTDIR:t}", "env-profile-rc-login-"},
		{"zsh", nil, map[string]string{".zshenv": "E=env\n", ".zprofile": "P=profile\n", ".zshrc": "R=rc\n"},
			"echo $E-${P-none}-$R", "env-none-rc"},
		{"fish", nil, map[string]string{".config/fish/config.fish": "set -g R rc\nfunction f; echo fn; end\n"},
			"echo $R-(f)", "rc-fn"},
	}
	for _, tt := range tests {
		t.Run(tt.shell+strings.Join(tt.args, ""), func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			home := t.TempDir()
			for name, text := range tt.files {
				p := filepath.Join(home, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			id := startShell(t, a, tt.shell, home, tt.args, nil)
			want := tt.want
			if strings.HasSuffix(want, "-") { // zsh: ZDOTDIR is the user's again
				want += filepath.Base(home)
			}
			if c := runCommand(t, a, id, tt.check, nil); c["output"] != want || exitCode(c) != 0 {
				t.Errorf("%s %q: %q: output %q, want %q", tt.shell, tt.args, tt.check, c["output"], want)
			}
			s, _ := a.tools.session(id)
			dir := s.integ.dir
			if _, err := os.Stat(dir); dir == "" || err != nil {
				t.Fatalf("wrapper directory %q: %v", dir, err)
			}
			mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("wrapper directory %s is still there after shell_stop: %v", dir, err)
			}
		})
	}
}

// FuzzShellMarks: any output, marks included, keeps the command list
// consistent: no panic, numbers rising, every command ended.
func FuzzShellMarks(f *testing.F) {
	for _, s := range []string{
		"\x1b]133;A\a$ \x1b]133;B\als\r\n\x1b]133;C\aa\r\nb\r\n\x1b]133;D;0\a",
		"\x1b]133;D;1\a\x1b]133;C\a\x1b]133;C;cmdline_url=%41\a\x1b]133;D;x;tw_histcmd=1;tw_history=  1  a\a",
		"\x1b]7;file://h/tmp\a\x1b]133;A;k=s\a\x1b]133;B\a\x1b[2J\x1b[3J\x1b]133;D;2\a",
		"\x1b]133;B\a\x1b[?1049h\x1b]133;C\a\x1b[?1049l\x1b]133;D\a",
		"\x1b]7;tw_nonce=N;file://h/tmp\a\x1b]133;A;tw_nonce=N\a\x1b]133;C\a\x1b]133;C;tw_nonce=N\ax\x1b]133;D;tw_nonce=N;0\a",
	} {
		f.Add([]byte(s), uint8(5))
	}
	f.Fuzz(func(t *testing.T, p []byte, rows uint8) {
		term := NewTerminal(20, int(rows%30)+1, 50)
		if rows&0x80 == 0 {
			term.SetMarkNonce("N") // as an integrated shell's session
		}
		var st shellState
		at := time.Unix(0, 0)
		for len(p) > 0 {
			n := min(len(p), 7)
			term.Write(p[:n])
			p = p[n:]
			for _, m := range term.TakeShellMarks() {
				st.mark(term, m, at)
			}
		}
		last := 0
		for _, c := range st.cmds {
			if c.n <= last || c.ended.IsZero() || len(c.output) > commandOutputCap {
				t.Fatalf("command %d after %d, ended %v, %d bytes", c.n, last, c.ended, len(c.output))
			}
			last = c.n
		}
		if len(st.cmds) > maxCommands || st.ended < len(st.cmds) {
			t.Fatalf("%d commands kept, %d ended", len(st.cmds), st.ended)
		}
	})
}

// TestCapOutputs: the outputs kept over all commands stay within
// commandsOutputCap, the oldest dropped first, the newest always kept.
func TestCapOutputs(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", commandOutputCap)
	var st shellState
	for n := 1; n <= 12; n++ {
		st.cmds = append(st.cmds, &command{n: n, output: big, outBytes: len(big)})
		st.capOutputs()
	}
	total, kept := 0, 0
	for _, c := range st.cmds {
		total += len(c.output)
		if c.output != "" {
			kept++
		} else if !c.cut {
			t.Errorf("command %d: output dropped without cut", c.n)
		}
	}
	if want := commandsOutputCap / commandOutputCap; total > commandsOutputCap || kept != want || st.cmds[11].output == "" {
		t.Errorf("%d bytes in %d outputs kept, want at most %d in %d, the newest among them", total, kept, commandsOutputCap, want)
	}
}

// TestCommandsNotifications: a finished command updates
// session://{id}/commands and .../info for their subscribers and, being
// a new resource, sends list_changed.
func TestCommandsNotifications(t *testing.T) {
	t.Parallel()
	needShell(t, "bash")
	c := &noteClient{testClient: startServer(t), t: t}
	c.initialize("2025-06-18")
	home := t.TempDir()
	st := c.tool("shell_start", map[string]any{"command": "bash", "cwd": home, "env": map[string]any{"HOME": home}})
	id, _ := st["shell_session_id"].(string)
	cmds, info := commandsURI(id).String(), infoURI(id).String()
	c.req("resources/subscribe", map[string]any{"uri": cmds}, nil)
	c.req("resources/subscribe", map[string]any{"uri": info}, nil)
	c.settle()
	mark := len(c.notes)
	r := c.tool("shell_send", map[string]any{"session_id": id, "input": "echo hi\r", "wait_for_command": true})
	if cmd, _ := r["command"].(map[string]any); cmd == nil || cmd["output"] != "hi" {
		t.Fatalf("shell_send: %v", r)
	}
	for _, want := range []struct{ method, uri string }{{e2eUpdated, cmds}, {e2eUpdated, info}, {e2eChanged, ""}} {
		if !c.waitNote(mark, want.method, want.uri, deadlockGuard) {
			t.Errorf("no %s %s after a command", want.method, want.uri)
		}
	}
}

// TestShellStateMarks: the commands the marks describe, from output
// written as a shell would (and as two integrations at once would).
func TestShellStateMarks(t *testing.T) {
	t.Parallel()
	const (
		a, b, c = "\x1b]133;A\a", "\x1b]133;B\a", "\x1b]133;C\a"
		ps2     = "\x1b]133;A;k=s\a> \x1b]133;B\a"
	)
	d := func(n int) string { return "\x1b]133;D;" + fmt.Sprint(n) + "\a" }
	tests := []struct {
		name   string
		out    string
		want   string // per command: line|exit|output, joined by " / "
		cwd    string
		active bool // a command is running at the end
	}{
		{"one", a + "$ " + b + "ls\r\n" + c + "x\r\ny\r\n" + d(0) + a + "$ " + b, "ls|0|x\ny", "", false},
		{"doubled marks count once", a + a + "$ " + b + b + "ls\r\n" + c + c + "x\r\n" + d(3) + d(3) + a + a + "$ " + b + b, "ls|3|x", "", false},
		{"D with no command", d(1) + a + "$ " + b, "", "", false},
		{"A with no D", a + "$ " + b + "ls\r\n" + c + "x\r\n" + a + "$ " + b, "ls|-|x", "", false},
		{"no trailing newline", a + "$ " + b + "printf ab\r\n" + c + "ab" + d(0) + "\r\n" + a, "printf ab|0|ab", "", false},
		{"continuation lines", a + "$ " + b + "for i in 1\r\n" + ps2 + "do :\r\n" + ps2 + "done\r\n" + c + d(0) + a, "for i in 1\ndo :\ndone|0|", "", false},
		{"cmdline from the shell", a + "$ " + b + "x\r\n\x1b]133;C;cmdline_url=echo%20%22a%3Bb%22\a" + d(0) + a, "echo \"a;b\"|0|", "", false},
		{"running", "\x1b]7;file://host/tmp/a%20b\a" + a + "$ " + b + "sleep 9\r\n" + c + "z", "", "/tmp/a b", true},
		{"wrapped output joined", a + "$ " + b + "w\r\n" + c + strings.Repeat("q", 25) + "\r\n" + d(0) + a, "w|0|" + strings.Repeat("q", 25), "", false},
		// An erase of the C mark's position: the output is what is left.
		{"clear (ED 2, ED 3)", a + "$ " + b + "clear\r\n" + c + "\x00gone\r\n\x1b[H\x1b[2J\x1b[3Jhi\r\n" + d(0) + a, "clear|0|hi", "", false},
		{"clear after scrolling", a + "$ " + b + "s\r\n" + c + "\x00" + "1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n\x1b[H\x1b[2J\x1b[3Jafter\r\n" + d(0) + a, "s|0|after", "", false},
		{"ED 2 with the C mark in the scrollback", a + "$ " + b + "s\r\n" + c + "\x00" + "1\r\n2\r\n3\r\n4\r\n5\r\n6\r\n\x1b[H\x1b[2Jz\r\n" + d(0) + a, "s|0|1\n2\nz", "", false},
		{"ED 0 from the home position", a + "$ " + b + "e\r\n" + c + "\x00" + "x\r\n\x1b[H\x1b[Jy\r\n" + d(0) + a, "e|0|y", "", false},
		{"ED 0 below the C mark", a + "$ " + b + "e\r\n" + c + "x\r\ny\r\n\x1b[J" + d(0) + a, "e|0|x\ny", "", false},
		{"ED 1 over the C mark", a + "$ " + b + "e\r\n" + c + "\x00" + "x\r\nyy\x1b[1J!\r\n" + d(0) + a, "e|0|!", "", false},
		{"RIS", a + "$ " + b + "r\r\n" + c + "\x00" + "x\r\n\x1bcnew\r\n" + d(0) + a, "r|0|new", "", false},
		{"erase on the alternate screen", a + "$ " + b + "v\r\n" + c + "x\r\n\x1b[?1049h\x1b[2Jvim\x1b[?1049l" + d(0) + a, "v|0|x", "", false},
	}
	for _, tt := range tests {
		term := NewTerminal(20, 5, 100)
		var st shellState
		for _, chunk := range strings.Split(tt.out, "\x00") { // the reads the session takes marks after
			term.Write([]byte(chunk))
			for _, m := range term.TakeShellMarks() {
				st.mark(term, m, time.Unix(0, 0))
			}
		}
		var got []string
		for _, cmd := range st.cmds {
			code := "-"
			if cmd.exitCode != nil {
				code = fmt.Sprint(*cmd.exitCode)
			}
			got = append(got, cmd.line+"|"+code+"|"+cmd.output)
		}
		if g, want := strings.Join(got, " / "), tt.want; g != want || st.cwd != tt.cwd || (st.running != nil) != tt.active {
			t.Errorf("%s: commands %q cwd %q running %v, want %q %q %v", tt.name, g, st.cwd, st.running != nil, want, tt.cwd, tt.active)
		}
	}
}

// TestCommandOutputAfterClear: a command that clears the screen has as
// output what it printed after the erase, in every shell.
func TestCommandOutputAfterClear(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			tests := []struct{ line, output string }{
				{"clear; echo hi", "hi"},
				{"echo a; clear; echo b", "b"},
				{"seq 1 60; clear; echo after", "after"},
				{"echo x; printf '\\033[H\\033[J'; echo y", "y"},
			}
			for _, tt := range tests {
				c := runCommand(t, a, id, tt.line, nil)
				if c["output"] != tt.output || c["truncated"] != false {
					t.Errorf("%s %q: output %q truncated %v, want %q", sh.name, tt.line, c["output"], c["truncated"], tt.output)
				}
			}
		})
	}
}

// TestCommandShellDies: a shell killed during a command ends it with the
// output so far and no exit_code; the command is listed and
// command_running turns false.
func TestCommandShellDies(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			pid := "$$"
			if sh.name == "fish" {
				pid = "$fish_pid"
			}
			line := "echo partial; kill -9 " + pid
			c := runCommand(t, a, id, line, nil)
			if c["line"] != line || c["output"] != "partial" || c["exit_code"] != nil || c["running"] != nil {
				t.Errorf("%s: the killed command: %v", sh.name, c)
			}
			info := readInfo(t, a, id)
			if info["command_running"] != false || info["exited"] != true {
				t.Errorf("%s: info after the kill: command_running %v exited %v", sh.name, info["command_running"], info["exited"])
			}
			s, _ := a.tools.session(id)
			if list := commandList(s.ID, s.commandsCopy()); len(list) != 1 || list[0].Line != line || list[0].ExitCode != nil || list[0].OutputBytes != len("partial") {
				t.Errorf("%s: commands %+v", sh.name, list)
			}
		})
	}
}

// TestShellStartSlowRC: a shell whose start-up file outlasts shell_start's
// wait is reported as not ready, and shell_wait {wait_for_command} then
// waits for its first prompt and answers already_done.
func TestShellStartSlowRC(t *testing.T) {
	t.Parallel()
	rcs := map[string]string{"bash": ".bashrc", "zsh": ".zshrc", "fish": ".config/fish/config.fish"}
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			needShell(t, sh.name)
			a := newTestApp(t)
			home := t.TempDir()
			gate := filepath.Join(home, "go")
			rc := filepath.Join(home, rcs[sh.name])
			if err := os.MkdirAll(filepath.Dir(rc), 0o700); err != nil {
				t.Fatal(err)
			}
			// The rc file waits for the test, not for a time.
			loop := "while [ ! -e " + gate + " ]; do sleep 0.05; done\n"
			if sh.name == "fish" {
				loop = "while not test -e " + gate + "; sleep 0.05; end\n"
			}
			if err := os.WriteFile(rc, []byte(loop), 0o600); err != nil {
				t.Fatal(err)
			}
			m := mustCall(t, a, "shell_start", map[string]any{"command": sh.name, "args": append([]string{}, sh.args...), "cwd": home,
				"env": map[string]string{"HOME": home, "ZDOTDIR": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config")}})
			id := m["shell_session_id"].(string)
			t.Cleanup(func() {
				if s, err := a.tools.session(id); err == nil {
					a.tools.stopSession(s, syscall.SIGHUP)
				}
			})
			if note, _ := m["note"].(string); m["ready"] != false || !strings.Contains(note, "no prompt yet") {
				t.Errorf("%s: shell_start with a slow rc: ready %v note %q", sh.name, m["ready"], note)
			}
			if err := os.WriteFile(gate, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			w := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true, "timeout_ms": 10000})
			if w["matched"] != true || w["already_done"] != true || w["command"] != nil {
				t.Errorf("%s: shell_wait before the first prompt: %v", sh.name, w)
			}
			if c := runCommand(t, a, id, "echo ok", nil); c["output"] != "ok" {
				t.Errorf("%s: echo ok after the slow start: %v", sh.name, c)
			}
		})
	}
}

// TestCommandPastedMultiLine: a multi-line command pasted at once (text)
// keeps its line breaks in command.line, in every shell.
func TestCommandPastedMultiLine(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			tests := []struct{ text, output string }{
				{"echo 'multi\nline string'", "multi\nline string"},
				{"echo 'a%0Ab' \"50%\"", "a%0Ab 50%"},
			}
			if sh.name != "fish" { // fish has no heredocs
				tests = append(tests, struct{ text, output string }{"cat <<'EOF'\nalpha\nbeta\nEOF", "alpha\nbeta"})
			}
			for _, tt := range tests {
				m := mustCall(t, a, "shell_send", inOrder("session_id", id, "text", tt.text, "input", "\r", "wait_for_command", true, "timeout_ms", 20000))
				c, _ := m["command"].(map[string]any) // text first, then Enter: in the order written
				if c == nil {
					t.Fatalf("%q: no command in %v", tt.text, m)
				}
				if c["line"] != tt.text || c["output"] != tt.output {
					t.Errorf("%s %q: line %q output %q, want the text and %q", sh.name, tt.text, c["line"], c["output"], tt.output)
				}
			}
		})
	}
}

// TestCommandNoFinalNewline: output that does not end its line is kept
// without the mark a shell draws after it (zsh's PROMPT_EOL_MARK, fish's
// ⏎).
func TestCommandNoFinalNewline(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			for _, line := range []string{"echo -n noeol", "printf 'a\\nb'"} {
				want := map[string]string{"echo -n noeol": "noeol", "printf 'a\\nb'": "a\nb"}[line]
				if c := runCommand(t, a, id, line, nil); c["output"] != want || exitCode(c) != 0 {
					t.Errorf("%s %q: output %q exit_code %v, want %q and 0", sh.name, line, c["output"], c["exit_code"], want)
				}
			}
			if sh.name == "zsh" { // the user's mark is still drawn, and a failing status still counts
				runCommand(t, a, id, "PROMPT_EOL_MARK='<EOL>'", nil)
				if c := runCommand(t, a, id, "printf x; false", nil); c["output"] != "x" || exitCode(c) != 1 {
					t.Errorf("zsh printf x; false: %v", c)
				}
				s, _ := a.tools.session(id)
				if scr := s.Text(false); !strings.Contains(scr, "x<EOL>") {
					t.Errorf("zsh: the user's PROMPT_EOL_MARK is not drawn: %q", scr)
				}
			}
		})
	}
}

// TestShellReadyForPaste: shell_start returns once the shell reads its
// line, not at its prompt mark alone: zsh turns bracketed paste on after
// drawing the prompt, and a text sent at once must be pasted.
func TestShellReadyForPaste(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			for i := range 10 {
				id := startShell(t, a, shell, "", nil, nil)
				s, _ := a.tools.session(id)
				if !s.Modes().BracketedPaste {
					t.Errorf("start %d: ready before the line editor turned bracketed paste on; screen %q", i, s.Text(false))
				}
				a.tools.stopSession(s, syscall.SIGHUP)
			}
		})
	}
}

// TestCommandEndsOnAltScreen: a program that exits with the alternate
// screen still on ends its command at the shell's marks, with its exit
// code, and the commands after it are each their own; the reply shows
// the screen, where the prompt is.
func TestCommandEndsOnAltScreen(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			id := startShell(t, a, sh.name, "", sh.args, nil)
			c := runCommand(t, a, id, `sh -c 'printf "\033[?1049hdrawn on alt"; exit 3'`, nil)
			if exitCode(c) != 3 {
				t.Errorf("the command that left the alternate screen on: %v, want exit 3", c)
			}
			r, m := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "printf 'next-%s\\n' 42\n", "wait_for_command": true, "timeout_ms": 10000})
			c, _ = m["command"].(map[string]any)
			if c == nil || c["line"] != `printf 'next-%s\n' 42` || exitCode(c) != 0 || !strings.Contains(r.Text, "next-42") {
				t.Errorf("the next command: %v; text %q", c, r.Text)
			}
			c = runCommand(t, a, id, "false", nil)
			if n := c["n"].(float64); exitCode(c) != 1 || n != 3 {
				t.Errorf("the third command: %v, want n 3 exit 1", c)
			}
		})
	}
}
