package main

// tool_find.go: shell_find, a locator for the terminal screen: text or a
// /regex/ (as wait_for takes them) within a row, and when a style is
// given, within the runs of cells that have it (a style alone finds the
// runs themselves); optionally in the scrollback too, optionally waiting
// until a match exists (or, with gone, until none does), driven by the
// session's change events.

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
	SessionID  string       `json:"session_id"`
	Text       string       `json:"text"`
	Style      *styleFilter `json:"style"`
	Scrollback bool         `json:"scrollback"`
	TimeoutMS  *int         `json:"timeout_ms"`
	Gone       bool         `json:"gone"`
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
		Description: "Locate text or /regex/ in a row, like a Playwright locator; with style, within the cells that have it. " +
			"A list's highlighted item, whatever its colours: {style: {selected: true}} (a header may too). " +
			"At most 200, 0-based; timeout_ms waits for one (gone: for none).",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"text":       prop("string", "Case-sensitive, or /regex/ as shell_wait's wait_for; none: style finds its runs."),
			"style":      styleSchema("Every cell has these (false: not). selected: a selection bar (reverse video, or a background unlike the rows around it). Colours: red, 196, #ff0000, default."),
			"scrollback": prop("boolean", "Also the scrollback (rows -1, -2, ...)."),
			"timeout_ms": map[string]any{"type": "integer"},
			"gone":       map[string]any{"type": "boolean"},
		}, "session_id"),
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

// findQuery is a checked shell_find: what to match (nil: the runs of
// the style themselves) and the style filter.
type findQuery struct {
	m          *matcher
	style      *styleFilter
	fg, bg     *Color // parsed style colours
	scrollback bool
	cache      findCache // what the last findLocked searched
}

// parseFind checks the text and the style filter; one of them is needed.
func parseFind(text string, style *styleFilter) (*findQuery, error) {
	if text == "" && style == nil {
		return nil, errors.New("nothing to find: give text (e.g. \"Save\", or /regex/), a style (e.g. {\"selected\": true}), or both")
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
// changed since the last call (findCache), and with selected, those two
// rows or less from one that changed (barCells looks that far).
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
	cells := make([][]Cell, rows)
	changed := make([]bool, rows)
	for r := range rows {
		var marks []vtMark
		cells[r], marks = t.RowCells(r)
		if row := &c.screen[r]; !row.valid || !slices.Equal(row.cells, cells[r]) || !slices.Equal(row.marks, marks) {
			*row = cachedRow{cells: slices.Clone(cells[r]), marks: slices.Clone(marks)}
			changed[r] = true
		}
	}
	reach := 0
	if q.selects() {
		reach = 2
	}
	for r := range rows {
		row := &c.screen[r]
		if !row.valid || slices.Contains(changed[max(r-reach, 0):min(r+reach+1, rows)], true) {
			var bar []bool
			if q.selects() {
				bar = barCells(cells[r], [4][]Cell{rowAt(cells, r-2), rowAt(cells, r-1), rowAt(cells, r+1), rowAt(cells, r+2)})
			}
			row.valid, row.ms = true, q.findRow(nil, cells[r], 0, row.marks, rowLinks(t, cells[r]), bar)
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
			ms = q.findRow(nil, cells, 0, nil, rowLinks(t, cells), q.historyBar(cells))
			c.hist[base+int64(i)] = ms
		}
		out = appendAtRow(out, ms, i-n)
	}
	return out
}

// rowAt is rows[r], nil past the screen's edge.
func rowAt(rows [][]Cell, r int) []Cell {
	if r < 0 || r >= len(rows) {
		return nil
	}
	return rows[r]
}

// selects reports whether the filter asks about selection bars.
func (q *findQuery) selects() bool { return q.style != nil && q.style.Selected != nil }

// historyBar is barCells for a scrollback row, which has only the
// reverse-video rule: the bars of a list are on the screen.
func (q *findQuery) historyBar(cells []Cell) []bool {
	if !q.selects() {
		return nil
	}
	return barCells(cells, [4][]Cell{})
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

// findRow appends the matches in one row of cells: those of the text
// within each run of cells that pass the style filter (filterRuns; the
// whole row without one), or with no text, each run itself, its blanks
// at either end left out. bar marks the cells on a selection bar (nil
// when the filter does not ask).
func (q *findQuery) findRow(out []findMatch, row []Cell, r int, marks []vtMark, links map[uint16]string, bar []bool) []findMatch {
	text, cols := rowIndex(row, marks)
	if text == "" {
		return out
	}
	for _, run := range q.filterRuns(row, text, cols, links, bar) {
		for _, sp := range q.spans(text[run[0]:run[1]]) {
			a, b := run[0]+sp[0], run[0]+sp[1]
			if a == b {
				continue // an empty match locates nothing
			}
			c0, c1 := cols[a], cols[b-1]
			end := c1 + 1
			if row[c1].Width == 2 {
				end++
			}
			end = min(end, len(row))
			first := styleOf(row[c0])
			out = append(out, findMatch{Row: r, Col: c0, Len: end - c0, Text: text[a:b],
				Style: first.toStyle(links), Mixed: mixedStyles(row[c0:end])})
		}
	}
	return out
}

// spans are the byte ranges of s that the text matches, leftmost first
// and not overlapping; with no text, s without its blanks at either end.
func (q *findQuery) spans(s string) [][]int {
	switch {
	case q.m == nil:
		from := len(s) - len(strings.TrimLeft(s, " "))
		return [][]int{{from, max(len(strings.TrimRight(s, " ")), from)}}
	case q.m.re != nil:
		return q.m.re.FindAllStringIndex(s, -1)
	}
	var out [][]int
	for from := 0; ; {
		i := strings.Index(s[from:], q.m.text)
		if i < 0 {
			return out
		}
		out = append(out, []int{from + i, from + i + len(q.m.text)})
		from += i + len(q.m.text)
	}
}

// filterRuns are the byte ranges of a row's text (cols: the cell of
// each byte) whose cells all pass the style filter, in row order: the
// whole text when there is no filter.
func (q *findQuery) filterRuns(row []Cell, text string, cols []int, links map[uint16]string, bar []bool) [][2]int {
	if q.style == nil {
		return [][2]int{{0, len(text)}}
	}
	var runs [][2]int
	start := -1
	for i := 0; i <= len(text); i++ {
		ok := i < len(text) && q.cellOK(row, cols[i], links, bar)
		switch {
		case ok && start < 0:
			start = i
		case !ok && start >= 0:
			runs = append(runs, [2]int{start, i})
			start = -1
		}
	}
	return runs
}

// cellOK reports whether cell col of row passes the style filter: the
// cells it covers have its attributes (a blank is checked only for what
// it shows: background, reverse video, underline), and lie on a
// selection bar or not as selected asks.
func (q *findQuery) cellOK(row []Cell, col int, links map[uint16]string, bar []bool) bool {
	f := q.style
	if f.Selected != nil && bar[col] != *f.Selected {
		return false
	}
	end := col + 1
	if row[col].Width == 2 && end < len(row) {
		end++
	}
	for _, c := range row[col:end] {
		if c.Width != 0 && !q.styleOK(c, links) {
			return false
		}
	}
	return true
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

// styleOK reports whether cell c has the filter's attributes; a blank
// is checked only for what it shows (background, reverse, underline).
func (q *findQuery) styleOK(c Cell, links map[uint16]string) bool {
	f := q.style
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
	return f.Link == "" || blank || c.Link != 0 && links[c.Link] == f.Link
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
