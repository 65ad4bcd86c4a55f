package main

// tools_wait.go: what shell_send, shell_wait and shell_click wait for, and the
// waiting itself. A wait is a sequence of stages that hold one after the
// other: wait_for (text or /regex/ on the screen or in new output) first,
// then wait_for_gone (no longer on the screen), then the quiet
// (wait_idle_ms: no output) or stable (wait_stable_ms: the screen's text
// unchanged) condition; with none of them, the program's exit. The wait
// wakes on the session's change events (and on timers for the durations),
// never by polling, and ends at timeout_ms.
//
// What counts as a match: a match made only of the echo of the input
// just typed, or (with new_only) only of text that was on the screen when
// the call began, does not count. The emulator marks those cells
// (vt_echo.go); the new-output stream is filtered by an echo tracker of
// its own.

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// WaitArgs are the wait arguments shell_send, shell_wait and shell_click
// share: their argument structs embed it, waitProps declares it in their
// schemas and parse checks it.
type WaitArgs struct {
	WaitFor         *string `json:"wait_for"` // nil: not given; "" is refused
	WaitForGone     *string `json:"wait_for_gone"`
	WaitIdleMS      *int    `json:"wait_idle_ms"`
	WaitStableMS    *int    `json:"wait_stable_ms"`
	WaitForInput    bool    `json:"wait_for_input"`
	NewOnly         *bool   `json:"new_only"`
	TimeoutMS       *int    `json:"timeout_ms"`
	commandWaitArgs         // wait_for_command and its max_bytes (session_commands.go)
}

// waitProps adds the WaitArgs properties to a tool's input schema
// properties m: each says what it waits for and its default, in the same
// words in shell_send, shell_click and shell_wait, so that every schema
// that takes a wait says it whole. regexNote is how wait_for's /regex/
// is spelled out: regexFlagsDoc in shell_wait, a pointer to it elsewhere.
func waitProps(m map[string]any, regexNote string) map[string]any {
	m["wait_for"] = prop("string", "Text or /regex/ to appear, not your echo; "+regexNote+".")
	m["wait_for_gone"] = prop("string", "Text or /regex/ to disappear.")
	m["wait_for_command"] = prop("boolean", "The command ends: exit code, output.")
	m["wait_for_input"] = prop("boolean", "All input read, the program reads again.")
	m["wait_idle_ms"] = prop("integer", "No output this long.")
	m["wait_stable_ms"] = prop("integer", "Screen unchanged this long.")
	m["timeout_ms"] = prop("integer", "Default 10000, max 120000.")
	m["max_bytes"] = prop("integer", "Command output kept, newest (default 8192).")
	m["new_only"] = prop("boolean", "Default true: ignore text shown before the last send.")
	return m
}

// commandWaitArgs are the wait arguments about commands, shared by
// shell_send and shell_wait.
type commandWaitArgs struct {
	WaitForCommand bool `json:"wait_for_command"`
	MaxBytes       *int `json:"max_bytes"`
}

// checkCommandWait validates the command wait arguments for s: the
// output limit, and that the session can mark commands at all.
func checkCommandWait(s *Session, in commandWaitArgs) (max int, err error) {
	max = defaultReadBytes
	if in.MaxBytes != nil {
		if !in.WaitForCommand {
			return 0, fmt.Errorf("max_bytes applies to wait_for_command's output: add wait_for_command true, or drop max_bytes")
		}
		if max = *in.MaxBytes; max < 1 || max > commandOutputCap {
			return 0, fmt.Errorf("max_bytes %d is out of range: use 1..%d", max, commandOutputCap)
		}
	}
	if !in.WaitForCommand {
		return max, nil
	}
	s.mu.Lock()
	integ, seen := s.integ, s.sh.seenA
	s.mu.Unlock()
	if !integ.Active && !seen {
		why := integ.Reason
		if why == "" {
			why = "the program marks no commands"
		}
		return 0, fmt.Errorf("wait_for_command needs a shell with integration, and this session has none (%s): wait with wait_for (text or /regex/ the command prints, e.g. echo DO''NE and wait for DONE) or wait_idle_ms instead", why)
	}
	return max, nil
}

// commandDoneLocked reports the first command that ended after the wait
// began (w.cmdBase), once the prompt after it is drawn. s.mu is held.
func (w *outputWatch) commandDoneLocked() (*command, bool) {
	st := &w.s.sh
	if w.cmdBase == firstPromptBase {
		return firstPrompt, st.seenB || !w.s.integ.Active && st.seenA
	}
	if st.ended <= w.cmdBase {
		// None ran, but the shell idle at a prompt drew a new one (an
		// empty line, Ctrl-C): nothing is left to wait for.
		if w.promptBase >= 0 && st.running == nil && st.prompts > w.promptBase && (!st.seenB || st.inLine) {
			return firstPrompt, true
		}
		return nil, false
	}
	first := len(st.cmds) - (st.ended - w.cmdBase)
	c := st.cmds[max(first, 0)]
	if w.input != "" && c.n <= w.startBase && st.next > w.startBase {
		// The call typed while c ran, and the shell started a command
		// after c: c did not read the line, which was typed ahead for the
		// shell (a build or a sleep ran), so the call's command is that
		// next one.
		for _, next := range st.cmds[max(first, 0):] {
			if next.n == w.startBase+1 {
				return next, next.drawn && next != st.running
			}
		}
		return nil, false
	}
	return c, c.drawn
}

// firstPromptBase is outputWatch.cmdBase for shell_wait's
// wait_for_command before the shell's first prompt: it waits for that
// prompt, and then returns firstPrompt (already_done, no command), not
// for a command that nobody started.
const firstPromptBase = -1

// firstPrompt is the command a firstPromptBase wait ends with, and a
// wait whose input ran none but drew a new prompt.
var firstPrompt = &command{}

// Stage kinds, in the order they hold: a new kind needs its stage in
// WaitArgs.parse and its case in outputWatch.check.
type stageKind int

const (
	stageCommand stageKind = iota // wait_for_command: the next command's end (session_commands.go)
	stageMatch                    // wait_for
	stageGone                     // wait_for_gone
	stageInput                    // wait_for_input
	stageIdle                     // wait_idle_ms
	stageStable                   // wait_stable_ms
	stageExit                     // no condition given: the program's exit
)

// waitStage is one condition of a wait.
type waitStage struct {
	kind           stageKind
	name           string // the argument it came from, as the reply names it
	match          *matcher
	d              time.Duration
	afterOutput    bool // idle: counts only once the program has printed something
	afterNewOutput bool // idle: counts only once output arrived since the wait began
}

// waitSpec is a checked wait: its stages in order (none: do not wait).
type waitSpec struct {
	stages  []waitStage
	newOnly bool
	command bool // a wait_for_command stage is among the stages
	timeout time.Duration
}

func (w waitSpec) waiting() bool { return len(w.stages) > 0 }

// firstMatch is the wait_for stage's matcher, or nil.
func (w waitSpec) firstMatch() *matcher {
	for _, st := range w.stages {
		if st.kind == stageMatch {
			return st.match
		}
	}
	return nil
}

// parse checks the wait arguments and returns the stages. exitByDefault
// makes a wait without conditions wait for the program's exit
// (shell_wait); otherwise it does not wait.
func (a WaitArgs) parse(newOnlyDefault, exitByDefault bool) (waitSpec, error) {
	spec := waitSpec{newOnly: newOnlyDefault}
	if a.NewOnly != nil {
		spec.newOnly = *a.NewOnly
	}
	for _, f := range []struct {
		name, what string
		v          *string
	}{{"wait_for", "to wait for", a.WaitFor}, {"wait_for_gone", "to wait to go away", a.WaitForGone}} {
		if f.v != nil && *f.v == "" {
			return spec, fmt.Errorf("%s is empty: give the text (or /regex/) %s, or leave %s out", f.name, f.what, f.name)
		}
	}
	m, err := parseWaitFor(strOf(a.WaitFor))
	if err != nil {
		return spec, err
	}
	if a.WaitForCommand {
		spec.command = true
		spec.stages = append(spec.stages, waitStage{kind: stageCommand, name: "wait_for_command"})
	}
	if m != nil {
		spec.stages = append(spec.stages, waitStage{kind: stageMatch, name: "wait_for", match: m})
	}
	if m, err = parseMatcher("wait_for_gone", strOf(a.WaitForGone)); err != nil {
		return spec, err
	}
	if m != nil {
		spec.stages = append(spec.stages, waitStage{kind: stageGone, name: "wait_for_gone", match: m})
	}
	if a.WaitForInput {
		spec.stages = append(spec.stages, waitStage{kind: stageInput, name: "wait_for_input"})
	}
	if a.WaitIdleMS != nil && a.WaitStableMS != nil {
		return spec, fmt.Errorf("give wait_idle_ms (no output for that long) or wait_stable_ms (the screen's text unchanged for that long), not both")
	}
	for _, d := range []struct {
		v    *int
		kind stageKind
		name string
	}{{a.WaitIdleMS, stageIdle, "wait_idle_ms"}, {a.WaitStableMS, stageStable, "wait_stable_ms"}} {
		if d.v == nil {
			continue
		}
		if *d.v < 1 || *d.v > maxTimeoutMS {
			return spec, fmt.Errorf("%s %d is out of range: use 1..%d (milliseconds)", d.name, *d.v, maxTimeoutMS)
		}
		spec.stages = append(spec.stages, waitStage{kind: d.kind, name: d.name, d: time.Duration(*d.v) * time.Millisecond})
	}
	if len(spec.stages) == 0 && exitByDefault {
		spec.stages = append(spec.stages, waitStage{kind: stageExit, name: "exit"})
	}
	spec.timeout, err = msArg("timeout_ms", a.TimeoutMS, defaultTimeoutMS, maxTimeoutMS)
	return spec, err
}

// describe says what stage st waits for, for progress messages.
func (st waitStage) describe() string {
	switch st.kind {
	case stageCommand:
		return "the command to end"
	case stageMatch:
		return st.match.String()
	case stageGone:
		return st.match.String() + " to go away"
	case stageInput:
		return "the program to read its input and wait for more"
	case stageIdle:
		return fmt.Sprintf("%v without output", st.d)
	case stageStable:
		return fmt.Sprintf("the screen to stay unchanged for %v", st.d)
	}
	return "the program to exit"
}

// matcher is a parsed wait_for: literal text or a regular expression
// (then text is the argument as given, /re/flags, for messages).
type matcher struct {
	text string
	re   *regexp.Regexp
}

// strOf is *p, or "" for nil.
func strOf(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// The flags a /re/flags argument takes: regexFlags are RE2's (m, ^ and $
// at line ends, is on whatever the flags say), ignoredFlags are
// JavaScript habits accepted and ignored. A pattern whose flags are not
// all of these is literal text, so that a path such as /tmp/x or
// /usr/bin is found as written.
const (
	regexFlags   = "imsU"
	ignoredFlags = "guy"
)

// regexFlagsDoc says what regexFlags and ignoredFlags are, for every tool
// description (and snap's help) that takes a /regex/; README.md says the
// same.
const regexFlagsDoc = "RE2; flags i, s, U, m (always on); g, u, y ignored; other letters after the last slash make it literal text (/usr/bin)"

// parseWaitFor parses a wait_for argument (parseMatcher).
func parseWaitFor(s string) (*matcher, error) { return parseMatcher("wait_for", s) }

// parseMatcher reads the argument called name: "/re/flags" (flags from
// regexFlags and ignoredFlags, none at all included) is a regular
// expression with ^ and $ matching at line ends, anything else literal
// text. "" is no matcher.
func parseMatcher(name, s string) (*matcher, error) {
	if s == "" {
		return nil, nil
	}
	if err := checkWaitFor(s); err != nil {
		return nil, fmt.Errorf("%s%s", name, strings.TrimPrefix(err.Error(), "wait_for"))
	}
	if j := strings.LastIndexByte(s, '/'); len(s) >= 2 && s[0] == '/' && j > 0 {
		flags := s[j+1:]
		if strings.Trim(flags, regexFlags+ignoredFlags) == "" {
			goFlags := "m"
			for _, f := range strings.ReplaceAll(regexFlags, "m", "") {
				if strings.ContainsRune(flags, f) {
					goFlags += string(f)
				}
			}
			expr := "(?" + goFlags + ")" + s[1:j]
			if err := checkRegexProgram(expr); err != nil {
				return nil, fmt.Errorf("%s%s", name, strings.TrimPrefix(err.Error(), "wait_for"))
			}
			re, err := regexp.Compile(expr)
			if err != nil {
				if _, bare := regexp.Compile(s[1:j]); bare != nil {
					err = bare // the pattern as given, without the flags added in front
				}
				return nil, fmt.Errorf("%s %q is not a valid regular expression (RE2 syntax): %v; fix it, or drop the surrounding slashes to match the text literally", name, s, err)
			}
			return &matcher{text: s, re: re}, nil
		}
	}
	return &matcher{text: s}, nil
}

// quoted is the matcher as the call gave it: "text" quoted, /regex/
// as written.
func (m *matcher) quoted() string {
	if m.re != nil {
		return m.text
	}
	return strconv.Quote(m.text)
}

// String shows the matcher as a progress message names it.
func (m *matcher) String() string {
	if m.re != nil {
		return "output matching " + m.text
	}
	return fmt.Sprintf("%q", m.text)
}

func (m *matcher) matchString(s string) bool {
	if m.re != nil {
		return m.re.MatchString(s)
	}
	return strings.Contains(s, m.text)
}

// matchFresh reports whether s has a match that counts: with fresh nil
// any match; else one that covers at least one fresh byte (fresh[i] is
// byte i's flag), or matches no characters at all. Regular expression
// matches are the leftmost non-overlapping ones.
func (m *matcher) matchFresh(s string, fresh []bool) bool {
	if fresh == nil {
		return m.matchString(s)
	}
	counts := func(a, b int) bool { return a == b || slices.Contains(fresh[a:b], true) }
	if m.re != nil {
		for _, loc := range m.re.FindAllStringIndex(s, -1) {
			if counts(loc[0], loc[1]) {
				return true
			}
		}
		return false
	}
	for from := 0; from <= len(s); {
		i := strings.Index(s[from:], m.text)
		if i < 0 {
			return false
		}
		if counts(from+i, from+i+len(m.text)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[from+i:])
		from += i + max(size, 1)
	}
	return false
}

// outputWatch follows a session for one wait: the output that arrives
// after it is made, with escape sequences and controls other than \n and
// \t removed (so text is found even after it scrolled off the screen),
// the echo in it flagged; and the marks on the screen. Its fields are
// guarded by s.mu (the listener runs there).
type outputWatch struct {
	s        *Session
	start    time.Time
	strip    ansiStripper
	text     []byte // the newest output, at most streamCap bytes
	fresh    []bool // per byte of text when echo is tracked: not echo
	flagged  int    // bytes of text flagged so far
	echo     *echoTracker
	echoNL   bool // a newline came after the last echo in the stream
	base     int  // bytes dropped from the front of text so far
	checked  int  // stream offset (base-relative total) searched so far
	marked   bool // the emulator marks echo and old text for this wait
	screenOK bool // without marks: the screen may satisfy the match
	remove   func()

	// The stable condition's state: the screen text last seen and since when.
	stableText  string
	stableSince time.Time

	cmdBase     int      // commands ended when the watch began (session_commands.go)
	command     *command // wait_for_command: the command that ended
	commandHeld bool     // wait_for_command held when the wait began (shell_wait, no command running)
	promptBase  int      // prompts drawn when the watch began with the shell idle at one, else -1 (session_commands.go)
	startBase   int      // commands started when the watch began (shellState.next)
	input       string   // what the call types (watch's input)
	lineKnown   bool     // the watch began at a prompt with a B mark: lineFrom, lineCol are where its command line starts
	lineFrom    int64
	lineCol     int
	settled     outputSettled // wait_for_command's end: the prompt's output has all arrived
	inputs      inputWait     // wait_for_input, and a wait_for_command stopped at a prompt (tools_input.go)
	resumed     bool          // kept after a send and taken over by the wait that follows it (tools_followup.go)
	escAt       time.Time     // when the call's input ended with a lone Escape, zero when it did not (tools_input.go)
	oldCounts   bool          // new_only false on a resumed watch: text shown before the send counts, its echo does not
	since       screenMark    // the screen when the watch began: a reply shows what changed since (changedScreen)
}

// newWatch starts following s for spec. input is what the call types
// (escape sequences removed, '\r' or '\n' between lines; "" for none):
// its echo does not satisfy wait_for. Without input and new_only
// nothing is marked. When another wait on the session holds the marks,
// this one falls back: the screen counts only if it did not match
// already (new_only), and the echo is not told apart on the screen.
func newWatch(s *Session, spec waitSpec, input string) *outputWatch {
	w := &outputWatch{s: s, start: time.Now(), screenOK: true, echo: newEchoTracker(input), input: input}
	w.remove = s.AddOutputListener(w.feed)
	s.mu.Lock()
	defer s.mu.Unlock()
	w.cmdBase, w.promptBase = s.commandBaseLocked(), s.promptBaseLocked()
	w.startBase = s.sh.next
	w.since = markScreen(s.term)
	if w.promptBase >= 0 && s.sh.seenB && s.sh.inLine {
		w.lineKnown, w.lineFrom, w.lineCol = true, s.sh.bLine, s.sh.bCol
	}
	if w.echo != nil || spec.newOnly {
		w.marked = s.term.BeginMarks(input, spec.newOnly)
	}
	if m := spec.firstMatch(); !w.marked && spec.newOnly && m != nil {
		// Under a full-screen program the shell's old screen is hidden and
		// comes back when the program exits: its old prompt must not end a
		// wait for the next one either.
		w.screenOK = !m.matchString(s.term.ScreenText()) && !m.matchString(s.term.HiddenMainText())
	}
	return w
}

// resume readies a watch kept after a send for another wait: what that
// wait finds is searched for in all the output since the send, and the
// per-wait state starts afresh.
func (w *outputWatch) resume() {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.checked = w.base
	w.stableText, w.stableSince = "", time.Time{}
	w.command, w.commandHeld = nil, false
	w.settled, w.inputs = outputSettled{}, inputWait{}
	w.resumed = true
}

// feed takes one read of program output. s.mu is held. With the marks
// held, the text is the emulator's log of what it drew, each byte
// flagged by the screen's own echo rules (Terminal.TakeMarkLog); without
// them, the output with its escape sequences removed, flagged by this
// watch's echo tracker.
func (w *outputWatch) feed(p []byte, _ time.Time) {
	if w.marked {
		text, fresh := w.s.term.TakeMarkLog()
		w.text = append(w.text, text...)
		w.fresh = append(w.fresh, fresh...)
		if w.fresh == nil {
			w.fresh = []bool{}
		}
		w.flagged = len(w.text)
		w.capStream()
		return
	}
	w.text = w.strip.appendText(w.text, p)
	if w.echo != nil {
		for w.flagged < len(w.text) && utf8.FullRune(w.text[w.flagged:]) {
			r, size := utf8.DecodeRune(w.text[w.flagged:])
			fresh := true
			switch {
			case r == '\n':
				w.echoNL = true
			case r >= 0x20:
				if w.echo.step(r, w.echoNL) {
					fresh, w.echoNL = false, false
				}
			}
			for range size {
				w.fresh = append(w.fresh, fresh)
			}
			w.flagged += size
		}
	}
	w.capStream()
}

// capStream keeps the newest bytes of the stream when it grew past
// streamCap. s.mu is held.
func (w *outputWatch) capStream() {
	if len(w.text) > streamCap {
		drop := len(w.text) - streamCap/2
		w.text = append(w.text[:0], w.text[drop:]...)
		if w.fresh != nil {
			w.fresh = append(w.fresh[:0], w.fresh[drop:]...)
		}
		w.flagged -= drop
		w.base += drop
	}
}

// dropStream forgets the output collected so far (its bytes count as
// searched). s.mu is held.
func (w *outputWatch) dropStream() {
	drop := len(w.text)
	if w.fresh != nil {
		drop = w.flagged // a rune not flagged yet stays
		w.fresh = append(w.fresh[:0], w.fresh[drop:]...)
	}
	w.text = append(w.text[:0], w.text[drop:]...)
	w.flagged -= drop
	w.base += drop
	w.checked = max(w.checked, w.base)
}

// close stops following and removes the marks; once is enough, more
// do nothing.
func (w *outputWatch) close() {
	if w.remove == nil {
		return
	}
	w.remove()
	w.remove = nil
	if w.marked {
		w.s.mu.Lock()
		w.s.EndMarksLocked()
		w.s.mu.Unlock()
		w.marked = false
	}
}

// matchLocked reports whether m has a match that counts on the screen or
// in the output since the last call. s.mu is held.
func (w *outputWatch) matchLocked(m *matcher) bool {
	switch {
	case w.marked && !w.oldCounts:
		if text, fresh := w.s.term.ScreenTextMarked(); m.matchFresh(text, fresh) {
			return true
		}
	case w.screenOK || w.oldCounts:
		text, fresh := w.s.term.ScreenTextEcho()
		if m.matchFresh(text, fresh) {
			return true
		}
		if fresh != nil && m.matchString(text) {
			// On the screen only as echo: what this watch's stream saw
			// was that echo being drawn (a line editor redrawing a paste
			// after the call that typed it), which the stream cannot
			// tell from output; it is dropped, so that no later look
			// takes it for output either.
			w.dropStream()
			return false
		}
	}
	return w.streamMatch(m)
}

// echoOnlyLocked reports whether m matches the screen only where its
// cells are the echo of typed input (a command line), for the timeout's
// message. s.mu is held.
func (w *outputWatch) echoOnlyLocked(m *matcher) bool {
	text, fresh := w.s.term.ScreenTextEcho()
	return fresh != nil && m.matchString(text) && !m.matchFresh(text, fresh)
}

// streamMatch searches the output collected since the last call; literal
// text is searched only where it could newly appear. s.mu is held.
func (w *outputWatch) streamMatch(m *matcher) bool {
	end := w.base + len(w.text)
	if end == w.checked {
		return false
	}
	from := 0
	if m.re == nil {
		from = max(w.checked-w.base-len(m.text)+1, 0)
	}
	w.checked = end
	var fresh []bool
	if w.fresh != nil {
		f := w.fresh[min(from, len(w.fresh)):]
		if short := len(w.text) - from - len(f); short > 0 { // a rune not complete yet
			f = append(slices.Clip(f), make([]bool, short)...)
		}
		fresh = f
	}
	return m.matchFresh(string(w.text[from:]), fresh)
}

// waitOutcome is how a wait ended.
type waitOutcome struct {
	matched  bool     // every stage held
	timedOut bool     // timeout_ms ended it
	held     []string // the stages that held, in order
	endedBy  string   // the last stage, "exit", "timeout_ms" or "cancelled"
	command  *command // wait_for_command: the command that ended
	noStart  bool     // timed out in wait_for_command with no command started (commandUnstartedLocked)
	echoOnly bool     // timed out in wait_for whose text is on the screen only as echo
	input    string   // wait_for_input held: the input kind the program waits for
	waiting  string   // wait_for_command ended early: the command waits for a secret or a line
	fg       Foreground
}

// check reports whether stage st holds, and when it does not, how long
// until it may hold with no further change (0: only a change can make
// it hold). s.mu is held.
func (w *outputWatch) check(st *waitStage, exited bool) (bool, time.Duration) {
	s := w.s
	switch st.kind {
	case stageCommand:
		if w.commandHeld {
			return true, 0
		}
		cmd, done := w.commandDoneLocked()
		if !done {
			return false, w.promptWaitLocked(exited)
		}
		if d := w.promptSettleLocked(exited); d > 0 {
			return false, d
		}
		w.command = cmd
		return true, 0
	case stageMatch:
		return w.matchLocked(st.match), 0
	case stageGone:
		return !st.match.matchString(s.term.ScreenText()), 0
	case stageIdle:
		if exited {
			return true, 0 // no more output can come
		}
		if st.afterOutput && s.fed == 0 || st.afterNewOutput && !s.lastOutput.After(w.start) {
			return false, 0 // nothing printed yet: not idle, just slow to answer
		}
		d := time.Until(maxTime(s.lastOutput, w.start).Add(st.d))
		return d <= 0, d
	case stageInput:
		return w.inputWaitLocked(exited)
	case stageStable:
		if exited {
			return true, 0
		}
		if text := s.term.ScreenTextStill(); w.stableSince.IsZero() || text != w.stableText {
			w.stableText, w.stableSince = text, time.Now()
		}
		d := time.Until(w.stableSince.Add(st.d))
		return d <= 0, d
	case stageExit:
		return exited, 0
	}
	// A new stage kind adds its case above: hold now, or when to look again.
	return false, 0
}

// settlePoll is how often promptSettleLocked looks, and the quiet it
// wants with the shell reading: what the shell wrote before its read
// (zsh turns bracketed paste on after its prompt) has reached the
// emulator by then.
const settlePoll = 500 * time.Microsecond

// promptSettleLocked is how long to look again before a wait_for_command
// that saw its prompt drawn may return, 0 when it may now: once the
// shell reads its terminal after settlePoll of quiet (Linux), or after
// readyQuiet of quiet (elsewhere, as shell_start's readiness). Between
// drawing the prompt and reading, bash still runs with the terminal as
// the command left it: a C-c typed then was lost, and the next key with
// it (5 rounds in 100 of C-c right after a command). s.mu is held.
func (w *outputWatch) promptSettleLocked(exited bool) time.Duration {
	s := w.s
	if exited {
		return 0
	}
	// The prompt reads its input once drawn, but what the shell wrote
	// before its read may still be in transit (zsh's \e[?2004h after its
	// prompt): the same two looks as shell_start's readiness.
	quiet := settlePoll
	if ptyReadsHeld {
		quiet = 0 // the reader takes output only with s.mu held: one look finds it all fed
	}
	if w.settled.check(s, readsInput(s.pid, time.Since(s.lastOutput), quiet, true), s.fed) {
		return 0
	}
	return settlePoll
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// wait blocks until every stage of spec has held in turn, the program
// exits, the timeout passes or ctx ends.
//
// progress, when not nil, hears about the wait once a second
// (notifications/progress: elapsed and total milliseconds), so clients that
// reset their request timeout on progress keep waiting.
func (w *outputWatch) wait(ctx context.Context, spec waitSpec, progress func(progress, total float64, message string)) waitOutcome {
	s := w.s
	began := time.Now()
	deadline := time.NewTimer(spec.timeout)
	defer deadline.Stop()
	var tick <-chan time.Time
	if progress != nil {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		tick = t.C
	}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	out := waitOutcome{held: []string{}}
	i := 0
	final := false
	for {
		s.mu.Lock()
		ch, exited := s.changed, s.exited
		var retry time.Duration
		for i < len(spec.stages) {
			held, d := w.check(&spec.stages[i], exited)
			if !held {
				retry = d
				break
			}
			out.held = append(out.held, spec.stages[i].name)
			i++
		}
		unstarted := i < len(spec.stages) && spec.stages[i].kind == stageCommand && w.commandUnstartedLocked()
		echoOnly := final && i < len(spec.stages) && spec.stages[i].kind == stageMatch && w.echoOnlyLocked(spec.stages[i].match)
		s.mu.Unlock()
		switch {
		case i == len(spec.stages):
			out.matched, out.endedBy, out.command = true, spec.stages[len(spec.stages)-1].name, w.command
			if last := spec.stages[len(spec.stages)-1]; last.kind == stageInput {
				out.endedBy, out.input, out.fg = "input", w.inputs.kind, w.inputs.fg
			}
			return out
		case w.inputs.waitingFor != "" && spec.stages[i].kind == stageCommand:
			out.endedBy, out.waiting, out.fg = "input", w.inputs.waitingFor, w.inputs.fg
			return out
		case exited:
			out.endedBy = "exit" // no more output can come
			return out
		case final:
			out.timedOut, out.endedBy, out.noStart, out.echoOnly = true, "timeout_ms", unstarted, echoOnly
			return out
		}
		if retry > 0 {
			timer.Reset(retry)
		}
		select {
		case <-ch:
		case <-timer.C:
		case <-deadline.C:
			final = true // one last look: output may have arrived just now
		case <-ctx.Done():
			out.timedOut, out.endedBy = true, "cancelled"
			return out
		case <-tick:
			elapsed := time.Since(began)
			what := spec.stages[i].describe()
			if unstarted {
				what = "a command to start (none has: a continuation prompt, or a line the shell kept?)"
			}
			progress(float64(elapsed.Milliseconds()), float64(spec.timeout.Milliseconds()),
				fmt.Sprintf("waiting for %s (%v so far)", what, elapsed.Round(time.Second)))
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// summary is the first line of a timed-out or unmatched wait's text
// block, so that a model reading the text sees it first; "" when every
// condition held.
func (o waitOutcome) summary(spec waitSpec) string {
	if o.matched || !spec.waiting() {
		return ""
	}
	if o.waiting != "" {
		return waitingSummary(o.waiting, o.fg)
	}
	pending := spec.stages[len(o.held)]
	what := pending.name + " " + pending.describe()
	switch pending.kind {
	case stageExit:
		what = "the program to exit"
	case stageCommand:
		what = "wait_for_command (the command to end and its prompt to come back)"
	}
	switch {
	case o.endedBy == "timeout_ms" && o.noStart:
		return fmt.Sprintf("TIMED OUT after %v (matched false): no command started since the input was sent — the shell is showing a continuation prompt or kept the line (a syntax error?): "+
			"finish the line, or send C-c to discard it; the screen in this result is as it was then.", durationText(spec.timeout))
	case o.endedBy == "timeout_ms" && o.echoOnly:
		return fmt.Sprintf("TIMED OUT after %v waiting for %s (matched false): it is on the screen only as the echo of typed input (the command line), which never counts; "+
			"wait for the command's end with wait_for_command, or for text only its output shows.", durationText(spec.timeout), what)
	case o.endedBy == "timeout_ms":
		return fmt.Sprintf("TIMED OUT after %v waiting for %s (matched false); the screen in this result is as it was then.", durationText(spec.timeout), what)
	case o.endedBy == "exit":
		return fmt.Sprintf("NOT MATCHED: the program exited while waiting for %s.", what)
	}
	return fmt.Sprintf("NOT MATCHED: the wait was cancelled while waiting for %s.", what)
}

// commandUnstartedLocked reports whether a wait_for_command is still
// waiting for a command to begin: the shell is past its first prompt, no
// command runs, and none started or ended since the watch began. Then
// the shell is at a continuation prompt, or its line editor kept the
// line (fish keeps a line with a syntax error), or the input never
// reached it. s.mu is held.
func (w *outputWatch) commandUnstartedLocked() bool {
	st := &w.s.sh
	return w.cmdBase != firstPromptBase && st.seenA && st.running == nil && st.next == w.startBase && st.ended == w.cmdBase
}

// noCommandReplyCap bounds the reply noCommandReply quotes, the newest bytes.
const noCommandReplyCap = 2048

// noCommandReply is what the shell showed for input that ran no command
// but ended at a new prompt (wait_for_command's firstPrompt): the screen
// text from where the command line started to where the new prompt's
// line starts (the line, the shell's answer, the prompt), and whether
// that line was empty: nothing typed, or only the ^C the tty echoes for
// Ctrl-C. Without the prompts' B marks the reply is "" and the line
// counts as empty when the call typed no printable text.
func (w *outputWatch) noCommandReply() (reply string, empty bool) {
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	st := &s.sh
	if !w.lineKnown || !st.seenB || st.bLine < w.lineFrom || st.bLine == w.lineFrom && st.bCol <= w.lineCol {
		return "", strings.TrimSpace(w.input) == ""
	}
	reply, _ = rangeText(s.term, w.lineFrom, w.lineCol, st.bLine, st.bCol, noCommandReplyCap)
	line, _, _ := strings.Cut(reply, "\n")
	line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "^C"))
	return reply, line == ""
}

// ansiStripper removes escape sequences (CSI, OSC, DCS and other strings,
// two- and three-byte escapes) and C0 controls other than \n and \t from
// a byte stream, carrying its state across chunks.
type ansiStripper struct{ state uint8 }

// ansiStripper states.
const (
	stripGround    = iota
	stripEsc       // after ESC
	stripEscInter  // ESC with intermediates (ESC ( 0, ESC # 8)
	stripCSI       // ESC [ ... up to the final byte
	stripString    // OSC, DCS, SOS, PM, APC up to BEL or ST
	stripStringEsc // ESC inside a string: ST is ESC \
)

// appendText appends the printable text of p to dst.
func (a *ansiStripper) appendText(dst, p []byte) []byte {
	for _, c := range p {
		switch a.state {
		case stripGround:
			switch {
			case c == 0x1b:
				a.state = stripEsc
			case c == '\n' || c == '\t' || c >= 0x20 && c != 0x7f:
				dst = append(dst, c)
			}
		case stripEsc:
			switch {
			case c == '[':
				a.state = stripCSI
			case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
				a.state = stripString
			case c >= 0x20 && c <= 0x2f:
				a.state = stripEscInter
			case c == 0x1b:
			default:
				a.state = stripGround
			}
		case stripEscInter:
			if c < 0x20 || c > 0x2f {
				a.state = stripGround
			}
		case stripCSI:
			switch {
			case c == 0x1b:
				a.state = stripEsc
			case c >= 0x40 && c <= 0x7e:
				a.state = stripGround
			}
		case stripString:
			switch c {
			case 0x07:
				a.state = stripGround
			case 0x1b:
				a.state = stripStringEsc
			}
		case stripStringEsc:
			switch c {
			case '\\':
				a.state = stripGround
			case 0x1b:
			default:
				a.state = stripString
			}
		}
	}
	return dst
}

// maxWaitForBytes bounds wait_for, which every output batch is matched
// against while a wait runs (a screen of 1000x500 cells holds 500,000
// characters; text to wait for is a few dozen). maxRegexInsts bounds a
// /regex/'s compiled program: Go's matcher keeps about 42 bytes an
// instruction per regexp and per match state, so 4,096 instructions cost
// at most about 170 KiB, and 1,024 waits in flight (maxInflight) 170 MiB.
// A literal character is an instruction and x{1000} is a thousand, so the
// program cap, not the length, is what bounds a short regex.
const (
	maxWaitForBytes = 16 << 10
	maxRegexInsts   = 4096
)

// checkWaitFor refuses a wait_for longer than maxWaitForBytes, naming the
// limit.
func checkWaitFor(s string) error {
	if len(s) > maxWaitForBytes {
		return fmt.Errorf("wait_for is %d bytes, over the limit of %d: wait for a shorter distinctive part of the text", len(s), maxWaitForBytes)
	}
	return nil
}

// checkRegexProgram refuses a regular expression (Go syntax, flags
// already folded in) whose compiled program has more than maxRegexInsts
// instructions, naming the limit; syntax errors are left to
// regexp.Compile.
func checkRegexProgram(expr string) error {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	if n := len(prog.Inst); n > maxRegexInsts {
		return fmt.Errorf("wait_for's regular expression compiles to %d instructions, over the limit of %d (each literal character is one, x{N} is N): use a shorter pattern or fewer repeats", n, maxRegexInsts)
	}
	return nil
}

// acted is what a call that writes to the program and waits saw (act).
type acted struct {
	before  string      // the visible screen before the write
	after   string      // and after the wait
	out     waitOutcome // how the wait ended, when spec waits
	wait    waitReport  // out as the result reports it
	command commandOutcome
	exit    exitInfo
	watch   *outputWatch // kept for the wait that follows (tools_followup.go); what it knew of the call's command line stays readable (noCommandReply)
}

// act is the pipeline shell_send and shell_click share: it lets the
// output written before the call reach the screen, starts watching (echo
// is the printable text the call types, never a match), writes units
// typeDelay apart, then waits for spec, or, when spec has no condition,
// for idle (the tool's fixed pause), then, but after a command, until
// the program has read what was typed (awaitRead), and reads the screen.
// maxOut bounds a wait_for_command's output.
func (tb *Toolbox) act(ctx context.Context, call *ToolCall, s *Session, spec waitSpec, maxOut int, echo string, units [][]byte, typeDelay time.Duration, idle func(context.Context, *outputWatch)) (acted, error) {
	tb.after.drop(s) // the wait that follows counts from this call
	s.settle(ctx)
	w := newWatch(s, spec, echo)
	kept := false
	defer func() {
		if !kept {
			w.close()
		}
	}()
	a := acted{before: s.Text(false), watch: w}
	if err := typeUnits(ctx, s, units, typeDelay, spec.timeout); err != nil {
		return a, err
	}
	if endsWithLoneEsc(units) {
		s.mu.Lock()
		w.escAt = time.Now()
		s.mu.Unlock()
	}
	if ctx.Err() != nil {
		return a, errors.New("cancelled")
	}
	if spec.waiting() {
		a.out = w.wait(ctx, spec, call.Progress)
		a.wait = reportWait(a.out, spec)
		if spec.command {
			a.command = commandOutcomeOf(s, a.out.command, maxOut)
		}
	} else {
		idle(ctx, w)
	}
	if !spec.command { // a command's end is framed by its prompt, which reads again
		readFor := readWaitMax
		if a.out.timedOut {
			readFor = 0 // the call's time is up: only look
		}
		a.wait.Unread = !w.awaitRead(ctx, readFor)
	}
	if ctx.Err() != nil {
		return a, errors.New("cancelled")
	}
	tb.after.keep(s, w)
	kept = true
	s.settle(ctx)
	a.after, a.exit = s.Text(false), stateOf(s)
	return a, nil
}
