package main

// tool_read.go: shell_read, the screen text (or the raw output or the
// styled screen) with a status line.

import (
	"context"
	"fmt"
	"strings"
)

type shellReadArgs struct {
	SessionID  string `json:"session_id"`
	Raw        bool   `json:"raw"`
	Scrollback *bool  `json:"scrollback"`
	MaxBytes   *int   `json:"max_bytes"`
	Format     string `json:"format"` // "" or "text", or "styled" (tools_styled.go)
}

type cursorInfo struct {
	Row     int  `json:"row"`
	Col     int  `json:"col"`
	Visible bool `json:"visible"`
}

type shellReadResult struct {
	Text      string     `json:"text"`
	Truncated bool       `json:"truncated"`
	Cols      int        `json:"cols"`
	Rows      int        `json:"rows"`
	Cursor    cursorInfo `json:"cursor"`
	Runs      styledRuns `json:"runs,omitempty"` // format styled
	Base      *Style     `json:"base,omitempty"` // format styled
	exitInfo

	raw bool // the text is the raw output, shown as it is
}

// blocks shows the text itself rather than its JSON, runs of identical
// rows folded (foldRows) but in the raw output. The status line follows
// the text after a blank line, so that a client that drops
// structuredContent still learns the cursor, the exit and the cut.
func (r shellReadResult) blocks() (string, []Content) {
	text := r.Text
	switch {
	case text == "":
		text = "(the screen is empty)"
	case !r.raw:
		text = foldRows(text)
	}
	return text + "\n\n" + r.statusLine(), nil
}

// statusLine is one short line: the screen size, the cursor, whether the
// program runs or how it ended, and whether older text was cut, e.g.
// "[80x24, cursor row 2 col 0; program exited with code 3]".
func (r shellReadResult) statusLine() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%dx%d, cursor row %d col %d", r.Cols, r.Rows, r.Cursor.Row, r.Cursor.Col)
	if !r.Cursor.Visible {
		b.WriteString(" (hidden)")
	}
	switch {
	case !r.Exited && r.Foreground != nil:
		b.WriteString("; " + r.Foreground.describe())
	case !r.Exited:
		b.WriteString("; program running")
	case r.Signal != "":
		fmt.Fprintf(&b, "; program killed by %s (exit code %d)", r.Signal, *r.ExitCode)
	default:
		fmt.Fprintf(&b, "; program exited with code %d", *r.ExitCode)
	}
	if r.Truncated {
		b.WriteString("; older text cut: raise max_bytes for more")
	}
	if k := keyboardLine(r.KeyboardInfo); k != "" {
		b.WriteString("; " + k)
	}
	return b.String() + "]"
}

func (tb *Toolbox) toolShellRead() *Tool {
	return newTool(Tool{
		Name:        "shell_read",
		Title:       "Read a terminal's screen",
		Description: "The terminal's text: scrollback and screen, wrapped lines joined, the newest max_bytes (8192), and a status line.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"scrollback": prop("boolean", "Include lines above the screen (default true)."),
			"raw":        prop("boolean", "The raw output, escapes kept."),
			"max_bytes":  map[string]any{"type": "integer"},
			"format":     formatProp,
		}, "session_id"),
		ReadOnly:   true,
		Idempotent: true,
		App:        appShows,
	}, tb.shellRead, readStep)
}

// shellRead returns the screen text (or the raw output), its size and
// the cursor.
func (tb *Toolbox) shellRead(ctx context.Context, _ *ToolCall, in shellReadArgs) (shellReadResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return shellReadResult{}, err
	}
	max := defaultReadBytes
	if in.MaxBytes != nil {
		max = *in.MaxBytes
		if max < 1 || max > rawTailCap {
			return shellReadResult{}, fmt.Errorf("max_bytes %d is out of range: use 1..%d", max, rawTailCap)
		}
	}
	if err := checkReadFormat(in.Format, in.Raw); err != nil {
		return shellReadResult{}, err
	}
	s.settle(ctx)
	var res shellReadResult
	scrollback := in.Scrollback == nil || *in.Scrollback
	switch { // one case per form of the text
	case in.Format == "styled":
		res.Text, res.Truncated, res.Runs, res.Base = readStyled(s, max)
	case in.Raw:
		p, cut := s.RawTail(max)
		res.Text, res.Truncated = tailText(string(p), max, cut)
		res.raw = true
	default:
		res.Text, res.Truncated = s.textTail(scrollback, max)
	}
	s.mu.Lock()
	cur := s.term.Cursor()
	st := s.statusLocked()
	s.mu.Unlock()
	res.Cols, res.Rows = st.Cols, st.Rows
	res.Cursor = cursorInfo{Row: cur.Row, Col: cur.Col, Visible: cur.Visible}
	res.exitInfo = exitOf(st)
	res.KeyboardInfo = s.KeyboardInfo(true)
	if !st.Exited {
		fg := s.Foreground()
		res.Foreground = &fg
	}
	return res, nil
}

// readStep is shell_read's step form: a read changes nothing, so it is a
// line in the trace and nothing on a tape; its reply, the largest of all,
// is not kept.
func readStep(in shellReadArgs, _ shellReadResult) stepView {
	return stepView{SessionID: in.SessionID}
}
