package main

// tape_suite.go: tapes run as tests (ttywright test): the tapes of the
// folders and files given, run N at a time, each in its own sessions and
// temporary directory, a failed one retried; a report per tape, the
// summary line "N passed, N failed", and a JUnit XML file for CI.

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// suiteOptions are ttywright test's flags.
type suiteOptions struct {
	Jobs     int // tapes run at once
	Retries  int // runs more of a failed tape
	Update   bool
	JUnit    string // "" = no JUnit file
	TmpDir   string
	TraceDir string        // where a failed tape's trace goes ("" = nowhere)
	Timeout  time.Duration // each run's bound (tapeOptions.Timeout)
}

// suiteResult is one tape's outcome in a suite: its last run, how many
// runs it took (0: not run, the suite was interrupted first) and their
// time in all.
type suiteResult struct {
	*tapeResult
	Runs  int
	Total time.Duration
}

// errInterrupted is the Err of a tape the suite did not run, or stopped,
// because it was interrupted (SIGINT, SIGTERM).
var errInterrupted = errors.New("interrupted")

// Interrupted reports whether the tape was not run, or stopped, because
// the suite was interrupted.
func (r suiteResult) Interrupted() bool {
	return errors.Is(r.Err, errInterrupted) || errors.Is(r.Err, context.Canceled)
}

// findTapes lists the tapes of the arguments: a file as given, a folder's
// *.tape files at any depth, sorted. Tapes named _*.tape are left out of
// folders: they are for Source.
func findTapes(args []string) ([]string, error) {
	if len(args) == 0 {
		args = []string{"."}
	}
	var tapes []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			tapes = append(tapes, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tape") && !strings.HasPrefix(d.Name(), "_") {
				tapes = append(tapes, p)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	if len(tapes) == 0 {
		return nil, fmt.Errorf("no .tape files in %s", strings.Join(args, ", "))
	}
	slices.Sort(tapes)
	return slices.Compact(tapes), nil
}

// runSuite runs the tapes, opt.Jobs at a time, and returns their
// results in the order of tapes; report is called as each one ends.
func runSuite(ctx context.Context, tapes []string, opt suiteOptions, report func(suiteResult)) []suiteResult {
	results := make([]suiteResult, len(tapes))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	names := traceNames(tapes)
	for range max(1, opt.Jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				res := suiteResult{tapeResult: &tapeResult{Path: tapes[i], Err: errInterrupted}}
				if ctx.Err() == nil {
					res = runWithRetries(ctx, tapes[i], names[i], opt)
				}
				results[i] = res
				mu.Lock()
				report(res)
				mu.Unlock()
			}
		}()
	}
	for i := range tapes {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// runWithRetries runs a tape, and again up to opt.Retries times while it
// fails (an error in the tape itself is not retried).
func runWithRetries(ctx context.Context, path, traceName string, opt suiteOptions) suiteResult {
	var r suiteResult
	for r.Runs <= opt.Retries {
		r.Runs++
		r.tapeResult = runTape(ctx, path, tapeOptions{Update: opt.Update, TmpDir: opt.TmpDir, TraceDir: opt.TraceDir, TraceName: traceName, Timeout: opt.Timeout})
		r.Total += r.Duration
		if r.Passed() || r.ParseErr || ctx.Err() != nil {
			break
		}
	}
	return r
}

// writeReport writes one tape's report: its warnings, ok or FAIL with
// the failure's expected and actual screen and the last tool calls.
func writeReport(w io.Writer, r suiteResult) {
	for _, wn := range r.Warnings {
		fmt.Fprintf(w, "%s:%d:%d: warning: %s: %s\n", r.Path, wn.Line, wn.Col, wn.Cmd, wn.Msg)
	}
	runs := ""
	if r.Runs > 1 {
		runs = fmt.Sprintf(", %d runs, %.2fs in all", r.Runs, r.Total.Seconds())
	}
	switch {
	case r.Runs == 0:
		fmt.Fprintf(w, "SKIP %s (not run: interrupted)\n", r.Path)
		return
	case r.Interrupted():
		fmt.Fprintf(w, "STOP %s (%.2fs%s): interrupted\n", r.Path, r.Duration.Seconds(), runs)
		return
	}
	if r.Passed() {
		fmt.Fprintf(w, "ok   %s (%.2fs%s)\n", r.Path, r.Duration.Seconds(), runs)
		return
	}
	fmt.Fprintf(w, "FAIL %s (%.2fs%s)\n", r.Path, r.Duration.Seconds(), runs)
	if r.Err != nil {
		fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(r.Err.Error(), "\n", "\n  ")) // a tape's errors, one a line
	} else {
		writeFailure(w, r.Path, r.Failure)
	}
	if r.TracePath != "" {
		fmt.Fprintf(w, "  trace: %s\n", r.TracePath)
	}
}

// writeFailure writes a failed assertion of the tape at path: where, what
// it expected, what it saw, the screen and the last tool calls.
func writeFailure(w io.Writer, path string, f *tapeFailure) {
	fmt.Fprintf(w, "  %s:%d:%d: %s\n  expected: %s\n", path, f.Line, f.Col, f.Cmd, f.Expected)
	if f.Got != "" {
		fmt.Fprintf(w, "  got: %s\n", f.Got)
	}
	fmt.Fprintf(w, "  screen:\n")
	for _, line := range strings.Split(f.Actual, "\n") {
		fmt.Fprintf(w, "    | %s\n", line)
	}
	fmt.Fprintf(w, "  last steps:\n")
	for _, s := range f.Steps {
		fmt.Fprintf(w, "    %s\n", s)
	}
}

// summaryLine is "N passed, N failed", and when the suite was
// interrupted ", N interrupted (not run or stopped)".
func summaryLine(results []suiteResult) string {
	passed, stopped := 0, 0
	for _, r := range results {
		switch {
		case r.Passed():
			passed++
		case r.Interrupted():
			stopped++
		}
	}
	line := fmt.Sprintf("%d passed, %d failed", passed, len(results)-passed-stopped)
	if stopped > 0 {
		line += fmt.Sprintf(", %d interrupted (not run or stopped)", stopped)
	}
	return line
}

// junitSuite is the JUnit XML report: one testsuite, a testcase per
// tape, a failure element for each that failed.
type junitSuite struct {
	XMLName  xml.Name    `xml:"testsuite"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes the results as JUnit XML to path.
func writeJUnit(path string, results []suiteResult) error {
	s := junitSuite{Name: "ttywright", Tests: len(results)}
	total := 0.0
	for _, r := range results {
		class := strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(filepath.Clean(r.Path)), ".tape"), "/", ".")
		c := junitCase{Name: r.Path, ClassName: class, Time: fmt.Sprintf("%.3f", r.Total.Seconds())}
		total += r.Total.Seconds()
		var b strings.Builder
		writeReport(&b, r)
		switch {
		case r.Failure != nil:
			s.Failures++
			c.Failure = &junitFailure{Message: r.Failure.Cmd + ": expected " + r.Failure.Expected, Type: "assertion", Text: b.String()}
		case r.Err != nil:
			s.Errors++
			c.Error = &junitFailure{Message: r.Err.Error(), Type: "error", Text: b.String()}
		case len(r.Warnings) > 0:
			c.SystemOut = b.String()
		}
		s.Cases = append(s.Cases, c)
	}
	s.Time = fmt.Sprintf("%.3f", total)
	out, err := xml.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return writeRegular(path, append([]byte(xml.Header), append(out, '\n')...))
}

// tapeReport is a tape's result as JSON (ttywright tape --json): what
// bench/vhscompat counts.
type tapeReport struct {
	Path       string        `json:"path"`
	Passed     bool          `json:"passed"`
	ParseError bool          `json:"parse_error,omitempty"`
	Error      string        `json:"error,omitempty"`
	Failure    string        `json:"failure,omitempty"`
	Outputs    []string      `json:"outputs"` // the Output paths the tape names
	Wrote      []string      `json:"wrote"`
	Warnings   []tapeWarning `json:"warnings"`
	DurationMS int64         `json:"duration_ms"`
	TracePath  string        `json:"trace_path,omitempty"` // a failed run's trace
}

// report is r as a tapeReport.
func (r *tapeResult) report() tapeReport {
	rep := tapeReport{Path: r.Path, Passed: r.Passed(), ParseError: r.ParseErr, Outputs: orEmpty(r.Outputs),
		Wrote: orEmpty(r.Wrote), Warnings: orEmpty(r.Warnings), DurationMS: r.Duration.Milliseconds(), TracePath: r.TracePath}
	if r.Err != nil {
		rep.Error = r.Err.Error()
	}
	if f := r.Failure; f != nil {
		rep.Failure = fmt.Sprintf("%d:%d: %s: expected %s", f.Line, f.Col, f.Cmd, f.Expected)
	}
	return rep
}

// orEmpty is s, or an empty slice for nil: JSON's [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
