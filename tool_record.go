package main

// record.go: shell_record_start and shell_record_stop. A recording is a
// goroutine that waits for the screen to change (Session.WaitChange, not a
// blind timer), captures at most fps frames a second, holds frames back while
// the program is inside a synchronized update (mode 2026), and streams them to
// a GIF (gif.go); at the same time an output listener streams the raw output
// to an asciicast file (cast.go). Both files are written as "{name}.gif.part"
// and "{name}.cast.part" and renamed at stop, keeping what format asks for.

import (
	"cmp"
	"context"
	"fmt"
	"image"
	"image/draw"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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

// Recording caps, unless App.rec lowers them.
const (
	recMaxDuration = 10 * time.Minute
	recMaxFrames   = 20000
	recMaxGIFBytes = int64(256 << 20) // a busy fps-30 screen wrote about 0.9 GB in 10 minutes
)

// recLimits are an App's caps on each recording; a zero field means
// recMaxFrames, recMaxDuration or recMaxGIFBytes. Tests lower them.
type recLimits struct {
	frames int
	dur    time.Duration
	bytes  int64 // GIF file size
}

// recorder is one running recording of a session. Its goroutine owns the GIF
// encoder; the cast writer is shared with the session's output listener.
type recorder struct {
	app     *App
	sess    *Session
	name    string // from shell_record_start (default "recording-N")
	fps     int
	scale   int
	border  *Border
	theme   *Theme
	started time.Time

	// Frame sources: the session's, replaced in tests. snapshotLocked is
	// called with sess.mu held (the first frame, taken atomically with
	// attaching the cast listener).
	snapshot       func() *Snapshot
	snapshotLocked func() *Snapshot
	waitChange     func(ctx context.Context, since uint64) (uint64, error)

	gifFile   *os.File
	castFile  *os.File
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
	ended    string // byLimit: the limit and the saved URI (under sess.mu)
}

// recordStartArgs are shell_record_start's arguments.
type recordStartArgs struct {
	SessionID string  `json:"session_id"`
	FPS       *int    `json:"fps"`
	Border    *Border `json:"border"`
	Name      string  `json:"name"`
	Scale     *int    `json:"scale"`
}

// recordStopArgs are shell_record_stop's arguments.
type recordStopArgs struct {
	SessionID string `json:"session_id"`
	Name      string `json:"name"`
	Format    string `json:"format"`
}

// recordStartResult is shell_record_start's structured result: the
// recording's name, and the frame rate and GIF scale it captures at.
type recordStartResult struct {
	Recording string `json:"recording"`
	FPS       int    `json:"fps"`
	Scale     int    `json:"scale"`
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
}

var borderSchema = map[string]any{
	"type":        "object",
	"description": "Optional window frame drawn around every frame.",
	"properties": map[string]any{
		"style": map[string]any{"type": "string", "enum": []string{"macos", "none"}, "description": `"macos" (default when border is given): a title bar with the three window buttons; "none": no frame`},
		"title": map[string]any{"type": "string", "description": "Text in the title bar"},
	},
}

func (a *App) toolShellRecordStart() *Tool {
	return newTool(Tool{
		Name:  "shell_record_start",
		Title: "Start recording",
		Description: "Start recording a session's screen as an animated GIF (and an asciicast stream). " +
			"Frames are captured when the screen changes, at most fps per second, and play back at the " +
			"speed things happened (idle stretches shortened to 2 s). Then drive the program with " +
			"shell_send (type_delay_ms makes typing visible) and finish with shell_record_stop. " +
			"The GIF is drawn at scale 1 (8x16-pixel cells, small files) unless scale is given; border adds a window frame to every frame. " +
			"The GIF keeps the screen size it started with (shell_resize first if you need another: a later resize is cropped or padded in the GIF; the cast records it). " +
			"One recording per session at a time; at most 10 minutes or 20000 frames: capturing then stops and the recording is saved " +
			"in both formats under its name (sessions://list shows recording_ended with the limit); shell_record_stop still returns it.",
		Input: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"session_id": map[string]any{"type": "string", "description": "Session id from shell_start"},
				"fps":        map[string]any{"type": "integer", "minimum": 1, "maximum": recMaxFPS, "default": recDefaultFPS, "description": "Most frames captured per second (1-30, default 10)"},
				"border":     borderSchema,
				"name":       map[string]any{"type": "string", "description": "Recording name: letters, digits, '-', '_', '.' (default recording-N)"},
				"scale":      map[string]any{"type": "integer", "minimum": 1, "maximum": 4, "default": recDefaultGIF, "description": "Pixel scale of the GIF (1 = 8x16 pixel cells; default 1, which keeps files small)"},
			},
			"required":             []string{"session_id"},
			"additionalProperties": false,
		},
		Output: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"recording": map[string]any{"type": "string", "description": "The recording's name"},
				"fps":       map[string]any{"type": "integer"},
				"scale":     map[string]any{"type": "integer"},
			},
			"required": []string{"recording", "fps", "scale"},
		},
	}, a.recordStart)
}

func (a *App) toolShellRecordStop() *Tool {
	return newTool(Tool{
		Name:  "shell_record_stop",
		Title: "Stop recording",
		Description: "Stop the session's recording and save it under the output directory: " +
			`format "gif" (default), "cast" (asciicast v2, plays with asciinema) or "both". ` +
			"Returns the file paths, the resource uri (session://{id}/recordings/{name}; the cast of \"both\" is {name}.cast), " +
			"frame count, duration and size. shell_stop saves a running recording in both formats by itself.",
		Input: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"session_id": map[string]any{"type": "string", "description": "Session id from shell_start"},
				"name":       map[string]any{"type": "string", "description": "File name without extension (default: the name given to shell_record_start)"},
				"format":     map[string]any{"type": "string", "enum": []string{"gif", "cast", "both"}, "default": "gif", "description": "What to keep"},
			},
			"required":             []string{"session_id"},
			"additionalProperties": false,
		},
		Output: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"filename":    map[string]any{"type": "string"},
				"gif_path":    map[string]any{"type": "string"},
				"cast_path":   map[string]any{"type": "string"},
				"uri":         map[string]any{"type": "string"},
				"frame_count": map[string]any{"type": "integer"},
				"duration_ms": map[string]any{"type": "integer"},
				"bytes":       map[string]any{"type": "integer", "description": "Size of the file at uri (the GIF when format is \"both\")"},
				"cast_bytes":  map[string]any{"type": "integer", "description": "Format \"both\": size of the cast at uri + \".cast\""},
				"note":        map[string]any{"type": "string", "description": "Why capturing ended before the stop, when it did"},
			},
			"required": []string{"filename", "uri", "frame_count", "duration_ms", "bytes"},
		},
	}, a.recordStop)
}

// recordStart validates the arguments and starts a recorder.
func (a *App) recordStart(_ context.Context, _ *ToolCall, args recordStartArgs) (recordStartResult, error) {
	s, err := a.session(args.SessionID)
	if err != nil {
		return recordStartResult{}, err
	}
	fps := recDefaultFPS
	if args.FPS != nil {
		fps = *args.FPS
		if fps < 1 || fps > recMaxFPS {
			return recordStartResult{}, fmt.Errorf("fps %d is out of range: use 1 to %d (default %d)", fps, recMaxFPS, recDefaultFPS)
		}
	}
	scale := recDefaultGIF
	if args.Scale != nil {
		scale = *args.Scale
		if scale < 1 || scale > 4 {
			return recordStartResult{}, fmt.Errorf("scale %d is out of range: use 1 to 4 (default %d)", scale, recDefaultGIF)
		}
	}
	border := args.Border
	if border != nil {
		switch border.Style { // as shell_screenshot takes it
		case "", "macos":
			border = &Border{Style: "macos", Title: border.Title}
		case "none":
			border = nil
		default:
			return recordStartResult{}, fmt.Errorf("border style %q is unknown: use \"macos\", \"none\" or leave border out", border.Style)
		}
	}
	name := args.Name
	if name == "" {
		name = defaultRecordingName(s)
	}
	if name, err = cleanName(name, ".gif"); err != nil {
		return recordStartResult{}, err
	}
	theme, err := lookupTheme(s.Theme)
	if err != nil {
		theme = themeList[0]
	}
	r := &recorder{app: a, sess: s, name: name, fps: fps, scale: scale, border: border, theme: theme,
		snapshot: s.Snapshot, waitChange: s.WaitChange, ready: make(chan struct{}), maxFrames: a.rec.frames, maxDur: a.rec.dur, maxBytes: a.rec.bytes}
	r.snapshotLocked = func() *Snapshot { return s.term.Snapshot() }

	s.mu.Lock()
	busy := s.recorder
	if busy == nil {
		s.recorder = r // reserve the slot while the files are created
		s.recEnded = nil
	}
	s.mu.Unlock()
	if busy != nil {
		return recordStartResult{}, fmt.Errorf("session %s is already recording %q: call shell_record_stop first", s.ID, busy.name)
	}
	err = r.start()
	if err != nil {
		s.mu.Lock()
		s.recorder = nil
		s.mu.Unlock()
	}
	close(r.ready) // a stop that came meanwhile may go on
	if err != nil {
		return recordStartResult{}, err
	}
	a.resourceUpdated(infoURI(s.ID))
	a.resourceUpdated(sessionsListURI())
	return recordStartResult{Recording: name, FPS: fps, Scale: scale}, nil
}

// recordStop ends the session's recording and keeps the format asked for.
func (a *App) recordStop(_ context.Context, _ *ToolCall, args recordStopArgs) (*recordStopResult, error) {
	s, err := a.session(args.SessionID)
	if err != nil {
		if v := a.resSession(args.SessionID); v != nil && v.live == nil {
			return nil, fmt.Errorf("session %s was stopped, and shell_stop saved the recording that was running: "+
				"read session://%s/recordings for it (next time, call shell_record_stop before shell_stop)", v.ID, v.ID)
		}
		return nil, err
	}
	format := args.Format
	switch format {
	case "":
		format = "gif"
	case "gif", "cast", "both":
	default:
		return nil, fmt.Errorf("format %q is unknown: use \"gif\" (default), \"cast\" (asciicast v2) or \"both\"", args.Format)
	}
	name := ""
	if args.Name != "" {
		if name, err = cleanName(strings.TrimSuffix(args.Name, ".cast"), ".gif"); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	r := s.recorder
	if r == nil {
		r = s.recEnded // a limit ended it: report it, once
	}
	s.recEnded = nil
	s.mu.Unlock()
	if r == nil {
		return nil, fmt.Errorf("session %s is not recording: call shell_record_start first", s.ID)
	}
	if name == "" {
		name = r.name
	}
	res, err := r.finish(format, name)
	if err != nil {
		return nil, err
	}
	if r.byLimit {
		// Saved already, in both formats, under the name given at start
		// (maybe while this call waited: then it is reported here).
		s.mu.Lock()
		if s.recEnded == r {
			s.recEnded = nil
		}
		s.mu.Unlock()
		cp := *res
		cp.Note = strings.TrimPrefix(cp.Note+fmt.Sprintf("; it was saved then as %q, GIF and cast", r.name), "; ")
		var unused []string
		if name != r.name {
			unused = append(unused, fmt.Sprintf("name %q", name))
		}
		if args.Format != "" && format != "both" {
			unused = append(unused, fmt.Sprintf("format %q", format))
		}
		if len(unused) > 0 {
			cp.Note += " (the " + strings.Join(unused, " and ") + " given here came too late)"
		}
		res = &cp
	}
	return res, nil
}

// defaultRecordingName returns "recording-N" with the smallest N not yet
// used by one of the session's recordings.
func defaultRecordingName(s *Session) string {
	used := map[string]bool{}
	for _, c := range s.Recordings() {
		used[c.Name] = true
	}
	for n := 1; ; n++ {
		if name := fmt.Sprintf("recording-%d", n); !used[name] {
			return name
		}
	}
}

// finishRecordings finalises the session's recording, if one is running,
// keeping both the GIF and the cast under the name given at start. The
// session code calls it when a session stops and the server when it exits,
// so files are never left half written.
func (a *App) finishRecordings(s *Session) *recordStopResult {
	s.mu.Lock()
	r := s.recorder
	if r == nil {
		r = s.recEnded // saved at a limit and not reported yet
	}
	s.recEnded = nil
	s.mu.Unlock()
	if r == nil {
		return nil
	}
	res, err := r.finish("both", r.name)
	if err != nil {
		return nil // errors are in the log of the recorder's files
	}
	return res
}

// IsRecording reports whether the session has a recording running (for
// sessions://list and session://{id}/info). One that a limit ended is not.
func (s *Session) IsRecording() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.recorder != nil
}

// RecordingEnded says why the session's last recording ended by itself (a
// limit) and where it was saved, until shell_record_stop has reported it
// or another recording starts; "" otherwise (for sessions://list and
// session://{id}/info).
func (s *Session) RecordingEnded() string {
	s.mu.Lock()
	r := s.recEnded
	s.mu.Unlock()
	if r == nil {
		return ""
	}
	return r.ended
}

// open creates the files, draws the first frame and attaches the output
// listener.
func (r *recorder) open() (err error) {
	id := r.sess.ID
	if r.gifFile, err = r.app.createCapture(id, r.name+".gif.part"); err != nil {
		return err
	}
	if r.castFile, err = r.app.createCapture(id, r.name+".cast.part"); err != nil {
		r.gifFile.Close()
		r.app.removeCapture(id, r.name+".gif.part")
		return err
	}
	r.gif = newGIFEncoder(r.gifFile)

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
	r.cast = newCastWriter(r.castFile, r.started, first)
	armed = true
	r.sess.mu.Unlock()

	r.cols, r.rows, r.gen = first.Cols, first.Rows, first.Generation
	if err := checkImageSize(first.Cols, first.Rows, r.scale); err != nil {
		r.abort()
		return err
	}
	img := r.render(first)
	r.canvas = image.NewRGBA(img.Rect)
	r.cols0, r.rows0 = first.Cols, first.Rows
	r.gif.add(img, r.started)
	r.frames = 1
	if err := r.gif.Err(); err != nil {
		r.abort()
		return fmt.Errorf("writing %s: %w", r.gifFile.Name(), err)
	}
	return nil
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
				r.app.Log("error", "record", fmt.Sprintf("session %s: recording %q %s, and saving it failed: %v", r.sess.ID, r.name, r.limitNote, err))
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
	r.app.removeCapture(r.sess.ID, r.name+".gif.part")
	r.app.removeCapture(r.sess.ID, r.name+".cast.part")
}

// render draws snap at the recording's scale, border and theme, on the
// canvas size fixed by the first frame once there is one (a resized screen
// is cropped or padded with the theme background).
func (r *recorder) render(snap *Snapshot) *image.RGBA {
	if r.canvas != nil {
		snap = cropSnapshot(snap, r.cols0, r.rows0) // a grown screen must not make ever larger images
	}
	var img *image.RGBA
	switch m := RenderImage(snap, RenderOptions{Theme: r.theme, Scale: r.scale, Border: r.border}).(type) {
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
	// The final state, whatever the pacing or a synchronized update.
	now := time.Now()
	r.capture(r.snapshot(), now)
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
	s, a := r.sess, r.app
	s.mu.Lock()
	if s.recorder != r {
		s.mu.Unlock()
		return nil, fmt.Errorf("session %s is not recording: call shell_record_start first", s.ID)
	}
	s.recorder = nil
	if r.byLimit {
		s.recEnded = r // in the same step: a stop from now on finds it (and waits for save)
	}
	s.mu.Unlock()
	if r.err != nil {
		r.discard()
		return nil, fmt.Errorf("recording %q failed: %v", r.name, r.err)
	}

	res := &recordStopResult{Filename: name, URI: recordingURI(s.ID, name).String(),
		FrameCount: r.frames, DurationMS: r.duration.Milliseconds(), Note: r.limitNote}
	// Each kept file is a capture: the GIF (or the cast alone) at
	// .../recordings/{name}, the cast beside a GIF at .../recordings/{name}.cast
	// under the name {name}.cast, so that no two entries of the list share
	// a name; bytes is the size of the file at uri alone.
	keep := func(ext, mime, uri string, size *int64) (string, error) {
		if err := a.renameCapture(s.ID, r.name+ext+".part", name+ext); err != nil {
			return "", err
		}
		p := a.capturePath(s.ID, name, ext)
		if fi, err := os.Stat(p); err == nil {
			*size = fi.Size()
		}
		entry := name
		if uri != res.URI {
			entry = name + ext
		}
		s.mu.Lock() // a recording saved again under the same name replaces the old entry
		s.recordings = slices.DeleteFunc(s.recordings, func(c Capture) bool { return c.URI == uri })
		s.mu.Unlock()
		s.AddRecording(Capture{Name: entry, URI: uri, Path: p, MimeType: mime, Created: r.started,
			Bytes: *size, FrameCount: res.FrameCount, DurationMS: res.DurationMS})
		return p, nil
	}
	var err error
	switch format {
	case "gif":
		res.GIFPath, err = keep(".gif", "image/gif", res.URI, &res.Bytes)
		a.removeCapture(s.ID, r.name+".cast.part")
	case "cast":
		res.CastPath, err = keep(".cast", "application/x-asciicast", res.URI, &res.Bytes)
		a.removeCapture(s.ID, r.name+".gif.part")
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
		s.mu.Lock()
		r.ended = r.limitNote + "; saved as " + res.URI
		s.mu.Unlock()
		a.Log("notice", "record", fmt.Sprintf("session %s: recording %q %s; saved as %s", s.ID, r.name, r.limitNote, res.URI))
	}
	a.resourceListChanged()
	a.resourceUpdated(infoURI(s.ID))
	a.resourceUpdated(recordingsURI(s.ID))
	a.resourceUpdated(sessionsListURI())
	return res, nil
}

// discard removes whatever part files remain.
func (r *recorder) discard() {
	r.app.removeCapture(r.sess.ID, r.name+".gif.part")
	r.app.removeCapture(r.sess.ID, r.name+".cast.part")
}

// sleepCtx waits d or until ctx ends; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
