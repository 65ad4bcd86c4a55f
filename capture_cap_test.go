package main

// capture_cap_test.go: the cap on the bytes of the captures one server
// writes (--max-output-bytes).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"image/gif"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// diskBytes sums what the regular files under dir count against the cap
// (their sizes rounded up to blocks), and lists the part files left there.
func diskBytes(t *testing.T, dir string) (n int64, parts []string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += diskSize(fi.Size())
			}
			if strings.HasSuffix(p, ".part") {
				parts = append(parts, p)
			}
		}
		return nil
	})
	return n, parts
}

// capApp is an App on a fresh output directory with a session s1 of 20x4
// cells showing some text, its store capped at limit bytes.
func capApp(t *testing.T, limit int64) (*App, string) {
	t.Helper()
	a := newApp(Config{Theme: "one-dark", Cols: 20, Rows: 4, Scale: 1, OutputDir: filepath.Join(t.TempDir(), "out")})
	a.store.setMaxBytes(limit)
	s := addRecSession(a, "s1", 20, 4)
	s.term.Write([]byte("hello, capped world"))
	return a, filepath.Join(a.cfg.OutputDir, "s1")
}

// shotBytes is the size of one screenshot of capApp's session, its four
// files together.
func shotBytes(t *testing.T) int64 {
	t.Helper()
	a, dir := capApp(t, 0)
	if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"probe"}`); r.IsError {
		t.Fatal(r.Text)
	}
	n, _ := diskBytes(t, dir)
	return n
}

// TestCaptureCapScreenshots: a screenshot that would pass the cap is
// refused whole, with an error naming the cap, what is used and the fix;
// captures deleted by hand (files or the session's directory) make room
// again; a screenshot taken again under its name counts once (it needs
// room for both copies while the new one is written).
func TestCaptureCapScreenshots(t *testing.T) {
	t.Parallel()
	shot := shotBytes(t)
	take := func(t *testing.T, a *App, name string) *ToolResult {
		t.Helper()
		return callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"`+name+`"}`)
	}
	refused := func(t *testing.T, r *ToolResult, limit, used int64) {
		t.Helper()
		for _, want := range []string{"output directory full", fmt.Sprintf("--max-output-bytes %d", limit), "take " + byteSize(used) + ",",
			"delete captures", "larger --max-output-bytes"} {
			if !r.IsError || !strings.Contains(r.Text, want) {
				t.Errorf("screenshot past the cap: %s, want an error with %q", resultText(r), want)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		limit int64
		run   func(t *testing.T, a *App, dir string, limit int64)
	}{
		{"below one screenshot", shot - 1, func(t *testing.T, a *App, dir string, limit int64) {
			refused(t, take(t, a, "one"), limit, 0)
			if n, parts := diskBytes(t, dir); n != 0 || len(parts) != 0 {
				t.Errorf("a refused screenshot wrote %d bytes (part files %v)", n, parts)
			}
		}},
		{"the second past it", shot + shot/2, func(t *testing.T, a *App, dir string, limit int64) {
			if r := take(t, a, "one"); r.IsError {
				t.Fatal(r.Text)
			}
			refused(t, take(t, a, "two"), limit, shot)
			if n, parts := diskBytes(t, dir); n != shot || len(parts) != 0 {
				t.Errorf("after the refusal %d bytes are on disk (part files %v), want the first screenshot's %d", n, parts, shot)
			}
		}},
		{"files deleted by hand make room", shot + shot/2, func(t *testing.T, a *App, dir string, limit int64) {
			take(t, a, "one")
			refused(t, take(t, a, "two"), limit, shot)
			files, _ := filepath.Glob(filepath.Join(dir, "one.*"))
			for _, f := range files {
				must(t, os.Remove(f))
			}
			if r := take(t, a, "two"); r.IsError {
				t.Errorf("after deleting the first screenshot: %s", r.Text)
			}
		}},
		{"the session directory deleted by hand makes room", shot + shot/2, func(t *testing.T, a *App, dir string, limit int64) {
			take(t, a, "one")
			must(t, os.RemoveAll(dir))
			if r := take(t, a, "two"); r.IsError {
				t.Errorf("after deleting the session's directory: %s", r.Text)
			}
		}},
		{"taken again under its name", 2 * shot, func(t *testing.T, a *App, dir string, limit int64) {
			for range 5 {
				if r := take(t, a, "same"); r.IsError {
					t.Fatalf("the same screenshot again: %s", r.Text)
				}
			}
			if used := a.store.usedBytes(); used != shot {
				t.Errorf("%d bytes counted for one screenshot taken 5 times, want %d", used, shot)
			}
		}},
		{"a recording when nothing is left", shot, func(t *testing.T, a *App, dir string, limit int64) {
			take(t, a, "one")
			r := callTool(t, a, "shell_record_start", `{"session_id":"s1"}`)
			if !r.IsError || !strings.Contains(r.Text, "--max-output-bytes") {
				t.Errorf("recording with the cap reached: %s, want it refused naming the cap", resultText(r))
			}
			if _, parts := diskBytes(t, dir); len(parts) != 0 {
				t.Errorf("the refused recording left %v", parts)
			}
		}},
		{"0 is the default, 1 GiB", 0, func(t *testing.T, a *App, dir string, limit int64) {
			take(t, a, "one")
			// A file being written counts as it says (no recount).
			a.store.mu.Lock()
			a.store.trackLocked("s1/big.gif.part", defaultMaxOutputBytes-shot/2)
			a.store.mu.Unlock()
			refused(t, take(t, a, "two"), 1<<30, defaultMaxOutputBytes-shot/2+shot)
			a.store.untrack("s1/big.gif.part")
			if r := take(t, a, "two"); r.IsError {
				t.Error(r.Text)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, dir := capApp(t, tc.limit)
			tc.run(t, a, dir, tc.limit)
		})
	}
}

// TestCaptureCapRecording: a recording whose GIF or cast grows past the
// cap stops by itself and is saved with a note naming the cap and the
// fix; both files decode, and the files on disk stay under the cap.
func TestCaptureCapRecording(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name  string
		limit int64
		feed  func(i int) string // one chunk of output
	}{
		// Text scrolling by: the cast grows fastest.
		{"text", 384 << 10, func(i int) string {
			return strings.Repeat(fmt.Sprintf("line %d of a program that prints a lot\r\n", i), 40)
		}},
		// A screen of random colours redrawn: each GIF frame is large.
		{"colours", 512 << 10, func(i int) string {
			var b strings.Builder
			b.WriteString("\x1b[H")
			for range 60 * 16 {
				fmt.Fprintf(&b, "\x1b[48;5;%dm%c", rng.IntN(256), 'A'+rng.IntN(26))
			}
			return b.String()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := newRecApp(t)
			a.store.setMaxBytes(tc.limit)
			s := addRecSession(a, "s1", 60, 16)
			if r := callTool(t, a, "shell_record_start", `{"session_id":"s1","fps":30,"name":"big"}`); r.IsError {
				t.Fatal(r.Text)
			}
			rec := runningRecorder(a, s)
			stop := make(chan struct{})
			var wg sync.WaitGroup
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					case <-time.After(5 * time.Millisecond):
					}
					feedSession(s, tc.feed(i))
				}
			})
			select {
			case <-rec.done:
			case <-time.After(stuckAfter):
				t.Error("the recording did not stop at the cap")
			}
			close(stop)
			wg.Wait()
			// "both": the stop may come before the capture goroutine saved it.
			res := mustCall(t, a, "shell_record_stop", map[string]any{"session_id": "s1", "format": "both"})
			note, _ := res["note"].(string)
			for _, want := range []string{"size cap", fmt.Sprintf("--max-output-bytes %d", tc.limit), "delete captures or raise --max-output-bytes"} {
				if !strings.Contains(note, want) {
					t.Errorf("note %q does not say %q", note, want)
				}
			}
			gifPath, _ := res["gif_path"].(string)
			castPath, _ := res["cast_path"].(string)
			if gifPath == "" || castPath == "" {
				t.Fatalf("shell_record_stop: %v, want both files", res)
			}
			f, err := os.Open(gifPath)
			must(t, err)
			_, err = gif.DecodeAll(f)
			f.Close()
			if err != nil {
				t.Errorf("the GIF does not decode: %v", err)
			}
			c, err := os.Open(castPath)
			must(t, err)
			sc := bufio.NewScanner(c)
			sc.Buffer(nil, 1<<20)
			lines := 0
			for sc.Scan() {
				var v any
				if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
					t.Errorf("cast line %d is not JSON: %v", lines+1, err)
					break
				}
				lines++
			}
			c.Close()
			if lines < 2 {
				t.Errorf("the cast has %d lines", lines)
			}
			n, parts := diskBytes(t, a.cfg.OutputDir)
			if n > tc.limit || len(parts) != 0 {
				t.Errorf("%d bytes on disk (part files %v), the cap is %d", n, parts, tc.limit)
			}
			t.Logf("%d bytes on disk, cap %d, %v frames; %s", n, tc.limit, res["frame_count"], note)
		})
	}
}

// TestCaptureCapConcurrent writes, replaces and deletes captures from
// many goroutines at once: the files on disk never pass the cap, nothing
// is left half written, and the count agrees with the disk at the end.
func TestCaptureCapConcurrent(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	dir := filepath.Join(t.TempDir(), "out")
	c := newCaptureStore(dir, limit)
	defer c.close()
	data := make([]byte, 1000)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 60 {
				id := fmt.Sprintf("s%d", w%3)
				name := fmt.Sprintf("w%d-%d", w, i%20)
				switch i % 6 {
				case 5:
					os.Remove(filepath.Join(dir, id, fmt.Sprintf("w%d-%d.txt", w, (i+7)%20)))
				case 4:
					if f, err := c.create(id, name+".cast.part"); err == nil {
						for range 5 {
							f.Write(data)
						}
						f.Close()
						c.rename(id, name+".cast.part", name+".cast")
					}
				default:
					c.writeFiles(id, []captureData{{name + ".txt", data}, {name + ".svg", data[:500]}})
				}
				// The walk holds the store's lock: walked bare, it would
				// add a directory read before a removal to one read after
				// the write that took the room, a sum no instant had.
				c.mu.Lock()
				n, _ := diskBytes(t, dir)
				c.mu.Unlock()
				if n > limit {
					t.Errorf("%d bytes on disk, the cap is %d", n, limit)
				}
			}
		})
	}
	wg.Wait()
	n, parts := diskBytes(t, dir)
	if len(parts) != 0 {
		t.Errorf("part files left: %v", parts)
	}
	c.mu.Lock()
	c.recountLocked()
	used := c.used
	c.mu.Unlock()
	if used != n {
		t.Errorf("%d bytes counted after a recount, %d on disk", used, n)
	}
}
