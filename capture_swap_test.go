package main

// capture_swap_test.go: the output directory (and a session directory)
// swapped for a symlink after the server began to use it.

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCaptureDirSwap takes a screenshot, then swaps the output directory
// or the session's directory for a symlink to another directory, and
// takes a screenshot and a recording again: nothing may land in the
// symlink's target. A swapped output directory changes nothing (captures
// keep going into the directory that was checked, and are read back from
// it); a session directory that is a symlink is refused.
func TestCaptureDirSwap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// swap replaces part of out with a symlink to elsewhere (a
		// directory outside out unless it says otherwise) and returns the
		// directory the captures must keep going to ("" when they must be
		// refused).
		swap func(t *testing.T, base, out, elsewhere string) (keep string)
	}{
		{"output dir renamed, symlink in its place", func(t *testing.T, base, out, elsewhere string) string {
			moved := filepath.Join(base, "moved")
			must(t, os.Rename(out, moved))
			must(t, os.Symlink(elsewhere, out))
			return moved
		}},
		{"output dir renamed, symlink to a copy", func(t *testing.T, base, out, elsewhere string) string {
			// The symlink's target even holds a session directory of the
			// same name, ready to receive.
			moved := filepath.Join(base, "moved")
			must(t, os.Mkdir(filepath.Join(elsewhere, "s1"), 0o700))
			must(t, os.Rename(out, moved))
			must(t, os.Symlink(elsewhere, out))
			return moved
		}},
		{"session dir replaced by a symlink inside the output dir", func(t *testing.T, base, out, elsewhere string) string {
			inside := filepath.Join(out, "other")
			must(t, os.Mkdir(inside, 0o700))
			must(t, os.Rename(filepath.Join(out, "s1"), filepath.Join(out, "s1-old")))
			must(t, os.Symlink("other", filepath.Join(out, "s1")))
			return ""
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			out := filepath.Join(base, "out")
			elsewhere := filepath.Join(base, "elsewhere")
			must(t, os.Mkdir(elsewhere, 0o700))
			a := newApp(Config{Theme: "one-dark", Cols: 20, Rows: 4, Scale: 1, OutputDir: out})
			s := addRecSession(a, "s1", 20, 4)
			s.term.Write([]byte("hello"))
			if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"one"}`); r.IsError {
				t.Fatalf("first screenshot: %s", r.Text)
			}

			keep := tc.swap(t, base, out, elsewhere)
			watched := elsewhere
			if keep == "" {
				watched = filepath.Join(out, "other")
			}
			before := tree(t, watched)

			shot := callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"two"}`)
			rec := callTool(t, a, "shell_record_start", `{"session_id":"s1","name":"rec"}`)
			if !rec.IsError {
				s.mu.Lock()
				s.term.Write([]byte(" world"))
				s.mu.Unlock()
				rec = callTool(t, a, "shell_record_stop", `{"session_id":"s1","format":"both"}`)
			}
			if after := tree(t, watched); len(after) != len(before) {
				t.Errorf("captures landed in the symlink's target %s: %v", watched, slices.Sorted(maps.Keys(after)))
			}

			if keep == "" {
				for what, r := range map[string]*ToolResult{"screenshot": shot, "recording": rec} {
					if !r.IsError || !strings.Contains(r.Text, "symlink") {
						t.Errorf("%s into a symlinked session directory: %s, want it refused", what, resultText(r))
					}
				}
				return
			}
			if shot.IsError || rec.IsError {
				t.Fatalf("captures after the swap: %s; %s", resultText(shot), resultText(rec))
			}
			for _, f := range []string{"one.png", "two.png", "two.svg", "two.ansi", "two.txt", "rec.gif", "rec.cast"} {
				if fi, err := os.Lstat(filepath.Join(keep, "s1", f)); err != nil || !fi.Mode().IsRegular() {
					t.Errorf("%s is not in the directory that was checked (%s): %v", f, keep, err)
				}
			}
			// Reads go through the same directory.
			c, err := a.hub.readResource("session://s1/screenshots/two")
			if err != nil || c.Blob == nil {
				t.Errorf("reading the screenshot taken after the swap: %v", err)
			}
			// So does a session id claimed after the swap.
			a.sessions.mu.Lock()
			id := a.sessions.claimID()
			a.sessions.mu.Unlock()
			if fi, err := os.Lstat(filepath.Join(keep, id)); err != nil || !fi.IsDir() {
				t.Errorf("session %s claimed after the swap is not in %s: %v", id, keep, err)
			}
		})
	}
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
