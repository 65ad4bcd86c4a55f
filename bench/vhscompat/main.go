// Command vhscompat measures how many of VHS's own tapes ttywright runs:
// every .tape under a checkout of charmbracelet/vhs (examples/ and the
// test tapes), each run with `ttywright tape --json` from the checkout's
// root (VHS reads paths from there), counted as: parsed, ran to the end,
// wrote every Output it could (the .gif, .txt, .cast and frames; .mp4
// and .webm are warned), and each warning by command. It copies nothing
// of VHS: it reads the tapes where they are.
//
// Usage, from the repository root:
//
//	go run ./bench/vhscompat -vhs /path/to/vhs [-bin ttywright] [-j 4] [-timeout 3m] [-markdown]
//
// Without -bin it builds the binary into a temporary directory first.
// The tapes' Output files are written into a copy of the checkout in a
// temporary directory, never into the checkout itself.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ttywright/ttywright/bench/internal/probe"
)

// report is `ttywright tape --json`'s output (tape_suite.go, tapeReport).
type report struct {
	Path       string   `json:"path"`
	Passed     bool     `json:"passed"`
	ParseError bool     `json:"parse_error"`
	Error      string   `json:"error"`
	Failure    string   `json:"failure"`
	Outputs    []string `json:"outputs"`
	Wrote      []string `json:"wrote"`
	Warnings   []struct {
		Cmd string `json:"cmd"`
		Msg string `json:"msg"`
	} `json:"warnings"`
	DurationMS int64 `json:"duration_ms"`
}

func main() {
	vhs := flag.String("vhs", "", "a checkout of github.com/charmbracelet/vhs")
	bin := flag.String("bin", "", "the ttywright binary (default: build it)")
	jobs := flag.Int("j", 4, "tapes run at once")
	timeout := flag.Duration("timeout", 3*time.Minute, "longest run of one tape")
	markdown := flag.Bool("markdown", false, "print the tables as Markdown")
	flag.Parse()
	if *vhs == "" {
		log.Fatal("give -vhs DIR, a checkout of github.com/charmbracelet/vhs")
	}
	tmp, err := os.MkdirTemp("", "vhscompat-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if *bin == "" {
		*bin = filepath.Join(tmp, "ttywright")
		if err := probe.Build(".", *bin); err != nil {
			log.Fatal(err)
		}
	}
	root := filepath.Join(tmp, "vhs")
	if out, err := exec.Command("cp", "-a", *vhs, root).CombinedOutput(); err != nil {
		log.Fatalf("copying the checkout: %v\n%s", err, out)
	}
	tapes := findTapes(root)
	reports := runAll(*bin, root, tapes, *jobs, *timeout)
	printTables(reports, *markdown)
}

// findTapes lists the .tape files under root, relative to it, sorted.
func findTapes(root string) []string {
	var tapes []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tape") && !strings.Contains(p, "/.git/") {
			rel, _ := filepath.Rel(root, p)
			tapes = append(tapes, rel)
		}
		return nil
	})
	slices.Sort(tapes)
	return tapes
}

// runAll runs each tape with ttywright tape --json in root, jobs at once.
func runAll(bin, root string, tapes []string, jobs int, timeout time.Duration) []report {
	reports := make([]report, len(tapes))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(1, jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				reports[i] = runOne(bin, root, tapes[i], timeout)
				fmt.Fprintf(os.Stderr, "%-50s passed=%-5v %6d ms %s%s\n", tapes[i], reports[i].Passed, reports[i].DurationMS, reports[i].Error, reports[i].Failure)
			}
		}()
	}
	for i := range tapes {
		next <- i
	}
	close(next)
	wg.Wait()
	return reports
}

// runOne runs one tape; a run that prints no report (killed at the
// timeout) is an error.
func runOne(bin, root, tape string, timeout time.Duration) report {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "tape", "--json", tape)
	cmd.Dir = root
	start := time.Now()
	out, _ := cmd.Output()
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		return report{Path: tape, Error: fmt.Sprintf("no report (%v after %v)", ctx.Err(), time.Since(start).Round(time.Second)), DurationMS: time.Since(start).Milliseconds()}
	}
	return r
}

// wroteAll reports whether r wrote every Output ttywright writes.
func wroteAll(r report) bool {
	for _, o := range r.Outputs {
		if ext := filepath.Ext(o); ext == ".mp4" || ext == ".webm" {
			continue
		}
		if !slices.Contains(r.Wrote, o) {
			return false
		}
	}
	return true
}

// printTables prints the counts and the warnings by command.
func printTables(reports []report, md bool) {
	var parsed, ended, wrote int
	var total time.Duration
	warnTapes := map[string]int{}
	var failures []string
	for _, r := range reports {
		if !r.ParseError {
			parsed++
		}
		if r.Passed {
			ended++
			total += time.Duration(r.DurationMS) * time.Millisecond
			if wroteAll(r) {
				wrote++
			}
		} else {
			failures = append(failures, fmt.Sprintf("%s: %s%s", r.Path, r.Error, r.Failure))
		}
		seen := map[string]bool{}
		for _, w := range r.Warnings {
			if !seen[w.Cmd] {
				seen[w.Cmd] = true
				warnTapes[w.Cmd]++
			}
		}
	}
	row := func(a, b string) {
		if md {
			fmt.Printf("| %s | %s |\n", a, b)
		} else {
			fmt.Printf("%-40s %s\n", a, b)
		}
	}
	if md {
		fmt.Println("| VHS's tapes | count |\n|---|---|")
	}
	row("tapes", fmt.Sprint(len(reports)))
	row("parse", fmt.Sprint(parsed))
	row("run to the end", fmt.Sprint(ended))
	row("run to the end and write their outputs", fmt.Sprint(wrote))
	if ended > 0 {
		row("mean time per tape that ran (s)", fmt.Sprintf("%.1f", total.Seconds()/float64(ended)))
	}
	fmt.Println()
	if md {
		fmt.Println("| warned command | tapes |\n|---|---|")
	}
	cmds := make([]string, 0, len(warnTapes))
	for c := range warnTapes {
		cmds = append(cmds, c)
	}
	slices.Sort(cmds)
	slices.SortStableFunc(cmds, func(a, b string) int { return warnTapes[b] - warnTapes[a] })
	for _, c := range cmds {
		row(c, fmt.Sprint(warnTapes[c]))
	}
	fmt.Println()
	for _, f := range failures {
		fmt.Println("not run to the end:", f)
	}
}
