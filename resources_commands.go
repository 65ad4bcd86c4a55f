package main

// resources_commands.go: session://{id}/commands and .../commands/{n},
// the commands a shell with integration finished (session_commands.go
// reads them from its marks).

import (
	"fmt"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// commandJSON is one entry of session://{id}/commands.
type commandJSON struct {
	N           int       `json:"n"`
	Line        string    `json:"line"`
	ExitCode    *int      `json:"exit_code"`
	Started     time.Time `json:"started"`
	DurationMS  int64     `json:"duration_ms"`
	Cwd         string    `json:"cwd"`
	OutputBytes int       `json:"output_bytes"`
	URI         string    `json:"uri"`
	By          string    `json:"by,omitempty"` // "person": typed by a person who held the keyboard; left out for the agent
}

func commandList(id string, cmds []*command) []commandJSON {
	out := make([]commandJSON, 0, len(cmds))
	for _, c := range cmds {
		out = append(out, commandJSON{N: c.n, Line: c.line, ExitCode: c.exitCode, Started: c.started.UTC(),
			DurationMS: c.ended.Sub(c.started).Milliseconds(), Cwd: c.cwd, OutputBytes: c.outBytes, URI: commandURI(id, c.n).String(), By: c.by})
	}
	return out
}

// commands returns the session's finished commands, oldest first.
func (v *resSess) commands() []*command {
	if v.live != nil {
		return v.live.commandsCopy()
	}
	return v.stopped.commands
}

// commandOutput is session://{id}/commands/{n}: the output as kept, the
// truncation marker first when its oldest part was lost.
func (v *resSess) commandOutput(name string) (string, bool) {
	for _, c := range v.commands() {
		if strconv.Itoa(c.n) == name {
			if c.cut {
				return truncatedMarker + c.output, true
			}
			return c.output, true
		}
	}
	return "", false
}

// commandResources are the resources/list entries of a session's
// commands: the list, then each finished command.
func commandResources(id, label string, cmds []*command) []resourceJSON {
	out := []resourceJSON{{URI: commandsURI(id).String(), Name: id + "/commands", Title: label + " commands", MimeType: "application/json",
		Description: fmt.Sprintf("The commands the shell finished (the newest %d): n, line, exit_code, started, duration_ms, cwd, output_bytes, uri, and by \"person\" for a command a person typed.", maxCommands)}}
	for _, c := range cmds {
		out = append(out, resourceJSON{URI: commandURI(id, c.n).String(), Name: fmt.Sprintf("%s/commands/%d", id, c.n),
			Title: "Command " + strconv.Itoa(c.n), MimeType: "text/plain", Size: int64(c.outBytes),
			Description: fmt.Sprintf("Output of %q (exit %s) in session %s.", clip(c.line, 80), exitText(c.exitCode), id)})
	}
	return out
}

// clip shortens s to at most n bytes at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// completeCommandNumbers lists the command numbers of session id (of
// every session when id is ""), newest first.
func (h *mcpHub) completeCommandNumbers(id string) []string {
	var out []string
	for _, s := range h.completionSessions(id) {
		cmds := s.commands()
		for i := len(cmds) - 1; i >= 0; i-- {
			if n := strconv.Itoa(cmds[i].n); !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}
