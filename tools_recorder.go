package main

// tools_recorder.go: a running recording. A recording is a goroutine that
// waits for the screen to change (Session.WaitChange, not a blind timer),
// captures at most fps frames a second, holds frames back while the
// program is inside a synchronized update (mode 2026), and streams them
// to a GIF (gif.go); at the same time an output listener streams the raw
// output to an asciicast file (cast.go). Both files are written as
// "{name}.gif.part" and "{name}.cast.part" and renamed at stop, keeping
// what format asks for. Both count against the output directory's size
// cap (captureStore) as they grow, and the recording stops at it like at
// its other limits.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Recording limits and defaults.
const (
	recDefaultFPS = 10
	recMaxFPS     = 30
	recDefaultGIF = 1           // GIF pixel scale: a 120x40 screen is 960x640, small files
	recSyncMax    = time.Second // a synchronized update held longer than this is captured anyway
	recExitPoll   = 250 * time.Millisecond
)

// Recording caps, unless Toolbox.rec lowers them.
const (
	recMaxDuration = 10 * time.Minute
	recMaxFrames   = 20000
	recMaxGIFBytes = int64(256 << 20) // a busy fps-30 screen wrote about 0.9 GB in 10 minutes
)

// recLimits are a Toolbox's caps on each recording; a zero field means
// recMaxFrames, recMaxDuration or recMaxGIFBytes. Tests lower them.
type recLimits struct {
	frames int
	dur    time.Duration
	bytes  int64 // GIF file size
}

// recorder is one running recording of a session. Its goroutine owns the GIF
// encoder; the cast writer is shared with the session's output listener.
type recorder struct {
	store   *captureStore
	recs    *recordings                                  // the session's slot is updated when it is saved
	logf    func(level, logger, format string, a ...any) // Toolbox.logf
	sess    *Session
	name    string // from shell_record_start (default "recording-N")
	fps     int
	scale   int
	border  *Border
	theme   *Theme
	idleCap time.Duration // a pause plays at most this long in the GIF and the cast (0: as it was)
	layout  Layout        // the frames' canvas (ToolsConfig.Layout)
	started time.Time

	// Frame sources: the session's, replaced in tests. snapshotLocked is
	// called with sess.mu held (the first frame, taken atomically with
	// attaching the cast listener).
	snapshot       func() *Snapshot
	snapshotLocked func() *Snapshot
	waitChange     func(ctx context.Context, since uint64) (uint64, error)

	gifFile   *captureFile
	castFile  *captureFile
	castOut   *castSink // the cast writer's writer, on castFile
	maxFrame  int64     // bytes a GIF frame of the canvas may take at most (gifFrameBound)
	gif       *gifEncoder
	cast      *castWriter
	unlisten  func()
	canvas    *image.RGBA // the frame size fixed at start; later sizes are cropped or padded
	frame     *image.RGBA // render's buffer, reused
	cols0     int         // screen size of the first frame: larger screens are cropped to it
	rows0     int
	cols      int // screen size last seen, for cast resize events
	rows      int
	gen       uint64        // generation of the first frame
	maxFrames int           // capture limits; 0 = recMaxFrames, recMaxDuration, recMaxGIFBytes
	maxDur    time.Duration //
	maxBytes  int64         //
	cancel    context.CancelFunc
	done      chan struct{} // closed when the goroutine has finalised both files
	ready     chan struct{} // closed when shell_record_start is done with start (it may fail)
	stopOnce  sync.Once
	duration  time.Duration // of the GIF animation
	frames    int
	limitNote string // why capturing ended early, "" if it did not
	err       error  // first error finalising the files

	// The files are saved once: by shell_record_stop (or shell_stop), or,
	// when a limit ends capturing, by the capture goroutine itself, so
	// that the recording is readable and the session stops reporting it
	// as running without waiting for a stop.
	saveOnce sync.Once
	res      *recordStopResult
	saveErr  error
	byLimit  bool   // saved by the capture goroutine at a limit
	ended    string // byLimit: the limit and the saved URI (under recordings.mu)
}

// open creates the files, draws the first frame and attaches the output
// listener.
func (r *recorder) open() (err error) {
	id := r.sess.ID
	if r.gifFile, err = r.store.create(id, r.name+".gif.part"); err != nil {
		return err
	}
	if r.castFile, err = r.store.create(id, r.name+".cast.part"); err != nil {
		r.gifFile.Close()
		r.store.remove(id, r.name+".gif.part")
		return err
	}
	// The GIF is written past the cap, since a GIF cut mid-frame does not
	// decode: reserveGIF holds its room ahead instead, and the recording
	// stops when that is refused.
	r.gif = newGIFEncoder(uncappedWriter{r.gifFile})
	r.gif.idleCap = r.idleCap
	r.castOut = &castSink{f: r.castFile}

	// Take the first snapshot and attach the cast listener atomically with
	// respect to output: the listener runs under the session lock, so output
	// consumed before the snapshot is in it and output after it is streamed.
	armed := false
	var first *Snapshot
	r.unlisten = r.sess.AddOutputListener(func(p []byte, at time.Time) {
		if armed {
			r.cast.output(p, at)
		}
	})
	r.sess.mu.Lock()
	r.started = time.Now()
	first = r.snapshotLocked()
	r.cast = newCastWriter(r.castOut, r.started, first, r.idleCap)
	armed = true
	r.sess.mu.Unlock()

	r.cols, r.rows, r.gen = first.Cols, first.Rows, first.Generation
	if err := checkImageSize(first.Cols, first.Rows, r.scale); err != nil {
		r.abort()
		return err
	}
	img := r.render(first)
	r.canvas = image.NewRGBA(img.Rect)
	r.maxFrame = gifFrameBound(img.Rect.Dx(), img.Rect.Dy())
	r.cols0, r.rows0 = first.Cols, first.Rows
	r.gif.add(img, r.started)
	r.frames = 1
	if err := r.gif.Err(); err != nil {
		r.abort()
		return fmt.Errorf("writing %s: %w", r.gifFile.Name(), err)
	}
	if err := r.reserveGIF(false); err != nil {
		r.abort()
		return err // the cap: it names the fix
	}
	return nil
}

// reserveGIF holds room under the output directory's cap for what the GIF
// still has to write: what its encoder buffers, its pending frame and the
// trailer, the rounding of the file up to a block (diskSize), and with
// next one more frame of the largest size a frame can take. Frames are
// written out of that room, so the GIF never passes the cap. The error is
// the cap's (*outputFullError); the room held then stays as it was, which
// is enough to end the file without another frame.
func (r *recorder) reserveGIF(next bool) error {
	n := r.gif.written - r.gifFile.written() + int64(len(r.gif.pending)) + 1 + diskBlock
	if next {
		n += r.maxFrame
	}
	return r.gifFile.reserve(n)
}

// gifFrameBound is the most bytes one w x h pixel GIF frame can take:
// LZW codes of at most 12 bits, one a pixel at worst, with the clear
// codes and the sub-block lengths (1.51 bytes a pixel), and 1 KiB for
// the colour table and the frame's headers. 910 KiB for a 120x40 screen
// at scale 1.
func gifFrameBound(w, h int) int64 {
	px := int64(w) * int64(h)
	return px*3/2 + px/64 + 1024
}

// outputFull returns the cap's refusal once the cast has been cut at it or
// the room for the next GIF frame is refused, else nil.
func (r *recorder) outputFull() *outputFullError {
	if full := r.castOut.full.Load(); full != nil {
		return full
	}
	if err := r.reserveGIF(true); err != nil {
		full, _ := errors.AsType[*outputFullError](err)
		return full
	}
	return nil
}

// capName names the output directory's cap, for a recording's note.
func capName(full *outputFullError) string {
	return fmt.Sprintf("the output directory's size cap of %s (--max-output-bytes %d; %s in use, %s more needed)", byteSize(full.limit), full.limit, byteSize(full.used), byteSize(full.need))
}

// castSink is the cast writer's writer: it counts the cast's bytes
// against the output directory's cap, and from the first write the cap
// refuses it drops that write and every later one, whole. The cast writer
// writes whole event lines, so the file stays a valid asciicast that ends
// early; full (the refusal) tells the capture goroutine to stop.
type castSink struct {
	f    *captureFile
	full atomic.Pointer[outputFullError]
}

func (w *castSink) Write(p []byte) (int, error) {
	if w.full.Load() != nil {
		return len(p), nil
	}
	n, err := w.f.Write(p)
	if full, ok := errors.AsType[*outputFullError](err); ok {
		w.full.Store(full)
		return len(p), nil
	}
	return n, err
}

// start opens the recording and starts its capture goroutine.
func (r *recorder) start() error {
	if err := r.open(); err != nil {
		return err
	}
	gen := r.gen
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.done = make(chan struct{})
	go func() {
		r.run(ctx, gen)
		close(r.done)
		if r.limitNote != "" && ctx.Err() == nil { // a stop that came meanwhile saves instead
			if _, err := r.save("both", r.name, true); err != nil {
				r.logf("error", "record", "session %s: recording %q %s, and saving it failed: %v", r.sess.ID, r.name, r.limitNote, err)
			}
		}
	}()
	return nil
}

// abort closes and removes both files of a recording that failed to start.
func (r *recorder) abort() {
	if r.unlisten != nil {
		r.unlisten()
	}
	r.gifFile.Close()
	r.castFile.Close()
	r.store.remove(r.sess.ID, r.name+".gif.part")
	r.store.remove(r.sess.ID, r.name+".cast.part")
}

// render draws snap at the recording's scale, border and theme, on the
// canvas size fixed by the first frame once there is one (a resized screen
// is cropped or padded with the theme background).
func (r *recorder) render(snap *Snapshot) *image.RGBA {
	if r.canvas != nil {
		snap = cropSnapshot(snap, r.cols0, r.rows0) // a grown screen must not make ever larger images
	}
	var img *image.RGBA
	switch m := RenderImage(snap, RenderOptions{Theme: r.theme, Scale: r.scale, Border: r.border, Layout: r.layout}).(type) {
	case *image.RGBA:
		img = m
	case *image.Paletted:
		// Expand into a buffer kept between frames: no 2.4 MB garbage per frame.
		r.frame = palettedToRGBA(m, r.frame)
		img = r.frame
	default:
		img = image.NewRGBA(m.Bounds())
		draw.Draw(img, img.Rect, m, m.Bounds().Min, draw.Src)
	}
	if r.canvas == nil || img.Rect == r.canvas.Rect {
		return img
	}
	draw.Draw(r.canvas, r.canvas.Rect, image.NewUniform(r.theme.Background), image.Point{}, draw.Src)
	draw.Draw(r.canvas, r.canvas.Rect, img, image.Point{}, draw.Src)
	return r.canvas
}

// run captures frames until ctx ends or a limit is reached, then finalises
// both files (the final screen is always captured).
func (r *recorder) run(ctx context.Context, gen uint64) {
	interval := time.Second / time.Duration(r.fps)
	maxFrames, maxDur, maxBytes := cmp.Or(r.maxFrames, recMaxFrames), cmp.Or(r.maxDur, recMaxDuration), cmp.Or(r.maxBytes, recMaxGIFBytes)
	last := r.started
	var syncSince time.Time // when a held-back synchronized update began
	for ctx.Err() == nil {
		if r.frames >= maxFrames {
			r.limitNote = fmt.Sprintf("capturing stopped at the %d-frame limit, %v in; the file ends there", maxFrames, time.Since(r.started).Round(time.Second))
			r.close(time.Now()) // no final frame: that would pass the limit
			return
		}
		if time.Since(r.started) >= maxDur {
			r.limitNote = fmt.Sprintf("capturing stopped at the %v limit; the file ends there", maxDur)
			break
		}
		if r.gif != nil && r.gif.written >= maxBytes {
			r.limitNote = fmt.Sprintf("capturing stopped at the GIF size limit of %d bytes, %v in; the file ends there", maxBytes, time.Since(r.started).Round(time.Second))
			r.close(time.Now()) // no final frame: that would pass the limit
			return
		}
		if full := r.outputFull(); full != nil {
			r.limitNote = fmt.Sprintf("capturing stopped at %s, %v in; the files end there: delete captures or raise --max-output-bytes", capName(full), time.Since(r.started).Round(time.Second))
			r.close(time.Now()) // no final frame: the room held is for what the encoder holds
			return
		}
		// Wake at the time limit; and while a synchronized update is held
		// back, soon, because its end may change nothing visible.
		deadline := r.started.Add(maxDur)
		if !syncSince.IsZero() {
			deadline = time.Now().Add(interval)
		}
		wctx, wcancel := context.WithDeadline(ctx, deadline)
		g, _ := r.waitChange(wctx, gen) // an error just means no change
		wcancel()
		if ctx.Err() != nil {
			break
		}
		if g <= gen && syncSince.IsZero() {
			if time.Since(r.started) >= maxDur {
				continue // the limit: end at once, above
			}
			// No change: the program has exited. Look again now and then
			// rather than spin.
			if !sleepCtx(ctx, recExitPoll) {
				break
			}
			continue
		}
		// At most fps frames a second; what happens meanwhile is caught by
		// the snapshot taken after the pause.
		if wait := time.Until(last.Add(interval)); wait > 0 && !sleepCtx(ctx, wait) {
			break
		}
		now := time.Now()
		snap := r.snapshot()
		gen = snap.Generation
		if snap.Modes.SyncOutput {
			if syncSince.IsZero() {
				syncSince = now
			}
			if now.Sub(syncSince) < recSyncMax {
				continue
			}
		}
		syncSince = time.Time{}
		r.capture(snap, now)
		last = now
	}
	// The final state, whatever the pacing or a synchronized update, if
	// the output directory's cap leaves room for it.
	now := time.Now()
	if full := r.outputFull(); full == nil {
		r.capture(r.snapshot(), now)
	} else if r.limitNote == "" {
		r.limitNote = fmt.Sprintf("the last screen was left out at %s: delete captures or raise --max-output-bytes", capName(full))
	}
	r.close(now)
}

// capture adds snap as a frame shown from time at.
func (r *recorder) capture(snap *Snapshot, at time.Time) {
	if snap.Cols != r.cols || snap.Rows != r.rows {
		r.cols, r.rows = snap.Cols, snap.Rows
		r.cast.resize(snap.Cols, snap.Rows, at)
	}
	r.gif.add(r.render(snap), at)
	r.frames = r.gif.Frames()
}

// close finalises both streams (called once, by run).
func (r *recorder) close(at time.Time) {
	r.unlisten()
	d, err := r.gif.finish(at)
	r.duration = d
	if cerr := r.gifFile.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if _, cerr := r.cast.close(); err == nil && cerr != nil {
		err = cerr
	}
	if cerr := r.castFile.Close(); err == nil && cerr != nil {
		err = cerr
	}
	r.err = err
}

// finish stops capturing (if a limit has not already), waits for the files
// to be finalised, keeps format ("gif", "cast" or "both") under name and
// registers the recording with the session.
func (r *recorder) finish(format, name string) (*recordStopResult, error) {
	s := r.sess
	<-r.ready
	if r.cancel == nil { // start failed
		return nil, fmt.Errorf("session %s is not recording: call shell_record_start first", s.ID)
	}
	r.stopOnce.Do(r.cancel)
	<-r.done
	return r.save(format, name, false)
}

// save runs saveFiles once; later calls (a stop after the limit saved it,
// or two stops racing) return the same result.
func (r *recorder) save(format, name string, byLimit bool) (*recordStopResult, error) {
	r.saveOnce.Do(func() {
		r.byLimit = byLimit
		r.res, r.saveErr = r.saveFiles(format, name)
	})
	return r.res, r.saveErr
}

// saveFiles keeps format under name once the capture goroutine is done,
// registers the recording and tells subscribers.
func (r *recorder) saveFiles(format, name string) (*recordStopResult, error) {
	s := r.sess
	if !r.recs.saving(s, r) {
		return nil, fmt.Errorf("session %s is not recording: call shell_record_start first", s.ID)
	}
	if r.err != nil {
		r.discard()
		return nil, fmt.Errorf("recording %q failed: %v", r.name, r.err)
	}

	res := &recordStopResult{Filename: name, URI: recordingURI(s.ID, name).String(),
		FrameCount: r.frames, DurationMS: r.duration.Milliseconds(), Note: r.limitNote}
	// Each kept file is a capture, the same whichever formats are kept:
	// the GIF at .../recordings/{name}, the cast at .../recordings/{name}.cast
	// under the name {name}.cast, so that no two entries of the list share
	// a name; uri is the GIF's when there is one, and bytes the size of
	// the file at uri alone.
	keep := func(ext, mime, uri string, size *int64) (string, error) {
		n, err := r.store.rename(s.ID, r.name+ext+".part", name+ext)
		if err != nil {
			return "", err
		}
		p := r.store.path(s.ID, name, ext)
		*size = n
		entry := name
		if ext == ".cast" {
			entry = name + ext
		}
		s.AddRecording(Capture{Name: entry, URI: uri, Path: p, MimeType: mime, Created: r.started,
			Bytes: *size, FrameCount: res.FrameCount, DurationMS: res.DurationMS})
		return p, nil
	}
	res.Replaced = slices.ContainsFunc(s.Recordings(), func(c Capture) bool { return c.Name == name || c.Name == name+".cast" })
	var err error
	switch format {
	case "gif":
		res.GIFPath, err = keep(".gif", "image/gif", res.URI, &res.Bytes)
		r.store.remove(s.ID, r.name+".cast.part")
	case "cast":
		res.URI += ".cast"
		res.CastPath, err = keep(".cast", "application/x-asciicast", res.URI, &res.Bytes)
		r.store.remove(s.ID, r.name+".gif.part")
	default:
		if res.GIFPath, err = keep(".gif", "image/gif", res.URI, &res.Bytes); err == nil {
			res.CastPath, err = keep(".cast", "application/x-asciicast", res.URI+".cast", &res.CastBytes)
		}
	}
	if res.CastPath != "" && r.cast.truncated() {
		res.Note = strings.TrimPrefix(res.Note+fmt.Sprintf("; the cast stopped at %d MiB of output", r.cast.limit>>20), "; ")
	}
	if err != nil {
		r.discard()
		return nil, err
	}
	res.Filename = filepath.Base(res.CastPath)
	if res.GIFPath != "" {
		res.Filename = filepath.Base(res.GIFPath)
	}
	if r.byLimit {
		r.recs.setEnded(r, r.limitNote+"; saved as "+res.URI)
		r.logf("notice", "record", "session %s: recording %q %s; saved as %s", s.ID, r.name, r.limitNote, res.URI)
	}
	s.Emit(Event{Kind: EventRecorded, Name: name})
	return res, nil
}

// discard removes whatever part files remain.
func (r *recorder) discard() {
	r.store.remove(r.sess.ID, r.name+".gif.part")
	r.store.remove(r.sess.ID, r.name+".cast.part")
}

// recordStopResult is shell_record_stop's structured result.
type recordStopResult struct {
	Filename   string `json:"filename"`
	GIFPath    string `json:"gif_path,omitempty"`
	CastPath   string `json:"cast_path,omitempty"`
	URI        string `json:"uri"`
	FrameCount int    `json:"frame_count"`
	DurationMS int64  `json:"duration_ms"`
	Bytes      int64  `json:"bytes"`                // size of the file at uri (the GIF of "both")
	CastBytes  int64  `json:"cast_bytes,omitempty"` // "both": size of the cast at uri + ".cast"
	Note       string `json:"note,omitempty"`
	Replaced   bool   `json:"replaced,omitempty"` // the session had a recording of this name: its files were overwritten
}

// recordings are the recordings of every session: the one running, and
// the last one a limit ended and saved that no stop has reported yet.
// Its methods are safe for concurrent use; the zero value is ready.
type recordings struct {
	mu    sync.Mutex
	slots map[*Session]*recSlot
}

// recSlot is one session's entry in recordings.
type recSlot struct {
	running *recorder
	ended   *recorder
}

// slotLocked returns s's slot, made on first use. rs.mu is held.
func (rs *recordings) slotLocked(s *Session) *recSlot {
	sl := rs.slots[s]
	if sl == nil {
		if rs.slots == nil {
			rs.slots = map[*Session]*recSlot{}
		}
		sl = &recSlot{}
		rs.slots[s] = sl
	}
	return sl
}

// reserve makes r s's running recording and returns nil, or returns the
// recording already running.
func (rs *recordings) reserve(s *Session, r *recorder) (busy *recorder) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	sl := rs.slotLocked(s)
	if sl.running != nil {
		return sl.running
	}
	sl.running, sl.ended = r, nil
	return nil
}

// release gives up r's reservation (its start failed).
func (rs *recordings) release(s *Session, r *recorder) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if sl := rs.slots[s]; sl != nil && sl.running == r {
		sl.running = nil
	}
}

// take returns s's running recording, else the one a limit ended (which
// it forgets, so that it is reported once), else nil.
func (rs *recordings) take(s *Session) *recorder {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	sl := rs.slots[s]
	if sl == nil {
		return nil
	}
	r := sl.running
	if r == nil {
		r = sl.ended
	}
	sl.ended = nil
	return r
}

// saving marks r, being saved, as no longer running (and, saved at a
// limit, as the one to report), in one step, so that a stop from now on
// finds it and waits for the save; false when r is not s's running one.
func (rs *recordings) saving(s *Session, r *recorder) bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	sl := rs.slots[s]
	if sl == nil || sl.running != r {
		return false
	}
	sl.running = nil
	if r.byLimit {
		sl.ended = r
	}
	return true
}

// setEnded records why r ended by itself and where it was saved.
func (rs *recordings) setEnded(r *recorder, why string) {
	rs.mu.Lock()
	r.ended = why
	rs.mu.Unlock()
}

// reported forgets r as the recording a limit ended, once a stop has
// reported it.
func (rs *recordings) reported(s *Session, r *recorder) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if sl := rs.slots[s]; sl != nil && sl.ended == r {
		sl.ended = nil
	}
}

// forget drops s's entry (the session stopped).
func (rs *recordings) forget(s *Session) {
	rs.mu.Lock()
	delete(rs.slots, s)
	rs.mu.Unlock()
}

// state reports whether s has a recording running, and why its last
// recording ended by itself (a limit) and where it was saved, until
// shell_record_stop has reported it or another recording starts (for
// sessions://list and session://{id}/info).
func (rs *recordings) state(s *Session) (running bool, ended string) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	sl := rs.slots[s]
	if sl == nil {
		return false, ""
	}
	if sl.ended != nil {
		ended = sl.ended.ended
	}
	return sl.running != nil, ended
}
