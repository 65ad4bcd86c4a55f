//go:build !linux

package main

// hideDescriptors does nothing outside Linux: macOS has no /proc through
// which a program could open the server's descriptors.
func hideDescriptors() error { return nil }
