package main

// theme.go: colour themes. CONTRACT SKELETON: the rendering work fills in
// the five themes (one-dark, one-light, dracula, solarized-dark, nord) and
// keeps these names.

import (
	"fmt"
	"image/color"
)

// Theme is a named colour scheme for rendering.
type Theme struct {
	Name        string
	Type        string // "dark" or "light"
	Description string
	Tip         string // when to choose it
	Background  color.RGBA
	Foreground  color.RGBA
	Cursor      color.RGBA
	ANSI        [16]color.RGBA
}

// themeList holds every theme, default first.
var themeList = []*Theme{
	{Name: "one-dark", Type: "dark", Background: color.RGBA{0x28, 0x2c, 0x34, 0xff}, Foreground: color.RGBA{0xab, 0xb2, 0xbf, 0xff}, Cursor: color.RGBA{0x52, 0x8b, 0xff, 0xff}},
}

// lookupTheme returns the theme called name, or an error listing the valid names.
func lookupTheme(name string) (*Theme, error) {
	for _, t := range themeList {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("unknown theme %q", name)
}
