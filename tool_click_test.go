package main

// tool_click_test.go: shell_read format "styled", shell_find and
// shell_click against real programs: a Python curses program reports the
// cell clicked, vim moves its cursor there, mc selects the file clicked,
// htop sorts by the header clicked, less scrolls on the wheel, dialog's
// highlighted item is found by its style; a shell without mouse reporting
// refuses the click. BenchmarkStyledSize gives the styled/plain sizes.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needProgram skips the test when name is not installed.
func needProgram(t testing.TB, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed", name)
	}
}

// startIn starts command in dir with HOME set to dir (so the program's
// configuration starts from nothing) at cols x rows.
func startIn(t testing.TB, a *App, dir string, cols, rows int, command string, args ...string) string {
	t.Helper()
	if args == nil {
		args = []string{}
	}
	m := mustCall(t, a, "shell_start", map[string]any{"command": command, "args": args, "cwd": dir, "cols": cols, "rows": rows,
		"env": map[string]string{"HOME": dir, "LANG": "C.UTF-8"}})
	return m["shell_session_id"].(string)
}

// find calls shell_find and decodes its matches.
func find(t testing.TB, a *App, args map[string]any) []findMatch {
	t.Helper()
	m := mustCall(t, a, "shell_find", args)
	b, _ := json.Marshal(m["matches"])
	var ms []findMatch
	if err := json.Unmarshal(b, &ms); err != nil {
		t.Fatal(err)
	}
	return ms
}

// styleOfText is the style of the nth match of text (fails when missing).
func styleOfText(t testing.TB, a *App, id, text string, nth int) Style {
	t.Helper()
	ms := find(t, a, map[string]any{"session_id": id, "text": text, "timeout_ms": 5000})
	if len(ms) <= nth {
		t.Fatalf("%q: %d matches, want more than %d", text, len(ms), nth)
	}
	return ms[nth].Style
}

// mouseInfo is the mouse field of the session's info resource.
func mouseInfo(t testing.TB, a *App, id string) string {
	t.Helper()
	rc, err := a.hub.readResource("session://" + id + "/info")
	if err != nil || rc.Text == nil {
		t.Fatalf("session info: %v", err)
	}
	var info struct{ Mouse string }
	if err := json.Unmarshal([]byte(*rc.Text), &info); err != nil {
		t.Fatal(err)
	}
	return info.Mouse
}

func styleJSON(s Style) string { b, _ := json.Marshal(s); return string(b) }

// TestClickPythonCurses: ncurses with mousemask(ALL_MOUSE_EVENTS) gets a
// click at row 5, col 10 as y 5, x 10.
func TestClickPythonCurses(t *testing.T) {
	t.Parallel()
	needProgram(t, "python3")
	dir := t.TempDir()
	script := `import curses
def main(w):
    curses.mousemask(curses.ALL_MOUSE_EVENTS)
    w.addstr(0, 0, "READY")
    w.refresh()
    while True:
        k = w.getch()
        if k == curses.KEY_MOUSE:
            _, x, y, _, b = curses.getmouse()
            kind = "double" if b & curses.BUTTON1_DOUBLE_CLICKED else "click" if b & curses.BUTTON1_CLICKED else "other"
            w.addstr(1, 0, "GOT y=%d x=%d %s   " % (y, x, kind))
            w.refresh()
        elif k == ord("q"):
            return
curses.wrapper(main)
`
	if err := os.WriteFile(filepath.Join(dir, "m.py"), []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t)
	id := startIn(t, a, dir, 80, 24, "python3", "m.py")
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "READY"})
	m := mustCall(t, a, "shell_click", map[string]any{"session_id": id, "row": 5, "col": 10, "wait_for": "GOT"})
	t.Logf("sent %v in mouse mode %v", m["sent"], m["mouse_mode"])
	if got := mouseInfo(t, a, id); got != m["mouse_mode"] || got == "off" {
		t.Errorf("session info mouse %q, want the mode the click used, %v", got, m["mouse_mode"])
	}
	if !strings.Contains(m["bufferAfter"].(string), "GOT y=5 x=10 click") {
		t.Errorf("curses did not get a click at y=5 x=10 (sent %v in %v): %q", m["sent"], m["mouse_mode"], m["bufferAfter"])
	}
	m = mustCall(t, a, "shell_click", map[string]any{"session_id": id, "row": 7, "col": 3, "count": 2, "wait_for": "x=3"})
	if !strings.Contains(m["bufferAfter"].(string), "GOT y=7 x=3 double") {
		t.Errorf("curses did not get a double click at y=7 x=3 (sent %v): %q", m["sent"], m["bufferAfter"])
	}
}

// TestClickVimMovesCursor: with set mouse=a a click puts vim's cursor on
// the cell clicked.
func TestClickVimMovesCursor(t *testing.T) {
	t.Parallel()
	needProgram(t, "vim")
	dir := t.TempDir()
	var lines []string
	for i := 1; i <= 10; i++ {
		lines = append(lines, fmt.Sprintf("line %02d abcdefghijklmnop", i))
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t)
	id := startIn(t, a, dir, 80, 24, "vim", "-u", "NONE", "-N", "-n", "-c", "set mouse=a", "f.txt")
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "f.txt", "wait_idle_ms": 300})
	m := mustCall(t, a, "shell_click", map[string]any{"session_id": id, "row": 3, "col": 12, "wait_idle_ms": 200})
	t.Logf("sent %v in mouse mode %v", m["sent"], m["mouse_mode"])
	r := mustCall(t, a, "shell_read", map[string]any{"session_id": id, "scrollback": false})
	cur := r["cursor"].(map[string]any)
	if cur["row"] != float64(3) || cur["col"] != float64(12) {
		t.Errorf("vim's cursor is at %v,%v after a click at 3,12 (sent %v in %v)", cur["row"], cur["col"], m["sent"], m["mouse_mode"])
	}
}

// TestClickMcSelectsFile: a click on a file name in mc's left panel moves
// the selection bar there: the name takes the style the bar had.
func TestClickMcSelectsFile(t *testing.T) {
	t.Parallel()
	needProgram(t, "mc")
	dir := t.TempDir()
	for _, f := range []string{"alpha.txt", "bravo.txt", "charlie.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a := newTestApp(t)
	id := startIn(t, a, dir, 100, 30, "mc", "-u", "-X", dir, dir)
	bar := styleOfText(t, a, id, "/..", 0) // the selection starts on the parent directory
	before := styleOfText(t, a, id, "bravo.txt", 0)
	if styleJSON(bar) == styleJSON(before) {
		t.Fatalf("bravo.txt already has the selection's style %s", styleJSON(bar))
	}
	m := mustCall(t, a, "shell_click", map[string]any{"session_id": id, "text": "bravo.txt", "wait_idle_ms": 300})
	t.Logf("sent %v in mouse mode %v", m["sent"], m["mouse_mode"])
	ms := find(t, a, map[string]any{"session_id": id, "text": "bravo.txt", "style": bar, "timeout_ms": 3000})
	if len(ms) != 1 || ms[0].Row != int(m["row"].(float64)) {
		t.Errorf("after clicking bravo.txt at %v,%v (sent %v): matches with the selection style %s: %+v", m["row"], m["col"], m["sent"], styleJSON(bar), ms)
	}
}

// TestClickHtopSortsByHeader: a click on the MEM% header makes it the
// sort column, which htop shows in the sort column's colour.
func TestClickHtopSortsByHeader(t *testing.T) {
	t.Parallel()
	needProgram(t, "htop")
	dir := t.TempDir()
	a := newTestApp(t)
	id := startIn(t, a, dir, 120, 40, "htop")
	sorted := styleOfText(t, a, id, "CPU%", 0)
	mem := styleOfText(t, a, id, "MEM%", 0)
	if styleJSON(sorted) == styleJSON(mem) {
		t.Fatalf("CPU%% and MEM%% headers look the same (%s): cannot tell the sort column", styleJSON(mem))
	}
	m := mustCall(t, a, "shell_click", map[string]any{"session_id": id, "text": "MEM%", "wait_idle_ms": 300})
	t.Logf("sent %v in mouse mode %v", m["sent"], m["mouse_mode"])
	ms := find(t, a, map[string]any{"session_id": id, "text": "MEM%", "style": sorted, "timeout_ms": 5000})
	if len(ms) != 1 {
		t.Errorf("after clicking MEM%% (sent %v in %v), MEM%% does not have the sort column's style %s: %q", m["sent"], m["mouse_mode"], styleJSON(sorted), m["bufferAfter"])
	}
}

// TestWheelScrollsLess: less --mouse scrolls down on wheel steps and back
// up.
func TestWheelScrollsLess(t *testing.T) {
	t.Parallel()
	needProgram(t, "less")
	dir := t.TempDir()
	var lines []string
	for i := 1; i <= 200; i++ {
		lines = append(lines, fmt.Sprintf("line %03d", i))
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t)
	id := startIn(t, a, dir, 80, 24, "less", "--mouse", "f.txt")
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "line 023"})
	top := func(m map[string]any) string { return strings.SplitN(m["bufferAfter"].(string), "\n", 2)[0] }
	m := mustCall(t, a, "shell_click", map[string]any{"session_id": id, "row": 10, "col": 10, "button": "wheel_down", "count": 3, "wait_idle_ms": 200})
	down := top(m)
	if down == "line 001" || !strings.HasPrefix(down, "line ") {
		t.Errorf("3 wheel steps down (sent %v in %v): top line %q, want one past line 001", m["sent"], m["mouse_mode"], down)
	}
	m = mustCall(t, a, "shell_click", map[string]any{"session_id": id, "row": 10, "col": 10, "button": "wheel_up", "count": 3, "wait_idle_ms": 200})
	if got := top(m); got != "line 001" {
		t.Errorf("3 wheel steps back up: top line %q, want line 001 (was %q)", got, down)
	}
}

// TestDialogHighlightFoundByStyle: after Down in dialog --menu, the
// second item has a style of its own; shell_find with that style finds it
// and not the other items, and the styled read marks it.
func TestDialogHighlightFoundByStyle(t *testing.T) {
	t.Parallel()
	needProgram(t, "dialog")
	a := newTestApp(t)
	id := startIn(t, a, t.TempDir(), 80, 24, "dialog", "--menu", "Pick one", "12", "40", "3", "1", "Apple", "2", "Banana", "3", "Cherry")
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "Cherry", "wait_idle_ms": 200})
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Down"}, "wait_idle_ms": 200})
	apple, banana, cherry := styleOfText(t, a, id, "Apple", 0), styleOfText(t, a, id, "Banana", 0), styleOfText(t, a, id, "Cherry", 0)
	if styleJSON(banana) == styleJSON(apple) || styleJSON(apple) != styleJSON(cherry) {
		t.Fatalf("after Down: Apple %s, Banana %s, Cherry %s: want Banana alone in its style", styleJSON(apple), styleJSON(banana), styleJSON(cherry))
	}
	ms := find(t, a, map[string]any{"session_id": id, "text": "/Apple|Banana|Cherry/", "style": banana})
	if len(ms) != 1 || ms[0].Text != "Banana" {
		t.Errorf("find with the highlight's style %s: %+v, want Banana alone", styleJSON(banana), ms)
	}
	r, _ := call(t, a, "shell_read", map[string]any{"session_id": id, "format": "styled"})
	var row string
	for _, l := range strings.Split(r.Text, "\n") {
		if strings.Contains(l, "Banana") {
			row = l
		}
	}
	if !strings.Contains(row, "}Banana") || strings.Contains(r.Text, "}Apple") && strings.Contains(row, "}Apple") {
		t.Errorf("the styled read does not mark Banana: %q", row)
	}
}

// TestClickWithoutMouseMode: a shell enables no mouse reporting, so a
// click is an error that suggests keys, and a cell off the screen names
// the screen's size.
func TestClickWithoutMouseMode(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	if got := mouseInfo(t, a, id); got != "off" {
		t.Errorf("session info mouse %q in sh, want off", got)
	}
	r, _ := call(t, a, "shell_click", map[string]any{"session_id": id, "row": 1, "col": 1})
	if !r.IsError || !strings.Contains(r.Text, "not enabled mouse reporting") || !strings.Contains(r.Text, "keys") {
		t.Errorf("click in sh: isError %v, %q; want an error suggesting keys", r.IsError, r.Text)
	}
	r, _ = call(t, a, "shell_click", map[string]any{"session_id": id, "row": 30, "col": 1})
	if !r.IsError || !strings.Contains(r.Text, "80x24") {
		t.Errorf("click at row 30: isError %v, %q; want an error naming 80x24", r.IsError, r.Text)
	}
	r, _ = call(t, a, "shell_click", map[string]any{"session_id": id, "text": "no such text"})
	if !r.IsError || !strings.Contains(r.Text, "not on the screen") {
		t.Errorf("click on missing text: isError %v, %q", r.IsError, r.Text)
	}
}

// TestFindWaitsForTextAndGone: shell_find timeout_ms returns once the
// text is shown, and with gone once it is not.
func TestFindWaitsForTextAndGone(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `sleep 0.3; printf '\033[7mSA''VED\033[m\n'; sleep 0.3; clear\r`, "delay_ms": 0})
	tru := true
	m := mustCall(t, a, "shell_find", map[string]any{"session_id": id, "text": "SAVED", "style": Style{Reverse: &tru}, "timeout_ms": 5000})
	if m["count"] != float64(1) || m["timed_out"] != nil {
		t.Errorf("waiting for SAVED in reverse video: %v", m)
	}
	m = mustCall(t, a, "shell_find", map[string]any{"session_id": id, "text": "SAVED", "gone": true, "timeout_ms": 5000})
	if m["count"] != float64(0) || m["timed_out"] != nil {
		t.Errorf("waiting for SAVED to go: %v", m)
	}
	m = mustCall(t, a, "shell_find", map[string]any{"session_id": id, "text": "NEVER", "timeout_ms": 100})
	if m["count"] != float64(0) || m["timed_out"] != true {
		t.Errorf("waiting for NEVER: %v, want timed_out", m)
	}
}

// TestFindEndsAtExit: a program that exits while shell_find waits ends
// the wait as not found, with its exit, not as a timeout.
func TestFindEndsAtExit(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh", "-c", "sleep 0.3; exit 3")
	m := mustCall(t, a, "shell_find", map[string]any{"session_id": id, "text": "NEVER", "timeout_ms": 20000})
	if m["count"] != float64(0) || m["timed_out"] != nil || m["exited"] != true || m["exit_code"] != float64(3) {
		t.Errorf("shell_find while the program exits: %v, want exited with code 3 and no timed_out", m)
	}
}

// BenchmarkStyledSize reads screens of real programs at 120x40 styled and
// plain; it reports the bytes of each, their ratio (styled/plain) and the
// size of the runs as JSON (structuredContent).
func BenchmarkStyledSize(b *testing.B) {
	dir := b.TempDir()
	repo, _ := os.Getwd()
	screens := []struct {
		name, prog string
		args       []string
		waitFor    string // shown once the screen is drawn
		keys       []string
	}{
		{"dialog", "dialog", []string{"--menu", "Pick one", "15", "40", "4", "1", "Apple", "2", "Banana", "3", "Cherry"}, "Cancel", []string{"Down"}},
		{"mc", "mc", []string{"-u", "-X", repo, dir}, "Quit", nil},
		{"htop", "htop", nil, "PID", nil},
		{"vim", "vim", []string{"-u", "NONE", "-N", "-n", "-c", "syntax on", filepath.Join(repo, "tools_mouse.go")}, "tools_mouse.go", nil},
		{"git-log", "sh", []string{"-c", "git -C " + repo + " log --graph --color --oneline -60 | head -39; echo; sleep 600"}, "*", nil},
	}
	for _, sc := range screens {
		b.Run(sc.name, func(b *testing.B) {
			needProgram(b, sc.prog)
			a := newTestApp(b)
			id := startIn(b, a, dir, 120, 40, sc.prog, sc.args...)
			mustCall(b, a, "shell_wait", map[string]any{"session_id": id, "wait_for": sc.waitFor, "wait_idle_ms": 500, "timeout_ms": 5000})
			if sc.keys != nil {
				mustCall(b, a, "shell_send", map[string]any{"session_id": id, "keys": sc.keys, "wait_idle_ms": 300})
			}
			s, _ := a.tools.session(id)
			var plain, styled, runs int
			b.ResetTimer() // ns/op is one plain and one styled read
			for i := 0; i < b.N; i++ {
				plain = len(s.Text(false))
				st := renderStyled(s.Snapshot())
				styled = len(st.Text)
				j, _ := json.Marshal(st.Runs)
				runs = len(j)
			}
			b.ReportMetric(float64(plain), "plain-bytes")
			b.ReportMetric(float64(styled), "styled-bytes")
			b.ReportMetric(float64(styled)/float64(max(plain, 1)), "styled/plain")
			b.ReportMetric(float64(runs), "runs-json-bytes")
		})
	}
}

// TestPatternMessagesAsGiven: errors and the TIMED OUT line show a
// /regex/ as the caller wrote it, not the compiled form with its flags,
// and shell_find's errors name its argument, text.
func TestPatternMessagesAsGiven(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	tests := []struct {
		tool string
		args map[string]any
		want string // in the text block
		not  string // and does not contain it
	}{
		{"shell_find", map[string]any{"text": "/(/"}, `text "/(/" is not a valid regular expression`, "(?m)"},
		{"shell_send", map[string]any{"input": "x", "wait_for": "/(/"}, `wait_for "/(/" is not a valid regular expression`, "(?m)"},
		{"shell_wait", map[string]any{"wait_for": "/tick [0-9]$/", "timeout_ms": 100}, `TIMED OUT after 100ms waiting for wait_for output matching /tick [0-9]$/ `, "(?m)"},
	}
	for _, tt := range tests {
		tt.args["session_id"] = id
		r, _ := call(t, a, tt.tool, tt.args)
		if !strings.Contains(r.Text, tt.want) || strings.Contains(r.Text, tt.not) {
			t.Errorf("%s %v: %q, want it to say %q and not show %q", tt.tool, tt.args, firstLine(r.Text), tt.want, tt.not)
		}
	}
}
