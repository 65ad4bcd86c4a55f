package main

// vt.go: the terminal emulator. CONTRACT SKELETON: the types and method
// signatures below are what the rest of the program uses; the VT work
// replaces the bodies (and may add anything it likes) but keeps these
// names and meanings.

import "io"

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
	LineFeedNL     bool // LNM
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
type Terminal struct {
	cols, rows int
	reply      io.Writer
	gen        uint64
}

// NewTerminal returns a cols x rows terminal keeping at most scrollback
// lines of history (0 = none).
func NewTerminal(cols, rows, scrollback int) *Terminal {
	return &Terminal{cols: cols, rows: rows}
}

// SetReplyWriter sets where replies to queries (DSR, DA1, DA2, DECRQM,
// XTVERSION, OSC 10/11) are written; nil discards them.
func (t *Terminal) SetReplyWriter(w io.Writer) { t.reply = w }

// Write feeds program output to the terminal. It never fails.
func (t *Terminal) Write(p []byte) (int, error) { return len(p), nil }

// Resize changes the screen size, reflowing nothing (xterm behaviour).
func (t *Terminal) Resize(cols, rows int) { t.cols, t.rows = cols, rows }

// Size returns the screen size in cells.
func (t *Terminal) Size() (cols, rows int) { return t.cols, t.rows }

// Generation increases whenever anything visible changes.
func (t *Terminal) Generation() uint64 { return t.gen }

// Cursor returns the cursor state.
func (t *Terminal) Cursor() Cursor { return Cursor{} }

// Modes returns the current modes.
func (t *Terminal) Modes() Modes { return Modes{} }

// Title returns the window title set by OSC 0/2.
func (t *Terminal) Title() string { return "" }

// Lines returns the visible rows as text: wide characters once, combining
// marks after their base, trailing blanks trimmed; exactly rows entries.
func (t *Terminal) Lines() []string { return make([]string, t.rows) }

// ScrollbackLines returns the history rows as text, oldest first.
func (t *Terminal) ScrollbackLines() []string { return nil }

// Snapshot copies the visible screen.
func (t *Terminal) Snapshot() *Snapshot {
	return &Snapshot{Cols: t.cols, Rows: t.rows, Cells: make([]Cell, t.cols*t.rows), Generation: t.gen}
}
