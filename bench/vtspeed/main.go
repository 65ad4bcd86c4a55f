// Command vtspeed measures ttywright's emulator and @xterm/headless (the
// emulator of xterm.js, which most TypeScript terminal-testing tools
// drive) side by side, on the same byte streams, in one run, and prints
// MB/s for each and the ratio.
//
// Usage, from the repository root, once `npm ci` has run in bench/vtspeed:
//
//	go run ./bench/vtspeed [-count 3] [-runs 5] [-node node] [-before DIR]
//
// The streams come from the generators of the repository's VT benchmarks
// (vt_bench_test.go; deterministic, seeded): `go test -bench` runs them
// on ttywright's emulator and, with -vtstreams, writes each stream to a
// temporary directory, from which xterm.mjs feeds the identical bytes to
// xterm.js. Both sides write a whole stream at once into a warmed-up 120x40
// terminal with a 10000-line scrollback. The rates are bytes per second of
// process CPU time (user + system, so garbage collection counts), which
// other work on a busy machine disturbs less than wall-clock rates; the
// wall-clock rate of ttywright is shown too. Each figure is the median of
// -count benchmark runs (Go) or -runs passes (node).
//
// With -before DIR, the Go benchmarks of the checkout in DIR (an earlier
// version of the repository, e.g. from git worktree add or git archive)
// run too, in the same run, alternating with this checkout's, and the
// table gains its column: a before/after comparison under the same load.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/ttywright/ttywright/bench/internal/probe"
)

func main() {
	count := flag.Int("count", 3, "runs of each Go benchmark")
	runs := flag.Int("runs", 5, "timed passes over each stream in xterm.js")
	node := flag.String("node", "node", "the node binary")
	before := flag.String("before", "", "also run the Go benchmarks of the earlier checkout in `dir`")
	flag.Parse()
	if err := run(*count, *runs, *node, *before); err != nil {
		fmt.Fprintln(os.Stderr, "vtspeed:", err)
		os.Exit(1)
	}
}

// rate is one side's figures for one stream, in MB/s (10^6 bytes).
type rate struct {
	cpu, wall float64
}

func run(count, runs int, node, before string) error {
	if count < 1 || runs < 1 {
		return errors.New("-count and -runs must be at least 1")
	}
	script := filepath.Join("bench", "vtspeed", "xterm.mjs")
	if _, err := os.Stat(filepath.Join("bench", "vtspeed", "node_modules", "@xterm", "headless", "package.json")); err != nil {
		return fmt.Errorf("needs @xterm/headless: run from the repository root after `(cd bench/vtspeed && npm ci)` (%v)", err)
	}
	dir, err := os.MkdirTemp("", "ttywright-vtspeed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	pattern := probe.VTBenchPattern()
	// Each checkout's benchmarks run count times, one run of each in
	// turn, so that both see the same load.
	goRuns, beforeRuns := map[string][]rate{}, map[string][]rate{}
	for range count {
		fmt.Fprintln(os.Stderr, "running the Go benchmarks ...")
		if err := goBench(".", dir, pattern, goRuns); err != nil {
			return err
		}
		if before != "" {
			fmt.Fprintln(os.Stderr, "running the Go benchmarks of", before, "...")
			if err := goBench(before, "", pattern, beforeRuns); err != nil {
				return err
			}
		}
	}
	goRates, beforeRates := medians(goRuns), medians(beforeRuns)
	fmt.Fprintln(os.Stderr, "running xterm.js ...")
	jsRates, sizes, err := nodeBench(node, script, dir, runs)
	if err != nil {
		return err
	}

	head, rule := "| stream | MB |", "|---|---:|"
	if before != "" {
		head, rule = head+" before CPU-MB/s | before ratio |", rule+"---:|---:|"
	}
	fmt.Printf("%s ttywright MB/s (wall) | ttywright CPU-MB/s | @xterm/headless CPU-MB/s | ratio |\n", head)
	fmt.Printf("%s---:|---:|---:|---:|\n", rule)
	for _, s := range probe.VTStreams {
		g, ok := goRates[s.Bench]
		j, ok2 := jsRates[s.Name]
		if !ok || !ok2 {
			return fmt.Errorf("no figures for %s", s.Name)
		}
		fmt.Printf("| %s | %.1f |", s.About, float64(sizes[s.Name])/1e6)
		if before != "" {
			b, ok := beforeRates[s.Bench]
			if !ok {
				return fmt.Errorf("no figures for %s in %s", s.Name, before)
			}
			fmt.Printf(" %.0f | %.1fx |", b.cpu, b.cpu/j.cpu)
		}
		fmt.Printf(" %.0f | %.0f | %.1f | %.1fx |\n", g.wall, g.cpu, j.cpu, g.cpu/j.cpu)
	}
	return nil
}

// goBench runs the Go benchmarks matching pattern once in the checkout
// at pkgDir, writing their streams to streamDir unless it is "", and
// appends each benchmark's rates to runs.
func goBench(pkgDir, streamDir, pattern string, runs map[string][]rate) error {
	args := []string{"test", "-run", "^$", "-bench", pattern, "."}
	if streamDir != "" {
		args = append(args, "-args", "-vtstreams", streamDir)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = pkgDir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go test -bench in %s: %v\n%s", pkgDir, err, out)
	}
	for name, r := range probe.ParseVTBench(out) {
		runs[name] = append(runs[name], rate{cpu: r.CPU, wall: r.Wall})
	}
	return nil
}

// medians returns each benchmark's median CPU and wall-clock rates.
func medians(runs map[string][]rate) map[string]rate {
	out := map[string]rate{}
	for name, rs := range runs {
		var cpu, wall []float64
		for _, r := range rs {
			cpu, wall = append(cpu, r.cpu), append(wall, r.wall)
		}
		out[name] = rate{cpu: probe.Median(cpu), wall: probe.Median(wall)}
	}
	return out
}

// nodeBench runs xterm.mjs over the streams in dir and returns each
// stream's median rates and its size in bytes.
func nodeBench(node, script, dir string, runs int) (map[string]rate, map[string]int, error) {
	args := []string{script, dir, strconv.Itoa(runs)}
	for _, s := range probe.VTStreams {
		args = append(args, s.Name)
	}
	cmd := exec.Command(node, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %v", node, script, err)
	}
	rates, sizes := map[string]rate{}, map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r struct {
			Name  string
			Bytes int
			Runs  []struct{ Wall, CPU float64 }
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, nil, fmt.Errorf("xterm.mjs printed %q: %v", sc.Text(), err)
		}
		var cpu, wall []float64
		for _, x := range r.Runs {
			cpu = append(cpu, float64(r.Bytes)/1e6/x.CPU)
			wall = append(wall, float64(r.Bytes)/1e6/x.Wall)
		}
		rates[r.Name] = rate{cpu: probe.Median(cpu), wall: probe.Median(wall)}
		sizes[r.Name] = r.Bytes
	}
	return rates, sizes, nil
}
