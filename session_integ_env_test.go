package main

// session_integ_env_test.go: the integration's nonce stays in the shell:
// prompt variables the wrappers mark (PS0, PS1, PS2, PROMPT_EOL_MARK)
// may be exported, by the server's environment, by the user's start-up
// files or by a command typed in the session, and no program the shell
// runs inherits a mark.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIntegrationNonceNotExported: with the prompt variables exported
// from shell_start's env, from the user's rc file or by a typed export,
// `env` shows no tw_nonce and prints no mark that ends the command: a
// command that runs env keeps its own exit code, in bash, zsh and fish.
func TestIntegrationNonceNotExported(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string // how the variables come to be exported
		shell string
		env   map[string]string // shell_start's env (the server's environment for the shell)
		rc    string            // the user's rc file
		typed string            // a command run before env
	}{
		{name: "env", shell: "bash", env: map[string]string{"PS0": "", "PS1": `env\$ `, "PS2": "> "}},
		{name: "rc", shell: "bash", rc: "export PS0='' PS1='rc\\$ ' PS2='>> '\n"},
		{name: "typed", shell: "bash", typed: "export PS1='typed\\$ ' PS2 PS0"},
		{name: "allexport", shell: "bash", rc: "set -a\nPS1='allexport\\$ '\n"},
		{name: "env", shell: "zsh", env: map[string]string{"PS1": "env%# ", "PROMPT_EOL_MARK": "<eol>"}},
		{name: "env PROMPT", shell: "zsh", env: map[string]string{"PROMPT": "env%# "}},
		{name: "rc", shell: "zsh", rc: "export PS1='rc%# ' PROMPT_EOL_MARK='<eol>'\n"},
		{name: "typed", shell: "zsh", typed: "export PS1='typed%# ' PROMPT_EOL_MARK='<eol>'"},
		{name: "allexport", shell: "zsh", rc: "setopt allexport\nPS1='allexport%# '\n"},
		{name: "env", shell: "fish", env: map[string]string{"PS1": `env\$ `, "PROMPT_EOL_MARK": "<eol>"}},
		{name: "rc universal", shell: "fish", rc: "set -gx PS1 'rc$ '\nset -Ux PROMPT_EOL_MARK '<eol>'\n"},
	}
	for _, tt := range tests {
		t.Run(tt.shell+"/"+tt.name, func(t *testing.T) {
			t.Parallel()
			checkNonceNotExported(t, tt.shell, tt.env, tt.rc, tt.typed)
		})
	}
}

// TestIntegrationNonceNotExportedServerEnv: the prompt variables
// exported in the server's own environment, which every session
// inherits, stay unmarked in the shell's programs too.
func TestIntegrationNonceNotExportedServerEnv(t *testing.T) {
	t.Setenv("PS1", "server$ ")
	t.Setenv("PS0", "")
	t.Setenv("PS2", "> ")
	t.Setenv("PROMPT_EOL_MARK", "<eol>")
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			checkNonceNotExported(t, shell, nil, "", "")
		})
	}
}

// checkNonceNotExported starts shell with env added to its environment
// and rc as its rc file, runs typed (when not ""), then env, and fails
// when a mark is in env's output or ends the command.
func checkNonceNotExported(t *testing.T, shell string, env map[string]string, rc, typed string) {
	t.Helper()
	rcFile := map[string]string{"bash": ".bashrc", "zsh": ".zshrc", "fish": ".config/fish/config.fish"}
	needShell(t, shell)
	a := newTestApp(t)
	home := t.TempDir()
	if rc != "" {
		p := filepath.Join(home, rcFile[shell])
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rc), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	all := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "ZDOTDIR": home, "HISTFILE": filepath.Join(home, ".hist")}
	for k, v := range env {
		all[k] = v
	}
	id := startShell(t, a, shell, home, nil, map[string]any{"env": all})
	if info := readInfo(t, a, id); info["shell_integration"].(map[string]any)["active"] != true {
		t.Fatalf("no integration: %v", info["shell_integration"])
	}
	if typed != "" {
		if c := runCommand(t, a, id, typed, nil); exitCode(c) != 0 {
			t.Fatalf("%q: %v", typed, c)
		}
	}
	out := filepath.Join(home, "env.out")
	if c := runCommand(t, a, id, "env > "+out, nil); exitCode(c) != 0 {
		t.Errorf("env > file: %v", c)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range strings.Split(string(b), "\n") {
		if strings.Contains(kv, "tw_nonce") || strings.Contains(kv, "133;") {
			t.Errorf("a mark is in the environment of the shell's programs: %q", kv)
		}
	}
	// env on the terminal: its output holds no mark to end the
	// command, which ends with its own status.
	if c := runCommand(t, a, id, "env; sh -c 'exit 3'", nil); exitCode(c) != 3 || c["running"] == true {
		t.Errorf("env; sh -c 'exit 3': exit_code %v, want 3: %v", c["exit_code"], c)
	}
	if c := runCommand(t, a, id, "echo after", nil); c["output"] != "after" || exitCode(c) != 0 {
		t.Errorf("the command after env: %v", c)
	}
}
