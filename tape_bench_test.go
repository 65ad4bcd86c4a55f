package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkTapeRun is ttywright's own time per tape: start bash, type a
// command at full speed, wait for it to end with its exit code, check the
// output and a snapshot's text, stop (ms/tape), and the same writing a GIF.
func BenchmarkTapeRun(b *testing.B) {
	if _, err := exec.LookPath("bash"); err != nil {
		b.Skip("bash is not installed")
	}
	for _, bc := range []struct{ name, output string }{{"assert", ""}, {"gif", "demo.gif"}} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			src := "Set TypingSpeed 0\nType \"echo bench\" Enter\nWait+Command exit=0\nExpect \"bench\"\nSnapshot+Style shot\n"
			if bc.output != "" {
				src = "Output \"" + filepath.Join(dir, bc.output) + "\"\n" + src
			}
			tape := filepath.Join(dir, "bench.tape")
			writeTapeB(b, tape, src)
			runTape(b.Context(), tape, tapeOptions{Update: true}) // the golden
			b.ResetTimer()
			for b.Loop() {
				if res := runTape(b.Context(), tape, tapeOptions{}); !res.Passed() {
					b.Fatalf("%v %+v", res.Err, res.Failure)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/tape")
		})
	}
}
