package main

// harden_pty_test.go: the server binary under faults: stdin EOF,
// SIGTERM and SIGINT with live sessions (one ignoring SIGHUP, one with a
// background job) must leave no process and no zombie; a flood of output
// must not stall pings or other sessions nor grow memory past the
// scrollback bound. The in-process limit and concurrency tests are at the
// end. SECURITY.md names each test and what it guarantees.

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"image/gif"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// hardenBinary is serverBinary for the tests of this file, which check
// processes through /proc.
func hardenBinary(t testing.TB) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("checks processes through /proc")
	}
	return serverBinary(t)
}

// findCmdline lists the processes whose /proc/PID/cmdline is cmdline.
func findCmdline(cmdline string) []procInfo {
	var out []procInfo
	for _, p := range scanProcs() {
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline"); string(b) == cmdline {
			out = append(out, p)
		}
	}
	return out
}

// procInfo is one line of /proc/PID/stat.
type procInfo struct {
	pid, ppid, pgrp, sid int
	state                string
	comm                 string
}

// scanProcs reads every process's stat.
func scanProcs() []procInfo {
	ents, _ := os.ReadDir("/proc")
	var out []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i, j := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if i < 0 || j < i {
			continue
		}
		f := strings.Fields(s[j+1:])
		if len(f) < 4 {
			continue
		}
		pi := procInfo{pid: pid, state: f[0], comm: s[i+1 : j]}
		pi.ppid, _ = strconv.Atoi(f[1])
		pi.pgrp, _ = strconv.Atoi(f[2])
		pi.sid, _ = strconv.Atoi(f[3])
		out = append(out, pi)
	}
	return out
}

// leftovers lists the processes (zombies included) in any of the given
// sessions or process groups.
func leftovers(ids []int) []procInfo {
	var out []procInfo
	for _, p := range scanProcs() {
		if slices.Contains(ids, p.sid) || slices.Contains(ids, p.pgrp) {
			out = append(out, p)
		}
	}
	return out
}

// TestProcessHygiene stops a server with five live sessions (an
// interactive shell with a background job of its own, a loop ignoring
// SIGHUP, a flood, a sleep, a shell) by stdin EOF, SIGTERM and SIGINT:
// the server exits with status 0 and afterwards no process of any
// session's process group or session remains, zombies included. A sixth
// session whose program exits by itself is reaped at once, while the
// server runs, and keeps its exit status.
func TestProcessHygiene(t *testing.T) {
	t.Parallel()
	hardenBinary(t)
	for i, how := range []string{"stdin EOF", "SIGTERM", "SIGINT", "SIGHUP"} {
		daemonArg := fmt.Sprintf("%d.%d", 1000+i, os.Getpid()%1000) // finds the daemon in /proc
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			p := startProc(t, "--output-dir", out, "--cols", "80", "--rows", "24")
			var pids []int
			startSess := func(command string, args ...string) string {
				m := p.mustTool("shell_start", map[string]any{"command": command, "args": append([]string{}, args...)})
				pids = append(pids, int(m["pid"].(float64)))
				return m["shell_session_id"].(string)
			}
			bg := startSess("bash", "--norc", "--noprofile", "-i")
			p.mustTool("shell_send", map[string]any{"session_id": bg, "input": `sleep 1000 & echo job-$((6*7))\r`, "wait_for": "job-42"})
			// A daemon: its own session, its parent gone at once.
			p.mustTool("shell_send", map[string]any{"session_id": bg, "input": `setsid sleep ` + daemonArg + ` & echo daemon-$((6*7))\r`, "wait_for": "daemon-42"})
			hup := startSess("sh", "-c", `trap "" HUP; echo ready-$((1+1)); while :; do sleep 1; done`)
			p.mustTool("shell_wait", map[string]any{"session_id": hup, "wait_for": "ready-2"})
			flood := startSess("yes")
			p.mustTool("shell_record_start", map[string]any{"session_id": flood, "name": "at-exit"})
			startSess("sleep", "1000")
			startSess("bash", "--norc", "--noprofile")

			// Exits by itself: reaped while the server runs, status kept.
			self := startSess("sh", "-c", "exit 7")
			selfPid := pids[len(pids)-1]
			w := p.mustTool("shell_wait", map[string]any{"session_id": self, "timeout_ms": 10000})
			if w["exited"] != true || w["exit_code"] != float64(7) {
				t.Errorf("shell_wait on a program that exits 7: %v", w)
			}
			if st := procState(selfPid); st != "" {
				t.Errorf("pid %d exited but is still in /proc (state %s): not reaped", selfPid, st)
			}
			r := p.call("resources/read", map[string]any{"uri": "session://" + self + "/info"})
			if r.Error != nil || !strings.Contains(string(r.Result), `\"exit_code\":7`) {
				t.Errorf("info of the exited session: %s %+v", r.Result, r.Error)
			}

			// The shells, the background job, the loop, yes and sleep run
			// (the loop's own sleep may be between two iterations).
			if n := len(leftovers(pids)); n < 6 {
				t.Fatalf("only %d processes in the sessions before the stop: %+v", n, leftovers(pids))
			}
			switch how {
			case "stdin EOF":
				p.in.Close()
			case "SIGTERM":
				p.cmd.Process.Signal(syscall.SIGTERM)
			case "SIGINT":
				p.cmd.Process.Signal(syscall.SIGINT)
			case "SIGHUP":
				p.cmd.Process.Signal(syscall.SIGHUP)
			}
			done := make(chan error, 1)
			go func() { <-p.exited; done <- p.cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("server exit: %v; stderr:\n%s", err, p.stderr.String())
				}
			case <-time.After(stuckAfter):
				t.Fatalf("the server did not exit after %s", how)
			}
			if left := leftovers(pids); len(left) > 0 {
				t.Errorf("after %s these processes of the sessions %v remain: %+v", how, pids, left)
			}
			if _, err := os.Stat(filepath.Join(out, flood, "at-exit.gif")); err != nil {
				t.Errorf("the recording running at exit was not kept: %v", err)
			}
			if parts, _ := filepath.Glob(filepath.Join(out, "*", "*.part")); len(parts) > 0 {
				t.Errorf("part files left behind: %v", parts)
			}
			if d := findCmdline("sleep\x00" + daemonArg + "\x00"); len(d) > 0 {
				t.Errorf("after %s the daemon started with setsid remains: %+v", how, d)
			}
		})
	}
}

// TestMarkedProcessesNeedsMarker: without a NAME=value marker nothing
// matches (an empty one would otherwise match every environment, and a
// stop would end every session's processes); a marker no process has
// matches none.
func TestMarkedProcessesNeedsMarker(t *testing.T) {
	t.Parallel()
	for _, m := range []string{"", "TTYWRIGHT_SESSION_TOKEN", "TTYWRIGHT_SESSION_TOKEN=" + rand.Text()} {
		if got := markedProcesses(m); len(got) > 0 {
			t.Errorf("markedProcesses(%q) = %v, want none", m, got)
		}
	}
}

// TestStopEndsSetsidDaemons stops one session while it and a second one
// have daemons that left their process group and session: one started
// with `setsid sleep &` (its parent, setsid's fork, gone at once, so the
// server adopted it) and one that also closed the terminal. shell_stop
// ends both of the stopped session's (they carry its marker variable,
// sessionVar) while the server runs on, and leaves the other session's
// alone until that session is stopped.
func TestStopEndsSetsidDaemons(t *testing.T) {
	t.Parallel()
	hardenBinary(t)
	p := startProc(t, "--output-dir", t.TempDir())
	tag := os.Getpid() % 1000
	shell := func() string {
		m := p.mustTool("shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile", "-i"}})
		return m["shell_session_id"].(string)
	}
	daemon := func(id, arg, form string) string {
		p.mustTool("shell_send", map[string]any{"session_id": id, "input": fmt.Sprintf(form, arg) + ` echo started-$((6*7))\r`, "wait_for": "started-42"})
		cmdline := "sleep\x00" + arg + "\x00"
		for range 100 { // setsid forks before the exec
			if len(findCmdline(cmdline)) > 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if len(findCmdline(cmdline)) == 0 {
			t.Fatalf("%q never started", fmt.Sprintf(form, arg))
		}
		return cmdline
	}
	a, b := shell(), shell()
	a1 := daemon(a, fmt.Sprintf("2001.%d", tag), "setsid sleep %s &")
	a2 := daemon(a, fmt.Sprintf("2002.%d", tag), "(setsid sh -c 'exec sleep %s' </dev/null >/dev/null 2>&1 &);")
	b1 := daemon(b, fmt.Sprintf("2003.%d", tag), "setsid sleep %s &")

	p.mustTool("shell_stop", map[string]any{"session_id": a})
	for _, c := range []string{a1, a2} {
		if left := findCmdline(c); len(left) > 0 {
			t.Errorf("after shell_stop the daemon %q of the stopped session remains: %+v", c, left)
		}
	}
	if len(findCmdline(b1)) == 0 {
		t.Errorf("stopping %s ended %q, a daemon of the other session %s", a, b1, b)
	}
	p.mustTool("shell_stop", map[string]any{"session_id": b})
	if left := findCmdline(b1); len(left) > 0 {
		t.Errorf("after shell_stop of %s its daemon %q remains: %+v", b, b1, left)
	}
}

// floodDuration is how long TestFloodPing floods: 30 s with
// TTYWRIGHT_LONG=1, 5 s normally, 2 s with -short.
func floodDuration() time.Duration {
	switch {
	case os.Getenv("TTYWRIGHT_LONG") != "":
		return 30 * time.Second
	case testing.Short():
		return 2 * time.Second
	}
	return 5 * time.Second
}

// colourFile writes a file of SGR-coloured lines for the cat loop.
func colourFile(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "\x1b[3%d;4%dm line %05d \x1b[1;38;5;%dm bold 256 \x1b[0;38;2;%d;%d;200m truecolor \x1b[0m plain text to the end\n",
			i%8, (i+3)%8, i, i%256, i%256, (i*7)%256)
	}
	p := filepath.Join(t.TempDir(), "colours.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// procStatusKB reads a "VmHWM:"-style field of /proc/PID/status in KiB.
func procStatusKB(pid int, field string) int64 {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// memoryBound is the most a session's state can hold, in bytes: the
// scrollback at its worst (a rune and a style run for every cell), the
// main and alternate screens with their sliding buffers, the raw output
// tail (kept up to twice its cap before trimming), the read queue and the
// reply queue.
func memoryBound(scrollback, cols, rows int) int64 {
	hist := int64(scrollback) * (int64(cols)*(4+int64(unsafe.Sizeof(histRun{}))) + int64(unsafe.Sizeof(histRow{})))
	screens := 2 * 2 * int64(rows) * int64(cols) * int64(unsafe.Sizeof(Cell{}))
	return hist + screens + 2*rawTailCap + readBufSize + replyQueueCap
}

// floodServer runs the flood scenario against a fresh server for d: two
// sessions print as fast as they can (yes, a cat loop of coloured text)
// while a third is driven with shell_send/wait_for and pings go out every
// 10 ms. It returns the ping round trips and the server's pid.
func floodServer(t testing.TB, d time.Duration, scrollback int) (pings []time.Duration, serverPid int, driven int) {
	pings, p, driven := floodProc(t, d, scrollback)
	return pings, p.cmd.Process.Pid, driven
}

// floodProc is floodServer returning the running server (its first
// session is the yes flood).
func floodProc(t testing.TB, d time.Duration, scrollback int) (pings []time.Duration, p *testClient, driven int) {
	p = startProc(t, "--output-dir", t.TempDir(), "--cols", "120", "--rows", "40", "--scrollback", strconv.Itoa(scrollback))
	p.mustTool("shell_start", map[string]any{"command": "yes", "args": []string{"flood flood flood flood flood"}})
	p.mustTool("shell_start", map[string]any{"command": "sh", "args": []string{"-c", "while :; do cat " + colourFile(t) + "; done"}})
	sh := p.mustTool("shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile"}})["shell_session_id"].(string)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	wg.Go(func() {
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			t0 := time.Now()
			if r := p.call("ping", nil); r.Error != nil {
				t.Errorf("ping: %+v", r.Error)
				return
			}
			mu.Lock()
			pings = append(pings, time.Since(t0))
			mu.Unlock()
		}
	})
	deadline := time.Now().Add(d)
	for i := 0; time.Now().Before(deadline); i++ {
		// The echoed command holds $((...)), the output the sum: only the
		// program's answer matches.
		m := p.mustTool("shell_send", map[string]any{"session_id": sh, "input": fmt.Sprintf(`echo mark-$((%d+1))\r`, i),
			"wait_for": fmt.Sprintf("mark-%d", i+1), "timeout_ms": 10000})
		if m["matched"] != true {
			t.Errorf("send %d under flood: no match: %v", i, m)
		}
		driven++
	}
	close(stop)
	wg.Wait()
	return pings, p, driven
}

// percentile returns the q-quantile (0..1) of ds.
func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// TestFloodPing: while two programs flood output, pings keep being
// answered and another session can be driven (functional checks); the
// ping latency is reported, not asserted; the server's peak RSS (VmHWM)
// stays under the bound that the scrollback cap implies.
func TestFloodPing(t *testing.T) {
	t.Parallel()
	hardenBinary(t)
	const scrollback = 10000
	d := floodDuration()
	pings, p, driven := floodProc(t, d, scrollback)
	hwm := procStatusKB(p.cmd.Process.Pid, "VmHWM") << 10
	// The scrollback really filled: the measurement is of a full one.
	r := p.call("resources/read", map[string]any{"uri": "session://shell-1/buffer"})
	var res struct {
		Contents []struct {
			Text string `json:"text"`
		} `json:"contents"`
	}
	if json.Unmarshal(r.Result, &res); len(res.Contents) == 0 || strings.Count(res.Contents[0].Text, "\n") < scrollback {
		t.Errorf("the flooding session's buffer is not full: %+v", r.Error)
	}
	if len(pings) == 0 || driven == 0 {
		t.Fatalf("%d pings and %d driven commands in %v", len(pings), driven, d)
	}
	// Three sessions of 120x40 with 10000 lines each, twice for the
	// garbage collector's headroom (GOGC=100), plus 64 MiB for the runtime,
	// the font and rendering.
	bound := 2*3*memoryBound(scrollback, 120, 40) + 64<<20
	t.Logf("flood %v: %d pings p50 %v p99 %v max %v; %d commands driven in another session; VmHWM %.1f MiB (bound %.1f MiB)",
		d, len(pings), percentile(pings, 0.5), percentile(pings, 0.99), percentile(pings, 1), driven,
		float64(hwm)/(1<<20), float64(bound)/(1<<20))
	if hwm > bound {
		t.Errorf("VmHWM %d bytes is over the bound of %d", hwm, bound)
	}
}

// BenchmarkPingUnderFlood reports ping round trips (p50, p99 in ms) and
// the server's VmHWM while two sessions flood output and a third is
// driven, for floodDuration per run.
func BenchmarkPingUnderFlood(b *testing.B) {
	hardenBinary(b)
	for b.Loop() {
		pings, pid, driven := floodServer(b, floodDuration(), 10000)
		b.ReportMetric(float64(percentile(pings, 0.5).Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(percentile(pings, 0.99).Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(procStatusKB(pid, "VmHWM"))/1024, "VmHWM-MiB")
		b.ReportMetric(float64(driven), "commands")
	}
}

// ptyServer serves a fresh App with real sessions over the in-memory
// JSON-RPC loop; its sessions are shut down when the test ends.
func ptyServer(t *testing.T, maxSessions int) *testClient {
	t.Helper()
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skipf("no pseudo-terminals on %s", runtime.GOOS)
	}
	c := startAppServer(t, func(cfg *Config) {
		cfg.MaxSessions = maxSessions
		cfg.Scrollback = 100
	}, func(*App, *Server) {})
	t.Cleanup(c.app.shutdown)
	c.initialize("2025-06-18")
	return c
}

// TestLimits sends every kind of over-limit or malformed tool call through
// the protocol loop: each gets a clear isError result (or -32602 where
// the protocol layer is at fault), and a ping after each is still
// answered.
func TestLimits(t *testing.T) {
	t.Parallel()
	c := ptyServer(t, 3)
	_, st, isErr := toolResult(c.toolCall(1, "shell_start", map[string]any{"command": "cat"}))
	if isErr {
		t.Fatal("shell_start cat failed")
	}
	id := st["shell_session_id"].(string)
	big := strings.Repeat("x", 1<<20+1)
	enters := make([]string, 20) // the input with these is just over 1 MiB
	for i := range enters {
		enters[i] = "Enter"
	}
	tests := []struct {
		name string
		tool string
		args any
		want string // in the isError text; "-32602" for a JSON-RPC error
	}{
		{"input over 1 MiB", "shell_send", map[string]any{"session_id": id, "input": big}, "limit"},
		{"input and keys over 1 MiB", "shell_send", map[string]any{"session_id": id, "input": big[:1<<20-10], "keys": enters}, "limit"},
		{"huge cols", "shell_start", map[string]any{"command": "cat", "cols": 100000, "rows": 40}, "out of range"},
		{"negative rows", "shell_start", map[string]any{"command": "cat", "cols": 80, "rows": -3}, "rows"},
		{"negative cols", "shell_resize", map[string]any{"session_id": id, "cols": -1, "rows": 10}, "cols"},
		{"huge resize", "shell_resize", map[string]any{"session_id": id, "cols": 80, "rows": 1 << 40}, "out of range"},
		{"cols as text", "shell_resize", map[string]any{"session_id": id, "cols": "wide", "rows": 10}, `"cols"`},
		{"missing session", "shell_send", map[string]any{"input": "x"}, "session_id"},
		{"session as number", "shell_read", map[string]any{"session_id": 7}, "session_id"},
		{"unknown field", "shell_read", map[string]any{"session_id": id, "colour": true}, "colour"},
		{"arguments not an object", "shell_read", []int{1}, "-32602"},
		{"args not strings", "shell_start", map[string]any{"command": "cat", "args": []any{1, 2}}, "args"},
		{"env not strings", "shell_start", map[string]any{"command": "cat", "env": map[string]any{"A": 1}}, "env"},
		{"NUL in the command", "shell_start", map[string]any{"command": "c\x00at"}, "command"},
		{"NUL in an argument", "shell_start", map[string]any{"command": "cat", "args": []string{"a\x00b"}}, "NUL"},
		{"bad regex", "shell_wait", map[string]any{"session_id": id, "wait_for": "/(/"}, "regular expression"},
		{"timeout too long", "shell_wait", map[string]any{"session_id": id, "timeout_ms": 1 << 40}, "timeout_ms"},
		{"max_bytes negative", "shell_read", map[string]any{"session_id": id, "max_bytes": -1}, "max_bytes"},
		{"unknown signal", "shell_stop", map[string]any{"session_id": id, "signal": "SIGNOPE"}, "signal"},
		{"fps over the cap", "shell_record_start", map[string]any{"session_id": id, "fps": 1000}, "fps"},
		{"screenshot scale", "shell_screenshot", map[string]any{"session_id": id, "scale": 99}, "scale"},
		{"name with a path", "shell_screenshot", map[string]any{"session_id": id, "name": "../../x"}, "name"},
		{"unknown tool", "shell_nope", map[string]any{}, "-32602"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := c.toolCall(100+i, tc.tool, tc.args)
			text, _, isErr := toolResult(r)
			switch {
			case tc.want == "-32602":
				if r.Error == nil || r.Error.Code != codeInvalidParams {
					t.Errorf("got %s %+v, want -32602", r.Result, r.Error)
				}
			case r.Error != nil:
				t.Errorf("JSON-RPC error %+v, want an isError result", r.Error)
			case !isErr:
				t.Errorf("no error: %.300s", text)
			case !strings.Contains(text, tc.want):
				t.Errorf("error %q does not name %q", text, tc.want)
			}
			if p := c.rpc(1000+i, "ping", nil); p.Error != nil {
				t.Fatalf("ping after %s: %+v", tc.name, p.Error)
			}
		})
	}

	// Too many sessions: the limit is 3 and one runs.
	for i := range 2 {
		if _, _, isErr := toolResult(c.toolCall(200+i, "shell_start", map[string]any{"command": "cat"})); isErr {
			t.Fatalf("session %d of 3 refused", i+2)
		}
	}
	text, _, isErr := toolResult(c.toolCall(210, "shell_start", map[string]any{"command": "cat"}))
	if !isErr || !strings.Contains(text, "max-sessions") {
		t.Errorf("fourth session: %q, want an error naming --max-sessions", text)
	}
	if p := c.rpc(211, "ping", nil); p.Error != nil {
		t.Fatalf("ping after the session limit: %+v", p.Error)
	}
}

// TestRecordingCaps lowers the frame, time and GIF size caps: a recording
// that reaches one stops capturing, says so in its result, and keeps a
// valid file.
func TestRecordingCaps(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	// The loop ticks in the background while the shell reads, so
	// shell_start returns at once (a program that never reads waited out
	// the readiness window).
	id := start(t, a, "sh", "-c", "i=0; while :; do i=$((i+1)); echo tick $i; sleep 0.02; done & read x")
	for _, tc := range []struct {
		name   string
		frames int
		dur    time.Duration
		bytes  int64
		want   string
	}{
		{"frames", 4, 10 * time.Minute, 256 << 20, "frame limit"},
		{"time", 20000, 300 * time.Millisecond, 256 << 20, "limit"},
		{"bytes", 20000, 10 * time.Minute, 1, "GIF size limit"},
	} {
		a.tools.rec = recLimits{frames: tc.frames, dur: tc.dur, bytes: tc.bytes}
		mustCall(t, a, "shell_record_start", map[string]any{"session_id": id, "fps": 30, "name": "cap-" + tc.name})
		// The capture goroutine ends by itself at the cap.
		s, _ := a.tools.session(id)
		rec := runningRecorder(a, s) // nil once it ended (at once for a 1-byte GIF cap)
		done := make(chan struct{})
		if rec != nil {
			done = rec.done
		} else {
			close(done)
		}
		select {
		case <-done:
		case <-time.After(stuckAfter):
			t.Fatalf("%s cap: the recording did not stop by itself", tc.name)
		}
		res := mustCall(t, a, "shell_record_stop", map[string]any{"session_id": id})
		note, _ := res["note"].(string)
		if !strings.Contains(note, tc.want) {
			t.Errorf("%s cap: result %v has no note about the %s", tc.name, res, tc.want)
		}
		if n := int(res["frame_count"].(float64)); n > tc.frames+1 {
			t.Errorf("%s cap: %d frames, cap %d", tc.name, n, tc.frames)
		}
		f, err := os.Open(res["gif_path"].(string))
		if err != nil {
			t.Fatal(err)
		}
		_, err = gif.DecodeAll(f)
		f.Close()
		if err != nil {
			t.Errorf("%s cap: the GIF does not decode: %v", tc.name, err)
		}
	}
}

// TestConcurrentCalls runs many tool calls and resource reads at once on
// the same sessions and across sessions (go test -race finds unguarded
// state), then stops a session while a screenshot, a recording stop, a
// read, a resize and a send race it: every call returns a result or a
// clear error, the process is reaped, and no part file is left behind.
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	ids := []string{
		start(t, a, "bash", "--norc", "--noprofile"),
		start(t, a, "sh", "-c", "while :; do echo tick; sleep 0.01; done"),
		start(t, a, "cat"),
	}
	workers, rounds := 8, 12
	if testing.Short() {
		rounds = 4
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range rounds {
				id := ids[(w+i)%len(ids)]
				var r *ToolResult
				switch (w + i) % 9 {
				case 0:
					r, _ = call(t, a, "shell_send", map[string]any{"session_id": id, "input": fmt.Sprintf("echo w%d-$((%d+1))\\r", w, i), "wait_idle_ms": 20, "timeout_ms": 2000})
				case 1:
					r, _ = call(t, a, "shell_read", map[string]any{"session_id": id})
				case 2:
					r, _ = call(t, a, "shell_wait", map[string]any{"session_id": id, "wait_idle_ms": 10, "timeout_ms": 500})
				case 3:
					r, _ = call(t, a, "shell_screenshot", map[string]any{"session_id": id, "scale": 1})
				case 4:
					r, _ = call(t, a, "shell_resize", map[string]any{"session_id": id, "cols": 40 + w*5, "rows": 10 + i})
				case 5:
					r, _ = call(t, a, "shell_record_start", map[string]any{"session_id": id, "fps": 30})
				case 6:
					r, _ = call(t, a, "shell_record_stop", map[string]any{"session_id": id, "format": "both"})
				case 7:
					r, _ = call(t, a, "shell_send", map[string]any{"session_id": id, "keys": []string{"Up", "Down", "C-c"}})
				case 8:
					for _, uri := range []string{"sessions://list", "session://" + id + "/info", "session://" + id + "/buffer", "session://" + id + "/screenshots"} {
						if _, err := a.hub.readResource(uri); err != nil {
							t.Errorf("%s: %v", uri, err)
						}
					}
					continue
				}
				if r.IsError && r.Text == "" {
					t.Errorf("an isError result without text")
				}
			}
		})
	}
	wg.Wait()

	// shell_stop racing a screenshot, a recording and more.
	for _, id := range ids {
		call(t, a, "shell_record_start", map[string]any{"session_id": id, "fps": 30}) // may be recording already
		s, _ := a.tools.session(id)
		pid := s.Status().Pid
		var race sync.WaitGroup
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"shell_stop", map[string]any{"session_id": id}},
			{"shell_screenshot", map[string]any{"session_id": id}},
			{"shell_screenshot", map[string]any{"session_id": id, "inline": true}},
			{"shell_record_stop", map[string]any{"session_id": id}},
			{"shell_read", map[string]any{"session_id": id}},
			{"shell_resize", map[string]any{"session_id": id, "cols": 30, "rows": 8}},
			{"shell_send", map[string]any{"session_id": id, "input": "x"}},
			{"shell_stop", map[string]any{"session_id": id, "signal": "SIGKILL"}},
		} {
			race.Go(func() {
				r, _ := call(t, a, c.tool, c.args)
				if r.IsError && r.Text == "" {
					t.Errorf("%s: isError without text", c.tool)
				}
			})
		}
		race.Wait()
		if _, err := a.tools.session(id); err == nil {
			t.Errorf("%s still listed after shell_stop", id)
		}
		checkGone(t, pid)
	}
	// Stopped while recording, with no shell_record_stop: the recording is
	// kept, not left as part files.
	rec := start(t, a, "sh", "-c", "while :; do echo tock; sleep 0.01; done & read x") // reads: ready at once
	mustCall(t, a, "shell_record_start", map[string]any{"session_id": rec, "name": "kept"})
	mustCall(t, a, "shell_stop", map[string]any{"session_id": rec})
	if _, err := os.Stat(filepath.Join(a.cfg.OutputDir, rec, "kept.gif")); err != nil {
		t.Errorf("the recording of a stopped session was not kept: %v", err)
	}
	parts, _ := filepath.Glob(filepath.Join(a.cfg.OutputDir, "*", "*.part"))
	if len(parts) > 0 {
		t.Errorf("part files left behind: %v", parts)
	}
}

// TestAllowCommandBypass: with --allow-command, neither a PATH in env, nor
// an absolute path to a program of the same name, nor the loader's
// variables let another program run; the allowed one still starts.
func TestAllowCommandBypass(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	a.cfg.AllowCommands = []string{"true"}
	reconfigure(a)
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	fake := filepath.Join(bin, "true")
	writeExecutable(t, fake, []byte("#!/bin/sh\ntouch "+marker+"\n"))
	for _, args := range []map[string]any{
		{"command": "true", "env": map[string]string{"PATH": bin}},
		{"command": "true", "env": map[string]string{"PATH": bin + ":/usr/bin:/bin"}},
		{"command": fake},
		{"command": "true", "cwd": bin, "env": map[string]string{"PATH": "."}},
		{"command": "true", "env": map[string]string{"LD_PRELOAD": filepath.Join(bin, "x.so")}},
	} {
		r, _ := call(t, a, "shell_start", args)
		if !r.IsError || !strings.Contains(r.Text, "not allowed") && !strings.Contains(r.Text, "not found") {
			t.Errorf("%v: %s, want not allowed", args, resultText(r))
		}
	}
	// A refused call starts no session, so nothing it names runs later.
	if n := len(a.sessions.List()); n != 0 {
		t.Errorf("%d sessions after refused starts", n)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the program of the same name ran")
	}
	if r, _ := call(t, a, "shell_start", map[string]any{"command": "true"}); r.IsError {
		t.Errorf("the allowed program: %s", r.Text)
	}
}

// TestStopReleasesEmptySessionDir: shell_stop removes the directory of a
// session that captured nothing (they piled up empty in the output
// directory) and keeps one with captures.
func TestStopReleasesEmptySessionDir(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	empty, shot := start(t, a, "cat"), start(t, a, "cat") // cat reads: shell_start returns at once
	mustCall(t, a, "shell_screenshot", map[string]any{"session_id": shot})
	for _, id := range []string{empty, shot} {
		if fi, err := os.Stat(filepath.Join(a.cfg.OutputDir, id)); err != nil || !fi.IsDir() {
			t.Fatalf("%s has no directory while it runs: %v", id, err)
		}
		mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
	}
	if _, err := os.Stat(filepath.Join(a.cfg.OutputDir, empty)); !os.IsNotExist(err) {
		t.Errorf("the directory of %s, which captured nothing, is left after shell_stop (%v)", empty, err)
	}
	if pngs, _ := filepath.Glob(filepath.Join(a.cfg.OutputDir, shot, "*.png")); len(pngs) != 1 {
		t.Errorf("%s's screenshot is gone after shell_stop: %v", shot, pngs)
	}
}

// TestSessionIDsClaimOutputDir: two servers sharing one output directory
// (two MCP clients with the default $TMPDIR/ttywright), or a server
// started again over an earlier run's captures, never give a session an
// id whose directory exists, so no capture overwrites another.
func TestSessionIDsClaimOutputDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "shell-1"), 0o700); err != nil { // an earlier run's
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "shell-1", "shot.png"), []byte("earlier"), 0o600)
	a, b := newTestApp(t), newTestApp(t)
	a.cfg.OutputDir, b.cfg.OutputDir = dir, dir
	reconfigure(a)
	reconfigure(b)
	var ids []string
	for i := range 3 {
		for _, app := range []*App{a, b} {
			id := start(t, app, "cat") // reads: shell_start returns at once
			if slices.Contains(ids, id) {
				t.Fatalf("id %s given twice", id)
			}
			ids = append(ids, id)
			mustCall(t, app, "shell_screenshot", map[string]any{"session_id": id, "name": fmt.Sprint("shot-", i)})
		}
	}
	if slices.Contains(ids, "shell-1") {
		t.Errorf("shell-1 of the earlier run was reused: %v", ids)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "shell-1", "shot.png")); string(b) != "earlier" {
		t.Errorf("the earlier run's capture was overwritten")
	}
	for _, id := range ids {
		if pngs, _ := filepath.Glob(filepath.Join(dir, id, "*.png")); len(pngs) != 1 {
			t.Errorf("%s holds %v, want its one screenshot", id, pngs)
		}
	}
}

// TestStopReapsDaemons stops 20 sessions that each started 5 daemons with
// setsid (the server adopted them as subreaper): once the stops return and
// the kills land, no zombie child of the server remains while it runs on.
// A session whose program exits by itself meanwhile keeps its exit status
// (the reaper never takes a session's own program from os/exec).
func TestStopReapsDaemons(t *testing.T) {
	t.Parallel()
	hardenBinary(t)
	p := startProc(t, "--output-dir", t.TempDir(), "--max-sessions", "40")
	server := p.cmd.Process.Pid
	tag := fmt.Sprintf("%d.%d", 3000+os.Getpid()%1000, time.Now().UnixNano()%1000)
	exiter := p.mustTool("shell_start", map[string]any{"command": "sh", "args": []string{"-c", "sleep 1; exit 7"}})["shell_session_id"].(string)
	for range 20 {
		id := p.mustTool("shell_start", map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile", "-i"}})["shell_session_id"].(string)
		p.mustTool("shell_send", map[string]any{"session_id": id, "input": "for i in 1 2 3 4 5; do setsid sleep " + tag + " & done; wait; echo started-$((6*7))\r", "wait_for": "started-42"})
		p.mustTool("shell_stop", map[string]any{"session_id": id})
	}
	zombies := func() (n int) {
		for _, pi := range scanProcs() {
			if pi.ppid == server && pi.state == "Z" {
				n++
			}
		}
		return n
	}
	for range 100 { // the last kills may still be landing
		if zombies() == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := zombies(); n != 0 {
		t.Errorf("%d zombie children of the server after 20 stops of 5-daemon sessions, want 0", n)
	}
	if left := findCmdline("sleep\x00" + tag + "\x00"); len(left) > 0 {
		t.Errorf("%d daemons remain after their sessions stopped", len(left))
	}
	m := p.mustTool("shell_wait", map[string]any{"session_id": exiter, "timeout_ms": 20000})
	if code, _ := m["exit_code"].(float64); code != 7 {
		t.Errorf("the session that exited by itself: exit_code %v, want 7 (%v)", m["exit_code"], m)
	}
}

// TestAllowCommandIdentity: --allow-command admits a program only as the
// file it names AND under its name (argv[0]): allowing rbash does not
// admit bash (one file, unrestricted by name), nor rvim vim; an allowed
// script cannot be pointed at another interpreter by PATH, nor made to
// run a start-up file by BASH_ENV or similar; the allowed names start.
func TestAllowCommandIdentity(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("uses /bin/rbash and /proc")
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "payload-ran")
	script := filepath.Join(dir, "tool.sh")
	writeExecutable(t, script, []byte("#!/usr/bin/env bash\necho tool-ran\n"))
	evil := filepath.Join(dir, "evil")
	os.Mkdir(evil, 0o700)
	payload := "#!/bin/sh\ntouch " + marker + "\n"
	writeExecutable(t, filepath.Join(evil, "bash"), []byte(payload))
	os.WriteFile(filepath.Join(dir, "payload"), []byte("touch "+marker+"\n"), 0o600)
	tests := []struct {
		allow string
		args  map[string]any
		want  string // "" when it must start
	}{
		{"rbash", map[string]any{"command": "bash"}, "not allowed"},
		{"rbash", map[string]any{"command": "/bin/bash"}, "not allowed"},
		{"rbash", map[string]any{"command": "rbash", "args": []string{"-c", "true"}}, ""},
		{"rvim", map[string]any{"command": "vim"}, "not allowed"},
		{"rvim", map[string]any{"command": "vim.basic"}, "not allowed"},
		{script, map[string]any{"command": script, "env": map[string]string{"PATH": evil + ":" + os.Getenv("PATH")}}, "PATH"},
		{script, map[string]any{"command": script, "env": map[string]string{"BASH_ENV": filepath.Join(dir, "payload")}}, "BASH_ENV"},
		{script, map[string]any{"command": script, "env": map[string]string{"ENV": filepath.Join(dir, "payload")}}, "ENV"},
		{script, map[string]any{"command": script, "env": map[string]string{"BASH_FUNC_echo%%": "() { touch " + marker + "; }"}}, "BASH_FUNC"},
		{script, map[string]any{"command": script, "env": map[string]string{"PYTHONSTARTUP": "x", "PERL5OPT": "x"}}, "not allowed"},
		{script, map[string]any{"command": script, "env": map[string]string{"LC_ALL": dir}}, "'/'"},
		{script, map[string]any{"command": script, "env": map[string]string{"PATH": os.Getenv("PATH"), "LANG": "C.UTF-8"}}, ""},
	}
	for _, tt := range tests {
		a := newTestApp(t)
		a.cfg.AllowCommands = []string{tt.allow}
		reconfigure(a)
		r, m := call(t, a, "shell_start", tt.args)
		switch {
		case tt.want == "" && r.IsError:
			t.Errorf("allow %s, %v: %s, want it to start", tt.allow, tt.args, r.Text)
		case tt.want != "" && (!r.IsError || !strings.Contains(r.Text, tt.want)):
			t.Errorf("allow %s, %v: isError %v %q, want an error naming %q", tt.allow, tt.args, r.IsError, r.Text, tt.want)
		}
		// What a started program runs has run once it exits; a refused
		// call starts none.
		if id, ok := m["shell_session_id"].(string); ok {
			waitExit(t, a, id)
		} else if n := len(a.sessions.List()); n != 0 {
			t.Errorf("allow %s, %v: %d sessions after a refused start", tt.allow, tt.args, n)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a payload ran")
	}
}

// TestAllowedExecRunsCheckedFile: the file checked against the allow-list
// is the one that runs, even when the symlink it was found through is
// swapped between the check and the exec.
func TestAllowedExecRunsCheckedFile(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("executes through /proc/self/fd")
	}
	truePath, err1 := exec.LookPath("true")
	falsePath, err2 := exec.LookPath("false")
	if err1 != nil || err2 != nil {
		t.Skip("no true/false")
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "prog")
	if err := os.Symlink(truePath, link); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t)
	a.cfg.AllowCommands = []string{link}
	reconfigure(a)
	execPath, release, err := allowedExec(a.cfg.AllowCommands, link, link)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	os.Remove(link)
	if err := os.Symlink(falsePath, link); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(execPath).Run(); err != nil {
		t.Errorf("after the swap %s ran the new target: %v, want the checked %s", execPath, err, truePath)
	}
}

// TestRegexWaitMemory: eight parallel shell_wait calls with a 2 MB
// /regex/ each (16 MB of params) keep the server's peak RSS under 256 MiB;
// before the program cap the compiled regexes took it past 2 GiB.
func TestRegexWaitMemory(t *testing.T) {
	t.Parallel()
	hardenBinary(t)
	p := startProc(t, "--output-dir", t.TempDir())
	id := p.mustTool("shell_start", map[string]any{"command": "sh"})["shell_session_id"].(string)
	re := "/" + strings.Repeat("a", 2<<20) + "/"
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			p.tool("shell_wait", map[string]any{"session_id": id, "wait_for": re, "timeout_ms": 3000})
		})
	}
	wg.Wait()
	hwm := procStatusKB(p.cmd.Process.Pid, "VmHWM")
	t.Logf("peak RSS during 8 x 2 MB regex waits: %d MiB", hwm>>10)
	if hwm > 256<<10 {
		t.Errorf("peak RSS %d MiB during 8 x 2 MB regex waits, want under 256 MiB", hwm>>10)
	}
}

// TestUnreadPingsBounded: 300,000 pings from a client that never reads
// stdout keep the server's RSS flat: the reader answers each ping itself
// and blocks once stdout is full, so the rest of the input stays unread
// (before, each ping became a goroutine blocked on the write: 1.4 GiB).
func TestUnreadPingsBounded(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(hardenBinary(t), "--output-dir", t.TempDir())
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe() // never read
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); out.Close(); cmd.Wait() }()
	const pings, chunk = 300000, 1000
	var sent atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		var b []byte
		for i := range pings / chunk {
			b = b[:0]
			for j := range chunk {
				b = fmt.Appendf(b, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i*chunk+j+1)
			}
			if _, err := in.Write(b); err != nil {
				return
			}
			sent.Add(chunk)
		}
	}()
	// Until every ping is written or the server stops reading (no
	// progress for a second).
	last, still := int64(-1), 0
	for deadline := time.Now().Add(stuckAfter); time.Now().Before(deadline) && still < 10; {
		select {
		case <-done:
			still = 10
			continue
		case <-time.After(100 * time.Millisecond):
		}
		if n := sent.Load(); n == last {
			still++
		} else {
			last, still = n, 0
		}
	}
	rss := procStatusKB(cmd.Process.Pid, "VmHWM")
	t.Logf("%d of %d unread pings written; server peak RSS %d MiB", sent.Load(), pings, rss>>10)
	if rss > 64<<10 {
		t.Errorf("peak RSS %d MiB with %d pings unread, want under 64 MiB", rss>>10, sent.Load())
	}
}

// TestBinaryStdoutClosedShutsDown: a client that closed its end of the
// server's stdout hears nothing more, so the first failed write (EPIPE)
// shuts the server down as stdin EOF does, sessions and all, even while
// stdin stays open.
func TestBinaryStdoutClosedShutsDown(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	cmd := exec.Command(serverBinary(t), "--output-dir", t.TempDir())
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = w
	var stderr procOutput
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r.Close() // the client stops listening before the first reply
	marker := "ttywright-stdout-closed-" + strconv.Itoa(os.Getpid())
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shell_start","arguments":{"command":"sh","args":["-c","trap '' HUP; exec sleep 100 ` + marker + `"]}}}`,
	} {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			break // the server is gone already
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the server kept running with its stdout closed; stderr:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "shutting down") {
		t.Errorf("stderr does not say why the server stopped:\n%s", stderr.String())
	}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && bytes.Contains(cmdline, []byte(marker)) {
			t.Errorf("pid %s (%q) outlived the server", e.Name(), cmdline)
		}
	}
}

// TestServerDescriptorsHidden: a program in a session, running as the
// server's user, cannot open the server's standard output through
// /proc/PPID/fd/1 to write a forged frame to the client. Run as root, the
// test runs the server as nobody: root opens any process's descriptors
// (SECURITY.md says so).
func TestServerDescriptorsHidden(t *testing.T) {
	t.Parallel()
	bin := hardenBinary(t)
	dir, err := os.MkdirTemp("", "ttywright-dumpable-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "out")
	as := func(*exec.Cmd) {}
	if os.Getuid() == 0 {
		const nobody = 65534
		copied := filepath.Join(dir, "ttywright")
		b, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		writeExecutable(t, copied, b)
		if err := os.Chmod(copied, 0o755); err != nil {
			t.Fatal(err)
		}
		bin = copied
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(out, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(out, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		as = func(cmd *exec.Cmd) {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + out, "TMPDIR=/tmp"}
		}
	}
	c := startProcWith(t, bin, as, "--output-dir", out)
	forge := `printf '{"jsonrpc":"2.0","id":424242,"result":{}}\n' 2>/dev/null >/proc/$PPID/fd/1 && echo FORGED || echo REFUSED; exec cat`
	st := c.mustTool("shell_start", map[string]any{"command": "sh", "args": []string{"-c", forge}})
	m := c.mustTool("shell_wait", map[string]any{"session_id": st["shell_session_id"], "wait_for": "/FORGED|REFUSED/"})
	if screen, _ := m["buffer"].(string); !strings.Contains(screen, "REFUSED") {
		t.Errorf("a session's program opened the server's standard output: %q", screen)
	}
	c.call("ping", nil) // after the forged frame, if one was written
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.stray) > 0 {
		t.Errorf("the client got a frame a program wrote: %+v", c.stray)
	}
}
