package interop

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestSecretChromium: the secret page in a real browser. A legacy
// (2025-11-25) Go SDK client without URL elicitation gets the page's link
// in shell_ask_secret's reply, as Claude Code does; headless Chromium,
// driven over the DevTools protocol, opens it as the person would, types
// a random secret into the password field #secret and clicks the button;
// the page says it was sent (the browser's own form POST, with the
// Origin and Sec-Fetch-Site a browser sets, passes the page's checks),
// and shell_wait {wait_for_input: true} shows the SHA-256 line that
// python3's getpass printed. From the browser, the page's response
// carries the Content-Security-Policy, and an image from another origin
// is refused by it. The secret is then in nothing the client got, the
// log, the recording or the session's resources.
func TestSecretChromium(t *testing.T) {
	t.Parallel()
	browser := needChromium(t)
	secret, core, printed := newSecret(t)
	wire := &syncBuffer{}
	logPath := filepath.Join(t.TempDir(), "calls.jsonl")
	s := startServerWith(t, clientSetup{version: "2025-11-25", wire: wire}, "--log-path", logPath)
	id := s.startSecretPrompt()
	s.call("shell_record_start", map[string]any{"session_id": id, "fps": 10})
	pageURL := askSecretLink(t, s, id)

	bctx, stopChromium := startChromium(t, browser, chromedp.Flag("password-store", "basic")) // no keyring for the password field
	ctx, cancel := context.WithTimeout(bctx, 2*waitTimeout)
	defer cancel()

	// The headers of each document the browser got from the page's URL:
	// the form, then the answer to its POST.
	var mu sync.Mutex
	var docs []network.Headers
	if err := chromedp.Listen(bctx, func(ev any) {
		if e, ok := ev.(*network.EventResponseReceived); ok && e.Type == network.ResourceTypeDocument && e.Response.URL == pageURL {
			mu.Lock()
			docs = append(docs, e.Response.Headers)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}

	// An image from another origin (a loopback port nothing serves, so
	// no request leaves the machine even if the policy let it through):
	// the page's policy must refuse it before any request.
	const cspProbe = `new Promise(done => {
		document.addEventListener('securitypolicyviolation', e => done('blocked by ' + e.effectiveDirective), {once: true});
		const img = new Image();
		img.onload = () => done('loaded');
		img.src = 'http://127.0.0.1:9/csp-probe.png';
		setTimeout(() => done('no violation reported'), 5000);
	})`
	if err := chromedp.Do(ctx, chromedp.Navigate(pageURL), chromedp.WaitVisible(chromedp.ID("secret"))); err != nil {
		t.Fatalf("chromium at %s: %v; screen:\n%s", pageURL, err, s.screen(id))
	}
	program, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main")))
	if err != nil {
		t.Fatal(err)
	}
	probe, err := chromedp.Run(ctx, chromedp.Evaluate[string](cspProbe, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Errorf("the CSP probe: %v", err)
	}
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("secret"), secret),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.Search(`//h1[normalize-space()="Sent"]`)),
	); err != nil {
		page, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
		t.Fatalf("typing into the page and submitting it: %v (page %q); screen:\n%s", err, page, s.screen(id))
	}
	title, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("h1")))
	if err != nil {
		t.Fatal(err)
	}
	message, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("main p")))
	if err != nil {
		t.Fatal(err)
	}
	// The program as the kernel has it: the file it runs (python3.11
	// behind a pyenv shim), the name it runs as, the quoted script.
	if !strings.Contains(program, "python3") || !strings.Contains(program, `-c "import getpass`) || !strings.Contains(program, id) || !strings.Contains(program, "Passphrase:") {
		t.Errorf("the page does not show the session, the program and its prompt: %q", program)
	}
	if probe != "blocked by img-src" {
		t.Errorf("an image from another origin on the page: %q, want it blocked by the policy (img-src, from default-src 'none')", probe)
	}
	if !strings.Contains(message, "went to the program in session "+id) {
		t.Errorf("the page after submit: %q %q", title, message)
	}
	mu.Lock()
	if len(docs) < 2 {
		t.Errorf("the browser saw %d documents from the page's URL, want the form and the answer to its POST", len(docs))
	}
	for i, h := range docs {
		if csp, _ := h["Content-Security-Policy"].(string); !strings.Contains(csp, "default-src 'none'") || h["Cache-Control"] != "no-store" {
			t.Errorf("document %d from the page's URL, in the browser: Content-Security-Policy %q, want default-src 'none', and no-store (headers %v)", i+1, csp, h)
		}
	}
	mu.Unlock()
	for _, secretIn := range []string{title, message, program} {
		secretNowhere(t, "the page", secretIn, secret, core)
	}

	r := s.call("shell_wait", map[string]any{"session_id": id, "wait_for_input": true, "timeout_ms": waitTimeout.Milliseconds()})
	if r["ended_by"] != "input" || !strings.Contains(fmt.Sprint(r["buffer"]), printed) {
		t.Errorf("shell_wait {wait_for_input} = %v; want %q on the screen", r, printed)
	}
	// The page is spent: loading it again fails (nothing listens once no
	// page waits; while another page waited, this one would answer 410).
	if resp, err := chromedp.RunResponse(ctx, chromedp.Navigate(pageURL)); err == nil && resp.Status == http.StatusOK {
		t.Errorf("the page answered 200 after it was used")
	}
	stopChromium()
	checkSecretNowhere(t, s, id, logPath, wire.String(), printed, secret, core)
}

// needChromium returns the path of Debian's chromium; without it the
// test skips, or fails under CI (CI=true), where .ci/run installs it.
func needChromium(t *testing.T) string {
	t.Helper()
	browser, err := exec.LookPath("chromium")
	if err != nil {
		msg := "chromium is not installed (apt-get install -y chromium): " + err.Error()
		if os.Getenv("CI") != "" {
			t.Fatal(msg + "; .ci/run must install it")
		}
		t.Skip(msg)
	}
	return browser
}

// startChromium starts headless Chromium at browser with a fresh
// profile, the flags this closed network needs and extra options, and
// returns its context and stop, which ends it (so does the test's end).
// Chromium's output is logged when the test fails.
func startChromium(t *testing.T, browser string, extra ...chromedp.ExecAllocatorOption) (context.Context, func()) {
	t.Helper()
	var chromeOut syncBuffer
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true), // the tests run as root in CI
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.CombinedOutput(&chromeOut),
	}, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	stop := func() { cancelBrowser(); cancelAlloc() }
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("chromium's output:\n%s", chromeOut.String())
		}
	})
	// The first call starts the browser, which lives as long as the
	// context of that call: so that one has no timeout, the others do.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting chromium: %v\n%s", err, chromeOut.String())
	}
	return bctx, stop
}

// screenCell is one cell of a screen as a page should paint it, the
// cursor's included: the root package's browserCell.
type screenCell struct {
	T         string `json:"t"` // "" for the right half of a wide character
	W         int    `json:"w"` // columns: 1, 2 for a wide character, 0 for its right half
	FG        string `json:"fg"`
	BG        string `json:"bg"`
	Bold      bool   `json:"bold"`
	Italic    bool   `json:"italic"`
	Underline string `json:"underline"`
	UL        string `json:"ul"`
	Strike    bool   `json:"strike"`
	Overline  bool   `json:"overline"`
}

// paintedScreen is #screen as Chromium laid it out and computed its
// styles: the width of a column, its background, and each row.
type paintedScreen struct {
	Cell float64      `json:"cell"` // CSS pixels a column
	BG   string       `json:"bg"`
	Rows []paintedRow `json:"rows"`
}

// paintedRow is one painted row: where it is (CSS pixels from #screen's
// top left), its text spans and its boxes (backgrounds, shapes, caret),
// placed in CSS pixels from the row's left.
type paintedRow struct {
	X      float64       `json:"x"`
	Y      float64       `json:"y"`
	Height float64       `json:"height"`
	Spans  []paintedSpan `json:"spans"`
	Boxes  []paintedBox  `json:"boxes"`
}

// paintedSpan is one text span of a row: its first column, where it is,
// its text and its computed style.
type paintedSpan struct {
	Col       int     `json:"col"`
	X         float64 `json:"x"`
	Width     float64 `json:"width"`
	Text      string  `json:"text"`
	Class     string  `json:"class"`
	Color     string  `json:"color"`
	Weight    string  `json:"weight"`
	Style     string  `json:"style"`
	Line      string  `json:"line"`
	LineStyle string  `json:"lineStyle"`
	LineColor string  `json:"lineColor"`
	Fill      string  `json:"fill"`
}

// paintedBox is one box of a row: its class ("bg", "shape" or "caret"),
// where it is and its colour.
type paintedBox struct {
	Class string  `json:"class"`
	X     float64 `json:"x"`
	Width float64 `json:"width"`
	Color string  `json:"color"`
}

// paintedScreenJS reads #screen into a paintedScreen.
const paintedScreenJS = `(() => {
  const el = document.getElementById("screen"), box = el.getBoundingClientRect(), rows = [...el.querySelectorAll(".row")];
  return {cell: ttyScreen.cellWidth(el), bg: getComputedStyle(el).backgroundColor, rows: rows.map((row) => {
    const rr = row.getBoundingClientRect();
    return {x: rr.left - box.left, y: rr.top - box.top, height: rr.height,
      spans: [...row.querySelectorAll(":scope > span")].map((s) => {
        const cs = getComputedStyle(s), r = s.getBoundingClientRect();
        return {col: +s.dataset.c, x: r.left - rr.left, width: r.width, text: s.textContent, class: s.className,
          color: cs.color, weight: cs.fontWeight, style: cs.fontStyle, line: cs.textDecorationLine,
          lineStyle: cs.textDecorationStyle, lineColor: cs.textDecorationColor, fill: cs.webkitTextFillColor};
      }),
      boxes: [...row.querySelectorAll(":scope > i")].map((b) => {
        const r = b.getBoundingClientRect();
        return {class: b.className, x: r.left - rr.left, width: r.width, color: getComputedStyle(b).backgroundColor};
      })};
  })};
})()`

// rgb is a #rrggbb colour as getComputedStyle writes it.
func rgb(hex string) string {
	var r, g, b int
	fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
	return fmt.Sprintf("rgb(%d, %d, %d)", r, g, b)
}

// cssUnderlines are the CSS text-decoration-style of each underline.
var cssUnderlines = map[string]string{"single": "solid", "double": "double", "curly": "wavy", "dotted": "dotted", "dashed": "dashed"}

// checkPainted compares a painted screen with the cells it should show:
// each row's text spans cover its columns once, in order, each as wide
// as its columns, its text its cells' texts; each cell's colour and
// attributes are its span's computed style, and its background the
// colour of the background box over it (the screen's where there is
// none); a box drawing or block character is drawn as shape boxes in
// its column, its text not painted. It returns how many cells differ,
// reporting the first few.
func checkPainted(t *testing.T, name string, want [][]screenCell, got paintedScreen) int {
	t.Helper()
	bad := 0
	fail := func(format string, a ...any) {
		if bad++; bad <= 5 {
			t.Errorf(name+": "+format, a...)
		}
	}
	if len(got.Rows) != len(want) {
		fail("%d rows painted, want %d", len(got.Rows), len(want))
		return bad
	}
	for r, row := range got.Rows {
		col, cols := 0, len(want[r])
		for _, sp := range row.Spans {
			if sp.Col != col {
				fail("row %d: a span at column %d, want %d", r, sp.Col, col)
				break
			}
			start, text := col, ""
			for col < cols && (col == start || len(text) < len(sp.Text) || want[r][col].W == 0) {
				text += want[r][col].T
				col++
			}
			if text != sp.Text {
				fail("row %d col %d: text %q, want %q", r, start, sp.Text, text)
				continue
			}
			if w := float64(col-start) * got.Cell; sp.Width < w-1 || sp.Width > w+1 || math.Abs(sp.X-float64(start)*got.Cell) > 1 {
				fail("row %d col %d %q: at %.1f px, %.1f px wide; want %d columns at %.1f px, %.1f px", r, start, sp.Text, sp.X, sp.Width, col-start, float64(start)*got.Cell, w)
			}
			for c := start; c < col; c++ {
				if msg := cellDiffers(want[r][c], sp, boxesAt(row, "bg", c, got.Cell), boxesAt(row, "shape", c, got.Cell), got.BG); msg != "" {
					fail("row %d col %d %q: %s", r, c, want[r][c].T, msg)
				}
			}
		}
		if col != cols {
			fail("row %d: spans cover %d columns, want %d", r, col, cols)
		}
	}
	return bad
}

// boxesAt are the boxes of class cls of row at column col: for "bg"
// the one over the column's middle, else those that reach into it.
func boxesAt(row paintedRow, cls string, col int, cell float64) []paintedBox {
	var out []paintedBox
	lo, hi := float64(col)*cell, float64(col+1)*cell
	for _, b := range row.Boxes {
		over := b.X < hi-0.1 && b.X+b.Width > lo+0.1
		if cls == "bg" {
			over = b.X <= (lo+hi)/2 && b.X+b.Width >= (lo+hi)/2
		}
		if b.Class == cls && over {
			out = append(out, b)
		}
	}
	return out
}

// cellDiffers says how cell c, painted by span sp over the background
// boxes bgs and with the shape boxes shapes in its column, differs from
// what it should look like ("" when it does not); screen is the
// screen's background.
func cellDiffers(c screenCell, sp paintedSpan, bgs, shapes []paintedBox, screen string) string {
	lines := map[string]bool{}
	for _, l := range strings.Fields(sp.Line) {
		lines[l] = true
	}
	bg := screen
	if len(bgs) > 0 {
		bg = bgs[len(bgs)-1].Color
	}
	shape := isShape(c.T)
	switch {
	case sp.Color != rgb(c.FG) || bg != rgb(c.BG):
		return fmt.Sprintf("%s on %s, want %s on %s", sp.Color, bg, rgb(c.FG), rgb(c.BG))
	case (sp.Weight == "700") != c.Bold || (sp.Style == "italic") != c.Italic:
		return fmt.Sprintf("weight %s, style %s; want bold %v, italic %v", sp.Weight, sp.Style, c.Bold, c.Italic)
	case lines["underline"] != (c.Underline != "") || lines["line-through"] != c.Strike || lines["overline"] != c.Overline:
		return fmt.Sprintf("text-decoration-line %q; want underline %q, strike %v, overline %v", sp.Line, c.Underline, c.Strike, c.Overline)
	case c.Underline != "" && sp.LineStyle != cssUnderlines[c.Underline]:
		return fmt.Sprintf("text-decoration-style %s, want %s", sp.LineStyle, cssUnderlines[c.Underline])
	case c.Underline != "" && c.UL != "" && !c.Strike && !c.Overline && sp.LineColor != rgb(c.UL):
		return fmt.Sprintf("underline in %s, want %s", sp.LineColor, rgb(c.UL))
	case shape && (!strings.Contains(sp.Class, "shape") || sp.Fill != "rgba(0, 0, 0, 0)"):
		return fmt.Sprintf("a shape's text is painted: class %q, text fill %s", sp.Class, sp.Fill)
	case shape && len(shapes) == 0:
		return "a shape without boxes"
	}
	for _, b := range shapes {
		if b.Color != rgb(c.FG) && shape {
			return fmt.Sprintf("a shape box in %s, want %s", b.Color, rgb(c.FG))
		}
	}
	return ""
}

// checkNoGaps looks at the pixels (img, a screenshot of #screen at dpr
// device pixels a CSS pixel) where two cells of got meet, one above the
// other or side by side. Where both are blanks on one background (not
// the screen's), the pixels on both sides of the edge are that
// background: no stripe. Where both are box drawing or block characters
// in one colour (joiner), a line that crosses the edge (the same colour
// a few pixels before it and a few after) does not break at it. It returns how
// many edges it checked.
func checkNoGaps(t *testing.T, name string, want [][]screenCell, got paintedScreen, img image.Image, dpr float64) int {
	t.Helper()
	blank := want[len(want)-1][len(want[0])-1].BG
	px := func(x, y int) string { return hexOf(img.At(x, y)) }
	bad := 0
	fail := func(format string, a ...any) {
		if bad++; bad <= 5 {
			t.Errorf(name+": "+format, a...)
		}
	}
	checked := 0
	// edge checks the pixel runs from (x0, y0) to (x1, y1) along an edge
	// between cells a and b, whose normal is (nx, ny).
	edge := func(a, b screenCell, x0, y0, x1, y1, nx, ny int, where string) {
		shapes := joiner(a.T) && joiner(b.T) && a.FG == b.FG && a.BG == b.BG
		blanks := a.T == " " && b.T == " " && a.BG == b.BG && a.BG != blank
		if a.W != 1 || b.W != 1 || !shapes && !blanks {
			return
		}
		checked++
		for x, y := x0, y0; x <= x1 && y <= y1; x, y = x+ny, y+nx {
			before, after := px(x-nx, y-ny), px(x, y)
			switch far := px(x-3*nx, y-3*ny); {
			case blanks && (before != a.BG || after != a.BG):
				fail("%s: pixels (%d,%d) and (%d,%d) across the edge are %s and %s, want the background %s", where, x-nx, y-ny, x, y, before, after, a.BG)
			case shapes && far != a.BG && far == px(x+2*nx, y+2*ny) && (before != far || after != far):
				fail("%s %q|%q: a line in %s breaks at the edge, pixels (%d,%d) and (%d,%d) are %s and %s", where, a.T, b.T, far, x-nx, y-ny, x, y, before, after)
			}
		}
	}
	cols := len(want[0])
	for r, row := range got.Rows {
		y0, y1 := int(math.Ceil(row.Y*dpr))+1, int(math.Floor((row.Y+row.Height)*dpr))-2
		for c := range cols {
			x0, x1 := int(math.Ceil((row.X+float64(c)*got.Cell)*dpr))+1, int(math.Floor((row.X+float64(c+1)*got.Cell)*dpr))-2
			if r > 0 {
				y := int(math.Round(row.Y * dpr))
				edge(want[r-1][c], want[r][c], x0, y, x1, y, 0, 1, fmt.Sprintf("rows %d and %d, column %d", r-1, r, c))
			}
			if c > 0 {
				x := int(math.Round((row.X + float64(c)*got.Cell) * dpr))
				edge(want[r][c-1], want[r][c], x, y0, x, y1, 1, 0, fmt.Sprintf("row %d, columns %d and %d", r, c-1, c))
			}
		}
	}
	return checked
}

// joiner reports whether text is a shape whose strokes meet the cell's
// edges whole where they reach them: box drawing (U+2500-257F) but the
// dashed lines and the diagonals, and the full and half blocks (a
// partial block, a quadrant or a shade may stop short of an edge that a
// neighbour fills, by design).
func joiner(text string) bool {
	rs := []rune(text)
	return len(rs) == 1 && (rs[0] >= 0x2500 && rs[0] <= 0x257F && !strings.ContainsRune("┄┅┆┇┈┉┊┋╌╍╎╏╱╲╳", rs[0]) ||
		strings.ContainsRune("█▀▄▌▐", rs[0]))
}

// isShape reports whether text is one box drawing or block character,
// which the painter draws as shapes.
func isShape(text string) bool {
	rs := []rune(text)
	return len(rs) == 1 && rs[0] >= 0x2500 && rs[0] <= 0x259F
}

// hexOf is c as #rrggbb.
func hexOf(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// screenshotOf captures #screen at dpr device pixels a CSS pixel, in a
// 1800x1200 viewport: the image and its PNG.
func screenshotOf(ctx context.Context, dpr float64) (image.Image, []byte, error) {
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1800, 1200, chromedp.EmulateScale(dpr))); err != nil {
		return nil, nil, err
	}
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID("screen")))
	if err != nil {
		return nil, nil, err
	}
	img, err := png.Decode(bytes.NewReader(buf))
	return img, buf, err
}
