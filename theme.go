package main

// theme.go: colour themes, their names, and the mapping from a cell's
// colours and attributes to pixels.

import (
	"fmt"
	"image/color"
	"strings"
)

// Theme is a named colour scheme for rendering: the default background
// and foreground, the cursor, and the 16 ANSI colours (0-7 normal, 8-15
// bright) that palette colours 0-15 map to. Palette colours 16-255 are the
// xterm 6x6x6 cube and grey ramp, the same in every theme.
type Theme struct {
	Name        string
	Type        string // "dark" or "light"
	Description string
	Tip         string // when to choose it
	Background  color.RGBA
	Foreground  color.RGBA
	Cursor      color.RGBA
	ANSI        [16]color.RGBA
	// PlainBold turns off drawing bold text in palette colours 0-7 in
	// the bright colour 8-15 (Solarized's bright colours are its grey
	// content tones, so brightening would grey out bold text).
	PlainBold bool
}

// hexColor formats c as "#rrggbb" (alpha dropped), the inverse of themeHex.
func hexColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// themeHex parses "#rrggbb"; the theme table below is its only caller.
func themeHex(s string) color.RGBA {
	var c color.RGBA
	fmt.Sscanf(s, "#%02x%02x%02x", &c.R, &c.G, &c.B)
	c.A = 0xff
	return c
}

// newTheme builds a theme from hex strings: bg, fg, cursor, then the 16
// ANSI colours.
func newTheme(name, typ, desc, tip, bg, fg, cursor string, ansi [16]string) *Theme {
	t := &Theme{Name: name, Type: typ, Description: desc, Tip: tip,
		Background: themeHex(bg), Foreground: themeHex(fg), Cursor: themeHex(cursor)}
	for i, s := range ansi {
		t.ANSI[i] = themeHex(s)
	}
	return t
}

// plainBold sets t.PlainBold.
func plainBold(t *Theme) *Theme { t.PlainBold = true; return t }

// themeList holds every theme, default first. Colours follow each theme's
// published palette: draculatheme.com's terminal spec, Ethan Schoonover's
// Solarized, nordtheme.com; for Atom's One Dark and One Light the eight
// normal colours are the syntax theme's, and the brights are lightened
// (One Dark) or deepened (One Light) variants chosen here. Every colour a
// program prints text in reaches a WCAG contrast of 3:1 on its theme's
// background (theme_test.go prints the figures), so a few depart from the
// published palettes, each moved along its own hue until it does: One
// Dark's bright black (#5c6370, 2.3:1); One Light's white and bright white
// (#a0a1a7 and #e5e5e6, 2.5:1 and 1.2:1, bright white deepened past
// white as this theme's brights are); Solarized's bright black (base03,
// the background itself) and bright green (base01, 2.8:1), both now a
// lifted base01; Nord's bright black (nord3, 1.7:1).
var themeList = []*Theme{
	newTheme("one-dark", "dark",
		"Atom's One Dark: soft contrast on a blue-grey background.",
		"The default; a good all-rounder for dark screenshots in docs and pull requests.",
		"#282c34", "#abb2bf", "#528bff", [16]string{
			"#3f4451", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#d7dae0",
			"#6e7582", "#ff7a85", "#b5e890", "#f0d197", "#7dc2ff", "#de9bf0", "#6fd3e0", "#ffffff"}),
	newTheme("one-light", "light",
		"Atom's One Light: dark text on an off-white background.",
		"For light-mode docs, printed pages and slides.",
		"#fafafa", "#383a42", "#526fff", [16]string{
			"#383a42", "#e45649", "#50a14f", "#c18401", "#0184bc", "#a626a4", "#0997b3", "#909198",
			"#696c77", "#ca1243", "#3d8b3c", "#986801", "#4078f2", "#8a1f88", "#067a8f", "#84858c"}),
	newTheme("dracula", "dark",
		"Dracula: vivid pastels on a dark purple-grey background.",
		"When colour output should pop, e.g. syntax highlighting and TUIs with many colours.",
		"#282a36", "#f8f8f2", "#f8f8f2", [16]string{
			"#21222c", "#ff5555", "#50fa7b", "#f1fa8c", "#bd93f9", "#ff79c6", "#8be9fd", "#f8f8f2",
			"#6272a4", "#ff6e6e", "#69ff94", "#ffffa5", "#d6acff", "#ff92df", "#a4ffff", "#ffffff"}),
	plainBold(newTheme("solarized-dark", "dark",
		"Solarized Dark: low-contrast, carefully balanced colours on deep blue-green.",
		"For long reading and for audiences used to Solarized; colours stay distinguishable in print.",
		"#002b36", "#839496", "#93a1a1", [16]string{
			"#073642", "#dc322f", "#859900", "#b58900", "#268bd2", "#d33682", "#2aa198", "#eee8d5",
			"#5e7379", "#cb4b16", "#5e7379", "#657b83", "#839496", "#6c71c4", "#93a1a1", "#fdf6e3"})),
	newTheme("nord", "dark",
		"Nord: cool arctic blues on a dark slate background.",
		"For calm, muted screenshots that sit well next to blue-grey UI.",
		"#2e3440", "#d8dee9", "#d8dee9", [16]string{
			"#3b4252", "#bf616a", "#a3be8c", "#ebcb8b", "#81a1c1", "#b48ead", "#88c0d0", "#e5e9f0",
			"#747d8e", "#bf616a", "#a3be8c", "#ebcb8b", "#81a1c1", "#b48ead", "#8fbcbb", "#eceff4"}),
}

// lookupTheme returns the theme called name ("" = the default, one-dark),
// or an error listing the valid names.
func lookupTheme(name string) (*Theme, error) {
	if name == "" {
		return themeList[0], nil
	}
	for _, t := range themeList {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("unknown theme %q: use one of %s", name, strings.Join(themeNames(), ", "))
}

// themeNames lists the theme names, default first: the one list that
// errors, usage text, prompts and completions show.
func themeNames() []string {
	names := make([]string, len(themeList))
	for i, t := range themeList {
		names[i] = t.Name
	}
	return names
}

// xtermLevels are the six intensities of the xterm 256-colour cube.
var xtermLevels = [6]uint8{0, 0x5f, 0x87, 0xaf, 0xd7, 0xff}

// Palette returns palette colour i: the theme's ANSI colour for 0-15,
// the 6x6x6 cube for 16-231 (xterm levels 0, 95, 135, ... 255) and the
// grey ramp 8, 18, ... 238 for 232-255.
func (t *Theme) Palette(i uint8) color.RGBA {
	switch {
	case i < 16:
		return t.ANSI[i]
	case i < 232:
		i -= 16
		return color.RGBA{xtermLevels[i/36], xtermLevels[i/6%6], xtermLevels[i%6], 0xff}
	default:
		g := 8 + 10*(i-232)
		return color.RGBA{g, g, g, 0xff}
	}
}

// Resolve maps a cell colour to RGBA: the default colour is def (the
// theme's foreground or background, as the caller needs), palette colours
// come from Palette, direct colours as given.
func (t *Theme) Resolve(c Color, def color.RGBA) color.RGBA {
	if i, ok := c.Palette(); ok {
		return t.Palette(i)
	}
	if r, g, b, ok := c.RGB(); ok {
		return color.RGBA{r, g, b, 0xff}
	}
	return def
}

// FG and BG resolve a cell's foreground and background colour.
func (t *Theme) FG(c Color) color.RGBA { return t.Resolve(c, t.Foreground) }

// BG resolves a background colour; ColorDefault is the theme background.
func (t *Theme) BG(c Color) color.RGBA { return t.Resolve(c, t.Background) }

// mix blends a toward b by frac/256 (0 = a, 256 = b), keeping a's alpha.
func mix(a, b color.RGBA, frac int) color.RGBA {
	l := func(x, y uint8) uint8 { return uint8((int(x)*(256-frac) + int(y)*frac) / 256) }
	return color.RGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), a.A}
}

// cellColors resolves a cell's foreground, background and underline
// colours with th, for the PNG, GIF and SVG renderers alike: bold palette
// colours 0-7 brighten to 8-15 (unless th.PlainBold), inverse swaps, dim
// mixes the foreground halfway to the background, hidden paints the
// foreground and underline in the background colour.
func cellColors(th *Theme, c Cell) (fg, bg, ul color.RGBA) {
	fg, bg = th.FG(c.FG), th.BG(c.BG)
	if p, ok := c.FG.Palette(); ok && p < 8 && c.Attr&AttrBold != 0 && !th.PlainBold {
		fg = th.ANSI[p+8]
	}
	if c.Attr&AttrInverse != 0 {
		fg, bg = bg, fg
	}
	if c.Attr&AttrDim != 0 {
		fg = mix(fg, bg, 128)
	}
	ul = fg
	if !c.UL.IsDefault() {
		ul = th.Resolve(c.UL, fg)
	}
	if c.Attr&AttrHidden != 0 {
		fg, ul = bg, bg
	}
	return fg, bg, ul
}

// forScreen returns t, or for a screen in reverse video (DECSCNM) a copy
// with the default foreground and background swapped.
func (t *Theme) forScreen(s *Snapshot) *Theme {
	if !s.Modes.ReverseVideo {
		return t
	}
	r := *t
	r.Background, r.Foreground = t.Foreground, t.Background
	return &r
}

// reportColors gives t's colours to the emulator, which reports them to
// OSC 4, 10, 11 and 12 queries: the 256 palette colours, the default
// foreground and background, and the cursor.
func (t *Theme) reportColors() *ReportColors {
	rgb := func(c color.RGBA) [3]uint8 { return [3]uint8{c.R, c.G, c.B} }
	rc := &ReportColors{FG: rgb(t.Foreground), BG: rgb(t.Background), Cursor: rgb(t.Cursor)}
	for i := range rc.Palette {
		rc.Palette[i] = rgb(t.Palette(uint8(i)))
	}
	return rc
}
