package main

// styled.go: the screen as styled text for shell_read format "styled":
// runs of cells whose style differs from the default, as data (runs with
// a style object) and as a compact markup a model reads at a glance.
//
// The markup: plain text where the cells have the screen's base style,
// {codes}text{/} around every other run, {|} where the cursor is. Codes,
// space-separated: rev, bold, dim, italic, ul, the foreground colour
// (red, bright-red, 196, #ff0000), the background as on-<colour>,
// link=<uri>, and default for a run in the default style on a screen
// whose base is not. The base is the style most cells have when that
// covers more than half the screen (dialog's blue backdrop); it is
// announced on a first line "{base codes}" so that the rest needs no
// marker. Blank cells only show their background, reverse video and
// underline, so a blank between two words of one colour joins their run.

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

// styleOf is a cell's visible style; a blank shows only its background,
// reverse video and underline.
func styleOf(c Cell) cellStyle {
	if isBlank(c) {
		return cellStyle{BG: c.BG, Attr: c.Attr & blankAttrs}
	}
	return cellStyle{FG: c.FG, BG: c.BG, Attr: c.Attr & styleAttrs, Link: c.Link}
}

// isBlank reports whether c draws no glyph.
func isBlank(c Cell) bool { return c.Rune == 0 || c.Rune == ' ' }

// blankView is what a style looks like on a blank cell.
func (s cellStyle) blankView() cellStyle { return cellStyle{BG: s.BG, Attr: s.Attr & blankAttrs} }

func (s cellStyle) isDefault() bool { return s == cellStyle{} }

// Style is a run's style as shell_read and shell_find report it and as
// shell_find takes it: only the attributes that differ from the default.
// Colours are as the program chose them: "red" .. "white" and
// "bright-red" .. "bright-white" for the 16 ANSI colours (SGR 31 is "red"
// even where bold draws it bright), "0" .. "255" for the rest of the
// palette, "#rrggbb" for truecolor, "default" (in a filter only) for the
// terminal's own colour.
type Style struct {
	Reverse   *bool  `json:"reverse,omitempty"`
	Bold      *bool  `json:"bold,omitempty"`
	Dim       *bool  `json:"dim,omitempty"`
	Italic    *bool  `json:"italic,omitempty"`
	Underline *bool  `json:"underline,omitempty"`
	FG        string `json:"fg,omitempty"`
	BG        string `json:"bg,omitempty"`
	Link      string `json:"link,omitempty"`
}

// styleSchema is the JSON Schema of a Style.
func styleSchema(desc string) map[string]any {
	b := func(d string) map[string]any { return prop("boolean", d) }
	return map[string]any{
		"type":        "object",
		"description": desc,
		"properties": map[string]any{
			"reverse":   b("Reverse video (SGR 7): how most TUIs show the selected item."),
			"bold":      b("Bold (SGR 1)."),
			"dim":       b("Dim (SGR 2)."),
			"italic":    b("Italic (SGR 3)."),
			"underline": b("Underlined (SGR 4, any underline style)."),
			"fg":        prop("string", "Foreground: red, bright-red, ... (the 16 ANSI colours), \"196\" (256-colour index), \"#ff0000\" (truecolor)."),
			"bg":        prop("string", "Background, named like fg."),
			"link":      prop("string", "OSC 8 hyperlink URI."),
		},
		"additionalProperties": false,
	}
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

// codes is the markup of s on a screen whose base is base (a background
// only): "rev bold red on-blue"; the base's background goes unsaid,
// another one is on-<colour> (on-default for the terminal's own).
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
	if n := colorName(s.FG); n != "" {
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
	if len(parts) == 0 {
		return "default"
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
			if last.style == st || isBlank(cell) && last.style.blankView() == st {
				last.end = c + 1
				continue
			}
			if last.style == st.blankView() && last.style != base.blankView() && blankCells(row, last.col, last.end) {
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
		for tail > r.col+1 && isBlank(row[tail-1]) && row[tail-1].Width != 0 {
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

// cellText is the text of cells [from, to): a blank for an empty cell,
// wide characters once, combining marks (marks by column) after their base.
func cellText(b *strings.Builder, row []Cell, from, to int, marks map[int]string) string {
	b.Reset()
	for c := from; c < to; c++ {
		cell := row[c]
		if cell.Width == 0 {
			continue
		}
		if cell.Rune == 0 {
			b.WriteByte(' ')
		} else {
			b.WriteRune(cell.Rune)
		}
		if m, ok := marks[c]; ok {
			b.WriteString(m)
		}
	}
	return b.String()
}

// styledScreen is a snapshot as styled text: the markup and the runs.
type styledScreen struct {
	Text string
	Runs []StyledRun
	Base Style // the screen's base style (empty: the default)
}

// renderStyled writes snap as styled markup and runs. Rows after the last
// one with anything to show (and after the cursor's) are left out, as in
// the plain text; each row ends at its last cell not in the base style
// and not blank.
func renderStyled(snap *Snapshot) styledScreen {
	var out styledScreen
	base := baseStyle(snap)
	var b strings.Builder
	if !base.isDefault() {
		b.WriteString("{base " + base.codes(cellStyle{}, snap.Links) + "}\n")
		out.Base = base.toStyle(snap.Links)
	}
	var tb strings.Builder
	var rows []string
	for r := 0; r < snap.Rows; r++ {
		row := snap.Cells[r*snap.Cols : (r+1)*snap.Cols]
		marks := rowMarks(snap, r)
		runs := rowRuns(row, base)
		for _, run := range runs {
			if !run.style.isDefault() {
				out.Runs = append(out.Runs, StyledRun{Row: r, Col: run.col, Len: run.end - run.col,
					Text: cellText(&tb, row, run.col, run.end, marks), Style: run.style.toStyle(snap.Links)})
			}
		}
		cursorCol := -1
		if snap.Cursor.Visible && snap.Cursor.Row == r {
			cursorCol = snap.Cursor.Col
		}
		rows = append(rows, styledRow(row, runs, base, marks, cursorCol, snap.Links))
	}
	end := len(rows)
	for end > 0 && rows[end-1] == "" {
		end--
	}
	if snap.Cursor.Visible {
		end = max(end, min(snap.Cursor.Row+1, len(rows)))
	}
	b.WriteString(strings.Join(rows[:end], "\n"))
	out.Text = b.String()
	return out
}

// rowMarks are the combining marks of row r, by column.
func rowMarks(snap *Snapshot, r int) map[int]string {
	var m map[int]string
	for i, s := range snap.Marks {
		if i/snap.Cols == r {
			if m == nil {
				m = map[int]string{}
			}
			m[i%snap.Cols] = s
		}
	}
	return m
}

// styledRow is one row of markup: runs in the base style as plain text,
// the others in {codes}...{/}, trailing base blanks dropped, {|} before
// the cell at cursorCol (-1: none on this row).
func styledRow(row []Cell, runs []cellRun, base cellStyle, marks map[int]string, cursorCol int, links map[uint16]string) string {
	end := len(row) // the row ends after its last cell that is not a base blank
	for end > 0 && (row[end-1].Width == 0 || isBlank(row[end-1]) && styleOf(row[end-1]) == base.blankView()) {
		end--
	}
	var b, tb strings.Builder
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
		if run.style == base {
			b.WriteString(text)
			continue
		}
		b.WriteString("{" + run.style.codes(base, links) + "}" + text + "{/}")
	}
	if cursorCol >= 0 {
		b.WriteString(strings.Repeat(" ", max(cursorCol-end, 0)) + "{|}")
	}
	return b.String()
}

// blankCells reports whether cells [from, to) are all blank.
func blankCells(row []Cell, from, to int) bool {
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

// baseStyle is the style more than half of the screen's cells show, or
// the default.
func baseStyle(snap *Snapshot) cellStyle {
	counts := map[cellStyle]int{}
	for _, c := range snap.Cells {
		if c.Width == 0 {
			continue
		}
		counts[styleOf(c)]++
	}
	var best cellStyle
	n := 0
	for st, k := range counts {
		if k > n {
			best, n = st, k
		}
	}
	if n*2 <= len(snap.Cells) || best.Attr != 0 || best.blankView() != best {
		return cellStyle{} // a base is a background only
	}
	return best
}

// styledRuns are the runs of a styled read, in reading order.
type styledRuns = []StyledRun

// styledReadHelp documents format "styled" in shell_read's description.
const styledReadHelp = `format "styled" returns the visible screen with its styles marked, to see which item is selected, which field has focus, what is red: ` +
	`plain text where the style is the default, {codes}text{/} around each other run, {|} at the cursor. ` +
	`Codes: rev (reverse video), bold, dim, italic, ul, the colour (red, bright-red, 196, #ff0000), on-<colour> for the background, link=<uri>. ` +
	`Example: "{bold white on-blue} File  Edit {/}\n{rev}> main.go {/}  util.go{|}". ` +
	`When most of the screen has one background, a first line {base on-blue} names it and cells with it stay plain. ` +
	`structuredContent.runs lists every non-default run as {row, col, len, text, style} (0-based; style holds only what differs from the default).`

// formatProp is shell_read's format argument.
var formatProp = map[string]any{"type": "string", "enum": []string{"text", "styled"},
	"description": "text (default): plain text. styled: the visible screen with styles marked ({rev}Save{/}, {bold red}Error{/}) and runs in structuredContent."}

// runsSchema is the JSON Schema of the runs of a styled read.
var runsSchema = map[string]any{
	"type":        "array",
	"description": "format styled: every run whose style is not the default.",
	"items":       runSchema(styleSchema("Only the attributes that differ from the default.")),
}

// runSchema is the schema of a StyledRun (or a shell_find match) whose
// style is described by style.
func runSchema(style map[string]any) map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"row":   prop("integer", "0-based row on the screen."),
			"col":   prop("integer", "0-based column of the first cell."),
			"len":   prop("integer", "Width in cells."),
			"text":  prop("string", "The cells' text."),
			"style": style,
		},
		"required": []string{"row", "col", "len", "text", "style"},
	}
}

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

// styledText is the visible screen as styled markup, its newest max bytes
// (as shell_read cuts text), and its runs.
func (s *Session) styledText(max int) (string, bool, styledRuns) {
	st := renderStyled(s.Snapshot())
	text, cut := tailText(st.Text, max, false)
	return text, cut, st.Runs
}
