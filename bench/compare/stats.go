package main

// stats.go: a row's figures from its samples.

import (
	"math"
	"slices"

	"github.com/ttywright/ttywright/bench/internal/probe"
)

// summary is one row of the table. Samples are costs (times, bytes), so
// Ratio = MedianA / MedianB is above 1 when B costs less.
type summary struct {
	MedianA, MedianB float64 // the medians of all of A's and all of B's samples
	Ratio            float64 // MedianA / MedianB; NaN when either is missing or B's is 0
	// Lo and Hi are the least and greatest of the rounds' own ratios (the
	// median of A's samples of the round over B's): the spread of Ratio
	// over the run, NaN when no round has both.
	Lo, Hi float64
	N      int // samples of A and of B, the fewer of the two
}

// summarize computes a row's summary from its samples, a and b holding
// one slice of samples per round.
func summarize(a, b [][]float64) summary {
	allA, allB := slices.Concat(a...), slices.Concat(b...)
	s := summary{MedianA: math.NaN(), MedianB: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), N: min(len(allA), len(allB))}
	if len(allA) > 0 {
		s.MedianA = probe.Median(allA)
	}
	if len(allB) > 0 {
		s.MedianB = probe.Median(allB)
	}
	s.Ratio = ratio(s.MedianA, s.MedianB)
	var rounds []float64
	for i := range min(len(a), len(b)) {
		if len(a[i]) > 0 && len(b[i]) > 0 {
			if r := ratio(probe.Median(a[i]), probe.Median(b[i])); !math.IsNaN(r) {
				rounds = append(rounds, r)
			}
		}
	}
	if len(rounds) > 0 {
		s.Lo, s.Hi = slices.Min(rounds), slices.Max(rounds)
	}
	return s
}

// ratio is a/b, NaN when b is 0 or either is NaN.
func ratio(a, b float64) float64 {
	if b == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return a / b
}

// span is the least and greatest of v, NaN for an empty v.
func span(v []float64) (lo, hi float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	return slices.Min(v), slices.Max(v)
}
