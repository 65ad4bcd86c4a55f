//go:build !unix

package main

import "os"

// Open flags: none here; the callers' Lstat and Stat checks refuse a
// symlink or a file that is not regular.
const (
	oNoFollow = 0
	oNonBlock = 0
)

// ownedByMe is true where file ownership is not a uid (the directory's
// ACLs decide).
func ownedByMe(fi os.FileInfo) bool { return true }

// dirRemoved is false where a directory cannot be removed while it is
// held open (Windows refuses).
func dirRemoved(fi os.FileInfo) bool { return false }
