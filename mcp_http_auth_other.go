//go:build !unix

package main

import "os"

// oNoFollow: no O_NOFOLLOW here; the Lstat before the open refuses a
// symlink.
const oNoFollow = 0

// ownedByRoot: no numeric owners here (ownedByMe is always true).
func ownedByRoot(fi os.FileInfo) bool { return true }
