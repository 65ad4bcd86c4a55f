package main

// vt_text_tail_test.go: Terminal.TextTail against Terminal.Text.

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestTextTailSameAsText: shell_read's tail of the scrollback, built
// from the newest rows only (Terminal.TextTail), is the tail of the whole
// text, cut as tailText cuts it, over random screens of wrapped, wide,
// blank and erased rows.
func TestTextTailSameAsText(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	for trial := range 300 {
		cols := 2 + rng.Intn(30)
		term := NewTerminal(cols, 1+rng.Intn(8), 50)
		var b strings.Builder
		for range rng.Intn(200) {
			switch rng.Intn(6) {
			case 0:
				b.WriteString("\r\n")
			case 1:
				b.WriteString("你好")
			case 2:
				b.WriteString(strings.Repeat("x", rng.Intn(3*cols)))
			case 3:
				b.WriteString(" ")
			case 4:
				b.WriteString("\x1b[2J")
			default:
				fmt.Fprintf(&b, "line %d", rng.Intn(1000))
			}
		}
		term.Write([]byte(b.String()))
		for _, max := range []int{1, 10, 40, 64, 200, 5000} {
			want, wcut := tailText(term.Text(true), max, false)
			text, older := term.TextTail(max)
			got, gcut := tailText(text, max, older)
			if got != want || gcut != wcut {
				t.Fatalf("trial %d max %d: got %q %v, want %q %v", trial, max, got, gcut, want, wcut)
			}
		}
	}
}
