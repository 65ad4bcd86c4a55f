package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestIncompleteUTF8(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 0},
		{"é", 0},
		{"a\xc3", 1},
		{"a\xe2\x94", 2},
		{"a\xe2", 1},
		{"\xf0\x9f\x98", 3},
		{"\xf0\x9f\x98\x80", 0},
		{"a\x80", 0},        // a stray continuation byte cannot complete
		{"a\xff", 0},        // never valid
		{"\x80\x80\x80", 0}, // no lead byte
	}
	for _, tt := range tests {
		if got := incompleteUTF8([]byte(tt.in)); got != tt.want {
			t.Errorf("incompleteUTF8(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// FuzzCastJSONString checks that appendJSONString gives valid JSON holding
// the same text encoding/json would (invalid bytes as U+FFFD).
func FuzzCastJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mred\x1b[0m\r\n", "\"\\\t\x00\x7f", "\xff\xfe", "日本語 🙂", "\u2028"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		enc := appendJSONString(nil, p)
		var got string
		if err := json.Unmarshal(enc, &got); err != nil {
			t.Fatalf("%q encodes to invalid JSON %q: %v", p, enc, err)
		}
		ref, _ := json.Marshal(string(p))
		var want string
		json.Unmarshal(ref, &want)
		if got != want {
			t.Fatalf("%q: got %q, want %q", p, got, want)
		}
	})
}

func TestCastWriter(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	t0 := time.Unix(1700000000, 0)
	c := newCastWriter(&buf, t0, &Snapshot{Cols: 20, Rows: 5, Cells: make([]Cell, 100), Cursor: Cursor{Visible: true}}, gifIdleCap)
	c.output([]byte("héllo \xe2\x94"), t0.Add(500*time.Millisecond)) // "─" cut in two
	c.output([]byte("\x80 done\r\n"), t0.Add(250*time.Millisecond))  // out of order time
	c.resize(30, 6, t0.Add(time.Second))
	c.output([]byte("tail\xf0\x9f"), t0.Add(2*time.Second))
	if _, err := c.close(); err != nil {
		t.Fatal(err)
	}
	c.output([]byte("after close"), t0.Add(3*time.Second))
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := []string{
		`{"version":2,"width":20,"height":5,"timestamp":1700000000,"idle_time_limit":2,"env":{"TERM":"xterm-256color"}}`,
		`[0.000000, "o", "\u001b[0m\u001b[H\u001b[2J\u001b[0m\u001b[1;1H"]`,
		`[0.500000, "o", "héllo "]`,
		`[0.500000, "o", "─ done\r\n"]`,
		`[1.000000, "r", "30x6"]`,
		`[2.000000, "o", "tail"]`,
		`[2.000000, "o", "\ufffd\ufffd"]`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if c2 := newCastWriter(errWriter{}, t0, &Snapshot{Cols: 1, Rows: 1, Cells: make([]Cell, 1)}, gifIdleCap); true {
		c2.output(bytes.Repeat([]byte("x"), castFlushSize), t0)
		if _, err := c2.close(); err == nil {
			t.Errorf("failing writer: no error")
		}
	}
}

func TestCastCap(t *testing.T) {
	t.Parallel()
	const limit = 100 << 10
	var buf bytes.Buffer
	t0 := time.Now()
	c := newCastWriter(&buf, t0, &Snapshot{Cols: 10, Rows: 2, Cells: make([]Cell, 20)}, gifIdleCap)
	c.limit = limit
	chunk := bytes.Repeat([]byte("flood "), 1000)
	for i := range 100 {
		c.output(chunk, t0.Add(time.Duration(i)*time.Millisecond))
	}
	n, err := c.close()
	if err != nil {
		t.Fatal(err)
	}
	if !c.truncated() || n > limit+castFlushSize || n < limit/2 {
		t.Errorf("wrote %d bytes, truncated %v; cap %d", n, c.truncated(), limit)
	}
	if !bytes.HasSuffix(buf.Bytes(), []byte("]\n")) {
		t.Errorf("the file does not end with a whole event")
	}
}
