package main

// gif.go: a streaming animated-GIF encoder for recordings. Frames arrive as
// RGBA images with the time they appeared; each is written as the rectangle
// that changed since the previous frame (disposal "do not dispose", unchanged
// pixels inside the rectangle transparent) with a local colour table holding
// exactly the colours present, or a popularity palette when there are more
// than 255. Only the previous frame and the one encoded frame whose delay is
// not yet known are held, so memory does not grow with the recording's
// length. Format: GIF89a (https://www.w3.org/Graphics/GIF/spec-gif89a.txt).

import (
	"bufio"
	"bytes"
	"compress/lzw"
	"encoding/binary"
	"errors"
	"image"
	"io"
	"slices"
	"time"
)

// GIF timing: a GIF delay is in 1/100 s; idle stretches are shortened and
// the last frame held, so a replay neither drags nor flickers.
const (
	gifMinDelay  = 2               // centiseconds; browsers slow down anything shorter
	gifIdleCap   = 2 * time.Second // an agent's recording: a frame stays at most this long, however idle the screen was
	gifFinalHold = time.Second     // the last frame stays at least this long before the loop restarts
)

// gifEncoder writes an animated GIF frame by frame to w. The zero value is
// not usable; see newGIFEncoder. Errors are sticky: the first write error is
// kept and later calls do nothing (Err and finish report it).
type gifEncoder struct {
	w             *bufio.Writer
	err           error
	width, height int // logical screen in pixels, from the first frame

	prev    *image.RGBA   // the last frame added, as shown (owned by the encoder)
	pending []byte        // the encoded frame whose delay is not yet known
	started time.Time     // real time of the first frame
	pendAt  time.Time     // real time the pending frame appeared
	pendCS  int64         // GIF time (centiseconds) at which the pending frame starts
	idle    time.Duration // real time cut from idle stretches so far
	idleCap time.Duration // a frame stays at most this long (0: as long as it was shown)

	frames  int   // frames written or pending
	written int64 // bytes passed to w
	totalCS int64 // sum of the delays written

	// Scratch space reused from frame to frame.
	idx      []uint8      // palette indices of the changed rectangle
	lzwBuf   bytes.Buffer // its LZW data in sub-blocks
	lz       lzw.Writer
	colorTab colorTable
}

// newGIFEncoder returns an encoder writing to w; the header goes out with the
// first frame, whose size fixes the logical screen. A frame is shown at
// most gifIdleCap (an agent's pauses between calls are dead time); set
// idleCap to 0 to keep every pause as it was (a tape's Sleep).
func newGIFEncoder(w io.Writer) *gifEncoder {
	return &gifEncoder{w: bufio.NewWriterSize(w, 64<<10), idleCap: gifIdleCap}
}

// Frames returns the number of distinct frames added so far.
func (e *gifEncoder) Frames() int { return e.frames }

// Err returns the first write error, if any.
func (e *gifEncoder) Err() error { return e.err }

func (e *gifEncoder) write(p []byte) {
	if e.err != nil {
		return
	}
	n, err := e.w.Write(p)
	e.written += int64(n)
	e.err = err
}

// add appends img, which appeared on screen at time at, to the animation.
// A frame identical to the previous one only extends the previous one's
// delay. img must keep the size of the first frame; the encoder copies what
// it needs, so the caller may reuse img.
func (e *gifEncoder) add(img *image.RGBA, at time.Time) {
	if e.err != nil {
		return
	}
	if e.prev == nil {
		e.width, e.height = img.Rect.Dx(), img.Rect.Dy()
		if e.width <= 0 || e.height <= 0 || e.width > 0xffff || e.height > 0xffff {
			e.err = errors.New("gif: frame size out of range")
			return
		}
		e.writeHeader()
		e.prev = image.NewRGBA(image.Rect(0, 0, e.width, e.height))
		e.started, e.pendAt = at, at
		e.encodeFrame(img, image.Rect(0, 0, e.width, e.height), false)
		e.frames = 1
		return
	}
	if img.Rect.Dx() != e.width || img.Rect.Dy() != e.height {
		e.err = errors.New("gif: frame size changed")
		return
	}
	r := diffRect(e.prev, img)
	if r.Empty() {
		return // identical: the pending frame simply stays longer
	}
	e.flushPending(at, 0)
	e.encodeFrame(img, r, true)
	e.frames++
}

// flushPending gives the pending frame its delay, ending at real time end (at
// least hold long), and writes it out.
func (e *gifEncoder) flushPending(end time.Time, hold time.Duration) {
	d := end.Sub(e.pendAt)
	if e.idleCap > 0 && d > e.idleCap {
		e.idle += d - e.idleCap
		d = e.idleCap
	}
	d = max(d, hold)
	// The delay is the difference of rounded GIF clock readings, so rounding
	// errors do not accumulate over thousands of frames.
	endCS := max((end.Sub(e.started)-e.idle+5*time.Millisecond)/(10*time.Millisecond), 0)
	delay := int64(endCS) - e.pendCS
	if minCS := int64((d + 5*time.Millisecond) / (10 * time.Millisecond)); hold > 0 && delay < minCS {
		delay = minCS
	}
	if delay < gifMinDelay {
		delay = gifMinDelay // borrowed from the next frame: the clock runs ahead
	}
	if delay > 0xffff {
		delay = 0xffff
	}
	binary.LittleEndian.PutUint16(e.pending[4:6], uint16(delay))
	e.write(e.pending)
	e.totalCS += delay
	e.pendCS += delay
	e.pendAt = end
}

// finish gives the last frame its delay (held at least gifFinalHold, the
// time it really stayed otherwise), writes the trailer and flushes. It
// returns the total duration of the animation.
func (e *gifEncoder) finish(at time.Time) (time.Duration, error) {
	if e.err == nil && e.prev == nil {
		e.err = errors.New("gif: no frames")
	}
	if e.err != nil {
		return 0, e.err
	}
	e.flushPending(at, gifFinalHold)
	e.write([]byte{0x3b})
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return time.Duration(e.totalCS) * 10 * time.Millisecond, e.err
}

func (e *gifEncoder) writeHeader() {
	var b []byte
	b = append(b, "GIF89a"...)
	b = binary.LittleEndian.AppendUint16(b, uint16(e.width))
	b = binary.LittleEndian.AppendUint16(b, uint16(e.height))
	b = append(b, 0, 0, 0) // no global colour table: every frame has its own
	// NETSCAPE2.0 application extension: loop forever.
	b = append(b, 0x21, 0xff, 11)
	b = append(b, "NETSCAPE2.0"...)
	b = append(b, 3, 1, 0, 0, 0)
	e.write(b)
}

// diffRect returns the smallest rectangle outside which a and b (same
// bounds, origin 0,0) are equal; empty when they are identical.
func diffRect(a, b *image.RGBA) image.Rectangle {
	w, h := a.Rect.Dx(), a.Rect.Dy()
	row := func(y int) ([]byte, []byte) {
		return a.Pix[y*a.Stride : y*a.Stride+4*w], b.Pix[y*b.Stride : y*b.Stride+4*w]
	}
	y0 := 0
	for ; y0 < h; y0++ {
		if ra, rb := row(y0); !bytes.Equal(ra, rb) {
			break
		}
	}
	if y0 == h {
		return image.Rectangle{}
	}
	y1 := h
	for ; y1 > y0; y1-- {
		if ra, rb := row(y1 - 1); !bytes.Equal(ra, rb) {
			break
		}
	}
	x0, x1 := w, 0
	for y := y0; y < y1; y++ {
		ra, rb := row(y)
		for x := 0; x < x0; x++ {
			if !bytes.Equal(ra[4*x:4*x+4], rb[4*x:4*x+4]) {
				x0 = x
				break
			}
		}
		for x := w - 1; x >= x1; x-- {
			if !bytes.Equal(ra[4*x:4*x+4], rb[4*x:4*x+4]) {
				x1 = x + 1
				break
			}
		}
	}
	return image.Rect(x0, y0, x1, y1)
}

// encodeFrame encodes the part r of img as the pending frame and copies it
// into e.prev. With transparent set, pixels equal to e.prev are written as
// the transparent index so that runs compress well.
func (e *gifEncoder) encodeFrame(img *image.RGBA, r image.Rectangle, transparent bool) {
	w, h := r.Dx(), r.Dy()
	e.idx = slices.Grow(e.idx[:0], w*h)[:w*h]
	exact := e.collectColors(img, r, transparent)
	trans := -1
	if transparent {
		trans = len(e.colorTab.colors)
	}
	e.indexPixels(img, r, trans, exact)
	e.writeImage(r, trans)
}

// collectColors fills e.colorTab with the colours of img's rectangle r
// that differ from the previous frame (pass 1). It reports whether they
// all fit; when not, the table holds the most popular ones instead.
func (e *gifEncoder) collectColors(img *image.RGBA, r image.Rectangle, transparent bool) (exact bool) {
	ct := &e.colorTab
	ct.reset()
	// Pass 1: collect colours. Transparency needs a spare index.
	limit := 256
	if transparent {
		limit = 255
	}
	exact = true
	for y := r.Min.Y; y < r.Max.Y && exact; y++ {
		p := img.Pix[y*img.Stride+4*r.Min.X : y*img.Stride+4*r.Max.X]
		q := e.prev.Pix[y*e.prev.Stride+4*r.Min.X : y*e.prev.Stride+4*r.Max.X]
		last := noColor
		for i := 0; i < len(p); i += 4 {
			c := rgbKey(p[i:])
			if c == last || transparent && c == rgbKey(q[i:]) {
				continue
			}
			last = c
			if _, ok := ct.index(c); !ok && !ct.insert(c, limit) {
				exact = false
				break
			}
		}
	}
	if !exact {
		ct.popularity(img, r, limit)
	}
	return exact
}

// indexPixels turns r's pixels into palette indices in e.idx, trans (or
// -1) where a pixel equals the previous frame's, and updates e.prev to
// what a viewer now shows (pass 2).
func (e *gifEncoder) indexPixels(img *image.RGBA, r image.Rectangle, trans int, exact bool) {
	w := r.Dx()
	ct := &e.colorTab
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		p := img.Pix[y*img.Stride+4*r.Min.X : y*img.Stride+4*r.Max.X]
		q := e.prev.Pix[y*e.prev.Stride+4*r.Min.X : y*e.prev.Stride+4*r.Max.X]
		lastC, lastI := noColor, uint8(0)
		for i := 0; i < len(p); i += 4 {
			c := rgbKey(p[i:])
			switch {
			case trans >= 0 && c == rgbKey(q[i:]):
				e.idx[n] = uint8(trans)
			case c == lastC:
				e.idx[n] = lastI
			default:
				ix, ok := ct.index(c)
				if !ok {
					ix = ct.nearest(c)
				}
				lastC, lastI = c, ix
				e.idx[n] = ix
			}
			n++
		}
		// Keep what the viewer now shows (the palette colour when quantised).
		if exact {
			copy(q, p)
		} else {
			for i := 0; i < len(q); i += 4 {
				if ix := e.idx[n-w+i/4]; int(ix) != trans {
					c := ct.colors[ix]
					q[i], q[i+1], q[i+2], q[i+3] = uint8(c>>16), uint8(c>>8), uint8(c), 0xff
				}
			}
		}
	}

}

// writeImage appends the frame's graphic control extension, image
// descriptor, local colour table and LZW data to e.pending.
func (e *gifEncoder) writeImage(r image.Rectangle, trans int) {
	ct := &e.colorTab
	w, h := r.Dx(), r.Dy()
	// Table size: a power of two, at least 2 entries.
	ncol := len(ct.colors)
	if trans >= 0 {
		ncol++
	}
	bits := 1
	for 1<<bits < ncol {
		bits++
	}
	b := e.pending[:0]
	flags := byte(1 << 2) // disposal 1: leave the frame in place
	tIdx := byte(0)
	if trans >= 0 {
		flags |= 1
		tIdx = byte(trans)
	}
	b = append(b, 0x21, 0xf9, 4, flags, 0, 0, tIdx, 0) // graphic control; delay at [4:6]
	b = append(b, 0x2c)
	b = binary.LittleEndian.AppendUint16(b, uint16(r.Min.X))
	b = binary.LittleEndian.AppendUint16(b, uint16(r.Min.Y))
	b = binary.LittleEndian.AppendUint16(b, uint16(w))
	b = binary.LittleEndian.AppendUint16(b, uint16(h))
	b = append(b, 0x80|byte(bits-1)) // local colour table, not interlaced
	for i := range 1 << bits {
		var c uint32
		if i < len(ct.colors) {
			c = ct.colors[i]
		}
		b = append(b, uint8(c>>16), uint8(c>>8), uint8(c))
	}
	litWidth := max(bits, 2)
	b = append(b, byte(litWidth))
	e.lzwBuf.Reset()
	bw := &blockWriter{dst: &e.lzwBuf}
	e.lz.Reset(bw, lzw.LSB, litWidth)
	e.lz.Write(e.idx) // writes to a bytes.Buffer cannot fail
	e.lz.Close()
	bw.close()
	b = append(b, e.lzwBuf.Bytes()...)
	e.pending = b
}

// noColor is never an rgbKey: a "no previous colour" marker.
const noColor = ^uint32(0)

// rgbKey packs an RGBA pixel's colour as 0x00RRGGBB (alpha is ignored: the
// renderer draws opaque pixels).
func rgbKey(p []byte) uint32 { return uint32(p[0])<<16 | uint32(p[1])<<8 | uint32(p[2]) }

// blockWriter splits LZW output into GIF data sub-blocks of at most 255
// bytes and ends them with the zero-length block terminator on close.
type blockWriter struct {
	dst *bytes.Buffer
	buf [255]byte
	n   int
}

func (b *blockWriter) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		c := copy(b.buf[b.n:], p)
		b.n += c
		p = p[c:]
		if b.n == len(b.buf) {
			b.flush()
		}
	}
	return total, nil
}

func (b *blockWriter) flush() {
	if b.n == 0 {
		return
	}
	b.dst.WriteByte(byte(b.n))
	b.dst.Write(b.buf[:b.n])
	b.n = 0
}

func (b *blockWriter) close() {
	b.flush()
	b.dst.WriteByte(0)
}

// colorTable maps 0xRRGGBB colours to palette indices with a small
// open-addressing hash (a terminal frame rarely has more than a few dozen
// colours, and a Go map per pixel would dominate encoding time).
type colorTable struct {
	colors []uint32
	keys   [1024]uint32 // colour+1; 0 = free slot
	vals   [1024]uint8
	near   map[uint32]uint8 // quantised frames: nearest-colour cache
}

func (t *colorTable) reset() {
	t.colors = t.colors[:0]
	clear(t.keys[:])
	t.near = nil
}

func (t *colorTable) slot(c uint32) int {
	h := (c * 2654435761) >> 22 // Fibonacci hashing to 10 bits
	for i := int(h); ; i = (i + 1) & 1023 {
		if t.keys[i] == 0 || t.keys[i] == c+1 {
			return i
		}
	}
}

// index returns c's palette index.
func (t *colorTable) index(c uint32) (uint8, bool) {
	i := t.slot(c)
	return t.vals[i], t.keys[i] == c+1
}

// insert adds c unless the palette already has limit colours.
func (t *colorTable) insert(c uint32, limit int) bool {
	if len(t.colors) >= limit {
		return false
	}
	i := t.slot(c)
	t.keys[i], t.vals[i] = c+1, uint8(len(t.colors))
	t.colors = append(t.colors, c)
	return true
}

// popularity replaces the palette with the limit most frequent colours of
// r (ties broken by colour value, so output is deterministic); other colours
// map to their nearest entry.
func (t *colorTable) popularity(img *image.RGBA, r image.Rectangle, limit int) {
	count := make(map[uint32]int)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		p := img.Pix[y*img.Stride+4*r.Min.X : y*img.Stride+4*r.Max.X]
		for i := 0; i < len(p); i += 4 {
			count[rgbKey(p[i:])]++
		}
	}
	all := make([]uint32, 0, len(count))
	for c := range count {
		all = append(all, c)
	}
	slices.SortFunc(all, func(a, b uint32) int {
		if d := count[b] - count[a]; d != 0 {
			return d
		}
		return int(a) - int(b)
	})
	t.reset()
	for _, c := range all[:min(limit, len(all))] {
		t.insert(c, limit)
	}
	t.near = make(map[uint32]uint8)
}

// nearest returns the index of the palette colour closest to c (squared
// RGB distance), caching the answer.
func (t *colorTable) nearest(c uint32) uint8 {
	if ix, ok := t.near[c]; ok {
		return ix
	}
	best, bestD := 0, int(^uint(0)>>1)
	r, g, b := int(c>>16&0xff), int(c>>8&0xff), int(c&0xff)
	for i, p := range t.colors {
		dr, dg, db := r-int(p>>16&0xff), g-int(p>>8&0xff), b-int(p&0xff)
		if d := dr*dr + dg*dg + db*db; d < bestD {
			best, bestD = i, d
		}
	}
	if t.near != nil {
		t.near[c] = uint8(best)
	}
	return uint8(best)
}
