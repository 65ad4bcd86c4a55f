package main

// tape_parse.go: the parser of the tape language: VHS's commands as VHS
// spells them, and the assertions ttywright adds (Wait+Command, Expect,
// Expect+Gone, ExpectStyle, Snapshot, Mask, Click). A tape is read whole
// before anything runs: the first error is reported as FILE:LINE:COL and
// what was expected (README "Tapes and tests").

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// tapeCmd is one command of a tape. Name is the command as VHS spells it
// ("Type", "Ctrl", "Set", "Wait"), Variant what follows its + ("Screen",
// "Line", "Command", "Gone", "Style"); the other fields are its arguments.
type tapeCmd struct {
	Line, Col int
	Name      string
	Variant   string
	Setting   string        // Set: the setting; Env: the variable
	Speed     time.Duration // @time: a key's typing speed, a wait's timeout
	HasSpeed  bool
	Count     int           // key commands: how many times (1 when not given)
	Text      string        // the string argument: typed, a path, a name, a value
	Regex     string        // Wait, Expect, Mask, Set WaitPattern: RE2
	Keys      []string      // Ctrl, Alt, Shift: the ttywright key name, e.g. "C-S-o"
	Dur       time.Duration // Sleep, Set TypingSpeed, Set WaitTimeout
	Num       float64       // numeric settings
	Exit      *int          // Wait+Command exit=N
	Style     *Style        // ExpectStyle
	Row, Col2 int           // Click row col; Mask rows Row-Col2
	HasRows   bool          // Mask rows, Click row col
}

// tapeProgram is a parsed tape: where it came from and its commands,
// Source files inlined.
type tapeProgram struct {
	Path string
	Cmds []tapeCmd
}

// tapeError is a tape that cannot run: FILE:LINE:COL and what was
// expected there.
type tapeError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *tapeError) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

// tapeErrors are the errors of a tape that cannot run, in the order of
// its lines, each FILE:LINE:COL on a line of its own; at most
// maxTapeErrors.
type tapeErrors []*tapeError

// maxTapeErrors is how many errors of one tape are reported.
const maxTapeErrors = 20

func (e tapeErrors) Error() string {
	lines := make([]string, len(e))
	for i, te := range e {
		lines[i] = te.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap gives each error, for errors.As.
func (e tapeErrors) Unwrap() []error {
	out := make([]error, len(e))
	for i, te := range e {
		out[i] = te
	}
	return out
}

// add appends err's errors (a *tapeError or tapeErrors) while there is
// room.
func (e *tapeErrors) add(err error) {
	var more tapeErrors
	if !errors.As(err, &more) {
		var te *tapeError
		if !errors.As(err, &te) {
			te = &tapeError{Msg: err.Error()}
		}
		more = tapeErrors{te}
	}
	for _, te := range more {
		if len(*e) < maxTapeErrors {
			*e = append(*e, te)
		}
	}
}

// tapeFS is what parsing needs of the file system: reading a Source
// tape and whether an Output directory exists. osTapeFS is the real one.
type tapeFS struct {
	readFile func(path string) ([]byte, error)
	isDir    func(path string) bool
}

var osTapeFS = tapeFS{readFile: func(p string) ([]byte, error) { return readRegular(p, maxTapeFileBytes) }, isDir: func(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}}

// parseTapeFile reads and parses the tape at path.
func parseTapeFile(path string) (*tapeProgram, error) {
	src, err := osTapeFS.readFile(path)
	if err != nil {
		return nil, err
	}
	return parseTape(path, string(src), osTapeFS)
}

// maxTapeFileBytes bounds a file a tape run reads whole: a tape, a tape
// it sources, a Snapshot's golden file.
const maxTapeFileBytes = 4 << 20

// readRegular reads the file at path whole, at most max bytes. Anything
// but a regular file (a FIFO, a device such as /dev/zero, a directory)
// is refused, a link to one too: reading it could wait or never end.
func readRegular(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNonBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: ttywright reads tapes and golden files only from regular files", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(b)) > max {
		err = fmt.Errorf("%s is over %d MiB: a tape or golden file this large is refused", path, max>>20)
	}
	return b, err
}

// parseTape parses src, the tape named path. Paths in it (Output, Source,
// Screenshot) are relative to the working directory, as VHS reads them.
func parseTape(path, src string, fsys tapeFS) (*tapeProgram, error) {
	cmds, err := newTapeParser(path, src, fsys).parseAll(true)
	if err != nil {
		return nil, err
	}
	return &tapeProgram{Path: path, Cmds: cmds}, nil
}

// tapeParser walks the tokens of one file.
type tapeParser struct {
	file    string
	toks    []tapeTok
	i       int
	fs      tapeFS
	lexErrs []*tapeError // the tokens that could not be read, in order
	line    int          // the line of the command being parsed, whose arguments end with it (0: none)
}

// newTapeParser lexes src, the tape named path; the parser's errors
// start with the tokens that could not be read.
func newTapeParser(path, src string, fsys tapeFS) *tapeParser {
	toks, lerrs := lexTape(src)
	p := &tapeParser{file: path, toks: toks, fs: fsys}
	for _, l := range lerrs {
		p.lexErrs = append(p.lexErrs, &tapeError{path, l.line, l.col, l.msg})
	}
	return p
}

// peek is the next token; while a command is parsed, one on another line
// is the end of its line (tokEOF with text "\n"), so a command missing an
// argument is told so at its own line, not given the next line's word.
func (p *tapeParser) peek() tapeTok {
	t := p.toks[p.i]
	if p.line != 0 && t.line != p.line {
		prev := p.toks[max(p.i-1, 0)]
		return tapeTok{kind: tokEOF, text: "\n", line: p.line, col: prev.col + utf8.RuneCountInString(prev.text) + 1}
	}
	return t
}

func (p *tapeParser) next() tapeTok {
	t := p.peek()
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// errAt is an error at token t.
func (p *tapeParser) errAt(t tapeTok, format string, a ...any) error {
	return &tapeError{p.file, t.line, t.col, fmt.Sprintf(format, a...)}
}

// isSym reports whether t is the symbol s.
func isSym(t tapeTok, s string) bool { return t.kind == tokSym && t.text == s }

// parseAll parses every command; sourcing says whether Source may appear
// (not in a sourced tape: VHS refuses nesting). A command that does not
// parse is an error, and parsing goes on at the next line, so that every
// error of the tape is reported at once (tapeErrors, in line order).
func (p *tapeParser) parseAll(sourcing bool) ([]tapeCmd, error) {
	var cmds []tapeCmd
	var errs tapeErrors
	lex := p.lexErrs
	for p.peek().kind != tokEOF {
		t := p.next()
		more, err := p.parseCommand(t, sourcing)
		if err == nil {
			cmds = append(cmds, more...)
			continue
		}
		for len(lex) > 0 && lex[0].Line < t.line {
			errs.add(lex[0])
			lex = lex[1:]
		}
		if len(lex) == 0 || lex[0].Line != t.line { // else the token that could not be read is the cause
			errs.add(err) // a sourced tape's errors stand at its Source
		}
		p.skipLine(t.line)
	}
	for _, l := range lex {
		errs.add(l)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return cmds, nil
}

// parseCommand parses the command that starts with t: its commands (a
// Source gives those of its tape).
func (p *tapeParser) parseCommand(t tapeTok, sourcing bool) ([]tapeCmd, error) {
	if t.kind != tokWord {
		return nil, p.errAt(t, "expected a command (Type, Enter, Sleep, Wait, Expect, Set...), got %s", tokDesc(t))
	}
	if t.text == "Source" {
		if !sourcing {
			return nil, p.errAt(t, "Source inside a sourced tape: VHS allows one level; inline the tape instead")
		}
		return p.parseSource(t)
	}
	parse, ok := tapeParsers[t.text]
	if !ok {
		if near := nearestCommand(t.text); near != "" {
			return nil, p.errAt(t, "unknown command %q: did you mean %s?", t.text, near)
		}
		return nil, p.errAt(t, "unknown command %q: expected one of %s", t.text, strings.Join(tapeCommandNames(), ", "))
	}
	c := tapeCmd{Line: t.line, Col: t.col, Name: t.text, Count: 1}
	p.line = t.line
	err := parse(p, &c)
	p.line = 0
	if err != nil {
		return nil, err
	}
	return []tapeCmd{c}, nil
}

// skipLine skips the tokens left on line, after an error there.
func (p *tapeParser) skipLine(line int) {
	for p.peek().kind != tokEOF && p.peek().line == line {
		p.next()
	}
}

// nearestCommand is the tape command name word is a slip of
// (nearestName); "" when none is.
func nearestCommand(word string) string { return nearestName(word, tapeCommandNames()) }

// nearestName is the name of names that word is a slip of: the same
// letters in another case, or at most two edits away (one for names of
// up to four letters); "" when none is. The tapes' commands and the
// program's subcommands are suggested through it.
func nearestName(word string, names []string) string {
	best, bestD := "", 3
	for _, name := range names {
		if strings.EqualFold(name, word) {
			return name
		}
		limit := 2
		if len(name) <= 4 {
			limit = 1
		}
		if len(word) > len(name)+limit {
			continue // farther than the limit, and no long word is measured
		}
		if d := editDistance(strings.ToLower(word), strings.ToLower(name)); d <= limit && d < bestD {
			best, bestD = name, d
		}
	}
	return best
}

// editDistance is the number of edits between a and b, in bytes: an
// insertion, a deletion, a change, or a swap of two neighbours (the
// optimal string alignment distance).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// tokDesc names a token for an error message.
func tokDesc(t tapeTok) string {
	switch t.kind {
	case tokEOF:
		if t.text == "\n" {
			return "the end of the line"
		}
		return "the end of the file"
	case tokString:
		return strconv.Quote(t.text) + " (a string)"
	case tokRegex:
		return "/" + t.text + "/ (a regex)"
	case tokNumber:
		return "the number " + t.text
	}
	return strconv.Quote(t.text)
}

// tapeParsers parse each command's arguments after its name.
var tapeParsers map[string]func(*tapeParser, *tapeCmd) error

func init() {
	tapeParsers = map[string]func(*tapeParser, *tapeCmd) error{
		"Output": (*tapeParser).parseOutput, "Require": (*tapeParser).parseRequire, "Set": (*tapeParser).parseSet,
		"Type": (*tapeParser).parseType, "Sleep": (*tapeParser).parseSleep, "Wait": (*tapeParser).parseWait,
		"Hide": noArgs, "Show": noArgs, "Paste": noArgs, "Screenshot": (*tapeParser).parseScreenshot,
		"Env": (*tapeParser).parseEnv, "Copy": (*tapeParser).parseCopy,
		"Ctrl": (*tapeParser).parseCombo, "Alt": (*tapeParser).parseCombo, "Shift": (*tapeParser).parseCombo,
		"Expect": (*tapeParser).parseExpect, "ExpectStyle": (*tapeParser).parseExpectStyle,
		"Snapshot": (*tapeParser).parseSnapshot, "Mask": (*tapeParser).parseMask, "Click": (*tapeParser).parseClick,
	}
	for _, k := range xtermKeys {
		tapeParsers[k.name] = (*tapeParser).parseKey
	}
	for _, name := range tapeScrolls {
		tapeParsers[name] = (*tapeParser).parseKey
	}
}

// tapeScrolls are VHS's viewport commands, which take a count as key
// commands do; ttywright has no viewport to scroll (tape_exec.go skips
// them with a warning).
var tapeScrolls = []string{"ScrollUp", "ScrollDown"}

// tapeKey returns the key a key command names: the key of xtermKeys
// whose name is name as it is spelt there (Enter, PageUp, F10: VHS's key
// commands, and F1 to F12, which VHS lacks); false for any other word.
func tapeKey(name string) (xtermKey, bool) {
	k, ok := keyNamed(name)
	return k, ok && k.name == name
}

// isTapeKey reports whether name is a key command or a scroll command,
// the commands that take a count.
func isTapeKey(name string) bool {
	_, ok := tapeKey(name)
	return ok || slices.Contains(tapeScrolls, name)
}

// tapeCommandNames lists the commands, sorted, for error messages.
func tapeCommandNames() []string {
	names := []string{"Source"}
	for n := range tapeParsers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func noArgs(*tapeParser, *tapeCmd) error { return nil }

// isTapeString reports whether t, the next token, reads as a string:
// quoted, or a bare word on the line of the token before that is none of
// VHS's keywords (commands, settings, units, true and false) nor one of
// ttywright's commands (a misspelt command on the next line is an error,
// not typed text).
func (p *tapeParser) isTapeString(t tapeTok) bool {
	if t.kind == tokString {
		return true
	}
	if t.kind != tokWord || p.i == 0 || p.toks[p.i-1].line != t.line {
		return false
	}
	_, cmd := tapeParsers[t.text]
	_, set := tapeSettingKinds[t.text]
	return !cmd && !set && !slices.Contains([]string{"Source", "true", "false", "ms", "s", "m", "em", "px", "Ctrl", "Alt", "Shift"}, t.text)
}

// parseAt reads an optional @time after a command name: a key's typing
// speed, a wait's timeout.
func (p *tapeParser) parseAt(c *tapeCmd) error {
	if !isSym(p.peek(), "@") {
		return nil
	}
	p.next()
	d, err := p.parseDuration(c.Name + "@")
	if err != nil {
		return err
	}
	c.Speed, c.HasSpeed = d, true
	return nil
}

// parseDuration reads NUMBER[ms|s|m] (seconds without a unit, as VHS).
func (p *tapeParser) parseDuration(what string) (time.Duration, error) {
	t := p.next()
	if t.kind != tokNumber {
		return 0, p.errAt(t, "bad duration after %s: expected a time like 500ms, 2s or 1m, got %s", what, tokDesc(t))
	}
	v, err := strconv.ParseFloat(t.text, 64)
	if err != nil || v > 24*3600*1000 {
		return 0, p.errAt(t, "bad duration %q after %s: expected a time like 500ms, 2s or 1m", t.text, what)
	}
	unit := time.Second
	if u := p.peek(); u.kind == tokWord {
		switch u.text {
		case "ms":
			unit = time.Millisecond
		case "s":
		case "m":
			unit = time.Minute
		default:
			unit = 0
		}
		switch {
		case unit != 0:
			p.next()
		case u.line == t.line && u.col == t.col+len(t.text): // 1x
			return 0, p.errAt(t, "bad duration %q after %s: expected a time like 500ms, 2s or 1m", t.text+u.text, what)
		default:
			unit = time.Second
		}
	}
	return time.Duration(v * float64(unit)), nil
}

// parseKey reads Key[@time] [count].
func (p *tapeParser) parseKey(c *tapeCmd) error {
	if err := p.parseAt(c); err != nil {
		return err
	}
	if t := p.peek(); t.kind == tokNumber {
		p.next()
		n, err := strconv.Atoi(t.text)
		if err != nil || n < 1 || n > 10000 {
			return p.errAt(t, "bad count %q after %s: expected a whole number from 1 to 10000", t.text, c.Name)
		}
		c.Count = n
	}
	return nil
}

// parseStrings reads one or more strings, joined by spaces as VHS does;
// a bare word that is no keyword is a string too (Type o).
func (p *tapeParser) parseStrings(c *tapeCmd) error {
	if t := p.peek(); !p.isTapeString(t) {
		return p.errAt(t, "%s expects a \"string\", got %s", c.Name, tokDesc(t))
	}
	var parts []string
	for p.isTapeString(p.peek()) {
		parts = append(parts, p.next().text)
	}
	c.Text = strings.Join(parts, " ")
	return nil
}

func (p *tapeParser) parseType(c *tapeCmd) error {
	if err := p.parseAt(c); err != nil {
		return err
	}
	return p.parseStrings(c)
}

func (p *tapeParser) parseCopy(c *tapeCmd) error { return p.parseStrings(c) }

func (p *tapeParser) parseSleep(c *tapeCmd) error {
	d, err := p.parseDuration("Sleep")
	c.Dur = d
	return err
}

// parseArg reads one word or string: a path, a name, a value.
func (p *tapeParser) parseArg(c *tapeCmd, what string) (tapeTok, error) {
	t := p.next()
	if t.kind == tokRegex {
		return t, p.errAt(t, "%s expects %s, got %s: a path that starts with / goes in quotes (\"/tmp/out.txt\")", c.Name, what, tokDesc(t))
	}
	if t.kind != tokWord && t.kind != tokString {
		return t, p.errAt(t, "%s expects %s, got %s", c.Name, what, tokDesc(t))
	}
	return t, nil
}

func (p *tapeParser) parseRequire(c *tapeCmd) error {
	t, err := p.parseArg(c, "a program name")
	c.Text = t.text
	return err
}

func (p *tapeParser) parseEnv(c *tapeCmd) error {
	t, err := p.parseArg(c, "a variable name and a \"value\"")
	if err != nil {
		return err
	}
	if !regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`).MatchString(t.text) {
		return p.errAt(t, "Env expects a variable name (letters, digits, _), got %s", tokDesc(t))
	}
	c.Setting = t.text
	v := p.next()
	if v.kind != tokString && v.kind != tokWord && v.kind != tokNumber {
		return p.errAt(v, "Env %s expects a \"value\", got %s", t.text, tokDesc(v))
	}
	c.Text = v.text
	return nil
}

// parseOutput reads Output PATH: .gif, .txt/.ascii/.test (the screens as
// text), .cast, .mp4/.webm (warned at run), or DIR/ for PNG frames. The
// directory it is written in must exist.
func (p *tapeParser) parseOutput(c *tapeCmd) error {
	t, err := p.parseArg(c, "a file path (demo.gif, out.txt, frames/)")
	if err != nil {
		return err
	}
	ext := filepath.Ext(t.text)
	if ext == "" && !strings.HasSuffix(t.text, "/") {
		return p.errAt(t, "Output %q has no extension: expected .gif, .txt, .ascii, .cast, or a frames folder with a trailing slash (frames/)", t.text)
	}
	if !slices.Contains([]string{"", ".gif", ".txt", ".ascii", ".test", ".cast", ".mp4", ".webm", ".png"}, ext) {
		return p.errAt(t, "Output %q: expected .gif, .txt, .ascii, .test, .cast, .mp4, .webm or a frames folder (frames/)", t.text)
	}
	dir := filepath.Dir(strings.TrimSuffix(t.text, "/"))
	if !p.fs.isDir(dir) {
		return p.errAt(t, "Output %q: the directory %q does not exist: create it (Output paths are relative to the working directory)", t.text, dir)
	}
	c.Text = t.text
	return nil
}

func (p *tapeParser) parseScreenshot(c *tapeCmd) error {
	t, err := p.parseArg(c, "a .png path")
	if err != nil {
		return err
	}
	if filepath.Ext(t.text) != ".png" {
		return p.errAt(t, "Screenshot %q: expected a file with the .png extension", t.text)
	}
	if dir := filepath.Dir(t.text); !p.fs.isDir(dir) {
		return p.errAt(t, "Screenshot %q: the directory %q does not exist", t.text, dir)
	}
	c.Text = t.text
	return nil
}

// parseSource inlines the tape Source names, without its Output commands
// (they would overwrite the including tape's).
func (p *tapeParser) parseSource(head tapeTok) ([]tapeCmd, error) {
	c := tapeCmd{Name: "Source"}
	t, err := p.parseArg(&c, "a .tape path")
	if err != nil {
		return nil, err
	}
	if filepath.Ext(t.text) != ".tape" {
		return nil, p.errAt(t, "Source %q: expected a file with the .tape extension", t.text)
	}
	src, err := p.fs.readFile(t.text)
	if err != nil {
		return nil, p.errAt(t, "Source %q cannot be read: %v", t.text, err)
	}
	cmds, err := newTapeParser(t.text, string(src), p.fs).parseAll(false)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(cmds, func(c tapeCmd) bool { return c.Name == "Output" }), nil
}

// parseCombo reads Ctrl+[Alt+][Shift+]KEY, Alt+KEY, Shift+KEY and turns it
// into a ttywright key name ("C-M-x").
func (p *tapeParser) parseCombo(c *tapeCmd) error {
	mods := map[string]string{"Ctrl": "C-", "Alt": "M-", "Shift": "S-"}
	prefix := mods[c.Name]
	for {
		plus := p.next()
		if !isSym(plus, "+") {
			return p.errAt(plus, "%s expects +KEY (e.g. %s+C), got %s", c.Name, c.Name, tokDesc(plus))
		}
		k := p.next()
		if m, ok := mods[k.text]; ok && k.kind == tokWord && isSym(p.peek(), "+") && !strings.Contains(prefix, m) {
			prefix += m
			continue
		}
		name, ok := comboKey(k)
		if !ok {
			return p.errAt(k, "%s+ expects one character or a key (Enter, Tab, Space, Backspace, Up, Down, Left, Right...), got %s", c.Name, tokDesc(k))
		}
		c.Keys = []string{tapeCombo(prefix, name)}
		return nil
	}
}

// tapeCombo is the key name a combination stands for, as shell_send
// reads it: prefix is its modifiers (C-, M-, S-, in the order written)
// and key a key's name or one character. Shift+a is A, as VHS types it,
// and Ctrl+C is C-c.
func tapeCombo(prefix, key string) string {
	switch {
	case prefix == "S-" && len(key) == 1:
		return strings.ToUpper(key)
	case strings.HasPrefix(prefix, "C-") && !strings.Contains(prefix, "S-") && len(key) == 1:
		key = strings.ToLower(key)
	}
	return prefix + key
}

// comboKey is the key name of the token after a modifier's +.
func comboKey(k tapeTok) (string, bool) {
	switch k.kind {
	case tokSym:
		return k.text, k.text != "+"
	case tokWord, tokString, tokNumber:
		if key, ok := tapeKey(k.text); ok {
			return key.name, true
		}
		if len(k.text) == 1 {
			return k.text, true
		}
	}
	return "", false
}
