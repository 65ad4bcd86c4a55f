package probe

import (
	"strconv"
	"strings"
)

// VTStream is one of the generated streams of the repository's VT
// benchmarks (vt_bench_test.go): Bench names its benchmark without the
// "Benchmark" prefix, Name its file (NAME.vt under -vtstreams), About
// what it imitates.
type VTStream struct {
	Bench, Name, About string
}

// VTStreams are the streams bench/vtspeed and bench/compare feed to the
// emulators.
var VTStreams = []VTStream{
	{"VTLsColor", "ls-color", "coloured `ls -R`"},
	{"VTCursorRGB", "cursor-rgb", "cursor movement + truecolour (TUI redraw)"},
	{"VTSeq", "seq", "`seq 1 200000`"},
	{"VTPlain", "plain", "plain lines of 100 bytes"},
	{"VTLongLines", "long-lines", "plain long lines (300-1500 bytes)"},
	{"VTCJK", "cjk-emoji", "CJK and emoji"},
}

// VTBenchPattern is the -bench pattern that runs VTStreams' benchmarks.
func VTBenchPattern() string {
	names := make([]string, len(VTStreams))
	for i, s := range VTStreams {
		names[i] = s.Bench
	}
	return "^Benchmark(" + strings.Join(names, "|") + ")$"
}

// VTRate is a VT benchmark's rates in MB/s (10^6 bytes): of wall-clock
// time and of the process's CPU time (its cpu-MB/s metric).
type VTRate struct {
	Wall, CPU float64
}

// ParseVTBench reads the rates of the benchmarks in out, the output of
// `go test -bench`, by name without "Benchmark" and the -GOMAXPROCS
// suffix ("VTSeq"). A rate missing from a line is 0.
func ParseVTBench(out []byte) map[string]VTRate {
	rates := map[string]VTRate{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(f[0], "Benchmark"), "-")
		var r VTRate
		for i := 1; i+1 < len(f); i++ {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "MB/s":
				r.Wall = v
			case "cpu-MB/s":
				r.CPU = v
			}
		}
		rates[name] = r
	}
	return rates
}
