package main

import (
	"bytes"
	"encoding/base64"
	"image/gif"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

type promptList struct {
	Prompts []struct {
		Name, Title, Description string
		Arguments                []struct {
			Name, Description string
			Required          bool
		}
	}
	NextCursor string
}

type promptResult struct {
	Description string
	Messages    []struct {
		Role    string
		Content struct{ Type, Text string }
	}
}

func TestPromptsList(t *testing.T) {
	f := newResFixture(t)
	var r promptList
	f.mustCall(t, "prompts/list", nil, &r)
	var names []string
	for _, p := range r.Prompts {
		names = append(names, p.Name)
		if p.Title == "" || p.Description == "" {
			t.Errorf("%s: title %q, description %q", p.Name, p.Title, p.Description)
		}
		for _, a := range p.Arguments {
			if a.Description == "" {
				t.Errorf("%s: argument %s has no description", p.Name, a.Name)
			}
		}
	}
	if want := []string{"terminal-basics", "vim-edit", "record-session", "theme-selection", "tui-navigate", "ask-for-password", "write-regression-test"}; !slices.Equal(names, want) {
		t.Errorf("prompts %q, want %q", names, want)
	}
	if r.Prompts[1].Arguments[0].Name != "filename" || !r.Prompts[1].Arguments[0].Required {
		t.Errorf("vim-edit arguments %+v, want filename required", r.Prompts[1].Arguments)
	}
}

// toolArgs maps each tool to its argument names, from the tools' input
// schemas: the prompts may name no other tools or arguments.
func toolArgs(a *App) map[string][]string {
	m := map[string][]string{}
	for _, tool := range a.tools.list() {
		props, _ := tool.Input["properties"].(map[string]any)
		m[tool.Name] = slices.Collect(maps.Keys(props))
	}
	return m
}

func TestPromptsGet(t *testing.T) {
	f := newResFixture(t)
	toolArgs := toolArgs(f.app)
	call := regexp.MustCompile(`(shell_\w+) \{([^}]*(?:\{[^}]*\}[^}]*)?)\}`)
	argName := regexp.MustCompile(`(?:^|, )(\w+)`)
	for _, tc := range []struct {
		name string
		args map[string]string
		want []string // substrings of the message
	}{
		{"terminal-basics", nil, []string{"shell_start", "shell_send", `text: "ls -la\n"`, "wait_for_command: true", "wait_for", "shell_read", "shell_screenshot", "shell_stop", "keys"}},
		{"vim-edit", map[string]string{"filename": "src/notes.txt"}, []string{`args: ["src/notes.txt"]`, `wait_for: "notes.txt"`, `keys: [":", "w", "q", "Enter"]`, `keys: ["Escape"]`}},
		{"record-session", map[string]string{"task": "run make test", "theme": "dracula"}, []string{"run make test", `theme: "dracula"`, "shell_record_start", "shell_record_stop", "type_delay_ms"}},
		{"record-session", nil, []string{"shell_record_start", `format: "gif"`}},
		{"theme-selection", map[string]string{"background": "light"}, []string{"themes://list", "shell_start {theme:", themeList[0].Name, "light background"}},
		{"tui-navigate", nil, []string{`format: "styled"`, "shell_find", "style: {selected: true}", "shell_click", "timeout_ms", "keys"}},
		{"write-regression-test", map[string]string{"session_id": "shell-7", "path": "tests/help.tape"}, []string{"session://shell-7/tape", "Wait+Command exit=N", "Expect", "Snapshot NAME", "Mask /regex/", "ttywright test tests/help.tape --update", "--junit"}},
		{"write-regression-test", nil, []string{"session://{id}/tape", "testdata/tapes/NAME.tape"}},
	} {
		var r promptResult
		f.mustCall(t, "prompts/get", map[string]any{"name": tc.name, "arguments": tc.args}, &r)
		if len(r.Messages) != 1 || r.Messages[0].Role != "user" || r.Messages[0].Content.Type != "text" {
			t.Fatalf("%s: messages %+v", tc.name, r.Messages)
		}
		text := r.Messages[0].Content.Text
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: text lacks %q:\n%s", tc.name, w, text)
			}
		}
		// Every tool call the guide spells out uses real argument names.
		for _, m := range call.FindAllStringSubmatch(text, -1) {
			known, ok := toolArgs[m[1]]
			if !ok {
				t.Errorf("%s: unknown tool %s", tc.name, m[1])
				continue
			}
			inner := regexp.MustCompile(`\{[^}]*\}|\[[^\]]*\]|"[^"]*"`).ReplaceAllString(m[2], "")
			for _, a := range argName.FindAllStringSubmatch(inner, -1) {
				if !slices.Contains(known, a[1]) {
					t.Errorf("%s: %s has no argument %q (in %q)", tc.name, m[1], a[1], m[0])
				}
			}
		}
		for _, tool := range regexp.MustCompile(`shell_[a-z_]+`).FindAllString(strings.ReplaceAll(text, "shell_session_id", ""), -1) {
			if _, ok := toolArgs[tool]; !ok {
				t.Errorf("%s: names %s, which is no tool", tc.name, tool)
			}
		}
	}
}

func TestPromptsGetErrors(t *testing.T) {
	f := newResFixture(t)
	for _, tc := range []struct {
		name   string
		params any
	}{
		{"unknown prompt", map[string]any{"name": "nope"}},
		{"no name", map[string]any{}},
		{"missing required", map[string]any{"name": "vim-edit"}},
		{"blank required", map[string]any{"name": "vim-edit", "arguments": map[string]string{"filename": "  "}}},
		{"unknown argument", map[string]any{"name": "terminal-basics", "arguments": map[string]string{"x": "1"}}},
		{"unknown theme", map[string]any{"name": "record-session", "arguments": map[string]string{"theme": "neon"}}},
		{"argument not a string", map[string]any{"name": "vim-edit", "arguments": map[string]any{"filename": 3}}},
	} {
		if _, err := f.call(t, "prompts/get", tc.params); rpcCode(err) != codeInvalidParams {
			t.Errorf("%s: %v, want -32602", tc.name, err)
		}
	}
}

// TestPromptVimEditWorks follows the vim-edit guide step by step with the
// real tools and real vim, and checks the file it saved: the guide is
// accurate, not just well-formed.
func TestPromptVimEditWorks(t *testing.T) {
	vim, err := exec.LookPath("vim")
	if err != nil {
		t.Skip("vim is not installed")
	}
	dir := t.TempDir()
	c := &noteClient{testClient: startServer(t), t: t}
	c.initialize("2025-06-18")
	var g promptResult
	c.req("prompts/get", map[string]any{"name": "vim-edit", "arguments": map[string]string{"filename": "notes.txt"}}, &g)
	guide := g.Messages[0].Content.Text
	for _, step := range []string{`shell_start {command: "vim", args: ["notes.txt"]}`, `shell_wait {session_id, wait_for: "notes.txt"}`,
		`shell_send {session_id, keys: ["i"]}`, `shell_send {session_id, text: "the new lines\n"}`, `keys: ["Escape"]`, `shell_send {session_id, keys: [":", "w", "q", "Enter"], wait_idle_ms: 300}`} {
		if !strings.Contains(guide, step) {
			t.Fatalf("the guide no longer says %s; update this test with it:\n%s", step, guide)
		}
	}

	st := c.tool("shell_start", map[string]any{"command": vim, "args": []string{"notes.txt"}, "cwd": dir,
		"env": map[string]any{"HOME": dir}})
	id := st["shell_session_id"]
	if w := c.tool("shell_wait", map[string]any{"session_id": id, "wait_for": "notes.txt"}); w["matched"] != true {
		t.Fatalf("vim did not show the file name: %v", w)
	}
	c.tool("shell_send", map[string]any{"session_id": id, "keys": []string{"i"}})
	c.call("tools/call", map[string]any{"name": "shell_send", "arguments": inOrder("session_id", id, "text", "first line\nsecond line", "keys", []string{"Escape"})})
	c.tool("shell_send", map[string]any{"session_id": id, "keys": []string{"Escape"}})
	r := c.tool("shell_send", map[string]any{"session_id": id, "keys": []string{":", "w", "q", "Enter"}, "wait_idle_ms": 300})
	if r["exited"] != true {
		r = c.tool("shell_wait", map[string]any{"session_id": id, "timeout_ms": 5000})
	}
	if r["exited"] != true || r["exit_code"] != 0.0 {
		t.Errorf("after :wq: %v, want exited with exit_code 0", r)
	}
	b, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	if err != nil || string(b) != "first line\nsecond line\n" {
		t.Errorf("notes.txt = %q (%v), want the two lines typed", b, err)
	}
}

// TestPromptRecordSessionWorks follows the record-session guide with the
// real tools and fetches the GIF through the uri it is told to use.
func TestPromptRecordSessionWorks(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("records for 2 s")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	c := &noteClient{testClient: startServer(t), t: t}
	c.initialize("2025-06-18")
	var g promptResult
	c.req("prompts/get", map[string]any{"name": "record-session", "arguments": map[string]string{"task": "greet", "theme": "nord"}}, &g)
	guide := g.Messages[0].Content.Text
	for _, step := range []string{`shell_start {cols: 100, rows: 30, theme: "nord"}`, `shell_send {session_id, text: "clear\n", wait_idle_ms: 200}`,
		`shell_record_start {session_id, name: "demo", fps: 10}`, `type_delay_ms: 50`, `shell_wait {session_id, wait_idle_ms: 1000}`,
		`shell_record_stop {session_id, format: "gif"}`, `session://{id}/recordings/{name}`} {
		if !strings.Contains(guide, step) {
			t.Fatalf("the guide no longer says %s; update this test with it:\n%s", step, guide)
		}
	}

	st := c.tool("shell_start", map[string]any{"cols": 100, "rows": 30, "theme": "nord", "command": sh,
		"env": map[string]any{"PS1": "$ ", "ENV": ""}})
	id := st["shell_session_id"]
	c.tool("shell_send", map[string]any{"session_id": id, "text": "clear\n", "wait_idle_ms": 200})
	c.tool("shell_record_start", map[string]any{"session_id": id, "name": "demo", "fps": 10})
	c.tool("shell_send", map[string]any{"session_id": id, "input": `echo hi-$((2*3))\r`, "type_delay_ms": 50, "wait_for": "hi-6"})
	c.tool("shell_wait", map[string]any{"session_id": id, "wait_idle_ms": 1000})
	rec := c.tool("shell_record_stop", map[string]any{"session_id": id, "format": "gif"})
	uri, _ := rec["uri"].(string)
	if want := "session://" + id.(string) + "/recordings/demo"; uri != want {
		t.Errorf("shell_record_stop uri %q, want %q as the guide says", uri, want)
	}
	var r struct{ Contents []resourceContents }
	c.req("resources/read", map[string]any{"uri": uri}, &r)
	if len(r.Contents) != 1 || r.Contents[0].Blob == nil || r.Contents[0].MimeType != "image/gif" {
		t.Fatalf("reading %s: %+v", uri, r.Contents)
	}
	b, _ := base64.StdEncoding.DecodeString(*r.Contents[0].Blob)
	if anim, err := gif.DecodeAll(bytes.NewReader(b)); err != nil {
		t.Errorf("the recording is no GIF: %v", err)
	} else if len(anim.Image) < 2 {
		t.Errorf("the recording has %d frames; want an animated GIF of the typing", len(anim.Image))
	}
	c.tool("shell_stop", map[string]any{"session_id": id})
}

// TestGuidesNameRealArguments holds the server's instructions and the
// prompts to the tools: every shell_* they name is a tool, every argument
// in a "shell_x {a, b: ...}" example is one of its arguments, and they
// teach the preferred ones: text and keys to type, wait_for_command in a
// shell, never input for a command line nor the bufferBefore the replies
// no longer carry.
func TestGuidesNameRealArguments(t *testing.T) {
	a := newApp(Config{})
	props := map[string]map[string]any{}
	for _, tool := range a.tools.list() {
		props[tool.Name], _ = tool.Input["properties"].(map[string]any)
	}
	guides := map[string]string{"instructions": instructions}
	for _, p := range a.hub.prompts() {
		args := map[string]string{}
		for _, arg := range p.Arguments {
			args[arg.Name] = "x"
		}
		guides["prompt "+p.Name] = p.text(args)
	}
	example := regexp.MustCompile(`\b(shell_[a-z_]+)\b( \{((?:[^{}]|\{[^{}]*\})*)\})?`)
	for where, text := range guides {
		for _, m := range example.FindAllStringSubmatch(text, -1) {
			tool, body := m[1], m[3]
			if tool == "shell_session_id" { // the id shell_start returns
				continue
			}
			if _, ok := props[tool]; !ok {
				t.Errorf("%s names %s, which is no tool", where, tool)
				continue
			}
			for _, arg := range topLevelKeys(body) {
				if _, ok := props[tool][arg]; !ok {
					t.Errorf("%s: %s {%s}: %s has no argument %q", where, tool, body, tool, arg)
				}
			}
			if strings.Contains(body, "wait_for_command") && slices.Contains(topLevelKeys(body), "input") {
				t.Errorf("%s: %s {%s} types a command line with input: teach text", where, tool, body)
			}
		}
		if strings.Contains(text, "bufferBefore") {
			t.Errorf("%s mentions bufferBefore, which replies carry only with include_before", where)
		}
	}
	for _, where := range []string{"instructions", "prompt terminal-basics"} {
		for _, want := range []string{"text:", "keys:", "wait_for_command"} {
			if !strings.Contains(guides[where], want) {
				t.Errorf("%s does not teach %s", where, want)
			}
		}
	}
}

// topLevelKeys are the argument names of an example's body "a, b: 1, c:
// {d: 2}": each comma-separated entry outside nested braces, brackets and
// quotes, up to its colon.
func topLevelKeys(body string) []string {
	var keys []string
	depth, quoted, start := 0, false, 0
	flush := func(end int) {
		entry := strings.TrimSpace(body[start:end])
		if k, _, _ := strings.Cut(entry, ":"); strings.TrimSpace(k) != "" {
			keys = append(keys, strings.TrimSpace(k))
		}
	}
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '"':
			quoted = !quoted
		case quoted && c == '\\':
			i++
		case quoted:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			flush(i)
			start = i + 1
		}
	}
	flush(len(body))
	return keys
}
