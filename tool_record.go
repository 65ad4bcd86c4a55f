package main

// tool_record.go: shell_record_start and shell_record_stop, and which
// recordings a session has (tools_recorder.go runs one).

import (
	"context"
	"fmt"
	"strings"
)

// recordStartArgs are shell_record_start's arguments.
type recordStartArgs struct {
	SessionID string  `json:"session_id"`
	FPS       *int    `json:"fps"`
	Border    *Border `json:"border"`
	Name      string  `json:"name"`
	Scale     *int    `json:"scale"`
}

// recordStopArgs are shell_record_stop's arguments.
type recordStopArgs struct {
	SessionID string `json:"session_id"`
	Name      string `json:"name"`
	Format    string `json:"format"`
}

// recordStartResult is shell_record_start's structured result: the
// recording's name, and the frame rate and GIF scale it captures at.
type recordStartResult struct {
	Recording string `json:"recording"`
	FPS       int    `json:"fps"`
	Scale     int    `json:"scale"`
}

func (tb *Toolbox) toolShellRecordStart() *Tool {
	return newTool(Tool{
		Name:        "shell_record_start",
		Title:       "Start recording",
		Description: "Record the screen at real speed (pauses cut to 2 s) until shell_record_stop, 10 minutes or 20000 frames. One per session.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"fps":        prop("integer", "Max frames a second (default 10)."),
			"border":     borderSchema,
			"name":       prop("string", "Its name; default recording-N."),
			"scale":      scaleProp(recDefaultGIF),
		}, "session_id"),
	}, tb.recordStart, recordStartStep)
}

func (tb *Toolbox) toolShellRecordStop() *Tool {
	return newTool(Tool{
		Name:        "shell_record_stop",
		Title:       "Stop recording",
		Description: "Save the recording as format: gif (default), cast (asciicast v2) or both; returns paths, uri, frames, duration.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"name":       prop("string", "File name; default the recording's."),
			"format":     map[string]any{"type": "string", "enum": []string{"gif", "cast", "both"}},
		}, "session_id"),
	}, tb.recordStop, recordStopStep)
}

// recordStart validates the arguments and starts a recorder.
func (tb *Toolbox) recordStart(_ context.Context, _ *ToolCall, args recordStartArgs) (recordStartResult, error) {
	s, err := tb.session(args.SessionID)
	if err != nil {
		return recordStartResult{}, err
	}
	fps := recDefaultFPS
	if args.FPS != nil {
		fps = *args.FPS
		if fps < 1 || fps > recMaxFPS {
			return recordStartResult{}, fmt.Errorf("fps %d is out of range: use 1 to %d (default %d)", fps, recMaxFPS, recDefaultFPS)
		}
	}
	scale, err := scaleArg(args.Scale, recDefaultGIF)
	if err != nil {
		return recordStartResult{}, err
	}
	border, err := parseBorder(args.Border)
	if err != nil {
		return recordStartResult{}, err
	}
	name := args.Name
	if name == "" {
		name = defaultRecordingName(s)
	}
	if name, err = recordingName(name); err != nil {
		return recordStartResult{}, err
	}
	theme, err := lookupTheme(s.Theme)
	if err != nil {
		theme = themeList[0]
	}
	idleCap := gifIdleCap
	if tb.cfg.KeepPauses {
		idleCap = 0
	}
	r := &recorder{store: tb.store, recs: tb.recs, logf: tb.logf, sess: s, name: name, fps: fps, scale: scale, border: border, theme: theme, idleCap: idleCap, layout: tb.cfg.Layout,
		snapshot: s.Snapshot, waitChange: s.WaitChange, ready: make(chan struct{}), maxFrames: tb.rec.frames, maxDur: tb.rec.dur, maxBytes: tb.rec.bytes}
	r.snapshotLocked = func() *Snapshot { return s.term.Snapshot() }

	if busy := tb.recs.reserve(s, r); busy != nil { // the slot is r's while the files are created
		return recordStartResult{}, fmt.Errorf("session %s is already recording %q: call shell_record_stop first", s.ID, busy.name)
	}
	err = r.start()
	if err != nil {
		tb.recs.release(s, r)
	}
	close(r.ready) // a stop that came meanwhile may go on
	if err != nil {
		return recordStartResult{}, err
	}
	s.Emit(Event{Kind: EventRecording})
	return recordStartResult{Recording: name, FPS: fps, Scale: scale}, nil
}

// recordStop ends the session's recording and keeps the format asked for.
func (tb *Toolbox) recordStop(_ context.Context, _ *ToolCall, args recordStopArgs) (*recordStopResult, error) {
	s, err := tb.session(args.SessionID)
	if err != nil {
		if id := args.SessionID; tb.sessions.WasStopped(id) {
			return nil, fmt.Errorf("session %s was stopped, and shell_stop saved the recording that was running: "+
				"read session://%s/recordings for it (next time, call shell_record_stop before shell_stop)", id, id)
		}
		return nil, err
	}
	format := args.Format
	switch format {
	case "":
		format = "gif"
	case "gif", "cast", "both":
	default:
		return nil, fmt.Errorf("format %q is unknown: use \"gif\" (default), \"cast\" (asciicast v2) or \"both\"", args.Format)
	}
	name := ""
	if args.Name != "" {
		if name, err = recordingName(args.Name); err != nil {
			return nil, err
		}
	}
	r := tb.recs.take(s) // or the one a limit ended: report it, once
	if r == nil {
		return nil, fmt.Errorf("session %s is not recording: call shell_record_start first", s.ID)
	}
	if name == "" {
		name = r.name
	}
	res, err := r.finish(format, name)
	if err != nil {
		return nil, err
	}
	if r.byLimit {
		// Saved already, in both formats, under the name given at start
		// (maybe while this call waited: then it is reported here).
		tb.recs.reported(s, r)
		cp := *res
		cp.Note = strings.TrimPrefix(cp.Note+fmt.Sprintf("; it was saved then as %q, GIF and cast", r.name), "; ")
		var unused []string
		if name != r.name {
			unused = append(unused, fmt.Sprintf("name %q", name))
		}
		if args.Format != "" && format != "both" {
			unused = append(unused, fmt.Sprintf("format %q", format))
		}
		if len(unused) > 0 {
			cp.Note += " (the " + strings.Join(unused, " and ") + " given here came too late)"
		}
		res = &cp
	}
	return res, nil
}

// recordingName checks a recording's name as shell_record_start and
// shell_record_stop take it: an extension of its files (.gif, .cast, in
// any case) is left out, since the files get theirs.
func recordingName(name string) (string, error) {
	if n := strings.TrimSpace(name); len(n) > len(".cast") && strings.EqualFold(n[len(n)-len(".cast"):], ".cast") {
		name = n[:len(n)-len(".cast")]
	}
	return cleanName(name, ".gif")
}

// defaultRecordingName returns "recording-N" with the smallest N not yet
// used by one of the session's recordings.
func defaultRecordingName(s *Session) string {
	used := map[string]bool{}
	for _, c := range s.Recordings() {
		used[c.Name] = true
	}
	for n := 1; ; n++ {
		if name := fmt.Sprintf("recording-%d", n); !used[name] {
			return name
		}
	}
}

// finishRecordings finalises the session's recording, if one is running,
// keeping both the GIF and the cast under the name given at start.
// stopSession calls it when a session stops, and so when the server
// exits, so files are never left half written.
func (tb *Toolbox) finishRecordings(s *Session) *recordStopResult {
	r := tb.recs.take(s) // or the one saved at a limit and not reported yet
	if r == nil {
		return nil
	}
	res, err := r.finish("both", r.name)
	if err != nil {
		return nil // errors are in the log of the recorder's files
	}
	return res
}

// recordStartStep is shell_record_start's step form; a tape records with
// an Output line at its top, which its comment says.
func recordStartStep(in recordStartArgs, out recordStartResult) stepView {
	return stepView{SessionID: in.SessionID, Summary: in.Name, Reply: out,
		Tape: []tapeCmd{tapeComment("shell_record_start: to record the replay, add Output NAME.gif at the top")}}
}

// recordStopReply is what a trace shows of shell_record_stop's reply.
type recordStopReply struct {
	Filename   string `json:"filename"`
	FrameCount int    `json:"frame_count"`
	DurationMS int64  `json:"duration_ms"`
}

// recordStopStep is shell_record_stop's step form.
func recordStopStep(in recordStopArgs, out *recordStopResult) stepView {
	v := stepView{SessionID: in.SessionID, Summary: in.Name,
		Tape: []tapeCmd{tapeComment("shell_record_stop: to record the replay, add Output NAME.gif at the top")}}
	if out != nil {
		v.Reply = recordStopReply{out.Filename, out.FrameCount, out.DurationMS}
	}
	return v
}
