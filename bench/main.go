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
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/ttywright/ttywright/bench/internal/probe"
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
		if err := probe.Build(".", bin); err != nil {
			return err
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
	rep.SpawnBaselineMS = ms(probe.Median(spawn))

	// Cold start, n times; the first run also warms the page cache. The
	// scheduler's own account (/proc/PID/task/*/schedstat) splits each start
	// into time on a CPU and time waiting for one, which a busy machine adds.
	outDir := filepath.Join(tmp, "out")
	var cold, oncpu, queued []time.Duration
	for i := 0; i <= n; i++ {
		c, d, err := probe.Start(bin, "--output-dir", outDir)
		if err != nil {
			return err
		}
		run, wait, err := probe.Schedstat(c.Pid())
		if err != nil {
			c.Close()
			return err
		}
		if i > 0 {
			cold, oncpu, queued = append(cold, d), append(oncpu, run), append(queued, wait)
		}
		if i == 1 {
			if rep.RSSAfterStart, err = probe.PeakRSS(c.Pid()); err != nil {
				c.Close()
				return err
			}
		}
		if err := c.Close(); err != nil {
			return err
		}
	}
	rep.ColdStartMedianMS, rep.ColdStartMinMS = ms(probe.Median(cold)), ms(slices.Min(cold))
	rep.ColdStartCPUMS, rep.ColdStartQueuedMS = ms(probe.Median(oncpu)), ms(probe.Median(queued))

	if startOnly {
		fmt.Printf("cold start %.2f ms (min %.2f), on a CPU %.2f ms, waiting for one %.2f ms; /bin/true %.2f ms; RSS %.2f MB\n",
			rep.ColdStartMedianMS, rep.ColdStartMinMS, rep.ColdStartCPUMS, rep.ColdStartQueuedMS, rep.SpawnBaselineMS, float64(rep.RSSAfterStart)/(1<<20))
		return nil
	}

	// The workload, in one server.
	c, _, err := probe.Start(bin, "--output-dir", outDir)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := workload(c, n, &rep); err != nil {
		return err
	}
	if rep.RSSAfterWorkload, err = probe.PeakRSS(c.Pid()); err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(os.Stdout).Encode(rep)
	}
	printReport(rep)
	return nil
}

func workload(c *probe.Client, n int, rep *Report) error {
	start, err := c.Tool("shell_start", map[string]any{"command": "/bin/bash",
		"args": []string{"--norc", "--noprofile", "-i"},
		"env":  map[string]string{"PS1": "bench$ ", "HISTFILE": "/dev/null"}})
	if err != nil {
		return err
	}
	id, _ := start["shell_session_id"].(string)
	if _, err := c.Tool("shell_wait", map[string]any{"session_id": id, "wait_for": "bench$ ", "timeout_ms": 10000}); err != nil {
		return err
	}

	var send, wait, read, shot []time.Duration
	for i := range n {
		t0 := time.Now()
		r, err := c.Tool("shell_send", map[string]any{"session_id": id, "input": fmt.Sprintf("echo b-$((%d+1))\\r", i),
			"wait_for": fmt.Sprintf("b-%d", i+1), "delay_ms": 0, "timeout_ms": 10000})
		if err != nil {
			return err
		}
		if r["matched"] != true {
			return fmt.Errorf("shell_send: echo never appeared: %v", r)
		}
		send = append(send, time.Since(t0))

		t0 = time.Now()
		if _, err := c.Tool("shell_wait", map[string]any{"session_id": id, "wait_for": fmt.Sprintf("b-%d", i+1), "timeout_ms": 10000}); err != nil {
			return err
		}
		wait = append(wait, time.Since(t0))

		t0 = time.Now()
		if _, err := c.Call("tools/call", map[string]any{"name": "shell_read", "arguments": map[string]any{"session_id": id}}); err != nil {
			return err
		}
		read = append(read, time.Since(t0))

		t0 = time.Now()
		if _, err := c.Tool("shell_screenshot", map[string]any{"session_id": id, "name": fmt.Sprintf("bench-%d", i)}); err != nil {
			return err
		}
		shot = append(shot, time.Since(t0))
	}
	rep.SendWaitMedianMS, rep.WaitMedianMS = ms(probe.Median(send)), ms(probe.Median(wait))
	rep.ReadMedianMS, rep.ScreenshotMedianMS = ms(probe.Median(read)), ms(probe.Median(shot))

	// A flood of output: the scrollback cap keeps memory bounded.
	t0 := time.Now()
	if _, err := c.Tool("shell_send", map[string]any{"session_id": id, "input": `seq 1 100000; echo flood-$((9*9))\r`,
		"wait_for": "flood-81", "delay_ms": 0, "timeout_ms": 60000}); err != nil {
		return err
	}
	rep.FloodMS = ms(time.Since(t0))

	// A recording while typing, and a few more sessions side by side.
	if _, err := c.Tool("shell_record_start", map[string]any{"session_id": id, "fps": 10}); err != nil {
		return err
	}
	if _, err := c.Tool("shell_send", map[string]any{"session_id": id, "input": `ls -la --color=always /usr/bin | head -50\r`,
		"type_delay_ms": 5, "wait_idle_ms": 300, "timeout_ms": 20000}); err != nil {
		return err
	}
	if _, err := c.Tool("shell_record_stop", map[string]any{"session_id": id, "name": "bench"}); err != nil {
		return err
	}
	for range 4 {
		r, err := c.Tool("shell_start", map[string]any{"command": "/bin/bash", "args": []string{"--norc", "--noprofile", "-c", "seq 1 20000; sleep 0.2"}})
		if err != nil {
			return err
		}
		if _, err := c.Tool("shell_wait", map[string]any{"session_id": r["shell_session_id"], "wait_for": "20000", "timeout_ms": 20000}); err != nil {
			return err
		}
		if _, err := c.Tool("shell_screenshot", map[string]any{"session_id": r["shell_session_id"], "name": "after-seq"}); err != nil {
			return err
		}
	}
	_, err = c.Tool("shell_stop", map[string]any{"session_id": id})
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

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
