package main

// safety.go: limits and checks that keep bad input from exhausting memory
// or leading writes outside the output directory (SECURITY.md).

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp/syntax"
)

// maxImagePixels bounds one rendered image (a screenshot, a recording
// frame). A paletted image costs a byte a pixel and a truecolor one eight
// while it is drawn, so 16 Mi pixels is at most 128 MiB at once. The
// default 120x40 screen at scale 4 is 3840x2560 (9.8 Mi pixels); a
// 1000x1000-cell screen (the largest shell_resize allows) is 8000x16000
// pixels even at scale 1, which would otherwise allocate gigabytes.
const maxImagePixels = 16 << 20

// checkImageSize reports an error naming the fix when a cols x rows screen
// drawn at scale would exceed maxImagePixels. The frame of a border adds
// a few dozen pixels and is left out of the sum.
func checkImageSize(cols, rows, scale int) error {
	w, h := cols*8*scale, rows*fontHeight*scale
	if int64(w)*int64(h) <= maxImagePixels {
		return nil
	}
	if scale > 1 && int64(cols*8)*int64(rows*fontHeight) <= maxImagePixels {
		return fmt.Errorf("a %dx%d screen at scale %d is %dx%d pixels, over the limit of %d Mi pixels: use a smaller scale", cols, rows, scale, w, h, maxImagePixels>>20)
	}
	return fmt.Errorf("a %dx%d screen at scale %d is %dx%d pixels, over the limit of %d Mi pixels: make the screen smaller with shell_resize first", cols, rows, scale, w, h, maxImagePixels>>20)
}

// cropSnapshot returns s cut to at most cols x rows cells (s itself when
// it fits), so that a recording whose screen grew keeps rendering frames
// of its first size instead of ever larger images.
func cropSnapshot(s *Snapshot, cols, rows int) *Snapshot {
	if s.Cols <= cols && s.Rows <= rows {
		return s
	}
	c := *s
	c.Cols, c.Rows = min(s.Cols, cols), min(s.Rows, rows)
	c.Cells = make([]Cell, 0, c.Cols*c.Rows)
	for y := range c.Rows {
		c.Cells = append(c.Cells, s.Cells[y*s.Cols:y*s.Cols+c.Cols]...)
	}
	c.Marks = nil
	for i, m := range s.Marks {
		if y, x := i/s.Cols, i%s.Cols; y < c.Rows && x < c.Cols {
			if c.Marks == nil {
				c.Marks = map[int]string{}
			}
			c.Marks[y*c.Cols+x] = m
		}
	}
	if c.Cursor.Row >= c.Rows || c.Cursor.Col >= c.Cols {
		c.Cursor.Visible = false
		c.Cursor.Row, c.Cursor.Col = min(c.Cursor.Row, c.Rows-1), min(c.Cursor.Col, c.Cols-1)
	}
	return &c
}

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
	// Whoever can write an ancestor can rename the directory (or the
	// ancestor below it) and put another in its place after this check,
	// unless the sticky bit (as on /tmp) forbids it: every ancestor up to
	// the root is checked, not only the parent.
	for p := filepath.Dir(filepath.Clean(dir)); ; p = filepath.Dir(p) {
		if pfi, err := os.Stat(p); err == nil && pfi.Mode().Perm()&0o002 != 0 && pfi.Mode()&os.ModeSticky == 0 {
			return fmt.Errorf("the output directory's ancestor %s is writable by other users and not sticky (mode %04o): %w: pass an --output-dir in a directory only you can write", p, pfi.Mode().Perm(), errOutputDirUnsafe)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// releaseSessionDir removes the session's directory from the output
// directory when nothing was captured in it, so that every session ever
// started does not leave an empty shell-N behind (they piled up by the
// hundred in $TMPDIR/ttywright). A directory that holds a file stays:
// os.Root.Remove refuses one that is not empty.
func (a *App) releaseSessionDir(id string) {
	if a.cfg.OutputDir == "" {
		return
	}
	if n, err := cleanName(id, ""); err != nil || n != id {
		return
	}
	root, err := os.OpenRoot(a.cfg.OutputDir)
	if err != nil {
		return
	}
	defer root.Close()
	if fi, err := root.Lstat(id); err == nil && fi.IsDir() {
		root.Remove(id)
	}
}

// claimSessionID returns the next free id "shell-N" and creates its
// directory in the output directory, so that captures of an earlier run,
// or of another server sharing the directory (two MCP clients, one
// default $TMPDIR/ttywright), are never overwritten: os.Mkdir fails on a
// directory that exists, and the next N is tried. When the output
// directory cannot be used the id is taken anyway; writing a capture
// reports the problem. a.mu is held.
func (a *App) claimSessionID() string {
	var root *os.Root
	if a.cfg.OutputDir != "" && ensureOutputDir(a.cfg.OutputDir) == nil {
		root, _ = os.OpenRoot(a.cfg.OutputDir)
	}
	if root != nil {
		defer root.Close()
	}
	for tries := 0; ; tries++ {
		a.nextID++
		id := fmt.Sprintf("shell-%d", a.nextID)
		if _, live := a.sessions[id]; live {
			continue
		}
		if root == nil || tries >= 10000 {
			return id
		}
		if err := root.Mkdir(id, 0o700); err == nil || !errors.Is(err, os.ErrExist) {
			return id
		}
	}
}

// maxWaitForBytes bounds wait_for, which every output batch is matched
// against while a wait runs (a screen of 1000x500 cells holds 500,000
// characters; text to wait for is a few dozen). maxRegexInsts bounds a
// /regex/'s compiled program: Go's matcher keeps about 42 bytes an
// instruction per regexp and per match state, so 4,096 instructions cost
// at most about 170 KiB, and 1,024 waits in flight (maxInflight) 170 MiB.
// A literal character is an instruction and x{1000} is a thousand, so the
// program cap, not the length, is what bounds a short regex.
const (
	maxWaitForBytes = 16 << 10
	maxRegexInsts   = 4096
)

// checkWaitFor refuses a wait_for longer than maxWaitForBytes, naming the
// limit.
func checkWaitFor(s string) error {
	if len(s) > maxWaitForBytes {
		return fmt.Errorf("wait_for is %d bytes, over the limit of %d: wait for a shorter distinctive part of the text", len(s), maxWaitForBytes)
	}
	return nil
}

// checkRegexProgram refuses a regular expression (Go syntax, flags
// already folded in) whose compiled program has more than maxRegexInsts
// instructions, naming the limit; syntax errors are left to
// regexp.Compile.
func checkRegexProgram(expr string) error {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	if n := len(prog.Inst); n > maxRegexInsts {
		return fmt.Errorf("wait_for's regular expression compiles to %d instructions, over the limit of %d (each literal character is one, x{N} is N): use a shorter pattern or fewer repeats", n, maxRegexInsts)
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
