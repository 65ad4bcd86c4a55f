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
	maxTraceSteps    = 10000    // steps kept; later ones are counted in dropped
	maxTraceScreens  = 2000     // distinct screens kept; later steps keep no screen
	maxTraceBytes    = 64 << 20 // screen bytes kept (rows, styles, screens: SECURITY.md); past it later steps keep no screen
	maxTraceArgBytes = 8 << 20  // argument and tape text bytes kept over all steps; past it a step keeps {"cut": bytes} and no tape
	maxTraceOutput   = 4 << 10  // newest bytes of a command block's output kept
	maxTraceError    = 300      // bytes of an isError reply's text kept
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
// tools_steps.go), what the tool says of the call as a step (stepView),
// when it started and how long it took; in a traced session also the
// screen after it (an index into the trace's screens, -1 for none) and
// the commands that ended during it.
type traceStep struct {
	N        int             `json:"n"`
	Tool     string          `json:"tool"`
	Args     json.RawMessage `json:"args"`
	Start    time.Time       `json:"-"`
	Duration time.Duration   `json:"-"`
	Screen   int             `json:"screen"`
	Commands []traceCommand  `json:"commands,omitempty"`
	Cut      bool            `json:"cut,omitempty"` // past maxTraceArgBytes: its arguments and tape commands were not kept
	stepView
}

// stepView is what one tool call is as a step of its session, as the
// tool's own step form says it (each tool's file, passed to newTool):
// read from its typed arguments and result, never from their JSON.
type stepView struct {
	SessionID string    `json:"-"`                // the session it acted on ("" records no step)
	Summary   string    `json:"sum"`              // the timeline's line: what it typed, waited for or took, and how it ended
	Failed    string    `json:"failed,omitempty"` // how it fell short, "" when it did what it was asked: "exit 2", "timed out", an error
	Error     string    `json:"error,omitempty"`  // an isError reply's text, cut to maxTraceError bytes
	Reply     any       `json:"reply,omitempty"`  // what the trace shows of the reply: small, never a page's URL or a whole screen
	Tape      []tapeCmd `json:"-"`                // the tape commands that replay it, comments included
	Shots     []string  `json:"shots,omitempty"`  // file names of the PNGs it wrote, beside the trace
	Ends      bool      `json:"-"`                // it stopped its session: the trace is complete
	Origin    string    `json:"origin,omitempty"` // what made the call: a tape's FILE:LINE and command (ToolCall.Origin)
	Command   int       `json:"-"`                // the command its wait ended with (its n), 0 for none: a tape asserts each once
}

// failed is v as the step of a call that returned the isError reply
// text: its session and summary kept, no reply and no tape commands.
func (v stepView) failed(text string) stepView {
	return stepView{SessionID: v.SessionID, Summary: joinSummary(v.Summary, "error"), Failed: "error",
		Error: clipRunes(text, maxTraceError)}
}

// joinSummary joins the parts of a step's timeline line that are not "".
func joinSummary(parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
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

// traceScreen is one distinct screen: its lines are indices into the
// trace's row table.
type traceScreen = htmlScreen[int]

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
	rowIndex  map[uint64][]int // hash of an encoded row -> indices in rows of rows so encoded
	rowHash   map[uint64]int   // rowKey -> index in rows
	bytes     int              // about what the screens hold: rows, styles, screens
	budget    int              // bytes the screens may hold (maxTraceBytes; tests lower it)
	cut       int              // screens not kept past maxTraceBytes
	seed      maphash.Seed
	keyBuf    []byte      // rowKey's buffer
	styles    []htmlStyle // the style table of every row
	styleIdx  map[htmlStyle]int
	lastCmd   int    // the newest command number recorded
	person    uint64 // the session's PersonWrites the trace has noted
	stoppedAt time.Time
	path      string // where the HTML trace was written, once it was
}

// newSessionTrace returns the trace of the session meta describes; with
// full it keeps screens, commands and screenshots.
func newSessionTrace(meta traceMeta, full bool) *sessionTrace {
	return &sessionTrace{full: full, meta: meta, budget: maxTraceBytes, rowIndex: map[uint64][]int{}, rowHash: map[uint64]int{}, seed: maphash.MakeSeed(),
		styleIdx: map[htmlStyle]int{}}
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
	t.argBytes += len(step.Args) + tapeBytes(step.Tape)
	if t.argBytes > maxTraceArgBytes {
		step.Args = json.RawMessage(`{"cut":` + strconv.Itoa(len(step.Args)) + `}`)
		step.Tape, step.Cut = nil, true
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

// tapeBytes is about what cmds hold in text.
func tapeBytes(cmds []tapeCmd) int {
	n := 0
	for _, c := range cmds {
		n += len(c.Text) + len(c.Regex) + 16
	}
	return n
}

// PersonSeen returns the count of a person's writes into the session the
// trace had noted, and notes n: a step that says a person typed is due
// when n is more.
func (t *sessionTrace) PersonSeen(n uint64) uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	seen := t.person
	t.person = max(seen, n)
	return seen
}

// FailLast marks the last step failed with why, for a failure that is
// known only after the call (a tape's assertion that did not hold).
func (t *sessionTrace) FailLast(why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := len(t.steps); n > 0 {
		t.steps[n-1].Failed = clipRunes(why, maxTraceError)
	}
}
