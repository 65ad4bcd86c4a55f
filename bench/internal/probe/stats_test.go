package probe

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		v    []float64
		p    int
		want float64
	}{
		{"empty", nil, 50, 0},
		{"one", []float64{7}, 50, 7},
		{"odd median", []float64{3, 1, 2}, 50, 2},
		{"even median is the upper middle", []float64{4, 1, 3, 2}, 50, 3},
		{"p0 is the least", []float64{5, 9, 1}, 0, 1},
		{"p100 is the greatest", []float64{5, 9, 1}, 100, 9},
		{"p99 of 100 is the 100th", seq(100), 99, 100},
		{"p99 of 200", seq(200), 99, 199},
		{"p99 of 10 is the greatest", seq(10), 99, 10},
		{"p25 of 8", seq(8), 25, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			in := append([]float64(nil), c.v...)
			if got := Percentile(c.v, c.p); got != c.want {
				t.Errorf("Percentile(%v, %d) = %v, want %v", in, c.p, got, c.want)
			}
			for i := range in {
				if in[i] != c.v[i] {
					t.Fatalf("Percentile sorted its argument: %v", c.v)
				}
			}
		})
	}
}

func TestMedianDurations(t *testing.T) {
	t.Parallel()
	d := []time.Duration{3 * time.Millisecond, time.Millisecond, 2 * time.Millisecond}
	if got := Median(d); got != 2*time.Millisecond {
		t.Errorf("Median(%v) = %v, want 2ms", d, got)
	}
}

// seq is 1, 2, ..., n.
func seq(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i + 1)
	}
	return v
}
