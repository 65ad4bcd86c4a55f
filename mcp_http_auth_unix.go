//go:build unix

package main

import (
	"os"
	"syscall"
)

// ownedByRoot reports whether fi belongs to root, whose directories (/,
// /home) hold everyone's files.
func ownedByRoot(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0
}
