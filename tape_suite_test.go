package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image/gif"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// needShells skips the test when a shell the suite uses is missing.
func needShells(t *testing.T, shells ...string) {
	t.Helper()
	for _, sh := range shells {
		if _, err := exec.LookPath(sh); err != nil {
			t.Skipf("%s is not installed", sh)
		}
	}
}

// junitShape is the JUnit XML schema's shape: testsuite with its counts,
// testcase with name, classname and time, failure with message.
type junitShape struct {
	XMLName  xml.Name `xml:"testsuite"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Time     *string  `xml:"time,attr"`
	Cases    []struct {
		Name      string  `xml:"name,attr"`
		ClassName string  `xml:"classname,attr"`
		Time      *string `xml:"time,attr"`
		Failure   *struct {
			Message string `xml:"message,attr"`
			Type    string `xml:"type,attr"`
			Text    string `xml:",chardata"`
		} `xml:"failure"`
	} `xml:"testcase"`
}

// readJUnit decodes a JUnit file, failing on anything outside its shape.
func readJUnit(t *testing.T, path string) junitShape {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j junitShape
	if err := xml.Unmarshal(b, &j); err != nil {
		t.Fatalf("JUnit XML does not parse: %v\n%s", err, b)
	}
	if j.Time == nil {
		t.Errorf("testsuite has no time attribute")
	}
	for _, c := range j.Cases {
		if c.Name == "" || c.ClassName == "" || c.Time == nil {
			t.Errorf("testcase lacks name, classname or time: %+v", c)
		}
	}
	return j
}

func TestTapeSuitePasses(t *testing.T) {
	needShells(t, "bash", "zsh", "fish", "vim")
	dir := t.TempDir()
	junit := filepath.Join(dir, "junit.xml")
	var out, errb bytes.Buffer
	// A failed tape's trace goes to the test's folder, never the checkout.
	code := runTestCmd([]string{"-j", "4", "--junit", junit, "--trace-dir", dir, filepath.Join("testdata", "tapes", "suite")}, &out, &errb)
	if code != 0 {
		t.Fatalf("ttywright test = %d:\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "5 passed, 0 failed") {
		t.Errorf("no summary line:\n%s", out.String())
	}
	j := readJUnit(t, junit)
	if j.Tests != 5 || j.Failures != 0 || len(j.Cases) != 5 {
		t.Errorf("JUnit: %d tests, %d failures, %d cases; want 5, 0, 5", j.Tests, j.Failures, len(j.Cases))
	}
}

func TestTapeSuiteFailure(t *testing.T) {
	needShells(t, "bash")
	junit := filepath.Join(t.TempDir(), "junit.xml")
	traces := t.TempDir()
	var out, errb bytes.Buffer
	code := runTestCmd([]string{"--junit", junit, "--trace-dir", traces, filepath.Join("testdata", "tapes", "failing")}, &out, &errb)
	if code != 1 {
		t.Fatalf("ttywright test = %d, want 1:\n%s%s", code, out.String(), errb.String())
	}
	report := out.String()
	for _, want := range []string{
		"FAIL testdata/tapes/failing/fail.tape",
		`testdata/tapes/failing/fail.tape:5:1: Expect@500ms "expected output"`,
		`expected: "expected output" on the screen within 500ms`,
		"    | actual output",
		"  last steps:\n    shell_start",
		`shell_wait {"new_only":false,"session_id":"shell-1","timeout_ms":500,"wait_for":"expected output"}`,
		"FAIL testdata/tapes/failing/exit.tape",
		`expected: exit code 0 from "sh -c 'exit 3'"`,
		"got: exit code 3",
		"0 passed, 2 failed",
		"  trace: " + filepath.Join(traces, "testdata-tapes-failing-fail.trace.html") + "\n",
		"  trace: " + filepath.Join(traces, "testdata-tapes-failing-exit.trace.html") + "\n",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	// The trace has the failed wait as its last step and the screen it
	// failed on.
	trace, err := os.ReadFile(filepath.Join(traces, "testdata-tapes-failing-fail.trace.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"shell_wait", "expected output", "actual output",
		`"origin":"testdata/tapes/failing/fail.tape:5: Expect@500ms \"expected output\""`, // each step names its tape line
		`"failed":"testdata/tapes/failing/fail.tape:5: Expect@500ms`} {                    // and the failing one is marked
		if !strings.Contains(string(trace), want) {
			t.Errorf("the failed run's trace lacks %q", want)
		}
	}
	if strings.Contains(report, "never typed") {
		t.Errorf("the tape went on after the failed assertion:\n%s", report)
	}
	j := readJUnit(t, junit)
	if j.Tests != 2 || j.Failures != 2 {
		t.Fatalf("JUnit: %d tests %d failures, want 2 2", j.Tests, j.Failures)
	}
	for _, c := range j.Cases {
		if c.Failure == nil || c.Failure.Message == "" || !strings.Contains(c.Failure.Text, "last steps") {
			t.Errorf("testcase %s: failure element missing or empty: %+v", c.Name, c.Failure)
		}
	}
}

// writeTape writes a tape into dir and returns its path.
func writeTape(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	writeTapeB(t, p, src)
	return p
}

func writeTapeB(t testing.TB, path, src string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTapeUpdate(t *testing.T) {
	needShells(t, "bash")
	dir := t.TempDir()
	tape := writeTape(t, dir, "snap.tape", "Set TypingSpeed 0\nType \"echo golden text\" Enter\nWait+Command\nSnapshot@1s shot\n")
	var out bytes.Buffer
	traces := "--trace-dir=" + t.TempDir()
	if code := runTestCmd([]string{traces, tape}, &out, &out); code != 1 || !strings.Contains(out.String(), "run ttywright test --update to write it") {
		t.Fatalf("without a golden: %d\n%s", code, out.String())
	}
	out.Reset()
	if code := runTestCmd([]string{traces, "--update", tape}, &out, &out); code != 0 {
		t.Fatalf("--update: %d\n%s", code, out.String())
	}
	golden, err := os.ReadFile(filepath.Join(dir, "shot.txt"))
	if err != nil || string(golden) != "> echo golden text\ngolden text\n>\n" {
		t.Fatalf("golden = %q, %v", golden, err)
	}
	out.Reset()
	if code := runTestCmd([]string{traces, tape}, &out, &out); code != 0 {
		t.Fatalf("against the golden: %d\n%s", code, out.String())
	}
	os.WriteFile(filepath.Join(dir, "shot.txt"), []byte("> echo golden text\nother text\n>\n"), 0o644)
	out.Reset()
	if code := runTestCmd([]string{traces, tape}, &out, &out); code != 1 || !strings.Contains(out.String(), `got: line 2: golden "other text", screen "golden text"`) {
		t.Fatalf("a changed golden: %d\n%s", code, out.String())
	}
}

func TestTapeOutputs(t *testing.T) {
	needShells(t, "bash")
	dir := t.TempDir()
	q := func(name string) string { return `"` + filepath.Join(dir, name) + `"` }
	tape := writeTape(t, dir, "out.tape", "Output "+q("demo.gif")+"\nOutput "+q("demo.txt")+"\nOutput "+q("demo.cast")+
		"\nOutput "+q("frames")[:len(q("frames"))-1]+"/\""+"\nOutput "+q("demo.mp4")+"\nSet FontFamily \"Fira Code\"\nSet FontSize 16\nSet Padding 0\nSet Width 320\nSet Height 160\n"+
		"Hide\nType@0 \"export SECRET_SETUP=1; clear\" Enter\nWait\nShow\nType \"echo hi\" Enter\nWait+Screen /hi/\nScreenshot "+q("shot.png")+"\nSet Width 999\n"+
		"Hide\nType@0 \"echo hidden-middle; clear\" Enter\nWait\nShow\nType \"echo shown-after\" Enter\nWait+Screen /shown-after\\n/\n")
	res := runTape(t.Context(), tape, tapeOptions{})
	if !res.Passed() {
		t.Fatalf("run: %v %+v", res.Err, res.Failure)
	}
	g, err := os.Open(filepath.Join(dir, "demo.gif"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	img, err := gif.DecodeAll(g)
	if err != nil || len(img.Image) == 0 || img.Config.Width != 320 {
		t.Errorf("demo.gif: %v (%d frames, %d px wide; want 320: 40 cells of 8 px)", err, len(img.Image), img.Config.Width)
	}
	txt, _ := os.ReadFile(filepath.Join(dir, "demo.txt"))
	if !strings.Contains(string(txt), "> echo hi\nhi\n") || !strings.Contains(string(txt), tapeTextRule) || strings.Contains(string(txt), "SECRET_SETUP") {
		t.Errorf("demo.txt:\n%s", txt)
	}
	cast, _ := os.ReadFile(filepath.Join(dir, "demo.cast"))
	if strings.Contains(string(cast), "hidden-middle") || !strings.Contains(string(cast), "shown-after") ||
		strings.Count(string(cast), `"version"`) != 1 {
		t.Errorf("demo.cast: one header, the shown parts, not the hidden one:\n%s", cast)
	}
	for _, f := range []string{"demo.cast", "shot.png", "frames/frame-00001.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	counts := map[string]int{}
	for _, w := range res.Warnings {
		counts[w.Cmd]++
	}
	for _, cmd := range []string{"Set FontFamily", "Output .mp4", "Set Width"} {
		if counts[cmd] != 1 {
			t.Errorf("warnings for %s: %d, want 1 (all: %+v)", cmd, counts[cmd], res.Warnings)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "demo.mp4")); err == nil {
		t.Errorf("demo.mp4 was written")
	}
}

func TestTapeMalformedRunsNothing(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	tape := writeTape(t, dir, "bad.tape", "Type \"touch "+marker+"\" Enter\nSleep 1x\n")
	var out, errb bytes.Buffer
	if code := runTapeCmd([]string{"--trace-dir", dir, tape}, &out, &errb); code != 1 {
		t.Fatalf("ttywright tape = %d, want 1", code)
	}
	if want := tape + ":2:7: bad duration"; !strings.Contains(errb.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, errb.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the first command ran before the parse error was reported")
	}
}

// TestTapeLeavesNothing runs tapes that pass, fail and do not start, and
// checks that no goroutine, descriptor or temporary directory is left.
func TestTapeLeavesNothing(t *testing.T) {
	needShells(t, "bash")
	dir := t.TempDir()
	tapes := []string{
		writeTape(t, dir, "ok.tape", "Set TypingSpeed 0\nType \"echo ok\" Enter\nWait+Command exit=0\n"),
		writeTape(t, dir, "fail.tape", "Set TypingSpeed 0\nExpect@100ms \"never\"\n"),
		writeTape(t, dir, "noshell.tape", "Set Shell xonsh\nType \"x\"\n"),
		writeTape(t, dir, "bad.tape", "Type 3\n"),
	}
	tmp := t.TempDir()
	runTape(t.Context(), tapes[0], tapeOptions{TmpDir: tmp}) // warm up: the package's lazy state
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	for range 3 {
		for _, p := range tapes {
			runTape(t.Context(), p, tapeOptions{TmpDir: tmp, TraceDir: filepath.Join(dir, "traces")})
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Errorf("%d goroutines before, %d after", goroutines, n)
	}
	if n := openFDs(t); n > fds {
		t.Errorf("%d descriptors open before, %d after", fds, n)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}

// TestTapeReadmeExample holds README's example tape to the one the suite
// runs: the README block is testdata/tapes/suite/readme.tape but its
// first line.
func TestTapeReadmeExample(t *testing.T) {
	tape, err := os.ReadFile(filepath.Join("testdata", "tapes", "suite", "readme.tape"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(tape), "\n")
	if !strings.Contains(string(readme), "```tape\n# testdata/tapes/suite/readme.tape: a CLI's --help, an exit code, a TUI snapshot\n"+body+"```") {
		t.Errorf("README's example tape is not testdata/tapes/suite/readme.tape")
	}
}

// TestTraceNamesUnique: tapes whose paths give one traceName each get a
// file of their own.
func TestTraceNamesUnique(t *testing.T) {
	tests := []struct {
		tapes, want []string
	}{
		{[]string{"a/b.tape", "c.tape"}, []string{"a-b.trace.html", "c.trace.html"}},
		{[]string{"x/y-z.tape", "x-y/z.tape", "x-y-z.tape"}, []string{"x-y-z.trace.html", "x-y-z-2.trace.html", "x-y-z-3.trace.html"}},
		{[]string{"./t.tape", "../up/t.tape"}, []string{"t.trace.html", "up-t.trace.html"}},
	}
	for _, tc := range tests {
		if got := traceNames(tc.tapes); !slices.Equal(got, tc.want) {
			t.Errorf("traceNames(%q) = %q, want %q", tc.tapes, got, tc.want)
		}
	}
}

// TestTapeSuiteInterrupted: a suite interrupted while a tape runs stops
// it and runs no other, and says so: no tape is reported failed.
func TestTapeSuiteInterrupted(t *testing.T) {
	needShells(t, "bash")
	dir := t.TempDir()
	var tapes []string
	for _, name := range []string{"a.tape", "b.tape", "c.tape"} {
		tapes = append(tapes, writeTape(t, dir, name, "Set TypingSpeed 0\nType \"echo started\" Enter\nWait+Command\nSleep 30s\n"))
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(time.Second, cancel)
	var out strings.Builder
	results := runSuite(ctx, tapes, suiteOptions{Jobs: 1, TraceDir: filepath.Join(dir, "traces")}, func(r suiteResult) { writeReport(&out, r) })
	report := out.String() + summaryLine(results)
	for _, want := range []string{"STOP " + tapes[0], "SKIP " + tapes[1], "SKIP " + tapes[2], "0 passed, 0 failed, 3 interrupted (not run or stopped)"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "FAIL") {
		t.Errorf("an interrupted tape is reported failed:\n%s", report)
	}
}

// TestTapeFilesBounded: a tape run reads and writes only regular files:
// a tape that is a link to /dev/zero or a FIFO, or one over the size cap,
// is refused, not read without end; an Output that is a FIFO, and a
// golden file that is a planted symlink, are refused, not written to.
func TestTapeFilesBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	zero := filepath.Join(dir, "zero.tape")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.tape")
	writeTapeB(t, big, "# "+strings.Repeat("x", maxTapeFileBytes)+"\n")
	for _, tc := range []struct{ path, want string }{
		{zero, "is not a regular file"},
		{fifo, "is not a regular file"},
		{big, "is over 4 MiB"},
	} {
		if _, err := parseTapeFile(tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseTapeFile(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if err := writeRegular(fifo, []byte("x")); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("writing into a FIFO: %v, want a refusal", err)
	}
	secret := filepath.Join(dir, "secret")
	writeTapeB(t, secret, "keep")
	link := filepath.Join(dir, "shot.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	if err := writeRegular(link, []byte("golden")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("writing through a symlink: %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(secret); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
	// Every such Output of a tape is refused before it runs, at once.
	if err := os.Mkdir(filepath.Join(dir, "adir.txt"), 0o700); err != nil {
		t.Fatal(err)
	}
	tape := writeTape(t, dir, "outs.tape", fmt.Sprintf("Output %q\nOutput %q\nOutput %q\nType \"x\"\n", link, fifo+".cast", filepath.Join(dir, "adir.txt")))
	if err := os.Rename(fifo, fifo+".cast"); err != nil {
		t.Fatal(err)
	}
	res := runTape(t.Context(), tape, tapeOptions{})
	if res.Err == nil || strings.Count(res.Err.Error(), "\n") != 2 || !strings.Contains(res.Err.Error(), "outs.tape:1:1: Output "+link+" is a symbolic link") ||
		!strings.Contains(res.Err.Error(), "outs.tape:2:1: Output") || !strings.Contains(res.Err.Error(), "outs.tape:3:1: Output") {
		t.Errorf("a tape with three Outputs it cannot write: %v, want the three refused", res.Err)
	}
}

// TestTapeTimeout: --timeout ends a tape that would run on (a long
// Sleep), as a failure at the command it was at, with the screen then
// and its trace.
func TestTapeTimeout(t *testing.T) {
	t.Parallel()
	needShells(t, "bash")
	dir := t.TempDir()
	tape := writeTape(t, dir, "long.tape", "Set TypingSpeed 0\nType \"echo hi\" Enter\nWait+Command\nSleep 1000m\n")
	var out bytes.Buffer
	code := runTestCmd([]string{"--timeout=2s", "--trace-dir=" + filepath.Join(dir, "traces"), tape}, &out, &out)
	if code != 1 || !strings.Contains(out.String(), "the tape to end within --timeout 2s") || !strings.Contains(out.String(), ":4:") {
		t.Errorf("exit %d:\n%s\nwant a failure at line 4 naming --timeout", code, out.String())
	}
	if !strings.Contains(out.String(), "screen:\n    | > echo hi\n    | hi\n") {
		t.Errorf("the failure does not show the screen it was at:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "traces")); err != nil {
		t.Errorf("no trace of the run that timed out: %v", err)
	}
}

// TestTapeCmdUsageErrors: flags out of range are usage errors (2) that
// name the flag, before any tape runs.
func TestTapeCmdUsageErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		run  func([]string, io.Writer, io.Writer) int
		args []string
		want string
	}{
		{runTapeCmd, []string{"--timeout", "-5s", "x.tape"}, "--timeout -5s: must not be negative"},
		{runTestCmd, []string{"--timeout", "-1s", "x.tape"}, "--timeout a duration from 0"},
		{runTestCmd, []string{"-j", "0", "x.tape"}, "-j takes 1 to 64"},
		{runTapeCmd, []string{"a.tape", "b.tape"}, "give one FILE.tape"},
	} {
		var out, errb bytes.Buffer
		if code := tt.run(tt.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tt.want) {
			t.Errorf("%v: %d %q, want 2 and %q", tt.args, code, errb.String(), tt.want)
		}
	}
}
