// Command vtspeed measures ttywright's emulator and @xterm/headless (the
// emulator of xterm.js, which most TypeScript terminal-testing tools
// drive) side by side, on the same byte streams, in one run, and prints
// MB/s for each and the ratio.
//
// Usage, from the repository root, once `npm ci` has run in bench/vtspeed:
//
//	go run ./bench/vtspeed [-count 3] [-runs 5] [-node node]
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
	"slices"
	"strconv"
	"strings"
)

// stream pairs a Go benchmark with the file name its stream is written
// under.
type stream struct {
	bench, name, about string
}

var streams = []stream{
	{"VTLsColor", "ls-color", "coloured `ls -R`"},
	{"VTCursorRGB", "cursor-rgb", "cursor movement + truecolour (TUI redraw)"},
	{"VTSeq", "seq", "`seq 1 200000`"},
	{"VTPlain", "plain", "plain lines of 100 bytes"},
	{"VTLongLines", "long-lines", "plain long lines (300-1500 bytes)"},
	{"VTCJK", "cjk-emoji", "CJK and emoji"},
}

func main() {
	count := flag.Int("count", 3, "runs of each Go benchmark")
	runs := flag.Int("runs", 5, "timed passes over each stream in xterm.js")
	node := flag.String("node", "node", "the node binary")
	flag.Parse()
	if err := run(*count, *runs, *node); err != nil {
		fmt.Fprintln(os.Stderr, "vtspeed:", err)
		os.Exit(1)
	}
}

// rate is one side's figures for one stream, in MB/s (10^6 bytes).
type rate struct {
	cpu, wall float64
}

func run(count, runs int, node string) error {
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

	names := make([]string, len(streams))
	for i, s := range streams {
		names[i] = s.bench
	}
	fmt.Fprintln(os.Stderr, "running the Go benchmarks ...")
	goRates, err := goBench(dir, count, "^Benchmark("+strings.Join(names, "|")+")$")
	if err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "running xterm.js ...")
	jsRates, sizes, err := nodeBench(node, script, dir, runs)
	if err != nil {
		return err
	}

	fmt.Printf("| stream | MB | ttywright MB/s (wall) | ttywright CPU-MB/s | @xterm/headless CPU-MB/s | ratio |\n")
	fmt.Printf("|---|---:|---:|---:|---:|---:|\n")
	for _, s := range streams {
		g, ok := goRates[s.bench]
		j, ok2 := jsRates[s.name]
		if !ok || !ok2 {
			return fmt.Errorf("no figures for %s", s.name)
		}
		fmt.Printf("| %s | %.1f | %.0f | %.0f | %.1f | %.1fx |\n", s.about, float64(sizes[s.name])/1e6, g.wall, g.cpu, j.cpu, g.cpu/j.cpu)
	}
	return nil
}

// goBench runs the Go benchmarks matching pattern count times, writing
// their streams to dir, and returns each benchmark's median rates.
func goBench(dir string, count int, pattern string) (map[string]rate, error) {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", pattern, "-count", strconv.Itoa(count), ".", "-args", "-vtstreams", dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go test -bench: %v\n%s", err, out)
	}
	cpu, wall := map[string][]float64{}, map[string][]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(f[0], "Benchmark"), "-")
		for i := 1; i+1 < len(f); i++ {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "MB/s":
				wall[name] = append(wall[name], v)
			case "cpu-MB/s":
				cpu[name] = append(cpu[name], v)
			}
		}
	}
	rates := map[string]rate{}
	for name, c := range cpu {
		rates[name] = rate{cpu: median(c), wall: median(wall[name])}
	}
	return rates, nil
}

// nodeBench runs xterm.mjs over the streams in dir and returns each
// stream's median rates and its size in bytes.
func nodeBench(node, script, dir string, runs int) (map[string]rate, map[string]int, error) {
	args := []string{script, dir, strconv.Itoa(runs)}
	for _, s := range streams {
		args = append(args, s.name)
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
		rates[r.Name] = rate{cpu: median(cpu), wall: median(wall)}
		sizes[r.Name] = r.Bytes
	}
	return rates, sizes, nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
