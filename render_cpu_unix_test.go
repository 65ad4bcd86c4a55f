//go:build unix

package main

import (
	"syscall"
	"time"
)

// renderCPUTime is the process's user+system CPU time, for benchmark
// figures that mean something on a busy machine.
func renderCPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
