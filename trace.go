package main

// trace.go: a session's steps, one per tool call, and the screens after
// them. Every session keeps its step list (tool, arguments, the reply's
// essentials, times: no screens), which the tape is written from; a
// traced session keeps besides the screen after each step, its command
// blocks and screenshots, for the HTML trace (trace_html.go). A screen
// is stored once per change: a step whose screen equals the last one
// stored points at it, and each distinct styled row is encoded once
// across the whole trace, so a trace grows with what changed on the
// screen, not with the number of steps.

import (
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Trace limits: a session that runs for days keeps a bounded trace.
const (
	maxTraceSteps    = 10000   // steps kept; later ones are counted in dropped
	maxTraceScreens  = 2000    // distinct screens kept; later steps keep no screen
	maxTraceArgBytes = 8 << 20 // argument bytes kept over all steps; past it a step keeps {"cut": bytes}
	maxTraceOutput   = 4 << 10 // newest bytes of a command block's output kept
	maxTraceError    = 300     // bytes of an isError reply's text kept
)

// traceMeta is what a trace says of its session: its id, the program
// as shell_start ran it, its size when it started, its shell (bash, zsh
// or fish; "" for any other program) and the theme its screens are
// drawn in.
type traceMeta struct {
	ID      string    `json:"id"`
	Command string    `json:"command"`
	Args    []string  `json:"args"`
	Cwd     string    `json:"cwd,omitempty"`
	Shell   string    `json:"shell,omitempty"`
	Cols    int       `json:"cols"`
	Rows    int       `json:"rows"`
	Theme   *Theme    `json:"-"`
	Started time.Time `json:"started"`
}

// traceStep is one tool call of a session: its number (1-based), the
// tool, its arguments (as the client sent them, secrets taken out:
// tools_steps.go), its reply's essentials, when it started and how long
// it took; in a traced session also the screen after it (an index into
// the trace's screens, -1 for none), the commands that ended during it
// and the screenshots it took.
type traceStep struct {
	N        int             `json:"n"`
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args"`
	Reply    stepReply       `json:"reply"`
	Start    time.Time       `json:"-"`
	Duration time.Duration   `json:"-"`
	Screen   int             `json:"screen"`
	Commands []traceCommand  `json:"commands,omitempty"`
	Shots    []string        `json:"shots,omitempty"` // file names of the PNGs, beside the trace
}

// stepReply is what a step's reply said that a trace or a tape needs:
// the fields of the tools' structured results of the same names, read
// from their JSON (so nothing else, a page's URL or a screen, is kept),
// and for an isError reply its text cut to maxTraceError bytes.
type stepReply struct {
	IsError     bool   `json:"isError,omitempty"`
	Error       string `json:"error,omitempty"`
	SessionID   string `json:"shell_session_id,omitempty"`
	Cols        int    `json:"cols,omitempty"`
	Rows        int    `json:"rows,omitempty"`
	Ready       *bool  `json:"ready,omitempty"`
	Matched     *bool  `json:"matched,omitempty"`
	TimedOut    *bool  `json:"timed_out,omitempty"`
	EndedBy     string `json:"ended_by,omitempty"`
	WaitingFor  string `json:"waiting_for,omitempty"`
	Exited      bool   `json:"exited,omitempty"`
	ExitCode    *int   `json:"exit_code,omitempty"`
	Signal      string `json:"signal,omitempty"`
	NoCommand   bool   `json:"no_command,omitempty"`
	AlreadyDone bool   `json:"already_done,omitempty"`
	Row         *int   `json:"row,omitempty"` // shell_click: the cell clicked
	Col         *int   `json:"col,omitempty"`
	Filename    string `json:"filename,omitempty"`  // shell_screenshot
	Delivered   *bool  `json:"delivered,omitempty"` // shell_ask_secret
	Screen      string `json:"screen,omitempty"`    // shell_start: the first screen
	Command     *struct {
		N          int    `json:"n"`
		Line       string `json:"line"`
		ExitCode   *int   `json:"exit_code,omitempty"`
		DurationMS *int64 `json:"duration_ms,omitempty"`
	} `json:"command,omitempty"`
}

// traceCommand is one command block: a command a shell with
// integration ran, with its exit code, duration and output (the newest
// maxTraceOutput bytes).
type traceCommand struct {
	N          int    `json:"n"`
	Line       string `json:"line"`
	ExitCode   *int   `json:"exit_code,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	Output     string `json:"output"`
	Cut        bool   `json:"cut,omitempty"`
}

// traceScreen is one distinct screen: its rows as indices into the
// trace's row table, and the cursor.
type traceScreen struct {
	Rows   []int  `json:"r"`
	Cursor [3]int `json:"c"` // row, col, 1 when visible
	Title  string `json:"t,omitempty"`
}

// sessionTrace is a session's steps, and with full its screens. Its
// methods are safe for concurrent use. Build it with newSessionTrace.
type sessionTrace struct {
	full bool

	mu        sync.Mutex
	meta      traceMeta
	steps     []traceStep
	dropped   int // steps past maxTraceSteps
	argBytes  int
	screens   []traceScreen
	rows      []json.RawMessage
	rowIndex  map[string]int // encoded row -> index in rows
	rowHash   map[uint64]int // rowKey -> index in rows
	seed      maphash.Seed
	keyBuf    []byte   // rowKey's buffer
	styles    []string // CSS declarations, by style index; 0 is the default
	styleIdx  map[string]int
	lastCmd   int // the newest command number recorded
	stoppedAt time.Time
	path      string // where the HTML trace was written, once it was
}

// newSessionTrace returns the trace of the session meta describes; with
// full it keeps screens, commands and screenshots.
func newSessionTrace(meta traceMeta, full bool) *sessionTrace {
	return &sessionTrace{full: full, meta: meta, rowIndex: map[string]int{}, rowHash: map[uint64]int{}, seed: maphash.MakeSeed(),
		styles: []string{""}, styleIdx: map[string]int{"": 0}}
}

// Full reports whether t keeps screens (shell_start {trace: true}, --trace).
func (t *sessionTrace) Full() bool { return t != nil && t.full }

// Meta returns what t says of its session.
func (t *sessionTrace) Meta() traceMeta {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.meta
}

// Steps returns a copy of the steps so far, oldest first.
func (t *sessionTrace) Steps() []traceStep {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.steps)
}

// Add appends step, numbering it. In a full trace snap (nil: none) is
// the screen after it, stored unless it equals the last one stored, and
// cmds the commands that ended by then (those recorded already are
// skipped). Past maxTraceSteps the step is only counted.
func (t *sessionTrace) Add(step traceStep, snap *Snapshot, cmds []traceCommand) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.steps) >= maxTraceSteps {
		t.dropped++
		return
	}
	t.argBytes += len(step.Args)
	if t.argBytes > maxTraceArgBytes {
		step.Args = json.RawMessage(`{"cut":` + strconv.Itoa(len(step.Args)) + `}`)
	}
	step.N = len(t.steps) + t.dropped + 1
	step.Screen = -1
	if t.full {
		step.Screen = t.storeScreen(snap)
		for _, c := range cmds {
			if c.N > t.lastCmd {
				step.Commands = append(step.Commands, cutCommand(c))
				t.lastCmd = c.N
			}
		}
	}
	t.steps = append(t.steps, step)
}

// Stopped marks the session stopped at when (the trace's end).
func (t *sessionTrace) Stopped(when time.Time) {
	t.mu.Lock()
	t.stoppedAt = when
	t.mu.Unlock()
}

// SetPath records where the HTML trace was written.
func (t *sessionTrace) SetPath(p string) {
	t.mu.Lock()
	t.path = p
	t.mu.Unlock()
}

// Path is where the HTML trace was written, "" before.
func (t *sessionTrace) Path() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.path
}

// cutCommand keeps the newest maxTraceOutput bytes of c's output, cut at
// a character boundary.
func cutCommand(c traceCommand) traceCommand {
	if len(c.Output) <= maxTraceOutput {
		return c
	}
	o := c.Output[len(c.Output)-maxTraceOutput:]
	for len(o) > 0 && !utf8.RuneStart(o[0]) {
		o = o[1:]
	}
	c.Output, c.Cut = o, true
	return c
}

// storeScreen returns the index of snap among the screens: the last one
// when snap shows the same (rows, cursor, title), else a new one. -1
// for no snap or past maxTraceScreens. A row is encoded only when no
// row with the same cells was seen before (rowKey).
func (t *sessionTrace) storeScreen(snap *Snapshot) int {
	if snap == nil || snap.Cols*snap.Rows > len(snap.Cells) {
		return -1
	}
	th := t.meta.Theme
	if th == nil {
		th = themeList[0]
	}
	th = th.forScreen(snap)
	sc := traceScreen{Rows: make([]int, snap.Rows), Title: snap.Title}
	for r := range snap.Rows {
		key := t.rowKey(snap, r, th)
		id, ok := t.rowHash[key]
		if !ok {
			id = t.rowID(encodeTraceRow(snap, r, th, t.styleID))
			t.rowHash[key] = id
		}
		sc.Rows[r] = id
	}
	vis := 0
	if snap.Cursor.Visible {
		vis = 1
	}
	sc.Cursor = [3]int{snap.Cursor.Row, snap.Cursor.Col, vis}
	if n := len(t.screens); n > 0 && sameTraceScreen(t.screens[n-1], sc) {
		return n - 1
	}
	if len(t.screens) >= maxTraceScreens {
		return -1
	}
	t.screens = append(t.screens, sc)
	return len(t.screens) - 1
}

// sameTraceScreen reports whether two screens show the same.
func sameTraceScreen(a, b traceScreen) bool {
	return a.Cursor == b.Cursor && a.Title == b.Title && slices.Equal(a.Rows, b.Rows)
}

// rowKey hashes what row r of snap shows (each cell's character, colours,
// attributes and width, and its marks) and the theme it is drawn in,
// encoded into one reused buffer and hashed at once.
func (t *sessionTrace) rowKey(snap *Snapshot, r int, th *Theme) uint64 {
	b := append(t.keyBuf[:0], th.Foreground.R, th.Foreground.G, th.Foreground.B, th.Background.R, th.Background.G, th.Background.B)
	for i, c := range snap.Cells[r*snap.Cols : (r+1)*snap.Cols] {
		b = binary.LittleEndian.AppendUint32(b, uint32(c.Rune))
		b = binary.LittleEndian.AppendUint32(b, uint32(c.FG))
		b = binary.LittleEndian.AppendUint32(b, uint32(c.BG))
		b = binary.LittleEndian.AppendUint16(b, uint16(c.Attr))
		b = append(b, c.Width)
		if len(snap.Marks) > 0 {
			if m := snap.Marks[r*snap.Cols+i]; m != "" {
				b = append(append(b, m...), 0)
			}
		}
	}
	t.keyBuf = b
	return maphash.Bytes(t.seed, b)
}

// rowID returns the index of the encoded row in the row table, adding it.
func (t *sessionTrace) rowID(enc []byte) int {
	if i, ok := t.rowIndex[string(enc)]; ok {
		return i
	}
	t.rows = append(t.rows, json.RawMessage(enc))
	t.rowIndex[string(enc)] = len(t.rows) - 1
	return len(t.rows) - 1
}

// styleID returns the index of the CSS declarations css in the style
// table, adding them.
func (t *sessionTrace) styleID(css string) int {
	if i, ok := t.styleIdx[css]; ok {
		return i
	}
	t.styles = append(t.styles, css)
	t.styleIdx[css] = len(t.styles) - 1
	return len(t.styles) - 1
}

// encodeTraceRow encodes row r of snap as JSON: an array of runs of
// cells of one style, each [style, text] where text is one character a
// cell, or, when a cell holds a wide character or combining marks,
// [style, [cell texts]] with "" for the right half of a wide character.
// Trailing blank cells of the default style are left out. Hidden cells
// (SGR 8) are written as blanks: what a program hides stays hidden.
func encodeTraceRow(snap *Snapshot, r int, th *Theme, style func(string) int) []byte {
	cells := snap.Cells[r*snap.Cols : (r+1)*snap.Cols]
	end := len(cells)
	for end > 0 && blankCell(cells[end-1]) && snap.Marks[r*snap.Cols+end-1] == "" {
		end--
	}
	b := []byte{'['}
	for i := 0; i < end; {
		css := cellCSS(th, cells[i])
		j, simple := i, true
		var texts []string
		for j < end && (j == i || cellCSS(th, cells[j]) == css) {
			t := traceCellText(cells[j], snap.Marks[r*snap.Cols+j])
			if cells[j].Width != 1 || utf8.RuneCountInString(t) != 1 {
				simple = false
			}
			texts = append(texts, t)
			j++
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = append(b, strconv.Itoa(style(css))...)
		b = append(b, ',')
		if simple {
			enc, _ := json.Marshal(strings.Join(texts, ""))
			b = append(b, enc...)
		} else {
			enc, _ := json.Marshal(texts)
			b = append(b, enc...)
		}
		b = append(b, ']')
		i = j
	}
	return append(b, ']')
}

// blankCell reports whether c is an empty cell of the default style.
func blankCell(c Cell) bool {
	return (c.Rune == 0 || c.Rune == ' ') && c.Width == 1 && c.FG.IsDefault() && c.BG.IsDefault() && c.Attr == 0 && c.Link == 0
}

// traceCellText is what cell c shows: its character and marks, a blank for
// an empty or hidden cell, "" for the right half of a wide character.
func traceCellText(c Cell, marks string) string {
	switch {
	case c.Width == 0:
		return ""
	case c.Attr&AttrHidden != 0 || c.Rune == 0 || c.Rune < ' ' || c.Rune == 0x7f:
		return " "
	}
	return string(c.Rune) + marks
}

// cellCSS is the CSS declarations of cell c drawn in th: colours other
// than the theme's defaults (resolved as the PNG renderer resolves them),
// weight, slant and decorations. "" is the default style.
func cellCSS(th *Theme, c Cell) string {
	if c.FG.IsDefault() && c.BG.IsDefault() && c.Attr&^AttrULMask == 0 {
		return ""
	}
	fg, bg, _ := cellColors(th, c)
	var b strings.Builder
	if fg != th.Foreground {
		b.WriteString("color:" + hexColor(fg) + ";")
	}
	if bg != th.Background {
		b.WriteString("background:" + hexColor(bg) + ";")
	}
	if c.Attr&AttrBold != 0 {
		b.WriteString("font-weight:bold;")
	}
	if c.Attr&AttrItalic != 0 {
		b.WriteString("font-style:italic;")
	}
	if deco := textDecorations(c.Attr); deco != "" {
		b.WriteString("text-decoration:" + deco + ";")
	}
	return b.String()
}
