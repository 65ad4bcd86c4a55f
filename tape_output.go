package main

// tape_output.go: a tape's Output files. The GIF and the asciicast come
// from recordings (shell_record_start at the first shown command and
// after each Show, shell_record_stop at each Hide and at the end), joined; the .txt/.ascii/.test file gets the
// screen after each shown command and a rule line, as VHS writes it; a
// frames folder (frames/) gets a PNG of the screen after each shown
// command. .mp4 and .webm are warned: ttywright encodes no video.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/gif"
	"os"
	"path/filepath"
	"strings"
)

// tapeTextRule ends each screen of the .txt output, as VHS's does.
var tapeTextRule = strings.Repeat("─", 80)

// ensureRecording starts a recording before a shown command when the
// tape writes a GIF or a cast and none runs: at the first, and after each
// Show. A Hide stops it (stopRecording): the hidden part is a gap between
// two recordings, which the outputs join.
func (r *tapeRun) ensureRecording(ctx context.Context) error {
	if r.recording || r.hidden || len(r.outputsOf(".gif", ".cast")) == 0 {
		return nil
	}
	r.recording = true
	args := map[string]any{"session_id": r.sid, "fps": min(max(r.set.Framerate, 1), recMaxFPS), "scale": r.scale,
		"name": fmt.Sprintf("tape-%d", len(r.segments)+1)}
	if b := r.border(); b != nil {
		args["border"] = b
	}
	_, err := r.call(ctx, "shell_record_start", args, nil)
	return err
}

// afterShown adds the screen to the .txt output and the frames folders.
func (r *tapeRun) afterShown() error {
	texts, dirs := r.outputsOf(".txt", ".ascii", ".test"), r.outputsOf("/", ".png")
	if len(texts) == 0 && len(dirs) == 0 {
		return nil
	}
	s := r.tb.sessions.Get(r.sid)
	snap := s.Snapshot()
	if len(texts) > 0 {
		for i, row := range screenRows(snap) {
			r.text.WriteString(r.mask(row, i) + "\n")
		}
		r.text.WriteString(tapeTextRule + "\n")
	}
	r.frames++
	for _, d := range dirs {
		if err := r.writeFrame(d, snap); err != nil {
			return err
		}
	}
	return nil
}

// writeFrame writes the screen as frame-NNNNN.png in the folder dir.
func (r *tapeRun) writeFrame(dir string, snap *Snapshot) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	theme, _ := lookupTheme(r.set.Theme)
	img := RenderImage(snap, RenderOptions{Theme: theme, Scale: r.scale, Border: r.border(), Layout: r.set.layout()})
	f, err := createRegular(filepath.Join(dir, fmt.Sprintf("frame-%05d.png", r.frames)))
	if err != nil {
		return err
	}
	if err := encodePNG(f, img); err != nil {
		f.Close()
		return err
	}
	if r.frames == 1 {
		r.res.Wrote = append(r.res.Wrote, dir)
	}
	return f.Close()
}

// finish writes the outputs and stops the session.
func (r *tapeRun) finish(ctx context.Context) error {
	for _, o := range r.outputs {
		if ext := filepath.Ext(o.Text); ext == ".mp4" || ext == ".webm" {
			r.warn(tapeWarning{o.Line, o.Col, "Output " + ext, "ttywright encodes no video: nothing written (Output a .gif instead)"})
		}
	}
	if err := r.writeRecording(ctx); err != nil {
		return err
	}
	for _, p := range r.outputsOf(".txt", ".ascii", ".test") {
		if err := writeRegular(p, []byte(r.text.String())); err != nil {
			return err
		}
		r.res.Wrote = append(r.res.Wrote, p)
	}
	_, err := r.call(ctx, "shell_stop", map[string]any{"session_id": r.sid}, nil)
	return err
}

// stopRecording stops the running recording, if any, and keeps its files.
func (r *tapeRun) stopRecording(ctx context.Context) error {
	if !r.recording {
		return nil
	}
	r.recording = false
	format := "gif"
	switch gifs, casts := r.outputsOf(".gif"), r.outputsOf(".cast"); {
	case len(gifs) > 0 && len(casts) > 0:
		format = "both"
	case len(casts) > 0:
		format = "cast"
	}
	var rs recordStopResult
	if _, err := r.call(ctx, "shell_record_stop", map[string]any{"session_id": r.sid, "format": format}, &rs); err != nil {
		return err
	}
	r.segments = append(r.segments, rs)
	return nil
}

// writeRecording stops the recording and writes the GIF and the cast of
// its segments to the Output paths.
func (r *tapeRun) writeRecording(ctx context.Context) error {
	if err := r.stopRecording(ctx); err != nil || len(r.segments) == 0 {
		return err
	}
	var gifs, casts []string
	for _, seg := range r.segments {
		gifs, casts = append(gifs, seg.GIFPath), append(casts, seg.CastPath)
	}
	for _, p := range r.outputsOf(".gif") {
		if err := joinGIFs(gifs, p); err != nil {
			return err
		}
		r.res.Wrote = append(r.res.Wrote, p)
	}
	for _, p := range r.outputsOf(".cast") {
		if err := joinCasts(casts, p); err != nil {
			return err
		}
		r.res.Wrote = append(r.res.Wrote, p)
	}
	return nil
}

// joinGIFs writes the frames of the GIF files one after the other to
// out (one file is copied as it is).
func joinGIFs(paths []string, out string) error {
	if len(paths) == 1 {
		return copyFile(paths[0], out)
	}
	var all *gif.GIF
	for _, p := range paths {
		g, err := readTapeGIF(p)
		if err != nil {
			return err
		}
		if all == nil {
			all = g
			continue
		}
		all.Image = append(all.Image, g.Image...)
		all.Delay = append(all.Delay, g.Delay...)
		all.Disposal = append(all.Disposal, g.Disposal...)
	}
	f, err := createRegular(out)
	if err != nil {
		return err
	}
	if err := gif.EncodeAll(f, all); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readTapeGIF(path string) (*gif.GIF, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return gif.DecodeAll(f)
}

// joinCasts writes the asciicast v2 files as one: the first's header,
// then every file's events, each file's times after the one before.
func joinCasts(paths []string, out string) error {
	var b bytes.Buffer
	offset := 0.0
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if i == 0 {
			b.WriteString(lines[0] + "\n")
		}
		last := 0.0
		for _, line := range lines[1:] {
			var ev []json.RawMessage
			var t float64
			if json.Unmarshal([]byte(line), &ev) != nil || len(ev) != 3 || json.Unmarshal(ev[0], &t) != nil {
				return fmt.Errorf("%s: not an asciicast v2 event: %.80s", p, line)
			}
			last = t
			fmt.Fprintf(&b, "[%.6f, %s, %s]\n", offset+t, ev[1], ev[2])
		}
		offset += last
	}
	return writeRegular(out, b.Bytes())
}

// createRegular creates or truncates the file at path for a tape run to
// write (an Output, a Screenshot, a golden file, a trace, a report). A
// symlink there is refused, so that --update never writes through a link
// someone planted, and so is anything but a regular file: a FIFO would
// hold the run until something read it.
func createRegular(path string) (*os.File, error) {
	if err := writableAt(path, false); err != nil {
		return nil, err
	}
	notRegular := fmt.Errorf("%s is not a regular file: ttywright writes only regular files", path)
	// The checks again on what was opened: the name may have changed
	// since (O_NOFOLLOW refuses a link put there).
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|oNoFollow|oNonBlock, 0o644)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, notRegular
	}
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkOutputs refuses, before the tape runs, each Output of prog whose
// path holds something ttywright will not write: a symbolic link, or
// anything but a regular file (a folder for frames/), all of them at
// once, so that a fix is not found one run at a time.
func checkOutputs(prog *tapeProgram) error {
	var errs tapeErrors
	for _, c := range prog.Cmds {
		if c.Name != "Output" {
			continue
		}
		if err := writableAt(c.Text, strings.HasSuffix(c.Text, "/")); err != nil {
			errs.add(&tapeError{prog.Path, c.Line, c.Col, "Output " + err.Error()})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// writableAt refuses a path that holds what ttywright will not write to:
// a symbolic link, or anything but a regular file (a folder when dir,
// for frames, given with its trailing slash). A missing path is fine.
func writableAt(path string, dir bool) error {
	fi, err := os.Lstat(strings.TrimSuffix(path, "/"))
	switch {
	case err != nil:
		return nil // made when written
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: ttywright does not write through one (remove it, or write elsewhere)", path)
	case dir && !fi.IsDir():
		return fmt.Errorf("%s is not a folder, for frames", path)
	case !dir && !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file: ttywright writes only regular files", path)
	}
	return nil
}

// writeRegular writes data to the file at path through createRegular.
func writeRegular(path string, data []byte) error {
	f, err := createRegular(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
