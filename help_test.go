package main

// help_test.go: ttywright --help and --version.

import (
	"bytes"
	"flag"
	"strconv"
	"strings"
	"testing"
)

// TestHelpToStdout: --help goes to standard output, says first what the
// program is and that without arguments it serves MCP on stdin, and names
// the themes; --version prints the build's version.
func TestHelpToStdout(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"--help", "-h"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{arg}, func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr)
		first, _, _ := strings.Cut(stdout.String(), "\n")
		if code != 0 || stderr.Len() != 0 || !strings.Contains(first, "MCP server") ||
			!strings.Contains(stdout.String(), "Without arguments it serves\nMCP") || !strings.Contains(stdout.String(), "themes: one-dark, ") {
			t.Errorf("%s: status %d, stdout %q, stderr %q", arg, code, stdout.String(), stderr.String())
		}
	}
	var stdout bytes.Buffer
	if code := run([]string{"--version"}, func(string) string { return "" }, strings.NewReader(""), &stdout, &stdout); code != 0 || stdout.String() != "ttywright "+buildVersion()+"\n" {
		t.Errorf("--version: status %d, %q", code, stdout.String())
	}
}

// TestHelpShowsDefaults: --help shows every flag's default that is not
// its type's zero, flags that default to true included (flag.PrintDefaults
// leaves out a Value's default when it equals the zero Value's).
func TestHelpShowsDefaults(t *testing.T) {
	t.Parallel()
	var cfg Config
	fs, _, _ := configFlags(&cfg)
	var help bytes.Buffer
	printUsage(&help, fs)
	entries := strings.Split(help.String(), "\n  -")
	fs.VisitAll(func(f *flag.Flag) {
		if f.DefValue == "" || f.DefValue == "0" || f.DefValue == "false" {
			return
		}
		for _, e := range entries {
			if name, _, _ := strings.Cut(e, " "); strings.TrimSpace(strings.SplitN(name, "\n", 2)[0]) == f.Name {
				if !strings.Contains(e, "default "+f.DefValue) && !strings.Contains(e, "default "+strconv.Quote(f.DefValue)) {
					t.Errorf("-%s: the help does not show its default %s: %q", f.Name, f.DefValue, e)
				}
				return
			}
		}
		t.Errorf("-%s is not in the help", f.Name)
	})
}
