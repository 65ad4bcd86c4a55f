package main

// png_underline_test.go: the underline styles as drawn (SGR 4, 21, 4:1 to
// 4:5, in the SGR 58 colour), against a golden render.

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// underlineScreen has one styled word per row, each style as its SGR
// form, and a row in the SGR 58 underline colour.
const underlineScreen = "\x1b[4msingle 4\x1b[0m\r\n" +
	"\x1b[21mdouble 21\x1b[0m\r\n" +
	"\x1b[4:2mdouble 4:2\x1b[0m\r\n" +
	"\x1b[4:3mcurly 4:3\x1b[0m\r\n" +
	"\x1b[4:4mdotted 4:4\x1b[0m\r\n" +
	"\x1b[4:5mdashed 4:5\x1b[0m\r\n" +
	"\x1b[21;58;5;208mdouble 58\x1b[0m"

// TestRenderUnderlines compares the underline styles with
// testdata/render/underlines.png (-update rewrites it), and checks SGR 21
// draws the same pixels as 4:2.
func TestRenderUnderlines(t *testing.T) {
	t.Parallel()
	th, _ := lookupTheme("one-dark")
	img := RenderImage(renderScreen(12, 7, underlineScreen), RenderOptions{Theme: th, Scale: 2})
	path := filepath.Join("testdata", "render", "underlines.png")
	if *update {
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestRenderUnderlines -update)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	renderSamePixels(t, img, want)

	// Row 1 ("double 21") and row 2 ("double 4:2") share their first six
	// cells' text and style, so their pixels must match there.
	b := img.Bounds()
	cellW, cellH := b.Dx()/12, b.Dy()/7
	same := func(r1, r2 int) bool {
		for y := 0; y < cellH; y++ {
			for x := 0; x < 6*cellW; x++ {
				if img.At(x, r1*cellH+y) != img.At(x, r2*cellH+y) {
					return false
				}
			}
		}
		return true
	}
	if !same(1, 2) {
		t.Error("SGR 21 and SGR 4:2 draw different underlines")
	}
	if same(0, 1) {
		t.Error("SGR 21 draws the same as a single underline")
	}
}
