package main

// measures.go: the probes, each a measure run on A and on B in turn.

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/ttywright/ttywright/bench/internal/probe"
)

// row is a line of the table: what is measured, in what unit.
type row struct{ name, unit string }

// measure is a probe. Once a round, setup (unless nil) starts the session
// sample works on in the side's server and returns its id, which is
// stopped after the last sample; sample returns one measurement for each
// of rows, reps times a round and side.
type measure struct {
	rows   []row
	reps   int
	setup  func(s *side) (string, error)
	sample func(s *side, id string) ([]float64, error)
}

// The load probe's size, bench/load's defaults: 64 sessions, 8 of them
// running yes, 55 idle shells and the one that runs seq.
const (
	loadSessions = 64
	loadFloods   = 8
)

// measures lists the probes in the order they run and print, and why
// the ones that cannot run are skipped (a shell not installed, a stream
// or the emulator's benchmarks missing).
func measures(cfg config, streams string, sides [2]*side) (ms []measure, skipped []string) {
	ms = []measure{
		{rows: []row{{"binary size", "MB"}}, reps: 1, sample: binarySize},
		{rows: []row{{"server start to `initialize` + `tools/list`", "ms"}, {"peak RSS after that start (VmHWM)", "MB"}},
			reps: cfg.starts, sample: serverStart},
		{rows: []row{{"`shell_start` bash, integrated, to ready", "ms"}}, reps: cfg.shellStarts, sample: startBash},
		{rows: []row{{"`shell_start` of `sh -c 'echo listening; sleep 600'` to its reply", "ms"}},
			reps: max(1, cfg.shellStarts/10), sample: startPausing},
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		if _, err := exec.LookPath(sh); err != nil {
			skipped = append(skipped, fmt.Sprintf("command end in %s (%s is not installed)", sh, sh))
			continue
		}
		ms = append(ms, measure{rows: []row{{fmt.Sprintf("command end in %s: `shell_send` `true` + `wait_for_command`", sh), "ms"}},
			reps: cfg.commands, setup: shellAtPrompt(sh), sample: commandEnd})
	}
	ms = append(ms,
		measure{rows: []row{{"`shell_read` (bash, a screenful)", "ms"}}, reps: cfg.commands, setup: shellAtPrompt("bash"), sample: read},
		measure{rows: []row{{"`shell_screenshot` (PNG, SVG, ANSI, text)", "ms"}}, reps: cfg.shots, setup: shellAtPrompt("bash"), sample: screenshot},
		measure{rows: []row{{"`seq 1 200000` typed into bash, until its last line is on the screen", "ms"}},
			reps: cfg.floods, setup: plainBash, sample: seqFlood},
	)
	for _, st := range probe.VTStreams {
		path := filepath.Join(streams, st.Name+".vt")
		fi, err := os.Stat(path)
		if err != nil || fi.Size() == 0 {
			skipped = append(skipped, fmt.Sprintf("`cat` of %s (B's benchmarks wrote no stream: %v)", st.About, err))
			continue
		}
		ms = append(ms, measure{rows: []row{{fmt.Sprintf("server CPU, `cat` of %s (%.1f MB) in a session", st.About, float64(fi.Size())/1e6), "ns/byte"}},
			reps: cfg.floods, sample: catStream(path, fi.Size())})
	}
	if m, why := emulatorAlone(cfg, sides); why != "" {
		skipped = append(skipped, why)
	} else {
		ms = append(ms, m)
	}
	ms = append(ms, measure{rows: []row{
		{fmt.Sprintf("under load (%d sessions, %d `yes` read in loops): ping p99", loadSessions, loadFloods), "ms"},
		{"under load: a flooding session's `shell_read` p99", "ms"},
		{fmt.Sprintf("under load: %d `shell_stop` at once, in all", loadSessions/2), "ms"},
	}, reps: 1, sample: underLoad(cfg.loadPings)})
	return ms, skipped
}

// home is the sessions' HOME, ZDOTDIR and XDG_CONFIG_HOME: empty, so no
// one's rc files run.
func (s *side) home() string { return filepath.Join(s.tmp, "home") }

// shellArgs are shell_start's arguments for the shell sh in an empty
// HOME, with shell_start's default shell integration.
func (s *side) shellArgs(sh string) map[string]any {
	return map[string]any{"command": sh, "args": []string{}, "cwd": s.home(),
		"env": map[string]string{"HOME": s.home(), "ZDOTDIR": s.home(), "XDG_CONFIG_HOME": s.home(), "HISTFILE": "/dev/null"}}
}

func binarySize(s *side, _ string) ([]float64, error) {
	fi, err := os.Stat(s.bin)
	if err != nil {
		return nil, err
	}
	return []float64{float64(fi.Size()) / 1e6}, nil
}

// serverStart starts a server of its own: the time to initialize and
// tools/list, and the peak RSS then.
func serverStart(s *side, _ string) ([]float64, error) {
	c, d, err := probe.Start(s.bin, "--output-dir", filepath.Join(s.tmp, "out"))
	if err != nil {
		return nil, err
	}
	rss, err := probe.PeakRSS(c.Pid())
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	return []float64{ms(d), float64(rss) / 1e6}, err
}

// timedStart times shell_start with args and stops the session after.
func timedStart(s *side, args map[string]any) ([]float64, error) {
	t0 := time.Now()
	id, err := s.c.StartSession(args)
	d := time.Since(t0)
	if err != nil {
		return nil, err
	}
	return []float64{ms(d)}, stop(s, id)
}

func startBash(s *side, _ string) ([]float64, error) { return timedStart(s, s.shellArgs("bash")) }

func startPausing(s *side, _ string) ([]float64, error) {
	args := s.shellArgs("sh")
	args["args"] = []string{"-c", "echo listening; sleep 600"}
	return timedStart(s, args)
}

// shellAtPrompt starts the shell sh (shellArgs) and has it run `seq 1 30`:
// a screenful, and the shell at its prompt.
func shellAtPrompt(sh string) func(s *side) (string, error) {
	return func(s *side) (string, error) {
		id, err := s.c.StartSession(s.shellArgs(sh))
		if err != nil {
			return "", err
		}
		if _, err := s.c.Tool("shell_send", map[string]any{"session_id": id, "input": `seq 1 30\r`, "wait_for_command": true, "timeout_ms": 20000}); err != nil {
			return "", err
		}
		return id, nil
	}
}

func commandEnd(s *side, id string) ([]float64, error) {
	t0 := time.Now()
	r, err := s.c.Tool("shell_send", map[string]any{"session_id": id, "input": `true\r`, "wait_for_command": true, "timeout_ms": 10000})
	d := time.Since(t0)
	if err == nil && r["command"] == nil {
		err = fmt.Errorf("shell_send with wait_for_command returned no command: %v", r)
	}
	return []float64{ms(d)}, err
}

func read(s *side, id string) ([]float64, error) {
	t0 := time.Now()
	_, err := s.c.Tool("shell_read", map[string]any{"session_id": id})
	return []float64{ms(time.Since(t0))}, err
}

func screenshot(s *side, id string) ([]float64, error) {
	s.shots++
	t0 := time.Now()
	_, err := s.c.Tool("shell_screenshot", map[string]any{"session_id": id, "name": fmt.Sprintf("compare-%d", s.shots)})
	return []float64{ms(time.Since(t0))}, err
}

// plainBash starts the bash of probe.SeqFlood: no rc files, no
// integration.
func plainBash(s *side) (string, error) { return s.c.StartSession(probe.PlainBash()) }

func seqFlood(s *side, id string) ([]float64, error) {
	d, err := probe.SeqFlood(s.c, id)
	return []float64{ms(d)}, err
}

// catStream returns a sample of the server's CPU time (its threads' time
// on a CPU, from schedstat) from shell_start of `cat path` until cat has
// exited, its output all on the screen, per byte of the file's size:
// reading the PTY and the emulator, with a session's start and end.
func catStream(path string, size int64) func(s *side, _ string) ([]float64, error) {
	return func(s *side, _ string) ([]float64, error) {
		run0, _, err := probe.Schedstat(s.c.Pid())
		if err != nil {
			return nil, err
		}
		r, err := s.c.Tool("shell_start", map[string]any{"command": "cat", "args": []string{path}})
		if err != nil {
			return nil, err
		}
		id, _ := r["shell_session_id"].(string)
		if r["exited"] != true {
			if r, err = s.c.Tool("shell_wait", map[string]any{"session_id": id, "timeout_ms": 60000}); err == nil && r["exited"] != true {
				err = fmt.Errorf("cat %s did not exit within 60 s: %v", path, r)
			}
		}
		run1, _, serr := probe.Schedstat(s.c.Pid())
		if err = errors.Join(err, serr, stop(s, id)); err != nil {
			return nil, err
		}
		return []float64{float64(run1-run0) / float64(size)}, nil
	}
}

// emulatorAlone is the measure of the VT benchmarks' streams written into
// the emulator in process (vt_bench_test.go, the figures of
// bench/vtspeed), by each side's test binary, in CPU ns a byte; or why it
// cannot run.
func emulatorAlone(cfg config, sides [2]*side) (measure, string) {
	const why = "the emulator alone (its benchmarks are built from a revision, not given with -a and -b)"
	for _, s := range sides {
		if s.test == "" {
			return measure{}, why
		}
		out, err := exec.Command(s.test, "-test.list", probe.VTBenchPattern()).Output()
		if n := strings.Count(string(out), "\n"); err != nil || n != len(probe.VTStreams) {
			return measure{}, fmt.Sprintf("the emulator alone (%s has %d of the %d VT stream benchmarks: %v)", s.label, n, len(probe.VTStreams), err)
		}
	}
	m := measure{reps: cfg.floods, sample: vtBench(cfg.vtBenchTimes)}
	for _, st := range probe.VTStreams {
		m.rows = append(m.rows, row{fmt.Sprintf("emulator alone, %s (`Benchmark%s`)", st.About, st.Bench), "ns/byte"})
	}
	return m, ""
}

// vtBench runs the side's VT stream benchmarks, times passes over each
// stream, and returns each one's CPU time a byte.
func vtBench(times int) func(s *side, _ string) ([]float64, error) {
	return func(s *side, _ string) ([]float64, error) {
		cmd := exec.Command(s.test, "-test.run", "^$", "-test.bench", probe.VTBenchPattern(), "-test.benchtime", fmt.Sprintf("%dx", times))
		cmd.Dir = s.tmp
		out, err := cmd.CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("%s: %v\n%s", s.test, err, out)
		}
		rates := probe.ParseVTBench(out)
		var v []float64
		for _, st := range probe.VTStreams {
			r := rates[st.Bench]
			if r.CPU <= 0 {
				return nil, fmt.Errorf("%s printed no cpu-MB/s for Benchmark%s:\n%s", s.test, st.Bench, out)
			}
			v = append(v, 1e3/r.CPU) // MB/s to ns a byte
		}
		return v, nil
	}
}

// underLoad runs probe.Load on the side's binary, a server of its own.
func underLoad(pings int) func(s *side, _ string) ([]float64, error) {
	return func(s *side, _ string) ([]float64, error) {
		r, err := probe.Load(s.bin, filepath.Join(s.tmp, "load"), loadSessions, loadFloods, pings)
		return []float64{r.BusyPingP99MS, r.FloodReadP99MS, r.StopAllMS}, err
	}
}

// stop stops session id.
func stop(s *side, id string) error {
	_, err := s.c.Tool("shell_stop", map[string]any{"session_id": id})
	return err
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
