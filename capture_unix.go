//go:build unix

package main

import (
	"os"
	"syscall"
)

// ownedByMe reports whether fi (from os.Stat or os.Lstat) belongs to the
// effective user.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
