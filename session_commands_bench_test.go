package main

// session_commands_bench_test.go: how long shell_start takes until the program is
// ready, and the round trip of one command with wait_for_command.

import (
	"slices"
	"testing"
	"time"
)

// reportQuantiles reports the median and p95 of ds in milliseconds.
func reportQuantiles(b *testing.B, ds []time.Duration) {
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), "median-ms")
	b.ReportMetric(ms(ds[min(len(ds)*95/100, len(ds)-1)]), "p95-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkShellStartReady: shell_start until it returns (ready), then a
// stop outside the timing.
func BenchmarkShellStartReady(b *testing.B) {
	cases := []struct {
		name, command string
		args          []string
		integration   bool
	}{
		{"bash-norc", "bash", []string{"--norc"}, false},
		{"bash-norc-integrated", "bash", []string{"--norc"}, true},
		{"bash-integrated", "bash", nil, true},
		{"zsh", "zsh", nil, true},
		{"fish", "fish", nil, true},
		{"cat", "cat", nil, true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			a := newTestApp(b)
			home := b.TempDir()
			var ds []time.Duration
			for b.Loop() {
				args := c.args
				if args == nil {
					args = []string{}
				}
				t0 := time.Now()
				m := mustCall(b, a, "shell_start", map[string]any{"command": c.command, "args": args, "shell_integration": c.integration,
					"env": map[string]string{"HOME": home, "ZDOTDIR": home, "XDG_CONFIG_HOME": home}})
				ds = append(ds, time.Since(t0))
				s, _ := a.tools.session(m["shell_session_id"].(string))
				a.tools.stopSession(s, 1)
			}
			reportQuantiles(b, ds)
		})
	}
}

// BenchmarkCommandRoundTrip: shell_send {input "true\r",
// wait_for_command true} in an integrated bash and zsh.
func BenchmarkCommandRoundTrip(b *testing.B) {
	for _, sh := range []string{"bash", "zsh"} {
		b.Run(sh, func(b *testing.B) {
			a := newTestApp(b)
			home := b.TempDir()
			m := mustCall(b, a, "shell_start", map[string]any{"command": sh, "args": []string{}, "cwd": home,
				"env": map[string]string{"HOME": home, "ZDOTDIR": home}})
			id := m["shell_session_id"].(string)
			var ds []time.Duration
			for b.Loop() {
				t0 := time.Now()
				r := mustCall(b, a, "shell_send", map[string]any{"session_id": id, "input": "true\r", "wait_for_command": true})
				ds = append(ds, time.Since(t0))
				if r["command"] == nil {
					b.Fatalf("no command: %v", r)
				}
			}
			reportQuantiles(b, ds)
		})
	}
}
