package main

// vt_width.go: how many cells a character takes, from the Unicode tables
// that gen/mkwidth generates into vt_width_table.go.

import "sync"

// vtRange is an inclusive range of code points.
type vtRange struct{ lo, hi rune }

// runeWidth returns the cells r takes: 0 for combining marks and format
// characters, 2 for East Asian Wide/Fullwidth and emoji presentation,
// else 1. Controls never reach it.
func runeWidth(r rune) int {
	if r < 0x300 {
		return 1 // Latin-1 and friends: the common case, no lookup
	}
	if r < vtWidthsEnd {
		vtWidthOnce.Do(vtBuildWidths)
		return tableWidth(r)
	}
	return rangeWidth(r)
}

// tableWidth is runeWidth for 0 <= r < vtWidthsEnd once vtWidths is
// built: a loop that calls runeWidth (or vtWidthOnce.Do) first saves
// the check per character, and it inlines, so such a loop keeps its
// registers (rangeWidth, for the rest, is a call).
func tableWidth(r rune) int { return int(vtWidths[uint32(r)>>2]>>(uint32(r)&3*2)) & 3 }

// vtWidths holds runeWidth of every code point below vtWidthsEnd (the
// BMP and the plane of most emoji), two bits each (32 KiB), so CJK text
// and emoji cost a load per character instead of two binary searches.
// It is built on the first character that needs it. Below U+0300 it
// says 1, as runeWidth does without looking (rangeWidth gives 0 for the
// few format characters there, such as U+00AD).
var (
	vtWidths    [vtWidthsEnd / 4]byte
	vtWidthOnce sync.Once
)

const vtWidthsEnd = 0x20000

// vtBuildWidths fills vtWidths from the range tables: width 1, then the
// wide ranges, then the zero-width ones (which rangeWidth tests first).
func vtBuildWidths() {
	set := func(t []vtRange, lo rune, w byte) {
		for _, rg := range t {
			for r := max(rg.lo, lo); r <= min(rg.hi, vtWidthsEnd-1); r++ {
				vtWidths[r>>2] = vtWidths[r>>2]&^(3<<(r&3*2)) | w<<(r&3*2)
			}
		}
	}
	for i := range vtWidths {
		vtWidths[i] = 0x55 // four times width 1
	}
	set(vtWideWidth, 0x1100, 2)
	set(vtZeroWidth, 0x300, 0)
}

// rangeWidth is runeWidth by binary search of the range tables.
func rangeWidth(r rune) int {
	if inRanges(vtZeroWidth, r) {
		return 0
	}
	if r >= 0x1100 && inRanges(vtWideWidth, r) {
		return 2
	}
	return 1
}

// inRanges reports whether r lies in one of the sorted ranges.
func inRanges(t []vtRange, r rune) bool {
	if len(t) == 0 || r < t[0].lo || r > t[len(t)-1].hi {
		return false
	}
	lo, hi := 0, len(t)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case r < t[m].lo:
			hi = m
		case r > t[m].hi:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// isRegionalIndicator reports whether r is one of the 26 regional
// indicator letters (U+1F1E6-U+1F1FF) that pair into flags.
func isRegionalIndicator(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }
