package main

import (
	"os"
	"strconv"
	"strings"
)

// waitingForInput reports whether process pid is asleep waiting for
// input: reading a terminal or polling its descriptors
// (/proc/PID/wchan). shell_start counts such a program as ready.
func waitingForInput(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/wchan")
	if err != nil {
		return false
	}
	w := string(b)
	for _, p := range []string{"n_tty_read", "wait_woken", "poll_schedule_timeout", "do_select", "do_sys_poll", "core_sys_select", "ep_poll"} {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}
