//go:build !unix

package main

// main_attach_other.go: ttywright attach where there is no attach
// listener (attach_other.go).

import (
	"fmt"
	"io"
	"os"
)

// runAttach says attach is unsupported here.
func runAttach(_ []string, _ func(string) string, _ *os.File, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "ttywright attach: %v\n", errAttachUnsupported)
	return 1
}
