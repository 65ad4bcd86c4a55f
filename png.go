package main

// png.go: rasterising a screen. CONTRACT SKELETON: the rendering work
// replaces the body and keeps these names.

import "image"

// Border is the optional window frame around a capture.
type Border struct {
	Style string `json:"style"` // "macos"
	Title string `json:"title,omitempty"`
}

// RenderOptions controls Render.
type RenderOptions struct {
	Theme  *Theme
	Scale  int     // integer pixel scale, 1-4; a cell is 8*Scale x 16*Scale pixels
	Border *Border // nil = no frame
}

// Render draws a screen snapshot to an image at the given scale.
func Render(s *Snapshot, opt RenderOptions) *image.RGBA {
	sc := max(opt.Scale, 1)
	img := image.NewRGBA(image.Rect(0, 0, s.Cols*8*sc, s.Rows*16*sc))
	return img
}
