package main

// tools_tape.go: the tape forms the tools' steps share, as tapeCmd values
// that tapeCmd.String writes (tape_format.go): text typed as Type and key
// commands, a key name as a key command, and a call's waits as the
// assertions a replay checks. A wait that held in the session is an
// assertion, so that a replay checks the same outcome; one that timed out
// is a pause and a comment, since the replay would fail where the session
// went on.

import (
	"cmp"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// typeTape is text as a tape types it: printable runs as Type commands
// (speed, when not 0, as their @time), CR, LF and CRLF as Enter, the
// other control characters and the cursor and editing keys' escape
// sequences as their key commands.
func typeTape(text string, speed time.Duration) []tapeCmd {
	var out []tapeCmd
	var run strings.Builder
	flush := func() {
		for _, part := range tapeSplit(run.String()) {
			out = append(out, tapeCmd{Name: "Type", Text: part, Speed: speed, HasSpeed: speed > 0, Count: 1})
		}
		run.Reset()
	}
	for i := 0; i < len(text); {
		if k, n := controlKey(text[i:]); n > 0 {
			flush()
			if k.Name == "" {
				out = append(out, tapeComment("byte %#02x has no tape command: it is left out", text[i]))
			} else {
				out = append(out, k)
			}
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		run.WriteRune(r)
		i += n
	}
	flush()
	return out
}

// tapeSplit cuts s into parts that a tape string can hold: a text holding
// all three quote characters cannot be one.
func tapeSplit(s string) []string {
	var out []string
	for s != "" {
		// The longest prefix missing one of the quotes.
		best := 0
		for _, q := range []string{`"`, `'`, "`"} {
			i := strings.Index(s, q)
			if i < 0 {
				i = len(s)
			}
			best = max(best, i)
		}
		out = append(out, s[:best])
		s = s[best:]
	}
	return out
}

// keySeqs are the escape sequences xterm sends for the named keys, in
// normal and application cursor mode, and back tab: what controlKey reads
// back. Built from xtermKeys on first use.
var keySeqs = sync.OnceValue(func() map[string]string {
	m := map[string]string{"\x1b[Z": "S-Tab"}
	for _, k := range xtermKeys {
		if k.plain == "" {
			m[k.bytes(0, false)] = k.name
			m[k.bytes(0, true)] = k.name
		}
	}
	return m
})

// controlKey reads the key at the start of s when it is a control
// character or a key's escape sequence: its tape command (Name "" for a
// byte a tape cannot name) and length; 0 when s starts with a printable
// character.
func controlKey(s string) (tapeCmd, int) {
	key := func(name string) tapeCmd { c, _ := keyTape(name); return c }
	switch c := s[0]; {
	case c == '\r' && strings.HasPrefix(s, "\r\n"):
		return key("Enter"), 2
	case c == '\r' || c == '\n':
		return key("Enter"), 1
	case c == '\t':
		return key("Tab"), 1
	case c == 0x7f || c == 0x08:
		return key("Backspace"), 1
	case c == 0x1b:
		for n := min(len(s), 5); n >= 3; n-- { // the longest is CSI 2 4 ~
			if name, ok := keySeqs()[s[:n]]; ok {
				return key(name), n
			}
		}
		return key("Escape"), 1
	case c >= 1 && c <= 26:
		return key("C-" + string(rune('a'+c-1))), 1
	case c < 0x20:
		return tapeCmd{}, 1
	}
	return tapeCmd{}, 0
}

// keyTape is the tape command for a shell_send key name ("C-c", "^C",
// "M-x", "S-Tab", "pgdn", "q"): a key command (PageDown), a combination
// (Ctrl, Alt or Shift with the key tapeCombo makes of it, as the tape
// parser would read it back), or for one character alone, Type. False
// for a name a tape cannot hold: an unknown key, or a combination with a
// character outside ASCII.
func keyTape(name string) (tapeCmd, bool) {
	mods, base, err := splitKeyName(name)
	if err != nil {
		return tapeCmd{}, false
	}
	if base == " " {
		base = "Space" // a tape cannot end a line with Alt+ and a blank
	}
	if k, ok := keyNamed(base); ok {
		base = k.name
	} else if r, size := utf8.DecodeRuneInString(base); base == "" || size != len(base) || !unicode.IsPrint(r) || mods != 0 && r >= utf8.RuneSelf {
		return tapeCmd{}, false
	} else if mods == 0 {
		return tapeCmd{Name: "Type", Text: base, Count: 1}, true
	}
	if mods == 0 {
		return tapeCmd{Name: base, Count: 1}, true
	}
	var prefix, first string
	for _, m := range []struct {
		bit        int
		pre, cname string
	}{{modCtrl, "C-", "Ctrl"}, {modAlt, "M-", "Alt"}, {modShift, "S-", "Shift"}} {
		if mods&m.bit != 0 {
			prefix += m.pre
			first = cmp.Or(first, m.cname)
		}
	}
	return tapeCmd{Name: first, Keys: []string{tapeCombo(prefix, base)}, Count: 1}, true
}

// keysTape is shell_send's keys as tape commands; a key a tape cannot
// hold is a comment that says it is left out.
func keysTape(keys []string) []tapeCmd {
	var out []tapeCmd
	for _, k := range keys {
		if c, ok := keyTape(k); ok {
			out = append(out, c)
		} else {
			out = append(out, tapeComment("key %s has no tape command: it is left out", k))
		}
	}
	return out
}

// waitTape writes a call's waits as assertions, in the order the tools
// hold them. sent: the call typed, and without a wait paused delayMS
// (nil: defaultDelayMS).
func waitTape(w WaitArgs, e waitEnd, sent bool, delayMS *int) []tapeCmd {
	var at time.Duration
	if w.TimeoutMS != nil {
		at = msDuration(*w.TimeoutMS)
	}
	waited := w.WaitForCommand || w.WaitFor != nil || w.WaitForGone != nil || w.WaitIdleMS != nil || w.WaitStableMS != nil || w.WaitForInput
	switch {
	case !waited && sent:
		return []tapeCmd{sleepTape(derefOr(delayMS, defaultDelayMS))}
	case !waited:
		return nil
	case e.TimedOut:
		return []tapeCmd{tapeComment("the wait here timed out in the session, so it is no assertion"),
			sleepTape(derefOr(w.TimeoutMS, defaultTimeoutMS))}
	}
	var out []tapeCmd
	if w.WaitForCommand {
		out = append(out, commandTape(at, e)...)
	}
	if w.WaitFor != nil && *w.WaitFor != "" {
		out = append(out, expectTape("", at, *w.WaitFor))
	}
	if w.WaitForGone != nil && *w.WaitForGone != "" {
		out = append(out, expectTape("Gone", at, *w.WaitForGone))
	}
	if w.WaitForInput {
		out = append(out, tapeCmd{Name: "Wait", Variant: "Input", Speed: at, HasSpeed: at > 0, Count: 1})
	}
	if n := max(derefOr(w.WaitIdleMS, 0), derefOr(w.WaitStableMS, 0)); n > 0 {
		out = append(out, sleepTape(n))
	}
	return out
}

// commandTape is wait_for_command's outcome: Wait+Command exit=N for a
// command that ended, a pause and a comment otherwise.
func commandTape(at time.Duration, e waitEnd) []tapeCmd {
	switch {
	case e.exitCode() != nil:
		code := *e.exitCode()
		out := []tapeCmd{{Name: "Wait", Variant: "Command", Exit: &code, Speed: at, HasSpeed: at > 0, Count: 1}}
		for _, l := range e.lastLines {
			out = append(out, tapeCmd{Name: "Expect", Regex: maskedLine(l), Count: 1})
		}
		return out
	case e.NoCommand:
		return []tapeCmd{tapeComment("the shell ran no command for this line"), sleepTape(200)}
	case e.WaitingFor != "":
		return []tapeCmd{tapeComment("the command stopped to read a %s here", e.WaitingFor), sleepTape(200)}
	}
	return []tapeCmd{{Name: "Wait", Variant: "Command", Speed: at, HasSpeed: at > 0, Count: 1}}
}

// sleepTape is Sleep of ms milliseconds.
func sleepTape(ms int) tapeCmd { return tapeCmd{Name: "Sleep", Dur: msDuration(ms), Count: 1} }

// msDuration is ms milliseconds.
func msDuration(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }

// derefOr is *p, or def for nil.
func derefOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// expectTape is an Expect (variant "" or "Gone") of what an agent waited
// for: a "/re/flags" argument (as the tools read it, parseMatcher) as
// its regex with the flags written into it; anything else literally
// (expectText).
func expectTape(variant string, at time.Duration, arg string) tapeCmd {
	m, err := parseMatcher("wait_for", arg)
	if err != nil || m == nil || m.re == nil {
		return expectText(variant, at, arg)
	}
	j := strings.LastIndexByte(arg, '/')
	expr, flags := arg[1:j], ""
	for _, f := range "isU" {
		if strings.ContainsRune(arg[j+1:], f) {
			flags += string(f)
		}
	}
	if flags != "" {
		expr = "(?" + flags + ")" + expr
	}
	return tapeCmd{Name: "Expect", Variant: variant, Regex: slashEscaped(expr), Speed: at, HasSpeed: at > 0, Count: 1}
}

// expectText is an Expect (variant "" or "Gone") of the text s: the text
// itself, or, for one over lines or with all three quote characters (a
// tape string has no escapes), a regex that matches it literally.
func expectText(variant string, at time.Duration, s string) tapeCmd {
	c := tapeCmd{Name: "Expect", Variant: variant, Speed: at, HasSpeed: at > 0, Count: 1}
	if !strings.ContainsAny(s, "\r\n") && len(tapeSplit(s)) == 1 {
		c.Text = s
	} else {
		c.Regex = slashEscaped(strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(regexp.QuoteMeta(s)))
	}
	return c
}

// slashEscaped is the regex expr with each slash not yet escaped written
// \/, so that the tape's /regex/ ends where it should; an escape pair
// (\/, \\) is kept as it is.
func slashEscaped(expr string) string {
	var b strings.Builder
	for i := 0; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '\\' && i+1 < len(expr):
			b.WriteString(expr[i : i+2])
			i++
		case c == '/':
			b.WriteString(`\/`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// shellQuote quotes a word for bash when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// traceShell is the shell a session runs, as its trace and tape name it:
// the shell its integration found, or bash, zsh or fish by the program's
// name; "" for any other program.
func traceShell(command string, integ shellIntegration) string {
	if integ.Shell != "" {
		return integ.Shell
	}
	if base := filepath.Base(command); slices.Contains([]string{"bash", "zsh", "fish"}, base) {
		return base
	}
	return ""
}

// maskedRuns are what changes from run to run in a command's output:
// hex of 7 digits or more (hashes, ids), then numbers (sizes, times,
// counts), each matched by its kind rather than its value.
var maskedRuns = regexp.MustCompile(`[0-9a-f]{7,}|[0-9]+`)

// maskedLine is a regex that matches the output line l with its numbers
// and hashes masked (maskedRuns): a replay checks that the command printed
// the same words, whatever its clock and sizes say.
func maskedLine(l string) string {
	var b strings.Builder
	last := 0
	for _, m := range maskedRuns.FindAllStringIndex(l, -1) {
		b.WriteString(regexp.QuoteMeta(l[last:m[0]]))
		if run := l[m[0]:m[1]]; len(run) >= 7 && strings.ContainsAny(run, "abcdef") {
			b.WriteString(`[0-9a-f]+`)
		} else {
			b.WriteString(`[0-9]+`)
		}
		last = m[1]
	}
	b.WriteString(regexp.QuoteMeta(l[last:]))
	return slashEscaped(b.String())
}
