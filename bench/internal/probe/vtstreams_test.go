package probe

import (
	"maps"
	"regexp"
	"strings"
	"testing"
)

func TestParseVTBench(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, out string
		want      map[string]VTRate
	}{
		{"go test -bench output",
			"goos: linux\nBenchmarkVTLsColor-2     \t      10\t  60485210 ns/op\t  34.67 MB/s\t        95.55 cpu-MB/s\t       0 B/op\t       0 allocs/op\n" +
				"BenchmarkVTSeq   \t 10\t 3569 ns/op\t 41.72 MB/s\t 105.3 cpu-MB/s\nPASS\n",
			map[string]VTRate{"VTLsColor": {Wall: 34.67, CPU: 95.55}, "VTSeq": {Wall: 41.72, CPU: 105.3}}},
		{"no cpu-MB/s: CPU is 0",
			"BenchmarkVTPlain-8 10 913 ns/op 229.64 MB/s\n",
			map[string]VTRate{"VTPlain": {Wall: 229.64}}},
		{"not a benchmark line", "ok  \tgithub.com/x\t1.2s\n--- FAIL: BenchmarkVTCJK\n", map[string]VTRate{}},
		{"empty", "", map[string]VTRate{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := ParseVTBench([]byte(c.out)); !maps.Equal(got, c.want) {
				t.Errorf("ParseVTBench(%q) = %v, want %v", c.out, got, c.want)
			}
		})
	}
}

func TestVTBenchPattern(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(VTBenchPattern())
	for _, s := range VTStreams {
		if !re.MatchString("Benchmark" + s.Bench) {
			t.Errorf("%s does not match Benchmark%s", VTBenchPattern(), s.Bench)
		}
	}
	if re.MatchString("BenchmarkVTWrite") || re.MatchString("BenchmarkVTSeqX") {
		t.Errorf("%s matches a benchmark that is not a stream's", VTBenchPattern())
	}
}

func FuzzParseVTBench(f *testing.F) {
	f.Add("BenchmarkVTLsColor-2 10 604 ns/op 34.67 MB/s 95.55 cpu-MB/s\n")
	f.Add("Benchmark 1 MB/s\nBenchmark-x cpu-MB/s 2")
	f.Fuzz(func(t *testing.T, out string) {
		for name := range ParseVTBench([]byte(out)) {
			if strings.ContainsAny(name, " \t\n") {
				t.Errorf("a benchmark name with a blank: %q", name)
			}
		}
	})
}
