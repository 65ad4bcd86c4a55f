package main

// vt_width.go: how many cells a character takes, from the Unicode tables
// that mkwidth.go generates into vt_width_table.go.

// vtRange is an inclusive range of code points.
type vtRange struct{ lo, hi rune }

// runeWidth returns the cells r takes: 0 for combining marks and format
// characters, 2 for East Asian Wide/Fullwidth and emoji presentation,
// else 1. Controls never reach it.
func runeWidth(r rune) int {
	if r < 0x300 {
		return 1 // Latin-1 and friends: the common case, no lookup
	}
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
