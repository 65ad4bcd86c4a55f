package main

// capture_dir.go: the output directory: its default, one per user, and
// the checks that refuse one another user could tamper with (SECURITY.md).

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// errOutputDirUnsafe is wrapped by checkOutputDir's refusals.
var errOutputDirUnsafe = errors.New("unsafe output directory")

// ensureOutputDir creates the output directory (mode 0700, parents too)
// when missing, and refuses one that another user could tamper with: it
// must be a directory owned by this user and not writable by everyone
// (group-writable is common with user-private groups, umask 002), and when
// it is a symlink, the link too must be this user's; its ancestors may be
// writable by everyone only when sticky (/tmp). The default lives in the
// shared $TMPDIR (defaultOutputDir), where anyone may have created its
// name first, as a file, a directory they can read and write or a
// symlink to a place of their choosing.
func ensureOutputDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("output directory %s cannot be created (%w): another user or program may hold that name; pass --output-dir (or TTYWRIGHT_OUTPUT_DIR) naming a directory of your own", dir, err)
	}
	lfi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	if lfi.Mode()&os.ModeSymlink != 0 && !ownedByMe(lfi) {
		return fmt.Errorf("output directory %s is a symlink owned by another user: %w: remove it or pass another --output-dir", dir, errOutputDirUnsafe)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	if err := checkOutputDirInfo(dir, fi); err != nil {
		return err
	}
	// Whoever can write an ancestor can rename the directory (or the
	// ancestor below it) and put another in its place after this check,
	// unless the sticky bit (as on /tmp) forbids it: every ancestor up to
	// the root is checked, not only the parent. (The store holds the
	// directory open once checked, so such a swap no longer redirects
	// captures; it still decides which directory is checked at first use.)
	for p := filepath.Dir(filepath.Clean(dir)); ; p = filepath.Dir(p) {
		if pfi, err := os.Stat(p); err == nil && othersCanReplace(pfi) {
			return fmt.Errorf("the output directory's ancestor %s is writable by other users and not sticky (mode %04o): %w: pass an --output-dir in a directory only you can write", p, pfi.Mode().Perm(), errOutputDirUnsafe)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// othersCanReplace reports whether fi, a directory, lets users other
// than its owner rename or replace what is in it: writable by others,
// and not sticky (as /tmp is, where each keeps their own).
func othersCanReplace(fi os.FileInfo) bool {
	return fi.Mode().Perm()&0o002 != 0 && fi.Mode()&os.ModeSticky == 0
}

// checkOutputDirInfo refuses fi, the output directory dir as os.Stat (or
// the store's descriptor) sees it, when it is not a directory, belongs to
// another user or is writable by everyone.
func checkOutputDirInfo(dir string, fi os.FileInfo) error {
	switch {
	case !fi.IsDir():
		return fmt.Errorf("output directory %s is not a directory: pass another --output-dir", dir)
	case !ownedByMe(fi):
		return fmt.Errorf("output directory %s belongs to another user: %w: pass another --output-dir", filepath.Clean(dir), errOutputDirUnsafe)
	case fi.Mode().Perm()&0o002 != 0 && fi.Mode()&os.ModeSticky != 0:
		// A shared directory such as /tmp itself: chmod 700 would break
		// everyone else's use of it.
		return fmt.Errorf("output directory %s is a shared directory writable by other users (mode %04o, sticky, like /tmp): %w: pass a directory of your own in it, e.g. --output-dir %s", dir, fi.Mode().Perm(), errOutputDirUnsafe, filepath.Join(dir, "ttywright"))
	case fi.Mode().Perm()&0o002 != 0:
		return fmt.Errorf("output directory %s is writable by other users (mode %04o): %w: chmod 700 it or pass another --output-dir", dir, fi.Mode().Perm(), errOutputDirUnsafe)
	}
	return nil
}

// defaultOutputDir is --output-dir's default: $TMPDIR/ttywright-UID, a
// name per user, so that one user's directory (or another program's file
// of that name) does not make every other user's captures fail. Where
// there are no numeric uids (Windows, whose temp directory is per user)
// it is $TMPDIR/ttywright.
func defaultOutputDir() string {
	if uid := os.Getuid(); uid >= 0 {
		return filepath.Join(os.TempDir(), fmt.Sprintf("ttywright-%d", uid))
	}
	return filepath.Join(os.TempDir(), "ttywright")
}
