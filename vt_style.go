package main

// vt_style.go: a cell's look in words, the vocabulary shell_read and
// shell_find speak and ExpectStyle is written in: the Tools and Tape text
// rooms both use it, so it lives beside the cells it describes.

// Style is a run's style as shell_read and shell_find report it and as
// shell_find takes it: only the attributes that differ from the default.
// Colours are as the program chose them: "red" .. "white" and
// "bright-red" .. "bright-white" for the 16 ANSI colours (SGR 31 is "red"
// even where bold draws it bright), "0" .. "255" for the rest of the
// palette, "#rrggbb" for truecolor, "default" (in a filter only) for the
// terminal's own colour.
type Style struct {
	Reverse   *bool  `json:"reverse,omitempty"`
	Bold      *bool  `json:"bold,omitempty"`
	Dim       *bool  `json:"dim,omitempty"`
	Italic    *bool  `json:"italic,omitempty"`
	Underline *bool  `json:"underline,omitempty"`
	FG        string `json:"fg,omitempty"`
	BG        string `json:"bg,omitempty"`
	Link      string `json:"link,omitempty"`
}
