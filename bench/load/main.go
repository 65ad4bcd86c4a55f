// Command load measures the ttywright binary under load, over stdio, as
// one MCP client sees it: with 64 sessions of which 8 flood their
// terminal with `yes`, how long a ping and a shell_read of an idle
// session take (median and 99th percentile), how long shell_start takes
// meanwhile, how fast a session's output still reaches its screen, and
// how long stopping all 64 sessions at once takes.
//
// Usage, from the repository root:
//
//	go run ./bench/load [-bin path/to/ttywright] [-sessions 64] [-floods 8] [-n 500] [-json]
//
// Without -bin it builds the binary into a temporary directory first. It
// needs bash and yes; it uses only the standard library.
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
	"sync"
	"time"
)

// Targets: a ping answered within 50 ms at the 99th percentile while the
// floods run.
const targetPingP99 = 50 * time.Millisecond

func main() {
	bin := flag.String("bin", "", "ttywright binary (default: go build . into a temp dir)")
	sessions := flag.Int("sessions", 64, "sessions in all")
	floods := flag.Int("floods", 8, "sessions of them running yes")
	n := flag.Int("n", 500, "pings and reads measured")
	asJSON := flag.Bool("json", false, "print the figures as one JSON object")
	flag.Parse()
	rep, err := run(*bin, *sessions, *floods, *n)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	if *asJSON {
		json.NewEncoder(os.Stdout).Encode(rep)
		return
	}
	rep.print()
	if p := max(rep.PingP99MS, rep.BusyPingP99MS); p > ms(targetPingP99) {
		fmt.Printf("ping p99 %.1f ms is over the %.0f ms target\n", p, ms(targetPingP99))
		os.Exit(1)
	}
}

// Report holds the figures, in milliseconds and MB/s.
type Report struct {
	Sessions, Floods int
	StartP50MS       float64 `json:"shell_start_p50_ms"`
	StartP99MS       float64 `json:"shell_start_p99_ms"`
	PingP50MS        float64 `json:"ping_p50_ms"`
	PingP99MS        float64 `json:"ping_p99_ms"`
	ReadP50MS        float64 `json:"shell_read_p50_ms"`
	ReadP99MS        float64 `json:"shell_read_p99_ms"`
	FloodReadP50MS   float64 `json:"flood_shell_read_p50_ms"`
	FloodReadP99MS   float64 `json:"flood_shell_read_p99_ms"`
	BusyPingP50MS    float64 `json:"ping_during_flood_reads_p50_ms"`
	BusyPingP99MS    float64 `json:"ping_during_flood_reads_p99_ms"`
	SeqAloneMS       float64 `json:"seq_alone_ms"`
	SeqLoadedMS      float64 `json:"seq_under_floods_ms"`
	StopEachP50MS    float64 `json:"shell_stop_one_at_a_time_p50_ms"`
	StopEachP99MS    float64 `json:"shell_stop_one_at_a_time_p99_ms"`
	StopAllMS        float64 `json:"stop_half_at_once_ms"`
	StopP50MS        float64 `json:"shell_stop_at_once_p50_ms"`
	ServerCPUPercent float64 `json:"server_cpu_percent_during_pings"`
	// The server's threads during the flood reads: on a CPU, and
	// runnable but waiting for one (the kernel's schedstat), as a
	// percentage of one CPU.
	BusyServerRunPercent  float64 `json:"server_run_percent_during_flood_reads"`
	BusyServerWaitPercent float64 `json:"server_runqueue_wait_percent_during_flood_reads"`
	PingsMeasured         int     `json:"pings"`
	ReadsMeasured         int     `json:"reads"`
	SeqBytes              int     `json:"seq_bytes"`
	SeqAloneMBps          float64 `json:"seq_alone_mb_per_s"`
	SeqLoadedMBps         float64 `json:"seq_under_floods_mb_per_s"`
	MachineCPUs           int     `json:"cpus"`
	FloodCommandCalled    string  `json:"flood_command"`
}

func (r Report) print() {
	fmt.Printf("%d sessions, %d of them running %s (%d CPUs)\n", r.Sessions, r.Floods, r.FloodCommandCalled, r.MachineCPUs)
	fmt.Printf("  shell_start under the floods: p50 %.1f ms, p99 %.1f ms\n", r.StartP50MS, r.StartP99MS)
	fmt.Printf("  ping: p50 %.2f ms, p99 %.2f ms (%d)\n", r.PingP50MS, r.PingP99MS, r.PingsMeasured)
	fmt.Printf("  shell_read of an idle session: p50 %.2f ms, p99 %.2f ms (%d)\n", r.ReadP50MS, r.ReadP99MS, r.ReadsMeasured)
	fmt.Printf("  shell_read of a flooding session: p50 %.2f ms, p99 %.2f ms; ping meanwhile: p50 %.2f ms, p99 %.2f ms\n",
		r.FloodReadP50MS, r.FloodReadP99MS, r.BusyPingP50MS, r.BusyPingP99MS)
	fmt.Printf("  seq 1 200000 (%d bytes) to its screen: alone %.0f ms (%.1f MB/s), under the floods %.0f ms (%.1f MB/s)\n",
		r.SeqBytes, r.SeqAloneMS, r.SeqAloneMBps, r.SeqLoadedMS, r.SeqLoadedMBps)
	fmt.Printf("  shell_stop one at a time (%d): p50 %.1f ms, p99 %.1f ms; the other %d at once: %.0f ms in all\n",
		r.Sessions/2, r.StopEachP50MS, r.StopEachP99MS, r.Sessions-r.Sessions/2, r.StopAllMS)
	fmt.Printf("  server CPU while pinging: %.0f%%; during the flood reads on a CPU %.0f%%, waiting for one %.0f%%\n",
		r.ServerCPUPercent, r.BusyServerRunPercent, r.BusyServerWaitPercent)
}

func run(bin string, sessions, floods, n int) (Report, error) {
	rep := Report{Sessions: sessions, Floods: floods, MachineCPUs: cpus(), FloodCommandCalled: "yes"}
	tmp, err := os.MkdirTemp("", "ttywright-load-")
	if err != nil {
		return rep, err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "ttywright")
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return rep, fmt.Errorf("go build: %v", err)
		}
	}
	c, err := start(bin, tmp, sessions+2)
	if err != nil {
		return rep, err
	}
	defer c.close()

	bash := map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile", "-i"},
		"env": map[string]string{"PS1": "$ ", "HISTFILE": "/dev/null"}, "shell_integration": false}
	probe, err := c.startSession(bash)
	if err != nil {
		return rep, err
	}
	seq := func() (time.Duration, error) {
		t0 := time.Now()
		r, err := c.tool("shell_send", map[string]any{"session_id": probe, "text": "seq 1 200000\n", "wait_for": "/^200000$/", "timeout_ms": 120000})
		if err == nil && r["matched"] != true {
			err = fmt.Errorf("seq never finished: %v", r)
		}
		return time.Since(t0), err
	}
	alone, err := seq()
	if err != nil {
		return rep, err
	}
	var ids []string
	for range floods {
		id, err := c.startSession(map[string]any{"command": "yes"})
		if err != nil {
			return rep, err
		}
		ids = append(ids, id)
	}
	var starts []time.Duration
	for len(ids) < sessions-1 {
		t0 := time.Now()
		id, err := c.startSession(bash)
		if err != nil {
			return rep, err
		}
		starts = append(starts, time.Since(t0))
		ids = append(ids, id)
	}
	ids = append(ids, probe)
	time.Sleep(time.Second) // the floods at full speed

	cpu0 := c.cpuTime()
	wall0 := time.Now()
	var pings, reads []time.Duration
	for range n {
		t0 := time.Now()
		if _, err := c.call("ping", nil); err != nil {
			return rep, err
		}
		pings = append(pings, time.Since(t0))
		time.Sleep(2 * time.Millisecond)
	}
	rep.ServerCPUPercent = 100 * float64(c.cpuTime()-cpu0) / float64(time.Since(wall0))
	idle := ids[len(ids)-2]
	for range n / 2 {
		t0 := time.Now()
		if _, err := c.tool("shell_read", map[string]any{"session_id": idle, "scrollback": false}); err != nil {
			return rep, err
		}
		reads = append(reads, time.Since(t0))
	}
	// Reads of the flooding sessions, each in a loop of its own, with
	// pings measured meanwhile.
	var floodReads, busyPings []time.Duration
	var mu sync.Mutex
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for _, id := range ids[:floods] {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				t0 := time.Now()
				if _, err := c.tool("shell_read", map[string]any{"session_id": id}); err != nil {
					return
				}
				mu.Lock()
				floodReads = append(floodReads, time.Since(t0))
				mu.Unlock()
			}
		})
	}
	run0, wait0 := c.schedstat()
	busy0 := time.Now()
	for range n {
		t0 := time.Now()
		if _, err := c.call("ping", nil); err != nil {
			return rep, err
		}
		busyPings = append(busyPings, time.Since(t0))
		time.Sleep(2 * time.Millisecond)
	}
	run1, wait1 := c.schedstat()
	rep.BusyServerRunPercent = 100 * float64(run1-run0) / float64(time.Since(busy0))
	rep.BusyServerWaitPercent = 100 * float64(wait1-wait0) / float64(time.Since(busy0))
	close(stop)
	wg.Wait()
	rep.FloodReadP50MS, rep.FloodReadP99MS = ms(pct(floodReads, 50)), ms(pct(floodReads, 99))
	rep.BusyPingP50MS, rep.BusyPingP99MS = ms(pct(busyPings, 50)), ms(pct(busyPings, 99))
	loaded, err := seq()
	if err != nil {
		return rep, err
	}

	// Half the sessions stopped one after the other, as a client that
	// waits for each reply does, the other half all at once.
	half := len(ids) / 2
	var oneByOne []time.Duration
	for _, id := range ids[:half] {
		t0 := time.Now()
		if _, err := c.tool("shell_stop", map[string]any{"session_id": id}); err != nil {
			return rep, err
		}
		oneByOne = append(oneByOne, time.Since(t0))
	}
	rep.StopEachP50MS, rep.StopEachP99MS = ms(pct(oneByOne, 50)), ms(pct(oneByOne, 99))
	var stops []time.Duration
	t0 := time.Now()
	var stopErr error
	for _, id := range ids[half:] {
		wg.Go(func() {
			s0 := time.Now()
			_, err := c.tool("shell_stop", map[string]any{"session_id": id})
			mu.Lock()
			stops = append(stops, time.Since(s0))
			if err != nil && stopErr == nil {
				stopErr = err
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if stopErr != nil {
		return rep, stopErr
	}
	rep.StopAllMS = ms(time.Since(t0))
	const seqBytes = 1288895 // bytes of `seq 1 200000`
	rep.SeqBytes = seqBytes
	rep.SeqAloneMS, rep.SeqLoadedMS = ms(alone), ms(loaded)
	rep.SeqAloneMBps, rep.SeqLoadedMBps = seqBytes/alone.Seconds()/1e6, seqBytes/loaded.Seconds()/1e6
	rep.StartP50MS, rep.StartP99MS = ms(pct(starts, 50)), ms(pct(starts, 99))
	rep.PingP50MS, rep.PingP99MS, rep.PingsMeasured = ms(pct(pings, 50)), ms(pct(pings, 99)), len(pings)
	rep.ReadP50MS, rep.ReadP99MS, rep.ReadsMeasured = ms(pct(reads, 50)), ms(pct(reads, 99)), len(reads)
	rep.StopP50MS = ms(pct(stops, 50))
	return rep, nil
}

// client is a JSON-RPC client over the server's stdio that takes calls
// from several goroutines at once, matching responses by id.
type client struct {
	cmd *exec.Cmd
	in  io.WriteCloser

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan response
	err     error
}

type response struct {
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// start starts the binary and initializes a session.
func start(bin, tmp string, maxSessions int) (*client, error) {
	c := &client{waiting: map[int]chan response{}}
	c.cmd = exec.Command(bin, "--output-dir", filepath.Join(tmp, "out"), "--max-sessions", fmt.Sprint(maxSessions))
	c.cmd.Stderr = os.Stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, err
	}
	go c.read(bufio.NewReaderSize(out, 1<<20))
	if _, err := c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "ttywright-load", "version": "1"}}); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// read routes every response to its caller.
func (c *client) read(r *bufio.Reader) {
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			c.mu.Lock()
			c.err = fmt.Errorf("the server's output ended: %v", err)
			for id, ch := range c.waiting {
				close(ch)
				delete(c.waiting, id)
			}
			c.mu.Unlock()
			return
		}
		var msg struct {
			ID *int `json:"id"`
			response
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil {
			continue // a notification
		}
		c.mu.Lock()
		ch := c.waiting[*msg.ID]
		delete(c.waiting, *msg.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- msg.response
		}
	}
}

// call sends one request and waits for its response.
func (c *client) call(method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	id := c.nextID
	ch := make(chan response, 1)
	c.waiting[id] = ch
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	_, err := c.in.Write(append(b, '\n'))
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	r, ok := <-ch
	if !ok {
		return nil, c.err
	}
	if len(r.Error) > 0 {
		return nil, fmt.Errorf("%s: %s", method, r.Error)
	}
	return r.Result, nil
}

// tool calls a tool and returns its structured result; isError is an error.
func (c *client) tool(name string, args map[string]any) (map[string]any, error) {
	raw, err := c.call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	var r struct {
		IsError           bool            `json:"isError"`
		Content           json.RawMessage `json:"content"`
		StructuredContent map[string]any  `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.IsError {
		return nil, fmt.Errorf("%s: %s", name, r.Content)
	}
	return r.StructuredContent, nil
}

// startSession starts a session and returns its id.
func (c *client) startSession(args map[string]any) (string, error) {
	r, err := c.tool("shell_start", args)
	if err != nil {
		return "", err
	}
	id, _ := r["shell_session_id"].(string)
	if id == "" {
		return "", errors.New("shell_start returned no id")
	}
	return id, nil
}

// cpuTime is the server process's CPU time so far (user + system, from
// /proc/PID/stat, in clock ticks of 10 ms); 0 where there is no /proc.
func (c *client) cpuTime() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses.
	i := slices.Index(b, ')')
	var skip [11]string
	var utime, stime int64
	if i < 0 {
		return 0
	}
	fmt.Sscan(string(b[i+2:]), &skip[0], &skip[1], &skip[2], &skip[3], &skip[4], &skip[5], &skip[6], &skip[7], &skip[8], &skip[9], &skip[10], &utime, &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// schedstat sums the time the server's threads spent on a CPU and
// waiting in a run queue (/proc/PID/task/TID/schedstat).
func (c *client) schedstat() (run, wait time.Duration) {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", c.cmd.Process.Pid))
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		var r, w int64
		fmt.Sscan(string(b), &r, &w)
		run += time.Duration(r)
		wait += time.Duration(w)
	}
	return run, wait
}

// close ends the server by closing its stdin.
func (c *client) close() {
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

// pct is the p-th percentile of d.
func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// cpus is the number of CPUs the machine has.
func cpus() int {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return 0
	}
	n := 0
	for _, line := range slices.Collect(func(yield func(string) bool) {
		for _, l := range splitLines(string(b)) {
			if !yield(l) {
				return
			}
		}
	}) {
		if len(line) >= 9 && line[:9] == "processor" {
			n++
		}
	}
	return n
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}
