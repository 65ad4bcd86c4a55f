package main

// capture.go: the capture store, the output directory and the files
// screenshots and recordings write in it, as
// {dir}/{session id}/{name}{ext}.
//
// The output directory is opened once, when first used and after
// ensureOutputDir's checks, and held open as an os.Root for the store's
// life. Every file is created, renamed, read and removed relative to that
// descriptor (openat, renameat, unlinkat, which resolve a name inside the
// directory and refuse to leave it), never by the directory's path again:
// whoever renames the directory away after the check and puts a symlink
// (or another directory) in its place changes nothing, since captures
// keep going into the directory that was checked, whereas a path opened
// again would follow the symlink to wherever it points. A session's
// directory is opened the same way, relative to the held descriptor, and
// refused when it is a symlink; a symlink or hard link planted in either
// cannot lead a write or a read outside.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Capture describes one screenshot or recording of a session.
type Capture struct {
	Name       string    // validated file name stem (letters, digits, -_.)
	URI        string    // session://{id}/screenshots/{name} or .../recordings/{name}
	Path       string    // main file on disk (.png, .gif or .cast)
	MimeType   string    // image/png, image/gif, application/x-asciicast
	Created    time.Time //
	Width      int       // pixels (screenshots)
	Height     int       // pixels (screenshots)
	Bytes      int64     // size of Path
	FrameCount int       // recordings
	DurationMS int64     // recordings
}

// captureStore is the output directory. Its methods are safe for
// concurrent use; "" is a store that writes nothing (every write fails).
// The zero value with dir set is ready; it opens the directory at first
// use and holds it until close.
type captureStore struct {
	dir string // absolute

	mu     sync.Mutex
	root   *os.Root // the output directory, held open once checked; nil before first use
	closed bool     // close was called: every operation fails
}

// maxBlobBytes bounds a capture file read whole (resources/read sends it
// base64-encoded); larger files are refused with their path.
const maxBlobBytes = 64 << 20

// errCaptureGone is returned by read for a capture whose file is no
// longer a regular file in the output directory.
var errCaptureGone = errors.New("the capture file is gone from the output directory")

// errStoreClosed is what every operation of a closed store returns.
var errStoreClosed = errors.New("output directory: the capture store is closed (the server is shutting down)")

// captureTooLarge is read's error for a file over maxBlobBytes.
type captureTooLarge struct {
	c    Capture
	size int64
}

func (e *captureTooLarge) Error() string {
	return fmt.Sprintf("%s is %d bytes, over the %d-byte limit for a resource: read the file at %s instead", e.c.Name, e.size, maxBlobBytes, e.c.Path)
}

// path is where a session's capture file lives: {dir}/{sessionID}/{name}{ext}.
// Both parts must have passed cleanName. It names the file for results
// and messages only; nothing is opened by it.
func (c *captureStore) path(sessionID, name, ext string) string {
	return filepath.Join(c.dir, sessionID, name+ext)
}

// dirRoot returns the output directory held open, opening it first when
// it is not yet: ensureOutputDir checks it by path (creating it 0700 when
// create is set; when not, a missing directory is an error), then it is
// opened and its owner and mode are checked again on the descriptor
// itself, so that what is held is what was checked even if the path was
// swapped in between. A directory that fails the checks is not
// remembered: the next call checks again (the user may fix it
// meanwhile). A held directory that was removed (rm -rf; no name links
// to it) is let go and opened afresh with the same checks, as at first
// use; a renamed one is kept. Errors name the directory and the fix.
func (c *captureStore) dirRoot(create bool) (*os.Root, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, errStoreClosed
	}
	if c.root != nil {
		fi, err := c.root.Stat(".")
		if err == nil && !dirRemoved(fi) {
			return c.root, nil
		}
		c.root.Close() // operations still using it finish first (os.Root counts them)
		c.root = nil
	}
	if c.dir == "" {
		return nil, errors.New("output directory: none configured: pass --output-dir")
	}
	if !create {
		if _, err := os.Lstat(c.dir); err != nil {
			return nil, fmt.Errorf("output directory: %w", err)
		}
	}
	if err := ensureOutputDir(c.dir); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	fi, err := root.Stat(".")
	if err == nil {
		err = checkOutputDirInfo(c.dir, fi)
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	c.root = root
	return root, nil
}

// heldRoot returns the output directory if it is held open, else nil
// (nothing was written by this store yet, or it is closed).
func (c *captureStore) heldRoot() *os.Root {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.root
}

// close lets the output directory go: every later operation fails with
// errStoreClosed. Files a recording holds open stay writable until it
// closes them. Calling it again does nothing.
func (c *captureStore) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if c.root == nil {
		return nil
	}
	err := c.root.Close()
	c.root = nil
	return err
}

// openSession opens the session directory id inside root as an os.Root
// of its own, made (0700) first when create is set; the caller closes it.
// A session directory that is a symlink is refused, even one to another
// directory inside the output directory: captures would land in the
// directory it names (another session's, or one its author reads). The
// Lstat that refuses a symlink and the open are made one: the directory
// opened must be the one Lstat saw, so a link swapped in between is
// refused too.
func (c *captureStore) openSession(root *os.Root, id string, create bool) (*os.Root, error) {
	if create {
		if err := root.Mkdir(id, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("output directory: %w", err)
		}
	}
	lfi, err := root.Lstat(id)
	if err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	refused := fmt.Errorf("session directory %s is a symlink or not a directory: %w: captures go only into a directory the server made; remove it", c.path(id, "", ""), errOutputDirUnsafe)
	if !lfi.IsDir() {
		return nil, refused
	}
	sr, err := root.OpenRoot(id)
	if err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	if fi, err := sr.Stat("."); err != nil || !os.SameFile(lfi, fi) {
		sr.Close()
		return nil, refused
	}
	return sr, nil
}

// sessionDir opens the session's directory in the held output directory
// (openSession), creating both when create is set.
func (c *captureStore) sessionDir(sessionID string, create bool) (*os.Root, error) {
	root, err := c.dirRoot(create)
	if err != nil {
		return nil, err
	}
	return c.openSession(root, sessionID, create)
}

// createIn creates file in the session directory sr afresh for writing.
// A fresh file every time: truncating in place would write through a
// hard link planted under this name to a file elsewhere, and O_EXCL
// refuses a symlink put there in between.
func createIn(sr *os.Root, file string) (*os.File, error) {
	if err := sr.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return sr.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
}

// create creates (or replaces) {dir}/{sessionID}/{file} for writing.
func (c *captureStore) create(sessionID, file string) (*os.File, error) {
	sr, err := c.sessionDir(sessionID, true)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	f, err := createIn(sr, file)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", c.path(sessionID, file, ""), err)
	}
	return f, nil
}

// rename renames a file inside the session's directory and returns its
// size in bytes.
func (c *captureStore) rename(sessionID, from, to string) (int64, error) {
	sr, err := c.sessionDir(sessionID, false)
	if err != nil {
		return 0, err
	}
	defer sr.Close()
	if err := sr.Rename(from, to); err != nil {
		return 0, fmt.Errorf("save %s: %w", c.path(sessionID, to, ""), err)
	}
	var size int64
	if fi, err := sr.Lstat(to); err == nil {
		size = fi.Size()
	}
	return size, nil
}

// remove removes a file from the session's directory; a missing file is
// not an error.
func (c *captureStore) remove(sessionID, file string) {
	sr, err := c.sessionDir(sessionID, false)
	if err != nil {
		return
	}
	defer sr.Close()
	sr.Remove(file) // best effort: a leftover part file is harmless
}

// write writes {dir}/{sessionID}/{file} via a temporary name and a
// rename, so readers never see half a file.
func (c *captureStore) write(sessionID, file string, data []byte) error {
	return c.writeFiles(sessionID, []captureData{{file, data}})
}

// captureData is one file for writeFiles: its name in the session's
// directory and its contents.
type captureData struct {
	file string
	data []byte
}

// writeFiles writes each file into the session's directory, each via a
// fresh part file ({file}.part) and a rename, so readers never see half
// a file. It stops at the first error, which names the file.
func (c *captureStore) writeFiles(sessionID string, files []captureData) error {
	sr, err := c.sessionDir(sessionID, true)
	if err != nil {
		return err
	}
	defer sr.Close()
	for _, f := range files {
		part := f.file + ".part"
		w, err := createIn(sr, part)
		if err != nil {
			return fmt.Errorf("create %s: %w", c.path(sessionID, part, ""), err)
		}
		_, err = w.Write(f.data)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			sr.Remove(part)
			return fmt.Errorf("write %s: %w", c.path(sessionID, f.file, ""), err)
		}
		if err := sr.Rename(part, f.file); err != nil {
			sr.Remove(part)
			return fmt.Errorf("save %s: %w", c.path(sessionID, f.file, ""), err)
		}
	}
	return nil
}

// inSession returns cp's file as its session id and name in the output
// directory ({dir}/{id}/{file}), or false when its path is not one.
func (c *captureStore) inSession(cp Capture) (id, file string, ok bool) {
	rel, err := filepath.Rel(c.dir, cp.Path)
	if err != nil || !filepath.IsLocal(rel) {
		return "", "", false
	}
	id, file, ok = strings.Cut(filepath.ToSlash(rel), "/")
	if !ok || id == "" || file == "" || strings.Contains(file, "/") {
		return "", "", false
	}
	return id, file, true
}

// onDisk returns the captures of cs whose file is still a regular file in
// the output directory, checked as read checks it: a capture whose file
// was deleted by hand is left out of every list, so that no list names a
// capture a read says is gone.
func (c *captureStore) onDisk(cs []Capture) []Capture {
	if len(cs) == 0 {
		return cs
	}
	root, err := c.dirRoot(false)
	if err != nil {
		return nil
	}
	dirs := map[string]*os.Root{} // each session's directory, opened once
	defer func() {
		for _, sr := range dirs {
			if sr != nil {
				sr.Close()
			}
		}
	}()
	out := make([]Capture, 0, len(cs))
	for _, cp := range cs {
		id, file, ok := c.inSession(cp)
		if !ok {
			continue
		}
		sr, seen := dirs[id]
		if !seen {
			sr, _ = c.openSession(root, id, false) // nil: refused or gone
			dirs[id] = sr
		}
		if sr == nil {
			continue
		}
		if fi, err := sr.Stat(file); err == nil && fi.Mode().IsRegular() {
			out = append(out, cp)
		}
	}
	return out
}

// read reads cp's file in its session's directory, relative to the held
// output directory, so that neither a recorded path nor a symlink planted
// there can lead outside. Whatever keeps the file from being read there
// (gone, not a regular file, a symlink out of it, a session directory
// that is a symlink) is errCaptureGone; a file over maxBlobBytes is a
// *captureTooLarge.
func (c *captureStore) read(cp Capture) ([]byte, error) {
	id, file, ok := c.inSession(cp)
	if !ok {
		return nil, errCaptureGone
	}
	sr, err := c.sessionDir(id, false)
	if err != nil {
		return nil, errCaptureGone
	}
	defer sr.Close()
	fi, err := sr.Stat(file)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errCaptureGone
	}
	if fi.Size() > maxBlobBytes {
		return nil, &captureTooLarge{cp, fi.Size()}
	}
	f, err := sr.Open(file)
	if err != nil {
		return nil, errCaptureGone
	}
	defer f.Close()
	// The size again, of what was opened: the file may have grown since.
	b, err := io.ReadAll(io.LimitReader(f, maxBlobBytes+1))
	if err != nil {
		return nil, errCaptureGone
	}
	if len(b) > maxBlobBytes {
		return nil, &captureTooLarge{cp, int64(len(b))}
	}
	return b, nil
}

// claimDir creates the session directory id, so that captures of an
// earlier run, or of another server sharing the directory (two MCP
// clients, one default output directory), are never overwritten. It
// reports false when id's directory exists already (the caller picks
// another id), true when it was made or the directory cannot be used at
// all (writing a capture then reports the problem).
func (c *captureStore) claimDir(root *os.Root, id string) bool {
	if root == nil {
		return true
	}
	err := root.Mkdir(id, 0o700)
	return err == nil || !errors.Is(err, os.ErrExist)
}

// openRoot returns the output directory for a run of claimDir calls, nil
// when it is unusable. It is a descriptor of its own on the held
// directory (opened relative to it, not by path), which the caller
// closes.
func (c *captureStore) openRoot() *os.Root {
	root, err := c.dirRoot(true)
	if err != nil {
		return nil
	}
	r, err := root.OpenRoot(".")
	if err != nil {
		return nil
	}
	return r
}

// releaseDir removes the session's directory when nothing was captured in
// it, so that every session ever started does not leave an empty shell-N
// behind (they piled up by the hundred). A directory that holds a file
// stays: os.Root.Remove refuses one that is not empty.
func (c *captureStore) releaseDir(id string) {
	if n, err := cleanName(id, ""); err != nil || n != id {
		return
	}
	root := c.heldRoot()
	if root == nil {
		return // never opened: this store made no directory
	}
	if fi, err := root.Lstat(id); err == nil && fi.IsDir() {
		root.Remove(id)
	}
}
