package main

// help_test.go: ttywright --help and --version.

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpToStdout: --help goes to standard output, says first what the
// program is and that without arguments it serves MCP on stdin, and names
// the themes; --version prints the build's version.
func TestHelpToStdout(t *testing.T) {
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
