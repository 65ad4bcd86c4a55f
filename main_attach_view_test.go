package main

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAttachStatusRow: the status row keeps what must be said when it is
// short (that the terminal is too small and what shows, an error),
// leaving out the keys and the viewers first; an error goes when the
// keyboard changes hands.
func TestAttachStatusRow(t *testing.T) {
	t.Parallel()
	v := &attachView{out: io.Discard, session: "shell-1", cols: 70, rows: 20, keyboard: holderAgent, viewers: 3,
		grid: &frameGrid{Cols: 120, Rows: 40}}
	v.note = "another person holds the keyboard of shell-1"
	row := v.statusText(v.cols)
	for _, want := range []string{"terminal too small for 120x40", "another person holds"} {
		if !strings.Contains(row, want) {
			t.Errorf("a short row %q lacks %q", row, want)
		}
	}
	if strings.Contains(row, attachStatusKeys) && utf8.RuneCountInString(row) > v.cols {
		t.Errorf("the keys stay in a row over the width: %q", row)
	}
	if wide := v.statusText(400); !strings.Contains(wide, attachStatusKeys) || !strings.Contains(wide, "3 viewers") {
		t.Errorf("a wide row leaves out the keys or the viewers: %q", wide)
	}
	v.grid = nil // draw needs a decoded frame; the row is what is checked here
	v.frame([]byte(`{"op":"status","keyboard":"person","you":true,"viewers":3}`))
	if v.note != "" {
		t.Errorf("the error stays after the keyboard changed hands: %q", v.note)
	}
}
