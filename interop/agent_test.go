package interop

// agent_test.go: everyday tasks replayed as an agent that reads only the
// tool definitions and the replies would call them, through the official
// Go SDK client: each task is the shortest list of calls the texts lead
// to, and each reply must say what the next call needs, with no false
// "done".

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// agentStep is one call: the tool, its arguments (session_id names a
// session an earlier step started with as), the patterns its text block
// must match, and as, the name a shell_start step gives its session.
type agentStep struct {
	tool string
	args map[string]any
	want []string // regular expressions
	as   string
}

// notDone are the words of a reply whose wait did not do what was asked.
var notDone = regexp.MustCompile(`TIMED OUT|NOT MATCHED|NOT READ YET|NO COMMAND`)

// replay makes the calls of steps in order in dir and returns the
// structured result of each.
func (s *server) replay(dir string, steps []agentStep) []map[string]any {
	s.t.Helper()
	ids := map[string]string{}
	var out []map[string]any
	for i, st := range steps {
		args := map[string]any{}
		for k, v := range st.args {
			args[k] = v
		}
		if name, ok := args["session_id"].(string); ok {
			args["session_id"] = ids[name]
		}
		if st.tool == "shell_start" {
			args["cwd"] = dir
			args["env"] = map[string]any{"PS1": prompt, "HISTFILE": "/dev/null", "HOME": dir, "LC_ALL": "C.UTF-8"}
		}
		res := s.callRaw(st.tool, args)
		text := textOf(res)
		if res.IsError || notDone.MatchString(text) {
			s.t.Fatalf("step %d %s %v: %s", i+1, st.tool, st.args, text)
		}
		for _, w := range st.want {
			if !regexp.MustCompile(w).MatchString(text) {
				s.t.Errorf("step %d %s %v: the reply does not match %q:\n%s", i+1, st.tool, st.args, w, text)
			}
		}
		m := structured(s.t, res)
		if st.as != "" {
			ids[st.as], _ = m["shell_session_id"].(string)
		}
		out = append(out, m)
	}
	return out
}

// bash is the shell_start step of a bash session named as.
func bash(as string) agentStep {
	return agentStep{tool: "shell_start", args: map[string]any{"command": "/bin/bash", "args": []string{"--norc", "--noprofile", "-i"}}, as: as}
}

// send is a shell_send step in session A.
func send(args map[string]any, want ...string) agentStep {
	args["session_id"] = "A"
	return agentStep{tool: "shell_send", args: args, want: want}
}

// TestAgentTasks: a send then a wait on a delayed echo (twice: the
// second wait never answers with the first's output), a dev server and a
// second terminal, a file written in vim, a git rebase -i squash, a
// dialog checklist, a search in less and a process killed from htop, each
// in the fewest calls, the selected row found by one locator.
func TestAgentTasks(t *testing.T) {
	t.Parallel()
	finished := send(map[string]any{"text": "sleep 1; echo finished\n"})
	waitFinished := agentStep{tool: "shell_wait", args: map[string]any{"session_id": "A", "wait_for": "finished"},
		want: []string{`^done: wait_for "finished" matched\n`, `(?m)^finished$`}}
	commandEnd := agentStep{tool: "shell_wait", args: map[string]any{"session_id": "A", "wait_for_command": true}, want: []string{`^command \d+ (had already )?exited 0 `}}
	selected := func(text string) agentStep {
		return agentStep{tool: "shell_find", args: map[string]any{"session_id": "A", "style": map[string]any{"selected": true}, "text": text},
			want: []string{`"count":1`}}
	}
	commandOK := `^command \d+ exited 0 `
	tasks := []struct {
		name     string
		programs []string
		steps    []agentStep
	}{
		// The command's end between the rounds: a line typed while a
		// command still runs is drawn again by bash after its next prompt,
		// and that redraw counts as output (README, Waits).
		{"send then wait on a delayed echo", nil, []agentStep{bash("A"), finished, waitFinished, commandEnd, finished, waitFinished}},
		{"a dev server and a second terminal", []string{"python3", "curl"}, []agentStep{
			bash("A"),
			send(map[string]any{"text": "python3 -m http.server 18765 --bind 127.0.0.1\n", "wait_for": "Serving HTTP"}, `^done: wait_for "Serving HTTP" matched`),
			bash("B"),
			{tool: "shell_send", args: map[string]any{"session_id": "B", "text": "curl -s 127.0.0.1:18765/ | grep -c notes\n", "wait_for_command": true}, want: []string{commandOK, `(?m)^1$`}},
			send(map[string]any{"keys": []string{"C-c"}, "wait_for_command": true}, `^command \d+ exited`),
		}},
		{"a file written in vim", []string{"vim"}, []agentStep{
			bash("A"),
			send(map[string]any{"text": "vim --clean new.md\n", "wait_for_input": true}, `^done: wait_for_input`),
			send(map[string]any{"keys": []string{"i"}, "text": "# Notes\nfirst line", "wait_for_input": true}, `(?m)^first line`),
			send(map[string]any{"keys": []string{"Escape"}, "wait_for_input": true}),
			send(map[string]any{"input": ":wq\r", "wait_for_command": true}, commandOK),
			send(map[string]any{"text": "cat new.md\n", "wait_for_command": true}, commandOK, `# Notes\nfirst line\n`),
		}},
		{"a git rebase -i squash", []string{"git", "vim"}, []agentStep{
			bash("A"),
			send(map[string]any{"text": "export GIT_EDITOR='vim -u NONE' GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@b; " +
				"git init -q r && cd r && for i in 1 2 3; do echo $i > f; git add f; git commit -qm c$i; done\n", "wait_for_command": true}, commandOK),
			send(map[string]any{"text": "git rebase -i HEAD~2\n", "wait_for_input": true}, `(?m)^pick .* c3$`),
			send(map[string]any{"input": ":2s/^pick/squash/\r:wq\r", "wait_for_input": true}, `This is a combination of 2 commits`),
			send(map[string]any{"input": ":wq\r", "wait_for_command": true}, commandOK),
			send(map[string]any{"text": "git log --format=%s | wc -l\n", "wait_for_command": true}, `(?m)^2$`),
		}},
		{"a dialog checklist", []string{"dialog"}, []agentStep{
			bash("A"),
			send(map[string]any{"text": "dialog --checklist Pick 12 40 3 a Apple off b Banana off c Cherry off 2>out.txt\n", "wait_for_input": true}, `Banana`),
			selected("Apple"),
			send(map[string]any{"keys": []string{"Down", "Space", "Enter"}, "wait_for_command": true}, commandOK),
			send(map[string]any{"text": "cat out.txt; echo\n", "wait_for_command": true}, `(?m)^b$`),
		}},
		{"a search in less", []string{"less"}, []agentStep{
			bash("A"),
			send(map[string]any{"text": "seq 1 1000 > n.txt; less n.txt\n", "wait_for_input": true}, `(?m)^1$`),
			send(map[string]any{"input": "/^500$\r", "wait_for_input": true}, `(?m)^500$`),
			selected("500"),
			send(map[string]any{"keys": []string{"q"}, "wait_for_command": true}, commandOK),
		}},
		{"a process killed from htop", []string{"htop"}, []agentStep{
			bash("A"),
			send(map[string]any{"text": "sleep 4321 &\n", "wait_for_command": true}, commandOK),
			send(map[string]any{"text": "htop\n", "wait_for_input": true}, `F10`),
			send(map[string]any{"keys": []string{"F4"}, "text": "sleep 4321\n", "wait_for_input": true}, `sleep 4321`),
			selected("sleep 4321"),
			send(map[string]any{"keys": []string{"F9", "Enter"}, "wait_for_input": true}),
			send(map[string]any{"keys": []string{"q"}, "wait_for_command": true}, commandOK),
			send(map[string]any{"text": "pgrep -fx 'sleep 4321'; echo alive=$?\n", "wait_for_command": true}, `(?m)^alive=1$`),
		}},
	}
	for _, tt := range tasks {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range tt.programs {
				needProgram(t, p)
			}
			s := startServer(t)
			dir := t.TempDir()
			must(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x\n"), 0o644))
			got := s.replay(dir, tt.steps)
			if tt.name == "send then wait on a delayed echo" {
				for i, want := range map[int]int{2: 1, 5: 2} {
					if n := strings.Count(got[i]["buffer"].(string), "\nfinished"); n != want {
						t.Errorf("step %d: %d lines of finished on the screen, want %d:\n%s", i+1, n, want, got[i]["buffer"])
					}
				}
			}
			t.Logf("%s: %d calls", tt.name, len(tt.steps))
		})
	}
}
