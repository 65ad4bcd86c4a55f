package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// traceTerm is a Terminal fed text, for the trace's screens.
func traceTerm(cols, rows int, text string) *Snapshot {
	term := NewTerminal(cols, rows, 0)
	term.Write([]byte(text))
	return term.Snapshot()
}

// TestTraceScreensOncePerChange: a step whose screen equals the last one
// stored points at it, and a changed screen adds only its changed rows to
// the row table.
func TestTraceScreensOncePerChange(t *testing.T) {
	tr := newSessionTrace(traceMeta{ID: "s1", Cols: 20, Rows: 5, Theme: themeList[0], Started: time.Now()}, true)
	a := traceTerm(20, 5, "$ echo hi\r\nhi\r\n$ ")
	b := traceTerm(20, 5, "$ echo hi\r\nhi\r\n$ ls")
	steps := []struct {
		snap        *Snapshot
		screen, nrs int // the step's screen and the rows table's size after it
	}{
		{a, 0, 4}, // "$ echo hi", "hi", "$ ", and the empty row
		{a, 0, 4}, // same screen
		{b, 1, 5}, // one row changed
		{b, 1, 5},
		{a, 2, 5}, // back to a: a new screen, no new row
	}
	for i, st := range steps {
		tr.Add(traceStep{Tool: "shell_read", Args: json.RawMessage(`{}`)}, st.snap, nil)
		got := tr.Steps()[i]
		if got.N != i+1 || got.Screen != st.screen || len(tr.rows) != st.nrs {
			t.Errorf("step %d: n %d screen %d, %d rows; want n %d screen %d, %d rows", i, got.N, got.Screen, len(tr.rows), i+1, st.screen, st.nrs)
		}
	}
}

// TestTraceHTMLSelfContained: the page loads nothing (a CSP of
// default-src 'none', no URL in it), and a screen's text cannot end its
// script.
func TestTraceHTMLSelfContained(t *testing.T) {
	tr := newSessionTrace(traceMeta{ID: "s1", Command: "bash", Cols: 30, Rows: 3, Theme: themeList[0], Started: time.Now()}, true)
	tr.Add(traceStep{Tool: "shell_send", Args: json.RawMessage(`{"text":"</script><img src=http://x>"}`)},
		traceTerm(30, 3, "</script><img src=http://x>"), nil)
	b, err := tr.HTML()
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if n := strings.Count(page, "</script>"); n != 2 {
		t.Errorf("the page has %d </script>, want 2 (the painter's and its own)", n)
	}
	if !strings.Contains(page, `content="default-src 'none';`) {
		t.Error("the page has no Content-Security-Policy of default-src 'none'")
	}
	outside := regexp.MustCompile(`(?m)^const D = .*$`).ReplaceAllString(page, "") // the data: text, escaped
	if m := regexp.MustCompile(`(?i)<(img|link|iframe)|src=|https?://`).FindString(outside); m != "" {
		t.Errorf("the page would load something: %q", m)
	}
}

// TestRedactArgs: env values of secret-like names are not kept; text and
// input are.
func TestRedactArgs(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"text":"ls\n","input":"\\r"}`, `{"text":"ls\n","input":"\\r"}`},
		{`{"command":"bash","env":{"API_TOKEN":"t0k","LANG":"C","PGPASSWORD":"pw"}}`, `{"command":"bash","env":{"API_TOKEN":"(redacted)","LANG":"C","PGPASSWORD":"(redacted)"}}`},
		{`[1]`, `{}`},
		{`{"env":5}`, `{"env":5}`},
		{``, `{}`},
	}
	for _, tc := range tests {
		if got := string(redactArgs(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("redactArgs(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// FuzzRedactArgs: any arguments give a JSON object, and never a panic.
func FuzzRedactArgs(f *testing.F) {
	f.Add(`{"env":{"KEY":"v"}}`)
	f.Add(`{"text":"a"}`)
	f.Add(`{"env":{"A":1,"TOKEN":[1]}}`)
	f.Fuzz(func(t *testing.T, in string) {
		out := redactArgs(json.RawMessage(in))
		var m map[string]any
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("redactArgs(%q) = %q, not a JSON object: %v", in, out, err)
		}
		if env, ok := m["env"].(map[string]any); ok {
			for k, v := range env {
				if secretName(k) && v != "(redacted)" {
					t.Fatalf("redactArgs(%q) kept %s=%v", in, k, v)
				}
			}
		}
	})
}

// TestTracedSession drives a real bash through the tools: every call is
// a step, the trace is written at shell_stop into the output directory,
// info lists it, the tape replays the same outcomes, and neither holds a
// secret-like env value.
func TestTracedSession(t *testing.T) {
	a := newTestApp(t)
	m := mustCall(t, a, "shell_start", map[string]any{"command": "bash", "args": []string{"--norc"}, "trace": true,
		"env": map[string]string{"API_TOKEN": "hunter2-token", "GREETING": "hi"}})
	id := m["shell_session_id"].(string)
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo $GREETING there\n", "wait_for_command": true})
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "false\n", "wait_for_command": true})
	mustCall(t, a, "shell_screenshot", map[string]any{"session_id": id, "name": "after"})
	call(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "never shown", "timeout_ms": 50})
	mustCall(t, a, "shell_stop", map[string]any{"session_id": id})

	b, err := os.ReadFile(filepath.Join(a.cfg.OutputDir, id, traceFile))
	if err != nil {
		t.Fatalf("no trace written at shell_stop: %v", err)
	}
	page := string(b)
	if strings.Contains(page, "hunter2") {
		t.Error("the trace holds the API_TOKEN value")
	}
	for _, want := range []string{`"tool":"shell_start"`, `"tool":"shell_stop"`, `"line":"false"`, `"filename":"after.png"`, "hi there"} {
		if !strings.Contains(page, want) {
			t.Errorf("the trace has no %s", want)
		}
	}
	info, err := a.hub.readResource(infoURI(id).String())
	if err != nil || !strings.Contains(*info.Text, `"trace":"session://`+id+`/trace"`) || !strings.Contains(*info.Text, `"trace_path":`) {
		t.Errorf("info does not list the trace: %v %v", info.Text, err)
	}
	res, err := a.hub.readResource(traceURI(id).String())
	if err != nil || res.MimeType != "text/html" || *res.Text != page {
		t.Errorf("session://%s/trace: %s, %v; want the file written", id, res.MimeType, err)
	}
	tape, err := a.hub.readResource(tapeURI(id).String())
	if err != nil {
		t.Fatal(err)
	}
	want := "Set Shell \"bash\"\nSet FontSize 16\nSet Padding 0\nSet Width 640\nSet Height 384\nSet TypingSpeed 0s\n" +
		"# Env API_TOKEN: its value was not recorded (a secret-like name): set it here\n" +
		"Env GREETING \"hi\"\n" +
		"Type \"echo $GREETING there\"\nEnter\nWait+Command exit=0\nExpect /hi there/\n" +
		"Type \"false\"\nEnter\nWait+Command exit=1\n" +
		"Screenshot \"after.png\"\n" +
		"# the wait here timed out in the session, so it is no assertion\nSleep 50ms\n"
	got := *tape.Text
	_, body, _ := strings.Cut(got, "\n") // after the comment lines
	_, body, _ = strings.Cut(body, "\n")
	if body != want {
		t.Errorf("tape:\n%s\nwant:\n%s", body, want)
	}
}

// TestUntracedSessionKeepsSteps: without trace a session keeps only its
// steps: the tape, and no trace (a clear not-found) and no file.
func TestUntracedSessionKeepsSteps(t *testing.T) {
	a := newTestApp(t)
	id := start(t, a, "sh")
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Down", "Down", "C-c"}})
	if _, err := a.hub.readResource(traceURI(id).String()); err == nil || !strings.Contains(err.Error(), "trace: true") {
		t.Errorf("trace of an untraced session: %v, want a not-found naming trace: true", err)
	}
	tape, err := a.hub.readResource(tapeURI(id).String())
	if err != nil || !regexp.MustCompile(`Type "sh"\nEnter\nExpect "[#$]"\nDown 2\nCtrl\+c\nSleep 100ms\n$`).MatchString(*tape.Text) {
		t.Errorf("tape: %q %v", *tape.Text, err)
	}
	mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
	if _, err := os.Stat(filepath.Join(a.cfg.OutputDir, id, traceFile)); err == nil {
		t.Error("an untraced session wrote a trace")
	}
}

// TestTraceBudget: past its byte budget a trace keeps its steps but no
// more screens, and its page says how many it left out.
func TestTraceBudget(t *testing.T) {
	t.Parallel()
	tr := newSessionTrace(traceMeta{ID: "shell-1", Command: "bash", Cols: 40, Rows: 10, Theme: themeList[0], Started: time.Now()}, true)
	tr.budget = 4 << 10
	term := NewTerminal(40, 10, 0)
	for i := range 50 {
		fmt.Fprintf(term, "\x1b[3%dmline %d of many different lines\r\n", i%8, i)
		tr.Add(traceStep{Tool: "shell_send", Args: json.RawMessage(`{}`)}, term.Snapshot(), nil)
	}
	steps := tr.Steps()
	if len(steps) != 50 || steps[0].Screen < 0 || steps[49].Screen >= 0 {
		t.Fatalf("%d steps, first screen %d, last %d: want 50 steps, the first with a screen, the last without", len(steps), steps[0].Screen, steps[49].Screen)
	}
	if tr.bytes > tr.budget+2<<10 {
		t.Errorf("the screens hold %d bytes, over the %d budget by more than a row's", tr.bytes, tr.budget)
	}
	page, err := tr.HTML()
	if err != nil || !bytes.Contains(page, []byte(`"cut":`)) {
		t.Errorf("the page does not say screens were left out: %v", err)
	}
}

// TestTraceKeepsNoHiddenText: text a program hides with SGR 8 is in no
// part of a trace, the first screen of shell_start's reply included
// (its step kept that screen verbatim), nor in any text of the screen:
// a command's output, shell_read, a screenshot's .txt and .ansi.
func TestTraceKeepsNoHiddenText(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	// The hidden text is made by the program, so that it is in no argument.
	hide := `printf 'pw: \033[8m%s\033[0m done\n' "$(echo hunter | tr a-z A-Z)2"`
	m := mustCall(t, a, "shell_start", map[string]any{"command": "sh", "args": []string{"-c", hide + "; exec sleep 60"}, "trace": true})
	id := m["shell_session_id"].(string)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "done"})
	sh := startShell(t, a, "bash", "", []string{"--norc"}, map[string]any{"trace": true})
	c := runCommand(t, a, sh, hide, nil)
	read := mustCall(t, a, "shell_read", map[string]any{"session_id": sh})
	shot := mustCall(t, a, "shell_screenshot", map[string]any{"session_id": sh})
	txt, err := os.ReadFile(shot["txt_path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	ansi, err := os.ReadFile(shot["ansi_path"].(string))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{id, sh} {
		mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
	}
	for what, text := range map[string]string{"the command's output": c["output"].(string), "shell_read": read["text"].(string), "the .txt screenshot": string(txt), "the .ansi screenshot": string(ansi)} {
		if !strings.Contains(text, "pw: ") || strings.Contains(text, "HUNTER2") {
			t.Errorf("%s holds text hidden with SGR 8, or not its line:\n%s", what, text)
		}
	}
	for _, id := range []string{id, sh} {
		page, err := os.ReadFile(filepath.Join(a.cfg.OutputDir, id, traceFile))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(page, []byte("HUNTER2")) {
			t.Errorf("%s: the trace holds text hidden with SGR 8", id)
		}
	}
}
