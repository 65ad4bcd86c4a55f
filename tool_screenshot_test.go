package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// renderTestApp returns an App writing under a temporary directory with
// one session, "s1", whose terminal has been fed data.
func renderTestApp(t *testing.T, cols, rows int, data string) (*App, *Session) {
	t.Helper()
	a := newApp(Config{Theme: "one-dark", Cols: cols, Rows: rows, Scale: 2, OutputDir: filepath.Join(t.TempDir(), "out")})
	s := &Session{ID: "s1", Command: "test", Theme: "one-dark", Started: time.Now(), term: NewTerminal(cols, rows, 100)}
	s.term.Write([]byte(data))
	addTestSession(a, s)
	return a, s
}

// renderCall runs shell_screenshot with JSON arguments.
func renderCall(t *testing.T, a *App, args string) *ToolResult {
	t.Helper()
	return a.tools.toolShellScreenshot().Handle(context.Background(), &ToolCall{Args: json.RawMessage(args)})
}

func TestScreenshotFiles(t *testing.T) {
	t.Parallel()
	a, s := renderTestApp(t, 20, 4, "\x1b[1;31mhello\x1b[0m world\r\n$ ")
	for _, tc := range []struct {
		name, args      string
		file            string
		width, height   int
		inline, inlineW int // inline: want an image block of width inlineW
	}{
		{"default", `{"session_id":"s1"}`, "screenshot-1", 320, 128, 0, 0},
		{"named", `{"session_id":"s1","name":"step-2.png","scale":1}`, "step-2", 160, 64, 0, 0},
		{"inline", `{"session_id":"s1","name":"look","inline":true}`, "look", 320, 128, 1, 160},
		{"inline scaled", `{"session_id":"s1","name":"look3","inline":true,"scale":3}`, "look3", 480, 192, 1, 480},
		{"border", `{"session_id":"s1","name":"framed","border":{"style":"macos","title":"demo"},"scale":1}`, "framed", 160 + 20, 64 + 28 + 16, 0, 0},
		{"border no style", `{"session_id":"s1","name":"framed2","border":{"title":"x"},"scale":1}`, "framed2", 180, 108, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := renderCall(t, a, tc.args)
			if r.IsError {
				t.Fatalf("error: %s", r.Text)
			}
			res := r.Structured.(screenshotResult)
			if res.Filename != tc.file+".png" || res.URI != "session://s1/screenshots/"+tc.file {
				t.Errorf("filename %q uri %q, want %s.png", res.Filename, res.URI, tc.file)
			}
			if res.Width != tc.width || res.Height != tc.height {
				t.Errorf("size %dx%d, want %dx%d", res.Width, res.Height, tc.width, tc.height)
			}
			for _, p := range []string{res.PNGPath, res.SVGPath, res.ANSIPath, res.TXTPath} {
				if filepath.Dir(p) != filepath.Join(a.cfg.OutputDir, "s1") {
					t.Errorf("%s is not in the session directory", p)
				}
				if _, err := os.Stat(p); err != nil {
					t.Error(err)
				}
				if _, err := os.Stat(p + ".part"); err == nil {
					t.Errorf("%s.part left behind", p)
				}
			}
			data, err := os.ReadFile(res.PNGPath)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != tc.width || b.Dy() != tc.height || res.Bytes != int64(len(data)) {
				t.Errorf("file is %v, %d bytes; result says %dx%d, %d bytes", b, len(data), res.Width, res.Height, res.Bytes)
			}
			var images, links int
			for _, c := range r.Extra {
				switch c.Type {
				case "image":
					images++
					raw, err := base64.StdEncoding.DecodeString(c.Data)
					if err != nil || c.MimeType != "image/png" {
						t.Fatalf("inline image: %v, %q", err, c.MimeType)
					}
					im, err := png.Decode(bytes.NewReader(raw))
					if err != nil || im.Bounds().Dx() != tc.inlineW {
						t.Errorf("inline image: %v, width %d, want %d", err, im.Bounds().Dx(), tc.inlineW)
					}
				case "resource_link":
					links++
					if c.URI != res.URI || c.MimeType != "image/png" {
						t.Errorf("resource_link %+v", c)
					}
				}
			}
			if images != tc.inline || links != 1 {
				t.Errorf("%d image blocks, %d resource links; want %d, 1", images, links, tc.inline)
			}
		})
	}
	// The same name again replaces the capture; default names skip used ones.
	if r := renderCall(t, a, `{"session_id":"s1","name":"look","scale":1}`); r.IsError {
		t.Fatal(r.Text)
	}
	if r := renderCall(t, a, `{"session_id":"s1","name":"screenshot-2"}`); r.IsError {
		t.Fatal(r.Text)
	}
	if r := renderCall(t, a, `{"session_id":"s1"}`); r.IsError || r.Structured.(screenshotResult).Filename != "screenshot-3.png" {
		t.Errorf("default name after screenshot-1 and -2: %+v", r.Structured)
	}
	var names []string
	for _, c := range s.Screenshots() {
		names = append(names, c.Name)
		if c.Name == "look" && c.Width != 160 {
			t.Errorf("retaken screenshot kept the old size %d", c.Width)
		}
	}
	if want := "screenshot-1 step-2 look look3 framed framed2 screenshot-2 screenshot-3"; strings.Join(names, " ") != want {
		t.Errorf("screenshots %q, want %q", names, want)
	}

	// Inline by default when the server says so.
	a.cfg.InlineImages = true
	reconfigure(a)
	r := renderCall(t, a, `{"session_id":"s1","name":"auto"}`)
	if r.IsError || len(r.Extra) != 2 || r.Extra[0].Type != "image" {
		t.Errorf("--inline-images: got %+v", r.Extra)
	}
}

func TestScreenshotBadInput(t *testing.T) {
	t.Parallel()
	a, _ := renderTestApp(t, 10, 2, "")
	for _, tc := range []struct{ args, want string }{
		{`{"session_id":"nope"}`, "shell_start"},
		{`{}`, "session_id"},
		{`{"session_id":"s1","name":"../x"}`, "'..'"},
		{`{"session_id":"s1","name":"a/b"}`, "path separators"},
		{`{"session_id":"s1","name":"   "}`, "empty"},
		{`{"session_id":"s1","name":".png"}`, "empty"},
		{`{"session_id":"s1","scale":0}`, "1 to 4"},
		{`{"session_id":"s1","scale":5}`, "1 to 4"},
		{`{"session_id":"s1","border":{"style":"windows"}}`, `"macos"`},
		{`{"session_id":"s1","scale":"big"}`, "integer"},
	} {
		r := renderCall(t, a, tc.args)
		if !r.IsError || !strings.Contains(r.Text, tc.want) {
			t.Errorf("%s: isError=%v %q, want an error mentioning %q", tc.args, r.IsError, r.Text, tc.want)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(a.cfg.OutputDir, "s1")); len(entries) != 0 {
		t.Errorf("bad calls wrote files: %v", entries)
	}
}

// TestScreenshotConcurrent: screenshots of one session taken at once (an
// agent's parallel tool calls) get names of their own and all succeed.
func TestScreenshotConcurrent(t *testing.T) {
	t.Parallel()
	a, s := renderTestApp(t, 10, 2, "hi")
	const n = 6
	results := make(chan *ToolResult, n)
	for range n {
		go func() { results <- renderCall(t, a, `{"session_id":"s1","scale":1}`) }()
	}
	names := map[string]bool{}
	for range n {
		r := <-results
		if r.IsError {
			t.Errorf("error: %s", r.Text)
			continue
		}
		names[r.Structured.(screenshotResult).Filename] = true
	}
	if len(names) != n || len(s.Screenshots()) != n {
		t.Errorf("%d screenshots at once: names %v, %d listed, want %d of each", n, slices.Sorted(maps.Keys(names)), len(s.Screenshots()), n)
	}
	for name := range names {
		if _, err := os.Stat(filepath.Join(a.cfg.OutputDir, "s1", name)); err != nil {
			t.Error(err)
		}
	}
}

// TestScreenshotSymlink: a symlink planted as the session directory cannot
// lead the files outside the output directory.
func TestScreenshotSymlink(t *testing.T) {
	t.Parallel()
	a, _ := renderTestApp(t, 10, 2, "")
	outside := t.TempDir()
	if err := os.MkdirAll(a.cfg.OutputDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(a.cfg.OutputDir, "s1")); err != nil {
		t.Skip(err)
	}
	r := renderCall(t, a, `{"session_id":"s1","name":"x"}`)
	if !r.IsError {
		t.Errorf("wrote through a symlink: %+v", r.Structured)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("files outside the output directory: %v", entries)
	}
}

// TestScreenTextForms checks the .txt, .ansi and .svg forms of a screen.
func TestScreenTextForms(t *testing.T) {
	t.Parallel()
	s := renderBlank(12, 3)
	renderPut(s, 0, 0, "hi", PaletteColor(1), 0, AttrBold)
	renderPut(s, 0, 3, "中e\u0301<&>", 0, PaletteColor(12), 0)
	renderPut(s, 1, 0, "x", RGBColor(1, 2, 3), PaletteColor(200), AttrUnderline|2<<AttrULShift)
	s.Cursor = Cursor{Row: 1, Col: 1, Visible: true}

	if got, want := snapshotText(s), "hi 中e\u0301<&>\nx\n"; got != want {
		t.Errorf("text: got %q, want %q", got, want)
	}
	wantANSI := "\x1b[0;1;31mhi\x1b[0m \x1b[0;104m中e\u0301<&>\x1b[0m\n" +
		"\x1b[0;4:3;38;2;1;2;3;48;5;200mx\x1b[0m\n\n"
	if got := string(screenANSI(s, ansiLines)); got != wantANSI {
		t.Errorf("ansi: got %q, want %q", got, wantANSI)
	}

	svg := snapshotSVG(s, nil, &Border{Style: "macos", Title: "a & b"})
	dec := xml.NewDecoder(strings.NewReader(svg))
	var texts []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("svg is not XML: %v\n%s", err, svg)
		}
		if cd, ok := tok.(xml.CharData); ok && strings.TrimSpace(string(cd)) != "" {
			texts = append(texts, string(cd))
		}
	}
	for _, want := range []string{"a & b", "hi", "中e\u0301<&>", "x"} {
		if !slices.Contains(texts, want) {
			t.Errorf("svg text %q missing from %q", want, texts)
		}
	}
	if !strings.Contains(svg, `font-weight="bold"`) || !strings.Contains(svg, `fill="#ff7a85"`) {
		t.Errorf("svg lacks bold bright red:\n%s", svg)
	}
}
