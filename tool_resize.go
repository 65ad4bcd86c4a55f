package main

// tool_resize.go: shell_resize, which changes the screen size.

import (
	"context"
	"fmt"
)

type resizeArgs struct {
	SessionID string `json:"session_id"`
	Cols      int    `json:"cols"`
	Rows      int    `json:"rows"`
}

// resizeResult is the size shell_resize set, in cells.
type resizeResult struct {
	Cols int `json:"cols"`
	Rows int `json:"rows"`
}

func (tb *Toolbox) toolShellResize() *Tool {
	return newTool(Tool{
		Name:        "shell_resize",
		Title:       "Resize a terminal",
		Description: "Resize the screen to cols x rows cells; the program gets SIGWINCH.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"cols":       map[string]any{"type": "integer"},
			"rows":       map[string]any{"type": "integer"},
		}, "session_id", "cols", "rows"),
		Idempotent: true,
	}, tb.shellResize, resizeStep)
}

// shellResize checks the size and resizes the session.
func (tb *Toolbox) shellResize(_ context.Context, _ *ToolCall, in resizeArgs) (resizeResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return resizeResult{}, err
	}
	if err := checkSize(in.Cols, in.Rows); err != nil {
		return resizeResult{}, err
	}
	if err := s.Resize(in.Cols, in.Rows); err != nil {
		return resizeResult{}, err
	}
	return resizeResult{Cols: in.Cols, Rows: in.Rows}, nil
}

// resizeStep is shell_resize's step form: a tape keeps one size, so its
// tape says so in a comment.
func resizeStep(in resizeArgs, out resizeResult) stepView {
	return stepView{SessionID: in.SessionID, Summary: fmt.Sprintf("%dx%d", in.Cols, in.Rows), Reply: out,
		Tape: []tapeCmd{tapeComment("shell_resize to %dx%d: a tape keeps one size, so the rest runs at the first", in.Cols, in.Rows)}}
}
