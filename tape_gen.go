package main

// tape_gen.go: the tape of a session (session://{id}/tape): what the
// agent did, in VHS's tape language with ttywright's assertions. A
// header sets the session's shell and a size that the tape runner maps
// back to the session's exactly (FontSize 16 and Padding 0: a cell is
// 8x16 pixels); then each step's tape commands follow, as its tool's
// step form made them (a shell_send's typing and its waits as
// assertions, a shell_click's Click, tools_tape.go), written by
// tapeCmd.String. What a tape cannot replay is a comment that says so.

import (
	"cmp"
	"strings"
)

// tapeCellW and tapeCellH are a cell's size in pixels at FontSize 16 and
// Padding 0, which the header sets.
const (
	tapeCellW = 8
	tapeCellH = 16
)

// genTape writes t's steps as a tape: the header, each step's tape
// commands, runs of one key command merged into one with a count, and a
// comment for each step it leaves out (a call that failed, or one past
// the trace's limit).
func genTape(t *sessionTrace) string {
	m := t.Meta()
	cmds := []tapeCmd{
		tapeComment("Session %s (%s) as a tape, written by ttywright: replay it with ttywright test.", m.ID, strings.Join(append([]string{m.Command}, m.Args...), " ")),
		tapeComment("It checks what the session saw: each command's exit code (Wait+Command exit=N) and the last lines of its output (Expect, numbers masked), and each text the agent waited for (Expect)."),
		{Name: "Set", Setting: "Shell", Text: cmp.Or(m.Shell, "bash")},
		{Name: "Set", Setting: "FontSize", Num: 16},
		{Name: "Set", Setting: "Padding", Num: 0},
		{Name: "Set", Setting: "Width", Num: float64(m.Cols * tapeCellW)},
		{Name: "Set", Setting: "Height", Num: float64(m.Rows * tapeCellH)},
		{Name: "Set", Setting: "TypingSpeed"}, // none: shell_send writes its text at once (Type@ keeps a type_delay_ms)
	}
	asserted := 0 // the newest command a Wait+Command asserted
	for _, s := range t.Steps() {
		switch {
		case s.Command > 0 && s.Command <= asserted:
			cmds = append(cmds, withoutCommandWait(s.Tape, s.Command)...)
		case s.Cut:
			cmds = append(cmds, tapeComment("step %d (%s): its arguments were not kept (the trace's limit), so it is left out", s.N, s.Tool))
		case s.Error != "":
			first, _, _ := strings.Cut(s.Error, "\n")
			cmds = append(cmds, tapeComment("step %d: %s failed, left out: %s", s.N, s.Tool, first))
		default:
			cmds = append(cmds, s.Tape...)
			asserted = max(asserted, s.Command)
		}
	}
	var b strings.Builder
	for _, c := range mergeKeys(cmds) {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// mergeKeys returns cmds with each run of one key command (Down, Down,
// Down) merged into one with the count (Down 3).
func mergeKeys(cmds []tapeCmd) []tapeCmd {
	var out []tapeCmd
	for _, c := range cmds {
		if n := len(out); n > 0 && isTapeKey(c.Name) && !c.HasSpeed && out[n-1].Name == c.Name && !out[n-1].HasSpeed {
			out[n-1].Count += c.Count
			continue
		}
		out = append(out, c)
	}
	return out
}

// withoutCommandWait is a step's tape commands with its Wait+Command (and
// the output checks after it) replaced by a comment: the command it
// waited for, n, was asserted by a step before, and a replay waits for
// the next command at each Wait+Command.
func withoutCommandWait(tape []tapeCmd, n int) []tapeCmd {
	var out []tapeCmd
	skipping := false
	for _, c := range tape {
		switch {
		case c.Name == "Wait" && c.Variant == "Command":
			out = append(out, tapeComment("command %d had ended already (already_done): the Wait+Command above checked it", n))
			skipping = true
			continue
		case skipping && c.Name == "Expect" && c.Variant == "" && !c.HasSpeed:
			continue // that command's output checks
		}
		skipping = false
		out = append(out, c)
	}
	return out
}
