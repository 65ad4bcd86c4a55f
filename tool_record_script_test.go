package main

import (
	"bytes"
	"fmt"
	"image"
	"os"
	"strings"
	"testing"
	"time"
)

// feedSession hands p to the session's emulator and listeners as the PTY
// reader would, and wakes the waiters.
func feedSession(s *Session, p string) {
	s.mu.Lock()
	s.feedLocked([]byte(p), time.Now())
	s.signalLocked()
	s.mu.Unlock()
}

// checkpoint is the screen at a moment when it had been still for a while.
type checkpoint struct {
	at   time.Duration // since the recording started
	snap *Snapshot
}

// TestRecordScriptedSession records a scripted terminal session (a command
// typed slowly, a pause, clear, a coloured listing) fed straight into the
// session's emulator, then decodes the GIF and the cast and checks them
// against the screens seen while it ran.
func TestRecordScriptedSession(t *testing.T) {
	t.Parallel()
	a := newRecApp(t)
	s := addRecSession(a, "s1", 60, 16)
	feedSession(s, "\x1b[1;32muser@host\x1b[0m:\x1b[1;34m~\x1b[0m$ ")
	Render(s.Snapshot(), RenderOptions{Scale: 1}) // load the font before the clock starts
	r := callTool(t, a, "shell_record_start", `{"session_id":"s1","fps":10}`)
	if r.IsError {
		t.Fatal(r.Text)
	}
	t0 := runningRecorder(a, s).started // the GIF's time 0
	var cps []checkpoint
	settle := func(d time.Duration) {
		time.Sleep(d)
		cps = append(cps, checkpoint{time.Since(t0), s.Snapshot()})
		time.Sleep(100 * time.Millisecond)
	}
	settle(300 * time.Millisecond)
	for _, c := range "ls --color" {
		feedSession(s, string(c)) // the shell echoes each key as it is typed
		time.Sleep(70 * time.Millisecond)
	}
	settle(400 * time.Millisecond)
	feedSession(s, "\r\n\x1b[H\x1b[2J\x1b[1;32muser@host\x1b[0m:\x1b[1;34m~\x1b[0m$ ")
	settle(400 * time.Millisecond)
	for i := range 12 {
		feedSession(s, fmt.Sprintf("\x1b[0%d;3%dmentry-%02d\x1b[0m  \x1b[38;5;%dm%6d\x1b[0m  \x1b[38;2;200;%d;80mnote\x1b[0m\r\n",
			i%2, 1+i%6, i, 16+i*17, i*1234, i*20))
		time.Sleep(15 * time.Millisecond)
	}
	feedSession(s, "\x1b[1;32muser@host\x1b[0m:\x1b[1;34m~\x1b[0m$ ")
	settle(1200 * time.Millisecond)
	final := s.Snapshot()
	stopCalled := time.Since(t0)
	r = callTool(t, a, "shell_record_stop", `{"session_id":"s1","format":"both","name":"script"}`)
	elapsed := time.Since(t0)
	if r.IsError {
		t.Fatal(r.Text)
	}
	res := r.Structured.(*recordStopResult)
	t.Logf("scripted session, 60x16 at scale 1: %d frames, %d ms, %d bytes (GIF %d)", res.FrameCount, res.DurationMS, res.Bytes, fileSize(res.GIFPath))

	g := readGIF(t, res.GIFPath)
	if len(g.Image) != res.FrameCount {
		t.Errorf("frame_count %d, GIF has %d frames", res.FrameCount, len(g.Image))
	}
	// Typing, clear and listing give several frames; fps bounds them.
	if max := int(elapsed.Seconds()*10) + 2; len(g.Image) < 6 || len(g.Image) > max {
		t.Errorf("%d frames for %v at 10 fps, want 6 to %d", len(g.Image), elapsed, max)
	}
	total := 0
	for _, d := range g.Delay {
		if d < gifMinDelay {
			t.Errorf("delay %d/100 s below the minimum", d)
		}
		total += d
	}
	gifDur := time.Duration(total) * 10 * time.Millisecond
	// The GIF ends with the final frame, captured between the stop call and
	// its return; GIF delays round to 10 ms.
	if diff := (gifDur - elapsed).Abs(); diff > elapsed/20 || gifDur < stopCalled-20*time.Millisecond || gifDur > elapsed+20*time.Millisecond {
		t.Errorf("GIF plays %v, the recording took %v (stop called at %v): off by more than 5%%", gifDur, elapsed, stopCalled)
	}
	if res.DurationMS != gifDur.Milliseconds() {
		t.Errorf("duration_ms %d, delays sum to %v", res.DurationMS, gifDur)
	}
	shown := composite(t, g)
	for i := 1; i < len(shown); i++ {
		if bytes.Equal(shown[i].Pix, shown[i-1].Pix) {
			t.Errorf("frames %d and %d are identical", i-1, i)
		}
	}
	// Each checkpoint's screen is the frame on show at that moment.
	opt := RenderOptions{Theme: themeList[0], Scale: 1}
	for k, cp := range cps {
		i, at := 0, 0
		for i < len(g.Delay)-1 && time.Duration(at+g.Delay[i])*10*time.Millisecond <= cp.at {
			at += g.Delay[i]
			i++
		}
		if d := pixelDiff(shown[i], Render(cp.snap, opt)); d != 0 {
			t.Errorf("checkpoint %d at %v: frame %d differs from the screen in %d pixels", k, cp.at, i, d)
			savePNGForDebug(t, fmt.Sprintf("cp%d", k), shown[i])
		}
	}
	if d := pixelDiff(shown[len(shown)-1], Render(final, opt)); d != 0 {
		t.Errorf("last frame differs from the final screen in %d pixels", d)
	}

	// The cast replays to the final screen.
	out := checkCastFile(t, res.CastPath, 60, 16)
	replay := NewTerminal(60, 16, 0)
	replay.Write(out)
	if d := sameScreen(replay.Snapshot(), final); d != "" {
		t.Errorf("cast replay differs from the final screen: %s", d)
	}
	if *update {
		savePNGForDebug(t, "last", shown[len(shown)-1])
	}
}

// savePNGForDebug writes img under the test's temp directory and logs where.
func savePNGForDebug(t *testing.T, name string, img *image.RGBA) {
	p := t.TempDir() + "/" + name + ".png"
	f, err := os.Create(p)
	if err != nil {
		return
	}
	defer f.Close()
	encodePNG(f, img)
	t.Logf("wrote %s", p)
}

// TestRecordRealShell records a shell in a real PTY driven through the
// tools (typing with type_delay_ms), then stops the session while still
// recording: the recording is saved, GIF and cast, and the cast replays to
// the last screen.
func TestRecordRealShell(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	r, m := call(t, a, "shell_start", map[string]any{"command": "sh", "cols": 50, "rows": 12,
		"env": map[string]string{"PS1": "$ ", "ENV": ""}})
	if r.IsError {
		t.Fatal(r.Text)
	}
	id := m["shell_session_id"].(string)
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "$", "timeout_ms": 5000})
	mustCall(t, a, "shell_record_start", map[string]any{"session_id": id, "name": "real", "fps": 20})
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": `printf '\033[1;35mmagenta\033[0m\n'` + "\r",
		"type_delay_ms": 10, "wait_for": "magenta", "timeout_ms": 5000})
	s, err := a.tools.session(id)
	if err != nil {
		t.Fatal(err)
	}
	if !isRecording(a, s) {
		t.Fatal("not recording")
	}
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_idle_ms": 200, "timeout_ms": 5000})
	before := s.Text(false)
	mustCall(t, a, "shell_stop", map[string]any{"session_id": id})
	if isRecording(a, s) {
		t.Errorf("still recording after shell_stop")
	}
	if r, _ := call(t, a, "shell_record_stop", map[string]any{"session_id": id}); !r.IsError || !strings.Contains(r.Text, "session://"+id+"/recordings") {
		t.Errorf("shell_record_stop after shell_stop: %v %q, want an error pointing at the saved recording", r.IsError, r.Text)
	}
	recs := s.Recordings()
	if len(recs) != 2 || recs[0].MimeType != "image/gif" || recs[1].MimeType != "application/x-asciicast" {
		t.Fatalf("recordings after shell_stop: %+v", recs)
	}
	g := readGIF(t, recs[0].Path)
	// Typing shows up as several frames; the prompt, the command and its
	// output appear in the last one.
	if len(g.Image) < 3 || recs[0].FrameCount != len(g.Image) {
		t.Errorf("%d frames (frame_count %d)", len(g.Image), recs[0].FrameCount)
	}
	out := checkCastFile(t, recs[1].Path, 50, 12)
	replay := NewTerminal(50, 12, 0)
	replay.Write(out)
	s.mu.Lock()
	want := strings.Join(s.term.Lines(), "\n")
	s.mu.Unlock()
	if got := strings.Join(replay.Lines(), "\n"); got != want {
		t.Errorf("cast replays to\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(before, "magenta") {
		t.Errorf("screen before stop lacks the output: %q", before)
	}
}
