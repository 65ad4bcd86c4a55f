package main

// tools_app_test.go: the terminal app's tools on real sessions: the
// long-poll, the viewers and their lease, the keyboard with its rules and
// the account of what the person did, the secret, and the abuse (many
// pollers, a takeover race with ttywright attach, a huge screen).

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// appFrame decodes app_screen's frame, and its text as rows cut of
// their trailing blanks (viewFrameRows, trimRows); nil when the poll had
// none.
func appFrame(t testing.TB, m map[string]any) (*htmlFrame, string) {
	t.Helper()
	raw, ok := m["frame"]
	if !ok {
		return nil, ""
	}
	b, _ := json.Marshal(raw)
	rows, f, err := viewFrameRows(string(b))
	if err != nil {
		t.Fatalf("app_screen's frame does not decode: %v", err)
	}
	return &f, trimRows(rows)
}

// appPoll calls app_screen and returns its result.
func appPoll(t testing.TB, a *App, args map[string]any) map[string]any {
	t.Helper()
	return mustCall(t, a, "app_screen", args)
}

// TestAppScreenPoll: the first poll joins and returns the screen at
// once; a poll since its next waits for the agent's change and returns
// the new screen; a second poll of the same app ends the first at once,
// with nothing new.
func TestAppScreenPoll(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", []string{"--norc", "--noprofile"}, nil)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
	first := appPoll(t, a, map[string]any{"session_id": id})
	viewer, _ := first["viewer"].(string)
	f, text := appFrame(t, first)
	st, _ := first["status"].(map[string]any)
	fg, _ := first["foreground"].(map[string]any)
	if viewer == "" || f == nil || f.Cols != 80 || f.Rows != 24 || st["keyboard"] != holderAgent || st["viewers"] != 1.0 || fg["input"] != inputCommand {
		t.Fatalf("first poll: viewer %q frame %v status %v foreground %v", viewer, f != nil, st, fg)
	}
	if want := trimRows(strings.Split(a.sessions.Get(id).Text(false), "\n")); text != want {
		t.Errorf("the frame's text:\n%s\nwant shell_read's:\n%s", text, want)
	}

	polled := make(chan map[string]any, 1)
	go func() {
		_, m := call(t, a, "app_screen", map[string]any{"session_id": id, "viewer": viewer, "since": first["next"]})
		polled <- m
	}()
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo polled-$((6*7))\n", "wait_for": "polled-42"})
	var next map[string]any
	for next = <-polled; ; next = appPoll(t, a, map[string]any{"session_id": id, "viewer": viewer, "since": next["next"]}) {
		if _, text := appFrame(t, next); strings.Contains(text, "polled-42\n") {
			break
		}
	}
	if next["viewer"] != viewer {
		t.Errorf("the app's token changed: %v, want %s", next["viewer"], viewer)
	}

	waiting := make(chan map[string]any, 1)
	go func() {
		_, m := call(t, a, "app_screen", map[string]any{"session_id": id, "viewer": viewer, "since": next["next"]})
		waiting <- m
	}()
	waitFor(t, func() bool { return appPolling(a, viewer) })
	light := appPoll(t, a, map[string]any{"session_id": id, "viewer": viewer, "host_theme": "light"})
	if m := <-waiting; m["frame"] != nil || m["next"] != next["next"] {
		t.Errorf("the waiting poll, when the app polled again: frame %v next %v, want none and %v", m["frame"] != nil, m["next"], next["next"])
	}
	if f, _ := appFrame(t, light); f == nil {
		t.Error("host_theme light: no frame")
	} else if want := appTheme(a.sessions.Get(id), "light"); want.Type != "light" || f.Styles[f.Blank].BG != hexColor(want.Background) {
		t.Errorf("host_theme light: the frame's blank style is %+v, want %s's background", f.Styles[f.Blank], want.Name)
	}
}

// appPolling reports whether the app whose token is token has a poll
// waiting.
func appPolling(a *App, token string) bool {
	a.tools.apps.mu.Lock()
	defer a.tools.apps.mu.Unlock()
	v, ok := a.tools.apps.viewers.lookup(token)
	return ok && v.poll != nil
}

// TestAppKeyboard: an app takes the keyboard (the agent's typing is then
// refused), types a command, gives it back: the program got it, the
// agent's next reply says person_typed, the command is by the person,
// and the give's account names the command and its exit code, never
// other keys. The rules hold: keys only while held, the app's own token
// only.
func TestAppKeyboard(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := startShell(t, a, "bash", "", []string{"--norc", "--noprofile"}, nil)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for_command": true})
	viewer := appPoll(t, a, map[string]any{"session_id": id})["viewer"].(string)
	kb := func(action, keys string) (*ToolResult, map[string]any) {
		args := map[string]any{"session_id": id, "viewer": viewer, "action": action}
		if keys != "" {
			args["keys"] = keys
		}
		return call(t, a, "app_keyboard", args)
	}
	for _, bad := range []struct{ action, keys, viewer, want string }{
		{"keys", "ls\r", viewer, "take it first"},
		{"take", "ls", viewer, "keys goes with action keys"},
		{"keys", "", viewer, "keys goes with action keys"},
		{"take", "", "NOT-A-TOKEN", "is not an app of this session"},
		{"hold", "", viewer, `action "hold"`},
	} {
		args := map[string]any{"session_id": id, "viewer": bad.viewer, "action": bad.action}
		if bad.keys != "" {
			args["keys"] = bad.keys
		}
		if r, _ := call(t, a, "app_keyboard", args); !r.IsError || !strings.Contains(r.Text, bad.want) {
			t.Errorf("app_keyboard %v: isError %v %q, want an error saying %q", args, r.IsError, r.Text, bad.want)
		}
	}
	if r, m := kb("take", ""); r.IsError || m["status"].(map[string]any)["you"] != true {
		t.Fatalf("take: %s %v", r.Text, m)
	}
	if r, _ := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo agent\n"}); !r.IsError || !strings.Contains(r.Text, "terminal app") {
		t.Errorf("shell_send while the app holds the keyboard: isError %v %q", r.IsError, r.Text)
	}
	if r, _ := kb("keys", "echo from-$((6*7))-app\r"); r.IsError {
		t.Fatal(r.Text)
	}
	w := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "/^from-42-app$/", "timeout_ms": 10000})
	if w["person_typed"] != true || w["keyboard"] != holderPerson {
		t.Errorf("the agent's wait: person_typed %v keyboard %v", w["person_typed"], w["keyboard"])
	}
	kb("keys", "false\r")
	waitFor(t, func() bool { return newestCommand(a.sessions.Get(id)) == 2 })
	r, m := kb("give", "")
	account, _ := m["account"].(string)
	for _, want := range []string{"ran 2 commands", "`echo from-$((6*7))-app` (exit 0)", "`false` (exit 1)", id} {
		if !strings.Contains(account, want) {
			t.Errorf("the give's account %q lacks %q", account, want)
		}
	}
	if r.Text != account || m["status"].(map[string]any)["keyboard"] != holderAgent {
		t.Errorf("give: text %q status %v", r.Text, m["status"])
	}
	if _, m := kb("give", ""); m["account"] != nil {
		t.Errorf("a second give has an account: %v", m["account"])
	}
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo agent-again\n", "wait_for_command": true})
	c := mustCall(t, a, "app_commands", map[string]any{"session_id": id, "viewer": viewer})
	cmds, _ := c["commands"].([]any)
	if len(cmds) != 3 || cmds[0].(map[string]any)["by"] != holderPerson || !strings.Contains(cmds[0].(map[string]any)["output"].(string), "from-42-app") || cmds[2].(map[string]any)["by"] != nil {
		t.Errorf("app_commands: %v", c)
	}
}

// TestAppLease: an app that stops polling leaves once its lease ends,
// and gives back the keyboard it held: the agent types again.
func TestAppLease(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	a.tools.apps.lease = 50 * time.Millisecond
	id := start(t, a, "cat")
	s := a.sessions.Get(id)
	viewer := appPoll(t, a, map[string]any{"session_id": id})["viewer"].(string)
	mustCall(t, a, "app_keyboard", map[string]any{"session_id": id, "viewer": viewer, "action": "take"})
	waitFor(t, func() bool { k := s.Keyboard(); return k.Viewers == 0 && k.Holder == holderAgent })
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "back\n", "wait_for": "back"})
	if r, _ := call(t, a, "app_keyboard", map[string]any{"session_id": id, "viewer": viewer, "action": "take"}); !r.IsError || !strings.Contains(r.Text, "app_screen without viewer") {
		t.Errorf("the left app's take: %q", r.Text)
	}
	if m := appPoll(t, a, map[string]any{"session_id": id, "viewer": viewer}); m["viewer"] == viewer || m["frame"] == nil {
		t.Errorf("the left app polled again: token %v (want a new one), frame %v", m["viewer"], m["frame"] != nil)
	}
}

// TestAppPollers: 100 callers poll one session at once. Apps without a
// token join up to maxAppViewers and the rest are refused; the polls of
// one app end each other, so at most one per app waits; every poll that
// waits ends with the next screen.
func TestAppPollers(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	s := a.sessions.Get(id)
	type answer struct {
		r *ToolResult
		m map[string]any
	}
	poll := func(args map[string]any, n int) []answer {
		out := make(chan answer, n)
		for range n {
			go func() {
				r, m := call(t, a, "app_screen", args)
				out <- answer{r, m}
			}()
		}
		if args["since"] != nil {
			waitFor(t, func() bool { return appPolling(a, args["viewer"].(string)) })
			mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": fmt.Sprintf("round-%d\n", n), "wait_for": fmt.Sprintf("round-%d", n)})
		}
		all := make([]answer, n)
		for i := range all {
			all[i] = <-out
		}
		return all
	}
	joined, refused := 0, 0
	var token string
	for _, an := range poll(map[string]any{"session_id": id}, 100) {
		switch {
		case !an.r.IsError:
			joined++
			token = an.m["viewer"].(string)
		case strings.Contains(an.r.Text, "the most at once"):
			refused++
		default:
			t.Errorf("a poll failed otherwise: %s", an.r.Text)
		}
	}
	if joined != maxAppViewers || refused != 100-maxAppViewers || s.Keyboard().ByKind[viewerApp] != maxAppViewers {
		t.Errorf("100 new apps: %d joined, %d refused, %d app viewers; want %d joined", joined, refused, s.Keyboard().ByKind[viewerApp], maxAppViewers)
	}
	since := appPoll(t, a, map[string]any{"session_id": id, "viewer": token})["next"]
	framed := 0
	for _, an := range poll(map[string]any{"session_id": id, "viewer": token, "since": since}, 100) {
		if an.r.IsError {
			t.Fatalf("a poll of the app failed: %s", an.r.Text)
		}
		if an.m["frame"] != nil {
			framed++
		}
	}
	if framed < 1 {
		t.Error("100 polls of one app: none ended with the new screen")
	}
}

// TestAppTakeoverRace: the app and a ttywright attach viewer take the
// keyboard at the same moment, round after round: exactly one holds it
// each time, the other is told someone else does, and the holder's give
// back lets the next round begin.
func TestAppTakeoverRace(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	s := a.sessions.Get(id)
	as := attachTestServer(t, a, attachReadLimit, attachWriteLimit)
	v := dialViewer(t, as)
	v.send(fmt.Sprintf(`{"op":"attach","session":%q}`, id))
	v.until("status", nil)
	viewer := appPoll(t, a, map[string]any{"session_id": id})["viewer"].(string)
	appID := func() uint64 {
		a.tools.apps.mu.Lock()
		defer a.tools.apps.mu.Unlock()
		w, _ := a.tools.apps.viewers.lookup(viewer)
		return w.id
	}()
	wins := map[string]int{}
	for round := range 20 {
		appErr := make(chan *ToolResult, 1)
		go func() {
			r, _ := call(t, a, "app_keyboard", map[string]any{"session_id": id, "viewer": viewer, "action": "take"})
			appErr <- r
		}()
		v.send(`{"op":"take"}`)
		r := <-appErr
		waitFor(t, func() bool { return s.Keyboard().Holder == holderPerson })
		holder := s.Keyboard().HolderID
		switch {
		case holder == appID && !r.IsError:
			wins["app"]++
			v.until("error", nil) // the attach viewer's take was refused
			mustCall(t, a, "app_keyboard", map[string]any{"session_id": id, "viewer": viewer, "action": "give"})
		case holder != appID && r.IsError && strings.Contains(r.Text, "another person holds the keyboard"):
			wins["attach"]++
			v.send(`{"op":"give"}`)
		default:
			t.Fatalf("round %d: holder %d (the app is %d), the app's take: isError %v %q", round, holder, appID, r.IsError, r.Text)
		}
		waitFor(t, func() bool { return s.Keyboard().Holder == holderAgent })
	}
	t.Logf("takes won in 20 rounds: %v", wins)
}

// TestAppHugeScreen: a 1000x500 screen, the largest a session has, comes
// whole in one app_screen frame.
func TestAppHugeScreen(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	needShell(t, "python3")
	m := mustCall(t, a, "shell_start", map[string]any{"command": "python3", "cols": maxCols, "rows": maxRows,
		"args": []string{"-c", "import sys,time\nfor r in range(500):\n  sys.stdout.write('\\x1b[%d;1H\\x1b[3%dm' % (r+1, r%8) + ('%03d' % r) * 333 + 'E')\nsys.stdout.write('\\x1b[1;1H')\nsys.stdout.flush()\ntime.sleep(600)"}})
	id := m["shell_session_id"].(string)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "499499499", "timeout_ms": 20000})
	p := appPoll(t, a, map[string]any{"session_id": id})
	f, text := appFrame(t, p)
	if f == nil || f.Cols != maxCols || f.Rows != maxRows || len(f.Lines) != maxRows {
		t.Fatalf("the frame of a %dx%d screen: %+v", maxCols, maxRows, f)
	}
	rows := strings.Split(text, "\n")
	if len(rows) != maxRows || rows[499] != strings.Repeat("499", 333)+"E" || len(f.Styles) < 8 {
		t.Errorf("the frame's last row %.40q..., %d rows, %d styles", rows[len(rows)-1], len(rows), len(f.Styles))
	}
	b, _ := json.Marshal(p["frame"])
	t.Logf("a %dx%d frame: %d bytes", maxCols, maxRows, len(b))
}

// BenchmarkAppFrame measures how long after the agent's shell_send returns
// the app has the screen it left (0 when the app's poll had it first):
// ms/frame is the median, p90-ms the 90th percentile.
func BenchmarkAppFrame(b *testing.B) {
	a := newTestApp(b)
	id := start(b, a, "cat")
	viewer := appPoll(b, a, map[string]any{"session_id": id})["viewer"].(string)
	type seen struct {
		text string
		at   time.Time
	}
	frames := make(chan seen, 64)
	stop := make(chan struct{})
	go func() {
		since := ""
		for {
			select {
			case <-stop:
				return
			default:
			}
			args := map[string]any{"session_id": id, "viewer": viewer}
			if since != "" {
				args["since"] = since
			}
			_, m := call(b, a, "app_screen", args)
			since, _ = m["next"].(string)
			if _, text := appFrame(b, m); text != "" {
				select {
				case frames <- seen{text, time.Now()}:
				case <-stop:
					return
				}
			}
		}
	}()
	defer close(stop)
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		marker := fmt.Sprintf("frame-%d", i)
		mustCall(b, a, "shell_send", map[string]any{"session_id": id, "text": marker + "\n", "wait_for": marker})
		sent := time.Now()
		for f := range frames {
			if strings.Contains(f.text, marker) {
				lat = append(lat, max(0, f.at.Sub(sent)))
				break
			}
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms/frame")
	b.ReportMetric(float64(lat[len(lat)*9/10].Microseconds())/1000, "p90-ms")
}
