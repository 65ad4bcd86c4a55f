package main

// vt_marks.go: shell integration marks as the emulator sees them. A shell
// that speaks the FinalTerm convention marks its prompt and commands with
// OSC 133 (A prompt start, B command start, C output start, D;n command
// end with exit status n) and reports its directory with OSC 7
// (file://host/path). The emulator only notes each mark with where the
// cursor was; what the marks mean is the session's business.

import "strings"

// ShellMark is one OSC 133 or OSC 7 mark and the cursor position it was
// written at.
type ShellMark struct {
	Kind   byte   // 'A', 'B', 'C', 'D' (OSC 133) or '7' (OSC 7)
	Params string // OSC 133: what follows the kind's ';' ("0" for D;0, "k=s", ...); OSC 7: the URL
	Line   int64  // absolute row: rows scrolled into the history so far plus the cursor's row (LineText)
	Col    int    // the cursor's column, 0-based
	Alt    bool   // written on the alternate screen: Line and Col are then where the main screen's cursor comes back
	Own    bool   // carried the session's nonce (SetMarkNonce): the integration's own mark

	// Out is where the output of the command this D or A ends starts
	// (see vtOutStart): the C mark's position, or where an erase since
	// moved it; OutSet is false when no C came before.
	Out vtOutStart
}

// vtOutStart is where the running command's output starts on the main
// screen: set at a C mark, and moved by an erase that covers it, since
// what the command printed before the erase is no longer there. ED 2
// and RIS (clear's screen erase) move it to the top of the screen, ED 3
// (the scrollback) to the top of the screen when it was in the
// scrollback, ED 0 and ED 1 to the cursor when their range covers it.
// The output is then the text from there to the D mark: what the
// command left on the screen and in the scrollback.
type vtOutStart struct {
	Set    bool  // a C mark came, and no D or A ended its command yet
	Erased bool  // an erase moved it from the C mark's position
	Line   int64 // absolute row (ShellMark.Line)
	Col    int
}

// vtMaxShellMarks bounds the marks waiting to be taken: a program that
// writes marks nobody reads cannot grow the list without end.
const vtMaxShellMarks = 1024

// vtMarkNonce is the parameter that tells the shell integration's marks
// from marks in a program's output (a log or a typescript that holds
// them, shown with cat, would end a command that is still running): the
// integration writes it first, right after the kind (OSC 133;D;
// tw_nonce=N;0) or before the URL (OSC 7;tw_nonce=N;file://host/path),
// with a nonce the session put into the integration's files only, not
// into any environment a program inherits.
type vtMarkNonce struct {
	param string // "tw_nonce=" and the nonce; "" when marks carry none
	seen  bool   // a mark carried it: from then on a mark without it is ignored
}

// SetMarkNonce sets the nonce of the shell integration's marks. Until a
// mark carries it, every mark counts (a user's own integration, which
// ttywright's gives way to, writes none); after that, only marks that
// carry it count, and it is removed from their parameters.
func (t *Terminal) SetMarkNonce(nonce string) { t.markNonce = vtMarkNonce{param: "tw_nonce=" + nonce} }

// check returns params without the nonce, whether the mark counts, and
// whether it carried the nonce.
func (n *vtMarkNonce) check(params string) (rest string, counts, own bool) {
	if n.param == "" {
		return params, true, false
	}
	if rest, ok := strings.CutPrefix(params, n.param); ok && (rest == "" || rest[0] == ';') {
		n.seen = true
		return strings.TrimPrefix(rest, ";"), true, true
	}
	return params, !n.seen, false
}

// shellMark records an OSC 133 or OSC 7 string (num is "133" or "7").
func (t *Terminal) shellMark(num, rest string) {
	m := ShellMark{Kind: '7', Params: rest, Line: t.hist.pushed + int64(t.cur.row), Col: t.cur.col, Alt: t.scr == t.alt}
	if num == "133" {
		kind, params, _ := strings.Cut(rest, ";")
		if len(kind) != 1 || !strings.Contains("ABCD", kind) {
			t.unknowns++
			return
		}
		m.Kind, m.Params = kind[0], params
	}
	var ok bool
	if m.Params, ok, m.Own = t.markNonce.check(m.Params); !ok {
		t.unknowns++ // a program's output, not the shell's mark
		return
	}
	switch {
	case m.Alt: // the shell marks a prompt over a program that left the alternate screen on
		m.Line, m.Col = t.hist.pushed+int64(t.main.saved.cur.row), t.main.saved.cur.col
	case t.cur.wrap: // pending wrap: the next character lands on the next row
		m.Col = t.cols
	}
	t.outputMark(&m)
	if m.Kind == 'C' || m.Kind == 'D' || m.Kind == 'A' && !promptKind(m.Params) {
		t.endEchoAtMark()
		t.cmdLine = false
	}
	if m.Kind == 'B' {
		t.cmdLine = true
	}
	if len(t.shellMarks) >= vtMaxShellMarks {
		t.shellMarks = t.shellMarks[1:]
	}
	t.shellMarks = append(t.shellMarks, m)
}

// outputMark keeps the output start for mark m: a C sets it (a C while
// one is set, from a second integration, is ignored as the session
// ignores it); a D or a prompt's A (not a continuation prompt's k=s)
// ends the command, and takes the start with it in m.Out.
func (t *Terminal) outputMark(m *ShellMark) {
	switch m.Kind {
	case 'C':
		if !t.outStart.Set {
			t.outStart = vtOutStart{Set: true, Line: m.Line, Col: m.Col}
		}
	case 'D', 'A':
		if m.Kind == 'A' && promptKind(m.Params) {
			return
		}
		m.Out, t.outStart = t.outStart, vtOutStart{}
	}
}

// promptKind reports whether an A mark's parameters give a prompt kind
// (k=s, a continuation prompt, and the like), which starts no new
// command line.
func promptKind(params string) bool {
	for _, p := range strings.Split(params, ";") {
		if strings.HasPrefix(p, "k=") {
			return true
		}
	}
	return false
}

// OutputEnd returns a D mark at the cursor with the output start, as if
// the running command ended here (the shell exited during it, or a
// look at its output so far); the start stays set.
func (t *Terminal) OutputEnd() ShellMark {
	m := ShellMark{Kind: 'D', Line: t.CursorLine(), Col: t.cur.col, Out: t.outStart}
	if t.cur.wrap {
		m.Col = t.cols
	}
	return m
}

// eraseOutputStart moves the output start for an ED of mode (2 also
// for RIS) that erases it; see vtOutStart.
func (t *Terminal) eraseOutputStart(mode int) {
	o := &t.outStart
	if !o.Set || t.scr != t.main {
		return
	}
	top, cur, col := t.hist.pushed, t.CursorLine(), t.cur.col
	var line int64
	switch {
	case mode == 0 && (o.Line > cur || o.Line == cur && o.Col >= col),
		mode == 1 && o.Line >= top && (o.Line < cur || o.Line == cur && o.Col <= col):
		line = cur
	case mode == 2 && o.Line >= top, mode == 3 && o.Line < top:
		line, col = top, 0
	default:
		return
	}
	o.Line, o.Col, o.Erased = line, col, true
}

// TakeShellMarks returns the marks written since the last call, oldest
// first, and forgets them.
func (t *Terminal) TakeShellMarks() []ShellMark {
	if len(t.shellMarks) == 0 {
		return nil
	}
	m := t.shellMarks
	t.shellMarks = nil
	return m
}

// LineBase returns the absolute row number of the oldest row still kept:
// the first history row, or screen row 0 when there is no history.
func (t *Terminal) LineBase() int64 { return t.hist.pushed - int64(t.hist.n) }

// CursorLine returns the cursor's absolute row number (see ShellMark.Line).
func (t *Terminal) CursorLine() int64 { return t.hist.pushed + int64(t.cur.row) }

// LineText returns the main screen's row at absolute number abs, from the
// history or the screen, as text like Lines, and whether it soft-wrapped
// into the next row; a row that wrapped keeps the blanks written at its
// end, for joining (as ScreenText joins rows). ok is false for a row no
// longer kept or not yet written.
func (t *Terminal) LineText(abs int64, b *strings.Builder) (text string, wrapped, ok bool) {
	i := abs - t.LineBase()
	switch {
	case i < 0:
		return "", false, false
	case i < int64(t.hist.n):
		l := t.hist.at(int(i))
		if l.wrapped {
			return l.joinText(b), true, true
		}
		return l.text(b), false, true
	case i-int64(t.hist.n) < int64(t.rows):
		l := t.main.lines[i-int64(t.hist.n)]
		if l.wrapped {
			tb := textBuilder{}
			tb.row(l, true)
			return string(tb.b), true, true
		}
		return l.text(b), false, true
	}
	return "", false, false
}
