package main

// cast.go: asciicast v2 recordings (https://docs.asciinema.org/manual/asciicast/v2/).
// The file is a JSON header line followed by one event line per chunk of
// program output, [seconds, "o", "data"], written as the output arrives
// (through a small buffer) so memory stays bounded. The first event paints
// the screen as it was when recording started, so a player shows the same
// picture as the GIF's first frame.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// castFlushSize is how much event text is buffered before it is written.
const castFlushSize = 32 << 10

// castMaxBytes caps a cast file: a program flooding output for ten minutes
// would otherwise fill gigabytes of disk, even when only the GIF is kept.
const castMaxBytes int64 = 256 << 20

// castWriter streams asciicast v2 events to w. Its methods are safe for
// concurrent use (output arrives on the PTY reader's goroutine, resizes and
// the end on the recorder's). Errors are sticky: the first write error is
// kept and later writes are dropped.
type castWriter struct {
	mu      sync.Mutex
	w       io.Writer
	err     error
	start   time.Time
	last    float64 // seconds of the last event; times never go backwards
	buf     bytes.Buffer
	partial []byte // an incomplete UTF-8 sequence held for the next chunk
	closed  bool
	limit   int64 // bytes written at most: castMaxBytes (tests lower it)
	full    bool  // limit reached: later output is dropped
	events  int
	written int64
}

// castHeader is the first line of an asciicast v2 file.
type castHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Title     string            `json:"title,omitempty"`
	IdleLimit float64           `json:"idle_time_limit,omitempty"` // seconds; players shorten longer pauses, as the GIF does
	Env       map[string]string `json:"env"`
}

// newCastWriter writes the header for a cols x rows terminal started at
// start, its idle_time_limit idleCap (0: none, pauses play as they were),
// then an event at time 0 that redraws snap (nil = nothing drawn).
func newCastWriter(w io.Writer, start time.Time, snap *Snapshot, idleCap time.Duration) *castWriter {
	c := &castWriter{w: w, start: start, limit: castMaxBytes}
	h := castHeader{Version: 2, Width: snap.Cols, Height: snap.Rows, Timestamp: start.Unix(),
		Title: snap.Title, IdleLimit: idleCap.Seconds(), Env: map[string]string{"TERM": "xterm-256color"}}
	line, _ := json.Marshal(h) // a struct of strings and ints always marshals
	c.buf.Write(line)
	c.buf.WriteByte('\n')
	c.event(0, 'o', screenANSI(snap, ansiRedraw))
	return c
}

// output records a chunk of program output that arrived at time at.
func (c *castWriter) output(p []byte, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	data := p
	if len(c.partial) > 0 {
		data = append(c.partial, p...)
		c.partial = nil
	}
	// Hold back a UTF-8 sequence cut by the read so it is not turned into
	// U+FFFD: it completes with the next chunk.
	if cut := incompleteUTF8(data); cut > 0 {
		c.partial = append([]byte(nil), data[len(data)-cut:]...)
		data = data[:len(data)-cut]
	}
	if len(data) > 0 {
		c.event(at.Sub(c.start).Seconds(), 'o', data)
	}
}

// resize records a terminal size change ("r" event, "COLSxROWS").
func (c *castWriter) resize(cols, rows int, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.event(at.Sub(c.start).Seconds(), 'r', []byte(fmt.Sprintf("%dx%d", cols, rows)))
	}
}

// event appends one event line; c.mu is held (or c is not yet shared).
func (c *castWriter) event(sec float64, kind byte, data []byte) {
	if c.full || c.written+int64(c.buf.Len()) >= c.limit {
		c.full = true
		return
	}
	if sec < c.last {
		sec = c.last
	}
	c.last = sec
	b := c.buf.AvailableBuffer()
	b = append(b, '[')
	b = strconv.AppendFloat(b, sec, 'f', 6, 64)
	b = append(b, ", \""...)
	b = append(b, kind)
	b = append(b, "\", "...)
	b = appendJSONString(b, data)
	b = append(b, "]\n"...)
	c.buf.Write(b)
	c.events++
	if c.buf.Len() >= castFlushSize {
		c.flush()
	}
}

func (c *castWriter) flush() {
	if c.err == nil && c.buf.Len() > 0 {
		n, err := c.w.Write(c.buf.Bytes())
		c.written += int64(n)
		c.err = err
	}
	c.buf.Reset()
}

// truncated reports whether output was dropped at c.limit.
func (c *castWriter) truncated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.full
}

// close writes what is buffered (a held partial sequence too) and stops
// accepting events. It returns the first write error and the bytes written.
func (c *castWriter) close() (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		if len(c.partial) > 0 {
			c.event(c.last, 'o', c.partial)
			c.partial = nil
		}
		c.flush()
		c.closed = true
	}
	return c.written, c.err
}

// incompleteUTF8 returns the length of an unfinished UTF-8 sequence at the
// end of p (0 when p ends on a rune boundary or with invalid bytes).
func incompleteUTF8(p []byte) int {
	for n := 1; n <= 3 && n <= len(p); n++ {
		b := p[len(p)-n]
		if b < 0x80 {
			return 0
		}
		if b >= 0xc0 { // a lead byte: how long should its sequence be?
			need := 2
			if b >= 0xe0 {
				need = 3
			}
			if b >= 0xf0 {
				need = 4
			}
			if b >= 0xf8 || need <= n {
				return 0
			}
			return n
		}
	}
	return 0
}

// appendJSONString appends p as a JSON string: valid UTF-8 kept, controls
// escaped, invalid bytes as U+FFFD (a JSON string cannot hold raw bytes).
func appendJSONString(b, p []byte) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, p[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
