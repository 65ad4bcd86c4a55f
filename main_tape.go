package main

// main_tape.go: the "ttywright tape" and "ttywright test" subcommands:
// one tape run and its outputs written, or tapes run as tests with a
// summary and an exit status for CI (the Tapes room, tape*.go).

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

const tapeUsage = `usage: ttywright tape [--update] [--json] [--trace-dir DIR] [--timeout D] FILE.tape

Runs a tape (VHS's language, with waits and assertions) and writes its
Output files. Exit status 0 when it ran to the end with every assertion
met, 1 when it failed (its trace written under --trace-dir), 2 for a
usage error.

flags:
`

const testUsage = `usage: ttywright test [-j N] [--retries N] [--update] [--junit FILE] [--trace-dir DIR] [--timeout D] [DIR|FILE.tape...]

Runs tapes as tests: each FILE, and every *.tape under each DIR (not
_*.tape, which are for Source), the current folder by default. Prints a
report per tape and "N passed, N failed"; exit status 1 when one failed.
A failed tape's trace is written under --trace-dir and its path printed.

flags:
`

// defaultTraceDir is where the traces of failed tapes go: a folder of the
// current one, as a test runner's results go (CI keeps it as an artifact).
const defaultTraceDir = "test-results"

// runTapeCmd is "ttywright tape ARGS".
func runTapeCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ttywright tape", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	update := fs.Bool("update", false, "write the Snapshot golden files instead of comparing")
	asJSON := fs.Bool("json", false, "print the result as one JSON object (path, passed, error, failure, outputs, wrote, warnings, duration_ms, trace_path) instead of the report")
	traceDir := fs.String("trace-dir", defaultTraceDir, "where a failed run's trace (HTML) is written; \"\" for none")
	timeout := fs.Duration("timeout", defaultTapeTimeout, "fail the tape when it runs longer (0: no bound)")
	if code, ok := parseSubFlags(fs, args, tapeUsage, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "ttywright tape: give one FILE.tape (ttywright test runs many)")
		return 2
	}
	if *timeout < 0 {
		fmt.Fprintf(stderr, "ttywright tape: --timeout %v: must not be negative (0: no bound)\n", *timeout)
		return 2
	}
	ctx, stop, signalled := interruptContext()
	defer stop()
	res := runTape(ctx, fs.Arg(0), tapeOptions{Update: *update, TraceDir: *traceDir, Timeout: *timeout})
	r := suiteResult{tapeResult: res, Runs: 1, Total: res.Duration}
	if code := signalled(); code != 0 {
		writeReport(stderr, r)
		return code
	}
	if *asJSON {
		b, _ := json.Marshal(res.report())
		fmt.Fprintf(stdout, "%s\n", b)
		return map[bool]int{true: 0, false: 1}[res.Passed()]
	}
	writeReport(stderr, r)
	for _, p := range res.Wrote {
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	if !res.Passed() {
		return 1
	}
	return 0
}

// runTestCmd is "ttywright test ARGS".
func runTestCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ttywright test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o suiteOptions
	fs.IntVar(&o.Jobs, "j", 1, "tapes run at once, each in its own sessions")
	fs.IntVar(&o.Retries, "retries", 0, "run a failed tape again up to N times")
	fs.BoolVar(&o.Update, "update", false, "write the Snapshot golden files instead of comparing")
	fs.StringVar(&o.JUnit, "junit", "", "also write a JUnit XML report to FILE")
	fs.StringVar(&o.TraceDir, "trace-dir", defaultTraceDir, "where each failed tape's trace (HTML) is written; \"\" for none")
	fs.DurationVar(&o.Timeout, "timeout", defaultTapeTimeout, "fail a tape that runs longer (each run; 0: no bound)")
	if code, ok := parseSubFlags(fs, args, testUsage, stdout, stderr); !ok {
		return code
	}
	if o.Jobs < 1 || o.Jobs > 64 || o.Retries < 0 || o.Retries > 10 || o.Timeout < 0 {
		fmt.Fprintln(stderr, "ttywright test: -j takes 1 to 64, --retries 0 to 10, --timeout a duration from 0 (no bound)")
		return 2
	}
	tapes, err := findTapes(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "ttywright test: %v\n", err)
		return 2
	}
	ctx, stop, signalled := interruptContext()
	defer stop()
	results := runSuite(ctx, tapes, o, func(r suiteResult) { writeReport(stdout, r) })
	fmt.Fprintln(stdout, summaryLine(results))
	if code := signalled(); code != 0 {
		return code // no JUnit file: the suite did not run to its end
	}
	if o.JUnit != "" {
		if err := writeJUnit(o.JUnit, results); err != nil {
			fmt.Fprintf(stderr, "ttywright test: --junit: %v\n", err)
			return 1
		}
	}
	for _, r := range results {
		if !r.Passed() {
			return 1
		}
	}
	return 0
}

// interruptContext is a context that ends at SIGINT or SIGTERM, its
// stop, and signalled, the exit status for the signal that ended it
// (128+N, as a shell reports it: 130, 143), 0 when none did.
func interruptContext() (ctx context.Context, stop func(), signalled func() int) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var got atomic.Int32
	go func() {
		select {
		case s := <-sigs:
			if n, ok := s.(syscall.Signal); ok {
				got.Store(int32(128 + n))
			}
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel() }, func() int { return int(got.Load()) }
}

// parseSubFlags parses a subcommand's flags; -h prints usage and the
// flags to stdout. ok is false when the caller must return code.
func parseSubFlags(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (code int, ok bool) {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0, false
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v (-h lists the flags)\n", fs.Name(), err)
		return 2, false
	}
	return 0, true
}
