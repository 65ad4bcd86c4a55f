package main

// tools_shell_test.go: the tools against real programs with the emulator:
// screen text after echo, the live bottom after scrolling, arrow keys in
// application-cursor mode, a cursor-position query answered, resize seen
// by stty, prompts found by wait_for; the binary leaving no process behind
// when its stdin closes; benchmarks.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// screenLines is a tool's buffer text split into rows.
func screenLines(v any) []string { s, _ := v.(string); return strings.Split(s, "\n") }

func TestScreenAfterEcho(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `echo hel""lo world\r`, "wait_for": "hello world", "wait_for_input": true})
	if m["matched"] != true || !slices.Contains(screenLines(m["bufferAfter"]), "hello world") {
		t.Errorf("bufferAfter has no row \"hello world\": %q", m["bufferAfter"])
	}
	r, rm := call(t, a, "shell_read", map[string]any{"session_id": id})
	if r.IsError || !slices.Contains(strings.Split(r.Text, "\n"), "hello world") || !regexp.MustCompile(`^`+regexp.QuoteMeta(rm["text"].(string))+`\n\n\[80x24, cursor row 2 col \d+; sh waits for a line of input\]$`).MatchString(r.Text) {
		t.Errorf("shell_read: %q (structured text %q)", r.Text, rm["text"])
	}
	cur, _ := rm["cursor"].(map[string]any)
	if rm["cols"] != float64(80) || rm["rows"] != float64(24) || cur == nil || cur["row"] != float64(2) {
		t.Errorf("shell_read: cols %v rows %v cursor %v, want 80x24, cursor on row 2", rm["cols"], rm["rows"], cur)
	}
}

// TestLiveBottomAfterScroll: once output scrolls, bufferAfter and
// shell_read show the bottom of the screen (the newest lines), not the top
// of the scrollback.
func TestLiveBottomAfterScroll(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `i=1; while [ $i -le 300 ]; do echo row-$i; i=$((i+1)); done; echo E""ND\r`, "wait_for": "END"})
	after := screenLines(m["bufferAfter"])
	if !slices.Contains(after, "row-300") || slices.Contains(after, "row-1") || len(after) > 24 {
		t.Errorf("bufferAfter is not the live bottom: %q", after)
	}
	r, _ := call(t, a, "shell_read", map[string]any{"session_id": id, "max_bytes": 200})
	if !strings.HasPrefix(r.Text, truncatedMarker) || !strings.Contains(r.Text, "row-300\nEND") {
		t.Errorf("shell_read max_bytes 200: %q", r.Text)
	}
	r, _ = call(t, a, "shell_read", map[string]any{"session_id": id, "max_bytes": 100000})
	if !strings.Contains(r.Text, "row-1\nrow-2\n") || !strings.Contains(r.Text, "row-300\nEND") {
		t.Errorf("shell_read with scrollback lacks the history or the bottom: %.300q", r.Text)
	}
	_, rm := call(t, a, "shell_read", map[string]any{"session_id": id, "scrollback": false})
	if l := strings.Split(rm["text"].(string), "\n"); len(l) > 24 || slices.Contains(l, "row-1") || !slices.Contains(l, "row-300") {
		t.Errorf("shell_read scrollback false: %q", l)
	}
	r, _ = call(t, a, "shell_read", map[string]any{"session_id": id, "raw": true, "max_bytes": 50})
	if !strings.HasPrefix(r.Text, truncatedMarker) || !strings.Contains(r.Text, "END\r\n") {
		t.Errorf("shell_read raw: %q", r.Text)
	}
}

// TestArrowKeysFollowDECCKM: a program that sets application-cursor mode
// gets ESC O A for Up; one that does not gets ESC [ A.
func TestArrowKeysFollowDECCKM(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	tests := []struct {
		mode string // DECSET/DECRST ?1
		want string // od -An -c of Up, Left, Home
	}{
		{"h", `033   O   A 033   O   D 033   O   H`},
		{"l", `033   [   A 033   [   D 033   [   H`},
	}
	for _, tt := range tests {
		script := `stty raw -echo; printf '\033[?1` + tt.mode + `READY'; dd bs=1 count=9 2>/dev/null | od -An -c; stty sane`
		id := start(t, a, "sh", "-c", script)
		mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "READY"})
		mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Up", "Left", "Home"}, "delay_ms": 0})
		m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id})
		if got := rawText(t, a, id); m["exited"] != true || !strings.Contains(got, tt.want) {
			t.Errorf("DECCKM %s: program read %q, want %q", tt.mode, got, tt.want)
		}
	}
}

// TestCursorPositionReport: a program that asks where the cursor is
// (DSR 6, ESC [ 6 n) and waits for the answer gets it and goes on.
func TestCursorPositionReport(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	script := `stty raw -echo; printf 'abc\033[6n'; r=$(dd bs=1 count=6 2>/dev/null | tr '\033' E); stty sane; echo; echo "GOT $r"`
	id := start(t, a, "sh", "-c", script)
	m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "timeout_ms": 10000})
	if m["exited"] != true || !strings.Contains(m["buffer"].(string), "GOT E[1;4R") {
		t.Errorf("the program did not get its cursor position: %v", m)
	}
}

func TestResizeSeenBySttySize(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh")
	if m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `stty size\r`, "wait_for": "24 80"}); m["matched"] != true {
		t.Fatalf("stty size before: %q", m["bufferAfter"])
	}
	m := mustCall(t, a, "shell_resize", map[string]any{"session_id": id, "cols": 100, "rows": 30})
	if m["cols"] != float64(100) || m["rows"] != float64(30) {
		t.Errorf("shell_resize: %v", m)
	}
	if m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `stty size\r`, "wait_for": "30 100"}); m["matched"] != true {
		t.Errorf("stty size after resize: %q", m["bufferAfter"])
	}
	// A full-screen program hears SIGWINCH. It reads its terminal, so
	// shell_start returns at once (one that never reads waited out the
	// readiness window).
	winch := `import os, signal, sys
signal.signal(signal.SIGWINCH, lambda *_: print("WINCH %d %d" % os.get_terminal_size()[::-1], flush=True))
print("READY", flush=True)
sys.stdin.read()`
	id = start(t, a, realPython(), "-c", winch)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "READY"})
	mustCall(t, a, "shell_resize", map[string]any{"session_id": id, "cols": 90, "rows": 20})
	if m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "WINCH 20 90"}); m["matched"] != true {
		t.Errorf("SIGWINCH not seen: %q", m["buffer"])
	}
}

// TestWaitForPromptOnScreen: a prompt ends in a blank the screen rows do
// not keep; wait_for "$ " must find it while the cursor sits after it, and
// a shell_send waiting for the prompt must wait for the next one.
func TestWaitForPromptOnScreen(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	m := mustCall(t, a, "shell_start", map[string]any{"command": "sh", "env": map[string]string{"PS1": "tw$ "}})
	id := m["shell_session_id"].(string)
	if m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "tw$ ", "timeout_ms": 5000}); m["matched"] != true {
		t.Fatalf("shell_wait for the prompt on screen: %v", m)
	}
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `sleep 0.3; echo slept\r`, "wait_for": "tw$ ", "timeout_ms": 5000})
	if m["matched"] != true || !slices.Contains(screenLines(m["bufferAfter"]), "slept") {
		t.Errorf("shell_send waiting for the next prompt returned before the command ended: %q", m["bufferAfter"])
	}
}

// TestWaitForPromptAfterFullScreen: when a full-screen program exits, the
// shell's old screen comes back with its old prompt; a wait for the
// prompt sent while the program ran must wait for the next one.
func TestWaitForPromptAfterFullScreen(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	m := mustCall(t, a, "shell_start", map[string]any{"command": "sh", "env": map[string]string{"PS1": "tw$ "}})
	id := m["shell_session_id"].(string)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "tw$ ", "timeout_ms": 5000})
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id,
		"input": `printf '\033[?1049hFULL'; read x; printf '\033[?1049l'; sleep 0.3; echo after\r`, "wait_for": "FULL", "timeout_ms": 5000})
	if m["matched"] != true {
		t.Fatalf("the full-screen stand-in did not start: %v", m)
	}
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `\r`, "wait_for": "tw$ ", "timeout_ms": 5000})
	if m["matched"] != true || !slices.Contains(screenLines(m["bufferAfter"]), "after") {
		t.Errorf("shell_send waiting for the next prompt returned on the restored old one: %q", m["bufferAfter"])
	}
}

// TestBinaryStdinEOFLeavesNoProcess drives the built server: start
// sessions (one ignoring SIGHUP), close stdin, and check that every
// process is gone once the server exits.
func TestBinaryStdinEOFLeavesNoProcess(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	c := startProc(t, "--output-dir", t.TempDir())
	var pids []int
	for _, args := range [][]string{{"sh"}, {"sh", "-c", `trap "" HUP; echo READY; sleep 100`}} {
		sc := c.mustTool("shell_start", map[string]any{"command": args[0], "args": args[1:]})
		pid, ok := sc["pid"].(float64)
		if !ok {
			t.Fatalf("shell_start: %v", sc)
		}
		pids = append(pids, int(pid))
		c.mustTool("shell_wait", map[string]any{"session_id": sc["shell_session_id"], "wait_idle_ms": 200})
	}
	c.in.Close()
	done := make(chan error, 1)
	go func() { <-c.exited; done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("server exit: %v; stderr:\n%s", err, c.stderr.String())
		}
	case <-time.After(20 * time.Second):
		c.cmd.Process.Kill()
		t.Fatal("the server did not exit after stdin closed")
	}
	for _, pid := range pids {
		checkGone(t, pid)
	}
}

// BenchmarkThroughput compares, in one run, the raw PTY read rate (a
// child writing 5 MB of coloured text into the PTY, the bytes discarded)
// with a session's end-to-end rate (the same output through the emulator
// until the last line is on the screen). Reported: raw-MB/s, e2e-MB/s,
// e2e/raw (the median ratio of back-to-back runs; target >= 0.90), the
// server's CPU rate, and inline/raw: the raw loop feeding each read to a
// bare Terminal in the same goroutine, which is the bound for any session
// that emulates as it reads (the session adds only its bookkeeping).
func BenchmarkThroughput(b *testing.B) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		b.Skip("no PTYs")
	}
	file := b.TempDir() + "/colour.txt"
	stream := colourStream(5 << 20)
	if err := os.WriteFile(file, stream, 0o600); err != nil {
		b.Fatal(err)
	}
	size := float64(len(stream))
	// readAll runs cat in a PTY and hands each read to feed until EIO.
	readAll := func(feed func([]byte)) time.Duration {
		t0 := time.Now()
		cmd := exec.Command("cat", file)
		master, _, err := startPTY(cmd, 120, 40)
		if err != nil {
			b.Fatal(err)
		}
		buf := make([]byte, readBufSize)
		for {
			n, err := master.Read(buf)
			feed(buf[:n])
			if err != nil {
				break
			}
		}
		cmd.Wait()
		master.Close()
		return time.Since(t0)
	}
	a := newTestApp(b)
	var raw, e2e, inline []time.Duration
	var cpu time.Duration // the server's CPU time (user+system) in the end-to-end runs
	for i := 0; i < b.N; i++ {
		raw = append(raw, readAll(func([]byte) {}))

		// End to end: the same through a session until the last line shows.
		c0 := cpuTime()
		t0 := time.Now()
		s, err := a.tools.startSession(StartOptions{Command: "cat", Args: []string{file}, Cols: 120, Rows: 40})
		if err != nil {
			b.Fatal(err)
		}
		<-s.done
		e2e = append(e2e, time.Since(t0))
		cpu += cpuTime() - c0
		if !strings.Contains(s.Text(false), "THE-LAST-LINE") {
			b.Fatalf("last line not on the screen: %q", s.Text(false))
		}
		a.tools.stopSession(s, 1)

		term := NewTerminal(120, 40, a.cfg.Scrollback)
		inline = append(inline, readAll(func(p []byte) { term.Write(p) }))
		if !slices.Contains(term.Lines(), "THE-LAST-LINE") {
			b.Fatalf("inline: last line not on the screen: %q", term.Lines())
		}
	}
	b.SetBytes(int64(size))
	// Medians of the alternating runs, and the median of each run's ratio
	// to the raw run before it: other load on the machine hits both alike.
	ratio := func(d []time.Duration) float64 {
		r := make([]time.Duration, len(raw))
		for i := range raw {
			r[i] = time.Duration(float64(time.Second) * raw[i].Seconds() / d[i].Seconds())
		}
		return median(r).Seconds()
	}
	b.ReportMetric(size/median(raw).Seconds()/1e6, "raw-MB/s")
	b.ReportMetric(size/median(e2e).Seconds()/1e6, "e2e-MB/s")
	b.ReportMetric(ratio(e2e), "e2e/raw")
	b.ReportMetric(ratio(inline), "inline/raw")
	b.ReportMetric(size*float64(b.N)/cpu.Seconds()/1e6, "server-cpu-MB/s")
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

// BenchmarkSendWaitFor measures shell_send + wait_for of an echo on an
// idle bash, the round trip an agent makes most; it reports the median.
func BenchmarkSendWaitFor(b *testing.B) {
	if _, err := exec.LookPath("bash"); err != nil {
		b.Skip("no bash")
	}
	a := newTestApp(b)
	m := mustCall(b, a, "shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile"}, "env": map[string]string{"PS1": "$ "}})
	id := m["shell_session_id"].(string)
	mustCall(b, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "$ "})
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		m := mustCall(b, a, "shell_send", map[string]any{"session_id": id, "input": fmt.Sprintf(`echo MARK-$((%d+1))\r`, i), "wait_for": fmt.Sprintf("MARK-%d", i+1)})
		lat = append(lat, time.Since(t0))
		if m["matched"] != true {
			b.Fatalf("no match: %v", m)
		}
	}
	b.ReportMetric(float64(median(lat).Microseconds())/1000, "median-ms")
}

// rpcCall sends a request through the JSON-RPC loop and returns its
// result, skipping notifications (list_changed, log messages) on the way.
func rpcCall(t *testing.T, c *testClient, id int, method string, params any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	c.send(string(b))
	for {
		r := c.recvReply()
		if r.Method != "" {
			continue
		}
		if string(r.ID) != fmt.Sprint(id) {
			t.Fatalf("%s: reply for id %s, want %d", method, r.ID, id)
		}
		if r.Error != nil {
			t.Fatalf("%s: %+v", method, r.Error)
		}
		var m map[string]any
		json.Unmarshal(r.Result, &m)
		return m
	}
}

// TestShellToolsOverJSONRPC drives the tools through the protocol loop:
// declarations, structured results, shell_send's text block written for
// the model and shell_read's being the screen itself.
func TestShellToolsOverJSONRPC(t *testing.T) {
	t.Parallel()
	c := startServer(t)
	c.initialize("2025-06-18")
	list := rpcCall(t, c, 1, "tools/list", map[string]any{})
	tools, _ := list["tools"].([]any)
	hints := map[string]string{"shell_read": "readOnlyHint", "shell_wait": "readOnlyHint", "shell_find": "readOnlyHint", "shell_stop": "destructiveHint"}
	seen := 0
	for _, x := range tools {
		tool := x.(map[string]any)
		name, _ := tool["name"].(string)
		if !strings.HasPrefix(name, "shell_") || name == "shell_screenshot" || strings.HasPrefix(name, "shell_record") {
			continue
		}
		seen++
		if tool["outputSchema"] == nil || tool["title"] == nil || tool["inputSchema"] == nil {
			t.Errorf("%s lacks outputSchema, title or inputSchema: %v", name, tool)
		}
		ann, _ := tool["annotations"].(map[string]any)
		if h, ok := hints[name]; ok && ann[h] != true {
			t.Errorf("%s: annotations %v lack %s", name, ann, h)
		}
	}
	want := 0
	for _, name := range goldenToolNames(t) {
		if name != "shell_screenshot" && !strings.HasPrefix(name, "shell_record") {
			want++
		}
	}
	if seen != want {
		t.Errorf("%d of the %d shell tools listed", seen, want)
	}
	call := func(id int, name string, args map[string]any) (map[string]any, string) {
		r := rpcCall(t, c, id, "tools/call", map[string]any{"name": name, "arguments": args})
		content, _ := r["content"].([]any)
		if r["isError"] == true || len(content) == 0 {
			t.Fatalf("%s: %v", name, r)
		}
		sc, _ := r["structuredContent"].(map[string]any)
		text, _ := content[0].(map[string]any)["text"].(string)
		return sc, text
	}
	sc, _ := call(2, "shell_start", map[string]any{"command": "sh", "env": map[string]string{"PS1": "$ "}})
	id := sc["shell_session_id"]
	sc, text := call(3, "shell_send", map[string]any{"session_id": id, "input": `echo pro""tocol\r`, "wait_for": "protocol"})
	// The text block is written for the model: what was done, in plain
	// words, then what changed on the screen, here all of it, since the
	// prompt was on its first row (no command framed the wait); no JSON,
	// no screen before.
	if want := "done: wait_for \"protocol\" matched\n" + strings.TrimRight(sc["bufferAfter"].(string), "\n"); text != want || sc["matched"] != true || sc["bufferBefore"] != nil {
		t.Errorf("shell_send: text block %q, want %q; structured %v", text, want, sc)
	}
	sc, text = call(4, "shell_read", map[string]any{"session_id": id})
	if !slices.Contains(strings.Split(text, "\n"), "protocol") || !strings.HasPrefix(text, sc["text"].(string)+"\n\n[") {
		t.Errorf("shell_read text block %q, structured text %q", text, sc["text"])
	}
	sc, _ = call(5, "shell_stop", map[string]any{"session_id": id})
	if sc["success"] != true {
		t.Errorf("shell_stop: %v", sc)
	}
	r := rpcCall(t, c, 6, "tools/call", map[string]any{"name": "shell_read", "arguments": map[string]any{"session_id": id}})
	if r["isError"] != true {
		t.Errorf("shell_read after shell_stop: %v", r)
	}
}

// TestEchoDoesNotSatisfyWait: the terminal's echo of the input a
// shell_send types does not satisfy its wait_for; the program's own
// output does, even when it repeats the input (cat), and a wait that runs
// out says so in the first words of its text block.
func TestEchoDoesNotSatisfyWait(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	r, m := call(t, a, "shell_send", map[string]any{"session_id": id, "input": "typed text", "wait_for": "typed text", "timeout_ms": 500})
	if m["matched"] != false || m["ended_by"] != "timeout_ms" || !strings.HasPrefix(r.Text, "TIMED OUT") {
		t.Errorf("the echo alone satisfied wait_for: %v (text %q)", m, r.Text)
	}
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"C-u"}})
	m = mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `second line\r`, "wait_for": "second line", "timeout_ms": 5000})
	if n := strings.Count(m["bufferAfter"].(string), "second line"); m["matched"] != true || n != 2 {
		t.Errorf("wait_for returned before cat printed the line (%d copies on screen): %v", n, m)
	}
}

// TestWaitForAcrossWrappedRows: text that the terminal wrapped onto the
// next row is still found on the screen, and read back as one line.
func TestWaitForAcrossWrappedRows(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh", "-c", `printf '%075dWRAPPED-MARKER\n' 0; exec cat`) // reads: ready at once
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_idle_ms": 100})
	m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "WRAPPED-MARKER", "timeout_ms": 2000})
	if m["matched"] != true {
		t.Errorf("wait_for across a soft wrap: %v", m)
	}
	// shell_read joins the wrapped rows into the line the program printed.
	_, rm := call(t, a, "shell_read", map[string]any{"session_id": id})
	if want := strings.Repeat("0", 75) + "WRAPPED-MARKER"; !slices.Contains(strings.Split(rm["text"].(string), "\n"), want) {
		t.Errorf("shell_read splits the wrapped line: %q", rm["text"])
	}
}

// TestWaitProgress: a long wait reports progress about once a second.
func TestWaitProgress(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("waits 2.5 s")
	}
	a := newTestApp(t)
	id := start(t, a, "cat")
	var msgs []string
	var last float64
	r := toolByName(t, a, "shell_wait").Handle(context.Background(), &ToolCall{
		Args: json.RawMessage(`{"session_id":"` + id + `","wait_for":"NEVER","timeout_ms":2500}`),
		Progress: func(p, total float64, msg string) {
			if p <= last || total != 2500 {
				t.Errorf("progress %v of %v after %v", p, total, last)
			}
			last = p
			msgs = append(msgs, msg)
		}})
	if r.IsError || len(msgs) < 1 || !strings.Contains(msgs[0], `waiting for "NEVER"`) {
		t.Errorf("progress messages %q (result %+v)", msgs, r)
	}
}

// TestEnterUnderLNM: with LNM set (CSI 20 h) the Enter key sends CR LF,
// as a VT100's Return key does; otherwise CR alone.
func TestEnterUnderLNM(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, mode, want string
	}{
		{"LNM set", `\033[20h`, `\r  \n`},
		{"LNM reset", `\033[20l`, `\r   x`},
	} {
		a := newTestApp(t)
		// The program reads two bytes raw and prints them as od -c does;
		// "x" after Enter fills the second byte when Enter is CR alone.
		id := start(t, a, "sh", "-c", `printf '`+tc.mode+`READY'; stty raw -echo; head -c 2 | od -An -c; stty sane; printf 'DONE\n'; sleep 5`)
		mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "READY"})
		mustCall(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Enter", "x"}, "wait_for": "DONE"})
		s, _ := a.tools.session(id)
		if got := s.Text(false); !strings.Contains(got, tc.want) {
			t.Errorf("%s: screen %q does not show the bytes %q", tc.name, got, tc.want)
		}
	}
}

// TestTimeoutZeroSends: timeout_ms 0 with input sends it and looks once
// (shell_send and shell_click): no error, the input written.
func TestTimeoutZeroSends(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "cat")
	r, m := call(t, a, "shell_send", map[string]any{"session_id": id, "input": "echo g\r", "timeout_ms": 0, "wait_for": "g"})
	if r.IsError || m["success"] != true {
		t.Fatalf("shell_send timeout_ms 0: %q %v", r.Text, m)
	}
	if m := mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "/^echo g$/", "timeout_ms": 5000}); m["matched"] != true {
		t.Errorf("the input did not arrive: %v", m)
	}
	r, m = call(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Enter"}, "timeout_ms": 0})
	if r.IsError || m["success"] != true {
		t.Errorf("shell_send timeout_ms 0 without a wait: %q %v", r.Text, m)
	}
}
