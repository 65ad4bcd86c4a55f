package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// genStep is one step of a codegen case: the tool, its arguments and the
// reply's structured JSON (as the tool returned it).
type genStep struct {
	tool, args, reply string
	isError           bool
}

// genTrace builds a session's steps from a case, as Run records them:
// each tool's step form (Tool.stepOf) over the arguments and reply,
// decoded into the tool's own types.
func genTrace(t testing.TB, meta traceMeta, steps []genStep) *sessionTrace {
	t.Helper()
	tr := newSessionTrace(meta, false)
	for _, s := range steps {
		v, ok := stepFromJSON(s.tool, s.args, s.reply, s.isError)
		if !ok {
			t.Fatalf("no tool %q", s.tool)
		}
		tr.Add(traceStep{Tool: s.tool, Args: redactArgs(json.RawMessage(s.args)), Start: meta.Started, stepView: v}, nil, nil)
	}
	return tr
}

// stepTools are the tools, for stepFromJSON.
var stepTools = sync.OnceValue(func() []*Tool { return newToolbox(ToolsConfig{}, nil, nil).list() })

// stepFromJSON is what the step form of the tool called name makes of a
// call with the JSON arguments args that replied reply (the structured
// JSON, or with isError the error's text); false for no such tool.
// JSON that does not decode leaves the fields it did not reach zero.
func stepFromJSON(name, args, reply string, isError bool) (stepView, bool) {
	var tool *Tool
	for _, tl := range stepTools() {
		if tl.Name == name {
			tool = tl
		}
	}
	if tool == nil {
		return stepView{}, false
	}
	in, out := reflect.New(tool.argsType), reflect.New(tool.resultType)
	_ = json.Unmarshal([]byte(args), in.Interface())
	if !isError {
		_ = json.Unmarshal([]byte(reply), out.Interface())
	}
	v := tool.stepOf(in.Elem().Interface(), out.Elem().Interface())
	if isError {
		v = v.failed(reply)
	}
	return v, true
}

// TestGenTape writes tapes from steps and compares them with
// testdata/tapes/gen/NAME.tape (go test -run TestGenTape -update .).
func TestGenTape(t *testing.T) {
	bash := traceMeta{ID: "shell-1", Command: "bash", Args: []string{}, Shell: "bash", Cols: 120, Rows: 40, Started: time.Unix(0, 0)}
	vim := traceMeta{ID: "shell-2", Command: "vim", Args: []string{"notes.txt"}, Cols: 80, Rows: 24, Started: time.Unix(0, 0)}
	dialog := traceMeta{ID: "shell-3", Command: "dialog", Args: []string{"--menu", "Pick one", "12", "40", "4", "a", "Apple", "b", "Banana"}, Cols: 80, Rows: 24, Started: time.Unix(0, 0)}
	tests := []struct {
		name  string
		meta  traceMeta
		steps []genStep
	}{
		{"commands", bash, []genStep{
			{"shell_start", `{"command":"bash","cwd":"/tmp/my dir","env":{"LANG":"C","GITHUB_TOKEN":"ghp_x"}}`, `{"shell_session_id":"shell-1","command":"bash","args":[],"shell_integration":{"active":true,"shell":"bash"},"ready":true,"screen":"$ "}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"ls --help\n","wait_for_command":true}`, `{"command":{"n":1,"line":"ls --help","exit_code":0}}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"test -e nope\n","wait_for_command":true,"timeout_ms":5000}`, `{"command":{"n":2,"line":"test -e nope","exit_code":1}}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"cat <<'EOF'\na \"b\" 'c' ` + "`d`" + `\nEOF\n","wait_for_command":true}`, `{"command":{"n":3,"line":"cat","exit_code":0}}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"ls -l\n"}`, `{}`, false},
			{"shell_wait", `{"session_id":"shell-1","wait_for_command":true}`, `{"command":{"n":4,"line":"ls -l","exit_code":0,"output":"total 8\n-rw-r--r-- 1 me me 42 Jan  1 12:00 notes.txt\n\n"}}`, false},
			{"shell_wait", `{"session_id":"shell-1","wait_for_command":true}`, `{"already_done":true,"command":{"n":4,"line":"ls -l","exit_code":0,"output":"total 8"}}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"echo )\n","wait_for_command":true}`, `{"no_command":true}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"sleep 9\n","wait_for_command":true,"timeout_ms":1000}`, `{"timed_out":true,"matched":false}`, false},
			{"shell_send", `{"session_id":"shell-1","keys":["C-c"],"wait_for":"/\\$ $/"}`, `{"matched":true}`, false},
			{"shell_screenshot", `{"session_id":"shell-1","name":"done"}`, `{"filename":"done.png"}`, false},
			{"shell_read", `{"session_id":"shell-1"}`, `{}`, false},
			{"shell_send", `{"session_id":"nope"}`, `shell_send: no session "nope"`, true},
			{"shell_stop", `{"session_id":"shell-1"}`, `{"success":true}`, false},
		}},
		{"vim", vim, []genStep{
			{"shell_start", `{"command":"vim","args":["notes.txt"]}`, `{"shell_session_id":"shell-2","command":"vim","args":["notes.txt"],"ready":true,"screen":"\n~\n~\n\"notes.txt\" [New]"}`, false},
			{"shell_send", `{"session_id":"shell-2","keys":["i"],"wait_for":"-- INSERT --"}`, `{"matched":true}`, false},
			{"shell_send", `{"session_id":"shell-2","text":"hello\tworld","type_delay_ms":50,"wait_stable_ms":200}`, `{"matched":true}`, false},
			{"shell_send", `{"session_id":"shell-2","input":"\\e:wq\\r","wait_for_gone":"-- INSERT --","timeout_ms":2000}`, `{"matched":true}`, false},
			{"shell_wait", `{"session_id":"shell-2","wait_for":"/written/i"}`, `{"matched":true}`, false},
		}},
		{"dialog", dialog, []genStep{
			{"shell_start", `{"command":"dialog","args":["--menu","Pick one","12","40","4","a","Apple","b","Banana"]}`, `{"shell_session_id":"shell-3","command":"dialog","args":["--menu","Pick one","12","40","4","a","Apple","b","Banana"],"ready":true,"screen":"  Pick one\n  a  Apple\n  b  Banana\n  <  OK  >  <Cancel>"}`, false},
			{"shell_send", `{"session_id":"shell-3","keys":["Down","Down","Down","Up","S-Tab","F5","M-x","^D"],"wait_for_input":true}`, `{"matched":true}`, false},
			{"shell_click", `{"session_id":"shell-3","text":"Banana","wait_for":"Banana"}`, `{"row":8,"col":20,"matched":true}`, false},
			{"shell_click", `{"session_id":"shell-3","row":12,"col":30,"button":"right"}`, `{"row":12,"col":30}`, false},
			{"shell_send", `{"session_id":"shell-3","input":"\\e[B\\e[A\\x7f\\x01"}`, `{}`, false},
			{"shell_resize", `{"session_id":"shell-3","cols":100,"rows":30}`, `{"cols":100,"rows":30}`, false},
			{"shell_ask_secret", `{"session_id":"shell-3","message":"password"}`, `{"delivered":true,"url":"http://127.0.0.1:1/s/token"}`, false},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := genTape(genTrace(t, tc.meta, tc.steps))
			for _, secret := range []string{"ghp_x", "token"} {
				if strings.Contains(got, secret) {
					t.Errorf("the tape holds %q", secret)
				}
			}
			path := filepath.Join("testdata", "tapes", "gen", tc.name+".tape")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -run TestGenTape -update . writes it)", err)
			}
			if got != string(want) {
				t.Errorf("tape differs from %s (-update rewrites it):\n%s", path, got)
			}
		})
	}
}

// TestTapeSplit: a text is cut where a tape string could not hold it
// whole (all three quote characters), and each part is written with a
// quote it does not hold.
func TestTapeSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`plain`, []string{`"plain"`}},
		{`say "hi"`, []string{`'say "hi"'`}},
		{`it's "x"`, []string{"`it's \"x\"`"}},
		{"a\"b'c`d", []string{"`a\"b'c`", "\"`d\""}},
	}
	for _, tc := range tests {
		var got []string
		for _, part := range tapeSplit(tc.in) {
			got = append(got, tapeQuote(part))
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("tapeSplit(%q) quoted = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTapePatternRoundTrip: what an agent waited for, written as an
// Expect, parses and matches what the session matched (and, for a
// literal, not its regex reading).
func TestTapePatternRoundTrip(t *testing.T) {
	tests := []struct {
		name, arg string // expectTape's argument, or with literal expectText's
		literal   bool
		screen    string // what it must match
	}{
		{"plain", "hello", true, "say hello"},
		{"all three quotes", "arg is: it's a \"b\" `c`", true, "arg is: it's a \"b\" `c`"},
		{"slashes in a literal", "/usr/bin/", true, "in /usr/bin/ now"},
		{"over lines", "one\ntwo", true, "one\ntwo"},
		{"escaped slash", `/path \/usr\/bin\/x/`, false, "path /usr/bin/x"},
		{"bare slash in a class", `/a[/]b/`, false, "a/b"},
		{"escaped backslash then slash", `/c:\\\/d/`, false, `c:\/d`},
		{"flags", "/HELLO/i", false, "hello"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := expectTape("", 0, tc.arg)
			if tc.literal {
				cmd = expectText("", 0, tc.arg)
			}
			prog, err := parseTape("gen.tape", cmd.String()+"\n", osTapeFS)
			if err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}
			c := prog.Cmds[0]
			ok := strings.Contains(tc.screen, c.Text)
			if c.Regex != "" {
				ok = regexp.MustCompile(c.Regex).MatchString(tc.screen)
			}
			if !ok {
				t.Errorf("%s does not match %q", cmd, tc.screen)
			}
		})
	}
}

// TestKeyTape: shell_send's key names as tape commands, which parse back
// to the key that sends the same bytes.
func TestKeyTape(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Enter", "Enter", true}, {"esc", "Escape", true}, {"C-c", "Ctrl+c", true}, {"^C", "Ctrl+c", true},
		{"ctrl+a", "Ctrl+a", true}, {"M-x", "Alt+x", true}, {"M-X", "Alt+X", true}, {"S-Tab", "Shift+Tab", true},
		{"C-Left", "Ctrl+Left", true}, {"pgdn", "PageDown", true}, {"q", `Type "q"`, true}, {"F5", "F5", true},
		{"f12", "F12", true}, {"M-!", `Alt+"!"`, true}, {"M- ", "Alt+Space", true}, {"^?", `Ctrl+"?"`, true},
		{"F13", "", false}, {"X-y", "", false}, {"M-é", "", false},
	}
	for _, tc := range tests {
		c, ok := keyTape(tc.in)
		if ok != tc.ok || ok && c.String() != tc.want {
			t.Errorf("keyTape(%q) = %q, %v; want %q, %v", tc.in, c.String(), ok, tc.want, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		prog, err := parseTape("k.tape", c.String()+"\n", osTapeFS)
		if err != nil {
			t.Errorf("%s: %v", c, err)
			continue
		}
		sent := tc.in
		if p := prog.Cmds[0]; len(p.Keys) == 1 {
			sent = p.Keys[0]
		} else if p.Name == "Type" {
			sent = p.Text
		} else {
			sent = p.Name
		}
		want, _ := encodeKey(tc.in, false)
		if got, err := encodeKey(sent, false); err != nil || string(got) != string(want) {
			t.Errorf("%s sends %q (%v), the key %q sends %q", c, got, err, tc.in, want)
		}
	}
}

// tapeLine is a tape line as the generator writes them: a comment, or a
// command and its arguments, each string closed on the line.
var tapeLine = regexp.MustCompile("^(#[^\r\n]*|[A-Z][A-Za-z0-9]*(\\+[^ \r\n]+)*(@[0-9]+m?s)?( ([^ \"'`\r\n]+|\"[^\"\r\n]*\"|'[^'\r\n]*'|`[^`\r\n]*`|/[^\r\n]*/))*)$")

// FuzzGenTape: any arguments and reply give a tape whose every line is
// one command or comment and that the tape parser reads (every folder
// taken to exist), and never a panic.
func FuzzGenTape(f *testing.F) {
	f.Add("shell_send", `{"text":"a\"b'c`+"`"+`\n","keys":["C-c"],"wait_for":"/x/i"}`, `{"command":{"exit_code":2}}`)
	f.Add("shell_click", `{"text":"OK","row":1}`, `{"row":1,"col":2}`)
	f.Add("shell_start", `{"env":{"A":"\n"},"cwd":"x"}`, `{"ready":true,"screen":"a\nb"}`)
	f.Fuzz(func(t *testing.T, tool, args, reply string) {
		v, ok := stepFromJSON(tool, args, reply, false)
		if !ok {
			return
		}
		tr := newSessionTrace(traceMeta{ID: "s", Command: "prog", Cols: 80, Rows: 24}, false)
		tr.Add(traceStep{Tool: tool, Args: redactArgs(json.RawMessage(args)), stepView: v}, nil, nil)
		tape := genTape(tr)
		for _, l := range strings.Split(strings.TrimSuffix(tape, "\n"), "\n") {
			if !tapeLine.MatchString(l) {
				t.Fatalf("tape line %q is no command", l)
			}
		}
		fsys := tapeFS{readFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }, isDir: func(string) bool { return true }}
		prog, err := parseTape("gen.tape", tape, fsys)
		if err != nil {
			t.Fatalf("the tape does not parse: %v\n%s", err, tape)
		}
		if again := strings.TrimSuffix(programText(prog), "\n"); again != strings.Join(nonComments(tape), "\n") {
			t.Fatalf("the tape is not in canonical form:\n%s\nparsed back:\n%s", tape, again)
		}
	})
}

// nonComments are the lines of tape that are no comment.
func nonComments(tape string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(tape, "\n"), "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// TestStepForms: every tool has a step form, and for a typical call of
// each, the step names its session and its tape commands parse back to
// themselves; the terminal app's own tools, called for a person, make no
// step. A new tool fails here until its call is added below.
func TestStepForms(t *testing.T) {
	t.Parallel()
	calls := map[string]struct{ args, reply string }{
		"shell_start":        {`{"command":"htop","env":{"A":"b"},"cwd":"/tmp"}`, `{"shell_session_id":"shell-1","command":"htop","args":[],"ready":true,"screen":"  PID USER\n  1 root"}`},
		"shell_send":         {`{"session_id":"shell-1","text":"ls\n","input":"\\e[A","keys":["C-c","Down"],"wait_for_command":true}`, `{"command":{"n":1,"line":"ls","exit_code":2}}`},
		"shell_read":         {`{"session_id":"shell-1"}`, `{"text":"$ "}`},
		"shell_find":         {`{"session_id":"shell-1","text":"OK"}`, `{"count":1}`},
		"shell_click":        {`{"session_id":"shell-1","text":"OK","wait_for_gone":"OK"}`, `{"row":3,"col":4,"matched":true}`},
		"shell_wait":         {`{"session_id":"shell-1","wait_for":"/do+ne/i","timeout_ms":1500}`, `{"matched":true}`},
		"shell_ask_secret":   {`{"session_id":"shell-1","message":"sudo"}`, `{"delivered":true}`},
		"shell_screenshot":   {`{"session_id":"shell-1","name":"a b"}`, `{"filename":"a b.png"}`},
		"shell_record_start": {`{"session_id":"shell-1","name":"demo"}`, `{"recording":"demo"}`},
		"shell_record_stop":  {`{"session_id":"shell-1","name":"demo"}`, `{"filename":"demo.gif"}`},
		"shell_resize":       {`{"session_id":"shell-1","cols":100,"rows":30}`, `{"cols":100,"rows":30}`},
		"shell_stop":         {`{"session_id":"shell-1"}`, `{"success":true}`},
		"app_screen":         {`{"session_id":"shell-1","viewer":"v1","since":"3"}`, `{"gen":"4"}`},
		"app_commands":       {`{"session_id":"shell-1","viewer":"v1"}`, `{}`},
		"app_keyboard":       {`{"session_id":"shell-1","viewer":"v1","action":"keys","keys":"ls\r"}`, `{}`},
		"app_secret":         {`{"session_id":"shell-1","viewer":"v1","secret":"hunter2"}`, `{}`},
	}
	for _, tool := range newToolbox(ToolsConfig{}, nil, nil).list() {
		c, ok := calls[tool.Name]
		if !ok {
			t.Errorf("%s: no typical call here: add one, and check its trace line and tape commands", tool.Name)
			continue
		}
		v, _ := stepFromJSON(tool.Name, c.args, c.reply, false)
		if tool.App == appOnly {
			if v.SessionID != "" || v.Summary != "" || len(v.Tape) > 0 {
				t.Errorf("%s: the app's call for a person makes a step of the agent's: %+v", tool.Name, v)
			}
			continue
		}
		if v.SessionID != "shell-1" {
			t.Errorf("%s: the step acts on session %q, want shell-1", tool.Name, v.SessionID)
		}
		var text strings.Builder
		for _, cmd := range v.Tape {
			text.WriteString(cmd.String() + "\n")
		}
		fsys := tapeFS{readFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }, isDir: func(string) bool { return true }}
		prog, err := parseTape(tool.Name+".tape", text.String(), fsys)
		if err != nil {
			t.Errorf("%s: its tape does not parse: %v\n%s", tool.Name, err, text.String())
			continue
		}
		if got := strings.TrimSuffix(programText(prog), "\n"); got != strings.Join(nonComments(text.String()), "\n") {
			t.Errorf("%s: its tape is not canonical:\n%s\nparsed back:\n%s", tool.Name, text.String(), got)
		}
	}
}

// TestAskSecretStep: a shell_ask_secret that returned the page for the
// agent to show is no failed step; one the person declined is.
func TestAskSecretStep(t *testing.T) {
	t.Parallel()
	for reply, failed := range map[string]bool{
		`{"delivered":false,"url":"http://127.0.0.1:1/s/x"}`: false,
		`{"delivered":false,"action":"decline"}`:             true,
		`{"delivered":true}`:                                 false,
	} {
		v, _ := stepFromJSON("shell_ask_secret", `{"session_id":"shell-1","message":"sudo"}`, reply, false)
		if (v.Failed != "") != failed {
			t.Errorf("%s: failed %q, want failed %v", reply, v.Failed, failed)
		}
	}
}
