package main

// tape_gen.go: the tape written from a session's steps
// (session://{id}/tape): what the agent did, in VHS's tape language with
// ttywright's assertions, the waits written as assertions so that a
// replay checks the same outcomes. A shell_send with wait_for_command is
// its typed line, Enter and Wait+Command exit=N (N from the reply), a
// wait_for an Expect, a wait_for_gone an Expect+Gone, a shell_click a
// Click, a screenshot a Screenshot; keys are VHS's key commands, with
// counts. The header sets a size that the tape runner maps back to the
// session's exactly (FontSize 16 and Padding 0: a cell is 8x16 pixels).
// What a tape cannot replay (a resize, a secret a person typed) is a
// comment that says so.

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// tapeCellW and tapeCellH are a cell's size in pixels at FontSize 16 and
// Padding 0, which the header sets.
const (
	tapeCellW = 8
	tapeCellH = 16
)

// genTape writes t's steps as a tape.
func genTape(t *sessionTrace) string {
	g := &tapeGen{meta: t.Meta()}
	g.header()
	for _, s := range t.Steps() {
		g.step(s)
	}
	return g.b.String()
}

// tapeGen writes one tape: lines, with consecutive identical key
// commands merged into one with a count.
type tapeGen struct {
	meta    traceMeta
	b       strings.Builder
	key     string // the last key command written, while it may still take a count
	keyN    int
	typeFor string // "@<duration>" of the Type commands of the current step
}

// stepArgs are the arguments of the tools a tape replays.
type stepArgs struct {
	Command     string            `json:"command"`
	Args        []string          `json:"args"`
	Cwd         string            `json:"cwd"`
	Env         map[string]string `json:"env"`
	Text        string            `json:"text"`
	Input       string            `json:"input"`
	Keys        []string          `json:"keys"`
	TypeDelayMS *int              `json:"type_delay_ms"`
	DelayMS     *int              `json:"delay_ms"`
	Name        string            `json:"name"`
	Row         *int              `json:"row"`
	Col         *int              `json:"col"`
	Cols        int               `json:"cols"`
	Rows        int               `json:"rows"`
	Button      string            `json:"button"`
	Count       *int              `json:"count"`
	Nth         *int              `json:"nth"`
	WaitFor     *string           `json:"wait_for"`
	WaitForGone *string           `json:"wait_for_gone"`
	WaitIdle    *int              `json:"wait_idle_ms"`
	WaitStable  *int              `json:"wait_stable_ms"`
	WaitInput   bool              `json:"wait_for_input"`
	WaitCommand bool              `json:"wait_for_command"`
	TimeoutMS   *int              `json:"timeout_ms"`
}

// line writes one command line, ending a pending key run first.
func (g *tapeGen) line(format string, a ...any) {
	g.flushKey()
	fmt.Fprintf(&g.b, format+"\n", a...)
}

// comment writes a comment line (one line: newlines become spaces).
func (g *tapeGen) comment(format string, a ...any) {
	g.line("# %s", strings.NewReplacer("\r", " ", "\n", " ").Replace(fmt.Sprintf(format, a...))) // one line, whatever a name holds
}

// press adds one key command, merged with the one before it when equal.
func (g *tapeGen) press(key string) {
	if key == g.key {
		g.keyN++
		return
	}
	g.flushKey()
	g.key, g.keyN = key, 1
}

// flushKey writes the pending key run: "Down" or "Down 3".
func (g *tapeGen) flushKey() {
	if g.key == "" {
		return
	}
	if g.keyN > 1 {
		fmt.Fprintf(&g.b, "%s %d\n", g.key, g.keyN)
	} else {
		g.b.WriteString(g.key + "\n")
	}
	g.key, g.keyN = "", 0
}

// header writes the comment, the shell, the size and the typing speed:
// none, as shell_send writes its text at once (Type@ keeps a
// type_delay_ms).
func (g *tapeGen) header() {
	m := g.meta
	g.comment("Session %s (%s) as a tape, written by ttywright: replay it with ttywright test.", m.ID, strings.Join(append([]string{m.Command}, m.Args...), " "))
	g.line("Set Shell %s", tapeQuote(cmp.Or(m.Shell, "bash")))
	g.line("Set FontSize 16")
	g.line("Set Padding 0")
	g.line("Set Width %d", m.Cols*tapeCellW)
	g.line("Set Height %d", m.Rows*tapeCellH)
	g.line("Set TypingSpeed 0")
}

// step writes one step.
func (g *tapeGen) step(s traceStep) {
	var a stepArgs
	if err := json.Unmarshal(s.Args, &a); err != nil || strings.HasPrefix(string(s.Args), `{"cut":`) {
		g.comment("step %d (%s): its arguments were not kept (the trace's limit), so it is left out", s.N, s.Tool)
		return
	}
	if s.Reply.IsError {
		g.comment("step %d: %s failed, left out: %s", s.N, s.Tool, firstTapeLine(s.Reply.Error))
		return
	}
	g.typeFor = ""
	switch s.Tool {
	case "shell_start":
		g.start(a, s.Reply)
	case "shell_send":
		g.send(a, s.Reply)
	case "shell_wait":
		g.wait(a, s.Reply, false)
	case "shell_click":
		g.click(a, s.Reply)
	case "shell_screenshot":
		g.line("Screenshot %s", tapeQuoteIfNeeded(strings.TrimSuffix(cmp.Or(s.Reply.Filename, a.Name+".png"), ".png")+".png"))
	case "shell_resize":
		g.comment("step %d: shell_resize to %dx%d: a tape keeps one size, so the rest runs at the first", s.N, a.Cols, a.Rows)
	case "shell_ask_secret":
		g.comment("step %d: a person typed a secret here (shell_ask_secret): a replay cannot, so type it with Type or leave the step out", s.N)
	case "shell_record_start", "shell_record_stop":
		g.comment("step %d: %s: to record the replay, add Output NAME.gif at the top", s.N, s.Tool)
	}
}

// firstTapeLine is s up to its first newline.
func firstTapeLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// start writes what shell_start did: the environment, the directory, and
// a program that is no shell typed into bash, with an Expect of its first
// screen's fullest line, so that the keys after it reach the program and
// not the shell.
func (g *tapeGen) start(a stepArgs, r stepReply) {
	for _, k := range sortedKeys(a.Env) {
		if a.Env[k] == "(redacted)" {
			g.comment("Env %s: its value was not recorded (a secret-like name): set it here", k)
			continue
		}
		if v := a.Env[k]; !envName.MatchString(k) || strings.ContainsAny(v, "\r\n") || len(tapeQuotes(v)) > 1 {
			g.comment("Env %s: its value does not fit on a tape line: set it here", strconv.Quote(k))
			continue
		}
		g.line("Env %s %s", k, tapeQuote(a.Env[k]))
	}
	if a.Cwd != "" {
		g.line("Hide")
		g.typeText("cd " + shellQuote(a.Cwd) + "\n")
		g.line("Wait+Command exit=0")
		g.line("Show")
	}
	if g.meta.Shell != "" {
		return
	}
	words := []string{shellQuote(g.meta.Command)}
	for _, w := range g.meta.Args {
		words = append(words, shellQuote(w))
	}
	g.typeText(strings.Join(words, " ") + "\n")
	if l := fullestLine(r.Screen); l != "" && r.Ready != nil && *r.Ready {
		g.line("Expect %s", tapeLiteral(l))
	}
}

// envName is a variable name an Env line can set.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// fullestLine is the line of screen with the most characters other than
// spaces, trimmed and cut to 60 characters ("" for a blank screen).
func fullestLine(screen string) string {
	best, most := "", 0
	for l := range strings.SplitSeq(screen, "\n") {
		n := utf8.RuneCountInString(strings.ReplaceAll(l, " ", ""))
		if n > most {
			best, most = strings.TrimSpace(l), n
		}
	}
	if r := []rune(best); len(r) > 60 {
		best = strings.TrimSpace(string(r[:60]))
	}
	return best
}

// send writes a shell_send: its text, input and keys, then its wait.
func (g *tapeGen) send(a stepArgs, r stepReply) {
	if a.TypeDelayMS != nil && *a.TypeDelayMS > 0 {
		g.typeFor = "@" + tapeMS(*a.TypeDelayMS)
	}
	g.typeText(a.Text)
	if in, err := decodeInput(a.Input); err == nil {
		g.typeText(string(in))
	}
	for _, k := range a.Keys {
		if v, ok := vhsKey(k); ok && strings.HasPrefix(v, "Type ") {
			g.line("%s", v)
		} else if ok {
			g.press(v)
		} else {
			g.comment("key %s has no tape command: it is left out", k)
		}
	}
	g.wait(a, r, true)
}

// click writes a shell_click: Click "text" or Click row col, then its wait.
func (g *tapeGen) click(a stepArgs, r stepReply) {
	if a.Button != "" && a.Button != "left" || a.Count != nil && *a.Count != 1 || a.Nth != nil && *a.Nth > 1 {
		g.comment("shell_click with button %q, count or nth: the Click below is a single left click", a.Button)
	}
	switch {
	case a.Row != nil && a.Col != nil:
		g.line("Click %d %d", *a.Row, *a.Col)
	case a.Text != "":
		g.line("Click %s", tapeQuote(strings.NewReplacer("\r", " ", "\n", " ").Replace(a.Text)))
	case r.Row != nil && r.Col != nil:
		g.line("Click %d %d", *r.Row, *r.Col)
	}
	a.Text = "" // not typed
	g.wait(a, r, true)
}

// wait writes a step's waits as assertions, in the order the tools hold
// them. A wait that did not hold in the session (it timed out) is no
// assertion, since the replay would fail where the session went on: it
// is a Sleep of its timeout and a comment. sent: the step typed, and
// without a wait paused delay_ms (default 100).
func (g *tapeGen) wait(a stepArgs, r stepReply, sent bool) {
	at := ""
	if a.TimeoutMS != nil {
		at = "@" + tapeMS(*a.TimeoutMS)
	}
	timedOut := r.TimedOut != nil && *r.TimedOut
	waited := a.WaitCommand || a.WaitFor != nil || a.WaitForGone != nil || a.WaitIdle != nil || a.WaitStable != nil || a.WaitInput
	switch {
	case !waited && sent:
		g.line("Sleep %s", tapeMS(derefOr(a.DelayMS, defaultDelayMS)))
		return
	case timedOut:
		g.comment("the wait here timed out in the session, so it is no assertion")
		g.line("Sleep %s", tapeMS(derefOr(a.TimeoutMS, defaultTimeoutMS)))
		return
	}
	if a.WaitCommand {
		g.waitCommand(at, r)
	}
	if a.WaitFor != nil && *a.WaitFor != "" {
		g.line("Expect%s %s", at, tapePattern(*a.WaitFor))
	}
	if a.WaitForGone != nil && *a.WaitForGone != "" {
		g.line("Expect+Gone%s %s", at, tapePattern(*a.WaitForGone))
	}
	if a.WaitInput {
		g.line("Wait+Input%s", at)
	}
	if n := max(derefOr(a.WaitIdle, 0), derefOr(a.WaitStable, 0)); n > 0 {
		g.line("Sleep %s", tapeMS(n))
	}
}

// waitCommand writes wait_for_command's outcome: Wait+Command exit=N for
// a command that ended, a pause and a comment otherwise.
func (g *tapeGen) waitCommand(at string, r stepReply) {
	switch {
	case r.Command != nil && r.Command.ExitCode != nil:
		g.line("Wait+Command%s exit=%d", at, *r.Command.ExitCode)
	case r.NoCommand:
		g.comment("the shell ran no command for this line")
		g.line("Sleep 200ms")
	case r.WaitingFor != "":
		g.comment("the command stopped to read a %s here", r.WaitingFor)
		g.line("Sleep 200ms")
	default:
		g.line("Wait+Command%s", at)
	}
}

// derefOr is *p, or def for nil.
func derefOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// typeText writes text as Type commands and keys: printable runs as
// Type "...", CR and LF as Enter, and the other control characters as
// their keys (Tab, Escape, Backspace, Ctrl+X); the escape sequences of
// the cursor and editing keys as those keys.
func (g *tapeGen) typeText(text string) {
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			for _, q := range tapeQuotes(run.String()) {
				g.line("Type%s %s", g.typeFor, q)
			}
			run.Reset()
		}
	}
	for i := 0; i < len(text); {
		if k, n := controlKey(text[i:]); n > 0 {
			flush()
			if k == "" {
				g.comment("byte %#02x has no tape command: it is left out", text[i])
			} else {
				g.press(k)
			}
			i += n
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		run.WriteRune(r)
		i += n
	}
	flush()
}

// escKeys are the sequences xterm sends for the keys a tape names.
var escKeys = []struct{ seq, key string }{
	{"\x1b[A", "Up"}, {"\x1b[B", "Down"}, {"\x1b[C", "Right"}, {"\x1b[D", "Left"},
	{"\x1bOA", "Up"}, {"\x1bOB", "Down"}, {"\x1bOC", "Right"}, {"\x1bOD", "Left"},
	{"\x1b[H", "Home"}, {"\x1b[F", "End"}, {"\x1bOH", "Home"}, {"\x1bOF", "End"},
	{"\x1b[2~", "Insert"}, {"\x1b[3~", "Delete"}, {"\x1b[5~", "PageUp"}, {"\x1b[6~", "PageDown"},
	{"\x1b[Z", "Shift+Tab"},
	{"\x1bOP", "F1"}, {"\x1bOQ", "F2"}, {"\x1bOR", "F3"}, {"\x1bOS", "F4"},
	{"\x1b[15~", "F5"}, {"\x1b[17~", "F6"}, {"\x1b[18~", "F7"}, {"\x1b[19~", "F8"},
	{"\x1b[20~", "F9"}, {"\x1b[21~", "F10"}, {"\x1b[23~", "F11"}, {"\x1b[24~", "F12"},
}

// controlKey reads the key at the start of s when it is a control
// character or a key's escape sequence: its tape command ("" for one a
// tape cannot name) and length; 0 when s starts with a printable
// character.
func controlKey(s string) (string, int) {
	c := s[0]
	switch {
	case c == '\r' && strings.HasPrefix(s, "\r\n"):
		return "Enter", 2
	case c == '\r' || c == '\n':
		return "Enter", 1
	case c == '\t':
		return "Tab", 1
	case c == 0x7f || c == 0x08:
		return "Backspace", 1
	case c == 0x1b:
		for _, e := range escKeys {
			if strings.HasPrefix(s, e.seq) {
				return e.key, len(e.seq)
			}
		}
		return "Escape", 1
	case c >= 1 && c <= 26:
		return "Ctrl+" + string(rune('A'+c-1)), 1
	case c < 0x20:
		return "", 1
	}
	return "", 0
}

// vhsNames are ttywright's key names (lower case) that VHS spells
// otherwise, or that are spelled alike.
var vhsNames = map[string]string{
	"enter": "Enter", "return": "Enter", "tab": "Tab", "backspace": "Backspace", "bs": "Backspace",
	"escape": "Escape", "esc": "Escape", "space": "Space", "up": "Up", "down": "Down", "left": "Left", "right": "Right",
	"home": "Home", "end": "End", "insert": "Insert", "ins": "Insert", "delete": "Delete", "del": "Delete",
	"pageup": "PageUp", "pgup": "PageUp", "pagedown": "PageDown", "pgdn": "PageDown",
	"f1": "F1", "f2": "F2", "f3": "F3", "f4": "F4", "f5": "F5", "f6": "F6",
	"f7": "F7", "f8": "F8", "f9": "F9", "f10": "F10", "f11": "F11", "f12": "F12",
	" ": "Space", // a tape cannot end a line with Alt+ and a blank
}

// vhsKey turns a shell_send key name ("C-c", "^C", "M-x", "S-Tab",
// "Down") into a tape key command ("Ctrl+C", "Alt+X", "Shift+Tab",
// "Down", "F10"); false for one a tape has no command for.
func vhsKey(name string) (string, bool) {
	if len(name) == 2 && name[0] == '^' {
		return "Ctrl+" + strings.ToUpper(name[1:]), true
	}
	var mods []string
	base := name
	for {
		low := strings.ToLower(base)
		var m string
		var n int
		switch {
		case len(base) > 2 && (base[1] == '-' || base[1] == '+'):
			m, n = map[byte]string{'c': "Ctrl", 'm': "Alt", 'a': "Alt", 's': "Shift"}[low[0]], 2
		case strings.HasPrefix(low, "ctrl-") || strings.HasPrefix(low, "ctrl+"):
			m, n = "Ctrl", 5
		case strings.HasPrefix(low, "meta-") || strings.HasPrefix(low, "meta+"):
			m, n = "Alt", 5
		case strings.HasPrefix(low, "alt-") || strings.HasPrefix(low, "alt+"):
			m, n = "Alt", 4
		case strings.HasPrefix(low, "shift-") || strings.HasPrefix(low, "shift+"):
			m, n = "Shift", 6
		}
		if n == 0 {
			break
		}
		if m == "" {
			return "", false
		}
		mods, base = append(mods, m), base[n:]
	}
	key, ok := vhsNames[strings.ToLower(base)]
	if !ok {
		r, size := utf8.DecodeRuneInString(base)
		if base == "" || size != len(base) || !unicode.IsPrint(r) {
			return "", false
		}
		key = base
		switch {
		case len(mods) == 0:
		case r >= utf8.RuneSelf: // a combo takes one byte
			return "", false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			key = strings.ToUpper(base)
		default:
			key = tapeQuote(base) // Alt+"!": a bare ! is no tape token
		}
	}
	if len(mods) == 0 && len([]rune(key)) == 1 {
		return "Type " + tapeQuote(key), true // a single character is typed
	}
	return strings.Join(append(mods, key), "+"), true
}

// tapePattern is a wait_for argument as an Expect argument: "/re/flags"
// (as the tools read it, parseMatcher) as /re/ with the flags written
// into it, a slash inside as \/; anything else as tapeLiteral.
func tapePattern(s string) string {
	m, err := parseMatcher("wait_for", s)
	if err != nil || m == nil || m.re == nil {
		return tapeLiteral(s)
	}
	j := strings.LastIndexByte(s, '/')
	expr, flags := s[1:j], ""
	for _, f := range "isU" {
		if strings.ContainsRune(s[j+1:], f) {
			flags += string(f)
		}
	}
	if flags != "" {
		expr = "(?" + flags + ")" + expr
	}
	return "/" + slashEscaped(expr) + "/"
}

// tapeLiteral is the text s as an Expect argument: quoted, or, for a
// text over lines or with all three quote characters (a tape string has
// no escapes), a /regex/ that matches it literally.
func tapeLiteral(s string) string {
	if !strings.ContainsAny(s, "\r\n") && !strings.Contains(tapeQuote(s), "\x00") && len(tapeQuotes(s)) == 1 {
		return tapeQuote(s)
	}
	return "/" + slashEscaped(strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(regexp.QuoteMeta(s))) + "/"
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

// tapeMS writes ms milliseconds as a tape duration (tapeDuration).
func tapeMS(ms int) string { return tapeDuration(time.Duration(ms) * time.Millisecond) }

// tapeQuotes quotes s as one or more tape strings, split where needed so
// that each can be quoted (a text holding all three quote characters).
func tapeQuotes(s string) []string {
	var out []string
	for s != "" {
		n := len(s)
		// The longest prefix missing one of the quotes.
		best := 0
		for _, q := range []string{`"`, `'`, "`"} {
			i := strings.Index(s, q)
			if i < 0 {
				i = n
			}
			best = max(best, i)
		}
		out = append(out, tapeQuote(s[:best]))
		s = s[best:]
	}
	return out
}

// tapeQuoteIfNeeded leaves a file name bare when it is one word of safe
// characters, and quotes it otherwise.
func tapeQuoteIfNeeded(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") == "" {
		return s
	}
	return tapeQuote(s)
}

// shellQuote quotes a word for bash when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
