package main

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTapeFS reads Source tapes from dir and has every directory but
// "missing".
func fakeTapeFS(dir string) tapeFS {
	return tapeFS{
		readFile: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, p)) },
		isDir:    func(p string) bool { return !strings.Contains(p, "missing") },
	}
}

// programText is a program as canonical lines, one command a line.
func programText(p *tapeProgram) string {
	var b strings.Builder
	for _, c := range p.Cmds {
		b.WriteString(c.String() + "\n")
	}
	return b.String()
}

func TestTapeParseGolden(t *testing.T) {
	dir := filepath.Join("testdata", "tapes", "parse")
	for _, name := range []string{"vhs", "assert"} {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, name+".tape"))
			if err != nil {
				t.Fatal(err)
			}
			p, err := parseTape(name+".tape", string(src), fakeTapeFS(dir))
			if err != nil {
				t.Fatal(err)
			}
			got := programText(p)
			golden := filepath.Join(dir, name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("parse of %s.tape differs from %s:\n%s", name, golden, got)
			}
			// The canonical text parses to itself.
			again, err := parseTape(name+".golden", got, fakeTapeFS(dir))
			if err != nil {
				t.Fatalf("the canonical text does not parse: %v", err)
			}
			if programText(again) != got {
				t.Errorf("the canonical text parses to something else:\n%s", programText(again))
			}
		})
	}
}

func TestTapeParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown command", "Type \"ok\"\n  Jump 3", `bad.tape:2:3: unknown command "Jump": expected one of`},
		{"bad duration", "Sleep fast", `bad.tape:1:7: bad duration after Sleep: expected a time like 500ms, 2s or 1m, got "fast"`},
		{"bad speed", "Type@x \"a\"", `bad.tape:1:6: bad duration after Type@: expected a time`},
		{"unclosed string", "Type \"hello\nEnter", `bad.tape:1:6: unclosed string: expected a closing " on the same line`},
		{"unclosed regex", "Wait /abc", `bad.tape:1:6: unclosed regex`},
		{"regex does not compile", "Expect /a(b/", "bad.tape:1:8: the regex /a(b/ does not compile: error parsing regexp: missing closing ): `a(b`"},
		{"missing Output directory", "Output missing/demo.gif", `bad.tape:1:8: Output "missing/demo.gif": the directory "missing" does not exist`},
		{"Output without extension", "Output demo", `bad.tape:1:8: Output "demo" has no extension`},
		{"unknown setting", "Set Colour red", `bad.tape:1:5: unknown setting "Colour": expected one of BorderRadius`},
		{"bad shell", "Set Shell tcsh", `bad.tape:1:11: Set Shell "tcsh": expected one of bash, zsh, fish`},
		{"number expected", "Set FontSize big", `bad.tape:1:14: Set FontSize expects a number, got "big"`},
		{"bad bool", "Set CursorBlink maybe", `bad.tape:1:17: Set CursorBlink expects true or false`},
		{"bad window bar", "Set WindowBar Fancy", `bad.tape:1:15: Set WindowBar "Fancy": expected Colorful`},
		{"bad JSON theme", `Set Theme { "a": }`, `bad.tape:1:11: Set Theme: the JSON object does not parse`},
		{"Type without string", "Type Enter", `bad.tape:1:6: Type expects a "string", got "Enter"`},
		{"bad count", "Enter 0", `bad.tape:1:7: bad count "0" after Enter`},
		{"bad ctrl", "Ctrl+Foo", `bad.tape:1:6: Ctrl+ expects one character or a key`},
		{"ctrl without plus", "Ctrl C", `bad.tape:1:6: Ctrl expects +KEY (e.g. Ctrl+C), got "C"`},
		{"bad wait variant", "Wait+Forever", `bad.tape:1:6: Wait+ expects Screen or Line or Command or Input, got "Forever"`},
		{"bad exit", "Wait+Command exit=x", `bad.tape:1:19: Wait+Command exit= expects an exit code from 0 to 255`},
		{"expect nothing", "Expect", `bad.tape:1:7: Expect expects "text" or /regex/, got the end of the file`},
		{"style without attributes", `ExpectStyle "x"`, `bad.tape:1:16: ExpectStyle expects attributes after the text`},
		{"unknown style", `ExpectStyle "x" shiny`, `bad.tape:1:17: ExpectStyle: unknown attribute "shiny"`},
		{"snapshot path", "Snapshot ../up", `bad.tape:1:10: Snapshot name "../up": expected letters`},
		{"mask range", "Mask rows 5-2", `bad.tape:1:6: Mask rows 5-2: the range ends before it starts`},
		{"click half", "Click 3", `bad.tape:1:8: Click expects a column after the row, got the end of the file`},
		{"screenshot ext", "Screenshot shot.jpg", `bad.tape:1:12: Screenshot "shot.jpg": expected a file with the .png extension`},
		{"source ext", "Source other.txt", `bad.tape:1:8: Source "other.txt": expected a file with the .tape extension`},
		{"source missing", "Source nope.tape", `bad.tape:1:8: Source "nope.tape" cannot be read`},
		{"stray symbol", "Type \"a\" ~", `bad.tape:1:10: unexpected '~'`},
		{"number first", "3 Enter", `bad.tape:1:1: expected a command (Type, Enter, Sleep, Wait, Expect, Set...), got the number 3`},
		{"misspelt command", "Tyep \"ls\"", `bad.tape:1:1: unknown command "Tyep": did you mean Type?`},
		{"command in lower case", "sleep 1s", `bad.tape:1:1: unknown command "sleep": did you mean Sleep?`},
		{"argument on the next line", "Expect\nType \"x\"", `bad.tape:1:8: Expect expects "text" or /regex/, got the end of the line`},
		{"argument missing on the last line", "Type \"x\"\nExpect\n", `bad.tape:2:8: Expect expects "text" or /regex/, got the end of the line`},
		{"key on the next line", "Ctrl+\nEnter", `bad.tape:1:7: Ctrl+ expects one character or a key`},
		{"unquoted absolute path", "Output /tmp/x.txt", `bad.tape:1:8: Output expects a file path (demo.gif, out.txt, frames/), got /tmp/ (a regex): a path that starts with / goes in quotes`},
		{"misspelt setting", "Set Shel bash", `bad.tape:1:5: unknown setting "Shel": did you mean Shell?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseTape("bad.tape", tt.src, fakeTapeFS(filepath.Join("testdata", "tapes", "parse")))
			var te *tapeError
			if !errors.As(err, &te) {
				t.Fatalf("parse(%q) = %v, want a tapeError", tt.src, err)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("parse(%q):\n got %s\nwant %s...", tt.src, err, tt.want)
			}
		})
	}
}

func TestTapeSourceNested(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.tape"), []byte("Source b.tape\n"), 0o644)
	_, err := parseTape("main.tape", "Source a.tape", fakeTapeFS(dir))
	if err == nil || !strings.Contains(err.Error(), "a.tape:1:1: Source inside a sourced tape") {
		t.Errorf("nested Source: %v", err)
	}
}

func TestTapeGrid(t *testing.T) {
	tests := []struct {
		name              string
		set               func(*tapeSettings)
		cols, rows, scale int
	}{
		{"font 16, no padding: Width/8 x Height/16", func(s *tapeSettings) { s.FontSize, s.Padding = 16, 0 }, 150, 37, 1},
		{"640x320 at 16", func(s *tapeSettings) { s.FontSize, s.Padding, s.Width, s.Height = 16, 0, 640, 320 }, 80, 20, 1},
		{"VHS defaults (22 px rounds to scale 1)", func(*tapeSettings) {}, 135, 30, 1},
		{"font 32 is scale 2", func(s *tapeSettings) { s.FontSize, s.Padding = 32, 0 }, 75, 18, 2},
		{"font 40 rounds to scale 3", func(s *tapeSettings) { s.FontSize, s.Padding = 40, 0 }, 50, 12, 3},
		{"font 10 is scale 1", func(s *tapeSettings) { s.FontSize = 10 }, 135, 30, 1},
		{"font 99 caps at 4", func(s *tapeSettings) { s.FontSize, s.Padding = 99, 0 }, 37, 9, 4},
		{"margin counts with a fill", func(s *tapeSettings) { s.FontSize, s.Padding, s.Margin = 16, 0, 20 }, 145, 35, 1},
		{"margin without fill does not", func(s *tapeSettings) { s.FontSize, s.Padding, s.Margin, s.MarginFill = 16, 0, 20, "" }, 150, 37, 1},
		{"window bar: ttywright's frame", func(s *tapeSettings) { s.FontSize, s.Padding, s.WindowBar = 16, 0, "Colorful" }, 147, 34, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := defaultTapeSettings()
			tt.set(&s)
			cols, rows, scale, err := s.tapeGrid()
			if err != nil {
				t.Fatal(err)
			}
			if cols != tt.cols || rows != tt.rows || scale != tt.scale {
				t.Errorf("grid = %dx%d scale %d, want %dx%d scale %d", cols, rows, scale, tt.cols, tt.rows, tt.scale)
			}
		})
	}
	s := defaultTapeSettings()
	s.Width = 100
	if _, _, _, err := s.tapeGrid(); err == nil || !strings.Contains(err.Error(), "Width 100") {
		t.Errorf("a tiny Width: %v", err)
	}
}

// FuzzTape holds the parser to "an error, or a program whose canonical
// text parses to the same program", never a panic.
func FuzzTape(f *testing.F) {
	for _, name := range []string{"vhs", "assert"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "tapes", "parse", name+".tape")); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("Type \"a\" 'b' `c`\nCtrl+Alt+Shift+x\nWait+Command@1s exit=3")
	f.Add("Set Theme {\"a\": \"}\"}\nMask rows 1-2\nExpectStyle /x/ fg=#ff0000 no-bold")
	f.Add("Alt+\"!\"\nAlt+\"#\"\nAlt+\" \"\nCtrl+[\nAlt+.") // symbols the lexer reads bare, and those it does not
	fsys := tapeFS{readFile: func(string) ([]byte, error) { return []byte("Type \"x\""), nil }, isDir: func(string) bool { return true }}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := parseTape("fuzz.tape", src, fsys)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.tape:") && !strings.Contains(err.Error(), ".tape:") {
				t.Fatalf("error without FILE:LINE:COL: %v", err)
			}
			return
		}
		for _, c := range p.Cmds {
			if c.Count < 1 || c.Dur < 0 || c.Speed < 0 {
				t.Fatalf("invalid command %#v", c)
			}
		}
		text := programText(p)
		if strings.Contains(text, `\"`) && !strings.Contains(src, `\"`) {
			return // a string holding all three quotes has no tape spelling
		}
		again, err := parseTape("canonical.tape", text, fsys)
		if err != nil {
			t.Fatalf("canonical text %q does not parse: %v", text, err)
		}
		if got := programText(again); got != text {
			t.Fatalf("round trip:\n%s\nbecame\n%s", text, got)
		}
	})
}

// TestVHSTapesParse parses every tape of a checkout of
// charmbracelet/vhs named by $TTYWRIGHT_VHS_DIR (skipped without it):
// all parse but the two VHS itself refuses (a bad setting, a shell it
// does not know). bench/vhscompat runs them.
func TestVHSTapesParse(t *testing.T) {
	root := os.Getenv("TTYWRIGHT_VHS_DIR")
	if root == "" {
		t.Skip("TTYWRIGHT_VHS_DIR is not set (a checkout of github.com/charmbracelet/vhs)")
	}
	fsys := tapeFS{
		readFile: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) },
		isDir: func(p string) bool {
			fi, err := os.Stat(filepath.Join(root, p))
			return err == nil && fi.IsDir()
		},
	}
	want := map[string]bool{"examples/errors/parser.tape": true, "examples/settings/set-shell-custom.tape": true}
	n := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".tape") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		src, _ := os.ReadFile(p)
		_, perr := parseTape(rel, string(src), fsys)
		if (perr != nil) != want[rel] {
			t.Errorf("%s: parse error %v, want one: %v", rel, perr, want[rel])
		}
		n++
		return nil
	})
	if n < 100 {
		t.Errorf("only %d tapes under %s", n, root)
	}
}

// TestTapeParseAllErrors: a tape with several errors reports each, in
// the order of its lines, one a line, and none that an unreadable token
// causes after it.
func TestTapeParseAllErrors(t *testing.T) {
	t.Parallel()
	src := "Tyep \"ls\"\nEnter 0\nType \"unclosed\nExpect /ok/\nWait+Forever\nSleep 1s\n"
	want := "bad.tape:1:1: unknown command \"Tyep\": did you mean Type?\n" +
		"bad.tape:2:7: bad count \"0\" after Enter: expected a whole number from 1 to 10000\n" +
		"bad.tape:3:6: unclosed string: expected a closing \" on the same line\n" +
		"bad.tape:5:6: Wait+ expects Screen or Line or Command or Input, got \"Forever\""
	_, err := parseTape("bad.tape", src, fakeTapeFS(filepath.Join("testdata", "tapes", "parse")))
	if err == nil || err.Error() != want {
		t.Errorf("errors:\n%v\nwant:\n%s", err, want)
	}
	var te *tapeError
	if !errors.As(err, &te) || te.Line != 1 {
		t.Errorf("errors.As finds %+v, want the first error", te)
	}
	many := strings.Repeat("Bogus\n", 50)
	if _, err := parseTape("bad.tape", many, osTapeFS); strings.Count(err.Error(), "\n")+1 != maxTapeErrors {
		t.Errorf("50 errors reported as %d lines, want %d", strings.Count(err.Error(), "\n")+1, maxTapeErrors)
	}
}

// TestTapeLayout: a tape's pictures are Width x Height pixels, as VHS
// draws them: the screen at the padding (and margin) from the edge, the
// padding in the theme's background, the margin in MarginFill, with and
// without a window frame.
func TestTapeLayout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		set     func(*tapeSettings)
		at      image.Point // where the first cell's pixel is
		corner  color.RGBA  // the pixel at (0, 0)
		ownEdge bool
	}{
		{"VHS defaults", func(*tapeSettings) {}, image.Pt(60, 60), themeList[0].Background, false},
		{"margin and fill", func(s *tapeSettings) { s.Margin, s.MarginFill = 20, "#ff0000" }, image.Pt(80, 80), color.RGBA{0xff, 0, 0, 0xff}, false},
		{"window bar", func(s *tapeSettings) { s.WindowBar, s.Margin, s.MarginFill = "Colorful", 10, "#00ff00" }, image.Pt(10+60+framePadX, 10+60+frameTitleBar+framePadTop), color.RGBA{0, 0xff, 0, 0xff}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := defaultTapeSettings()
			tc.set(&s)
			cols, rows, scale, err := s.tapeGrid()
			if err != nil {
				t.Fatal(err)
			}
			term := NewTerminal(cols, rows, 0)
			fmt.Fprint(term, "\x1b[41m \x1b[0m") // a red first cell
			opt := RenderOptions{Theme: themeList[0], Scale: scale, Layout: s.layout()}
			if s.WindowBar != "" {
				opt.Border = &Border{Style: "macos"}
			}
			img := RenderImage(term.Snapshot(), opt)
			if b := img.Bounds(); b.Dx() != s.Width || b.Dy() != s.Height {
				t.Errorf("picture %dx%d, want %dx%d", b.Dx(), b.Dy(), s.Width, s.Height)
			}
			if got := color.RGBAModel.Convert(img.At(0, 0)); got != tc.corner {
				t.Errorf("pixel (0,0) %v, want %v", got, tc.corner)
			}
			red := color.RGBAModel.Convert(img.At(tc.at.X, tc.at.Y)).(color.RGBA)
			before := color.RGBAModel.Convert(img.At(tc.at.X-1, tc.at.Y)).(color.RGBA)
			if red == before || red == themeList[0].Background {
				t.Errorf("the first cell is not at %v: %v there, %v before it", tc.at, red, before)
			}
		})
	}
}
