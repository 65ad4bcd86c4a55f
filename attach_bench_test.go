//go:build unix

package main

// attach_bench_test.go: how long a program's output takes to reach an
// attach viewer, or a browser's live view, as a screen frame.

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkAttachLatency measures, for each of b.N lines a program
// prints, the time from its PTY read (the output listener's timestamp)
// to the viewer's receipt of a screen frame showing it; it reports the
// median and p95 in milliseconds. Each line follows a pause, as typing
// does: back to back, changes wait for the frame rate (attachFrameGap).
func BenchmarkAttachLatency(b *testing.B) {
	a := newTestApp(b)
	id := start(b, a, "cat")
	s := a.sessions.Get(id)
	as := attachTestServer(b, a, attachReadLimit, attachWriteLimit)
	readAt := markReads(b, s)
	v := dialViewer(b, as)
	v.send(fmt.Sprintf(`{"op":"attach","session":%q}`, id))
	v.until("screen", nil)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		time.Sleep(3 * attachFrameGap) // a change after a pause, not one held back by the frame rate
		b.StartTimer()
		mark := fmt.Sprintf("mark-%d-", i)
		if err := s.writeInput(b.Context(), []byte(mark+"\r")); err != nil {
			b.Fatal(err)
		}
		v.until("screen", screenHas(mark))
		lat = append(lat, time.Since(readAt(mark)))
	}
	b.StopTimer()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "median-ms")
	b.ReportMetric(ms(lat[len(lat)*95/100]), "p95-ms")
}

// BenchmarkViewLatency is BenchmarkAttachLatency for the browser's live
// view: from the PTY read of a line of output to the receipt, on the
// view's event stream, of the screen event that shows it.
func BenchmarkViewLatency(b *testing.B) {
	a := newTestApp(b)
	id := start(b, a, "cat")
	s := a.sessions.Get(id)
	url, err := a.tools.views.Offer(s)
	if err != nil {
		b.Fatal(err)
	}
	readAt := markReads(b, s)
	st := openViewURL(b, url)
	st.next(b, "screen")
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		time.Sleep(3 * attachFrameGap)
		b.StartTimer()
		mark := fmt.Sprintf("mark-%d-", i)
		if err := s.writeInput(b.Context(), []byte(mark+"\r")); err != nil {
			b.Fatal(err)
		}
		st.until(b, "screen", func(d string) bool { return strings.Contains(d, mark) })
		lat = append(lat, time.Since(readAt(mark)))
	}
	b.StopTimer()
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(lat[len(lat)/2]), "median-ms")
	b.ReportMetric(ms(lat[len(lat)*95/100]), "p95-ms")
}

// markReads records when the PTY read of s first had each "mark-..."
// word, until b ends; the function returned reads it.
func markReads(b *testing.B, s *Session) func(mark string) time.Time {
	var mu sync.Mutex
	seen := map[string]time.Time{}
	remove := s.AddOutputListener(func(p []byte, at time.Time) {
		for _, f := range strings.Fields(string(p)) {
			if strings.HasPrefix(f, "mark-") {
				mu.Lock()
				if _, ok := seen[f]; !ok {
					seen[f] = at
				}
				mu.Unlock()
			}
		}
	})
	b.Cleanup(remove)
	return func(mark string) time.Time {
		mu.Lock()
		defer mu.Unlock()
		return seen[mark]
	}
}
