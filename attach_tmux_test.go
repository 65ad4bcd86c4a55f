//go:build unix

package main

// attach_tmux_test.go: ttywright attach in a real terminal. tmux runs
// `ttywright attach shell-1` in a pane against a server process; what the
// pane shows (capture-pane with colours, read back through the emulator)
// must equal the session's screen (its .ansi screenshot, read the same
// way) cell for cell after ls, vim and htop ran; then the person takes
// the keyboard in tmux, types a command and gives it back, and the agent
// is told.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxPane is a tmux server of the test's own with one 80x25 pane.
type tmuxPane struct {
	t    *testing.T
	sock string
}

// startTmux runs command in a pane of a tmux server private to the test.
func startTmux(t *testing.T, command string) *tmuxPane {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	os.WriteFile(conf, []byte("set -g status off\nset -g default-terminal tmux-256color\n"), 0o600)
	p := &tmuxPane{t: t, sock: filepath.Join(dir, "tmux.sock")}
	p.run("-f", conf, "new-session", "-d", "-s", "w", "-x", "80", "-y", "25", command)
	t.Cleanup(func() { exec.Command("tmux", "-S", p.sock, "kill-server").Run() })
	return p
}

func (p *tmuxPane) run(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", p.sock}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// keys types into the pane as the person would.
func (p *tmuxPane) keys(keys ...string) { p.run(append([]string{"send-keys", "-t", "w"}, keys...)...) }

// screen is what the pane shows, read back through the emulator.
func (p *tmuxPane) screen() *Snapshot {
	out := p.run("capture-pane", "-p", "-e", "-N", "-t", "w")
	term := NewTerminal(80, 25, 0)
	term.Write([]byte(strings.ReplaceAll(strings.TrimSuffix(out, "\n"), "\n", "\r\n")))
	return term.Snapshot()
}

// sessionScreen is the session's screen as its .ansi screenshot has it.
func sessionScreen(t *testing.T, c *testClient, id string, n int) *Snapshot {
	t.Helper()
	m := c.mustTool("shell_screenshot", map[string]any{"session_id": id, "name": fmt.Sprintf("cmp-%d", n)})
	b, err := os.ReadFile(m["ansi_path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	term := NewTerminal(80, 24, 0)
	term.Write([]byte(strings.ReplaceAll(strings.TrimSuffix(string(b), "\n"), "\n", "\r\n")))
	return term.Snapshot()
}

// cellDiff is the first cell where pane and session differ in text,
// colours or the attributes a terminal shows, or "". The foreground of a
// blank is not shown (the .ansi screenshot leaves trailing blanks out, so
// it does not keep it either), unless an underline or inverse draws it.
func cellDiff(pane, sess *Snapshot) string {
	const shown = AttrBold | AttrDim | AttrItalic | AttrUnderline | AttrInverse
	for row := 0; row < sess.Rows; row++ {
		for col := 0; col < sess.Cols; col++ {
			a, b := pane.Cells[row*pane.Cols+col], sess.Cells[row*sess.Cols+col]
			ra, rb := max(a.Rune, ' '), max(b.Rune, ' ')
			fgShown := ra != ' ' || (a.Attr|b.Attr)&(AttrUnderline|AttrInverse) != 0
			if ra != rb || fgShown && a.FG != b.FG || a.BG != b.BG || a.Attr&shown != b.Attr&shown && fgShown {
				return fmt.Sprintf("row %d col %d: pane %q fg %x bg %x attr %x, session %q fg %x bg %x attr %x",
					row, col, ra, a.FG, a.BG, a.Attr&shown, rb, b.FG, b.BG, b.Attr&shown)
			}
		}
	}
	return ""
}

// samePicture waits until the pane shows the session's screen, cell for
// cell; it logs how long that took after the change.
func samePicture(t *testing.T, p *tmuxPane, c *testClient, id, what string) {
	t.Helper()
	changed := time.Now()
	var diff string
	for n := 0; time.Since(changed) < 20*time.Second; n++ {
		if diff = cellDiff(p.screen(), sessionScreen(t, c, id, n)); diff == "" {
			t.Logf("%s: the pane showed the session's screen %v after the change", what, time.Since(changed).Round(time.Millisecond))
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	raw := p.run("capture-pane", "-p", "-e", "-N", "-t", "w")
	t.Fatalf("%s: the pane never showed the session's screen: %s\n%q", what, diff, strings.Split(raw, "\n")[:4])
}

// readResource returns a resource's text.
func readResource(t *testing.T, c *testClient, uri string) string {
	t.Helper()
	r := c.call("resources/read", map[string]any{"uri": uri})
	var res struct{ Contents []struct{ Text string } }
	if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || len(res.Contents) == 0 {
		t.Fatalf("resources/read %s: %+v", uri, r.Error)
	}
	return res.Contents[0].Text
}

// waitResource polls a resource until ok holds for its text.
func waitResource(t *testing.T, c *testClient, uri string, ok func(string) bool) string {
	t.Helper()
	for end := time.Now().Add(stuckAfter); ; time.Sleep(20 * time.Millisecond) {
		if text := readResource(t, c, uri); ok(text) {
			return text
		}
		if time.Now().After(end) {
			t.Fatalf("%s never became what the test waits for", uri)
		}
	}
}

func TestAttachTmux(t *testing.T) {
	needShell(t, "bash")
	bin := serverBinary(t)
	runDir := t.TempDir()
	c := startProcWith(t, bin, func(cmd *exec.Cmd) { cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+runDir) },
		"--cols", "80", "--rows", "24", "--output-dir", t.TempDir())
	id := startShellOver(t, c, "bash")
	c.mustTool("shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
	p := startTmux(t, fmt.Sprintf("env XDG_RUNTIME_DIR=%s %s attach %s; echo DETACHED; sleep 600", runDir, bin, id))
	waitResource(t, c, infoURI(id).String(), func(s string) bool { return strings.Contains(s, `"viewers":1`) })

	c.mustTool("shell_send", map[string]any{"session_id": id, "text": "ls --color=always /usr /etc | head -30\n", "wait_for_command": true})
	samePicture(t, p, c, id, "ls")
	script := filepath.Join(t.TempDir(), "demo.sh")
	os.WriteFile(script, []byte("#!/bin/sh\n# a comment\nfor i in 1 2 3; do\n  echo \"number $i\" && ls /tmp\ndone\n"), 0o600)
	c.mustTool("shell_send", map[string]any{"session_id": id, "text": "vim -u DEFAULTS -i NONE -c 'syntax on' " + script + "\n", "wait_for": "a comment", "wait_idle_ms": 300})
	samePicture(t, p, c, id, "vim")
	c.mustTool("shell_send", map[string]any{"session_id": id, "input": "\x1b:q!\r", "wait_for_command": true})
	if _, err := exec.LookPath("htop"); err == nil {
		c.mustTool("shell_send", map[string]any{"session_id": id, "text": "htop -d 600\n", "wait_for": "Load average", "wait_idle_ms": 500})
		samePicture(t, p, c, id, "htop")
		c.mustTool("shell_send", map[string]any{"session_id": id, "text": "q", "wait_for_command": true})
	}
	attachTakeOver(t, p, c, id)
}

// attachTakeOver: the person takes the keyboard in tmux, the agent is
// refused, the person types a command and gives the keyboard back; the
// agent's next reply says person_typed and the commands list it by the
// person; a detach leaves the program running.
func attachTakeOver(t *testing.T, p *tmuxPane, c *testClient, id string) {
	t.Helper()
	p.keys("C-]", "t")
	waitResource(t, c, infoURI(id).String(), func(s string) bool { return strings.Contains(s, `"keyboard":"person"`) })
	if _, text, isErr := c.tool("shell_send", map[string]any{"session_id": id, "text": "echo agent\n"}); !isErr || !strings.Contains(text, "a person is typing") {
		t.Errorf("shell_send while the person holds the keyboard: isError %v, %q", isErr, text)
	}
	p.keys("echo by-person-$((6*7))", "Enter")
	waitResource(t, c, bufferURI(id).String(), func(s string) bool { return strings.Contains(s, "\nby-person-42\n") })
	waitResource(t, c, commandsURI(id).String(), func(s string) bool { return strings.Contains(s, "by-person") })
	p.keys("C-]", "g")
	waitResource(t, c, infoURI(id).String(), func(s string) bool { return strings.Contains(s, `"keyboard":"agent"`) })
	m := c.mustTool("shell_read", map[string]any{"session_id": id})
	if m["person_typed"] != true || m["keyboard"] != holderAgent || m["viewers"] != float64(1) {
		t.Errorf("the agent's next reply: person_typed %v keyboard %v viewers %v", m["person_typed"], m["keyboard"], m["viewers"])
	}
	var cmds []commandJSON
	json.Unmarshal([]byte(readResource(t, c, commandsURI(id).String())), &cmds)
	found := false
	for _, cmd := range cmds {
		switch {
		case strings.Contains(cmd.Line, "by-person"):
			found = cmd.By == holderPerson
		case cmd.By != "":
			t.Errorf("the agent's command %q has by %q", cmd.Line, cmd.By)
		}
	}
	if !found {
		t.Errorf("the person's command is not in the commands by person: %+v", cmds)
	}
	p.keys("C-]", "d")
	for end := time.Now().Add(stuckAfter); !strings.Contains(p.run("capture-pane", "-p", "-t", "w"), "DETACHED"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("Ctrl-] d did not detach")
		}
	}
	m = c.mustTool("shell_read", map[string]any{"session_id": id})
	if m["exited"] != false || m["viewers"] != nil {
		t.Errorf("after the detach: exited %v viewers %v", m["exited"], m["viewers"])
	}
}
