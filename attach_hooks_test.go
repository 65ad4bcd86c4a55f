package main

// attach_hooks_test.go: what the tests read of an attachServer that the
// program never does.

// Path is the socket's path.
func (as *attachServer) Path() string { return as.path }
