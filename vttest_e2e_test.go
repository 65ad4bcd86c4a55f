package main

// vttest_e2e_test.go: vttest, run in a real session, prints what it makes
// of each report it asks for (menu 6 and the VT220 reports of menu 11).

import (
	"os/exec"
	"strings"
	"testing"
)

// TestVttestReports drives vttest's report menus and checks every screen
// shows a valid report (vttest's own verdicts: "OK", "ok", the decoded
// meaning), not "failed", "Bad format" or "no response".
func TestVttestReports(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("drives vttest through 16 screens (about 3 s)")
	}
	if _, err := exec.LookPath("vttest"); err != nil {
		t.Skip("vttest is not installed")
	}
	a := newTestApp(t)
	id := start(t, a, "vttest")
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "Enter choice number", "timeout_ms": 10000})
	// send types input and waits for waitFor, returning the screen.
	send := func(input, waitFor string) string {
		t.Helper()
		m := mustCall(t, a, "shell_send", map[string]any{"session_id": id, "input": input, "wait_for": waitFor, "timeout_ms": 10000})
		screen, _ := m["bufferAfter"].(string)
		if m["matched"] != true {
			t.Fatalf("after %q no %q on the screen:\n%s", input, waitFor, screen)
		}
		return screen
	}
	tests := []struct {
		menu  string   // choices from the menu the test starts in, the last one the test
		wants []string // what the report screen must show
	}{
		{"6", nil},
		{"3", []string{`<27> [ 0 n  -- means "TERMINAL OK"`, "<27> [ 5 ; 1 R  -- OK"}},
		{"4", []string{"<27> [ ? 6 2 ; 6 ; 2 1 ; 2 2 c  VT200 family", "6 = selective erase", "21 = horizontal scrolling", "22 = color"}},
		{"5", []string{"<27> [ > 1 ; 1 0 ; 0 c", "Pp=1 (VT220)"}},
		{"6", []string{"<27> P ! | 0 0 0 0 0 0 0 0 <27> \\  ok"}},
		{"7", []string{"<27> [ 2 ; 1 ; 1 ; 1 2 8 ; 1 2 8 ; 1 ; 0 x  -- OK", "<27> [ 3 ; 1 ; 1 ; 1 2 8 ; 1 2 8 ; 1 ; 0 x  -- OK"}},
		{"0", nil},
		{"11", nil}, {"1", nil},
		{"3", []string{"8-bit controls enabled: <155> 1 ; 1 R  ok", "8-bit controls disabled: <27> [ 1 ; 1 R  ok"}},
		{"1", nil}, {"1", nil},
		{"2", []string{"<27> [ 0 n  Terminal is in good operating condition"}},
		{"3", []string{"<27> [ ? 1 3 n  No printer"}},
		{"4", []string{"<27> [ ? 2 1 n  UDKs locked"}},
		{"1", []string{"<27> [ ? 2 7 ; 1 n  North American/ASCII"}},
	}
	for _, tc := range tests {
		if tc.wants == nil { // a submenu
			send(tc.menu+"\r", "Enter choice number")
			continue
		}
		screen := send(tc.menu+"\r", "Push <RETURN>")
		for _, w := range tc.wants {
			if !strings.Contains(screen, w) {
				t.Errorf("vttest test %s: no %q on the screen:\n%s", tc.menu, w, screen)
			}
		}
		for _, bad := range []string{"failed", "Bad format", "no response", "unknown"} {
			if strings.Contains(screen, bad) {
				t.Errorf("vttest test %s reports %q:\n%s", tc.menu, bad, screen)
			}
		}
		send("\r", "Enter choice number")
	}
}
