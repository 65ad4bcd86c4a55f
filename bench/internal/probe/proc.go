package probe

// proc.go: readings of a process from Linux's /proc.

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// PeakRSS is pid's peak resident set size in bytes (VmHWM in
// /proc/PID/status).
func PeakRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("reading peak RSS (Linux only): %v", err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				break
			}
			kb, err := strconv.ParseInt(f[0], 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/PID/status")
}

// Schedstat sums the time pid's threads have spent on a CPU (run) and
// runnable, waiting in a run queue (wait), from the kernel's scheduler
// statistics (/proc/PID/task/TID/schedstat, nanoseconds). Threads that
// ended no longer count; the Go runtime seldom ends one.
func Schedstat(pid int) (run, wait time.Duration, err error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, 0, fmt.Errorf("reading the schedstat of %d (Linux only): %v", pid, err)
	}
	for _, p := range tasks {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread ended
		}
		var r, w int64
		if _, err := fmt.Sscan(string(b), &r, &w); err != nil {
			continue
		}
		run += time.Duration(r)
		wait += time.Duration(w)
	}
	return run, wait, nil
}

// LoadAverage is the machine's load averages over the last 1, 5 and 15
// minutes (/proc/loadavg, as uptime prints them), NaN where there are
// none.
func LoadAverage() (one, five, fifteen float64) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return math.NaN(), math.NaN(), math.NaN()
	}
	if _, err := fmt.Sscan(string(b), &one, &five, &fifteen); err != nil {
		return math.NaN(), math.NaN(), math.NaN()
	}
	return one, five, fifteen
}
