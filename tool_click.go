package main

// tool_click.go: shell_click, the mouse action: a click, double click or
// wheel steps at a cell or on text shell_find would find, encoded for the
// mouse mode the program enabled (tools_mouse.go), followed by the same wait
// shell_send does.

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

type clickArgs struct {
	SessionID string       `json:"session_id"`
	Row       *int         `json:"row"`
	Col       *int         `json:"col"`
	Text      string       `json:"text"`
	Nth       *int         `json:"nth"`
	Style     *styleFilter `json:"style"`
	Button    string       `json:"button"`
	Count     *int         `json:"count"`
	Modifiers []string     `json:"modifiers"`
	WaitArgs               // tools_wait.go: the waits shell_send and shell_wait take
}

type clickResult struct {
	Row         int    `json:"row"`
	Col         int    `json:"col"`
	Sent        string `json:"sent"`
	MouseMode   string `json:"mouse_mode"`
	BufferAfter string `json:"bufferAfter"`
	waitReport
	exitInfo
	commandOutcome

	text string // the text block (replyText)
}

// blocks puts a wait that did not match in the first words of the text
// block, before the JSON.
func (r clickResult) blocks() (string, []Content) { return r.text, nil }

// Limits and defaults of shell_click.
const (
	maxClickCount = 3  // a triple click selects a line in some programs
	maxWheelSteps = 50 // one call scrolls at most this many steps
	// Without wait arguments, shell_click returns once the program's
	// output has been quiet for clickSettleIdle after it began, or after
	// clickSettleMax. ncurses holds a click back for its mouseinterval
	// (166 ms) to tell it from a double click, so this is longer than
	// shell_send's delay.
	clickSettleIdle = 150 * time.Millisecond
	clickSettleMax  = time.Second
)

func (tb *Toolbox) toolShellClick() *Tool {
	return newTool(Tool{
		Name:  "shell_click",
		Title: "Click in a terminal",
		Description: "Click button (default left) at 0-based row and col, or on text or style found as by shell_find, in the program's mouse mode " +
			"(none: an error; use keys). Waits as shell_send (none: output pauses 150 ms); returns what changed.",
		Input: objectSchema(waitProps(map[string]any{
			"session_id": sessionIDProp,
			"row":        map[string]any{"type": "integer"},
			"col":        map[string]any{"type": "integer"},
			"text":       prop("string", "Text or /regex/ to click (as wait_for)."),
			"nth":        prop("integer", "Which match (default 0)."),
			"style":      styleSchema("As in shell_find."),
			"button":     map[string]any{"type": "string", "enum": []string{"left", "middle", "right", "wheel_up", "wheel_down"}},
			"count":      prop("integer", "Clicks (2: double) or wheel steps; default 1."),
			"modifiers":  map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []string{"shift", "alt", "ctrl"}}, "description": "Keys held."},
		}, "regex: shell_wait's"), "session_id"),
		OpenWorld: true,
		Arrive:    tb.arriveTurn,
	}, tb.shellClick, clickStep)
}

// shellClick encodes the click, writes it and waits.
func (tb *Toolbox) shellClick(ctx context.Context, call *ToolCall, in clickArgs) (clickResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return clickResult{}, err
	}
	if err := s.AgentMayType(); err != nil {
		return clickResult{}, err
	}
	spec, err := in.WaitArgs.parse(true, false)
	if err != nil {
		return clickResult{}, err
	}
	maxOut, err := checkCommandWait(s, in.commandWaitArgs)
	if err != nil {
		return clickResult{}, err
	}
	if st := s.Status(); st.Exited {
		return clickResult{}, fmt.Errorf("session %s has exited (exit code %d): read its screen with shell_read, start a new one with shell_start", s.ID, st.ExitCode)
	}
	if _, err := clickPress(in); err != nil {
		return clickResult{}, err
	}
	// The target and the mouse mode are the screen's once the calls
	// before this one have had their turn.
	tr, err := tb.takeTurn(ctx, s, spec.timeout, call.Progress)
	if err != nil {
		return clickResult{}, err
	}
	defer tr.leave()
	spec.timeout = tr.left(spec.timeout)
	s.settle(ctx) // the target is looked for on the screen as it is now
	row, col, err := clickTarget(s, in)
	if err != nil {
		return clickResult{}, err
	}
	data, modes, err := tb.clickBytes(s, in, row, col)
	if err != nil {
		return clickResult{}, err
	}
	a, err := tb.act(ctx, tr.call(call), s, spec, maxOut, "", [][]byte{data}, 0, func(ctx context.Context, w *outputWatch) {
		settle := waitSpec{stages: []waitStage{{kind: stageIdle, name: "wait_idle_ms", d: clickSettleIdle, afterNewOutput: true}}, timeout: clickSettleMax}
		w.wait(ctx, settle, nil)
	})
	if err != nil {
		return clickResult{}, err
	}
	res := clickResult{Row: row, Col: col, Sent: escapeBytes(data), MouseMode: mouseModeName(modes.Mouse, modes.MouseEncoding),
		BufferAfter: a.after, waitReport: a.wait, exitInfo: a.exit, commandOutcome: a.command}
	res.text = fmt.Sprintf("clicked row %d col %d (%s)\n", row, col, res.MouseMode) +
		replyText(res.summary, res.waitReport, res.commandOutcome, res.exitInfo, shownScreen(s, res.commandOutcome, a.after, &a.watch.since))
	return res, nil
}

// clickTarget is the cell to click: row and col, or the first cell of the
// nth match of text.
func clickTarget(s *Session, in clickArgs) (row, col int, err error) {
	st := s.Status()
	switch {
	case (in.Text != "" || in.Style != nil) && (in.Row != nil || in.Col != nil):
		return 0, 0, errors.New("give either text (or style) or row and col, not both")
	case in.Text == "" && in.Style == nil && in.Nth != nil:
		return 0, 0, errors.New("nth chooses among the matches of text or style: give one of them too")
	case in.Text != "" || in.Style != nil:
		q, err := parseFind(in.Text, in.Style)
		if err != nil {
			return 0, 0, err
		}
		s.mu.Lock()
		ms := q.findLocked(s.term)
		s.mu.Unlock()
		nth := 0
		if in.Nth != nil {
			nth = *in.Nth
		}
		what := fmt.Sprintf("text %q", in.Text)
		if in.Text == "" {
			what = "the style"
		}
		switch {
		case len(ms) == 0:
			return 0, 0, fmt.Errorf("%s is not on the screen: look with shell_read format \"styled\", or wait for it with shell_find timeout_ms", what)
		case nth < 0 || nth >= len(ms):
			return 0, 0, fmt.Errorf("nth %d is out of range: %s has %d matches on the screen (nth 0..%d)", nth, what, len(ms), len(ms)-1)
		}
		return ms[nth].Row, ms[nth].Col, nil
	case in.Row == nil || in.Col == nil:
		return 0, 0, errors.New("nowhere to click: give row and col (0-based), or text to click on")
	}
	row, col = *in.Row, *in.Col
	if row < 0 || row >= st.Rows || col < 0 || col >= st.Cols {
		return 0, 0, fmt.Errorf("row %d, col %d is off the screen: it is %dx%d (cols x rows), so row is 0..%d and col 0..%d", row, col, st.Cols, st.Rows, st.Rows-1, st.Cols-1)
	}
	return row, col, nil
}

// press is what a click does with the mouse, whatever the screen shows.
type press struct {
	button int
	wheel  bool
	count  int // clicks, or wheel steps
	mods   int
}

// clickPress reads and checks button, count and modifiers.
func clickPress(in clickArgs) (press, error) {
	button, wheel, err := clickButton(in.Button)
	if err != nil {
		return press{}, err
	}
	count := 1
	if in.Count != nil {
		count = *in.Count
	}
	switch {
	case count < 1 || wheel && count > maxWheelSteps:
		return press{}, fmt.Errorf("count %d is out of range: use 1..%d wheel steps", count, maxWheelSteps)
	case !wheel && count > maxClickCount:
		return press{}, fmt.Errorf("count %d is out of range: use 1 (click), 2 (double click) or 3 (triple click)", count)
	}
	mods, err := clickModifiers(in.Modifiers)
	if err != nil {
		return press{}, err
	}
	return press{button: button, wheel: wheel, count: count, mods: mods}, nil
}

// clickBytes is what the click sends in the session's current modes.
func (tb *Toolbox) clickBytes(s *Session, in clickArgs, row, col int) ([]byte, Modes, error) {
	modes := s.Modes()
	p, err := clickPress(in)
	if err != nil {
		return nil, modes, err
	}
	button, wheel, count, mods := p.button, p.wheel, p.count, p.mods
	if modes.Mouse == 0 {
		if wheel && modes.AltScroll && modes.AltScreen {
			return altScrollKeys(button == btnWheelUp, count, modes.AppCursor), modes, nil
		}
		return nil, modes, errors.New("the program has not enabled mouse reporting (no DECSET 9, 1000, 1002 or 1003), so a click would do nothing: " +
			"use shell_send keys instead, e.g. [\"Down\", \"Enter\"], [\"Tab\"] or [\"PageDown\"]; the session info resource shows the mouse mode")
	}
	ev := mouseEvent{button: button, mods: mods, row: row, col: col}
	if err := checkMouseEvent(modes.Mouse, ev); err != nil {
		return nil, modes, err
	}
	scale := tb.cfg.Scale
	if scale < 1 || scale > 4 {
		scale = 2 // as shell_screenshot's files
	}
	cw, ch := 8*scale, 16*scale // a cell in the screenshots, in pixels
	ev.px, ev.py = col*cw+cw/2, row*ch+ch/2
	var b []byte
	for i := 0; i < count; i++ {
		b = append(b, encodeMouse(modes.Mouse, modes.MouseEncoding, ev)...)
		if !wheel { // wheel steps have no release
			rel := ev
			rel.release = true
			b = append(b, encodeMouse(modes.Mouse, modes.MouseEncoding, rel)...)
		}
	}
	return b, modes, nil
}

// clickButton reads button: the report's button code and whether it is a
// wheel step.
func clickButton(name string) (int, bool, error) {
	switch name {
	case "", "left":
		return btnLeft, false, nil
	case "middle":
		return btnMiddle, false, nil
	case "right":
		return btnRight, false, nil
	case "wheel_up":
		return btnWheelUp, true, nil
	case "wheel_down":
		return btnWheelDown, true, nil
	}
	return 0, false, fmt.Errorf("button %q is not known: use left, middle, right, wheel_up or wheel_down", name)
}

// clickModifiers reads modifiers into the report's modifier bits.
func clickModifiers(names []string) (int, error) {
	mods := 0
	for _, m := range names {
		switch strings.ToLower(m) {
		case "shift":
			mods |= mouseShift
		case "alt", "meta":
			mods |= mouseMeta
		case "ctrl", "control":
			mods |= mouseCtrl
		default:
			return 0, fmt.Errorf("modifier %q is not known: use shift, alt or ctrl", m)
		}
	}
	return mods, nil
}

// escapeBytes writes p readably: ESC as \e, other controls and non-ASCII
// bytes as \xHH, backslash as \\.
func escapeBytes(p []byte) string {
	var b strings.Builder
	for _, c := range p {
		switch {
		case c == 0x1b:
			b.WriteString(`\e`)
		case c == '\\':
			b.WriteString(`\\`)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(`\x`)
			if c < 16 {
				b.WriteByte('0')
			}
			b.WriteString(strings.ToUpper(strconv.FormatUint(uint64(c), 16)))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// clickReply is what a trace shows of shell_click's reply: the cell it
// clicked and how its wait ended.
type clickReply struct {
	Row int `json:"row"`
	Col int `json:"col"`
	waitEnd
}

// clickStep is shell_click's step form: a Click on its text, or on the
// cell it names or found, then its waits. A tape's Click is one left
// click, so a comment says when the call was another.
func clickStep(in clickArgs, out clickResult) stepView {
	end := endOf(out.waitReport, out.exitInfo, out.commandOutcome, false)
	v := stepView{SessionID: in.SessionID, Failed: end.failed(), Reply: clickReply{Row: out.Row, Col: out.Col, waitEnd: end}, Command: end.commandN()}
	where := strconv.Quote(clipRunes(in.Text, 40))
	if in.Text == "" && in.Row != nil && in.Col != nil {
		where = fmt.Sprintf("row %d col %d", *in.Row, *in.Col)
	} else if in.Text == "" {
		where = ""
	}
	v.Summary = joinSummary(where, waitSummary(in.WaitArgs, end))
	if in.Button != "" && in.Button != "left" || in.Count != nil && *in.Count != 1 || in.Nth != nil && *in.Nth > 1 {
		v.Tape = append(v.Tape, tapeComment("shell_click with button %q, count or nth: the Click below is a single left click", in.Button))
	}
	switch {
	case in.Row != nil && in.Col != nil:
		v.Tape = append(v.Tape, tapeCmd{Name: "Click", HasRows: true, Row: *in.Row, Col2: *in.Col, Count: 1})
	case in.Text != "":
		v.Tape = append(v.Tape, tapeCmd{Name: "Click", Text: strings.NewReplacer("\r", " ", "\n", " ").Replace(in.Text), Count: 1})
	default:
		v.Tape = append(v.Tape, tapeCmd{Name: "Click", HasRows: true, Row: out.Row, Col2: out.Col, Count: 1})
	}
	v.Tape = append(v.Tape, waitTape(in.WaitArgs, end, true, nil)...)
	return v
}
