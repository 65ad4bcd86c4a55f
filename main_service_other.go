//go:build !unix

package main

// main_service_other.go: the shared service and its front end where
// there are no unix sockets with peer credentials (attach_other.go).

import (
	"fmt"
	"io"
)

// runServiceCmd says the service is unsupported here.
func runServiceCmd(_ []string, _ func(string) string, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "ttywright service: the shared service is not supported on this system (it needs unix sockets with peer credentials: Linux or macOS)\n")
	return 1
}

// runShared says --shared is unsupported here.
func runShared(_ Config, _ []string, _ func(string) string, _ io.Reader, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "ttywright: --shared is not supported on this system (it needs unix sockets with peer credentials: Linux or macOS)\n")
	return 1
}
