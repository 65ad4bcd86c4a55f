package probe

// load.go: the server under load, from bench/load: 64 sessions of which 8
// flood their terminal with `yes`.

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// LoadReport holds Load's figures, in milliseconds and MB/s.
type LoadReport struct {
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

// Load starts bin with an output directory under tmp, starts sessions
// sessions of which floods run `yes`, and measures: n pings and n/2
// shell_reads of an idle session, the floods' shell_reads (each in a loop
// of its own) with n pings meanwhile, `seq 1 200000` alone and under the
// floods, and stopping half the sessions one at a time and the other half
// at once. It needs bash and yes.
func Load(bin, tmp string, sessions, floods, n int) (LoadReport, error) {
	rep := LoadReport{Sessions: sessions, Floods: floods, MachineCPUs: runtime.NumCPU(), FloodCommandCalled: "yes"}
	c, _, err := Start(bin, "--output-dir", filepath.Join(tmp, "out"), "--max-sessions", fmt.Sprint(sessions+2))
	if err != nil {
		return rep, err
	}
	defer c.Close()

	probe, err := c.StartSession(PlainBash())
	if err != nil {
		return rep, err
	}
	alone, err := SeqFlood(c, probe)
	if err != nil {
		return rep, err
	}
	var ids []string
	for range floods {
		id, err := c.StartSession(map[string]any{"command": "yes"})
		if err != nil {
			return rep, err
		}
		ids = append(ids, id)
	}
	var starts []time.Duration
	for len(ids) < sessions-1 {
		t0 := time.Now()
		id, err := c.StartSession(PlainBash())
		if err != nil {
			return rep, err
		}
		starts = append(starts, time.Since(t0))
		ids = append(ids, id)
	}
	ids = append(ids, probe)
	time.Sleep(time.Second) // the floods at full speed

	run0, _, err := Schedstat(c.Pid())
	if err != nil {
		return rep, err
	}
	wall0 := time.Now()
	pings, err := pingLoop(c, n)
	if err != nil {
		return rep, err
	}
	run1, _, _ := Schedstat(c.Pid())
	rep.ServerCPUPercent = 100 * float64(run1-run0) / float64(time.Since(wall0))
	idle := ids[len(ids)-2]
	var reads []time.Duration
	for range n / 2 {
		t0 := time.Now()
		if _, err := c.Tool("shell_read", map[string]any{"session_id": idle, "scrollback": false}); err != nil {
			return rep, err
		}
		reads = append(reads, time.Since(t0))
	}
	floodReads, busyPings, err := floodReadLoops(c, ids[:floods], n, &rep)
	if err != nil {
		return rep, err
	}
	rep.FloodReadP50MS, rep.FloodReadP99MS = ms(Percentile(floodReads, 50)), ms(Percentile(floodReads, 99))
	rep.BusyPingP50MS, rep.BusyPingP99MS = ms(Percentile(busyPings, 50)), ms(Percentile(busyPings, 99))
	loaded, err := SeqFlood(c, probe)
	if err != nil {
		return rep, err
	}
	if err := stopAll(c, ids, &rep); err != nil {
		return rep, err
	}
	rep.SeqBytes = SeqBytes
	rep.SeqAloneMS, rep.SeqLoadedMS = ms(alone), ms(loaded)
	rep.SeqAloneMBps, rep.SeqLoadedMBps = SeqBytes/alone.Seconds()/1e6, SeqBytes/loaded.Seconds()/1e6
	rep.StartP50MS, rep.StartP99MS = ms(Percentile(starts, 50)), ms(Percentile(starts, 99))
	rep.PingP50MS, rep.PingP99MS, rep.PingsMeasured = ms(Percentile(pings, 50)), ms(Percentile(pings, 99)), len(pings)
	rep.ReadP50MS, rep.ReadP99MS, rep.ReadsMeasured = ms(Percentile(reads, 50)), ms(Percentile(reads, 99)), len(reads)
	return rep, nil
}

// pingLoop times n pings, 2 ms apart.
func pingLoop(c *Client, n int) ([]time.Duration, error) {
	var pings []time.Duration
	for range n {
		t0 := time.Now()
		if _, err := c.Call("ping", nil); err != nil {
			return nil, err
		}
		pings = append(pings, time.Since(t0))
		time.Sleep(2 * time.Millisecond)
	}
	return pings, nil
}

// floodReadLoops reads each flooding session in a loop of its own while
// it times n pings, and records the server's share of a CPU meanwhile.
func floodReadLoops(c *Client, floods []string, n int, rep *LoadReport) (reads, pings []time.Duration, err error) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for _, id := range floods {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				t0 := time.Now()
				if _, err := c.Tool("shell_read", map[string]any{"session_id": id}); err != nil {
					return
				}
				mu.Lock()
				reads = append(reads, time.Since(t0))
				mu.Unlock()
			}
		})
	}
	run0, wait0, _ := Schedstat(c.Pid())
	t0 := time.Now()
	pings, err = pingLoop(c, n)
	run1, wait1, _ := Schedstat(c.Pid())
	rep.BusyServerRunPercent = 100 * float64(run1-run0) / float64(time.Since(t0))
	rep.BusyServerWaitPercent = 100 * float64(wait1-wait0) / float64(time.Since(t0))
	close(stop)
	wg.Wait()
	return reads, pings, err
}

// stopAll stops the first half of ids one after the other, as a client
// that waits for each reply does, and the other half all at once.
func stopAll(c *Client, ids []string, rep *LoadReport) error {
	half := len(ids) / 2
	var oneByOne []time.Duration
	for _, id := range ids[:half] {
		t0 := time.Now()
		if _, err := c.Tool("shell_stop", map[string]any{"session_id": id}); err != nil {
			return err
		}
		oneByOne = append(oneByOne, time.Since(t0))
	}
	rep.StopEachP50MS, rep.StopEachP99MS = ms(Percentile(oneByOne, 50)), ms(Percentile(oneByOne, 99))
	var stops []time.Duration
	var stopErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	t0 := time.Now()
	for _, id := range ids[half:] {
		wg.Go(func() {
			s0 := time.Now()
			_, err := c.Tool("shell_stop", map[string]any{"session_id": id})
			mu.Lock()
			stops = append(stops, time.Since(s0))
			if err != nil && stopErr == nil {
				stopErr = err
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	rep.StopAllMS = ms(time.Since(t0))
	rep.StopP50MS = ms(Percentile(stops, 50))
	return stopErr
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
