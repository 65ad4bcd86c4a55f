package main

// tape_output.go: a tape's Output files. The GIF and the asciicast come
// from one recording (shell_record_start at the first shown command,
// shell_record_stop at the end); the .txt/.ascii/.test file gets the
// screen after each shown command and a rule line, as VHS writes it; a
// frames folder (frames/) gets a PNG of the screen after each shown
// command. .mp4 and .webm are warned: ttywright encodes no video.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// tapeTextRule ends each screen of the .txt output, as VHS's does.
var tapeTextRule = strings.Repeat("─", 80)

// ensureRecording starts the recording before the first shown command
// when the tape writes a GIF or a cast.
func (r *tapeRun) ensureRecording(ctx context.Context) error {
	if r.recorded || r.hidden || len(r.outputsOf(".gif", ".cast")) == 0 {
		return nil
	}
	r.recorded = true
	args := map[string]any{"session_id": r.sid, "fps": min(max(r.set.Framerate, 1), recMaxFPS), "scale": r.scale, "name": "tape"}
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
	img := RenderImage(snap, RenderOptions{Theme: theme, Scale: r.scale, Border: r.border()})
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("frame-%05d.png", r.frames)))
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
		if err := os.WriteFile(p, []byte(r.text.String()), 0o644); err != nil {
			return err
		}
		r.res.Wrote = append(r.res.Wrote, p)
	}
	_, err := r.call(ctx, "shell_stop", map[string]any{"session_id": r.sid}, nil)
	return err
}

// writeRecording stops the recording and copies its GIF and cast to the
// Output paths.
func (r *tapeRun) writeRecording(ctx context.Context) error {
	if !r.recorded {
		return nil
	}
	gifs, casts := r.outputsOf(".gif"), r.outputsOf(".cast")
	format := "gif"
	switch {
	case len(gifs) > 0 && len(casts) > 0:
		format = "both"
	case len(casts) > 0:
		format = "cast"
	}
	var rs recordStopResult
	if _, err := r.call(ctx, "shell_record_stop", map[string]any{"session_id": r.sid, "format": format}, &rs); err != nil {
		return err
	}
	for _, p := range gifs {
		if err := r.copyOut(rs.GIFPath, p); err != nil {
			return err
		}
	}
	for _, p := range casts {
		if err := r.copyOut(rs.CastPath, p); err != nil {
			return err
		}
	}
	return nil
}
