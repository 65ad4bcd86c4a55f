package main

// round.go: one round, every measure on both sides in turn, and the
// samples it collects.

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ttywright/ttywright/bench/internal/probe"
)

// results holds the samples: for each row, each side (0 is A) and each
// round, the row's values; and for each measure, the load averages read
// while it ran.
type results struct {
	samples map[string]*[2][][]float64
	load    map[string][]float64
}

func newResults(ms []measure, rounds int) *results {
	r := &results{samples: map[string]*[2][][]float64{}, load: map[string][]float64{}}
	for _, m := range ms {
		for _, rw := range m.rows {
			r.samples[rw.name] = &[2][][]float64{make([][]float64, rounds), make([][]float64, rounds)}
		}
	}
	return r
}

// add records a sample of m's rows by side i in round n.
func (r *results) add(m measure, i, n int, v []float64) {
	for j, rw := range m.rows {
		s := r.samples[rw.name]
		s[i][n] = append(s[i][n], v[j])
	}
}

// round runs every measure on the sides in order, reps times each,
// alternating sides sample by sample, in a server of each side's own
// started for the round.
func round(ms []measure, order []*side, n int, res *results) (err error) {
	for _, s := range order {
		if s.c, _, err = probe.Start(s.bin, "--output-dir", filepath.Join(s.tmp, "out")); err != nil {
			return fmt.Errorf("%s: %v", s.label, err)
		}
		defer func() { err = errors.Join(err, s.c.Close()) }()
	}
	for _, m := range ms {
		if err := runMeasure(m, order, n, res); err != nil {
			return fmt.Errorf("%s: %v", m.rows[0].name, err)
		}
	}
	return nil
}

// runMeasure runs m's setup on each side, its samples and then stops the
// sessions setup started.
func runMeasure(m measure, order []*side, n int, res *results) (err error) {
	ids := map[*side]string{}
	for _, s := range order {
		if m.setup == nil {
			continue
		}
		id, err := m.setup(s)
		if err != nil {
			return fmt.Errorf("%s: %v", s.label, err)
		}
		ids[s] = id
		defer func() { err = errors.Join(err, stop(s, id)) }()
	}
	key := m.rows[0].name
	l, _, _ := probe.LoadAverage()
	res.load[key] = append(res.load[key], l)
	for range m.reps {
		for _, s := range order {
			v, err := m.sample(s, ids[s])
			if err != nil {
				return fmt.Errorf("%s: %v", s.label, err)
			}
			res.add(m, s.i, n, v)
		}
	}
	l, _, _ = probe.LoadAverage()
	res.load[key] = append(res.load[key], l)
	return nil
}
