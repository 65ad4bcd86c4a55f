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
//
// The store also counts the bytes of every file it writes, the part files
// of a running recording as they grow included, and refuses to write past
// a cap (captureStore.maxBytes): a loop of screenshots wrote 4.6 MB/s until
// the disk was full. What it counts is what it wrote that is still on
// disk: a file deleted by hand stops counting when the store counts the
// session directories again (recountLocked), which it does before it
// refuses anything.

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
// The zero value with dir set is ready (with the default cap); it opens
// the directory at first use and holds it until close.
type captureStore struct {
	dir string // absolute

	mu        sync.Mutex
	root      *os.Root            // the output directory, held open once checked; nil before first use
	closed    bool                // close was called: every operation fails
	maxBytes  int64               // the cap on used, in bytes; 0 (or less) = defaultMaxOutputBytes
	used      int64               // bytes counted: the sum over dirs and parts
	dirs      map[string]int64    // bytes of the finished files in each session directory written into
	parts     map[string]*counted // files being written and not yet renamed or removed, by "{id}/{file}"
	countedAt time.Time           // when the last recount ended
	countCost time.Duration       // how long it took
}

// defaultMaxOutputBytes is the cap on the captures one server writes
// when none is set (--max-output-bytes 0): 1 GiB, some 9,000 screenshots
// of a full 120x40 screen at scale 2 (110 KiB each with their .svg, .ansi
// and .txt), or the largest recording (256 MiB of GIF and 256 MiB of
// cast) twice.
const defaultMaxOutputBytes int64 = 1 << 30

// recountShare bounds the time the store spends counting files on disk:
// a recount comes at least recountShare times its own duration after the
// last one ended. A recount takes about 2 us a file (23 ms for 10,000 on
// a 2-CPU VM, so the next one may come 230 ms later); a loop of refused
// writes over a million files cannot spend its time stat-ing them.
const recountShare = 10

// diskBlock is the least space a file that is not empty takes on most
// file systems: each file counts its size rounded up to it (diskSize), so
// that a loop of small captures cannot fill the disk with blocks the cap
// never counted (a screenshot of an empty 80x24 screen is 1.8 KB in four
// files, which take 12 KiB).
const diskBlock = 4096

// diskSize is what a file of n bytes counts: n rounded up to diskBlock.
func diskSize(n int64) int64 { return (n + diskBlock - 1) / diskBlock * diskBlock }

// counted is one part file in captureStore.parts.
type counted struct {
	written  int64 // bytes counted as written (before they reach the disk)
	reserved int64 // bytes counted ahead of writing (captureFile.reserve)
}

// counts is what p counts against the cap.
func (p *counted) counts() int64 { return diskSize(p.written) + p.reserved }

// newCaptureStore returns the store of the output directory dir
// (absolute), capped at maxBytes bytes (0 or less: defaultMaxOutputBytes).
func newCaptureStore(dir string, maxBytes int64) *captureStore {
	return &captureStore{dir: dir, maxBytes: maxBytes}
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
// use; a renamed one is kept. ensureOutputDir's refusals name the
// directory and the fix; errOutputDirUnsafe is wrapped in those.
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

// regularSize is the size in bytes of file in sr, 0 when it is not a
// regular file there.
func regularSize(sr *os.Root, file string) int64 {
	if fi, err := sr.Lstat(file); err == nil && fi.Mode().IsRegular() {
		return fi.Size()
	}
	return 0
}

// create creates (or replaces) {dir}/{sessionID}/{file}, a part file, for
// writing, its bytes counted as they are written (captureFile). When the
// cap leaves not even a block it is refused with an *outputFullError.
func (c *captureStore) create(sessionID, file string) (*captureFile, error) {
	sr, err := c.sessionDir(sessionID, true)
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	rel := relPath(sessionID, file)
	c.mu.Lock()
	if err := c.fitsLocked(diskBlock); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	c.trackLocked(rel, 0)
	c.mu.Unlock()
	f, err := createIn(sr, file)
	if err != nil {
		c.untrack(rel)
		return nil, fmt.Errorf("create %s: %w", c.path(sessionID, file, ""), err)
	}
	return &captureFile{f: f, store: c, rel: rel}, nil
}

// rename renames a part file inside the session's directory to its final
// name and returns its size in bytes; it counts from then on as a
// finished file, in place of the one it replaced.
func (c *captureStore) rename(sessionID, from, to string) (int64, error) {
	sr, err := c.sessionDir(sessionID, false)
	if err != nil {
		return 0, err
	}
	defer sr.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	size, err := c.finishLocked(sr, sessionID, from, to)
	if err != nil {
		return 0, fmt.Errorf("save %s: %w", c.path(sessionID, to, ""), err)
	}
	return size, nil
}

// finishLocked renames the part file from to to in sr, the directory of
// session id, and counts it as a finished file of that directory in
// place of the file it replaced; it returns its size. It runs under c.mu,
// the rename too: a recount between the rename and the count would see
// the file already and the count would then add it again (or, for the
// replaced file, take it off twice).
func (c *captureStore) finishLocked(sr *os.Root, id, from, to string) (int64, error) {
	replaced := regularSize(sr, to)
	if err := sr.Rename(from, to); err != nil {
		return 0, err
	}
	size := regularSize(sr, to)
	c.untrackLocked(relPath(id, from))
	if c.dirs == nil {
		c.dirs = map[string]int64{}
	}
	n := max(c.dirs[id]+diskSize(size)-diskSize(replaced), 0)
	c.used += n - c.dirs[id]
	c.dirs[id] = n
	return size, nil
}

// remove removes a part file from the session's directory, which then
// stops counting; a missing file is not an error.
func (c *captureStore) remove(sessionID, file string) {
	sr, err := c.sessionDir(sessionID, false)
	if err != nil {
		return
	}
	defer sr.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	// Best effort: a leftover part file is harmless (and counts until it
	// is gone).
	if err := sr.Remove(file); err == nil || errors.Is(err, os.ErrNotExist) {
		c.untrackLocked(relPath(sessionID, file))
	}
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
// a file. All of them count against the cap at once, before anything is
// written, the files they replace included until they are replaced (both
// are on disk for a moment): past the cap nothing is written and the
// error is an *outputFullError (wrapping errOutputFull). Else it stops at
// the first error, which names the file.
func (c *captureStore) writeFiles(sessionID string, files []captureData) error {
	sr, err := c.sessionDir(sessionID, true)
	if err != nil {
		return err
	}
	defer sr.Close()
	c.mu.Lock()
	var need int64
	for _, f := range files {
		need += diskSize(int64(len(f.data)))
	}
	if err := c.fitsLocked(need); err != nil {
		c.mu.Unlock()
		return err
	}
	for _, f := range files {
		c.trackLocked(relPath(sessionID, f.file+".part"), int64(len(f.data)))
	}
	c.mu.Unlock()
	for i, f := range files {
		if err := c.writeNew(sr, sessionID, f); err != nil {
			for _, g := range files[i:] {
				c.untrack(relPath(sessionID, g.file+".part"))
			}
			return err
		}
	}
	return nil
}

// writeNew writes f as a fresh {file}.part in sr, the directory of
// session id, and renames it to file.
func (c *captureStore) writeNew(sr *os.Root, id string, f captureData) error {
	part := f.file + ".part"
	w, err := createIn(sr, part)
	if err != nil {
		return fmt.Errorf("create %s: %w", c.path(id, part, ""), err)
	}
	_, err = w.Write(f.data)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		sr.Remove(part)
		return fmt.Errorf("write %s: %w", c.path(id, f.file, ""), err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.finishLocked(sr, id, part, f.file); err != nil {
		sr.Remove(part)
		return fmt.Errorf("save %s: %w", c.path(id, f.file, ""), err)
	}
	return nil
}

// The size cap. What counts is what this store wrote that is still on
// disk, as the sum of the finished files in each session directory it
// wrote into (dirs) and of the part files being written (parts, their
// bytes counted as they are written, before they reach the disk), each
// file rounded up to a block (diskSize). Between
// recounts dirs moves with the store's own renames and removals; a file
// deleted by hand (or a whole session directory) stops counting at the
// next recount, which comes before any refusal (at most once every
// recountShare times its own duration). Memory stays one number a
// session directory, whatever the number of files.

// errOutputFull is wrapped by every refusal of the cap (*outputFullError).
var errOutputFull = errors.New("output directory full")

// outputFullError refuses a write that would pass the cap; the sizes are
// bytes: the cap, what is counted, and what the write needed.
type outputFullError struct {
	dir               string
	limit, used, need int64
}

func (e *outputFullError) Error() string {
	return fmt.Sprintf("output directory full: the captures this server wrote in %s (and the room its running recordings hold) take %s, and %s more would pass the %s cap (--max-output-bytes %d): delete captures there (files, or whole session directories) or restart the server with a larger --max-output-bytes",
		e.dir, byteSize(e.used), byteSize(e.need), byteSize(e.limit), e.limit)
}

func (e *outputFullError) Unwrap() error { return errOutputFull }

// byteSize writes n bytes for people: "512 bytes", "1.5 KiB", "1.0 GiB".
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, i := float64(n)/unit, 0
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.1f %s", v, []string{"KiB", "MiB", "GiB", "TiB"}[i])
}

// relPath is a session's file as the key of captureStore.parts.
func relPath(sessionID, file string) string { return sessionID + "/" + file }

// fitsLocked returns nil when n more bytes fit under the cap, else an
// *outputFullError. Before it refuses it counts again what is on disk
// (recountLocked, unless the last recount is too recent for its cost),
// so that captures deleted by hand make room. c.mu is held.
func (c *captureStore) fitsLocked(n int64) error {
	limit := c.maxBytes
	if limit <= 0 {
		limit = defaultMaxOutputBytes
	}
	if c.used+n <= limit {
		return nil
	}
	if time.Since(c.countedAt) >= recountShare*c.countCost {
		c.recountLocked()
	}
	if c.used+n <= limit {
		return nil
	}
	return &outputFullError{dir: c.dir, limit: limit, used: c.used, need: n}
}

// recountLocked counts again the finished files of every session
// directory the store wrote into: the regular files in it now, read
// relative to the held directory, except the part files being written
// (counted by their writers). A session directory gone is forgotten.
// c.mu is held.
func (c *captureStore) recountLocked() {
	start := time.Now()
	var used int64
	for id := range c.dirs {
		n, ok := c.countDirLocked(id)
		if !ok {
			delete(c.dirs, id)
			continue
		}
		c.dirs[id] = n
		used += n
	}
	for _, p := range c.parts {
		used += p.counts()
	}
	c.used = used
	c.countedAt = time.Now()
	c.countCost = c.countedAt.Sub(start)
}

// countDirLocked returns what the regular files in session directory id
// count (diskSize), but for the part files being written, and false when the
// directory is gone (or is a symlink now: what it names is not this
// store's). A directory it cannot read keeps its count. c.mu is held.
func (c *captureStore) countDirLocked(id string) (int64, bool) {
	if c.root == nil {
		return c.dirs[id], true
	}
	sr, err := c.openSession(c.root, id, false)
	if err != nil {
		return c.dirs[id], !errors.Is(err, os.ErrNotExist) && !errors.Is(err, errOutputDirUnsafe)
	}
	defer sr.Close()
	d, err := sr.Open(".")
	if err != nil {
		return c.dirs[id], true
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return c.dirs[id], true
	}
	var n int64
	for _, name := range names {
		if c.parts[relPath(id, name)] == nil {
			n += diskSize(regularSize(sr, name))
		}
	}
	return n, true
}

// trackLocked starts counting rel, a part file being written, at n
// bytes; one counted under that name already is replaced. c.mu is held.
func (c *captureStore) trackLocked(rel string, n int64) {
	if c.parts == nil {
		c.parts = map[string]*counted{}
	}
	c.untrackLocked(rel)
	p := &counted{written: n}
	c.parts[rel] = p
	c.used += p.counts()
}

// untrack stops counting rel, a part file removed (or never written).
func (c *captureStore) untrack(rel string) {
	c.mu.Lock()
	c.untrackLocked(rel)
	c.mu.Unlock()
}

func (c *captureStore) untrackLocked(rel string) {
	if p := c.parts[rel]; p != nil {
		c.used -= p.counts()
		delete(c.parts, rel)
	}
}

// spend counts n bytes about to be written to the part file rel: first
// out of its reservation, the rest against the cap. With strict, a write
// the cap refuses is not counted and the error is an *outputFullError;
// else it is counted even past the cap.
func (c *captureStore) spend(rel string, n int64, strict bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.parts[rel]
	if p == nil {
		c.trackLocked(rel, 0)
		p = c.parts[rel]
	}
	take := min(n, p.reserved)
	d := diskSize(p.written+n) - diskSize(p.written) - take
	if strict && d > 0 {
		if err := c.fitsLocked(d); err != nil {
			return err
		}
	}
	p.written += n
	p.reserved -= take
	c.used += d
	return nil
}

// unspend takes back n bytes counted by spend but not written (a short
// write).
func (c *captureStore) unspend(rel string, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.parts[rel]; p != nil {
		before := p.counts()
		p.written -= n
		c.used += p.counts() - before
	}
}

// reserve sets the reservation of the part file rel to n bytes, counted
// now against the cap and spent by its later writes. Growing it past the
// cap is refused (an *outputFullError, the reservation unchanged);
// shrinking it gives the bytes back.
func (c *captureStore) reserve(rel string, n int64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.parts[rel]
	if p == nil {
		c.trackLocked(rel, 0)
		p = c.parts[rel]
	}
	if d := n - p.reserved; d > 0 {
		if err := c.fitsLocked(d); err != nil {
			return err
		}
	}
	c.used += n - p.reserved
	p.reserved = n
	return nil
}

// settle gives back what is left of the reservation of the part file rel
// (its writer closed it); its written bytes count until it is renamed or
// removed.
func (c *captureStore) settle(rel string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.parts[rel]; p != nil {
		c.used -= p.reserved
		p.reserved = 0
	}
}

// captureFile is a part file the store created for writing (a
// recording's), whose bytes count against the cap as they are written:
// Write refuses, writing nothing, what would pass the cap; writeUncapped
// writes past it; reserve holds room ahead. Use it from one goroutine at
// a time.
type captureFile struct {
	f     *os.File
	store *captureStore
	rel   string // the key in store.parts
	n     int64  // bytes written
}

// Write writes p whole or not at all: past the cap it writes nothing and
// returns an *outputFullError (wrapping errOutputFull).
func (f *captureFile) Write(p []byte) (int, error) {
	if err := f.store.spend(f.rel, int64(len(p)), true); err != nil {
		return 0, err
	}
	return f.write(p)
}

// writeUncapped writes p even past the cap (out of the reservation
// first), for a format that a write cut short would break: the caller
// stops at the cap itself.
func (f *captureFile) writeUncapped(p []byte) (int, error) {
	f.store.spend(f.rel, int64(len(p)), false) // never refused
	return f.write(p)
}

func (f *captureFile) write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	f.n += int64(n)
	if n < len(p) {
		f.store.unspend(f.rel, int64(len(p)-n))
	}
	return n, err
}

// reserve holds n bytes for the file's next writes (captureStore.reserve).
func (f *captureFile) reserve(n int64) error { return f.store.reserve(f.rel, n) }

// written returns the bytes written so far.
func (f *captureFile) written() int64 { return f.n }

// Name returns the file's path, for messages.
func (f *captureFile) Name() string { return f.f.Name() }

// Close closes the file; what is left of its reservation is given back.
func (f *captureFile) Close() error {
	f.store.settle(f.rel)
	return f.f.Close()
}

// uncappedWriter writes to f with writeUncapped.
type uncappedWriter struct{ f *captureFile }

func (w uncappedWriter) Write(p []byte) (int, error) { return w.f.writeUncapped(p) }

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
