package main

// attach_frame.go: the frames of the attach protocol (docs/attach-protocol.md):
// newline-delimited JSON, at most maxAttachFrame bytes a line. The
// requests a viewer sends are read by frameReader and checked by
// parseAttachRequest; the screen goes out whole in each screen frame
// (screenFrame), its styles as SGR for a terminal and resolved through
// the session's theme for a viewer without a palette, and is read back
// into cells by decodeScreenFrame (the attach client's drawing, the
// tests). The live view's screen frame is a browser's encoding of the
// screen instead (viewScreenFrame, html.go).

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"
	"unicode/utf8"
)

// attachFrameGap is how often at most one viewer, a terminal or a
// browser tab, gets a screen frame.
const attachFrameGap = 16 * time.Millisecond

// Attach frame limits.
const (
	maxAttachFrame     = 1 << 20  // bytes in one line, the newline included
	maxAttachKeys      = 64 << 10 // bytes of keys in one keys frame, decoded
	maxAttachSessionID = 128      // bytes of a session id (ids are shell-N)
)

// The errors of frameReader.next besides the reader's own.
var (
	errFrameTooLong = fmt.Errorf("a frame is over %d bytes", maxAttachFrame)
	errFrameIdle    = errors.New("no frame began before the deadline")
	errHalfFrame    = errors.New("a frame began and did not end before the deadline")
)

// frameReader splits a stream into lines of at most max bytes. A read
// deadline that passes between frames is errFrameIdle (a viewer may stay
// silent); one that passes inside a frame is errHalfFrame.
type frameReader struct {
	r   io.Reader
	max int
	buf []byte // read and not yet returned
	off int    // where the next line starts in buf
}

// newFrameReader reads frames of at most maxAttachFrame bytes from r.
func newFrameReader(r io.Reader) *frameReader {
	return &frameReader{r: r, max: maxAttachFrame}
}

// rest returns what was read past the last line returned: the start of
// what follows the frames on the stream (the shared service's MCP,
// main_service.go).
func (f *frameReader) rest() []byte { return f.buf[f.off:] }

// next returns the next line without its newline; the slice is valid
// until the next call. At the end of the stream a last line without a
// newline is io.ErrUnexpectedEOF.
func (f *frameReader) next() ([]byte, error) {
	scanned := 0
	for {
		pending := f.buf[f.off:]
		if i := bytes.IndexByte(pending[scanned:], '\n'); i >= 0 {
			line := pending[:scanned+i]
			f.off += scanned + i + 1
			return line, nil
		}
		scanned = len(pending)
		if len(pending) >= f.max {
			return nil, errFrameTooLong
		}
		if f.off > 0 { // keep only the pending bytes, at the start
			f.buf = append(f.buf[:0], pending...)
			f.off = 0
		}
		if cap(f.buf)-len(f.buf) < 4096 {
			f.buf = slices.Grow(f.buf, max(4096, cap(f.buf)))
		}
		n, err := f.r.Read(f.buf[len(f.buf):min(cap(f.buf), f.max)])
		f.buf = f.buf[:len(f.buf)+n]
		if err != nil && n == 0 {
			switch {
			case errors.Is(err, os.ErrDeadlineExceeded) && len(f.buf) == f.off:
				return nil, errFrameIdle
			case errors.Is(err, os.ErrDeadlineExceeded):
				return nil, errHalfFrame
			case err == io.EOF && len(f.buf) > f.off:
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// attachRequest is one frame a viewer sends: its op and that op's
// fields.
type attachRequest struct {
	Op      string `json:"op"`
	Session string `json:"session,omitempty"`
	Control bool   `json:"control,omitempty"`
	Resize  bool   `json:"resize,omitempty"`
	Cols    int    `json:"cols,omitempty"`
	Rows    int    `json:"rows,omitempty"`
	Data    string `json:"data,omitempty"` // keys: base64

	keys []byte // Data decoded
}

// parseAttachRequest decodes and checks one request line: a known op,
// no unknown field, the fields its op needs within bounds.
func parseAttachRequest(line []byte) (attachRequest, error) {
	var r attachRequest
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("not a request frame: %v", err)
	}
	if dec.More() {
		return r, errors.New("not a request frame: more than one JSON value on the line")
	}
	switch r.Op {
	case "list", "take", "give", "detach":
	case "attach", "web":
		if r.Session == "" || len(r.Session) > maxAttachSessionID {
			return r, fmt.Errorf("%s: session must be a session id such as shell-1", r.Op)
		}
		if r.Cols != 0 || r.Rows != 0 {
			if err := checkSize(r.Cols, r.Rows); err != nil {
				return r, fmt.Errorf("attach: %v", err)
			}
		}
	case "size":
		if err := checkSize(r.Cols, r.Rows); err != nil {
			return r, fmt.Errorf("size: %v", err)
		}
	case "keys":
		if base64.StdEncoding.DecodedLen(len(r.Data)) > maxAttachKeys+3 {
			return r, fmt.Errorf("keys: over %d bytes: send them in parts", maxAttachKeys)
		}
		p, err := base64.StdEncoding.DecodeString(r.Data)
		if err != nil || len(p) == 0 {
			return r, errors.New("keys: data must be the keys in base64, not empty")
		}
		r.keys = p
	default:
		return r, fmt.Errorf("unknown op %q: the ops are list, attach, web, take, give, keys, size and detach", r.Op)
	}
	return r, nil
}

// frameStyle is one entry of a screen frame's styles: the SGR parameters
// that set it (for a terminal), and for a viewer without a palette the
// colours RenderImage paints (htmlColors: reverse video, bold
// brightening, dim, hidden and shades applied), with the attributes
// drawn as font and decoration.
type frameStyle struct {
	SGR       string `json:"sgr"`
	FG        string `json:"fg"`
	BG        string `json:"bg"`
	Bold      bool   `json:"bold,omitempty"`
	Dim       bool   `json:"dim,omitempty"`
	Italic    bool   `json:"italic,omitempty"`
	Underline bool   `json:"underline,omitempty"`
	Reverse   bool   `json:"reverse,omitempty"`
}

// frameSpan is a run of text in one style on one row.
// W is 2 for a span of one wide character (with its marks), so that a
// browser, which has no width table of its own, gives it two columns.
type frameSpan struct {
	T string `json:"t"`
	S int    `json:"s"`
	W int    `json:"w,omitempty"`
}

// frameCursor is where the cursor is, 0-based.
type frameCursor struct {
	Row     int  `json:"row"`
	Col     int  `json:"col"`
	Visible bool `json:"visible"`
}

// frameModes are the program's modes that decide how a person's keys are
// encoded, for the viewer's own terminal to follow.
type frameModes struct {
	AppCursor      bool `json:"app_cursor,omitempty"`
	BracketedPaste bool `json:"bracketed_paste,omitempty"`
}

// screenFrameJSON is a screen frame.
type screenFrameJSON struct {
	Op     string        `json:"op"`
	Cols   int           `json:"cols"`
	Rows   int           `json:"rows"`
	Cursor frameCursor   `json:"cursor"`
	Styles []frameStyle  `json:"styles"`
	Lines  [][]frameSpan `json:"lines"`
	Title  string        `json:"title,omitempty"`
	Modes  frameModes    `json:"modes"`
}

// screenFrame encodes snap as a screen frame line, its colours resolved
// with th: each row as spans of text in one style (style 0 the default),
// trailing blanks in the default style left out, a wide character as its
// rune with the cell it covers skipped, combining marks after their base.
func screenFrame(snap *Snapshot, th *Theme) []byte {
	th = th.forScreen(snap)
	f := screenFrameJSON{Op: "screen", Cols: snap.Cols, Rows: snap.Rows, Title: string(sanitizeTitle(snap.Title)),
		Cursor: frameCursor{Row: snap.Cursor.Row, Col: snap.Cursor.Col, Visible: snap.Cursor.Visible},
		Modes:  frameModes{AppCursor: snap.Modes.AppCursor, BracketedPaste: snap.Modes.BracketedPaste},
		Lines:  make([][]frameSpan, snap.Rows)}
	index := map[cellLook]int{}
	f.Styles = append(f.Styles, frameStyleOf(th, Cell{}))
	index[cellLook{}] = 0
	var text []byte
	for row := 0; row < snap.Rows; row++ {
		spans := []frameSpan{}
		end := frameRowEnd(snap, row)
		cur := -1
		for col := 0; col < end; col++ {
			i := row*snap.Cols + col
			c := snap.Cells[i]
			if c.Width == 0 {
				continue
			}
			k := lookOf(c)
			s, ok := index[k]
			if !ok {
				s = len(f.Styles)
				index[k] = s
				f.Styles = append(f.Styles, frameStyleOf(th, c))
			}
			if (s != cur || c.Width == 2) && cur >= 0 {
				spans = append(spans, frameSpan{T: string(text), S: cur})
				text = text[:0]
			}
			cur = s
			r := c.Rune
			if r == 0 || r < 0x20 || r == 0x7f {
				r = ' '
			}
			text = utf8.AppendRune(text, r)
			text = append(text, snap.Marks[i]...)
			if c.Width == 2 {
				spans = append(spans, frameSpan{T: string(text), S: cur, W: 2})
				text, cur = text[:0], -1
			}
		}
		if cur >= 0 {
			spans = append(spans, frameSpan{T: string(text), S: cur})
			text = text[:0]
		}
		f.Lines[row] = spans
	}
	b, err := encodeFrame(f)
	if err != nil {
		return []byte(`{"op":"error","message":"the screen could not be encoded"}` + "\n")
	}
	return b
}

// viewScreenFrame encodes snap as the live view's screen frame, its
// colours resolved with th: a browser's encoding of the screen (html.go's
// htmlFrame) with "op":"screen" and the modes (frameModes), one JSON line
// (docs/attach-protocol.md, "The live view's screen frame").
// A screen whose frame would pass maxViewFrame bytes (1000x500 cells,
// each with colours and a link of its own: about 60 MB) is sent as its
// text alone, in the default style (about 0.5 MB at that size).
func viewScreenFrame(snap *Snapshot, th *Theme) []byte {
	b, err := encodeViewFrame(snap, th)
	if err == nil && len(b) > maxViewFrame {
		b, err = encodeViewFrame(plainSnapshot(snap), th)
	}
	if err != nil {
		return []byte(`{"op":"error","message":"the screen could not be encoded"}` + "\n")
	}
	return b
}

func encodeViewFrame(snap *Snapshot, th *Theme) ([]byte, error) {
	return encodeFrame(struct {
		Op string `json:"op"`
		htmlFrame
		Modes frameModes `json:"modes"`
	}{"screen", newHTMLFrame(snap, th), frameModes{AppCursor: snap.Modes.AppCursor, BracketedPaste: snap.Modes.BracketedPaste}})
}

// plainSnapshot is snap's text in the default style: each cell keeps its
// character and width, a hidden one (SGR 8) neither; no links.
func plainSnapshot(snap *Snapshot) *Snapshot {
	p := *snap
	p.Cells = make([]Cell, len(snap.Cells))
	for i, c := range snap.Cells {
		p.Cells[i] = Cell{Rune: c.Rune, Width: c.Width}
		if c.Attr&AttrHidden != 0 {
			p.Cells[i].Rune = 0
		}
	}
	p.Links = nil
	return &p
}

// frameRowEnd is the column after the last cell of row that differs from
// a blank in the default style.
func frameRowEnd(snap *Snapshot, row int) int {
	for end := snap.Cols; end > 0; end-- {
		c := snap.Cells[row*snap.Cols+end-1]
		if c.Rune != 0 && c.Rune != ' ' || c.FG != 0 || c.BG != 0 || c.UL != 0 || c.Attr != 0 || c.Width == 0 {
			return end
		}
	}
	return 0
}

// frameStyleOf is c's entry in the styles of a frame.
func frameStyleOf(th *Theme, c Cell) frameStyle {
	fg, bg, _ := htmlColors(th, c)
	return frameStyle{SGR: sgrParams(c), FG: hexColor(fg), BG: hexColor(bg),
		Bold: c.Attr&AttrBold != 0, Dim: c.Attr&AttrDim != 0, Italic: c.Attr&AttrItalic != 0,
		Underline: c.Attr&AttrUnderline != 0, Reverse: c.Attr&AttrInverse != 0}
}

// encodeFrame is v as one JSON line, HTML characters as they are.
func encodeFrame(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return b.Bytes(), err
}

// gridCell is one cell of a decoded screen frame: its text (a character
// and its combining marks, "" for a blank) and style, or the right half
// of a wide character.
type gridCell struct {
	Text  string
	Style int
	Cont  bool
}

// frameGrid is a screen frame read back into cells.
type frameGrid struct {
	Cols, Rows int
	Cells      []gridCell // Rows*Cols, row-major
	Styles     []frameStyle
	Cursor     frameCursor
	Title      string
	Modes      frameModes
}

// decodeScreenFrame reads a screen frame into cells. A span's text past
// the row's end, or a style index out of range, is an error.
func decodeScreenFrame(line []byte) (*frameGrid, error) {
	var f screenFrameJSON
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, err
	}
	if f.Op != "screen" || checkSize(f.Cols, f.Rows) != nil || len(f.Lines) > f.Rows || len(f.Styles) == 0 {
		return nil, errors.New("not a screen frame")
	}
	g := &frameGrid{Cols: f.Cols, Rows: f.Rows, Cells: make([]gridCell, f.Cols*f.Rows), Styles: f.Styles,
		Cursor: f.Cursor, Title: f.Title, Modes: f.Modes}
	for row, spans := range f.Lines {
		col := 0
		for _, sp := range spans {
			if sp.S < 0 || sp.S >= len(f.Styles) {
				return nil, fmt.Errorf("row %d: style %d is not in the frame", row, sp.S)
			}
			for _, r := range sp.T {
				w := runeWidth(r)
				i := row*f.Cols + col
				switch {
				case w == 0 && col > 0:
					j := i - 1
					if g.Cells[j].Cont {
						j--
					}
					g.Cells[j].Text += string(r)
					continue
				case w == 0:
					continue
				case col+w > f.Cols:
					return nil, fmt.Errorf("row %d: text past column %d", row, f.Cols)
				}
				g.Cells[i] = gridCell{Text: string(r), Style: sp.S}
				if w == 2 {
					g.Cells[i+1] = gridCell{Style: sp.S, Cont: true}
				}
				col += w
			}
		}
	}
	return g, nil
}
