// Command load measures the ttywright binary under load, over stdio, as
// one MCP client sees it: with 64 sessions of which 8 flood their
// terminal with `yes`, how long a ping and a shell_read of an idle
// session take (median and 99th percentile), how long shell_start takes
// meanwhile, how fast a session's output still reaches its screen, and
// how long stopping all 64 sessions at once takes. The measurement is
// probe.Load, which bench/compare runs too.
//
// Usage, from the repository root:
//
//	go run ./bench/load [-bin path/to/ttywright] [-sessions 64] [-floods 8] [-n 500] [-json]
//
// Without -bin it builds the binary into a temporary directory first. It
// needs bash and yes; it uses only the standard library.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ttywright/ttywright/bench/internal/probe"
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
	printReport(rep)
	if p := max(rep.PingP99MS, rep.BusyPingP99MS); p > ms(targetPingP99) {
		fmt.Printf("ping p99 %.1f ms is over the %.0f ms target\n", p, ms(targetPingP99))
		os.Exit(1)
	}
}

func printReport(r probe.LoadReport) {
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

func run(bin string, sessions, floods, n int) (probe.LoadReport, error) {
	tmp, err := os.MkdirTemp("", "ttywright-load-")
	if err != nil {
		return probe.LoadReport{}, err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "ttywright")
		if err := probe.Build(".", bin); err != nil {
			return probe.LoadReport{}, err
		}
	}
	return probe.Load(bin, tmp, sessions, floods, n)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
