package main

// vt.go: the terminal emulator's public face: cells, colours, the
// Terminal type and the methods the rest of the program calls. The parser
// state machine is in vt_parser.go, screen operations in vt_screen.go,
// control-sequence dispatch in vt_dispatch.go, history in vt_history.go
// and character widths in vt_width.go.
//
// The reference is xterm (as its ctlseqs document and as a real xterm
// draws the escape-sequence files in testdata/vt). Where references
// disagree, this emulator does what xterm does, except where noted:
//
//	IL, DL                   cursor to column 0 (xterm); vt100-rust and tmux keep the column
//	?47, ?1049               one cursor for both screens (xterm); ?1049 saves and restores it
//	DECSTBM                  homes the cursor (to the region's top in origin mode)
//	LF at the pending wrap   keeps it pending; VT and FF drop it (xterm)
//	CBT at the pending wrap  keeps it pending (xterm)
//	EL 0 at the pending wrap erases nothing, keeps it pending (alacritty, xterm.js; xterm erases)
//	DECRC                    does not restore a pending wrap (xterm)
//	SGR 1 then 2             bold and dim together
//	SGR 21                   double underline (xterm, tmux, xterm.js; alacritty ignores it)
//	DEC graphics '_'         blank (xterm, alacritty)
//	38:2:cs:r:g:b            colour-space id skipped (xterm)
//	DECCOLM (?3)             ignored (xterm's default)
//	DECSCA/DECSED/DECSEL     honoured (xterm)
//	erased cells             keep only the background colour (BCE)
//	Resize                   no reflow; see Terminal.Resize
//
// Bytes 0x80-0x9F are never C1 controls: the terminal is always UTF-8.

//go:generate go run ./gen/mkwidth -output vt_width_table.go

import (
	"bytes"
	"io"
	"slices"
	"strings"
)

// Color is a cell colour: ColorDefault, a palette index (0-255) or a direct
// RGB colour. The zero value is the default foreground/background.
type Color uint32

// Color kinds live in the top byte.
const (
	ColorDefault Color = 0
	colorPalette Color = 1 << 24
	colorRGB     Color = 2 << 24
)

// PaletteColor returns palette colour i (0-15 ANSI, 16-231 cube, 232-255 grey).
func PaletteColor(i uint8) Color { return colorPalette | Color(i) }

// RGBColor returns a direct (truecolor) colour.
func RGBColor(r, g, b uint8) Color {
	return colorRGB | Color(r)<<16 | Color(g)<<8 | Color(b)
}

// IsDefault reports whether c is the default colour.
func (c Color) IsDefault() bool { return c>>24 == 0 }

// Palette returns the palette index and true when c is a palette colour.
func (c Color) Palette() (uint8, bool) { return uint8(c), c>>24 == 1 }

// RGB returns the components and true when c is a direct colour.
func (c Color) RGB() (r, g, b uint8, ok bool) {
	return uint8(c >> 16), uint8(c >> 8), uint8(c), c>>24 == 2
}

// Attr is a set of SGR rendition flags of a cell.
type Attr uint16

// Attr flags (SGR 1, 2, 3, 4, 5, 7, 8, 9, 53). The underline style is kept
// in AttrULMask bits when AttrUnderline is set.
const (
	AttrBold Attr = 1 << iota
	AttrDim
	AttrItalic
	AttrUnderline
	AttrBlink
	AttrInverse
	AttrHidden
	AttrStrike
	AttrOverline
	attrULStyle0 // underline style, 3 bits: 0 single, 1 double, 2 curly, 3 dotted, 4 dashed
	attrULStyle1
	attrULStyle2
)

// AttrULShift and AttrULMask locate the underline style bits in an Attr.
const (
	AttrULShift      = 9
	AttrULMask  Attr = 7 << AttrULShift
)

// Cell is one character cell of the screen.
type Cell struct {
	Rune  rune  // base character; 0 = empty (drawn as a blank)
	FG    Color // foreground (SGR 30-38, 90-97)
	BG    Color // background (SGR 40-48, 100-107); erased cells keep the erase BG (BCE)
	UL    Color // underline colour (SGR 58); default = the foreground
	Attr  Attr
	Width uint8  // 1 normal, 2 left half of a wide char, 0 right half (spacer) of a wide char
	Link  uint16 // OSC 8 hyperlink id, 0 = none (see Snapshot.Links)
}

// CursorShape is the DECSCUSR cursor style.
type CursorShape uint8

// Cursor shapes (DECSCUSR Ps 0-6; blinking is ignored when drawing).
const (
	CursorBlock CursorShape = iota
	CursorUnderline
	CursorBar
)

// Cursor is the cursor state; Row and Col are 0-based screen coordinates.
type Cursor struct {
	Row, Col    int
	Visible     bool // DECTCEM
	Shape       CursorShape
	PendingWrap bool
}

// Modes are the terminal modes other parts of the program act on.
type Modes struct {
	AppCursor      bool // DECCKM (?1): arrow keys send ESC O x
	AppKeypad      bool // DECKPAM
	BracketedPaste bool // ?2004
	AltScreen      bool // ?47/?1047/?1049 active
	SyncOutput     bool // ?2026: the program is inside a synchronized update
	Mouse          int  // 0 none, else the last mouse tracking mode set (9, 1000, 1002, 1003)
	MouseEncoding  int  // 0 default, else the last mouse encoding set (1005, 1006, 1015, 1016)
	AltScroll      bool // ?1007: on the alternate screen the wheel sends arrow keys
	LineFeedNL     bool // LNM
	ReverseVideo   bool // DECSCNM (?5): draw the whole screen with fg and bg swapped
}

// Snapshot is an immutable copy of the visible screen, safe to use without
// the terminal's lock (for rendering, recording and resources).
type Snapshot struct {
	Cols, Rows int
	Cells      []Cell         // Rows*Cols, row-major
	Marks      map[int]string // combining marks by cell index (row*Cols+col)
	Links      map[uint16]string
	Cursor     Cursor
	Title      string
	Modes      Modes
	Generation uint64
}

// Terminal is an xterm-compatible emulator: bytes in, screen model out.
// It is not safe for concurrent use; callers hold their own lock.
//
// The zero value is not usable; call NewTerminal.
type Terminal struct {
	cols, rows int
	reply      io.Writer
	replyBuf   []byte // replies gathered during one Write, sent at its end
	gen        uint64
	dirty      bool   // something visible changed during this Write
	resizes    uint64 // Resize calls that changed the size (Resizes)

	p vtParser

	main, alt *vtScreen
	scr       *vtScreen // the active one of main and alt
	hist      vtHistory // lines scrolled off the top of the main screen

	cur      vtCursor
	pen      Cell // current rendition: Rune 0, Width 1
	cs       vtCharsets
	top, bot int    // scroll region, 0-based inclusive rows (DECSTBM)
	tabs     []bool // tab stop at column i
	blank    []Cell // one row of default blank cells, for fast clearing

	autowrap    bool // DECAWM (?7)
	origin      bool // DECOM (?6)
	insert      bool // IRM (4)
	reverseWrap bool // xterm ?45: BS at column 0 goes to the previous row's end
	visible     bool // DECTCEM (?25)
	shape       CursorShape
	blink       bool // cursor blinking (?12, DECSCUSR odd values)
	modes       Modes
	mouseEnc    int  // 1005, 1006, 1015 or 0
	focus       bool // ?1004 focus events

	title    string
	links    []string          // links[id-1] is the URI of OSC 8 link id
	linkIDs  map[string]uint16 // URI (with its id= parameter) to link id
	last     rune              // last graphic character printed (REP); 0 = none
	markAt   int               // where a combining mark goes (addMark): vtMarkPrinted, vtMarkCursor or vtMarkCol+col
	fgColor  [3]uint8          // default colours reported by OSC 10/11 (SetColors)
	bgColor  [3]uint8
	ident    vtIdent // theme and TERM that reports give (vt_reply.go)
	bells    int
	unknowns int // sequences consumed without meaning (for tests)

	marking    *vtMarking  // the running echo/old-text marking (vt_echo.go), nil when none
	shellMarks []ShellMark // OSC 133 and OSC 7 marks not yet taken (vt_marks.go)
	markNonce  vtMarkNonce // what tells the shell integration's marks from output's (vt_marks.go)
	outStart   vtOutStart  // where the running command's output starts (vt_marks.go)
	cmdLine    bool        // between a shell's B mark and its C, D or next prompt's A: its line editor draws (vt_echo.go)
}

// vtCursor is a cursor position with the pending-wrap flag: after a
// character lands in the last column, the cursor stays there with wrap
// set, and the next printable character wraps first.
type vtCursor struct {
	row, col int
	wrap     bool
}

// vtCharsets are the G0-G3 designations ('B' ASCII, '0' DEC special
// graphics, 'A' UK) and which one is shifted into GL.
type vtCharsets struct {
	g  [4]byte
	gl uint8
}

// vtSaved is what DECSC saves and DECRC restores.
type vtSaved struct {
	cur      vtCursor
	pen      Cell
	cs       vtCharsets
	origin   bool
	autowrap bool
	valid    bool
}

// vtScreen is one screen buffer (main or alternate): rows top to bottom.
type vtScreen struct {
	lines []*vtLine // rows top to bottom: a window into buf
	buf   []*vtLine // lines plus room to slide the window down on scrolls
	start int       // lines == buf[start : start+rows]
	saved vtSaved
}

// vtSlide is how far the window of a screen's rows can slide before it is
// copied back to the start of its buffer: a full-screen scroll moves one
// pointer instead of rows pointers.
const vtSlide = 1024

// setLines makes lines the screen's rows, with fresh room to slide.
func (s *vtScreen) setLines(lines []*vtLine) {
	s.buf = make([]*vtLine, len(lines)+vtSlide)
	copy(s.buf, lines)
	s.start = 0
	s.lines = s.buf[:len(lines)]
}

// rotateUp moves the top row to the bottom and every other row up one.
func (s *vtScreen) rotateUp() {
	rows := len(s.lines)
	first := s.lines[0]
	if s.start+rows >= len(s.buf) {
		copy(s.buf, s.lines[1:])
		s.start = 0
	} else {
		s.start++
	}
	s.lines = s.buf[s.start : s.start+rows]
	s.lines[rows-1] = first
}

// vtLine is one screen row.
type vtLine struct {
	cells   []Cell
	marks   []vtMark // combining marks, usually nil
	used    int      // cells[used:] are default blanks: bounds trimming and clearing
	wrapped bool     // the row soft-wrapped into the next one
	styled  bool     // some cell may have a colour or attribute (false: none has)
	unicode bool     // some cell may hold a non-ASCII rune or a wide half (false: none does)
	echoed  []rune   // by column, the runes drawn as the echo of typed input (vt_echo.go); nil when none
}

// vtMark holds the combining marks that follow the base character in
// column col.
type vtMark struct {
	col int
	s   string
}

// vtMaxMark bounds the combining marks kept per cell, in bytes.
const vtMaxMark = 32

// NewTerminal returns a cols x rows terminal keeping at most scrollback
// lines of history (0 = none). Sizes below 1 become 1.
func NewTerminal(cols, rows, scrollback int) *Terminal {
	cols, rows = max(cols, 1), max(rows, 1)
	t := &Terminal{
		fgColor: [3]uint8{0xe5, 0xe5, 0xe5},
		bgColor: [3]uint8{0, 0, 0},
	}
	t.hist.max = max(scrollback, 0)
	t.setSize(cols, rows)
	t.main = t.newScreen()
	t.alt = t.newScreen()
	t.scr = t.main
	t.reset()
	return t
}

// SetReplyWriter sets where replies to queries (DSR, DA, DECRQM, XTVERSION,
// XTGETTCAP, OSC 4/10/11/12, ...) are written; nil discards them. Replies
// are written once per Write call, after the whole chunk was parsed.
func (t *Terminal) SetReplyWriter(w io.Writer) { t.reply = w }

// Write feeds program output to the terminal. It never fails and always
// consumes all of p; sequences and UTF-8 runes may be split across calls.
func (t *Terminal) Write(p []byte) (int, error) {
	t.feed(p)
	if t.dirty {
		t.gen++
		t.dirty = false
	}
	if len(t.replyBuf) > 0 {
		if t.reply != nil {
			_, _ = t.reply.Write(t.replyBuf) // a closed PTY cannot take replies; nothing to do
		}
		t.replyBuf = t.replyBuf[:0]
	}
	return len(p), nil
}

// Resize changes the screen size, reflowing nothing (xterm behaviour):
// rows keep their cells, cut or padded on the right. A shorter screen
// first loses blank rows below the cursor, then pushes rows off the top
// (into the scrollback, for the main screen); a taller main screen takes
// rows back from the scrollback before adding blank rows at the bottom.
// The scroll region resets to the full screen. Sizes below 1 become 1.
func (t *Terminal) Resize(cols, rows int) {
	cols, rows = max(cols, 1), max(rows, 1)
	if cols == t.cols && rows == t.rows {
		return
	}
	t.resizes++
	for _, s := range []*vtScreen{t.main, t.alt} {
		// The row to keep in view: the cursor's, or for the screen not
		// shown, where its saved cursor will come back.
		anchor := &s.saved.cur.row
		if s == t.scr {
			anchor = &t.cur.row
		}
		lines := s.lines
		if d := len(lines) - rows; d > 0 {
			for d > 0 && len(lines)-1 > *anchor && lines[len(lines)-1].blank() {
				lines = lines[:len(lines)-1]
				d--
			}
			for _, l := range lines[:d] {
				if s == t.main {
					t.hist.push(l)
				}
			}
			lines = lines[d:]
			*anchor = max(*anchor-d, 0)
		}
		for _, l := range lines {
			l.resize(cols)
		}
		if d := rows - len(lines); d > 0 {
			var back []*vtLine
			for s == t.main && len(back) < d && t.hist.n > 0 {
				back = append(back, t.hist.pop(cols))
			}
			slices.Reverse(back)
			*anchor += len(back)
			lines = append(back, lines...)
			for len(lines) < rows {
				lines = append(lines, newLine(cols))
			}
		}
		s.setLines(lines)
	}
	t.setSize(cols, rows)
	t.cur.row = min(t.cur.row, rows-1)
	t.cur.col = min(t.cur.col, cols-1)
	t.resetWrap()
	for _, s := range []*vtScreen{t.main, t.alt} {
		s.saved.cur.row = min(s.saved.cur.row, rows-1)
		s.saved.cur.col = min(s.saved.cur.col, cols-1)
	}
	t.dirty = true
	t.gen++
	t.dirty = false
}

// blank reports whether the row shows nothing: default blank cells only.
func (l *vtLine) blank() bool {
	if l.marks != nil {
		return false
	}
	for _, c := range l.cells[:l.used] {
		if c != (Cell{Width: 1}) {
			return false
		}
	}
	return true
}

// setSize sets the size and the per-width buffers (tab stops every 8
// columns are kept where they were set, and added past the old width).
func (t *Terminal) setSize(cols, rows int) {
	old := len(t.tabs)
	tabs := make([]bool, cols)
	copy(tabs, t.tabs)
	for c := old; c < cols; c++ {
		tabs[c] = c%8 == 0 && c > 0
	}
	t.tabs = tabs
	t.blank = make([]Cell, cols)
	for i := range t.blank {
		t.blank[i].Width = 1
	}
	t.cols, t.rows = cols, rows
	t.top, t.bot = 0, rows-1
}

// newScreen returns a blank screen of the current size.
func (t *Terminal) newScreen() *vtScreen {
	lines := make([]*vtLine, t.rows)
	for i := range lines {
		lines[i] = newLine(t.cols)
	}
	s := &vtScreen{}
	s.setLines(lines)
	return s
}

// newLine returns a blank row of cols cells.
func newLine(cols int) *vtLine {
	l := &vtLine{cells: make([]Cell, cols)}
	for i := range l.cells {
		l.cells[i].Width = 1
	}
	return l
}

// resize cuts or pads the row to cols cells; a wide character cut in
// half becomes a blank.
func (l *vtLine) resize(cols int) {
	n := len(l.cells)
	switch {
	case cols < n:
		l.cells = l.cells[:cols:cols]
		if l.cells[cols-1].Width == 2 {
			l.cells[cols-1] = Cell{Width: 1, BG: l.cells[cols-1].BG} // the row is styled already if BG is set
		}
		l.used = min(l.used, cols)
		l.dropMarks(cols, n)
	case cols > n:
		cells := make([]Cell, cols)
		copy(cells, l.cells)
		for i := n; i < cols; i++ {
			cells[i].Width = 1
		}
		l.cells = cells
	}
	if l.wrapped && cols != n {
		l.wrapped = false
	}
}

// Size returns the screen size in cells.
func (t *Terminal) Size() (cols, rows int) { return t.cols, t.rows }

// Generation increases whenever anything visible changes (at most once
// per Write call).
func (t *Terminal) Generation() uint64 { return t.gen }

// Cursor returns the cursor state.
func (t *Terminal) Cursor() Cursor {
	return Cursor{Row: t.cur.row, Col: t.cur.col, Visible: t.visible, Shape: t.shape, PendingWrap: t.cur.wrap}
}

// Modes returns the current modes.
func (t *Terminal) Modes() Modes {
	m := t.modes
	m.AltScreen = t.scr == t.alt
	m.MouseEncoding = t.mouseEnc
	return m
}

// Title returns the window title set by OSC 0/2.
func (t *Terminal) Title() string { return t.title }

// Lines returns the visible rows as text: wide characters once, combining
// marks after their base, trailing blanks trimmed; exactly rows entries.
func (t *Terminal) Lines() []string {
	out := make([]string, t.rows)
	var b strings.Builder
	for i, l := range t.scr.lines {
		out[i] = l.text(&b)
	}
	return out
}

// HiddenMainText returns the main screen's rows as text, one per line,
// while the alternate screen is shown (what leaving it will bring back),
// else "".
func (t *Terminal) HiddenMainText() string {
	if t.scr != t.alt {
		return ""
	}
	var b, out strings.Builder
	for _, l := range t.main.lines {
		out.WriteString(l.text(&b))
		out.WriteByte('\n')
	}
	return out.String()
}

// Row returns visible row i (0-based) as text like Lines, or "" when i is
// outside the screen.
func (t *Terminal) Row(i int) string {
	if i < 0 || i >= t.rows {
		return ""
	}
	var b strings.Builder
	return t.scr.lines[i].text(&b)
}

// RowMarks returns the combining marks of row r by column, as rowText
// takes them; nil when the row has none.
func (s *Snapshot) RowMarks(r int) []vtMark {
	if len(s.Marks) == 0 {
		return nil
	}
	var out []vtMark
	for c := range s.Cols {
		if m, ok := s.Marks[r*s.Cols+c]; ok {
			out = append(out, vtMark{col: c, s: m})
		}
	}
	return out
}

// RowText is row r of the snapshot as text (rowText), trailing blanks
// trimmed; "" outside it.
func (s *Snapshot) RowText(r int) string {
	if r < 0 || r >= s.Rows || (r+1)*s.Cols > len(s.Cells) {
		return ""
	}
	b := rowText(nil, s.Cells[r*s.Cols:(r+1)*s.Cols], 0, s.Cols, s.RowMarks(r), nil)
	return strings.TrimRight(string(b), " ")
}

// CellAt returns the cell at 0-based row and col of the visible screen,
// or a blank cell outside it.
func (t *Terminal) CellAt(row, col int) Cell {
	if row < 0 || row >= t.rows || col < 0 || col >= t.cols {
		return Cell{Width: 1}
	}
	return t.scr.lines[row].cells[col]
}

// RowCells returns visible row i's cells up to the last one written (the
// rest, to the width, are default blanks) and its combining marks, as the
// terminal holds them; nil off the screen. They are valid while the
// caller holds the lock that guards t, and must not be changed.
func (t *Terminal) RowCells(i int) ([]Cell, []vtMark) {
	if i < 0 || i >= t.rows {
		return nil, nil
	}
	l := t.scr.lines[i]
	return l.cells[:l.used], l.marks
}

// LinkURL returns the URI of OSC 8 hyperlink id (Cell.Link), "" for none.
func (t *Terminal) LinkURL(id uint16) string {
	if id == 0 || int(id) > len(t.links) {
		return ""
	}
	return t.links[id-1]
}

// Resizes counts the Resize calls that changed the size: a history row
// keeps its absolute number (LineBase) and its content until one does.
func (t *Terminal) Resizes() uint64 { return t.resizes }

// Wrapped reports whether visible row i soft-wrapped into the next row.
func (t *Terminal) Wrapped(i int) bool {
	return i >= 0 && i < t.rows && t.scr.lines[i].wrapped
}

// text renders the row as a string: blank cells as spaces, spacer halves
// of wide characters skipped, marks after their base, trailing spaces
// removed.
func (l *vtLine) text(b *strings.Builder) string {
	b.Reset()
	var buf [256]byte
	b.Write(bytes.TrimRight(rowText(buf[:0], l.cells, 0, l.used, l.marks, nil), " "))
	return b.String()
}

// ScrollbackLines returns the history rows as text, oldest first.
func (t *Terminal) ScrollbackLines() []string {
	out := make([]string, t.hist.n)
	var b strings.Builder
	for i := range out {
		out[i] = t.hist.at(i).text(&b)
	}
	return out
}

// ScrollbackLen returns the number of history rows kept.
func (t *Terminal) ScrollbackLen() int { return t.hist.n }

// Snapshot copies the visible screen.
func (t *Terminal) Snapshot() *Snapshot {
	s := &Snapshot{
		Cols:       t.cols,
		Rows:       t.rows,
		Cells:      make([]Cell, t.cols*t.rows),
		Cursor:     t.Cursor(),
		Title:      t.title,
		Modes:      t.Modes(),
		Generation: t.gen,
	}
	for r, l := range t.scr.lines {
		row := s.Cells[r*t.cols : (r+1)*t.cols]
		copy(row, l.cells)
		for _, m := range l.marks {
			if s.Marks == nil {
				s.Marks = make(map[int]string)
			}
			s.Marks[r*t.cols+m.col] = m.s
		}
		for c := 0; c < l.used; c++ {
			if id := row[c].Link; id != 0 && int(id) <= len(t.links) {
				if s.Links == nil {
					s.Links = make(map[uint16]string)
				}
				s.Links[id] = t.links[id-1]
			}
		}
	}
	return s
}
