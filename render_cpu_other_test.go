//go:build !unix

package main

import "time"

// renderCPUTime is unavailable here; benchmarks report 0 CPU time.
func renderCPUTime() time.Duration { return 0 }
