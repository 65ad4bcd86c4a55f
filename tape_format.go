package main

// tape_format.go: a parsed command written back as tape text, one
// canonical line that parses to the same command (the goldens of
// testdata/tapes/ and FuzzTape's round trip).

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// String is c as one line of tape text.
func (c tapeCmd) String() string {
	if c.Name == tapeCommentName {
		return "# " + strings.NewReplacer("\r", " ", "\n", " ").Replace(c.Text) // one line, whatever the text holds
	}
	var b strings.Builder
	b.WriteString(c.Name)
	if len(c.Keys) == 1 {
		return keyCombo(c.Keys[0], c.Name)
	}
	if c.Variant != "" && !(c.Name == "Wait" && c.Variant == "Line") {
		b.WriteString("+" + c.Variant)
	}
	if c.HasSpeed {
		b.WriteString("@" + tapeDuration(c.Speed))
	}
	for _, a := range c.args() {
		if a != "" {
			b.WriteString(" " + a)
		}
	}
	return b.String()
}

// tapeCommentName is the Name of a comment line: the writer's, never
// the parser's (the lexer skips comments).
const tapeCommentName = "#"

// tapeComment is a comment line saying what fmt.Sprintf(format, a...)
// says.
func tapeComment(format string, a ...any) tapeCmd {
	return tapeCmd{Name: tapeCommentName, Text: fmt.Sprintf(format, a...)}
}

// args are c's arguments as tape text.
func (c tapeCmd) args() []string {
	switch c.Name {
	case "Set":
		return []string{c.Setting, c.setValue()}
	case "Sleep":
		return []string{tapeDuration(c.Dur)}
	case "Env":
		return []string{c.Setting, tapeQuote(c.Text)}
	case "Ctrl", "Alt", "Shift":
		return nil // the name is written by keyCombo
	case "Wait":
		if c.Exit != nil {
			return []string{"exit=" + strconv.Itoa(*c.Exit)}
		}
		return []string{tapeRegex(c.Regex)}
	case "Expect", "ExpectStyle":
		return append([]string{c.target()}, styleWords(c.Style)...)
	case "Mask":
		if c.HasRows {
			return []string{fmt.Sprintf("rows %d-%d", c.Row, c.Col2)}
		}
		return []string{tapeRegex(c.Regex)}
	case "Click":
		if c.HasRows {
			return []string{strconv.Itoa(c.Row), strconv.Itoa(c.Col2)}
		}
	case "Output", "Screenshot", "Snapshot", "Require", "Type", "Copy":
		return []string{tapeQuote(c.Text)}
	}
	if isTapeKey(c.Name) && c.Count != 1 {
		return []string{strconv.Itoa(c.Count)}
	}
	if c.Text != "" {
		return []string{tapeQuote(c.Text)}
	}
	return nil
}

// setValue is a Set command's value as tape text.
func (c tapeCmd) setValue() string {
	switch tapeSettingKinds[c.Setting] {
	case "duration":
		return tapeDuration(c.Dur)
	case "int", "float":
		return strconv.FormatFloat(c.Num, 'f', -1, 64)
	case "percent":
		return strconv.FormatFloat(c.Num, 'f', -1, 64) + "%"
	case "regex":
		return tapeRegex(c.Regex)
	case "bool", "windowbar":
		return c.Text
	}
	if strings.HasPrefix(c.Text, "{") {
		return c.Text
	}
	return tapeQuote(c.Text)
}

// target is an assertion's "text" or /regex/.
func (c tapeCmd) target() string {
	if c.Regex != "" {
		return tapeRegex(c.Regex)
	}
	return tapeQuote(c.Text)
}

// styleWords are ExpectStyle's attributes as tape words.
func styleWords(st *Style) []string {
	if st == nil {
		return nil
	}
	var w []string
	for _, f := range []struct {
		name string
		v    *bool
	}{{"bold", st.Bold}, {"dim", st.Dim}, {"italic", st.Italic}, {"underline", st.Underline}, {"reverse", st.Reverse}} {
		switch {
		case f.v == nil:
		case *f.v:
			w = append(w, f.name)
		default:
			w = append(w, "no-"+f.name)
		}
	}
	if st.FG != "" {
		w = append(w, "fg="+tapeQuote(st.FG))
	}
	if st.BG != "" {
		w = append(w, "bg="+tapeQuote(st.BG))
	}
	return w
}

// tapeQuote quotes s with the first of " ' ` it does not contain.
func tapeQuote(s string) string {
	for _, q := range []string{`"`, `'`, "`"} {
		if !strings.Contains(s, q) {
			return q + s + q
		}
	}
	return strconv.Quote(s) // not a tape string: no delimiter is free
}

func tapeRegex(re string) string {
	if re == "" {
		return ""
	}
	return "/" + re + "/"
}

// tapeDuration writes d in ms (whole milliseconds) or s.
func tapeDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	if d%time.Millisecond == 0 {
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// keyCombo writes the key name k ("C-S-o") of the command name (Ctrl, Alt,
// Shift) as tape text: Ctrl+Shift+o. A character the lexer reads as no
// token of its own there is quoted (Alt+"!", Alt+"#", Alt+" ").
func keyCombo(k, name string) string {
	words := map[string]string{"C-": "Ctrl", "M-": "Alt", "S-": "Shift"}
	var parts []string
	for len(k) > 2 && words[k[:2]] != "" {
		parts = append(parts, words[k[:2]])
		k = k[2:]
	}
	if len(parts) == 0 { // Shift+a, typed as A
		parts = []string{name}
	}
	if r, _ := utf8.DecodeRuneInString(k); len(k) == 1 && !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(".-_@=%[]^\\", r) {
		k = tapeQuote(k)
	}
	return strings.Join(append(parts, k), "+")
}
