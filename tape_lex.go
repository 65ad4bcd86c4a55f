package main

// tape_lex.go: the tokens of the tape language, VHS's: bare words,
// numbers, quoted strings ("", '' or ``, one line each), /regex/, {JSON}
// and single-character symbols (@ + = % - [ ] ^ \); # starts a comment
// to the end of the line. Every token keeps its line and column (1-based)
// for the FILE:LINE:COL of an error.

import (
	"fmt"
	"strings"
)

// tapeTokKind is the kind of a tapeTok.
type tapeTokKind uint8

const (
	tokEOF tapeTokKind = iota
	tokWord
	tokNumber
	tokString
	tokRegex
	tokJSON
	tokSym
)

// tapeTok is one token: its kind, its text (a string's or regex's without
// the delimiters) and where it starts.
type tapeTok struct {
	kind      tapeTokKind
	text      string
	line, col int
}

// tapeLexError is a token that cannot be read: an unclosed string,
// regex or JSON object, or a byte no token starts with.
type tapeLexError struct {
	line, col int
	msg       string
}

// lexTape splits src into tokens, comments dropped, ending with tokEOF,
// and lists the tokens that cannot be read, in order: the rest of a line
// with such a token is skipped.
func lexTape(src string) ([]tapeTok, []*tapeLexError) {
	var toks []tapeTok
	var errs []*tapeLexError
	line, col := 1, 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i, col = i+1, col+1
			continue
		case c == '#' && (i == 0 || src[i-1] != '='):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		t, n, err := lexOne(src[i:], line, col)
		if err != nil {
			errs = append(errs, err)
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		}
		toks = append(toks, t)
		i += n
		col += n // tokens never span lines
	}
	return append(toks, tapeTok{kind: tokEOF, line: line, col: col}), errs
}

// lexOne reads the token at the start of s (not blank, not a comment)
// and returns it and its length in bytes.
func lexOne(s string, line, col int) (tapeTok, int, *tapeLexError) {
	t := tapeTok{line: line, col: col}
	c := s[0]
	switch {
	case c == '"' || c == '\'' || c == '`':
		end := strings.IndexAny(s[1:], string(c)+"\n")
		if end < 0 || s[1+end] == '\n' {
			return t, 0, &tapeLexError{line, col, fmt.Sprintf("unclosed string: expected a closing %c on the same line", c)}
		}
		t.kind, t.text = tokString, s[1:1+end]
		return t, end + 2, nil
	case c == '/':
		end, ok := regexEnd(s)
		if !ok {
			return t, 0, &tapeLexError{line, col, "unclosed regex: expected a closing / on the same line (write \\/ for a slash inside it)"}
		}
		t.kind, t.text = tokRegex, s[1:end]
		return t, end + 1, nil
	case c == '{':
		end, ok := jsonEnd(s)
		if !ok {
			return t, 0, &tapeLexError{line, col, "unclosed JSON object: expected } on the same line"}
		}
		t.kind, t.text = tokJSON, s[:end+1]
		return t, end + 1, nil
	case isTapeDigit(c) || c == '.' && len(s) > 1 && isTapeDigit(s[1]):
		n := spanOf(s, func(b byte) bool { return isTapeDigit(b) || b == '.' })
		t.kind, t.text = tokNumber, s[:n]
		return t, n, nil
	case isTapeLetter(c) || c == '.' || c == '#' || c == '_':
		n := 1 + spanOf(s[1:], isTapeWordByte)
		t.kind, t.text = tokWord, s[:n]
		return t, n, nil
	case strings.IndexByte("@+=%-[]^\\", c) >= 0:
		t.kind, t.text = tokSym, s[:1]
		return t, 1, nil
	}
	return t, 0, &tapeLexError{line, col, fmt.Sprintf("unexpected %q: expected a command, a word, a number, a \"string\" or a /regex/", rune(c))}
}

// regexEnd is the index of the slash that closes the regex s starts with;
// a slash after an odd number of backslashes is part of the regex.
func regexEnd(s string) (int, bool) {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return 0, false
		case '\\':
			i++ // the next byte is escaped
			if i < len(s) && s[i] == '\n' {
				return 0, false
			}
		case '/':
			return i, true
		}
	}
	return 0, false
}

// jsonEnd is the index of the brace that closes the object s starts
// with, braces inside JSON strings skipped.
func jsonEnd(s string) (int, bool) {
	depth, inStr := 0, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			return 0, false
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth == 0 {
				return i, true
			}
		}
	}
	return 0, false
}

// spanOf is the length of the prefix of s whose bytes satisfy ok.
func spanOf(s string, ok func(byte) bool) int {
	n := 0
	for n < len(s) && ok(s[n]) {
		n++
	}
	return n
}

func isTapeDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isTapeLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isTapeWordByte is a byte a bare word continues with: letters, digits
// and . - _ / % as VHS reads paths and names, # for colours.
func isTapeWordByte(c byte) bool {
	return isTapeLetter(c) || isTapeDigit(c) || strings.IndexByte("._-/%#", c) >= 0
}
