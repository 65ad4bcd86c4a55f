package main

// tools_styled.go: the screen as styled text for shell_read format "styled":
// runs of cells whose style differs from the default, as data (runs with
// a style object) and as a compact markup a model reads at a glance.
//
// The markup: plain text where the cells have the screen's base style,
// {codes} before every other run, holding until the next marker, {/}
// (back to plain) or the row's end; {|} where the cursor is. Codes,
// space-separated: rev, bold, dim, italic, ul, the foreground colour
// (red, bright-red, 196, #ff0000; default), the background as
// on-<colour>, link=<uri>. The base is the background of more than half
// the cells (dialog's blue backdrop) with the commonest foreground on it,
// else the default; codes leave its colours unsaid. Coloured styles used
// often get a number ({1=bold bright-black}, then {1}). Both are declared
// on a first line. Blanks and box-drawing lines only show their
// background, reverse video and underline, so a blank between two words
// of one colour joins their run and a dialog's frame does not split it.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// cellStyle is the part of a cell a model can see, without the character.
type cellStyle struct {
	FG, BG Color
	Attr   Attr // AttrBold|AttrDim|AttrItalic|AttrUnderline|AttrInverse only
	Link   uint16
}

// styleAttrs are the attributes a style reports.
const styleAttrs = AttrBold | AttrDim | AttrItalic | AttrUnderline | AttrInverse

// blankAttrs are the attributes a blank cell shows.
const blankAttrs = AttrUnderline | AttrInverse

// styleOf is a cell's visible style; a blank or a line-drawing character
// (bgOnly) shows only its background, reverse video and underline.
func styleOf(c Cell) cellStyle {
	if bgOnly(c) {
		return cellStyle{BG: c.BG, Attr: c.Attr & blankAttrs}
	}
	return cellStyle{FG: c.FG, BG: c.BG, Attr: c.Attr & styleAttrs, Link: c.Link}
}

// isBlank reports whether c draws no glyph.
func isBlank(c Cell) bool { return c.Rune == 0 || c.Rune == ' ' }

// bgOnly reports whether only c's background matters to a reader: a
// blank, or a box-drawing character (U+2500-U+257F), whose colour frames
// a dialog or a panel but says nothing about its content.
func bgOnly(c Cell) bool { return isBlank(c) || c.Rune >= 0x2500 && c.Rune <= 0x257F }

// blankView is what a style looks like on a blank cell.
func (s cellStyle) blankView() cellStyle { return cellStyle{BG: s.BG, Attr: s.Attr & blankAttrs} }

// isDefault reports whether s is the terminal's default look.
func (s cellStyle) isDefault() bool { return s == cellStyle{} }

// styleFilter is the style argument of shell_find and shell_click: the
// Style every cell of a match has (a false flag: has not), and Selected,
// whether the cells lie on a selection bar (barCells).
type styleFilter struct {
	Style
	Selected *bool `json:"selected"`
}

// styleSchema is the JSON Schema of a styleFilter argument.
func styleSchema(desc string) map[string]any {
	b := map[string]any{"type": "boolean"}
	return map[string]any{
		"type":        "object",
		"description": desc,
		"properties": map[string]any{
			"selected": b, "reverse": b, "bold": b, "dim": b, "italic": b, "underline": b,
			"fg": map[string]any{"type": "string"}, "bg": map[string]any{"type": "string"}, "link": map[string]any{"type": "string"},
		},
	}
}

// shade is the background a cell shows: its BG, or under reverse video
// its FG (the default foreground is not the default background).
type shade struct {
	c       Color
	reverse bool
}

// shadeOf is the background c shows.
func shadeOf(c Cell) shade {
	if c.Attr&AttrInverse != 0 {
		return shade{c.FG, true}
	}
	return shade{c.BG, false}
}

// barCells marks the cells of a screen row that lie on a selection bar,
// the highlighted item of a menu or list whatever its colours: a cell in
// reverse video, or a run of cells of one background, not the
// terminal's default, that sets the row apart. Such a run is unlike the
// row above and the row below it (most of their cells over the run show
// another background), or, next to the key bar or menu bar on the
// screen's edge, which may have the bar's colour (htop's), unlike the
// two rows on the other side, which are alike (the list goes on there).
// The top and bottom rows have only the reverse-video rule. Blanks, and
// cells of any background but the default, between two bar cells of the
// row join them: dialog draws its tag and its item apart, htop marks its
// sort column in another colour. near holds the rows
// r-2, r-1, r+1 and r+2, nil past the screen's edge; a row holds its
// used cells only, the rest are blank.
func barCells(row []Cell, near [4][]Cell) []bool {
	bar := make([]bool, len(row))
	for i, c := range row {
		bar[i] = c.Attr&AttrInverse != 0
	}
	if near[1] != nil && near[2] != nil {
		for from := 0; from < len(row); {
			bg, to := shadeOf(row[from]), from+1
			for to < len(row) && shadeOf(row[to]) == bg {
				to++
			}
			// most reports whether most of the cells over the run pass.
			most := func(ok func(i int) bool) bool {
				n := 0
				for i := from; i < to; i++ {
					if ok(i) {
						n++
					}
				}
				return n*2 > to-from
			}
			unlike := func(nb []Cell) bool {
				return nb != nil && most(func(i int) bool { return shadeOf(cellAt(nb, i)) != bg })
			}
			alike := func(a, b []Cell) bool {
				return a != nil && b != nil && most(func(i int) bool { return shadeOf(cellAt(a, i)) == shadeOf(cellAt(b, i)) })
			}
			end := func(a, b []Cell) bool { return unlike(a) && unlike(b) && alike(a, b) }
			if bg != (shade{}) && (unlike(near[1]) && unlike(near[2]) || near[3] == nil && end(near[0], near[1]) || near[0] == nil && end(near[2], near[3])) {
				for i := from; i < to; i++ {
					bar[i] = true
				}
			}
			from = to
		}
	}
	last := -1 // the last bar cell seen, and whether only blanks or coloured cells followed it
	for i := range row {
		switch {
		case bar[i]:
			if last >= 0 && last < i-1 {
				for j := last + 1; j < i; j++ {
					bar[j] = true
				}
			}
			last = i
		case !isBlank(row[i]) && row[i].Width != 0 && shadeOf(row[i]) == (shade{}):
			last = -1
		}
	}
	return bar
}

// cellAt is row[i], or past the row's used cells a blank.
func cellAt(row []Cell, i int) Cell {
	if i < len(row) {
		return row[i]
	}
	return Cell{}
}

// ansiNames are the names of palette colours 0-7; 8-15 are bright-<name>.
var ansiNames = [8]string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// colorName is c as the program chose it: an ANSI name, a palette index
// or #rrggbb; "" for the default.
func colorName(c Color) string {
	if i, ok := c.Palette(); ok {
		switch {
		case i < 8:
			return ansiNames[i]
		case i < 16:
			return "bright-" + ansiNames[i-8]
		}
		return strconv.Itoa(int(i))
	}
	if r, g, b, ok := c.RGB(); ok {
		const hex = "0123456789abcdef"
		return string([]byte{'#', hex[r>>4], hex[r&15], hex[g>>4], hex[g&15], hex[b>>4], hex[b&15]})
	}
	return ""
}

// parseColorName reads a colour name as colorName writes it (and
// "default"); ok is false for anything else.
func parseColorName(s string) (Color, bool) {
	if s == "default" {
		return ColorDefault, true
	}
	for i, n := range ansiNames {
		if s == n {
			return PaletteColor(uint8(i)), true
		}
		if s == "bright-"+n {
			return PaletteColor(uint8(i + 8)), true
		}
	}
	if len(s) == 7 && s[0] == '#' {
		v, err := strconv.ParseUint(s[1:], 16, 32)
		if err == nil {
			return RGBColor(uint8(v>>16), uint8(v>>8), uint8(v)), true
		}
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n <= 255 {
		return PaletteColor(uint8(n)), true
	}
	return 0, false
}

// toStyle is the Style object of s; links resolves link ids.
func (s cellStyle) toStyle(links map[uint16]string) Style {
	t := true
	var st Style
	flag := func(a Attr) *bool {
		if s.Attr&a != 0 {
			return &t
		}
		return nil
	}
	st.Reverse, st.Bold, st.Dim, st.Italic, st.Underline = flag(AttrInverse), flag(AttrBold), flag(AttrDim), flag(AttrItalic), flag(AttrUnderline)
	st.FG, st.BG = colorName(s.FG), colorName(s.BG)
	if s.Link != 0 {
		st.Link = links[s.Link]
	}
	return st
}

// codes is the markup of s on a screen whose base is base: "rev bold red
// on-blue"; the base's colours go unsaid, others are named (default and
// on-default for the terminal's own).
func (s cellStyle) codes(base cellStyle, links map[uint16]string) string {
	var parts []string
	for _, a := range []struct {
		bit  Attr
		code string
	}{{AttrInverse, "rev"}, {AttrBold, "bold"}, {AttrDim, "dim"}, {AttrItalic, "italic"}, {AttrUnderline, "ul"}} {
		if s.Attr&a.bit != 0 {
			parts = append(parts, a.code)
		}
	}
	if s.FG != base.FG && s != s.blankView() {
		n := colorName(s.FG)
		if n == "" {
			n = "default"
		}
		parts = append(parts, n)
	}
	if s.BG != base.BG {
		n := colorName(s.BG)
		if n == "" {
			n = "default"
		}
		parts = append(parts, "on-"+n)
	}
	if s.Link != 0 {
		parts = append(parts, "link="+links[s.Link])
	}
	return strings.Join(parts, " ")
}

// StyledRun is one run of cells of one style on a row: 0-based row and
// column, len in cells, the text, and the style (non-default attributes).
type StyledRun struct {
	Row   int    `json:"row"`
	Col   int    `json:"col"`
	Len   int    `json:"len"`
	Text  string `json:"text"`
	Style Style  `json:"style"`
}

// cellRun is a run while building: cells [col, end) of one style.
type cellRun struct {
	col, end int
	style    cellStyle
}

// rowRuns splits one row of cells into runs of one visible style. A blank
// joins the run around it when it looks the same there: the blank between
// two red words belongs to their run, blanks before a white-on-blue
// button with the same background belong to the button. Blanks that end
// a run go to the next run, or become base blanks, when they look like
// it: a run ends at its last glyph where that costs nothing.
func rowRuns(row []Cell, base cellStyle) []cellRun {
	var runs []cellRun
	for c := 0; c < len(row); c++ {
		cell := row[c]
		if cell.Width == 0 && c > 0 {
			runs[len(runs)-1].end = c + 1 // the right half of a wide character
			continue
		}
		st := styleOf(cell)
		if n := len(runs); n > 0 {
			last := &runs[n-1]
			if last.style == st || bgOnly(cell) && last.style.blankView() == st {
				last.end = c + 1
				continue
			}
			if last.style == st.blankView() && last.style != base.blankView() && blankCellsOnly(row, last.col, last.end) {
				last.style = st // leading blanks that look like this run
				last.end = c + 1
				continue
			}
		}
		runs = append(runs, cellRun{col: c, end: c + 1, style: st})
	}
	out := runs[:0:0]
	for i, r := range runs {
		tail := r.end
		for tail > r.col+1 && bgOnly(row[tail-1]) && row[tail-1].Width != 0 {
			tail--
		}
		bv := r.style.blankView()
		nextSame := i+1 < len(runs) && runs[i+1].style == bv
		if tail == r.end || bv == r.style || !nextSame && bv != base.blankView() {
			out = append(out, r)
			continue
		}
		out = append(out, cellRun{col: r.col, end: tail, style: r.style})
		if nextSame {
			runs[i+1].col = tail
		} else {
			out = append(out, cellRun{col: tail, end: r.end, style: bv})
		}
	}
	return out
}

// cellText is the text of cells [from, to) (rowText), built in *b, which
// it reuses.
func cellText(b *[]byte, row []Cell, from, to int, marks []vtMark) string {
	*b = rowText((*b)[:0], row, from, to, marks, nil)
	return string(*b)
}

// styledScreen is a snapshot as styled text: the markup and the runs.
type styledScreen struct {
	Text string // Head, a newline and the rows; or only the rows
	Head string // the base and the numbered styles, "" when there are none
	Runs []StyledRun
	Base *Style // the base style when it is not the default
}

// Legend numbering: a coloured style used at least legendMinUses times
// whose codes are longer than legendMinLen gets a number.
const (
	legendMinUses = 3
	legendMinLen  = 3
)

// styleNames writes a run's marker: its number when the legend has one,
// else its codes.
type styleNames struct {
	base  cellStyle
	links map[uint16]string
	ids   map[cellStyle]string
}

func (n *styleNames) marker(s cellStyle) string {
	if id, ok := n.ids[s]; ok {
		return "{" + id + "}"
	}
	return "{" + s.codes(n.base, n.links) + "}"
}

// legend numbers the coloured styles of rows that are used often, in the
// order they first appear, and returns the legend line ("" for none).
func (n *styleNames) legend(rows [][]cellRun) string {
	uses := map[cellStyle]int{}
	var order []cellStyle
	for _, runs := range rows {
		for _, r := range runs {
			if r.style == n.base || r.style == n.base.blankView() || r.style.FG == n.base.FG && r.style.BG == n.base.BG {
				continue // plain, or attributes only: short and telling
			}
			if uses[r.style] == 0 {
				order = append(order, r.style)
			}
			uses[r.style]++
		}
	}
	var parts []string
	for _, st := range order {
		codes := st.codes(n.base, n.links)
		if uses[st] < legendMinUses || len(codes) <= legendMinLen {
			continue
		}
		if n.ids == nil {
			n.ids = map[cellStyle]string{}
		}
		id := strconv.Itoa(len(n.ids) + 1)
		n.ids[st] = id
		parts = append(parts, "{"+id+"="+codes+"}")
	}
	return strings.Join(parts, " ")
}

// renderStyled writes snap as styled markup and runs. Rows after the last
// one with anything to show (and after the cursor's) are left out, as in
// the plain text; each row ends at its last cell that is not a blank in
// the base style. A first line names the base and the numbered styles
// when there are any.
func renderStyled(snap *Snapshot) styledScreen {
	var out styledScreen
	names := &styleNames{base: baseStyle(snap), links: snap.Links}
	var tb []byte
	all := make([][]cellRun, snap.Rows)
	for r := range all {
		row := snap.Cells[r*snap.Cols : (r+1)*snap.Cols]
		all[r] = rowRuns(row, names.base)
		marks := snap.RowMarks(r)
		for _, run := range all[r] {
			if !run.style.isDefault() && run.style != names.base && run.style != names.base.blankView() {
				out.Runs = append(out.Runs, StyledRun{Row: r, Col: run.col, Len: run.end - run.col,
					Text: cellText(&tb, row, run.col, run.end, marks), Style: run.style.toStyle(snap.Links)})
			}
		}
	}
	var head []string
	if !names.base.isDefault() {
		head = append(head, "{base "+names.base.codes(cellStyle{}, snap.Links)+"}")
		st := names.base.toStyle(snap.Links)
		out.Base = &st
	}
	if l := names.legend(all); l != "" {
		head = append(head, l)
	}
	var rows []string
	for r := range all {
		cursorCol := -1
		if snap.Cursor.Visible && snap.Cursor.Row == r {
			cursorCol = snap.Cursor.Col
		}
		rows = append(rows, styledRow(snap.Cells[r*snap.Cols:(r+1)*snap.Cols], all[r], names, snap.RowMarks(r), cursorCol))
	}
	end := len(rows)
	for end > 0 && rows[end-1] == "" {
		end--
	}
	if snap.Cursor.Visible {
		end = max(end, min(snap.Cursor.Row+1, len(rows)))
	}
	out.Text = strings.Join(rows[:end], "\n")
	if len(head) > 0 {
		out.Head = strings.Join(head, " ")
		out.Text = out.Head + "\n" + out.Text
	}
	return out
}

// styledRow is one row of markup: runs in the base style as plain text,
// the others in {codes}...{/}, trailing base blanks dropped, {|} before
// the cell at cursorCol (-1: none on this row).
func styledRow(row []Cell, runs []cellRun, names *styleNames, marks []vtMark, cursorCol int) string {
	base := names.base
	end := len(row) // the row ends after its last cell that is not a base blank
	for end > 0 && (row[end-1].Width == 0 || isBlank(row[end-1]) && styleOf(row[end-1]) == base.blankView()) {
		end--
	}
	var b strings.Builder
	var tb []byte
	open := false // a marker holds until the next one, {/} or the row's end
	for _, run := range runs {
		if run.col >= end {
			break
		}
		to := min(run.end, end)
		text := cellText(&tb, row, run.col, to, marks)
		if run.col <= cursorCol && cursorCol < to {
			text = insertCursor(row, run.col, cursorCol, text)
			cursorCol = -1
		}
		if run.style == base || run.style == base.blankView() {
			if open {
				b.WriteString("{/}")
				open = false
			}
			b.WriteString(text)
			continue
		}
		b.WriteString(names.marker(run.style) + text)
		open = true
	}
	if cursorCol >= 0 {
		if open && cursorCol > end {
			b.WriteString("{/}")
		}
		b.WriteString(strings.Repeat(" ", max(cursorCol-end, 0)) + "{|}")
	}
	return b.String()
}

// blankCellsOnly reports whether cells [from, to) are all blank.
func blankCellsOnly(row []Cell, from, to int) bool {
	for _, c := range row[from:to] {
		if !isBlank(c) {
			return false
		}
	}
	return true
}

// insertCursor puts {|} into text (the cells from col on) before the
// character at cursorCol; combining marks stay with their base.
func insertCursor(row []Cell, col, cursorCol int, text string) string {
	want := 0 // characters before the cursor
	for c := col; c < cursorCol; c++ {
		if row[c].Width != 0 {
			want++
		}
	}
	chars := 0
	for k, r := range text {
		if isMark(r) {
			continue
		}
		if chars == want {
			return text[:k] + "{|}" + text[k:]
		}
		chars++
	}
	return text + "{|}"
}

// isMark reports whether r is a combining mark (zero width, drawn on the
// character before it).
func isMark(r rune) bool { return runeWidth(r) == 0 }

// baseStyle is the screen's base: the background more than half of its
// cells have (without reverse video or underline), and when that is not
// the default, the foreground most of the glyphs on it have. Else the
// default.
func baseStyle(snap *Snapshot) cellStyle {
	bgs := map[Color]int{}
	for _, c := range snap.Cells {
		if c.Width != 0 && c.Attr&blankAttrs == 0 {
			bgs[c.BG]++
		}
	}
	var base cellStyle
	for bg, n := range bgs {
		if n*2 > len(snap.Cells) {
			base.BG = bg
		}
	}
	if base.BG == ColorDefault {
		return cellStyle{}
	}
	fgs := map[Color]int{}
	for _, c := range snap.Cells {
		if c.Width != 0 && !bgOnly(c) && c.BG == base.BG && c.Attr&blankAttrs == 0 {
			fgs[c.FG]++
		}
	}
	n := 0
	for fg, k := range fgs {
		if k > n || k == n && fg < base.FG { // ties: the lower colour, for a stable choice
			base.FG, n = fg, k
		}
	}
	return base
}

// styledRuns are the runs of a styled read, in reading order.
type styledRuns = []StyledRun

// formatProp is shell_read's format argument.
var formatProp = map[string]any{"type": "string", "enum": []string{"text", "styled"},
	"description": "styled: {rev}x{/} reverse, {bold red on-blue}x{/}, {|} the cursor."}

// checkReadFormat checks shell_read's format against raw.
func checkReadFormat(format string, raw bool) error {
	switch format {
	case "", "text":
		return nil
	case "styled":
		if raw {
			return errors.New(`format "styled" reads the screen, raw the output stream: drop one of them`)
		}
		return nil
	}
	return fmt.Errorf("format %q is not known: use \"text\" (plain) or \"styled\" (styles marked)", format)
}

// readStyled is shell_read's styled form: the visible screen as styled markup, its
// newest max bytes (as shell_read cuts text, but keeping the head line
// that defines the base and the numbered styles), its runs and its base.
func readStyled(s *Session, max int) (text string, truncated bool, runs styledRuns, base *Style) {
	st := renderStyled(s.Snapshot())
	if len(st.Text) <= max || st.Head == "" || len(st.Head)+len(truncatedMarker)+1 >= max {
		text, truncated = tailText(st.Text, max, false)
		return text, truncated, st.Runs, st.Base
	}
	// The head line explains the markers: keep it, cut the rows.
	text, _ = tailText(strings.TrimPrefix(st.Text, st.Head+"\n"), max-len(st.Head)-1, false)
	return st.Head + "\n" + text, true, st.Runs, st.Base
}
