// Command compare measures two ttywright binaries against each other in
// one sitting, as an MCP client sees them over stdio: it builds a given
// revision (A, the base) and HEAD (B), or takes two prebuilt binaries, and
// runs each probe on A and B in turn (A, B, then B, A in the next round),
// so that the machine's load, which drifts, falls on both alike. Each row
// of its table is a cost (a time, CPU time or size): the medians of A and
// B, their ratio A/B, above 1 when B costs less (B, HEAD, is faster or
// smaller), the least and greatest of the rounds' own ratios, the number
// of samples and the machine's 1-minute load average during the probe.
//
// Usage, from the repository root:
//
//	go run ./bench/compare [-rounds 5] [-quick] REV [REV2]
//	go run ./bench/compare [-rounds 5] [-quick] -a BIN -b BIN
//
// REV2 is HEAD unless given; both are built from `git archive` (so
// uncommitted changes are not in them: build the working tree yourself and
// pass it as -b). -quick runs two rounds of fewer samples, in about two
// minutes. It needs Linux (/proc), git, bash, yes and cat; zsh and fish are
// measured when installed. Timings stay out of pass/fail tests: this
// prints figures and fails only when a probe cannot run.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ttywright/ttywright/bench/internal/probe"
)

// config is what the flags set: the samples of each probe, per binary and
// round, and the load probe's size.
type config struct {
	rounds       int
	starts       int // server starts
	shellStarts  int // shell_start of bash, and of the printing-then-pausing program (a tenth of it, at least one)
	commands     int // command ends, shell_reads
	shots        int // screenshots
	floods       int // seq floods, cat of each stream and runs of the emulator's benchmarks
	vtBenchTimes int // passes over each stream in a run of the emulator's benchmarks
	loadPings    int // pings of the load probe (its -n)
}

func main() {
	binA := flag.String("a", "", "binary `A` (the base), instead of building REV")
	binB := flag.String("b", "", "binary `B`, instead of building REV2 (default HEAD)")
	rounds := flag.Int("rounds", 5, "rounds; each runs every probe on A and on B")
	quick := flag.Bool("quick", false, "fewer samples, and 2 rounds unless -rounds is given (about two minutes)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/compare [flags] REV [REV2]   (from the repository root; REV2 defaults to HEAD)")
		fmt.Fprintln(os.Stderr, "       go run ./bench/compare [flags] -a BIN -b BIN")
		flag.PrintDefaults()
	}
	flag.Parse()
	cfg := config{rounds: *rounds, starts: 5, shellStarts: 10, commands: 20, shots: 5, floods: 2, vtBenchTimes: 5, loadPings: 300}
	if *quick {
		cfg = config{rounds: 2, starts: 3, shellStarts: 5, commands: 10, shots: 3, floods: 1, vtBenchTimes: 5, loadPings: 200}
		flag.Visit(func(f *flag.Flag) {
			if f.Name == "rounds" {
				cfg.rounds = *rounds
			}
		})
	}
	if cfg.rounds < 1 {
		fmt.Fprintln(os.Stderr, "compare: -rounds must be at least 1")
		os.Exit(2)
	}
	if err := run(cfg, *binA, *binB, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

// side is one of the two binaries under comparison.
type side struct {
	i     int    // 0 for A, 1 for B
	label string // "A" or "B"
	name  string // the revision and its commit, or the binary's path
	bin   string
	test  string        // the root package's test binary (go test -c), "" when bin was given
	tmp   string        // its output directory and the sessions' HOME are under it
	c     *probe.Client // the round's server
	shots int           // screenshots taken, for their names
}

func run(cfg config, binA, binB string, revs []string) error {
	tmp, err := os.MkdirTemp("", "ttywright-compare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// Interrupted, the checkouts and binaries go too; the servers see
	// their stdin close and stop their sessions.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		os.RemoveAll(tmp)
		os.Exit(130)
	}()
	sides, err := binaries(tmp, binA, binB, revs)
	if err != nil {
		return err
	}
	streams, err := writeStreams(tmp, sides[1].test)
	if err != nil {
		return err
	}
	ms, skipped := measures(cfg, streams, sides)
	res := newResults(ms, cfg.rounds)
	load0, _, _ := probe.LoadAverage()
	for r := range cfg.rounds {
		order := []*side{sides[0], sides[1]}
		if r%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		progress("round %d of %d, %s first", r+1, cfg.rounds, order[0].label)
		if err := round(ms, order, r, res); err != nil {
			return err
		}
	}
	printTable(os.Stdout, sides, ms, res, cfg, skipped, load0, time.Since(began))
	return nil
}

// began is when the program started, for progress and the total.
var began = time.Now()

// progress prints a step on stderr with the time since the start.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%5.0fs  %s ...\n", time.Since(began).Seconds(), fmt.Sprintf(format, args...))
}

// binaries returns the two sides, building the revisions unless both
// binaries are given.
func binaries(tmp, binA, binB string, revs []string) ([2]*side, error) {
	a := &side{i: 0, label: "A", name: binA, bin: binA, tmp: filepath.Join(tmp, "A")}
	b := &side{i: 1, label: "B", name: binB, bin: binB, tmp: filepath.Join(tmp, "B")}
	for _, s := range []*side{a, b} {
		if err := os.MkdirAll(filepath.Join(s.tmp, "home"), 0o700); err != nil {
			return [2]*side{}, err
		}
	}
	switch {
	case binA != "" && binB != "":
		if len(revs) > 0 {
			return [2]*side{}, errors.New("give either REV [REV2] or -a and -b, not both")
		}
		for _, s := range []*side{a, b} {
			var err error
			if s.bin, err = filepath.Abs(s.bin); err != nil {
				return [2]*side{}, err
			}
			if _, err := os.Stat(s.bin); err != nil {
				return [2]*side{}, fmt.Errorf("-%s: %v", strings.ToLower(s.label), err)
			}
		}
	case binA != "" || binB != "":
		return [2]*side{}, errors.New("-a and -b go together")
	case len(revs) == 1 || len(revs) == 2:
		if len(revs) == 1 {
			revs = append(revs, "HEAD")
		}
		for i, s := range []*side{a, b} {
			if err := buildRevision(tmp, revs[i], s); err != nil {
				return [2]*side{}, err
			}
		}
	default:
		return [2]*side{}, errors.New("give the revision to compare with HEAD (e.g. the last release), or -a BIN -b BIN")
	}
	return [2]*side{a, b}, nil
}

// buildRevision checks rev out of the repository in the working
// directory with `git archive` into tmp/src-LABEL and builds, with rev's
// own go.mod, its binary and its root package's test binary into s's
// directory; s's name becomes rev's with its commit and subject.
func buildRevision(tmp, rev string, s *side) error {
	out, err := exec.Command("git", "log", "-1", "--format=%h %s", rev+"^{commit}", "--").Output()
	if err != nil {
		return fmt.Errorf("git: no commit %q: %v", rev, err)
	}
	subject := strings.TrimSpace(string(out))
	if len(subject) > 70 {
		subject = subject[:67] + "..."
	}
	s.name = subject
	if !strings.HasPrefix(subject, rev) {
		s.name = rev + " = " + subject
	}
	src := filepath.Join(tmp, "src-"+s.label)
	if err := os.MkdirAll(src, 0o700); err != nil {
		return err
	}
	defer os.RemoveAll(src)
	archive := exec.Command("sh", "-c", `git archive --format=tar "$1" | tar -x -C "$2"`, "sh", rev+"^{commit}", src)
	archive.Stderr = os.Stderr
	if err := archive.Run(); err != nil {
		return fmt.Errorf("git archive %s: %v", rev, err)
	}
	progress("building %s and its tests", s.name)
	s.bin, s.test = filepath.Join(s.tmp, "ttywright"), filepath.Join(s.tmp, "ttywright.test")
	if err := probe.Build(src, s.bin); err != nil {
		return err
	}
	return buildTest(src, s.test)
}

// buildTest runs `go test -c -trimpath -o out .` in the module at dir.
func buildTest(dir, out string) error {
	build := exec.Command("go", "test", "-c", "-trimpath", "-o", out, ".")
	build.Dir = dir
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go test -c in %s: %v", dir, err)
	}
	return nil
}

// writeStreams writes the VT benchmarks' streams (probe.VTStreams) into
// tmp/streams by running their benchmarks once with -vtstreams, in test,
// or when that is "" in a test binary of the working directory built for
// it, and returns the directory.
func writeStreams(tmp, test string) (string, error) {
	dir := filepath.Join(tmp, "streams")
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", err
	}
	if test == "" {
		test = filepath.Join(tmp, "streams.test")
		progress("building the working directory's tests, for the VT streams")
		if err := buildTest(".", test); err != nil {
			return "", err
		}
	}
	progress("writing the VT streams")
	cmd := exec.Command(test, "-test.run", "^$", "-test.bench", probe.VTBenchPattern(), "-test.benchtime", "1x", "-vtstreams", dir)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("writing the VT streams: %v\n%s", err, out)
	}
	return dir, nil
}
