package main

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestSendOrder: shell_send types text, input and keys in the order the
// call writes them, and says the order in its reply; a call that gives
// one of them says nothing of an order.
func TestSendOrder(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tc := range []struct {
		args      string // after session_id
		want      string // what the program reads
		order     []string
		tapeFirst string // the first tape command
	}{
		{`"keys":["Enter"],"text":"beta\n"`, "<|beta>", []string{"keys", "text"}, "Enter"},
		{`"text":"beta\n","keys":["Enter"]`, "<beta|>", []string{"text", "keys"}, `Type "beta"`},
		{`"input":"x\\r","text":"y\n"`, "<x|y>", []string{"input", "text"}, `Type "x"`},
		{`"text":"one\ntwo\n"`, "<one|two>", nil, `Type "one"`},
	} {
		id := start(t, a, "bash", "--norc", "--noprofile", "-c", `IFS= read -r a; IFS= read -r b; echo "<$a|$b>"; sleep 60`)
		mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_input": true})
		args := json.RawMessage(`{"session_id":"` + id + `",` + tc.args + `,"wait_for":"/<.*\\|.*>/"}`)
		r, m := call(t, a, "shell_send", args)
		if r.IsError {
			t.Fatalf("%s: %s", args, r.Text)
		}
		if !strings.Contains(m["bufferAfter"].(string), tc.want) {
			t.Errorf("%s: screen %q, want %s", tc.args, m["bufferAfter"], tc.want)
		}
		var order []string
		if o, ok := m["order"].([]any); ok {
			for _, p := range o {
				order = append(order, p.(string))
			}
		}
		if !slices.Equal(order, tc.order) {
			t.Errorf("%s: reply order %v, want %v", tc.args, order, tc.order)
		}
		if tape := r.step.Tape; len(tape) == 0 || tape[0].String() != tc.tapeFirst {
			t.Errorf("%s: tape starts %v, want %s", tc.args, tape, tc.tapeFirst)
		}
		mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
	}
}

// TestObjectKeys: the keys of an object in the order written, only its
// own (not those of nested objects), and none for what is no object.
func TestObjectKeys(t *testing.T) {
	t.Parallel()
	names := []string{"text", "input", "keys"}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`{"keys":[],"a":{"text":1},"text":"x","input":""}`, []string{"keys", "text", "input"}},
		{`{"input":"{\"keys\":1}"}`, []string{"input"}},
		{`[1]`, nil},
		{`{"text":`, []string{"text"}}, // cut short: what was read
	} {
		if got := objectKeys(json.RawMessage(tc.in), names); !slices.Equal(got, tc.want) {
			t.Errorf("objectKeys(%s) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestSendAllOrNothingAgainstTakeover: a person who takes the keyboard
// while a shell_send types its input slowly gets it once the call has
// typed all of it, never half (the line was left "aaaZZZ"); a call made
// while the person holds it types nothing and says so.
func TestSendAllOrNothingAgainstTakeover(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	s := a.sessions.Get(id)
	viewer, leave := s.AddViewer(viewerTerminal)
	defer leave()
	done := make(chan *ToolResult, 1)
	go func() {
		r, _ := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "aaaaaaaaaa", "type_delay_ms": 40})
		done <- r
	}()
	waitFor(t, func() bool { return strings.Contains(s.Text(false), "a") }) // typing has begun
	if err := s.TakeKeyboard(viewer); err != nil {
		t.Fatal(err)
	}
	if err := s.PersonInput(t.Context(), viewer, []byte("ZZZ")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return strings.Contains(s.Text(false), "ZZZ") })
	if got := strings.TrimSpace(s.Text(false)); got != "aaaaaaaaaaZZZ" {
		t.Errorf("screen %q, want the agent's whole line, then the person's keys", got)
	}
	if r := <-done; r.IsError {
		t.Errorf("the send that had begun: %s", r.Text)
	}
	r, _ := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "bbb"})
	if !r.IsError || !strings.Contains(r.Text, "a person is typing") {
		t.Errorf("a send while the person holds the keyboard: %v %q", r.IsError, r.Text)
	}
	if strings.Contains(s.Text(false), "b") {
		t.Errorf("it typed: %q", s.Text(false))
	}
}

// TestTracePersonTyped: what a person typed is no step of the agent's,
// but the trace and the tape say that they typed, before the call that
// followed, and never what.
func TestTracePersonTyped(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	s := a.sessions.Get(id)
	viewer, leave := s.AddViewer(viewerTerminal)
	defer leave()
	if err := s.TakeKeyboard(viewer); err != nil {
		t.Fatal(err)
	}
	if err := s.PersonInput(t.Context(), viewer, []byte("hunter2\r")); err != nil {
		t.Fatal(err)
	}
	s.GiveKeyboard(viewer)
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "next\n", "wait_for": "next"})
	tape, err := a.hub.readResource(tapeURI(id).String())
	if err != nil {
		t.Fatal(err)
	}
	text := *tape.Text
	i, j := strings.Index(text, "# a person typed here"), strings.Index(text, `Type "next"`)
	if i < 0 || j < i || strings.Contains(text, "hunter2") {
		t.Errorf("the tape does not note the person before the next call, or holds what they typed:\n%s", text)
	}
}

// inOrder is a JSON object of the keys and values kv, in that order: the
// arguments of a call whose text, input and keys must be typed in the
// order given (a Go map would encode them sorted).
func inOrder(kv ...any) json.RawMessage {
	b := []byte{'{'}
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(kv[i])
		v, _ := json.Marshal(kv[i+1])
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}')
}

// TestSendThenWait: a shell_wait that follows a send waits for what comes
// after that send: not the echo of the typed line (which holds the text),
// not the output of the same pair run before, and wait_for_command waits
// for the command the send started, not the one before it.
func TestSendThenWait(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := shellIn(t, a, t.TempDir())
	for run := range 2 {
		mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "sleep 0.3; echo fini''shed\r", "delay_ms": 0})
		m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "finished"})
		if lines := screenLines(m["buffer"]); m["matched"] != true || strings.Count(strings.Join(lines, "\n"), "\nfinished") != run+1 {
			t.Errorf("run %d: the wait returned before the command's output: %v", run+1, m)
		}
		// A second wait after the same send counts from it too: the
		// command it started.
		m = mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
		if c, _ := m["command"].(map[string]any); c == nil || c["line"] != "sleep 0.3; echo fini''shed" {
			t.Errorf("run %d: wait_for_command after the send's wait_for: %v", run+1, m)
		}
	}
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "sleep 0.3; false\r", "delay_ms": 0})
	m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
	if c, _ := m["command"].(map[string]any); c == nil || c["line"] != "sleep 0.3; false" || exitCode(c) != 1 {
		t.Errorf("wait_for_command after the send: %v, want the send's command, exit 1", m)
	}
}

// TestWaitForInputAfterEscape: after a lone Escape, vim waits (in a
// timed poll) to see whether a key sequence follows before it leaves
// insert mode; wait_for_input covers that window, so its reply shows
// normal mode and the next keys are not taken with the Escape.
func TestWaitForInputAfterEscape(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("vim"); err != nil {
		t.Skip("vim is not installed")
	}
	a := newTestApp(t)
	dir := t.TempDir()
	m := mustCall(t, a, "shell_start", map[string]any{"command": "vim", "args": []string{"-u", "NONE", "-N", "-c", "set showmode", "x.txt"},
		"cwd": dir, "env": map[string]string{"HOME": dir}})
	id := m["shell_session_id"].(string)
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "ihello1", "wait_for": "-- INSERT --"})
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Escape"}, "wait_for_input": true})
	if strings.Contains(m["bufferAfter"].(string), "-- INSERT --") {
		t.Errorf("the reply came before vim acted on the Escape:\n%s", m["bufferAfter"])
	}
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": "0x", "wait_for_input": true})
	if r := mustCall(t, a, "shell_read", map[string]any{"session_id": id}); !strings.HasPrefix(r["text"].(string), "ello1") {
		t.Errorf("0x after the Escape did not delete the first character in normal mode:\n%s", r["text"])
	}
}

// TestSendTypedAhead: a line typed while a command that does not read the
// terminal still runs is run by the shell after it; wait_for_command
// waits for that line's command, not for the running one's end. Input
// to a command that reads the terminal is that command's, and its end
// is the one waited for.
func TestSendTypedAhead(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			id := startShell(t, a, shell, "", nil, nil)
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "sleep 0.5; echo fini''shed0; sleep 0.5\n"})
			mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "finished0"})
			m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo second0\n", "wait_for_command": true})
			if c, _ := m["command"].(map[string]any); c == nil || c["line"] != "echo second0" {
				t.Errorf("wait_for_command of a typed-ahead line: %v, want echo second0's", m["command"])
			}
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "read x; echo got $x\n", "wait_for_input": true})
			m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "yes\n", "wait_for_command": true})
			if c, _ := m["command"].(map[string]any); c == nil || c["line"] != "read x; echo got $x" {
				t.Errorf("wait_for_command of an answer to read: %v, want read's command", m["command"])
			}
		})
	}
}

// TestSendInterruptAfterInput: a C-c after text or input of one call is
// refused (a shell's prompt and vim both throw that input away); C-c
// alone, after keys, or twice is typed.
func TestSendInterruptAfterInput(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := shellIn(t, a, t.TempDir())
	for _, args := range []string{`"text":"echo hi\n","keys":["C-c"]`, `"input":"ihello","keys":["C-c"]`, `"input":"ab\u0003"`} {
		r := callTool(t, a, "shell_send", `{"session_id":"`+id+`",`+args+`}`)
		if !r.IsError || !strings.Contains(r.Text, "send C-c in a call of its own") {
			t.Errorf("%s: %q, want a refusal", args, r.Text)
		}
	}
	for _, keys := range [][]string{{"C-c"}, {"Up", "C-c"}, {"C-c", "C-c"}} {
		mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": keys})
	}
}
