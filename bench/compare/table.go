package main

// table.go: the Markdown table of the results.

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"time"

	"github.com/ttywright/ttywright/bench/internal/probe"
)

// printTable writes the header lines and a row for each of the measures'
// rows.
func printTable(w io.Writer, sides [2]*side, ms []measure, res *results, cfg config, skipped []string, load0 float64, took time.Duration) {
	fmt.Fprintf(w, "A: %s\nB: %s\n\n", sides[0].name, sides[1].name)
	one, five, fifteen := probe.LoadAverage()
	fmt.Fprintf(w, "%d rounds, A and B in turn; %d CPUs; load average %s at the start, %s at the end (1, 5, 15 minutes: %s %s %s); %s in all.\n",
		cfg.rounds, runtime.NumCPU(), num(load0), num(one), num(one), num(five), num(fifteen), took.Round(time.Second))
	fmt.Fprintln(w, "A/B is the ratio of the medians of costs: above 1, B is faster (or smaller); below 1, slower.")
	fmt.Fprintln(w, "Spread: the least and greatest of the rounds' own ratios. n: samples of each. Load: the 1-minute load average while the probe ran.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| probe | unit | A | B | A/B | spread | n | load |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|")
	for _, m := range ms {
		lo, hi := span(res.load[m.rows[0].name])
		for _, rw := range m.rows {
			s := res.samples[rw.name]
			sum := summarize(s[0], s[1])
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %d | %s |\n", rw.name, rw.unit, num(sum.MedianA), num(sum.MedianB),
				fixed(sum.Ratio), rangeOf(sum.Lo, sum.Hi, fixed), sum.N, rangeOf(lo, hi, num))
		}
	}
	for _, s := range skipped {
		fmt.Fprintf(w, "\nSkipped: %s.", s)
	}
	if len(skipped) > 0 {
		fmt.Fprintln(w)
	}
}

// num formats a figure to about three significant digits, "–" for NaN.
func num(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return "–"
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// fixed formats a ratio with two decimals, "–" for NaN.
func fixed(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}

// rangeOf formats lo–hi with f, or one figure when they are equal.
func rangeOf(lo, hi float64, f func(float64) string) string {
	if a, b := f(lo), f(hi); a != b {
		return a + "–" + b
	}
	return f(lo)
}
