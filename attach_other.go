//go:build !unix

package main

// attach_other.go: systems without unix sockets and peer credentials
// (Windows): there is no attach listener, and ttywright attach says so.

import "errors"

// errAttachUnsupported is what attach says here.
var errAttachUnsupported = errors.New("attach is not supported on this system (it needs unix sockets with peer credentials: Linux or macOS)")

// attachServer is never built here.
type attachServer struct{}

// startAttach refuses: there is nowhere to listen.
func startAttach(*Sessions, *sessionViews, string, func(string, ...any)) (*attachServer, error) {
	return nil, errAttachUnsupported
}

// Close does nothing.
func (*attachServer) Close() {}

// attachDir has no meaning here.
func attachDir(func(string) string) string { return "" }
