//go:build unix

package main

import (
	"os"
	"syscall"
)

// Open flags: oNoFollow makes an open fail on a symlink (a token file,
// a file a tape writes); oNonBlock keeps an open of a FIFO from waiting
// for its other end, so that what was opened can be checked and refused.
const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
)

// ownedByMe reports whether fi (from os.Stat or os.Lstat) belongs to the
// effective user.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// dirRemoved reports whether fi, a directory held open as it is now, has
// been removed: no name links to it any more (rm -rf), so nothing written
// into it could ever be found. A directory renamed away keeps its links.
func dirRemoved(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 0
}
