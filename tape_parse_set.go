package main

// tape_parse_set.go: the Set command's settings and their values, and the
// arguments of the waits and assertions (Wait, Expect, ExpectStyle,
// Snapshot, Mask, Click).

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// tapeSettingKinds is what value each setting takes.
var tapeSettingKinds = map[string]string{
	"Shell": "shell", "FontFamily": "string", "FontSize": "int", "LetterSpacing": "float", "LineHeight": "float",
	"Framerate": "int", "TypingSpeed": "duration", "Theme": "theme", "PlaybackSpeed": "float",
	"Height": "int", "Width": "int", "Padding": "int", "LoopOffset": "percent", "MarginFill": "string",
	"Margin": "int", "WindowBar": "windowbar", "WindowBarSize": "int", "BorderRadius": "int",
	"CursorBlink": "bool", "WaitTimeout": "duration", "WaitPattern": "regex",
}

// tapeShells are the shells Set Shell names, as VHS spells them.
var tapeShells = []string{"bash", "zsh", "fish", "nu", "osh", "powershell", "pwsh", "xonsh", "cmd"}

// parseSet reads Set SETTING VALUE.
func (p *tapeParser) parseSet(c *tapeCmd) error {
	t := p.next()
	kind, ok := tapeSettingKinds[t.text]
	if !ok || t.kind != tokWord {
		names := make([]string, 0, len(tapeSettingKinds))
		for n := range tapeSettingKinds {
			names = append(names, n)
		}
		slices.Sort(names)
		if near := nearestName(t.text, names); t.kind == tokWord && near != "" {
			return p.errAt(t, "unknown setting %s: did you mean %s?", tokDesc(t), near)
		}
		return p.errAt(t, "unknown setting %s: expected one of %s", tokDesc(t), strings.Join(names, ", "))
	}
	c.Setting = t.text
	switch kind {
	case "duration":
		d, err := p.parseDuration("Set " + t.text)
		c.Dur = d
		return err
	case "int", "float", "percent":
		return p.parseSetNumber(c, kind)
	case "regex":
		v := p.next()
		if v.kind != tokRegex && v.kind != tokString {
			return p.errAt(v, "Set WaitPattern expects a /regex/, got %s", tokDesc(v))
		}
		c.Regex = v.text
		return p.checkRegex(v)
	}
	v := p.next()
	if v.kind != tokWord && v.kind != tokString && v.kind != tokJSON {
		return p.errAt(v, "Set %s expects a value, got %s", t.text, tokDesc(v))
	}
	c.Text = v.text
	return p.checkSetValue(c, kind, v)
}

// checkSetValue checks the value of a shell, bool, window bar or theme setting.
func (p *tapeParser) checkSetValue(c *tapeCmd, kind string, v tapeTok) error {
	switch kind {
	case "shell":
		if !slices.Contains(tapeShells, v.text) {
			return p.errAt(v, "Set Shell %s: expected one of %s", tokDesc(v), strings.Join(tapeShells, ", "))
		}
	case "bool":
		if v.text != "true" && v.text != "false" {
			return p.errAt(v, "Set %s expects true or false, got %s", c.Setting, tokDesc(v))
		}
	case "windowbar":
		if !slices.Contains([]string{"Colorful", "ColorfulRight", "Rings", "RingsRight"}, v.text) {
			return p.errAt(v, "Set WindowBar %s: expected Colorful, ColorfulRight, Rings or RingsRight", tokDesc(v))
		}
	case "theme":
		if v.kind == tokJSON && !json.Valid([]byte(v.text)) {
			return p.errAt(v, "Set Theme: the JSON object does not parse: expected {\"background\": \"#000000\", ...} or a theme's name")
		}
	}
	if kind != "theme" && v.kind == tokJSON {
		return p.errAt(v, "Set %s expects a value, not a JSON object", c.Setting)
	}
	return nil
}

// parseSetNumber reads a numeric setting's value (px after Width and the
// like, % after LoopOffset allowed).
func (p *tapeParser) parseSetNumber(c *tapeCmd, kind string) error {
	v := p.next()
	f, err := strconv.ParseFloat(v.text, 64)
	if v.kind != tokNumber || err != nil || f > 1e6 {
		return p.errAt(v, "Set %s expects a number, got %s", c.Setting, tokDesc(v))
	}
	if kind == "int" && f != float64(int(f)) {
		return p.errAt(v, "Set %s expects a whole number, got %s", c.Setting, v.text)
	}
	c.Num = f
	if n := p.peek(); kind == "percent" && isSym(n, "%") || kind == "int" && n.kind == tokWord && n.text == "px" {
		p.next()
	}
	return nil
}

// checkRegex reports a regex that does not compile, at its token.
func (p *tapeParser) checkRegex(t tapeTok) error {
	if t.text == "" {
		return p.errAt(t, "the regex // is empty: expected a pattern between the slashes")
	}
	if _, err := regexp.Compile(t.text); err != nil {
		return p.errAt(t, "the regex /%s/ does not compile: %v", t.text, err)
	}
	return nil
}

// parseVariant reads an optional +VARIANT from the allowed ones.
func (p *tapeParser) parseVariant(c *tapeCmd, allowed ...string) error {
	if !isSym(p.peek(), "+") {
		return nil
	}
	p.next()
	v := p.next()
	if v.kind != tokWord || !slices.Contains(allowed, v.text) {
		return p.errAt(v, "%s+ expects %s, got %s", c.Name, strings.Join(allowed, " or "), tokDesc(v))
	}
	c.Variant = v.text
	return nil
}

// parseWait reads Wait[+Screen|+Line][@timeout] [/regex/],
// Wait+Command[@timeout] [exit=N] and Wait+Input[@timeout].
func (p *tapeParser) parseWait(c *tapeCmd) error {
	if err := p.parseVariant(c, "Screen", "Line", "Command", "Input"); err != nil {
		return err
	}
	if err := p.parseAt(c); err != nil {
		return err
	}
	if c.HasSpeed && c.Speed <= 0 {
		return p.errAt(p.toks[p.i-1], "%s@ expects a positive timeout", c.Name)
	}
	switch c.Variant {
	case "Command":
		return p.parseExit(c)
	case "Input":
		return nil
	case "":
		c.Variant = "Line"
	}
	if t := p.peek(); t.kind == tokRegex {
		p.next()
		c.Regex = t.text
		return p.checkRegex(t)
	}
	return nil
}

// parseExit reads the optional exit=N of Wait+Command.
func (p *tapeParser) parseExit(c *tapeCmd) error {
	if t := p.peek(); t.kind != tokWord || t.text != "exit" {
		return nil
	}
	p.next()
	if eq := p.next(); !isSym(eq, "=") {
		return p.errAt(eq, "Wait+Command exit expects =N (exit=0), got %s", tokDesc(eq))
	}
	n := p.next()
	code, err := strconv.Atoi(n.text)
	if n.kind != tokNumber || err != nil || code > 255 {
		return p.errAt(n, "Wait+Command exit= expects an exit code from 0 to 255, got %s", tokDesc(n))
	}
	c.Exit = &code
	return nil
}

// parseTarget reads the "text" or /regex/ an assertion looks for.
func (p *tapeParser) parseTarget(c *tapeCmd) error {
	t := p.next()
	switch t.kind {
	case tokString:
		if t.text == "" {
			return p.errAt(t, "%s expects a non-empty \"text\"", c.Name)
		}
		c.Text = t.text
		return nil
	case tokRegex:
		c.Regex = t.text
		return p.checkRegex(t)
	}
	return p.errAt(t, "%s expects \"text\" or /regex/, got %s", c.Name, tokDesc(t))
}

// parseExpect reads Expect[+Gone][@timeout] "text"|/regex/.
func (p *tapeParser) parseExpect(c *tapeCmd) error {
	if err := p.parseVariant(c, "Gone"); err != nil {
		return err
	}
	if err := p.parseAt(c); err != nil {
		return err
	}
	return p.parseTarget(c)
}

// parseExpectStyle reads ExpectStyle[@timeout] "text"|/regex/ ATTR...:
// bold, dim, italic, underline, reverse (no- before one: not), fg=COLOR,
// bg=COLOR (a palette name such as red or bright-blue, 0-255, #rrggbb).
func (p *tapeParser) parseExpectStyle(c *tapeCmd) error {
	if err := p.parseAt(c); err != nil {
		return err
	}
	if err := p.parseTarget(c); err != nil {
		return err
	}
	st := &Style{}
	for t := p.peek(); t.kind == tokWord && t.line == p.toks[p.i-1].line; t = p.peek() {
		p.next()
		if err := p.styleAttr(st, t); err != nil {
			return err
		}
	}
	if *st == (Style{}) {
		return p.errAt(p.peek(), "ExpectStyle expects attributes after the text: bold, dim, italic, underline, reverse, fg=COLOR, bg=COLOR")
	}
	c.Style = st
	return nil
}

// styleAttr adds the attribute t names to st.
func (p *tapeParser) styleAttr(st *Style, t tapeTok) error {
	on, name := true, t.text
	if rest, ok := strings.CutPrefix(name, "no-"); ok {
		on, name = false, rest
	}
	flags := map[string]**bool{"bold": &st.Bold, "dim": &st.Dim, "italic": &st.Italic, "underline": &st.Underline, "reverse": &st.Reverse}
	if f, ok := flags[name]; ok {
		*f = &on
		return nil
	}
	if (name == "fg" || name == "bg") && on && isSym(p.peek(), "=") {
		p.next()
		v := p.next()
		if v.kind != tokWord && v.kind != tokNumber && v.kind != tokString {
			return p.errAt(v, "%s= expects a colour (red, bright-blue, 0-255, #rrggbb), got %s", name, tokDesc(v))
		}
		if name == "fg" {
			st.FG = v.text
		} else {
			st.BG = v.text
		}
		return nil
	}
	return p.errAt(t, "ExpectStyle: unknown attribute %q: expected bold, dim, italic, underline, reverse (no-bold: not bold), fg=COLOR or bg=COLOR", t.text)
}

// snapshotName is what a Snapshot's golden file may be called.
var snapshotName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

// parseSnapshot reads Snapshot[+Style][@timeout] NAME.
func (p *tapeParser) parseSnapshot(c *tapeCmd) error {
	if err := p.parseVariant(c, "Style"); err != nil {
		return err
	}
	if err := p.parseAt(c); err != nil {
		return err
	}
	t, err := p.parseArg(c, "a NAME for its golden file (NAME.txt beside the tape)")
	if err != nil {
		return err
	}
	if !snapshotName.MatchString(t.text) || strings.Contains(t.text, "..") {
		return p.errAt(t, "Snapshot name %q: expected letters, digits, '.', '-', '_' (no slash: the golden file is beside the tape)", t.text)
	}
	c.Text = t.text
	return nil
}

// parseMask reads Mask /regex/ or Mask rows N[-M] (0-based rows, as
// Click counts them).
func (p *tapeParser) parseMask(c *tapeCmd) error {
	t := p.next()
	switch {
	case t.kind == tokRegex:
		c.Regex = t.text
		return p.checkRegex(t)
	case t.kind == tokWord && t.text == "rows":
		from, err := p.parseInt(c, "a row number (0-based)")
		if err != nil {
			return err
		}
		to := from
		if isSym(p.peek(), "-") {
			p.next()
			if to, err = p.parseInt(c, "the last row of the range"); err != nil {
				return err
			}
		}
		if to < from {
			return p.errAt(t, "Mask rows %d-%d: the range ends before it starts", from, to)
		}
		c.Row, c.Col2, c.HasRows = from, to, true
		return nil
	}
	return p.errAt(t, "Mask expects /regex/ or rows N-M, got %s", tokDesc(t))
}

// parseInt reads a whole number from 0 to 9999.
func (p *tapeParser) parseInt(c *tapeCmd, what string) (int, error) {
	t := p.next()
	n, err := strconv.Atoi(t.text)
	if t.kind != tokNumber || err != nil || n > 9999 {
		return 0, p.errAt(t, "%s expects %s, got %s", c.Name, what, tokDesc(t))
	}
	return n, nil
}

// parseClick reads Click[@timeout] "text" or Click ROW COL (0-based, as
// shell_click).
func (p *tapeParser) parseClick(c *tapeCmd) error {
	if err := p.parseAt(c); err != nil {
		return err
	}
	if t := p.peek(); t.kind == tokString {
		p.next()
		if t.text == "" {
			return p.errAt(t, "Click expects a non-empty \"text\"")
		}
		c.Text = t.text
		return nil
	}
	row, err := p.parseInt(c, "\"text\" or ROW COL (0-based)")
	if err != nil {
		return err
	}
	col, err := p.parseInt(c, "a column after the row")
	if err != nil {
		return err
	}
	c.Row, c.Col2, c.HasRows = row, col, true
	return nil
}
