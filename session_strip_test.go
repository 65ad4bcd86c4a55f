package main

// session_strip_test.go: the integration's marks never leave the
// emulator: markStrip on its own, split at every byte and fuzzed, and a
// real shell's raw read and recording.

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

const testNonce = "N0NCE7TEST"

// TestMarkStrip: each of the integration's marks is removed whole, with
// BEL or ST, wherever the reads split it; a program's own OSC 133 and 7,
// a longer token and other sequences stay as they were.
func TestMarkStrip(t *testing.T) {
	t.Parallel()
	ours := "\x1b]133;A;tw_nonce=" + testNonce + "\x07"
	tests := []struct {
		name, in, want string
	}{
		{"prompt mark", "a" + ours + "b", "ab"},
		{"command line", "\x1b]133;C;tw_nonce=" + testNonce + ";cmdline_url=make%20test\x07out", "out"},
		{"exit status with ST", "\x1b]133;D;tw_nonce=" + testNonce + ";0\x1b\\$ ", "$ "},
		{"cwd", "\x1b]7;tw_nonce=" + testNonce + ";file://h/tmp\x07x", "x"},
		{"nonce alone", "\x1b]133;B;tw_nonce=" + testNonce + "\x1b\\", ""},
		{"program's own mark", "\x1b]133;A\x07\x1b]7;file://h/x\x07", "\x1b]133;A\x07\x1b]7;file://h/x\x07"},
		{"another nonce", "\x1b]133;A;tw_nonce=OTHER\x07", "\x1b]133;A;tw_nonce=OTHER\x07"},
		{"longer token", "\x1b]133;A;tw_nonce=" + testNonce + "X\x07", "\x1b]133;A;tw_nonce=" + testNonce + "X\x07"},
		{"colours around", "\x1b[1m" + ours + "\x1b[0m\x1b]0;title\x07", "\x1b[1m\x1b[0m\x1b]0;title\x07"},
		{"ESC inside a prefix", "\x1b]133\x1b[31mred", "\x1b]133\x1b[31mred"},
		{"ESC ends a mark", "\x1b]133;A;tw_nonce=" + testNonce + ";x\x1b[31mred", "\x1b[31mred"},
		{"CAN aborts a mark", "\x1b]133;A;tw_nonce=" + testNonce + ";x\x18after", "after"},
		{"two marks", ours + ours + "z", "z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for split := 0; split <= len(tt.in); split++ {
				f := newMarkStrip(testNonce)
				got := f.filter(nil, []byte(tt.in[:split]))
				got = f.filter(got, []byte(tt.in[split:]))
				got = append(got, f.held...) // what a later read would release
				if string(got) != tt.want {
					t.Errorf("split at %d: %q, want %q", split, got, tt.want)
				}
			}
		})
	}
	if newMarkStrip("") != nil {
		t.Error("a filter without a nonce")
	}
}

// FuzzMarkStrip: a program's output with marks of ours put in at any
// places comes out as the output alone, however the stream is split (an
// output that holds the nonce itself is left out: only the shell knows it).
func FuzzMarkStrip(f *testing.F) {
	f.Add([]byte("ab"), []byte{1}, 3)
	f.Add([]byte("\x1b]133;A\x07\x1b]7;file://x\x1b\\"), []byte{0, 5, 9}, 10)
	f.Add([]byte("\x1b]133;A;tw_no"), []byte{14}, 20)
	marks := []string{"\x1b]133;A;tw_nonce=" + testNonce + "\x07", "\x1b]133;C;tw_nonce=" + testNonce + ";cmdline_url=x%20y\x1b\\",
		"\x1b]133;D;tw_nonce=" + testNonce + ";1\x07", "\x1b]7;tw_nonce=" + testNonce + ";file://h/\x07"}
	f.Fuzz(func(t *testing.T, out, at []byte, split int) {
		if bytes.Contains(out, []byte(testNonce)) {
			t.Skip()
		}
		var in []byte
		last := 0
		for i, a := range at {
			pos := max(last, int(a)%(len(out)+1))
			in = append(append(in, out[last:pos]...), marks[i%len(marks)]...)
			last = pos
		}
		in = append(in, out[last:]...)
		g := newMarkStrip(testNonce)
		if split < 0 || split > len(in) {
			split = len(in) / 2
		}
		got := g.filter(nil, in[:split])
		got = append(g.filter(got, in[split:]), g.held...)
		if !bytes.Equal(got, out) {
			t.Fatalf("stream %q split at %d: %q, want %q", in, split, got, out)
		}
	})
}

// TestIntegrationMarksNotRecorded: with the integration on, a raw read
// and an asciicast hold neither the nonce nor the command lines from the
// marks; a program's own OSC 133 stays.
func TestIntegrationMarksNotRecorded(t *testing.T) {
	t.Parallel()
	for _, sh := range integratedShells {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			a := newTestApp(t)
			id := startShell(t, a, sh.name, "", sh.args, nil)
			s, _ := a.tools.session(id)
			mustCall(t, a, "shell_record_start", map[string]any{"session_id": id, "name": "marks"})
			runCommand(t, a, id, "echo secret-line-ok", nil)
			runCommand(t, a, id, `printf '\033]133;A\007own\n'`, nil)
			m := mustCall(t, a, "shell_record_stop", map[string]any{"session_id": id, "format": "cast"})
			raw, cut := s.RawTail(rawTailCap)
			if cut {
				t.Error("the raw read says older output was cut, and none was: the marks left out are not output lost")
			}
			cast, err := os.ReadFile(m["cast_path"].(string))
			if err != nil {
				t.Fatal(err)
			}
			var events strings.Builder
			for _, line := range strings.Split(strings.TrimSpace(string(cast)), "\n")[1:] {
				var ev []any
				if json.Unmarshal([]byte(line), &ev) == nil && len(ev) == 3 {
					events.WriteString(ev[2].(string))
				}
			}
			for what, text := range map[string]string{"raw read": string(raw), "cast": events.String()} {
				if strings.Contains(text, "tw_nonce") || strings.Contains(text, "cmdline_url") || strings.Contains(text, s.integ.nonce) {
					t.Errorf("%s holds the integration's marks: %q", what, text)
				}
				if !strings.Contains(text, "\x1b]133;A\x07own") {
					t.Errorf("%s lost the program's own mark: %q", what, text)
				}
			}
		})
	}
}
