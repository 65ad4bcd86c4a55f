package main

// main_snapgif.go: the GIF of `ttywright snap --gif`. The program's output is
// kept with the time each read arrived, from its first byte; when the
// picture has been taken it is replayed into a fresh emulator (which is a
// pure function of the bytes) and a frame rendered at most recDefaultFPS
// times a second. Replaying afterwards lets --trim crop every frame to
// the same rows, chosen once the whole run is known, with the window
// frame drawn around the cropped screen as in the PNG.

import (
	"image"
	"image/draw"
	"os"
	"time"
)

// snapGIFMaxBytes bounds the output kept for the GIF; the animation
// ends where it was cut.
const snapGIFMaxBytes = 32 << 20

// snapChunk is one read of output and when it arrived.
type snapChunk struct {
	p  []byte
	at time.Time
}

// snapRun is the output of a snap run so far. Its fields are guarded by
// the session's mu until stop.
type snapRun struct {
	start  time.Time
	chunks []snapChunk
	bytes  int
	remove func()
}

// recordRun starts keeping s's output, including what it printed before
// the call (taken from the raw-output ring, timed at the start).
func recordRun(s *Session) *snapRun {
	r := &snapRun{start: s.Started}
	r.remove = s.AddOutputListener(func(p []byte, at time.Time) {
		if r.bytes+len(p) > snapGIFMaxBytes {
			return
		}
		r.chunks = append(r.chunks, snapChunk{p: append([]byte(nil), p...), at: at})
		r.bytes += len(p)
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if early := int(s.fed) - r.bytes; early > 0 {
		if all := s.raw.tail(int(s.fed)); len(all) == int(s.fed) {
			r.chunks = append([]snapChunk{{p: append([]byte(nil), all[:early]...), at: r.start}}, r.chunks...)
			r.bytes += early
		}
	}
	return r
}

// stop stops keeping output; more calls do nothing.
func (r *snapRun) stop() {
	if r.remove != nil {
		r.remove()
		r.remove = nil
	}
}

// replay feeds the kept output to a fresh cols x rows terminal and calls
// frame with a snapshot at the start, after each read at most fps times
// a second, and at end.
func (r *snapRun) replay(cols, rows int, end time.Time, frame func(*Snapshot, time.Time)) {
	t := NewTerminal(cols, rows, 0)
	interval := time.Second / recDefaultFPS
	last := r.start
	frame(t.Snapshot(), r.start)
	for _, c := range r.chunks {
		t.Write(c.p)
		if c.at.Sub(last) >= interval {
			frame(t.Snapshot(), c.at)
			last = c.at
		}
	}
	frame(t.Snapshot(), end)
}

// writeGIF writes the run to path, every frame cut to the rows the most
// trimmed rows of any frame need when trim is set. It returns the
// number of frames and the animation's length.
func (r *snapRun) writeGIF(path string, cols, rows int, trim bool, opts RenderOptions, end time.Time) (int, time.Duration, error) {
	keep := rows
	if trim {
		keep = 1
		r.replay(cols, rows, end, func(s *Snapshot, _ time.Time) { keep = max(keep, trimmedRows(s)) })
	}
	f := os.Stdout // the descriptor inherited, not the path reopened (isStdout)
	if !isStdout(path) {
		var err error
		if f, err = os.Create(path); err != nil {
			return 0, 0, err
		}
	}
	enc := newGIFEncoder(f)
	var buf *image.RGBA
	r.replay(cols, rows, end, func(s *Snapshot, at time.Time) {
		switch m := RenderImage(cropRows(s, keep), opts).(type) {
		case *image.Paletted:
			buf = palettedToRGBA(m, buf)
		case *image.RGBA:
			buf = m
		default:
			buf = image.NewRGBA(m.Bounds())
			draw.Draw(buf, buf.Rect, m, m.Bounds().Min, draw.Src)
		}
		enc.add(buf, at)
	})
	d, err := enc.finish(end)
	if f == os.Stdout {
		return enc.Frames(), d, err
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return 0, 0, err
	}
	return enc.Frames(), d, nil
}
