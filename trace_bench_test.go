package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// traceBenchStep is one shell_send of a make-like loop: its arguments
// and reply as Run sees them.
func traceBenchStep(term *Terminal) (json.RawMessage, sendArgs, sendResult) {
	code := 0
	d := int64(12)
	args := json.RawMessage(`{"session_id":"shell-1","text":"make test\n","wait_for_command":true}`)
	in := sendArgs{SessionID: "shell-1", Text: "make test\n", WaitArgs: WaitArgs{commandWaitArgs: commandWaitArgs{WaitForCommand: true}}}
	out := sendResult{Success: true, BufferAfter: term.ScreenText(),
		commandOutcome: commandOutcome{Command: &commandResult{N: 1, Line: "make test", ExitCode: &code, DurationMS: &d, Output: "ok\n"}}}
	return args, in, out
}

// BenchmarkTraceStep is the cost Run adds to a tool call on a 120x40
// screen: compact (every session: the step, no screen), and traced, with
// a screen that scrolls one line a step (each step a new screen, one new
// row) or stays the same. trace-B/step is what each step adds to the
// HTML trace, measured over 500 steps; trace-µs/step the time spent in
// the trace alone (ns/op includes making the screen and the reply).
func BenchmarkTraceStep(b *testing.B) {
	for _, bc := range []struct {
		name         string
		full, scroll bool
	}{{"compact", false, true}, {"traced-scrolling", true, true}, {"traced-same", true, false}} {
		b.Run(bc.name, func(b *testing.B) {
			term := NewTerminal(120, 40, 0)
			for i := range 40 {
				fmt.Fprintf(term, "\x1b[32m-rw-r--r--\x1b[0m 1 user user %6d Jan  1 12:00 file-%03d.txt\r\n", i*37, i)
			}
			var spent time.Duration // in the trace alone: the program's output and the tool's reply are not its cost
			step := func(tr *sessionTrace, i int) {
				if bc.scroll {
					fmt.Fprintf(term, "line %d: \x1b[1mok\x1b[0m\r\n$ ", i)
				}
				args, in, out := traceBenchStep(term)
				start := time.Now()
				st := traceStep{Tool: "shell_send", Args: redactArgs(args), stepView: sendStep(in, out), Start: start, Duration: time.Since(start)}
				var snap *Snapshot
				if bc.full {
					snap = term.Snapshot()
				}
				tr.Add(st, snap, nil)
				spent += time.Since(start)
			}
			meta := traceMeta{ID: "shell-1", Command: "bash", Cols: 120, Rows: 40, Theme: themeList[0], Started: time.Now()}
			sized := newSessionTrace(meta, bc.full)
			empty, _ := sized.HTML()
			for i := range 500 {
				step(sized, i)
			}
			full, _ := sized.HTML()

			tr := newSessionTrace(meta, bc.full)
			spent = 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i%maxTraceSteps == maxTraceSteps-1 {
					tr = newSessionTrace(meta, bc.full)
				}
				step(tr, i)
			}
			b.StopTimer()
			b.ReportMetric(float64(len(full)-len(empty))/500, "trace-B/step")
			b.ReportMetric(float64(spent.Microseconds())/float64(b.N), "trace-µs/step")
		})
	}
}

// BenchmarkTraceBudget is the traced session that grew a trace without
// bound: a 1000x500 screen of random colours, a new one each step (each
// cell its own style), 62 steps. It reports the heap the trace holds
// after them (trace-MiB, against maxTraceBytes), the screens kept, and
// the time to write the page out (write-ms, streamed: shell_stop's part).
func BenchmarkTraceBudget(b *testing.B) {
	const cols, rows, steps = 1000, 500, 62
	rng := rand.New(rand.NewPCG(1, 2))
	term := NewTerminal(cols, rows, 0)
	screen := make([]byte, 0, cols*rows*24)
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		tr := newSessionTrace(traceMeta{ID: "shell-1", Command: "bash", Cols: cols, Rows: rows, Theme: themeList[0], Started: time.Now()}, true)
		for i := range steps {
			screen = append(screen[:0], "\x1b[H"...)
			for range cols * rows {
				screen = fmt.Appendf(screen, "\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm%c", rng.IntN(256), rng.IntN(256), rng.IntN(256),
					rng.IntN(256), rng.IntN(256), rng.IntN(256), 'a'+rng.IntN(26))
			}
			term.Write(screen)
			tr.Add(traceStep{Tool: "shell_send", Args: json.RawMessage(`{"text":"x"}`), stepView: stepView{Summary: strconv.Itoa(i)}}, term.Snapshot(), nil)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		start := time.Now()
		if err := tr.WriteHTML(io.Discard); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "write-ms")
		b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "trace-MiB")
		b.ReportMetric(float64(len(tr.screens)), "screens")
		runtime.KeepAlive(tr)
	}
}
