package main

// snap.go: PLACEHOLDER for the "ttywright snap" subcommand (SPEC §2),
// written by a later issue; main dispatches "ttywright snap ARGS" here.

import (
	"fmt"
	"os"
)

// runSnap runs the snap subcommand with the arguments after "snap" and
// returns the exit status.
func runSnap(args []string) int {
	fmt.Fprintln(os.Stderr, "ttywright snap: not yet implemented")
	return 2
}
