package main

import (
	"os"
	"strings"
	"testing"
)

func TestVttestExplore(t *testing.T) {
	if os.Getenv("VTX") == "" {
		t.Skip()
	}
	a := newTestApp(t)
	id := start(t, a, "vttest")
	mustCall(t, a, "shell_wait", map[string]any{"session_id": id, "wait_for": "Enter choice number", "timeout_ms": 5000})
	for _, in := range strings.Split(os.Getenv("VTX"), ",") {
		args := map[string]any{"session_id": id, "wait_idle_ms": 400, "timeout_ms": 3000}
		if strings.HasPrefix(in, "K:") {
			args["keys"] = []string{in[2:]}
		} else {
			args["input"] = strings.ReplaceAll(in, "RET", "\r")
		}
		_, m := call(t, a, "shell_send", args)
		t.Logf("--- after %q\n%s", in, m["bufferAfter"])
	}
}
