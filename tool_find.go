package main

// tool_find.go: shell_find, a locator for the terminal screen: text or a
// /regex/ (as wait_for takes them), optionally only where every cell has
// a style, optionally in the scrollback too, optionally waiting until a
// match exists (or, with gone, until none does), driven by the session's
// change events.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

type findArgs struct {
	SessionID  string `json:"session_id"`
	Text       string `json:"text"`
	Style      *Style `json:"style"`
	Scrollback bool   `json:"scrollback"`
	TimeoutMS  *int   `json:"timeout_ms"`
	Gone       bool   `json:"gone"`
}

// findMatch is one match: 0-based row (negative in the scrollback: -1 is
// the line just above the screen) and column, len in cells, the text, and
// the first cell's style; mixed when the cells do not all share it.
type findMatch struct {
	Row   int    `json:"row"`
	Col   int    `json:"col"`
	Len   int    `json:"len"`
	Text  string `json:"text"`
	Style Style  `json:"style"`
	Mixed bool   `json:"mixed,omitempty"`
}

type findResult struct {
	Matches   []findMatch `json:"matches"`
	Count     int         `json:"count"`
	Truncated bool        `json:"truncated,omitempty"` // more than maxFindMatches: see keepMatches
	TimedOut  bool        `json:"timed_out,omitempty"`
	exitInfo
}

// maxFindMatches caps the matches one call returns.
const maxFindMatches = 200

// keepMatches cuts ms (top to bottom) to maxFindMatches: the screen's
// first, then the scrollback's nearest the screen, since those are what
// a click or the next step is about.
func keepMatches(ms []findMatch) []findMatch {
	if len(ms) <= maxFindMatches {
		return ms
	}
	screen, _ := slices.BinarySearchFunc(ms, 0, func(m findMatch, row int) int { return cmp.Compare(m.Row, row) })
	if n := len(ms) - screen; n >= maxFindMatches {
		return ms[screen : screen+maxFindMatches]
	}
	return ms[len(ms)-maxFindMatches:]
}

func (tb *Toolbox) toolShellFind() *Tool {
	return newTool(Tool{
		Name:  "shell_find",
		Title: "Find text on a terminal's screen",
		Description: "Locate text on the screen like a Playwright locator: text or /regex/ (as wait_for) within a row, where every cell has style " +
			"when given ({reverse: true}: the selected item). Returns matches [{row, col, len, text, style}], 0-based, for shell_click; " +
			"timeout_ms waits for one (gone: for none). At most 200: the screen's first (truncated: true).",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"text":       prop("string", "Text to find, case-sensitive, or /regex/ as in shell_wait's wait_for."),
			"style":      styleSchema("Only matches whose every cell has these attributes (false: not); colours red, bright-red, \"196\", \"#ff0000\", default."),
			"scrollback": prop("boolean", "Also search the scrollback (rows -1, -2, ... upwards)."),
			"timeout_ms": intProp("Wait up to this long for a match (default 0: look once).", 0, maxTimeoutMS),
			"gone":       prop("boolean", "With timeout_ms: wait until no match is left."),
		}, "session_id", "text"),
		ReadOnly: true,
	}, tb.shellFind, findStep)
}

// shellFind looks for the text, waiting when timeout_ms is given.
func (tb *Toolbox) shellFind(ctx context.Context, call *ToolCall, in findArgs) (findResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return findResult{}, err
	}
	q, err := parseFind(in.Text, in.Style)
	if err != nil {
		return findResult{}, err
	}
	q.scrollback = in.Scrollback
	timeout, err := msArg("timeout_ms", in.TimeoutMS, 0, maxTimeoutMS)
	if err != nil {
		return findResult{}, err
	}
	if in.Gone && in.TimeoutMS == nil {
		return findResult{}, errors.New("gone waits until the text is no longer shown: give timeout_ms too (e.g. 5000)")
	}
	s.settle(ctx)
	ms, timedOut := findWait(ctx, s, q, in.Gone, timeout)
	if ctx.Err() != nil {
		return findResult{}, errors.New("cancelled")
	}
	res := findResult{Count: len(ms), TimedOut: timedOut, exitInfo: exitOf(s.Status())}
	res.Matches = keepMatches(ms)
	res.Truncated = len(res.Matches) < len(ms)
	if res.Matches == nil {
		res.Matches = []findMatch{}
	}
	return res, nil
}

// findWait looks until the matches exist (gone: until there are none),
// timeout passes, the program exits or ctx ends. It wakes on the
// session's change events only. timedOut is true when the condition does
// not hold at the end and the program still runs.
func findWait(ctx context.Context, s *Session, q *findQuery, gone bool, timeout time.Duration) (ms []findMatch, timedOut bool) {
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	final := timeout == 0
	for {
		s.mu.Lock()
		ch, exited := s.changed, s.exited
		ms = q.findLocked(s.term)
		s.mu.Unlock()
		ok := (len(ms) > 0) != gone
		if ok || exited || final {
			return ms, !ok && timeout > 0 && !exited // an exit is no timeout: exited says it
		}
		select {
		case <-ch:
		case <-deadline:
			final = true // one last look: output may have arrived just now
		case <-ctx.Done():
			return ms, true
		}
	}
}

// findQuery is a checked shell_find: what to match and the style filter.
type findQuery struct {
	m          *matcher
	style      *Style
	fg, bg     *Color // parsed style colours
	scrollback bool
	cache      findCache // what the last findLocked searched
}

// parseFind checks the text and the style filter.
func parseFind(text string, style *Style) (*findQuery, error) {
	if text == "" {
		return nil, errors.New("text is empty: give the text to find, e.g. \"Save\", or /regex/")
	}
	m, err := parseMatcher("text", text)
	if err != nil {
		return nil, err
	}
	q := &findQuery{m: m, style: style}
	if style == nil {
		return q, nil
	}
	for _, c := range []struct {
		name, v string
		dst     **Color
	}{{"fg", style.FG, &q.fg}, {"bg", style.BG, &q.bg}} {
		if c.v == "" {
			continue
		}
		col, ok := parseColorName(c.v)
		if !ok {
			return nil, fmt.Errorf("style.%s %q is not a colour: use a name (red, bright-red, ...), a palette index \"0\"..\"255\", \"#rrggbb\" or \"default\"", c.name, c.v)
		}
		*c.dst = &col
	}
	return q, nil
}

// findLocked returns the matches on t's screen (and history), top to
// bottom. The caller holds the lock that guards t. A waiting find calls
// it on every change of the screen: it searches again only the rows that
// changed since the last call (findCache).
func (q *findQuery) findLocked(t *Terminal) []findMatch {
	c := &q.cache
	cols, rows := t.Size()
	if c.cols != cols || c.rows != rows || c.resizes != t.Resizes() || c.scrollback != q.scrollback {
		*c = findCache{cols: cols, rows: rows, resizes: t.Resizes(), scrollback: q.scrollback, screen: make([]cachedRow, rows), hist: map[int64][]findMatch{}}
	} else if c.valid && c.gen == t.Generation() {
		return c.out
	}
	var out []findMatch
	if q.scrollback {
		out = q.findHistory(t, out)
	}
	for r := range rows {
		cells, marks := t.RowCells(r)
		row := &c.screen[r]
		if !row.valid || !slices.Equal(row.cells, cells) || !slices.Equal(row.marks, marks) {
			*row = cachedRow{valid: true, cells: slices.Clone(cells), marks: slices.Clone(marks),
				ms: q.findRow(nil, cells, 0, marks, rowLinks(t, cells))}
		}
		out = appendAtRow(out, row.ms, r)
	}
	c.valid, c.gen, c.out = true, t.Generation(), out
	return out
}

// findHistory appends the matches in t's history, oldest row first
// (rows -n to -1). A history row never changes while the size stays
// (Terminal.Resizes), so each is searched once, by its absolute number.
func (q *findQuery) findHistory(t *Terminal, out []findMatch) []findMatch {
	c := &q.cache
	base, n := t.LineBase(), t.ScrollbackLen()
	for abs := range c.hist {
		if abs < base {
			delete(c.hist, abs) // dropped off the top, or cleared (ED 3)
		}
	}
	for i := range n {
		ms, ok := c.hist[base+int64(i)]
		if !ok {
			cells := t.ScrollbackCells(i)
			ms = q.findRow(nil, cells, 0, nil, rowLinks(t, cells))
			c.hist[base+int64(i)] = ms
		}
		out = appendAtRow(out, ms, i-n)
	}
	return out
}

// findCache is what a waiting find searched last: the screen's rows as
// they were, each with its matches, the matches of history rows by
// absolute number, and the whole result for the terminal generation gen.
// Another size, a resize since or another scrollback starts it afresh.
type findCache struct {
	cols, rows int
	resizes    uint64
	scrollback bool
	valid      bool
	gen        uint64
	out        []findMatch
	screen     []cachedRow
	hist       map[int64][]findMatch
}

// cachedRow is one screen row as last searched, and its matches (Row 0).
type cachedRow struct {
	valid bool
	cells []Cell
	marks []vtMark
	ms    []findMatch
}

// appendAtRow appends ms to out with their Row set to r.
func appendAtRow(out, ms []findMatch, r int) []findMatch {
	for _, m := range ms {
		m.Row = r
		out = append(out, m)
	}
	return out
}

// rowLinks is the URIs of the OSC 8 hyperlinks in cells by id, nil when
// there are none.
func rowLinks(t *Terminal, cells []Cell) map[uint16]string {
	var links map[uint16]string
	for _, c := range cells {
		if c.Link != 0 {
			if links == nil {
				links = map[uint16]string{}
			}
			links[c.Link] = t.LinkURL(c.Link)
		}
	}
	return links
}

// findRow appends the matches in one row of cells.
func (q *findQuery) findRow(out []findMatch, row []Cell, r int, marks []vtMark, links map[uint16]string) []findMatch {
	text, cols := rowIndex(row, marks)
	if text == "" {
		return out
	}
	var spans [][]int
	if q.m.re != nil {
		spans = q.m.re.FindAllStringIndex(text, -1)
	} else {
		for from := 0; ; {
			i := strings.Index(text[from:], q.m.text)
			if i < 0 {
				break
			}
			spans = append(spans, []int{from + i, from + i + len(q.m.text)})
			from += i + len(q.m.text)
		}
	}
	for _, sp := range spans {
		if sp[0] == sp[1] {
			continue // an empty match locates nothing
		}
		c0, c1 := cols[sp[0]], cols[sp[1]-1]
		end := c1 + 1
		if row[c1].Width == 2 {
			end++
		}
		end = min(end, len(row))
		if !q.styleOK(row[c0:end], links) {
			continue
		}
		first := styleOf(row[c0])
		out = append(out, findMatch{Row: r, Col: c0, Len: end - c0, Text: text[sp[0]:sp[1]],
			Style: first.toStyle(links), Mixed: mixedStyles(row[c0:end])})
	}
	return out
}

// rowIndex is a row's text (trailing blanks dropped) and, for each byte
// of it, the column of the cell it belongs to.
func rowIndex(row []Cell, marks []vtMark) (string, []int) {
	end := len(row)
	for end > 0 && (isBlank(row[end-1]) || row[end-1].Width == 0) {
		end--
	}
	cols := make([]int, 0, end)
	b := rowText(make([]byte, 0, end), row, 0, end, marks, &cols)
	return string(b), cols
}

// styleOK reports whether every cell has the filter's attributes; a blank
// is checked only for what it shows (background, reverse, underline).
func (q *findQuery) styleOK(cells []Cell, links map[uint16]string) bool {
	f := q.style
	if f == nil {
		return true
	}
	for _, c := range cells {
		if c.Width == 0 {
			continue
		}
		blank := bgOnly(c)
		flags := []struct {
			want *bool
			bit  Attr
			text bool // only a glyph shows it
		}{{f.Reverse, AttrInverse, false}, {f.Underline, AttrUnderline, false}, {f.Bold, AttrBold, true}, {f.Dim, AttrDim, true}, {f.Italic, AttrItalic, true}}
		for _, fl := range flags {
			if fl.want != nil && !(blank && fl.text) && (c.Attr&fl.bit != 0) != *fl.want {
				return false
			}
		}
		if q.bg != nil && c.BG != *q.bg || !blank && q.fg != nil && c.FG != *q.fg {
			return false
		}
		if f.Link != "" && !blank && (c.Link == 0 || links[c.Link] != f.Link) {
			return false
		}
	}
	return true
}

// mixedStyles reports whether the cells show more than one style.
func mixedStyles(cells []Cell) bool {
	var first *cellStyle
	for _, c := range cells {
		if c.Width == 0 || bgOnly(c) {
			continue
		}
		st := styleOf(c)
		if first == nil {
			first = &st
		} else if st != *first {
			return true
		}
	}
	if first == nil {
		return false
	}
	for _, c := range cells {
		if c.Width != 0 && bgOnly(c) && styleOf(c) != first.blankView() {
			return true
		}
	}
	return false
}

// findReply is what a trace shows of shell_find's reply.
type findReply struct {
	Count    int  `json:"count"`
	TimedOut bool `json:"timed_out,omitempty"`
}

// findStep is shell_find's step form: a search changes nothing, so it is
// a line in the trace and nothing on a tape.
func findStep(in findArgs, out findResult) stepView {
	v := stepView{SessionID: in.SessionID, Summary: strconv.Quote(clipRunes(in.Text, 40)), Reply: findReply{out.Count, out.TimedOut}}
	if out.TimedOut {
		v.Failed = "timed out"
	}
	return v
}
