package probe

// stats.go: quantiles of measurements.

import (
	"cmp"
	"slices"
)

// Percentile is the p-th percentile of v (0 <= p <= 100): the element at
// index len(v)*p/100 of v sorted, rounded down, the last one for p = 100
// (so p99 of 100 values is the greatest). v is not changed; an empty v
// gives the zero value.
func Percentile[T cmp.Ordered](v []T, p int) T {
	var zero T
	if len(v) == 0 {
		return zero
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(len(s)-1, max(0, len(s)*p/100))]
}

// Median is Percentile(v, 50): the middle element, or of an even count
// the upper of the two middle ones.
func Median[T cmp.Ordered](v []T) T { return Percentile(v, 50) }
