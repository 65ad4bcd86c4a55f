package main

// theme_test.go: every theme's colours can be seen on its background.

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"
)

// wcagContrast is the WCAG 2 contrast ratio of two colours, 1 to 21:
// (L1 + 0.05) / (L2 + 0.05) of their relative luminances, lighter first.
func wcagContrast(a, b color.RGBA) float64 {
	lum := func(c color.RGBA) float64 {
		ch := func(v uint8) float64 {
			s := float64(v) / 255
			if s <= 0.03928 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
	}
	l1, l2 := lum(a), lum(b)
	if l1 < l2 {
		l1, l2 = l2, l1
	}
	return (l1 + 0.05) / (l2 + 0.05)
}

// TestThemeContrast checks each theme's default foreground (4.5:1, WCAG
// AA for text) and its 16 ANSI colours (3:1, WCAG's floor for large text
// and UI parts) against its background, and logs the figures. Colour 0 on
// a dark theme is exempt: it is black, the background's own tone, used
// for backgrounds (40). Colours 8-15 are also what bold 0-7 is drawn in.
func TestThemeContrast(t *testing.T) {
	t.Parallel()
	if got := wcagContrast(color.RGBA{0, 0, 0, 255}, color.RGBA{255, 255, 255, 255}); math.Abs(got-21) > 1e-9 {
		t.Fatalf("black on white: %v, want 21", got)
	}
	for _, th := range themeList {
		var fig strings.Builder
		fg := wcagContrast(th.Foreground, th.Background)
		if fg < 4.5 {
			t.Errorf("%s: foreground %v on %v: contrast %.2f, want at least 4.5", th.Name, th.Foreground, th.Background, fg)
		}
		for i, c := range th.ANSI {
			r := wcagContrast(c, th.Background)
			fmt.Fprintf(&fig, " %d:%.2f", i, r)
			if i == 0 && th.Type == "dark" {
				continue
			}
			if r < 3 {
				t.Errorf("%s: colour %d (#%02x%02x%02x) on the background: contrast %.2f, want at least 3", th.Name, i, c.R, c.G, c.B, r)
			}
		}
		t.Logf("%-15s fg %.2f;%s", th.Name, fg, fig.String())
	}
}
