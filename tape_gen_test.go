package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// genStep is one step of a codegen case: the tool, its arguments and the
// reply's structured JSON (as the tool returned it).
type genStep struct {
	tool, args, reply string
	isError           bool
}

// genTrace builds a session's steps from a case.
func genTrace(t *testing.T, meta traceMeta, steps []genStep) *sessionTrace {
	t.Helper()
	tr := newSessionTrace(meta, false)
	for _, s := range steps {
		var r stepReply
		if s.reply != "" && !s.isError {
			if err := json.Unmarshal([]byte(s.reply), &r); err != nil {
				t.Fatalf("reply %s: %v", s.reply, err)
			}
		}
		r.IsError = s.isError
		if s.isError {
			r.Error = s.reply
		}
		tr.Add(traceStep{Tool: s.tool, Args: redactArgs(json.RawMessage(s.args)), Reply: r, Start: meta.Started}, nil, nil)
	}
	return tr
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
			{"shell_start", `{"command":"bash","cwd":"/tmp/my dir","env":{"LANG":"C","GITHUB_TOKEN":"ghp_x"}}`, `{"shell_session_id":"shell-1","ready":true,"screen":"$ "}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"ls --help\n","wait_for_command":true}`, `{"command":{"n":1,"line":"ls --help","exit_code":0}}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"test -e nope\n","wait_for_command":true,"timeout_ms":5000}`, `{"command":{"n":2,"line":"test -e nope","exit_code":1}}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"cat <<'EOF'\na \"b\" 'c' ` + "`d`" + `\nEOF\n","wait_for_command":true}`, `{"command":{"n":3,"line":"cat","exit_code":0}}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"echo )\n","wait_for_command":true}`, `{"no_command":true}`, false},
			{"shell_send", `{"session_id":"shell-1","text":"sleep 9\n","wait_for_command":true,"timeout_ms":1000}`, `{"timed_out":true,"matched":false}`, false},
			{"shell_send", `{"session_id":"shell-1","keys":["C-c"],"wait_for":"/\\$ $/"}`, `{"matched":true}`, false},
			{"shell_screenshot", `{"session_id":"shell-1","name":"done"}`, `{"filename":"done.png"}`, false},
			{"shell_read", `{"session_id":"shell-1"}`, `{}`, false},
			{"shell_send", `{"session_id":"nope"}`, `shell_send: no session "nope"`, true},
			{"shell_stop", `{"session_id":"shell-1"}`, `{"success":true}`, false},
		}},
		{"vim", vim, []genStep{
			{"shell_start", `{"command":"vim","args":["notes.txt"]}`, `{"ready":true,"screen":"\n~\n~\n\"notes.txt\" [New]"}`, false},
			{"shell_send", `{"session_id":"shell-2","keys":["i"],"wait_for":"-- INSERT --"}`, `{"matched":true}`, false},
			{"shell_send", `{"session_id":"shell-2","text":"hello\tworld","type_delay_ms":50,"wait_stable_ms":200}`, `{"matched":true}`, false},
			{"shell_send", `{"session_id":"shell-2","input":"\\e:wq\\r","wait_for_gone":"-- INSERT --","timeout_ms":2000}`, `{"matched":true}`, false},
			{"shell_wait", `{"session_id":"shell-2","wait_for":"/written/i"}`, `{"matched":true}`, false},
		}},
		{"dialog", dialog, []genStep{
			{"shell_start", `{"command":"dialog","args":["--menu","Pick one","12","40","4","a","Apple","b","Banana"]}`, `{"ready":true,"screen":"  Pick one\n  a  Apple\n  b  Banana\n  <  OK  >  <Cancel>"}`, false},
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

// TestTapeQuote: a text is quoted with a quote it does not hold, split
// when it holds all three.
func TestTapeQuote(t *testing.T) {
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
		got := tapeQuotes(tc.in)
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("tapeQuotes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTapePatternRoundTrip: what an agent waited for, written as an
// Expect, parses and matches what the session matched (and, for a
// literal, not its regex reading).
func TestTapePatternRoundTrip(t *testing.T) {
	tests := []struct {
		name, arg string // tapePattern's argument, or with literal tapeLiteral's
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
			arg := tapePattern(tc.arg)
			if tc.literal {
				arg = tapeLiteral(tc.arg)
			}
			prog, err := parseTape("gen.tape", "Expect "+arg+"\n", osTapeFS)
			if err != nil {
				t.Fatalf("Expect %s: %v", arg, err)
			}
			c := prog.Cmds[0]
			ok := strings.Contains(tc.screen, c.Text)
			if c.Regex != "" {
				ok = regexp.MustCompile(c.Regex).MatchString(tc.screen)
			}
			if !ok {
				t.Errorf("Expect %s does not match %q", arg, tc.screen)
			}
		})
	}
}

// TestVHSKey: shell_send's key names as tape key commands.
func TestVHSKey(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"Enter", "Enter", true}, {"esc", "Escape", true}, {"C-c", "Ctrl+C", true}, {"^C", "Ctrl+C", true},
		{"ctrl+a", "Ctrl+A", true}, {"M-x", "Alt+X", true}, {"S-Tab", "Shift+Tab", true}, {"C-Left", "Ctrl+Left", true},
		{"pgdn", "PageDown", true}, {"q", `Type "q"`, true}, {"F5", "F5", true}, {"f12", "F12", true}, {"F13", "", false}, {"X-y", "", false},
	}
	for _, tc := range tests {
		got, ok := vhsKey(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("vhsKey(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
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
		var r stepReply
		_ = json.Unmarshal([]byte(reply), &r)
		tr := newSessionTrace(traceMeta{ID: "s", Command: "prog", Cols: 80, Rows: 24}, false)
		tr.Add(traceStep{Tool: tool, Args: redactArgs(json.RawMessage(args)), Reply: r}, nil, nil)
		tape := genTape(tr)
		for _, l := range strings.Split(strings.TrimSuffix(tape, "\n"), "\n") {
			if !tapeLine.MatchString(l) {
				t.Fatalf("tape line %q is no command", l)
			}
		}
		fsys := tapeFS{readFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }, isDir: func(string) bool { return true }}
		if _, err := parseTape("gen.tape", tape, fsys); err != nil {
			t.Fatalf("the tape does not parse: %v\n%s", err, tape)
		}
	})
}
