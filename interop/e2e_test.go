package interop

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// needProgram skips when a program is missing, except under CI, where
// .ci/run installs it and a skip would hide a missing install step.
func needProgram(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed; .ci/run must apt-get install it", name)
		}
		t.Skipf("%s is not installed (apt-get install -y %s)", name, name)
	}
}

// TestE2EBash: a coloured ls, a failing command and its exit code, history
// through the Up key, and the shell's own exit code when it ends.
func TestE2EBash(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, "subdir"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "plain.txt"), []byte("x\n"), 0o644))
	id := s.startBash(dir)

	// The same listing without and with colour: the coloured screenshot
	// has more colours (directory blue, executable green).
	s.send(id, `ls --color=never; echo ls-$((1+1))\r`, "ls-2")
	plain := s.shotColours(id, "ls-plain")
	s.send(id, `clear; ls --color=always; echo ls-$((1+2))\r`, "ls-3")
	for _, name := range []string{"subdir", "run.sh", "plain.txt"} {
		if !strings.Contains(s.screen(id), name) {
			t.Errorf("ls output lacks %s:\n%s", name, s.screen(id))
		}
	}
	coloured := s.shotColours(id, "ls-colour")
	if coloured <= plain {
		t.Errorf("ls --color=always screenshot has %d colours, the plain one %d: want more", coloured, plain)
	}

	// A failing command: its status is visible.
	s.send(id, `ls /nonexistent-ttywright; echo "rc=$?"\r`, "rc=2")
	if !strings.Contains(s.screen(id), "No such file") {
		t.Errorf("ls error message missing:\n%s", s.screen(id))
	}

	// History: clear the screen, then Up twice brings back the echo.
	s.send(id, `echo hist-$((5*5))\r`, "hist-25")
	s.send(id, `clear\r`, "")
	s.settle(id, 200)
	s.keys(id, []string{"Up", "Up"}, "echo hist-$((5*5))")
	r := s.keys(id, []string{"Enter"}, "hist-25")
	if r["exited"] == true {
		t.Fatalf("shell exited after Enter: %v", r)
	}

	// Jobs left behind: one in the shell's session, one that escaped it with
	// setsid. Neither may outlive the server (checked at cleanup).
	s.send(id, `sleep 300 & echo "job=$!"\r`, "/job=[0-9]+/")
	s.send(id, `setsid sleep 301 & echo "escaped=$!"\r`, "/escaped=[0-9]+/")
	for _, re := range []string{`job=(\d+)`, `escaped=(\d+)`} {
		m := regexp.MustCompile(re).FindStringSubmatch(s.screen(id))
		if m == nil {
			t.Fatalf("no %s on screen:\n%s", re, s.screen(id))
		}
		pid, _ := strconv.Atoi(m[1])
		s.pidsMu.Lock()
		s.pids = append(s.pids, pid)
		s.pidsMu.Unlock()
	}

	// The shell's exit status comes back through the wait/exit reporting.
	s.send(id, `exit 7\r`, "")
	r = s.call("shell_wait", map[string]any{"session_id": id, "wait_for": "/never-printed-\\d/", "timeout_ms": 5000})
	if r["exited"] != true || r["exit_code"] != 7.0 {
		t.Errorf("after exit 7: shell_wait = %v, want exited true and exit_code 7", r)
	}
	if info, _ := readJSON(t, s, "session://"+id+"/info").(map[string]any); info["exited"] != true || info["exit_code"] != 7.0 {
		t.Errorf("session info after exit 7 = %v, want exited true and exit_code 7", info)
	}
	// A command that fails on its own, as a session: exit code 2.
	id2 := s.start("/bin/ls", []string{"/nonexistent-ttywright"}, nil)
	r = s.call("shell_wait", map[string]any{"session_id": id2, "wait_for": "/never-printed-\\d/", "timeout_ms": 5000})
	if r["exited"] != true || r["exit_code"] != 2.0 {
		t.Errorf("ls of a missing file as a session: shell_wait = %v, want exited true and exit_code 2", r)
	}
}

// TestE2EVim: a new file, insert mode, two lines typed, :wq; the file has
// exactly those lines; screenshots show -- INSERT -- only in insert mode.
// Scenario 5 rides along: the typing is recorded, and the GIF's frames show
// the text appearing.
func TestE2EVim(t *testing.T) {
	t.Parallel()
	needProgram(t, "vim")
	s := startServer(t)
	dir := t.TempDir()
	id := s.start("/bin/bash", []string{"--norc", "--noprofile", "-i"}, map[string]any{
		"cwd": dir, "cols": 80, "rows": 24,
		"env": map[string]any{"PS1": prompt, "HISTFILE": "/dev/null", "LC_ALL": "C.UTF-8"},
	})
	s.wait(id, promptWait)
	s.send(id, `vim --clean -n notes.txt\r`, "[New")
	s.settle(id, 300)
	if txt := s.shotText(id, "vim-normal"); strings.Contains(txt, "-- INSERT --") {
		t.Errorf("normal mode screenshot shows -- INSERT --:\n%s", txt)
	}

	s.call("shell_record_start", map[string]any{"session_id": id, "fps": 10, "name": "vim-typing"})
	s.send(id, "i", "-- INSERT --")
	if txt := s.shotText(id, "vim-insert"); !strings.Contains(txt, "-- INSERT --") {
		t.Errorf("insert mode screenshot lacks -- INSERT --:\n%s", txt)
	}
	lines := []string{"Hello from ttywright.", "Second line, typed key by key."}
	for i, l := range lines {
		in := l
		if i < len(lines)-1 {
			in += `\r`
		}
		// The echo of typed input does not satisfy wait_for (so that a typed
		// command line cannot end the wait for its output): wait for quiet.
		s.call("shell_send", map[string]any{"session_id": id, "input": in, "type_delay_ms": 40,
			"wait_idle_ms": 300, "timeout_ms": waitTimeout.Milliseconds()})
		if scr := s.screen(id); !strings.Contains(scr, l) {
			t.Fatalf("typed %q, not on screen:\n%s", l, scr)
		}
	}
	s.keys(id, []string{"Escape"}, "")
	s.waitAbsent(id, "-- INSERT --")
	rec := s.call("shell_record_stop", map[string]any{"session_id": id, "name": "vim-typing"})
	if txt := s.shotText(id, "vim-escaped"); strings.Contains(txt, "-- INSERT --") || !strings.Contains(txt, lines[1]) {
		t.Errorf("after Escape the screenshot shows -- INSERT -- or lacks the text:\n%s", txt)
	}

	s.send(id, `:wq\r`, promptWait)
	got, err := os.ReadFile(filepath.Join(dir, "notes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(lines, "\n") + "\n"; string(got) != want {
		t.Errorf("notes.txt = %q, want %q", got, want)
	}
	if scr := s.screen(id); !strings.Contains(scr, "vim --clean -n notes.txt") || strings.Contains(scr, "-- INSERT --") {
		t.Errorf("after :wq the shell screen is not back:\n%s", scr)
	}

	t.Run("recording", func(t *testing.T) {
		checkTypingGIF(t, rec["gif_path"].(string), 80, lines)
	})
	s.call("shell_stop", map[string]any{"session_id": id})
}

// checkTypingGIF decodes the recording of the vim typing and checks that
// the text appears progressively: the foreground ink on screen row 0 grows
// over many frames, and row 1 gets text only once row 0 is complete.
func checkTypingGIF(t *testing.T, path string, cols int, lines []string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := gif.DecodeAll(f)
	if err != nil {
		t.Fatalf("decoding %s: %v", path, err)
	}
	frames := composite(g)
	if len(frames) < 5 {
		t.Fatalf("recording has %d frames, want many while typing", len(frames))
	}
	w := g.Config.Width
	scale := w / (cols * 8)
	if scale < 1 || w%(cols*8) != 0 {
		t.Fatalf("GIF width %d is not a multiple of %d columns of 8 pixels", w, cols)
	}
	cellH := 16 * scale
	last := frames[len(frames)-1]
	bg := dominant(last, last.Bounds())
	// The text colour: the commonest non-background colour in row 0 at the end.
	fg := dominantExcept(last, image.Rect(0, 0, w, cellH), bg)
	ink := func(img *image.RGBA, row int) int {
		n := 0
		r := image.Rect(0, row*cellH, w, (row+1)*cellH)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if img.RGBAAt(x, y) == fg {
					n++
				}
			}
		}
		return n
	}
	var levels []int
	prev0, final0 := -1, ink(last, 0)
	if ink(frames[0], 0) >= final0 {
		t.Errorf("first frame already shows the first line (ink %d of %d)", ink(frames[0], 0), final0)
	}
	for i, fr := range frames {
		i0, i1 := ink(fr, 0), ink(fr, 1)
		if i0 < prev0 {
			t.Errorf("frame %d: text on row 0 shrank (%d after %d)", i, i0, prev0)
		}
		if i0 != prev0 {
			levels = append(levels, i0)
		}
		if i1 > 0 && i0 < final0 {
			t.Errorf("frame %d: row 1 has text before row 0 is complete", i)
		}
		prev0 = i0
	}
	t.Logf("%d frames at scale %d; text on row 0 grew through %v", len(frames), scale, levels)
	if len(levels) < 5 {
		t.Errorf("row 0 text grew in %d steps over %d frames, want the typing visible in many frames", len(levels), len(frames))
	}
	if ink(last, 1) == 0 {
		t.Errorf("the last frame lacks the second line %q", lines[1])
	}
}

// composite plays a GIF's frames onto a canvas, honouring disposal, and
// returns the picture shown after each frame.
func composite(g *gif.GIF) []*image.RGBA {
	bounds := image.Rect(0, 0, g.Config.Width, g.Config.Height)
	canvas := image.NewRGBA(bounds)
	var out []*image.RGBA
	for i, fr := range g.Image {
		var saved *image.RGBA
		disp := byte(0)
		if i < len(g.Disposal) {
			disp = g.Disposal[i]
		}
		if disp == gif.DisposalPrevious {
			saved = image.NewRGBA(bounds)
			draw.Draw(saved, bounds, canvas, image.Point{}, draw.Src)
		}
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
		shown := image.NewRGBA(bounds)
		draw.Draw(shown, bounds, canvas, image.Point{}, draw.Src)
		out = append(out, shown)
		switch disp {
		case gif.DisposalBackground:
			draw.Draw(canvas, fr.Bounds(), image.Transparent, image.Point{}, draw.Src)
		case gif.DisposalPrevious:
			canvas = saved
		}
	}
	return out
}

// dominant is the commonest colour in r.
func dominant(img *image.RGBA, r image.Rectangle) color.RGBA {
	return dominantExcept(img, r, color.RGBA{1, 2, 3, 4})
}

func dominantExcept(img *image.RGBA, r image.Rectangle, not color.RGBA) color.RGBA {
	count := map[color.RGBA]int{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if c := img.RGBAAt(x, y); c != not {
				count[c]++
			}
		}
	}
	var best color.RGBA
	n := -1
	for c, k := range count {
		if k > n || k == n && fmt.Sprint(c) < fmt.Sprint(best) {
			best, n = c, k
		}
	}
	return best
}

// TestE2ELess: page a long file with Space, quit with q, and the shell
// screen comes back.
func TestE2ELess(t *testing.T) {
	t.Parallel()
	needProgram(t, "less")
	s := startServer(t)
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "line %04d\n", i)
	}
	must(t, os.WriteFile(filepath.Join(dir, "long.txt"), []byte(b.String()), 0o644))
	id := s.start("/bin/bash", []string{"--norc", "--noprofile", "-i"}, map[string]any{
		"cwd": dir, "cols": 80, "rows": 24,
		"env": map[string]any{"PS1": prompt, "HISTFILE": "/dev/null", "LESS": "", "LESSHISTFILE": "-"},
	})
	s.wait(id, promptWait)
	s.send(id, `echo before-less-$((2+2))\r`, "before-less-4")
	before := s.screen(id)

	// 24 rows: 23 lines of text and less's prompt line.
	s.send(id, `less long.txt\r`, "line 0023")
	if scr := s.screen(id); !strings.Contains(scr, "line 0001") || strings.Contains(scr, "line 0024") || strings.Contains(scr, "before-less-4") {
		t.Errorf("first page wrong (or not on the alternate screen):\n%s", scr)
	}
	s.keys(id, []string{"Space"}, "line 0046")
	if scr := s.screen(id); strings.Contains(scr, "line 0001") || !strings.Contains(scr, "line 0024") {
		t.Errorf("second page wrong:\n%s", scr)
	}
	s.keys(id, []string{"Space"}, "line 0069")
	s.send(id, "q", "")
	s.waitAbsent(id, "line 0069")
	s.wait(id, promptWait)
	after := s.screen(id)
	if strings.Contains(after, "line 00") || !strings.Contains(after, "before-less-4") {
		t.Errorf("after q the shell screen is not restored:\n%s", after)
	}
	if !strings.HasPrefix(strings.TrimSpace(after), strings.TrimSpace(firstLines(before, 2))) {
		t.Errorf("screen before less:\n%s\nafter:\n%s", before, after)
	}
	s.call("shell_stop", map[string]any{"session_id": id})
}

// TestE2EHtop: htop runs on the alternate screen, a screenshot has several
// colours, q quits and the shell screen is back.
func TestE2EHtop(t *testing.T) {
	t.Parallel()
	needProgram(t, "htop")
	s := startServer(t)
	id := s.start("/bin/bash", []string{"--norc", "--noprofile", "-i"}, map[string]any{
		"cols": 100, "rows": 30,
		"env": map[string]any{"PS1": prompt, "HISTFILE": "/dev/null", "HOME": t.TempDir()},
	})
	s.wait(id, promptWait)
	s.send(id, `echo before-htop-$((1+2))\r`, "before-htop-3")
	s.send(id, `htop\r`, "F10")
	s.settle(id, 300)
	if scr := s.screen(id); strings.Contains(scr, "before-htop-3") {
		t.Errorf("htop is not on the alternate screen:\n%s", scr)
	}
	if n := s.shotColours(id, "htop"); n < 5 {
		t.Errorf("htop screenshot has %d colours, want several (at least 5)", n)
	}
	s.send(id, "q", "")
	s.waitAbsent(id, "F10")
	s.wait(id, promptWait)
	if scr := s.screen(id); !strings.Contains(scr, "before-htop-3") || !strings.Contains(scr, "tw$ htop") {
		t.Errorf("after q the shell screen is not restored:\n%s", scr)
	}
	s.call("shell_stop", map[string]any{"session_id": id})
}

// shotText takes a screenshot and returns the text file written beside it.
func (s *server) shotText(id, name string) string {
	s.t.Helper()
	r := s.call("shell_screenshot", map[string]any{"session_id": id, "name": name})
	b, err := os.ReadFile(r["txt_path"].(string))
	if err != nil {
		s.t.Fatalf("screenshot %s: %v", name, err)
	}
	return string(b)
}

// shotColours takes a screenshot and counts the distinct colours of its PNG.
func (s *server) shotColours(id, name string) int {
	s.t.Helper()
	r := s.call("shell_screenshot", map[string]any{"session_id": id, "name": name})
	f, err := os.Open(r["png_path"].(string))
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		s.t.Fatalf("screenshot %s: %v", name, err)
	}
	seen := map[color.Color]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			seen[img.At(x, y)] = true
		}
	}
	return len(seen)
}

// waitAbsent waits until text is gone from the screen: there is no
// "wait for absence" in the protocol, so it alternates a short idle wait
// with a read, bounded by waitTimeout's worth of rounds.
func (s *server) waitAbsent(id, text string) {
	s.t.Helper()
	for range 100 {
		if !strings.Contains(s.screen(id), text) {
			return
		}
		s.call("shell_wait", map[string]any{"session_id": id, "wait_idle_ms": 100, "timeout_ms": 150})
	}
	s.t.Fatalf("%q stays on screen:\n%s", text, s.screen(id))
}

func firstLines(s string, n int) string {
	l := strings.SplitN(s, "\n", n+1)
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "\n")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWaitForTrailingSpace: an agent waits for a prompt such as "$ " that
// is already on the screen. The screen text has trailing blanks trimmed, so
// the wait must still find the text the program printed (wait_for returns
// as soon as the screen contains the text).
func TestWaitForTrailingSpace(t *testing.T) {
	t.Parallel()
	s := startServer(t)
	id := s.startBash("")
	s.settle(id, 300) // the prompt is printed before the wait begins
	r := s.call("shell_wait", map[string]any{"session_id": id, "wait_for": prompt, "timeout_ms": 3000})
	if r["matched"] != true {
		t.Errorf("shell_wait for %q with the prompt on screen = %v, want matched", prompt, r)
	}
}
