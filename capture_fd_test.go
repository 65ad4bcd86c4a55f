package main

// capture_fd_test.go: the capture store holds one descriptor, the output
// directory's, and no operation leaks another.

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// openFDs counts this process's open descriptors (Linux).
func openFDs(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	return len(entries)
}

// TestCaptureStoreDescriptors runs every kind of store operation, those
// that fail included, and counts descriptors after each: at most one more
// than before (the held output directory), none more after close; a
// closed store refuses every operation and opens nothing.
func TestCaptureStoreDescriptors(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts /proc/self/fd")
	}
	base := t.TempDir()
	out := filepath.Join(base, "out")
	a := newApp(Config{Theme: "one-dark", Cols: 20, Rows: 4, Scale: 1, OutputDir: out})
	s := addRecSession(a, "s1", 20, 4)
	s.term.Write([]byte("hello"))
	addRecSession(a, "linked", 20, 4)
	// An os.Root left open is closed by its finalizer: let those of
	// earlier tests run now, and no collection run during this test, or it
	// would hide a leak.
	runtime.GC()
	runtime.GC()
	time.Sleep(50 * time.Millisecond)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := openFDs(t)

	for _, op := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"screenshot", func(t *testing.T) {
			if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"one"}`); r.IsError {
				t.Fatal(r.Text)
			}
		}},
		{"recording", func(t *testing.T) {
			if r := callTool(t, a, "shell_record_start", `{"session_id":"s1","name":"rec"}`); r.IsError {
				t.Fatal(r.Text)
			}
			s.mu.Lock()
			s.term.Write([]byte(" world"))
			s.mu.Unlock()
			if r := callTool(t, a, "shell_record_stop", `{"session_id":"s1","format":"both"}`); r.IsError {
				t.Fatal(r.Text)
			}
		}},
		{"recording kept as gif only", func(t *testing.T) {
			callTool(t, a, "shell_record_start", `{"session_id":"s1","name":"rec2"}`)
			callTool(t, a, "shell_record_stop", `{"session_id":"s1","format":"gif"}`)
		}},
		{"reads and lists", func(t *testing.T) {
			for _, uri := range []string{"session://s1/screenshots/one", "session://s1/recordings/rec", "session://s1/screenshots",
				"session://s1/recordings", "sessions://list", "session://s1/screenshots/missing"} {
				a.hub.readResource(uri)
			}
		}},
		{"claim and release", func(t *testing.T) {
			a.sessions.mu.Lock()
			id := a.sessions.claimID()
			a.sessions.mu.Unlock()
			a.store.releaseDir(id)
		}},
		{"refused session symlink", func(t *testing.T) {
			must(t, os.Symlink("s1", filepath.Join(out, "linked")))
			if r := callTool(t, a, "shell_screenshot", `{"session_id":"linked"}`); !r.IsError {
				t.Fatal("a screenshot into a symlinked session directory was taken")
			}
			callTool(t, a, "shell_record_start", `{"session_id":"linked"}`)
		}},
		{"refused at the cap", func(t *testing.T) {
			a.store.setMaxBytes(1) // the refusal counts the directories again first
			if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1"}`); !r.IsError {
				t.Error("a screenshot past a 1-byte cap was taken")
			}
			callTool(t, a, "shell_record_start", `{"session_id":"s1"}`)
			a.store.setMaxBytes(0)
		}},
		{"bad names", func(t *testing.T) {
			callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"../x"}`)
			a.store.read(Capture{Path: "/etc/passwd"})
		}},
		{"removed output directory", func(t *testing.T) {
			must(t, os.RemoveAll(out))
			if r := callTool(t, a, "shell_screenshot", `{"session_id":"s1","name":"again"}`); r.IsError {
				t.Fatalf("after rm -rf: %s", r.Text)
			}
			if _, err := os.Stat(filepath.Join(out, "s1", "again.png")); err != nil {
				t.Errorf("the removed output directory was not made again: %v", err)
			}
		}},
	} {
		op.run(t)
		if n := openFDs(t); n > before+1 {
			t.Errorf("after %s: %d descriptors open, %d before: %d leaked", op.name, n, before, n-before-1)
		}
	}

	must(t, a.store.close())
	if n := openFDs(t); n > before {
		t.Errorf("after close: %d descriptors open, %d before", n, before)
	}
	if err := a.store.write("s1", "late.txt", []byte("x")); !errors.Is(err, errStoreClosed) {
		t.Errorf("write after close: %v, want errStoreClosed", err)
	}
	if _, err := a.store.read(Capture{Path: filepath.Join(out, "s1", "one.png")}); err == nil {
		t.Error("read after close succeeded")
	}
	if n := openFDs(t); n > before {
		t.Errorf("operations after close opened descriptors: %d open, %d before", n, before)
	}
	must(t, a.store.close()) // twice is fine
}
