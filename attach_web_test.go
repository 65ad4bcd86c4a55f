//go:build unix

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// viewStatusMsg is a status event of a live view.
type viewStatusMsg struct {
	Keyboard string `json:"keyboard"`
	You      bool   `json:"you"`
	Viewers  int    `json:"viewers"`
	ExitCode *int   `json:"exit_code"`
}

func statusIs(want func(viewStatusMsg) bool) func(string) bool {
	return func(data string) bool {
		var st viewStatusMsg
		return json.Unmarshal([]byte(data), &st) == nil && want(st)
	}
}

// trimRows joins rows, each cut of trailing blanks, without the blank
// rows at the end.
func trimRows(rows []string) string {
	for i := range rows {
		rows[i] = strings.TrimRight(rows[i], " ")
	}
	return strings.TrimRight(strings.Join(rows, "\n"), "\n")
}

// viewFrameRows are the rows of a live view's screen frame as text, and
// the frame; an error when it is not one.
func viewFrameRows(frame string) ([]string, htmlFrame, error) {
	var f htmlFrame
	if err := json.Unmarshal([]byte(frame), &f); err != nil {
		return nil, f, err
	}
	rows := make([]string, len(f.Lines))
	for r, line := range f.Lines {
		cells, err := readHTMLRow(line, f.Cols, f.Blank)
		if err != nil {
			return nil, f, err
		}
		for _, c := range cells {
			rows[r] += c.Text
		}
	}
	return rows, f, nil
}

// TestSessionView drives a real bash through shell_start's live view as
// a browser would: the frames show the session's screen, wide
// characters marked two columns; the keyboard taken on the page refuses
// the agent and types into the program; the agent hears of it; stopping
// the session ends the stream with why "session" and the link.
func TestSessionView(t *testing.T) {
	a := newTestApp(t)
	needShell(t, "bash")
	home := t.TempDir()
	m := mustCall(t, a, "shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile"}, "cwd": home,
		"env": map[string]string{"HOME": home}, "view": true})
	id, url := m["shell_session_id"].(string), m["view_url"].(string)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.Contains(url, "/view/") {
		t.Fatalf("view_url %q", url)
	}
	s := a.sessions.Get(id)
	if again, err := a.tools.views.Offer(s); err != nil || again != url {
		t.Errorf("a second offer: %q, %v; want the same link", again, err)
	}
	st := openViewURL(t, url)
	st.until(t, "status", statusIs(func(m viewStatusMsg) bool { return m.Keyboard == "agent" && !m.You && m.Viewers == 1 }))

	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": `printf '\e[31mred\e[0m \xe6\x97\xa5\xe6\x9c\xac wide\n'` + "\n", "wait_for_command": true})
	// The screen is still once the command has ended: a frame comes
	// that equals it, cell for cell in text.
	ev := st.until(t, "screen", func(d string) bool {
		rows, _, err := viewFrameRows(d)
		return err == nil && trimRows(rows) == trimRows(strings.Split(s.Text(false), "\n"))
	})
	if !strings.Contains(ev.data, `"日","","本",""`) || !strings.Contains(ev.data, `"red"]`) {
		t.Errorf("the wide characters are not cells of their own, each with its right half: %s", ev.data)
	}

	if r := viewPostURL(t, url, "take", st.csrf, "", nil); r.status/100 != 2 {
		t.Fatalf("take: %d %s", r.status, r.body)
	}
	st.until(t, "status", statusIs(func(m viewStatusMsg) bool { return m.Keyboard == "person" && m.You }))
	if r, _ := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo agent\n"}); !r.IsError || !strings.Contains(r.Text, "a person is typing") {
		t.Errorf("shell_send while the page holds the keyboard: isError %v, %q", r.IsError, r.Text)
	}
	if r := viewPostURL(t, url, "keys", st.csrf, "echo from-$((6*7))-browser\r", nil); r.status/100 != 2 {
		t.Fatalf("keys: %d %s", r.status, r.body)
	}
	w := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "/^from-42-browser$/", "timeout_ms": 10000})
	if w["matched"] != true || w["person_typed"] != true {
		t.Errorf("the agent's wait after the person typed: matched %v, person_typed %v", w["matched"], w["person_typed"])
	}
	if r := viewPostURL(t, url, "give", st.csrf, "", nil); r.status/100 != 2 {
		t.Fatalf("give: %d %s", r.status, r.body)
	}
	st.until(t, "status", statusIs(func(m viewStatusMsg) bool { return m.Keyboard == "agent" && !m.You }))
	if c := runCommand(t, a, id, "echo agent-again", nil); c["exit_code"] != float64(0) {
		t.Errorf("the agent's command after give: %v", c)
	}
	cmds := readText(t, a, "session://"+id+"/commands")
	if !strings.Contains(cmds, `"by":"person"`) || !strings.Contains(cmds, "from-$((6*7))-browser") {
		t.Errorf("session://%s/commands does not list the person's command by person:\n%s", id, cmds)
	}

	mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
	if rest := strings.Join(st.ends(t), " "); !strings.Contains(rest, "end") {
		t.Errorf("the stream after shell_stop: %s", rest)
	}
	// The listener closes with its last view, or answers 404.
	if resp, err := http.Get(url); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("the link after shell_stop: %d, want 404 or no listener", resp.StatusCode)
		}
	}
	if _, err := a.tools.views.Offer(s); err == nil {
		t.Error("a view of a stopped session was offered")
	}
}

// TestSessionViewOff: with --web=off, shell_start's view is refused
// before anything starts, with the fix.
func TestSessionViewOff(t *testing.T) {
	a := newApp(Config{Cols: 80, Rows: 24, Theme: "one-dark", Scrollback: 100, MaxSessions: 4, OutputDir: t.TempDir(), Web: "off"})
	t.Cleanup(a.shutdown)
	r, _ := call(t, a, "shell_start", map[string]any{"command": "true", "view": true})
	if !r.IsError || !strings.Contains(r.Text, "--web=off") || !strings.Contains(r.Text, "ttywright attach") {
		t.Errorf("view with --web=off: isError %v, %q", r.IsError, r.Text)
	}
	if n := len(a.sessions.List()); n != 0 {
		t.Errorf("%d sessions started", n)
	}
}

// TestAttachWebOp: the attach socket's web request answers the session's
// link, the same one shell_start gives, and an unknown session an error.
func TestAttachWebOp(t *testing.T) {
	a := newTestApp(t)
	id := start(t, a, "cat")
	as := attachTestServer(t, a, attachReadLimit, attachWriteLimit)
	v := dialViewer(t, as)
	v.send(`{"op":"web","session":"` + id + `"}`)
	var f struct{ Op, URL string }
	if err := json.Unmarshal(v.until("web", nil), &f); err != nil || !strings.Contains(f.URL, "/view/") {
		t.Fatalf("web answer: %+v, %v", f, err)
	}
	if url, err := a.tools.views.Offer(a.sessions.Get(id)); err != nil || url != f.URL {
		t.Errorf("the tools' link %q, %v; the socket's %q", url, err, f.URL)
	}
	v.send(`{"op":"web","session":"shell-99"}`)
	if line := v.until("error", nil); !strings.Contains(string(line), "no session") {
		t.Errorf("web of an unknown session: %s", line)
	}
}

// viewDemoScript draws the browser test's screens in raw mode, 40x6:
// colours, bold, underline, italic, dim, reverse and wide characters,
// the cursor on row 4; each Ctrl-N (the agent's) draws the other
// screen, and every other byte it reads goes to the log, argv[1].
const viewDemoScript = `import os, sys, tty
screens = [
    "\x1b[H\x1b[2J$ \x1b[1;31mls --color\x1b[0m"
    "\x1b[2;1HREADME.md  \x1b[32;44msrc\x1b[0m  go.mod"
    "\x1b[3;1H\x1b[3;4m\u65e5\u672c\u8a9e wide\x1b[0m"
    "\x1b[4;1H\x1b[7;33m reversed \x1b[0m\x1b[2m dim\x1b[0m"
    "\x1b[5;1H$ ",
    "\x1b[H\x1b[2Jsecond frame \x1b[1;32mok\x1b[0m\x1b[2;1H$ ",
]
log = open(sys.argv[1], "ab", 0)
tty.setraw(0)
shown = 0
os.write(1, screens[0].encode())
while True:
    b = os.read(0, 4096)
    if not b:
        break
    for _ in range(b.count(b"\x0e")):
        shown = 1 - shown
        os.write(1, screens[shown].encode())
    log.write(b.replace(b"\x0e", b""))
`

// TestSessionViewServeForBrowser serves the live view of a real session
// for the browser test (interop/ts/view.test.mjs) when
// TTYWRIGHT_VIEW_DEMO=1: python3 draws viewDemoScript's screens. It
// prints VIEW_URL= and CONTROL_URL= lines; the control server on another
// loopback port answers GET /frame (the session's screen frame now),
// POST /next (the agent sends Ctrl-N: the other screen, returned once
// shown), GET /keys (the bytes that reached the program) and POST /quit,
// which ends the test; so does a deadline of five minutes.
func TestSessionViewServeForBrowser(t *testing.T) {
	if os.Getenv("TTYWRIGHT_VIEW_DEMO") != "1" {
		t.Skip("serves the browser test's view only with TTYWRIGHT_VIEW_DEMO=1")
	}
	a := newTestApp(t)
	dir := t.TempDir()
	script, keys := filepath.Join(dir, "demo.py"), filepath.Join(dir, "keys")
	if err := os.WriteFile(script, []byte(viewDemoScript), 0o600); err != nil {
		t.Fatal(err)
	}
	m := mustCall(t, a, "shell_start", map[string]any{"command": realPython(), "args": []string{script, keys},
		"cols": 40, "rows": 6, "view": true})
	id, url := m["shell_session_id"].(string), m["view_url"].(string)
	s := a.sessions.Get(id)
	th := viewTheme(s)
	frame := func() []byte { return viewScreenFrame(s.Snapshot(), th) }
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "dim", "timeout_ms": 20000})

	quit := make(chan struct{})
	var once sync.Once
	mux := http.NewServeMux()
	mux.HandleFunc("GET /frame", func(w http.ResponseWriter, _ *http.Request) { w.Write(frame()) })
	mux.HandleFunc("POST /next", func(w http.ResponseWriter, _ *http.Request) {
		want := "second frame"
		if strings.Contains(s.Text(false), want) {
			want = "dim"
		}
		if r, _ := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "\x0e", "wait_for": want, "timeout_ms": 10000}); r.IsError {
			http.Error(w, r.Text, http.StatusInternalServerError)
			return
		}
		w.Write(frame())
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, _ *http.Request) {
		b, _ := os.ReadFile(keys)
		json.NewEncoder(w).Encode(map[string]any{"keys": string(b), "calls": len(b)})
	})
	mux.HandleFunc("POST /quit", func(http.ResponseWriter, *http.Request) { once.Do(func() { close(quit) }) })
	ctl := httptest.NewServer(mux)
	defer ctl.Close()
	fmt.Printf("VIEW_URL=%s\nCONTROL_URL=%s\n", url, ctl.URL)
	select {
	case <-quit:
	case <-time.After(5 * time.Minute):
		t.Error("no POST /quit within five minutes")
	}
}

// TestPumpViewer runs the one viewer pump over a real program that
// prints, reads a line, prints again and exits. Each output gets what it
// is for, in order: the status and the screen first, the screen again
// once it changed, the exit once, after the last screen, and nothing
// after it until ctx ends, when the pump returns; a nil output is
// skipped; an output's error ends the pump at once.
func TestPumpViewer(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tc := range []struct {
		name string
		fail string // the output that fails, "" for none
	}{{"all outputs", ""}, {"a failing screen", "screen"}} {
		t.Run(tc.name, func(t *testing.T) {
			s := a.sessions.Get(start(t, a, "sh", "-c", "printf one; read x; printf two; exit 3"))
			events := make(chan string, 256)
			out := func(what string, detail ...string) error {
				events <- strings.Join(append([]string{what}, detail...), " ")
				if what == tc.fail {
					return errors.New("the viewer went away")
				}
				return nil
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan struct{})
			go func() {
				defer close(done)
				pumpViewer(ctx, s, viewerOutputs{
					status: func() error { return out("status") },
					screen: func(snap *Snapshot) error { return out("screen", strings.Fields(snapshotText(snap))...) },
					exit:   func() error { return out("exit") },
				})
			}()
			next := func() string {
				select {
				case e := <-events:
					return e
				case <-time.After(10 * time.Second):
					t.Fatal("no output from the pump in 10 s")
					return ""
				}
			}
			if e := next(); e != "status" {
				t.Fatalf("first output %q, want the status", e)
			}
			if e := next(); !strings.HasPrefix(e, "screen") {
				t.Fatalf("second output %q, want the screen", e)
			}
			if tc.fail != "" {
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("the pump went on after an output failed")
				}
				return
			}
			mustCall(t, a, "shell_wait", map[string]any{"session_id": s.ID, "wait_for": "one", "timeout_ms": 10000})
			mustCall(t, a, "shell_send", map[string]any{"session_id": s.ID, "text": "\n"})
			var last string
			for e := next(); e != "exit"; e = next() {
				if e == "status" {
					t.Errorf("a status without a change of keyboard")
				}
				last = e
			}
			if last != "screen one two" {
				t.Errorf("the screen before the exit: %q, want %q", last, "screen one two")
			}
			select {
			case e := <-events:
				t.Errorf("%q after the exit", e)
			case <-done:
				t.Error("the pump returned after the exit before ctx ended")
			default:
			}
			cancel()
			<-done
		})
	}
}
