package probe

// flood.go: a flood of output read to its end, as bench/load and
// bench/compare type it.

import (
	"fmt"
	"time"
)

// SeqBytes is the size of `seq 1 200000`'s output, the flood of SeqFlood.
const SeqBytes = 1288895

// PlainBash is shell_start's arguments for a bash without rc files or
// shell integration, prompt "$ ".
func PlainBash() map[string]any {
	return map[string]any{"command": "bash", "args": []string{"--norc", "--noprofile", "-i"},
		"env": map[string]string{"PS1": "$ ", "HISTFILE": "/dev/null"}, "shell_integration": false}
}

// SeqFlood types `seq 1 200000` into the PlainBash of session id and returns
// the time until its last line is on the screen: the session's output
// read to the end, as a client waits for it.
func SeqFlood(c *Client, id string) (time.Duration, error) {
	t0 := time.Now()
	r, err := c.Tool("shell_send", map[string]any{"session_id": id, "text": "seq 1 200000\n", "wait_for": "/^200000$/", "timeout_ms": 120000})
	if err == nil && r["matched"] != true {
		err = fmt.Errorf("seq never finished: %v", r)
	}
	return time.Since(t0), err
}
