package main

// png_limits.go: the size limit of a rendered image, and the crop that
// keeps a recording's frames at their first size.

import "fmt"

// maxImagePixels bounds one rendered image (a screenshot, a recording
// frame). A paletted image costs a byte a pixel and a truecolor one eight
// while it is drawn, so 16 Mi pixels is at most 128 MiB at once. The
// default 120x40 screen at scale 4 is 3840x2560 (9.8 Mi pixels); a
// 1000x1000-cell screen (the largest shell_resize allows) is 8000x16000
// pixels even at scale 1, which would otherwise allocate gigabytes.
const maxImagePixels = 16 << 20

// checkImageSize reports an error naming the fix when a cols x rows screen
// drawn at scale would exceed maxImagePixels. The frame of a border adds
// a few dozen pixels and is left out of the sum.
func checkImageSize(cols, rows, scale int) error {
	w, h := cols*8*scale, rows*fontHeight*scale
	if int64(w)*int64(h) <= maxImagePixels {
		return nil
	}
	if scale > 1 && int64(cols*8)*int64(rows*fontHeight) <= maxImagePixels {
		return fmt.Errorf("a %dx%d screen at scale %d is %dx%d pixels, over the limit of %d Mi pixels: use a smaller scale", cols, rows, scale, w, h, maxImagePixels>>20)
	}
	return fmt.Errorf("a %dx%d screen at scale %d is %dx%d pixels, over the limit of %d Mi pixels: make the screen smaller with shell_resize first", cols, rows, scale, w, h, maxImagePixels>>20)
}

// cropSnapshot returns s cut to at most cols x rows cells (s itself when
// it fits), so that a recording whose screen grew keeps rendering frames
// of its first size instead of ever larger images.
func cropSnapshot(s *Snapshot, cols, rows int) *Snapshot {
	if s.Cols <= cols && s.Rows <= rows {
		return s
	}
	c := *s
	c.Cols, c.Rows = min(s.Cols, cols), min(s.Rows, rows)
	c.Cells = make([]Cell, 0, c.Cols*c.Rows)
	for y := range c.Rows {
		c.Cells = append(c.Cells, s.Cells[y*s.Cols:y*s.Cols+c.Cols]...)
	}
	c.Marks = nil
	for i, m := range s.Marks {
		if y, x := i/s.Cols, i%s.Cols; y < c.Rows && x < c.Cols {
			if c.Marks == nil {
				c.Marks = map[int]string{}
			}
			c.Marks[y*c.Cols+x] = m
		}
	}
	if c.Cursor.Row >= c.Rows || c.Cursor.Col >= c.Cols {
		c.Cursor.Visible = false
		c.Cursor.Row, c.Cursor.Col = min(c.Cursor.Row, c.Rows-1), min(c.Cursor.Col, c.Cols-1)
	}
	return &c
}

// trimmedRows is the number of rows of s down to the last one that has
// text, a coloured or inverse cell, or the visible cursor (at least 1).
func trimmedRows(s *Snapshot) int {
	last := 0
	if s.Cursor.Visible {
		last = s.Cursor.Row
	}
	for i, c := range s.Cells {
		if row := i / s.Cols; row > last && (c.Rune != 0 && c.Rune != ' ' || !c.BG.IsDefault() || c.Attr&AttrInverse != 0) {
			last = row
		}
	}
	return last + 1
}

// cropRows returns s cut to its first rows rows (s itself when it has no
// more).
func cropRows(s *Snapshot, rows int) *Snapshot {
	if rows >= s.Rows {
		return s
	}
	t := *s
	t.Rows = rows
	t.Cells = s.Cells[:t.Rows*t.Cols]
	t.Marks = map[int]string{}
	for i, m := range s.Marks {
		if i < len(t.Cells) {
			t.Marks[i] = m
		}
	}
	return &t
}
