package main

// session_integ_hooks_test.go: the integration's hooks against what a
// user does at the prompt of a real bash, zsh and fish: the prompt hooks
// and prompts replaced, appended to or removed at run time, by hand or by
// a prompt tool; exit; C-c at a prompt and during a command. Each step is
// a shell_send whose reply must report its own command, with its exit
// code and output, or no command where none ran; the user's own hooks
// keep running once a prompt, with the status of the user's command.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookStep is one shell_send of a hooks test and what its reply holds.
type hookStep struct {
	text  string   // typed, then Enter (text with a final newline)
	input string   // typed as input (escapes), before keys
	keys  []string // named keys, after the text or input
	// The reply's command: its line (text when ""), exit code (noCode:
	// none) and output.
	line    string
	code    int
	out     string
	typed   bool   // only typed: the wait is for the shell to read it (wait_for_input)
	none    bool   // no command ran, and the shell drew a new prompt (no_command)
	running bool   // the command still runs when the wait (300 ms) ends
	exit    int    // > 0: the shell exits with this code
	cwd     string // the session's directory after the step, when not ""
}

// hookTest is a shell, what the user's files hold, and the steps.
type hookTest struct {
	shell, name string
	rc          string            // the user's rc file
	files       map[string]string // more files in HOME
	steps       []hookStep
	log         string // then ~/pc.log, which the user's prompt hooks write
}

// noCode is hookStep.code for a command that ends without an exit code.
const noCode = -1

// promptTool is a prompt tool's bash init in the way of starship's: it
// saves the user's PROMPT_COMMAND into a variable of its own, replaces it
// with its function, which evals the saved copy with $? restored and then
// rebuilds PS1, and prepends to PS0.
const promptTool = `__pt_ret() { return "$1"; }
__pt_precmd() {
	__pt_status=$?
	__pt_ret "$__pt_status"
	if [[ -n ${PT_PROMPT_COMMAND-} ]]; then
		__pt_ret "$__pt_status"
		eval "$PT_PROMPT_COMMAND"
	fi
	PS1="tool[$__pt_status]> "
}
PS0='${__pt_e:$((__pt_t=1)):0}'"${PS0-}"
if [[ -z ${PROMPT_COMMAND-} ]]; then
	PROMPT_COMMAND=__pt_precmd
elif [[ $PROMPT_COMMAND != *__pt_precmd* ]]; then
	PT_PROMPT_COMMAND=$PROMPT_COMMAND
	PROMPT_COMMAND=__pt_precmd
fi
`

// TestIntegrationHooks: in each shell, commands keep their exit codes
// and output after the user changed the hooks or prompts at the prompt;
// exit ends its command with the session, in fish as in bash and zsh;
// C-c ends a running command with 130, and at a prompt gives a new
// prompt, not a command, whether the line was empty or not.
func TestIntegrationHooks(t *testing.T) {
	t.Parallel()
	tests := []hookTest{
		{shell: "bash", name: "PROMPT_COMMAND replaced", steps: []hookStep{
			{text: `PROMPT_COMMAND='echo "pc $?" >> ~/pc.log'`},
			{text: "false", code: 1},
			{text: "(exit 3)", code: 3},
			{text: "echo x", out: "x"},
		}, log: "pc 0\npc 1\npc 3\npc 0\n"},
		{shell: "bash", name: "PROMPT_COMMAND appended", rc: "PROMPT_COMMAND='echo rc >> ~/pc.log'\n", steps: []hookStep{
			// The prompt right after it has no B: the new element runs
			// after __tw_prompt and rebuilds PS1.
			{text: `PROMPT_COMMAND+=('echo "add $?" >> ~/pc.log; PS1="add\$ "')`, typed: true},
			{text: "false", code: 1},
			{text: "echo x", out: "x"},
		}, log: "rc\nrc\nadd 0\nrc\nadd 1\nrc\nadd 0\n"},
		{shell: "bash", name: "PROMPT_COMMAND unset", rc: "PROMPT_COMMAND='echo rc >> ~/pc.log'\n", steps: []hookStep{
			{text: "unset PROMPT_COMMAND"},
			{text: "false", code: 1},
			{keys: []string{"Enter"}, none: true},
			{text: "(exit 3)", code: 3},
			{text: "cd /", cwd: "/"},
		}, log: "rc\n"},
		{shell: "bash", name: "PROMPT_COMMAND array replaced", steps: []hookStep{
			{text: `PROMPT_COMMAND=(: 'echo "two $?" >> ~/pc.log')`},
			{text: "false", code: 1},
			{text: "echo x", out: "x"},
		}, log: "two 0\ntwo 1\ntwo 0\n"},
		{shell: "bash", name: "PS0 and PS1 replaced", steps: []hookStep{
			{text: `PS0='> '; PS1='new\$ '`},
			{text: "(exit 2)", code: 2, out: ">"}, // PS0 prints after C
			{text: "unset PS0", out: ">"},
			{text: "echo x", out: "x"},
		}},
		{shell: "bash", name: "prompt tool wraps PROMPT_COMMAND", rc: "PROMPT_COMMAND='echo \"rc $?\" >> ~/pc.log'\n",
			files: map[string]string{"tool.bash": promptTool}, steps: []hookStep{
				{text: ". ~/tool.bash"},
				{text: "(exit 3)", code: 3},
				{text: "echo x", out: "x"},
			}, log: "rc 0\nrc 0\nrc 3\nrc 0\n"},
		{shell: "bash", name: "prompts exported without the hooks", steps: []hookStep{
			{text: "unset PROMPT_COMMAND; export PS0 PS1 PS2"},
			{text: "env | grep -c -e tw_nonce -e '133;'", code: 1, out: "0"},
			{text: "set -a; PS1='a\\$ '; set +a"},
			{text: "env | grep -c -e tw_nonce -e '133;'", code: 1, out: "0"},
		}},
		{shell: "zsh", name: "PS1 and PROMPT_EOL_MARK replaced", steps: []hookStep{
			{text: "PS1='new%# ' PROMPT_EOL_MARK='<eol>'"},
			{text: "printf ab; false", code: 1, out: "ab"},
			{text: "echo x", out: "x"},
		}},
		{shell: "fish", name: "fish_prompt replaced", steps: []hookStep{
			{text: "function fish_prompt; echo -n 'new> '; end"},
			{text: "false", code: 1},
			{text: "echo x", out: "x"},
		}},
		{shell: "bash", name: "exit", steps: []hookStep{
			{text: "echo a", out: "a"},
			{text: "exit 4", code: noCode, out: "exit", exit: 4},
		}},
		{shell: "zsh", name: "exit", steps: []hookStep{
			{text: "echo a", out: "a"},
			{text: "exit 4", code: noCode, exit: 4},
		}},
		{shell: "fish", name: "exit", steps: []hookStep{
			{text: "echo a", out: "a"},
			{text: "exit 4", code: noCode, exit: 4},
		}},
		{shell: "fish", name: "exit that does not exit", files: map[string]string{"stop.fish": "echo one\nexit 2\necho two\n"}, steps: []hookStep{
			{text: "source ~/stop.fish", code: 2, out: "one"},
			{text: "false; exit", code: noCode, exit: 1},
		}},
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		tests = append(tests, hookTest{shell: shell, name: "C-c", steps: []hookStep{
			{keys: []string{"C-c"}, none: true},
			{text: "echo a", out: "a"},
			{text: "sleep 100", running: true},
			{keys: []string{"C-c"}, line: "sleep 100", code: 130, out: "^C"},
			{keys: []string{"C-c"}, none: true},
			{input: "echo typed", typed: true},
			{keys: []string{"C-c"}, none: true},
			{text: "echo b", out: "b"},
		}})
	}
	for _, tt := range tests {
		t.Run(tt.shell+"/"+tt.name, func(t *testing.T) {
			t.Parallel()
			needShell(t, tt.shell)
			a := newTestApp(t)
			home := t.TempDir()
			files := map[string]string{}
			for name, text := range tt.files {
				files[name] = text
			}
			if tt.rc != "" {
				files[map[string]string{"bash": ".bashrc", "zsh": ".zshrc", "fish": ".config/fish/config.fish"}[tt.shell]] = tt.rc
			}
			for name, text := range files {
				p := filepath.Join(home, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			id := startShell(t, a, tt.shell, home, nil, nil)
			for i, st := range tt.steps {
				if !checkHookStep(t, a, id, st) {
					t.Fatalf("step %d failed; the screen: %q", i+1, screenOf(a, id))
				}
			}
			if tt.log != "" {
				b, _ := os.ReadFile(filepath.Join(home, "pc.log"))
				if string(b) != tt.log {
					t.Errorf("the user's prompt hooks wrote %q, want %q (once a prompt, with the status of the command)", b, tt.log)
				}
			}
		})
	}
}

// checkHookStep sends st to session id and reports whether the reply was
// as st says (the failures are logged).
func checkHookStep(t *testing.T, a *App, id string, st hookStep) bool {
	t.Helper()
	in := map[string]any{"session_id": id, "wait_for_command": true, "timeout_ms": 20000}
	switch {
	case st.text != "":
		in["text"] = st.text + "\n"
	case st.input != "":
		in["input"] = st.input
	}
	if len(st.keys) > 0 {
		in["keys"] = st.keys
	}
	if st.running {
		in["timeout_ms"] = 300
	}
	if st.typed {
		delete(in, "wait_for_command")
		in["wait_for_input"] = true
	}
	what := st.text + st.input + strings.Join(st.keys, " ")
	m := mustCall(t, a, "shell_send", in)
	c, _ := m["command"].(map[string]any)
	ok := true
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%q: "+format, append([]any{what}, args...)...)
		ok = false
	}
	line := st.line
	if line == "" {
		line = st.text
	}
	switch {
	case st.typed:
		if m["matched"] != true {
			fail("the shell did not read it: %v", m)
		}
	case st.none:
		if m["no_command"] != true || c != nil || m["timed_out"] == true {
			fail("want no command and a new prompt: %v", m)
		}
	case c == nil:
		fail("no command in %v", m)
	case st.running:
		if m["timed_out"] != true || c["running"] != true || c["line"] != line {
			fail("want %q still running: %v", line, m)
		}
	default:
		out, _ := c["output"].(string)
		if m["timed_out"] == true || c["running"] == true || c["line"] != line || exitCode(c) != st.code || strings.TrimSpace(out) != st.out {
			fail("command %v, want line %q exit_code %d output %q", c, line, st.code, st.out)
		}
	}
	if st.exit > 0 {
		if code, _ := m["exit_code"].(float64); m["exited"] != true || int(code) != st.exit {
			fail("want the shell exited with %d: exited %v exit_code %v", st.exit, m["exited"], m["exit_code"])
		}
	} else if m["exited"] == true {
		fail("the shell exited: %v", m)
	}
	if st.cwd != "" {
		if got := readInfo(t, a, id)["cwd"]; got != st.cwd {
			fail("cwd %v, want %s", got, st.cwd)
		}
	}
	return ok
}

// screenOf is session id's screen text, for a failure message.
func screenOf(a *App, id string) string {
	s, err := a.tools.session(id)
	if err != nil {
		return err.Error()
	}
	return s.Text(false)
}
