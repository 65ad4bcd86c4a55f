package main

// tape_settings.go: what a tape's Set commands make of the terminal: its
// size in cells from VHS's pixels, the font scale, the theme, the typing
// speed and the waits' defaults, and a warning for each setting
// ttywright cannot honour as VHS does (README "Tapes and tests", the
// compatibility table).

import (
	"fmt"
	"image"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
)

// tapeSettings are a tape's settings, VHS's defaults where no Set gave one.
type tapeSettings struct {
	Shell         string
	Width, Height int // pixels
	FontSize      int // pixels
	Padding       int
	Margin        int
	MarginFill    string
	WindowBar     string
	WindowBarSize int
	Theme         string // ttywright's theme name
	TypingSpeed   time.Duration
	Framerate     int
	WaitTimeout   time.Duration
	WaitPattern   string
}

// defaultTapeSettings are VHS's defaults.
func defaultTapeSettings() tapeSettings {
	return tapeSettings{Shell: "bash", Width: 1200, Height: 600, FontSize: 22, Padding: 60, MarginFill: "#171717",
		WindowBarSize: 30, TypingSpeed: 50 * time.Millisecond, Framerate: 50, WaitTimeout: 15 * time.Second, WaitPattern: ">$"}
}

// tapeWarning is something of a tape that ttywright does differently
// from VHS: the command, as the compatibility table counts it ("Set
// FontFamily"), and what was done instead.
type tapeWarning struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Cmd  string `json:"cmd"`
	Msg  string `json:"msg"`
}

// tapeScale is the font scale for a VHS font size: FontSize/16 rounded,
// 1 to 4 (a cell is 8x16 pixels at scale 1).
func tapeScale(fontSize int) int {
	return min(4, max(1, int(math.Round(float64(fontSize)/16))))
}

// tapeGrid is the screen in cells that the settings' pixels hold: the
// width and height less twice the padding, twice the margin (when a
// margin fill is set, as VHS counts it) and the window frame (with
// WindowBar: ttywright's, at the scale), divided by the cell size at the
// scale. The pictures are drawn that size exactly (layout). FontSize 16,
// Padding 0, no Margin and no WindowBar give exactly Width/8 columns and
// Height/16 rows.
func (s tapeSettings) tapeGrid() (cols, rows, scale int, err error) {
	scale = tapeScale(s.FontSize)
	if int64(s.Width)*int64(s.Height) > maxImagePixels || s.Padding < 0 || s.Margin < 0 {
		return 0, 0, 0, fmt.Errorf("Width %d and Height %d (Padding %d, Margin %d) are no picture ttywright draws: at most %d Mi pixels, no negative edge", s.Width, s.Height, s.Padding, s.Margin, maxImagePixels>>20)
	}
	margin := s.margin()
	frameW, frameH := 0, 0
	if s.WindowBar != "" {
		frameW, frameH = 2*framePadX*scale, (frameTitleBar+framePadTop+framePadBot)*scale
	}
	w := s.Width - 2*s.Padding - 2*margin - frameW
	h := s.Height - 2*s.Padding - 2*margin - frameH
	cols, rows = w/(8*scale), h/(16*scale)
	if err := checkSize(cols, rows); err != nil {
		return 0, 0, 0, fmt.Errorf("Width %d and Height %d (Padding %d, Margin %d, FontSize %d) leave %dx%d cells: %v", s.Width, s.Height, s.Padding, margin, s.FontSize, cols, rows, err)
	}
	return cols, rows, scale, nil
}

// margin is the margin in pixels, as VHS counts it: only with a fill.
func (s tapeSettings) margin() int {
	if s.MarginFill == "" {
		return 0
	}
	return s.Margin
}

// hexColor6 is a colour MarginFill can draw; VHS also takes an image
// there, which ttywright does not draw.
var hexColor6 = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// layout is where the pictures of a tape (its GIF, screenshots and
// frames) put the screen: on a Width x Height canvas, inside the padding
// and the margin, as VHS draws them.
func (s tapeSettings) layout() Layout {
	l := Layout{Size: image.Pt(s.Width, s.Height), Pad: s.Padding, Margin: s.margin()}
	if hexColor6.MatchString(s.MarginFill) {
		l.MarginFill = themeHex(s.MarginFill)
	}
	return l
}

// applySet applies one Set command and returns the warning it earns, if
// any (Cmd empty when none).
func (s *tapeSettings) applySet(c tapeCmd) tapeWarning {
	w := tapeWarning{Line: c.Line, Col: c.Col, Cmd: "Set " + c.Setting}
	n := int(c.Num)
	switch c.Setting {
	case "Shell":
		s.Shell = c.Text
	case "Width":
		s.Width = n
	case "Height":
		s.Height = n
	case "Padding":
		s.Padding = n
	case "Margin":
		s.Margin = n
	case "MarginFill":
		s.MarginFill = c.Text
		if !hexColor6.MatchString(c.Text) {
			w.Msg = "ttywright draws a margin in a #rrggbb colour only: the margin is the theme's background"
		}
	case "WindowBar":
		s.WindowBar = c.Text
		if !strings.HasPrefix(c.Text, "Colorful") {
			w.Msg = "drawn as the macOS bar (coloured buttons, on the left)"
		}
	case "WindowBarSize":
		s.WindowBarSize = n
		w.Msg = fmt.Sprintf("the bar is drawn at ttywright's height (%d px a scale step), inside Width and Height", frameTitleBar)
	case "FontSize":
		s.FontSize = n
		if sc := tapeScale(n); n != 16*sc {
			w.Msg = fmt.Sprintf("the bitmap font has 16 px steps: drawn at scale %d (%d px cells)", sc, 16*sc)
		}
	default:
		return s.applyLook(c, w)
	}
	return w
}

// applyLook applies the settings of the look, speed and waits.
func (s *tapeSettings) applyLook(c tapeCmd, w tapeWarning) tapeWarning {
	switch c.Setting {
	case "Theme":
		name, ok := tapeTheme(c.Text)
		if ok {
			s.Theme = name
		} else {
			w.Msg = fmt.Sprintf("ttywright has no such theme (it has %s): used %s", strings.Join(themeNames(), ", "), themeList[0].Name)
		}
	case "TypingSpeed":
		s.TypingSpeed = c.Dur
	case "Framerate":
		s.Framerate = int(c.Num)
		if s.Framerate > recMaxFPS {
			w.Msg = fmt.Sprintf("recorded at %d frames per second at most (the GIF keeps every change's time)", recMaxFPS)
		}
	case "WaitTimeout":
		s.WaitTimeout = c.Dur
	case "WaitPattern":
		s.WaitPattern = c.Regex
	case "CursorBlink":
		if c.Text == "true" {
			w.Msg = "the cursor is drawn steady"
		}
	case "PlaybackSpeed":
		if c.Num != 1 {
			w.Msg = "the GIF plays at the speed it was recorded"
		}
	case "FontFamily":
		w.Msg = "ttywright draws its own bitmap font (Unifont-based), not " + tapeQuote(c.Text)
	case "LetterSpacing", "LineHeight":
		w.Msg = "the bitmap font's cells are fixed: ignored"
	case "LoopOffset":
		w.Msg = "the GIF starts at its first frame"
	case "BorderRadius":
		w.Msg = "corners are drawn square (round with a WindowBar)"
	}
	return w
}

// tapeTheme finds ttywright's theme for a VHS theme name ("Dracula",
// "Solarized Dark", "one-dark"): case, spaces, - and _ do not count. A
// JSON theme is not looked up.
func tapeTheme(name string) (string, bool) {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == ' ' || r == '-' || r == '_' {
				return -1
			}
			return r
		}, strings.ToLower(s))
	}
	i := slices.IndexFunc(themeNames(), func(t string) bool { return norm(t) == norm(name) })
	if i < 0 || strings.HasPrefix(name, "{") {
		return "", false
	}
	return themeNames()[i], true
}
