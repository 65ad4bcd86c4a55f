// Command bench measures the ttywright binary from the outside, over stdio,
// as an MCP client sees it:
//
//   - cold start: process start to a completed initialize + tools/list
//   - peak RSS (VmHWM from /proc/PID/status) after start and after a
//     scripted workload (shells, output floods, screenshots, a recording)
//   - median shell_send (with wait_for) and shell_wait latency
//   - median shell_screenshot latency through the protocol
//
// Usage, from the repository root:
//
//	go run ./bench [-bin path/to/ttywright] [-n 20] [-json]
//
// Without -bin it builds the binary into a temporary directory first. It
// needs Linux (/proc) and bash; it uses only the standard library, so it
// runs on a machine with nothing but Go installed.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// targets are the goals from the project's issue: cold start under 20 ms,
// RSS under 15 MB after start and 50 MB after the workload.
const (
	targetColdStart = 20 * time.Millisecond
	targetRSSStart  = 15 << 20
	targetRSSWork   = 50 << 20
)

func main() {
	bin := flag.String("bin", "", "ttywright binary (default: go build . into a temp dir)")
	n := flag.Int("n", 20, "repetitions for each latency and cold-start figure")
	asJSON := flag.Bool("json", false, "print the figures as one JSON object")
	startOnly := flag.Bool("start-only", false, "measure the start only (any MCP server binary)")
	flag.Parse()
	if err := run(*bin, *n, *asJSON, *startOnly); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// Report holds the figures; durations in milliseconds, sizes in bytes.
type Report struct {
	ColdStartMedianMS  float64 `json:"cold_start_median_ms"`
	ColdStartMinMS     float64 `json:"cold_start_min_ms"`
	ColdStartCPUMS     float64 `json:"cold_start_on_cpu_median_ms"`
	ColdStartQueuedMS  float64 `json:"cold_start_runqueue_wait_median_ms"`
	SpawnBaselineMS    float64 `json:"spawn_bin_true_median_ms"`
	RSSAfterStart      int64   `json:"rss_peak_after_start_bytes"`
	RSSAfterWorkload   int64   `json:"rss_peak_after_workload_bytes"`
	SendWaitMedianMS   float64 `json:"shell_send_wait_for_median_ms"`
	WaitMedianMS       float64 `json:"shell_wait_median_ms"`
	ReadMedianMS       float64 `json:"shell_read_median_ms"`
	ScreenshotMedianMS float64 `json:"shell_screenshot_median_ms"`
	FloodMS            float64 `json:"flood_1e5_lines_ms"`
	Runs               int     `json:"runs"`
}

func run(bin string, n int, asJSON, startOnly bool) error {
	if n < 1 {
		return errors.New("-n must be at least 1")
	}
	tmp, err := os.MkdirTemp("", "ttywright-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "ttywright")
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build: %v", err)
		}
	}
	rep := Report{Runs: n}

	// The machine's own cost of starting a process, for scale: on a loaded
	// machine every figure below grows with it.
	var spawn []time.Duration
	for range n {
		t0 := time.Now()
		if err := exec.Command("/bin/true").Run(); err != nil {
			return fmt.Errorf("baseline /bin/true: %v", err)
		}
		spawn = append(spawn, time.Since(t0))
	}
	rep.SpawnBaselineMS = ms(median(spawn))

	// Cold start, n times; the first run also warms the page cache. The
	// scheduler's own account (/proc/PID/task/*/schedstat) splits each start
	// into time on a CPU and time waiting for one, which a busy machine adds.
	var cold, oncpu, queued []time.Duration
	for i := 0; i <= n; i++ {
		c, d, err := startClient(bin, tmp)
		if err != nil {
			return err
		}
		run, wait, err := schedstat(c.cmd.Process.Pid)
		if err != nil {
			c.close()
			return err
		}
		if i > 0 {
			oncpu, queued = append(oncpu, run), append(queued, wait)
		}
		if i == 1 {
			rep.RSSAfterStart, err = c.peakRSS()
			if err != nil {
				return err
			}
		}
		if err := c.close(); err != nil {
			return err
		}
		if i > 0 {
			cold = append(cold, d)
		}
	}
	rep.ColdStartMedianMS, rep.ColdStartMinMS = ms(median(cold)), ms(slices.Min(cold))
	rep.ColdStartCPUMS, rep.ColdStartQueuedMS = ms(median(oncpu)), ms(median(queued))

	if startOnly {
		fmt.Printf("cold start %.2f ms (min %.2f), on a CPU %.2f ms, waiting for one %.2f ms; /bin/true %.2f ms; RSS %.2f MB\n",
			rep.ColdStartMedianMS, rep.ColdStartMinMS, rep.ColdStartCPUMS, rep.ColdStartQueuedMS, rep.SpawnBaselineMS, float64(rep.RSSAfterStart)/(1<<20))
		return nil
	}

	// The workload, in one server.
	c, _, err := startClient(bin, tmp)
	if err != nil {
		return err
	}
	defer c.close()
	if err := workload(c, n, &rep); err != nil {
		return fmt.Errorf("%v\nserver stderr:\n%s", err, c.stderr.String())
	}
	if rep.RSSAfterWorkload, err = c.peakRSS(); err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(rep)
	}
	printReport(rep)
	return nil
}

func workload(c *client, n int, rep *Report) error {
	start, err := c.tool("shell_start", map[string]any{"command": "/bin/bash",
		"args": []string{"--norc", "--noprofile", "-i"},
		"env":  map[string]string{"PS1": "bench$ ", "HISTFILE": "/dev/null"}})
	if err != nil {
		return err
	}
	id, _ := start["shell_session_id"].(string)
	if _, err := c.tool("shell_wait", map[string]any{"session_id": id, "wait_for": "bench$ ", "timeout_ms": 10000}); err != nil {
		return err
	}

	var send, wait, read, shot []time.Duration
	for i := range n {
		t0 := time.Now()
		r, err := c.tool("shell_send", map[string]any{"session_id": id, "input": fmt.Sprintf("echo b-$((%d+1))\\r", i),
			"wait_for": fmt.Sprintf("b-%d", i+1), "delay_ms": 0, "timeout_ms": 10000})
		if err != nil {
			return err
		}
		if r["matched"] != true {
			return fmt.Errorf("shell_send: echo never appeared: %v", r)
		}
		send = append(send, time.Since(t0))

		t0 = time.Now()
		if _, err := c.tool("shell_wait", map[string]any{"session_id": id, "wait_for": fmt.Sprintf("b-%d", i+1), "timeout_ms": 10000}); err != nil {
			return err
		}
		wait = append(wait, time.Since(t0))

		t0 = time.Now()
		if _, err := c.call("tools/call", map[string]any{"name": "shell_read", "arguments": map[string]any{"session_id": id}}); err != nil {
			return err
		}
		read = append(read, time.Since(t0))

		t0 = time.Now()
		if _, err := c.tool("shell_screenshot", map[string]any{"session_id": id, "name": fmt.Sprintf("bench-%d", i)}); err != nil {
			return err
		}
		shot = append(shot, time.Since(t0))
	}
	rep.SendWaitMedianMS, rep.WaitMedianMS = ms(median(send)), ms(median(wait))
	rep.ReadMedianMS, rep.ScreenshotMedianMS = ms(median(read)), ms(median(shot))

	// A flood of output: the scrollback cap keeps memory bounded.
	t0 := time.Now()
	if _, err := c.tool("shell_send", map[string]any{"session_id": id, "input": `seq 1 100000; echo flood-$((9*9))\r`,
		"wait_for": "flood-81", "delay_ms": 0, "timeout_ms": 60000}); err != nil {
		return err
	}
	rep.FloodMS = ms(time.Since(t0))

	// A recording while typing, and a few more sessions side by side.
	if _, err := c.tool("shell_record_start", map[string]any{"session_id": id, "fps": 10}); err != nil {
		return err
	}
	if _, err := c.tool("shell_send", map[string]any{"session_id": id, "input": `ls -la --color=always /usr/bin | head -50\r`,
		"type_delay_ms": 5, "wait_idle_ms": 300, "timeout_ms": 20000}); err != nil {
		return err
	}
	if _, err := c.tool("shell_record_stop", map[string]any{"session_id": id, "name": "bench"}); err != nil {
		return err
	}
	for range 4 {
		r, err := c.tool("shell_start", map[string]any{"command": "/bin/bash", "args": []string{"--norc", "--noprofile", "-c", "seq 1 20000; sleep 0.2"}})
		if err != nil {
			return err
		}
		if _, err := c.tool("shell_wait", map[string]any{"session_id": r["shell_session_id"], "wait_for": "20000", "timeout_ms": 20000}); err != nil {
			return err
		}
		if _, err := c.tool("shell_screenshot", map[string]any{"session_id": r["shell_session_id"], "name": "after-seq"}); err != nil {
			return err
		}
	}
	_, err = c.tool("shell_stop", map[string]any{"session_id": id})
	return err
}

func printReport(r Report) {
	check := func(ok bool) string {
		if ok {
			return "ok"
		}
		return "OVER TARGET"
	}
	mb := func(b int64) float64 { return float64(b) / (1 << 20) }
	fmt.Printf("ttywright benchmark (%d runs each, medians)\n", r.Runs)
	fmt.Printf("  cold start to initialize + tools/list  %7.2f ms (min %.2f)  target < %v  %s\n",
		r.ColdStartMedianMS, r.ColdStartMinMS, targetColdStart, check(r.ColdStartMedianMS < ms(targetColdStart)))
	fmt.Printf("    of which on a CPU (all threads)      %7.2f ms\n", r.ColdStartCPUMS)
	fmt.Printf("    of which waiting for a CPU           %7.2f ms\n", r.ColdStartQueuedMS)
	fmt.Printf("  for scale: starting /bin/true          %7.2f ms\n", r.SpawnBaselineMS)
	fmt.Printf("  peak RSS after start                   %7.2f MB             target < 15 MB  %s\n",
		mb(r.RSSAfterStart), check(r.RSSAfterStart < targetRSSStart))
	fmt.Printf("  peak RSS after the workload            %7.2f MB             target < 50 MB  %s\n",
		mb(r.RSSAfterWorkload), check(r.RSSAfterWorkload < targetRSSWork))
	fmt.Printf("  shell_send + wait_for (echo in bash)   %7.2f ms\n", r.SendWaitMedianMS)
	fmt.Printf("  shell_wait (text already on screen)    %7.2f ms\n", r.WaitMedianMS)
	fmt.Printf("  shell_read                             %7.2f ms\n", r.ReadMedianMS)
	fmt.Printf("  shell_screenshot (PNG+SVG+ANSI+TXT)    %7.2f ms\n", r.ScreenshotMedianMS)
	fmt.Printf("  100,000 lines of output, then a match  %7.2f ms\n", r.FloodMS)
}

// client is a minimal MCP client over the binary's stdin and stdout:
// newline-delimited JSON-RPC, one request at a time.
type client struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *lockedBuffer
	nextID int
}

// lockedBuffer collects the server's stderr; exec writes it from its own
// goroutine while the client may read it for an error message.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startClient starts the binary, runs initialize, notifications/initialized
// and tools/list, and returns the time that took from just before exec.
func startClient(bin, tmp string) (*client, time.Duration, error) {
	c := &client{stderr: &lockedBuffer{}}
	c.cmd = exec.Command(bin, "--output-dir", filepath.Join(tmp, "out"))
	c.cmd.Stderr = c.stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil, 0, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, 0, err
	}
	c.out = bufio.NewReaderSize(stdout, 1<<20)
	t0 := time.Now()
	if err := c.cmd.Start(); err != nil {
		return nil, 0, err
	}
	if _, err := c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "ttywright-bench", "version": "1"}}); err != nil {
		c.close()
		return nil, 0, err
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		c.close()
		return nil, 0, err
	}
	r, err := c.call("tools/list", map[string]any{})
	if err != nil {
		c.close()
		return nil, 0, err
	}
	d := time.Since(t0)
	if tools, _ := r["tools"].([]any); len(tools) == 0 {
		c.close()
		return nil, 0, fmt.Errorf("tools/list returned no tools: %v", r)
	}
	return c, d, nil
}

func (c *client) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// call sends one request and reads frames until its response, skipping
// notifications.
func (c *client) call(method string, params any) (map[string]any, error) {
	c.nextID++
	id := c.nextID
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("%s: reading the response: %v\nstderr:\n%s", method, err, c.stderr.String())
		}
		var msg struct {
			ID     *int            `json:"id"`
			Result map[string]any  `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			return nil, fmt.Errorf("%s: bad frame %q: %v", method, line, err)
		}
		if msg.ID == nil || *msg.ID != id {
			continue // a notification
		}
		if len(msg.Error) > 0 {
			return nil, fmt.Errorf("%s: %s", method, msg.Error)
		}
		return msg.Result, nil
	}
}

// tool calls a tool and returns its structured result; isError is an error.
func (c *client) tool(name string, args map[string]any) (map[string]any, error) {
	r, err := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	if r["isError"] == true {
		return nil, fmt.Errorf("%s: %v", name, r["content"])
	}
	if sc, ok := r["structuredContent"].(map[string]any); ok {
		return sc, nil
	}
	content, _ := r["content"].([]any)
	if len(content) > 0 {
		if first, ok := content[0].(map[string]any); ok {
			var m map[string]any
			if json.Unmarshal([]byte(fmt.Sprint(first["text"])), &m) == nil {
				return m, nil
			}
		}
	}
	return map[string]any{}, nil
}

// schedstat sums the time pid's threads spent on a CPU and waiting in a
// run queue so far (/proc/PID/task/TID/schedstat, nanoseconds).
func schedstat(pid int) (run, wait time.Duration, err error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, 0, fmt.Errorf("reading schedstat of %d (Linux only): %v", pid, err)
	}
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread ended
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		r, _ := strconv.ParseInt(f[0], 10, 64)
		w, _ := strconv.ParseInt(f[1], 10, 64)
		run += time.Duration(r)
		wait += time.Duration(w)
	}
	return run, wait, nil
}

// peakRSS reads VmHWM, the peak resident set size, from /proc.
func (c *client) peakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0, fmt.Errorf("reading peak RSS (Linux only): %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			kb, err := strconv.ParseInt(f[0], 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/PID/status")
}

// close ends the server by closing its stdin, as MCP's stdio shutdown says.
func (c *client) close() error {
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
		return errors.New("the server did not exit within 10 s of stdin closing")
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
