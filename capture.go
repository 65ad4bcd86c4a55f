package main

// capture.go: the capture store, the output directory and the files
// screenshots and recordings write in it, as
// {dir}/{session id}/{name}{ext}. Every file is created, renamed, read and
// removed through an os.Root on the directory, so that a symlink or hard
// link planted there cannot lead a write or a read outside it.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
type captureStore struct {
	dir string // absolute
}

// maxBlobBytes bounds a capture file read whole (resources/read sends it
// base64-encoded); larger files are refused with their path.
const maxBlobBytes = 64 << 20

// errCaptureGone is returned by read for a capture whose file is no
// longer a regular file in the output directory.
var errCaptureGone = errors.New("the capture file is gone from the output directory")

// captureTooLarge is read's error for a file over maxBlobBytes.
type captureTooLarge struct {
	c    Capture
	size int64
}

func (e *captureTooLarge) Error() string {
	return fmt.Sprintf("%s is %d bytes, over the %d-byte limit for a resource: read the file at %s instead", e.c.Name, e.size, maxBlobBytes, e.c.Path)
}

// path is where a session's capture file lives: {dir}/{sessionID}/{name}{ext}.
// Both parts must have passed cleanName.
func (c *captureStore) path(sessionID, name, ext string) string {
	return filepath.Join(c.dir, sessionID, name+ext)
}

// root opens the output directory (creating it 0700) as an os.Root, with
// the session's directory made inside it.
func (c *captureStore) root(sessionID string) (*os.Root, error) {
	if err := ensureOutputDir(c.dir); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return nil, fmt.Errorf("output directory: %w", err)
	}
	if err := root.Mkdir(sessionID, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		root.Close()
		return nil, fmt.Errorf("output directory: %w", err)
	}
	return root, nil
}

// create creates (or replaces) {dir}/{sessionID}/{file} for writing.
func (c *captureStore) create(sessionID, file string) (*os.File, error) {
	root, err := c.root(sessionID)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	// A fresh file every time: truncating in place would write through a
	// hard link planted under this name to a file elsewhere.
	if err := root.Remove(sessionID + "/" + file); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("create %s: %w", c.path(sessionID, file, ""), err)
	}
	f, err := root.OpenFile(sessionID+"/"+file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", c.path(sessionID, file, ""), err)
	}
	return f, nil
}

// rename renames a file inside the session's directory.
func (c *captureStore) rename(sessionID, from, to string) error {
	root, err := c.root(sessionID)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.Rename(sessionID+"/"+from, sessionID+"/"+to); err != nil {
		return fmt.Errorf("save %s: %w", c.path(sessionID, to, ""), err)
	}
	return nil
}

// remove removes a file from the session's directory; a missing file is
// not an error.
func (c *captureStore) remove(sessionID, file string) {
	root, err := c.root(sessionID)
	if err != nil {
		return
	}
	defer root.Close()
	root.Remove(sessionID + "/" + file) // best effort: a leftover part file is harmless
}

// write writes {dir}/{sessionID}/{file} via a temporary name and a
// rename, so readers never see half a file.
func (c *captureStore) write(sessionID, file string, data []byte) error {
	f, err := c.create(sessionID, file+".part")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.remove(sessionID, file+".part")
		return fmt.Errorf("write %s: %w", c.path(sessionID, file, ""), err)
	}
	return c.rename(sessionID, file+".part", file)
}

// inRoot returns cp's file as a path relative to the output directory,
// or false when it is not inside it.
func (c *captureStore) inRoot(cp Capture) (string, bool) {
	rel, err := filepath.Rel(c.dir, cp.Path)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return rel, true
}

// onDisk returns the captures of cs whose file is still a regular file in
// the output directory, checked as read checks it: a capture whose file
// was deleted by hand is left out of every list, so that no list names a
// capture a read says is gone.
func (c *captureStore) onDisk(cs []Capture) []Capture {
	if len(cs) == 0 {
		return cs
	}
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	out := make([]Capture, 0, len(cs))
	for _, cp := range cs {
		if rel, ok := c.inRoot(cp); ok {
			if fi, err := root.Stat(rel); err == nil && fi.Mode().IsRegular() {
				out = append(out, cp)
			}
		}
	}
	return out
}

// read reads cp's file through os.Root on the output directory, so that
// neither a recorded path nor a symlink planted there can lead outside.
// Whatever keeps the file from being read in the root (gone, not a
// regular file, a symlink out of it) is errCaptureGone; a file over
// maxBlobBytes is a *captureTooLarge.
func (c *captureStore) read(cp Capture) ([]byte, error) {
	rel, ok := c.inRoot(cp)
	if !ok {
		return nil, errCaptureGone
	}
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return nil, errCaptureGone
	}
	defer root.Close()
	fi, err := root.Stat(rel)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, errCaptureGone
	}
	if fi.Size() > maxBlobBytes {
		return nil, &captureTooLarge{cp, fi.Size()}
	}
	b, err := root.ReadFile(rel)
	if err != nil {
		return nil, errCaptureGone
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

// openRoot opens the output directory for a run of claimDir calls, nil
// when it is unusable.
func (c *captureStore) openRoot() *os.Root {
	if c.dir == "" || ensureOutputDir(c.dir) != nil {
		return nil
	}
	root, _ := os.OpenRoot(c.dir)
	return root
}

// releaseDir removes the session's directory when nothing was captured in
// it, so that every session ever started does not leave an empty shell-N
// behind (they piled up by the hundred). A directory that holds a file
// stays: os.Root.Remove refuses one that is not empty.
func (c *captureStore) releaseDir(id string) {
	if c.dir == "" {
		return
	}
	if n, err := cleanName(id, ""); err != nil || n != id {
		return
	}
	root, err := os.OpenRoot(c.dir)
	if err != nil {
		return
	}
	defer root.Close()
	if fi, err := root.Lstat(id); err == nil && fi.IsDir() {
		root.Remove(id)
	}
}
