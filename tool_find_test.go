package main

// tool_find_test.go: a waiting find searches again only what changed,
// and finds what a fresh search finds; the matches kept past the cap.

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// TestFindCacheSameAsFresh: after each step of a stream that scrolls,
// erases, switches screens, clears the history, links and resizes, a
// query that searched every step before finds what a fresh one finds.
func TestFindCacheSameAsFresh(t *testing.T) {
	t.Parallel()
	steps := []string{
		"needle 1\r\nhay\r\n",
		"needle 2\r\nneedle 3 \x1b[7mneedle\x1b[m\r\n",
		"\x1b[2;1H\x1b[2K",     // erase a row holding a match
		"\x1b[1;1Hneedle over", // overwrite in place
		"\x1b]8;;https://x.test/\x1b\\needle\x1b]8;;\x1b\\\r\n",
		"\x1b[?1049hneedle on alt\r\n", // the alternate screen
		"\x1b[?1049l",
		"\r\n\r\n\r\n\r\n\r\n\r\n", // scroll the matches into the history
		"\x1b[3J",                  // clear the history
		"needle after\r\n\r\n\r\n\r\n\r\n",
		"resize 30 4",
		"needle wide\r\n",
		"resize 20 6",
	}
	for _, scrollback := range []bool{false, true} {
		for _, style := range []*styleFilter{nil, {Style: Style{Reverse: new(bool)}}, {Selected: new(true)}} {
			term := NewTerminal(20, 5, 100)
			q, _ := parseFind("needle", style)
			q.scrollback = scrollback
			for i, step := range steps {
				var cols, rows int
				if _, err := fmt.Sscanf(step, "resize %d %d", &cols, &rows); err == nil {
					term.Resize(cols, rows)
				} else {
					term.Write([]byte(step))
				}
				fresh, _ := parseFind("needle", style)
				fresh.scrollback = scrollback
				if got, want := q.findLocked(term), fresh.findLocked(term); !reflect.DeepEqual(got, want) {
					t.Errorf("scrollback %v, style %v, after step %d %q:\n got %+v\nwant %+v", scrollback, style != nil, i, step, got, want)
				}
			}
		}
	}
}

// TestFindKeepsScreenMatches: past the cap, the matches kept are the
// screen's first, then the history's nearest the screen, and the result
// says it was cut.
func TestFindKeepsScreenMatches(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	id := start(t, a, "sh", "-c", "seq 1 1000; exec cat") // reads: shell_start returns at once
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "1000"})
	m := mustCall(t, a, "shell_find", map[string]any{"session_id": id, "text": "/[0-9]+/", "scrollback": true})
	ms := m["matches"].([]any)
	last := ms[len(ms)-1].(map[string]any)
	if len(ms) != maxFindMatches || m["truncated"] != true || last["text"] != "1000" || m["count"].(float64) < 1000 {
		t.Errorf("%d matches, truncated %v, count %v, last %v: want the %d nearest the screen, the screen's included", len(ms), m["truncated"], m["count"], last, maxFindMatches)
	}
	if first := ms[0].(map[string]any); first["row"].(float64) >= 0 || !strings.HasPrefix(first["text"].(string), "8") {
		t.Errorf("first kept match %v: want the history row %d lines above the end", first, maxFindMatches)
	}
}

// BenchmarkFindWaiting is one wake of a waiting find on a full 1000x500
// screen after the program rewrote one row: searched again only where it
// changed (cached), and searched whole (fresh) as before.
func BenchmarkFindWaiting(b *testing.B) {
	term := NewTerminal(1000, 500, 1000)
	line := strings.Repeat("word ", 199) + "\r\n"
	for range 600 {
		term.Write([]byte(line))
	}
	for _, mode := range []string{"cached", "fresh"} {
		b.Run(mode, func(b *testing.B) {
			q, _ := parseFind("never-shown", nil)
			q.findLocked(term)
			for i := 0; b.Loop(); i++ {
				term.Write(fmt.Appendf(nil, "\x1b[1;1Hclock %d", i))
				if mode == "fresh" {
					q.cache = findCache{}
				}
				q.findLocked(term)
			}
		})
	}
}

// TestFindSelectedInRealPrograms: one locator, style {selected: true},
// finds the highlighted item of htop (a coloured bar), mc (a cyan bar in
// a blue panel), dialog's menu, and a select-style menu drawn in reverse
// video or with a background colour, each the real program in a
// pseudo-terminal; and a row not selected is not among the matches.
func TestFindSelectedInRealPrograms(t *testing.T) {
	t.Parallel()
	menu := `printf 'Pick a fruit:\n%s\n  banana\n  cherry\n'; exec cat >/dev/null`
	tests := []struct {
		name, program string
		args          []string
		want, avoid   string // text on the selected row; text on a row that is not
	}{
		{"htop", "sh", []string{"-c", "exec htop -p $$"}, "htop", "Load average"},
		{"mc", "mc", []string{"--nosubshell", "."}, "..", "alpha.txt"},
		{"dialog", "dialog", []string{"--menu", "Pick a fruit", "12", "40", "3", "1", "Apple", "2", "Banana", "3", "Cherry"}, "Apple", "Banana"},
		{"reverse video", "sh", []string{"-c", strings.Replace(menu, "%s", `\033[7m> apple \033[m`, 1)}, "> apple", "banana"},
		{"background", "sh", []string{"-c", strings.Replace(menu, "%s", `\033[48;5;24m> apple      \033[m`, 1)}, "> apple", "banana"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			needProgram(t, tt.program)
			a := newTestApp(t)
			home := t.TempDir()
			for _, f := range []string{"alpha.txt", "bravo.txt"} {
				if err := os.WriteFile(filepath.Join(home, f), []byte("x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			m := mustCall(t, a, "shell_start", map[string]any{"command": tt.program, "args": tt.args, "cwd": home,
				"env": map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_DATA_HOME": filepath.Join(home, ".local")}})
			id := m["shell_session_id"].(string)
			t.Cleanup(func() {
				if s, err := a.tools.session(id); err == nil {
					a.tools.stopSession(s, syscall.SIGKILL)
				}
			})
			sel := map[string]any{"selected": true}
			m = mustCall(t, a, "shell_find", map[string]any{"session_id": id, "text": tt.want, "style": sel, "timeout_ms": 15000})
			if n, _ := m["count"].(float64); n == 0 {
				r, _ := call(t, a, "shell_read", map[string]any{"session_id": id, "format": "styled"})
				t.Fatalf("no selected %q: %v\n%s", tt.want, m, r.Text)
			}
			m = mustCall(t, a, "shell_find", map[string]any{"session_id": id, "text": tt.avoid, "style": sel})
			if n, _ := m["count"].(float64); n != 0 {
				t.Errorf("%q found as selected: %v", tt.avoid, m)
			}
		})
	}
}
