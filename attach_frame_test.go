package main

// attach_frame_test.go: the attach protocol's frames: the screen frame
// against its golden and read back into the same cells, the line reader
// at every split, the request checks, and the fuzz target of both.

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// TestAttachScreenFrameGolden encodes screens with colours, attributes,
// a wide character and a combining mark, compares each frame with its
// golden (testdata/attach/, -update rewrites them), and reads it back:
// every cell's text and SGR are the snapshot's.
func TestAttachScreenFrameGolden(t *testing.T) {
	tests := []struct {
		name, input string
		cols, rows  int
	}{
		{"plain", "hello\r\nworld", 10, 3},
		{"styles", "\x1b[1;31mred\x1b[0m \x1b[7mrev\x1b[0m \x1b[38;5;196mx\x1b[48;2;1;2;3my\x1b[0m\x1b[4mu\x1b[0m", 20, 2},
		{"wide_and_marks", "a日本b e\u0301\r\n\x1b[44m  \x1b[0m", 12, 2},
		{"title_cursor", "\x1b]2;my title\x07\x1b[?25l\x1b[2;3Hx", 8, 3},
	}
	th, _ := lookupTheme("one-dark")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term := NewTerminal(tt.cols, tt.rows, 0)
			term.Write([]byte(tt.input))
			snap := term.Snapshot()
			got := screenFrame(snap, th)
			path := filepath.Join("testdata", "attach", tt.name+".json")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v: write it with go test -run TestAttachScreenFrameGolden -update", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("frame differs from %s:\n got %s\nwant %s", path, got, want)
			}
			checkFrameCells(t, snap, got)
		})
	}
}

// checkFrameCells reads frame back and compares each cell with snap's.
func checkFrameCells(t *testing.T, snap *Snapshot, frame []byte) {
	t.Helper()
	g, err := decodeScreenFrame(frame)
	if err != nil {
		t.Fatal(err)
	}
	if g.Cols != snap.Cols || g.Rows != snap.Rows || g.Cursor.Row != snap.Cursor.Row || g.Cursor.Col != snap.Cursor.Col || g.Cursor.Visible != snap.Cursor.Visible {
		t.Fatalf("size or cursor: got %dx%d %+v", g.Cols, g.Rows, g.Cursor)
	}
	for i, c := range snap.Cells {
		gc := g.Cells[i]
		want := string(c.Rune) + snap.Marks[i]
		if c.Rune == 0 || c.Rune == ' ' {
			want = " " + snap.Marks[i]
		}
		got := gc.Text
		if got == "" {
			got = " "
		}
		switch {
		case c.Width == 0 && !gc.Cont:
			t.Errorf("cell %d: the right half of a wide character is not a continuation", i)
		case c.Width != 0 && got != want:
			t.Errorf("cell %d: text %q, want %q", i, got, want)
		case c.Width != 0 && g.Styles[gc.Style].SGR != sgrParams(c):
			t.Errorf("cell %d: sgr %q, want %q", i, g.Styles[gc.Style].SGR, sgrParams(c))
		}
	}
}

// TestFrameReader splits lines at every read size, and tells a stream
// that ends inside a line and a line over the limit.
func TestFrameReader(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		max     int
		want    []string
		wantErr error
	}{
		{"lines", "{\"op\":\"list\"}\n\n{\"op\":\"take\"}\n", 100, []string{`{"op":"list"}`, "", `{"op":"take"}`}, io.EOF},
		{"half a line at the end", "{\"op\":\"list\"}\n{\"op\"", 100, []string{`{"op":"list"}`}, io.ErrUnexpectedEOF},
		{"a line over the limit", strings.Repeat("x", 50) + "\n", 20, nil, errFrameTooLong},
		{"a line at the limit", strings.Repeat("x", 19) + "\n", 20, []string{strings.Repeat("x", 19)}, io.EOF},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 2, 3, 7, 4096} {
			t.Run(tt.name, func(t *testing.T) {
				fr := newFrameReader(iotest.HalfReader(&chunkReader{data: []byte(tt.in), n: chunk}))
				fr.max = tt.max
				var got []string
				var err error
				for {
					var line []byte
					if line, err = fr.next(); err != nil {
						break
					}
					got = append(got, string(line))
				}
				if !errors.Is(err, tt.wantErr) || strings.Join(got, "|") != strings.Join(tt.want, "|") {
					t.Errorf("chunks of %d: got %q, %v; want %q, %v", chunk, got, err, tt.want, tt.wantErr)
				}
			})
		}
	}
}

// chunkReader returns data n bytes at a time.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.data[:min(r.n, len(r.data))])
	r.data = r.data[n:]
	return n, nil
}

// TestParseAttachRequest accepts the protocol's requests and refuses the
// rest with a message.
func TestParseAttachRequest(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
	}{
		{`{"op":"list"}`, true},
		{`{"op":"attach","session":"shell-1","control":true,"resize":true,"cols":80,"rows":24}`, true},
		{`{"op":"attach","session":"shell-1"}`, true},
		{`{"op":"attach"}`, false},
		{`{"op":"attach","session":"shell-1","cols":5000,"rows":24}`, false},
		{`{"op":"keys","data":"ZWNobyBoaQ0="}`, true},
		{`{"op":"keys","data":"not base64!"}`, false},
		{`{"op":"keys","data":""}`, false},
		{`{"op":"size","cols":100,"rows":30}`, true},
		{`{"op":"size","cols":0,"rows":30}`, false},
		{`{"op":"take"}`, true},
		{`{"op":"give"}`, true},
		{`{"op":"detach"}`, true},
		{`{"op":"take","extra":1}`, false},
		{`{"op":"rm -rf"}`, false},
		{`{"op":"list"} {"op":"list"}`, false},
		{`garbage`, false},
		{``, false},
	}
	for _, tt := range tests {
		_, err := parseAttachRequest([]byte(tt.line))
		if (err == nil) != tt.ok {
			t.Errorf("%s: error %v, want ok %v", tt.line, err, tt.ok)
		}
		if err != nil && err.Error() == "" {
			t.Errorf("%s: an error without a message", tt.line)
		}
	}
}

// FuzzAttachFrame feeds any bytes to the frame reader and each line to
// the request parser and the screen frame decoder: nothing panics, no
// line passes the limit, and a request that parses encodes and parses
// again to the same request.
func FuzzAttachFrame(f *testing.F) {
	for _, s := range []string{`{"op":"list"}` + "\n", `{"op":"keys","data":"YQ=="}` + "\n{\"op\":\"take\"}\n",
		`{"op":"screen","cols":4,"rows":1,"cursor":{"row":0,"col":0,"visible":true},"styles":[{"sgr":"0","fg":"#ffffff","bg":"#000000"}],"lines":[[{"t":"日x","s":0}]]}` + "\n",
		"\n\n\x00\xff{", `{"op":"attach","session":"shell-1","cols":2,"rows":1}` + "\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := newFrameReader(bytes.NewReader(data))
		fr.max = 512
		for {
			line, err := fr.next()
			if err != nil {
				break
			}
			if len(line) >= fr.max {
				t.Fatalf("a line of %d bytes passed the %d-byte limit", len(line), fr.max)
			}
			if req, err := parseAttachRequest(line); err == nil {
				b, _ := json.Marshal(req)
				again, err := parseAttachRequest(b)
				if err != nil || again.Op != req.Op || !bytes.Equal(again.keys, req.keys) {
					t.Fatalf("%q parsed, encoded as %s, then %v", line, b, err)
				}
			}
			if g, err := decodeScreenFrame(line); err == nil && len(g.Cells) != g.Cols*g.Rows {
				t.Fatalf("a grid of %d cells for %dx%d", len(g.Cells), g.Cols, g.Rows)
			}
		}
	})
}
