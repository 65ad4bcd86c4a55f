package main

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	cases := []struct {
		name string
		a, b [][]float64
		want summary
	}{
		{"one round, B twice as fast",
			[][]float64{{2, 4, 6}}, [][]float64{{1, 2, 3}},
			summary{MedianA: 4, MedianB: 2, Ratio: 2, Lo: 2, Hi: 2, N: 3}},
		{"B slower: ratio below 1",
			[][]float64{{1}, {1}}, [][]float64{{4}, {2}},
			summary{MedianA: 1, MedianB: 4, Ratio: 0.25, Lo: 0.25, Hi: 0.5, N: 2}},
		{"the spread is over the rounds' own medians",
			[][]float64{{10, 10, 30}, {20, 20, 20}, {9, 9, 9}},
			[][]float64{{10, 10, 10}, {10, 10, 10}, {10, 10, 10}},
			summary{MedianA: 10, MedianB: 10, Ratio: 1, Lo: 0.9, Hi: 2, N: 9}},
		{"n is the fewer samples",
			[][]float64{{3, 3, 3, 3}}, [][]float64{{3, 3}},
			summary{MedianA: 3, MedianB: 3, Ratio: 1, Lo: 1, Hi: 1, N: 2}},
		{"a round with no B does not count in the spread",
			[][]float64{{2}, {8}}, [][]float64{{1}, {}},
			summary{MedianA: 8, MedianB: 1, Ratio: 8, Lo: 2, Hi: 2, N: 1}},
		{"B of 0 has no ratio",
			[][]float64{{1}}, [][]float64{{0}},
			summary{MedianA: 1, MedianB: 0, Ratio: nan, Lo: nan, Hi: nan, N: 1}},
		{"no samples",
			nil, nil,
			summary{MedianA: nan, MedianB: nan, Ratio: nan, Lo: nan, Hi: nan, N: 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := summarize(c.a, c.b)
			if !same(got.MedianA, c.want.MedianA) || !same(got.MedianB, c.want.MedianB) || !same(got.Ratio, c.want.Ratio) ||
				!same(got.Lo, c.want.Lo) || !same(got.Hi, c.want.Hi) || got.N != c.want.N {
				t.Errorf("summarize(%v, %v) = %+v, want %+v", c.a, c.b, got, c.want)
			}
		})
	}
}

func TestSpan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v      []float64
		lo, hi float64
	}{
		{nil, math.NaN(), math.NaN()},
		{[]float64{1.5}, 1.5, 1.5},
		{[]float64{3, 0.5, 2}, 0.5, 3},
	}
	for _, c := range cases {
		if lo, hi := span(c.v); !same(lo, c.lo) || !same(hi, c.hi) {
			t.Errorf("span(%v) = %v, %v, want %v, %v", c.v, lo, hi, c.lo, c.hi)
		}
	}
}

// same is a == b to within rounding, or both NaN.
func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) < 1e-9
}
