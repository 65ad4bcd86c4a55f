package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"image"
	"image/draw"
	"image/gif"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// newRecApp returns an App writing captures under a temporary directory.
func newRecApp(t testing.TB) *App {
	t.Helper()
	return newApp(Config{Theme: "one-dark", Cols: 80, Rows: 24, Scale: 2, OutputDir: filepath.Join(t.TempDir(), "out")})
}

// addRecSession registers a session whose terminal the test feeds itself
// (no program, no PTY).
func addRecSession(a *App, id string, cols, rows int) *Session {
	s := &Session{ID: id, Command: "test", Theme: "one-dark", Started: time.Now(), term: NewTerminal(cols, rows, 100),
		changed: make(chan struct{})}
	addTestSession(a, s)
	return s
}

// callTool runs the named tool with JSON arguments.
func callTool(t *testing.T, a *App, name, args string) *ToolResult {
	t.Helper()
	for _, tool := range a.tools.list() {
		if tool.Name == name {
			return tool.Handle(context.Background(), &ToolCall{Args: json.RawMessage(args)})
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// resultText is what the client reads of a result: the text, else the JSON
// of the structured content.
func resultText(r *ToolResult) string {
	if r.Text != "" {
		return r.Text
	}
	b, _ := json.Marshal(r.Structured)
	return string(b)
}

func TestRecordBadInput(t *testing.T) {
	t.Parallel()
	a := newRecApp(t)
	addRecSession(a, "s1", 40, 10)
	addRecSession(a, "busy", 40, 10)
	if r := callTool(t, a, "shell_record_start", `{"session_id":"busy"}`); r.IsError {
		t.Fatalf("start: %s", resultText(r))
	}
	defer callTool(t, a, "shell_record_stop", `{"session_id":"busy"}`)
	tests := []struct {
		name, tool, args string
		want             string // in the error text: the problem or the fix
	}{
		{"unknown session", "shell_record_start", `{"session_id":"nope"}`, "shell_start"},
		{"missing session", "shell_record_stop", `{}`, "session"},
		{"fps zero", "shell_record_start", `{"session_id":"s1","fps":0}`, "use 1 to 30"},
		{"fps too high", "shell_record_start", `{"session_id":"s1","fps":31}`, "use 1 to 30"},
		{"fps not a number", "shell_record_start", `{"session_id":"s1","fps":"ten"}`, "fps"},
		{"scale too high", "shell_record_start", `{"session_id":"s1","scale":9}`, "use 1 to 4"},
		{"bad border", "shell_record_start", `{"session_id":"s1","border":{"style":"windows"}}`, "macos"},
		{"path in name", "shell_record_start", `{"session_id":"s1","name":"../x"}`, "letters, digits"},
		{"start twice", "shell_record_start", `{"session_id":"busy"}`, "shell_record_stop first"},
		{"stop without start", "shell_record_stop", `{"session_id":"s1"}`, "shell_record_start first"},
		{"unknown format", "shell_record_stop", `{"session_id":"busy","format":"mp4"}`, `"gif" (default), "cast"`},
		{"bad stop name", "shell_record_stop", `{"session_id":"busy","name":"a/b"}`, "no path separators"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := callTool(t, a, tt.tool, tt.args)
			if !r.IsError {
				t.Fatalf("no error: %s", resultText(r))
			}
			if !strings.Contains(r.Text, tt.want) {
				t.Errorf("error %q does not mention %q", r.Text, tt.want)
			}
		})
	}
	if isRecording(a, a.sessions.Get("s1")) {
		t.Errorf("a refused start left the session recording")
	}
}

// TestRecordBorderStyles: shell_record_start takes the border styles
// shell_screenshot takes ("none" was refused), so one border object works
// for both tools.
func TestRecordBorderStyles(t *testing.T) {
	t.Parallel()
	a := newRecApp(t)
	addRecSession(a, "s1", 40, 10)
	tests := []struct {
		border string
		w, h   int // GIF size at scale 1
	}{
		{`{"style":"none","title":"x"}`, 320, 160},
		{`{"style":"macos"}`, 320 + 2*framePadX, 160 + frameTitleBar + framePadTop + framePadBot},
		{`{"title":"t"}`, 320 + 2*framePadX, 160 + frameTitleBar + framePadTop + framePadBot},
	}
	for _, tt := range tests {
		if r := callTool(t, a, "shell_record_start", `{"session_id":"s1","border":`+tt.border+`}`); r.IsError {
			t.Fatalf("border %s: %s", tt.border, resultText(r))
		}
		r := callTool(t, a, "shell_record_stop", `{"session_id":"s1"}`)
		res, ok := r.Structured.(*recordStopResult)
		if r.IsError || !ok {
			t.Fatalf("stop: %s", resultText(r))
		}
		g := readGIF(t, res.GIFPath)
		if g.Config.Width != tt.w || g.Config.Height != tt.h {
			t.Errorf("border %s: GIF %dx%d, want %dx%d", tt.border, g.Config.Width, g.Config.Height, tt.w, tt.h)
		}
	}
}

func TestRecordFormats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format         string
		gifOK, castOK  bool
		wantFile, mime string
		captures       int
		entry          string // the first capture's name and the last segment of uri
	}{
		{"", true, false, "demo.gif", "image/gif", 1, "demo"},
		{"gif", true, false, "demo.gif", "image/gif", 1, "demo"},
		{"cast", false, true, "demo.cast", "application/x-asciicast", 1, "demo.cast"},
		{"both", true, true, "demo.gif", "image/gif", 2, "demo"},
	}
	for _, tt := range tests {
		t.Run("format="+tt.format, func(t *testing.T) {
			a := newRecApp(t)
			s := addRecSession(a, "s1", 40, 10)
			r := callTool(t, a, "shell_record_start", `{"session_id":"s1","name":"first","fps":5}`)
			if r.IsError {
				t.Fatalf("start: %s", r.Text)
			}
			if !isRecording(a, s) {
				t.Errorf("IsRecording false after start")
			}
			args, _ := json.Marshal(map[string]string{"session_id": "s1", "name": "demo", "format": tt.format})
			r = callTool(t, a, "shell_record_stop", string(args))
			if r.IsError {
				t.Fatalf("stop: %s", r.Text)
			}
			res := r.Structured.(*recordStopResult)
			if res.Filename != tt.wantFile || res.URI != "session://s1/recordings/"+tt.entry || res.FrameCount < 1 || res.Bytes <= 0 {
				t.Errorf("result %+v", res)
			}
			dir := filepath.Join(a.cfg.OutputDir, "s1")
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if got := strings.Join(names, " "); strings.Contains(got, ".part") {
				t.Errorf("part files left behind: %s", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "demo.gif")); (err == nil) != tt.gifOK {
				t.Errorf("demo.gif exists = %v, want %v", err == nil, tt.gifOK)
			}
			if _, err := os.Stat(filepath.Join(dir, "demo.cast")); (err == nil) != tt.castOK {
				t.Errorf("demo.cast exists = %v, want %v", err == nil, tt.castOK)
			}
			if tt.gifOK {
				if res.GIFPath != filepath.Join(dir, "demo.gif") {
					t.Errorf("gif_path %q", res.GIFPath)
				}
				f, _ := os.ReadFile(res.GIFPath)
				g, err := gif.DecodeAll(bytes.NewReader(f))
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				if g.Config.Width != 40*8 || g.Config.Height != 10*16 {
					t.Errorf("gif is %dx%d, want %dx%d (scale 1)", g.Config.Width, g.Config.Height, 40*8, 10*16)
				}
			}
			if tt.castOK {
				checkCastFile(t, res.CastPath, 40, 10)
			}
			recs := s.Recordings()
			if len(recs) != tt.captures || recs[0].Name != tt.entry || recs[0].MimeType != tt.mime || recs[0].Bytes <= 0 {
				t.Errorf("recordings %+v", recs)
			}
			if tt.captures == 2 && (recs[1].URI != "session://s1/recordings/demo.cast" || recs[1].MimeType != "application/x-asciicast") {
				t.Errorf("cast capture %+v", recs[1])
			}
			if isRecording(a, s) {
				t.Errorf("IsRecording true after stop")
			}
			// The session can record again.
			if r := callTool(t, a, "shell_record_start", `{"session_id":"s1"}`); r.IsError {
				t.Fatalf("second start: %s", r.Text)
			}
			a.tools.finishRecordings(s)
			if recs := s.Recordings(); len(recs) != tt.captures+2 || recs[tt.captures].Name != "recording-1" {
				t.Errorf("after finishRecordings: %+v", recs)
			}
			for _, ext := range []string{".gif", ".cast"} {
				if _, err := os.Stat(filepath.Join(dir, "recording-1"+ext)); err != nil {
					t.Errorf("finishRecordings kept no %s: %v", ext, err)
				}
			}
			// Saving under a used name replaces the entry, not adds one.
			callTool(t, a, "shell_record_start", `{"session_id":"s1"}`)
			if r := callTool(t, a, "shell_record_stop", string(args)); r.IsError {
				t.Fatalf("stop again: %s", r.Text)
			}
			if recs := s.Recordings(); len(recs) != tt.captures+2 {
				t.Errorf("saved twice as demo: %d recordings, want %d", len(recs), tt.captures+2)
			}
		})
	}
}

// checkCastFile parses an asciicast v2 file line by line and returns its
// events' output concatenated.
func checkCastFile(t *testing.T, path string, cols, rows int) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() {
		t.Fatalf("%s: empty", path)
	}
	var h castHeader
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
		t.Fatalf("header %q: %v", sc.Text(), err)
	}
	if h.Version != 2 || h.Width != cols || h.Height != rows || h.Env["TERM"] != "xterm-256color" || h.Timestamp == 0 {
		t.Errorf("header %+v", h)
	}
	var out []byte
	last := 0.0
	for n := 2; sc.Scan(); n++ {
		var ev []any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("line %d %q: %v", n, sc.Text(), err)
		}
		sec, ok1 := ev[0].(float64)
		kind, ok2 := ev[1].(string)
		data, ok3 := ev[2].(string)
		if !ok1 || !ok2 || !ok3 || (kind != "o" && kind != "r") {
			t.Fatalf("line %d: bad event %q", n, sc.Text())
		}
		if sec < last {
			t.Errorf("line %d: time %v goes back from %v", n, sec, last)
		}
		last = sec
		if kind == "o" {
			out = append(out, data...)
		}
	}
	return out
}

// fakeScreen is a frame source for the capture goroutine that the test
// changes step by step (listingScreen content), with mode 2026 under its
// control. It tells the test when the capture goroutine has looked at a
// step (seen), so a script orders its changes by the recorder's looks,
// not by sleeps.
type fakeScreen struct {
	mu      sync.Mutex
	cols    int // 0 = 40
	step    int
	gen     uint64
	sync    bool
	changed chan struct{}
	shot    chan struct{}   // closed and replaced at every snapshot
	looked  map[int]bool    // the steps snapshots were taken of
	done    <-chan struct{} // the recorder's: closed once it stopped
}

func newFakeScreen() *fakeScreen {
	return &fakeScreen{changed: make(chan struct{}), shot: make(chan struct{}), looked: map[int]bool{}}
}

// seen waits until the capture goroutine has taken a snapshot of step
// (it captures it next, unless a synchronized update holds it back) or
// has stopped.
func (f *fakeScreen) seen(t *testing.T, step int) {
	t.Helper()
	for {
		f.mu.Lock()
		looked, shot := f.looked[step], f.shot
		f.mu.Unlock()
		if looked {
			return
		}
		select {
		case <-shot:
		case <-f.done:
			return
		case <-time.After(stuckAfter):
			t.Fatalf("the recorder never looked at step %d", step)
		}
	}
}

// set shows screen step; sync is mode 2026; bump says whether anything
// visible changed (the generation moves).
func (f *fakeScreen) set(step int, sync, bump bool) {
	f.mu.Lock()
	f.step, f.sync = step, sync
	if bump {
		f.gen++
		close(f.changed)
		f.changed = make(chan struct{})
	}
	f.mu.Unlock()
}

func (f *fakeScreen) snapshot() *Snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := listingScreen(cmp.Or(f.cols, 40), 8, f.step)
	s.Generation, s.Modes.SyncOutput = f.gen, f.sync
	f.looked[f.step] = true
	close(f.shot)
	f.shot = make(chan struct{})
	return s
}

func (f *fakeScreen) waitChange(ctx context.Context, since uint64) (uint64, error) {
	for {
		f.mu.Lock()
		gen, ch := f.gen, f.changed
		f.mu.Unlock()
		if gen > since {
			return gen, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return gen, ctx.Err()
		}
	}
}

// recordFake runs a real capture goroutine on a fakeScreen through script
// and returns the decoded GIF's frames as shown.
func recordFake(t *testing.T, fps int, script func(f *fakeScreen)) []*image.RGBA {
	t.Helper()
	shown, _ := recordFakeLimited(t, fps, 0, 0, script)
	return shown
}

// recordFakeLimited is recordFake with capture limits; it returns the stop
// result too.
func recordFakeLimited(t *testing.T, fps, maxFrames int, maxDur time.Duration, script func(f *fakeScreen)) ([]*image.RGBA, *recordStopResult) {
	t.Helper()
	a := newRecApp(t)
	s := addRecSession(a, "s1", 40, 8)
	f := newFakeScreen()
	r := &recorder{store: a.store, recs: a.tools.recs, logf: a.tools.logf, sess: s, name: "fake", fps: fps, scale: 1, theme: themeList[0],
		snapshot: f.snapshot, snapshotLocked: f.snapshot, waitChange: f.waitChange, maxFrames: maxFrames, maxDur: maxDur}
	a.tools.recs.reserve(s, r)
	if err := r.start(); err != nil {
		t.Fatal(err)
	}
	r.ready = make(chan struct{})
	close(r.ready)
	f.done = r.done
	script(f)
	res, err := r.finish("both", "fake")
	if err != nil {
		t.Fatal(err)
	}
	g := readGIF(t, res.GIFPath)
	if len(g.Image) != res.FrameCount {
		t.Errorf("frame_count %d, GIF has %d", res.FrameCount, len(g.Image))
	}
	return composite(t, g), res
}

// frameOf renders listing step as the recorder would.
func frameOf(step int) *image.RGBA {
	return Render(listingScreen(40, 8, step), RenderOptions{Theme: themeList[0], Scale: 1})
}

func TestRecorderCapture(t *testing.T) {
	t.Parallel()
	t.Run("burst keeps the final state", func(t *testing.T) {
		t.Parallel()
		var took time.Duration
		shown := recordFake(t, 10, func(f *fakeScreen) {
			t0 := time.Now()
			for i := 1; i <= 40; i++ {
				f.set(i, false, true)
				time.Sleep(2 * time.Millisecond)
			}
			took = time.Since(t0)
			f.seen(t, 40)
		})
		// 40 changes at 10 fps: a frame per 100 ms of the burst (plus the
		// first and the last), not 40.
		if max := int(took/(100*time.Millisecond)) + 3; len(shown) > max {
			t.Errorf("%d frames for a %v burst at 10 fps, want at most %d", len(shown), took, max)
		}
		if d := pixelDiff(shown[len(shown)-1], frameOf(40)); d != 0 {
			t.Errorf("last frame is not the final screen: %d pixels differ", d)
		}
		for i := 1; i < len(shown); i++ {
			if bytes.Equal(shown[i].Pix, shown[i-1].Pix) {
				t.Errorf("frames %d and %d identical", i-1, i)
			}
		}
	})
	t.Run("synchronized update held back", func(t *testing.T) {
		t.Parallel()
		shown := recordFake(t, 30, func(f *fakeScreen) {
			f.set(1, true, true) // inside a 2026 update: half-drawn screens
			f.seen(t, 1)
			f.set(2, true, true)
			f.seen(t, 2)
			f.set(3, false, false) // the update ends; nothing else changes
			f.seen(t, 3)
		})
		want3 := frameOf(3)
		for i, fr := range shown {
			if pixelDiff(fr, frameOf(1)) == 0 || pixelDiff(fr, frameOf(2)) == 0 {
				t.Errorf("frame %d shows a screen from inside the synchronized update", i)
			}
		}
		if d := pixelDiff(shown[len(shown)-1], want3); d != 0 {
			t.Errorf("the screen after the update is missing: %d pixels differ", d)
		}
	})
	t.Run("stop captures the state during an update", func(t *testing.T) {
		t.Parallel()
		shown := recordFake(t, 10, func(f *fakeScreen) {
			f.set(5, true, true)
			f.seen(t, 5) // held back: the update has not ended
		})
		if d := pixelDiff(shown[len(shown)-1], frameOf(5)); d != 0 {
			t.Errorf("final frame: %d pixels differ", d)
		}
	})
}

func TestRecorderLimits(t *testing.T) {
	t.Parallel()
	t.Run("frames", func(t *testing.T) {
		t.Parallel()
		shown, res := recordFakeLimited(t, 30, 4, 0, func(f *fakeScreen) {
			for i := 1; i <= 10; i++ {
				f.set(i, false, true)
				f.seen(t, i) // captured, or the recorder stopped at its limit
			}
		})
		if len(shown) != 4 || !strings.Contains(res.Note, "4-frame limit") {
			t.Errorf("%d frames, note %q; want 4 and the limit named", len(shown), res.Note)
		}
	})
	t.Run("duration", func(t *testing.T) {
		t.Parallel()
		shown, res := recordFakeLimited(t, 30, 0, 200*time.Millisecond, func(f *fakeScreen) {
			f.set(1, false, true)
			select { // the limit passes, and the recorder stops by itself
			case <-f.done:
			case <-time.After(stuckAfter):
				t.Fatal("the recorder did not stop at its duration limit")
			}
			f.set(2, false, true)
		})
		if !strings.Contains(res.Note, "200ms limit") {
			t.Errorf("note %q does not name the limit", res.Note)
		}
		for i, fr := range shown {
			if pixelDiff(fr, frameOf(2)) == 0 {
				t.Errorf("frame %d shows a screen from after the limit", i)
			}
		}
	})
}

// TestRecorderResize: a screen resized while recording keeps the GIF's
// size (cropped or padded with the background) and gives the cast an "r"
// event.
func TestRecorderResize(t *testing.T) {
	t.Parallel()
	shown, res := recordFakeLimited(t, 20, 0, 0, func(f *fakeScreen) {
		f.mu.Lock()
		f.cols = 30
		f.mu.Unlock()
		f.set(1, false, true)
		f.seen(t, 1)
		f.mu.Lock()
		f.cols = 50
		f.mu.Unlock()
		f.set(2, false, true)
		f.seen(t, 2)
	})
	cast, err := os.ReadFile(res.CastPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(cast, []byte(`, "r", "30x8"]`)) || !bytes.Contains(cast, []byte(`, "r", "50x8"]`)) {
		t.Errorf("cast lacks the resize events:\n%s", cast)
	}
	want := image.Rect(0, 0, 40*8, 8*16)
	for i, fr := range shown {
		if fr.Rect != want {
			t.Errorf("frame %d is %v, want %v", i, fr.Rect, want)
		}
	}
	// The 50-column screen cropped to 40 columns.
	big := Render(listingScreen(50, 8, 2), RenderOptions{Theme: themeList[0], Scale: 1})
	last := shown[len(shown)-1]
	crop := image.NewRGBA(want)
	draw.Draw(crop, want, big, image.Point{}, draw.Src)
	if d := pixelDiff(last, crop); d != 0 {
		t.Errorf("last frame differs from the cropped screen in %d pixels", d)
	}
}

// TestRecordStartStopRace races starts with stops (a shell_stop arriving
// while shell_record_start is still creating files): no panic, no hang,
// nothing left recording or half written.
func TestRecordStartStopRace(t *testing.T) {
	t.Parallel()
	a := newRecApp(t)
	s := addRecSession(a, "s1", 20, 4)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() { callTool(t, a, "shell_record_start", `{"session_id":"s1"}`) })
		wg.Go(func() { a.tools.finishRecordings(s) })
		wg.Go(func() { callTool(t, a, "shell_record_stop", `{"session_id":"s1","format":"cast"}`) })
	}
	wg.Wait()
	a.tools.finishRecordings(s)
	if isRecording(a, s) {
		t.Errorf("still recording")
	}
	entries, _ := os.ReadDir(filepath.Join(a.cfg.OutputDir, "s1"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("part file left: %s", e.Name())
		}
	}
}

// TestRecordLimitEndsRecording: a recording that reaches a cap is saved
// there and then: the session stops reporting it as recording and says
// why, its files are listed, subscribers hear of it as for a stop, and a
// later shell_record_stop returns it (once) instead of an error.
func TestRecordLimitEndsRecording(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		frames int
		dur    time.Duration
		want   string // in the note
	}{
		{"frames", 1, 10 * time.Minute, "1-frame limit"},
		{"duration", 20000, time.Nanosecond, "1ns limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newRecApp(t)
			a.tools.rec = recLimits{frames: tc.frames, dur: tc.dur}
			a.hub.res.interval = time.Millisecond
			s := addRecSession(a, "s1", 20, 4)
			var mu sync.Mutex
			var got []string // method and uri of each notification
			conn := testConn(a, func(method string, params any) {
				uri := ""
				if p, ok := params.(map[string]string); ok {
					uri = p["uri"]
				}
				mu.Lock()
				got = append(got, method+" "+uri)
				mu.Unlock()
			})
			for _, uri := range []string{"session://s1/recordings", "session://s1/info"} {
				if _, err := conn.resourcesSubscribe(context.Background(), json.RawMessage(`{"uri":"`+uri+`"}`)); err != nil {
					t.Fatal(err)
				}
			}
			if r := callTool(t, a, "shell_record_start", `{"session_id":"s1","name":"lim"}`); r.IsError {
				t.Fatal(resultText(r))
			}
			// The capture goroutine saves the recording by itself; what a
			// stop sends tells when it has.
			want := []string{"notifications/resources/list_changed ", "notifications/resources/updated session://s1/recordings"}
			for deadline := time.Now().Add(stuckAfter); ; time.Sleep(5 * time.Millisecond) {
				mu.Lock()
				n := 0
				for _, w := range want {
					if slices.Contains(got, w) {
						n++
					}
				}
				seen := slices.Clone(got)
				mu.Unlock()
				if n == len(want) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the limit did not end the recording: notifications %q, want %q", seen, want)
				}
			}

			if isRecording(a, s) {
				t.Errorf("IsRecording after the limit")
			}
			for _, uri := range []string{"sessions://list", "session://s1/info"} {
				text := readText(t, a, uri)
				if !strings.Contains(text, `"recording":false`) || !strings.Contains(text, tc.want) ||
					!strings.Contains(text, "session://s1/recordings/lim") {
					t.Errorf("%s = %s; want recording false and recording_ended naming the limit and the file", uri, text)
				}
			}
			if text := readText(t, a, "session://s1/recordings"); !strings.Contains(text, `"uri":"session://s1/recordings/lim"`) ||
				!strings.Contains(text, `"uri":"session://s1/recordings/lim.cast"`) {
				t.Errorf("recordings = %s; want the GIF and the cast", text)
			}

			r := callTool(t, a, "shell_record_stop", `{"session_id":"s1","format":"gif","name":"other"}`)
			if r.IsError {
				t.Fatalf("shell_record_stop after the limit: %s", resultText(r))
			}
			res := r.Structured.(*recordStopResult)
			if !strings.Contains(res.Note, tc.want) || !strings.Contains(res.Note, `name "other" and format "gif" given here came too late`) {
				t.Errorf("note %q: want the limit and the arguments not applied", res.Note)
			}
			for _, p := range []string{res.GIFPath, res.CastPath} {
				if _, err := os.Stat(p); p == "" || err != nil {
					t.Errorf("saved file %q: %v", p, err)
				}
			}
			if text := readText(t, a, "sessions://list"); strings.Contains(text, "recording_ended") {
				t.Errorf("recording_ended still shown after shell_record_stop reported it: %s", text)
			}
			if r := callTool(t, a, "shell_record_stop", `{"session_id":"s1"}`); !r.IsError || !strings.Contains(resultText(r), "not recording") {
				t.Errorf("second shell_record_stop: %s; want not recording", resultText(r))
			}
			a.tools.rec = recLimits{}
			if r := callTool(t, a, "shell_record_start", `{"session_id":"s1"}`); r.IsError || !isRecording(a, s) {
				t.Errorf("a new recording after the limit: %s", resultText(r))
			}
			a.tools.finishRecordings(s)
		})
	}
}

// readText reads a text resource.
func readText(t *testing.T, a *App, uri string) string {
	t.Helper()
	c, err := a.hub.readResource(uri)
	if err != nil || c.Text == nil {
		t.Fatalf("read %s: %v", uri, err)
	}
	return *c.Text
}

// TestRecordingName: shell_record_start and shell_record_stop leave a
// file extension out of a recording's name alike.
func TestRecordingName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"demo", "demo"}, {"demo.gif", "demo"}, {"demo.cast", "demo"}, {"demo.CAST", "demo"},
		{" demo.cast ", "demo"}, {"v1.2", "v1.2"}, {".cast", ""},
	} {
		got, err := recordingName(tt.in)
		if tt.want == "" {
			if err == nil {
				t.Errorf("recordingName(%q) = %q, want an error", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("recordingName(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}
