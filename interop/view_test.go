package interop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestBrowserView runs ts/view.test.mjs: the live view of a session in a
// real headless Chromium (Debian's, $CHROMIUM to name another) driven by
// playwright-core. The view is of a real session, served by the root
// package's TestSessionViewServeForBrowser. Without chromium it skips,
// except under CI (CI=true).
func TestBrowserView(t *testing.T) {
	t.Parallel()
	browser := os.Getenv("CHROMIUM")
	if browser == "" {
		browser = "/usr/bin/chromium"
	}
	if _, err := os.Stat(browser); err != nil {
		msg := "needs chromium (apt-get install chromium): " + err.Error()
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	runNodeTest(t, "view.test.mjs", filepath.Join("playwright-core"))
}

// viewDivergences are the bytes of a screen with what the live view drew
// wrong before (the root package's htmlDivergences): hidden text,
// strike-through, overline, combining marks, wide characters, a
// background and box lines over several rows, a curly underline in a
// colour.
const viewDivergences = "\x1b[44m        \x1b[0m ┌──┬──┐ ║ █ ▐ ┃\r\n" +
	"\x1b[44m  blue  \x1b[0m │  │  │ ║ █ ▐ ┃\r\n" +
	"\x1b[44m        \x1b[0m └──┴──┘ ║ █ ▐ ┃\r\n" +
	"pw:\x1b[8msecret\x1b[0m. \x1b[9mstrike\x1b[0m \x1b[53mover\x1b[0m\r\n" +
	"e\u0301 a\u0308\u0323 x日本y ░▒▓\r\n" +
	"\x1b[4:3;58:2::255:0:255mcurly\x1b[0m \x1b[1;31mbold red\x1b[0m \x1b[2;7mdim rev\x1b[0m\r\n" +
	"$ "

// viewExpectJS opens a second event stream of the view the page shows,
// takes its next screen frame and returns it with its cells as they
// should be painted (screenCell, the cursor's included), read with the
// painter's own reader of rows (which TestTraceScreensChromium checks
// against the root package's).
const viewExpectJS = `(async () => {
  const f = await new Promise((done, fail) => {
    const es = new EventSource(location.pathname + "/events");
    es.addEventListener("screen", (e) => { es.close(); done(JSON.parse(e.data)); });
    setTimeout(() => { es.close(); fail(new Error("no screen event in 10 s")); }, 10000);
  });
  const cur = f.cursor, cells = [];
  for (let r = 0; r < f.rows; r++) {
    const cs = ttyScreen.cells(f.lines[r]);
    while (cs.length < f.cols) cs.push({t: " ", s: f.blank | 0, w: 1});
    cells.push(cs.map((c, col) => {
      const st = f.styles[c.s], x = {t: c.t, w: c.w, fg: st.fg, bg: st.bg, bold: !!st.bold, italic: !!st.italic,
        underline: st.underline || "", ul: st.ul || "", strike: !!st.strike, overline: !!st.overline};
      const start = c.w === 0 ? col - 1 : col, width = c.w === 1 ? 1 : 2;
      if (cur[2] === 1 && cur[0] === r && cur[1] >= start && cur[1] < start + width) Object.assign(x, {fg: st.bg, bg: f.caret, ul: ""});
      return x;
    }));
  }
  return {frame: JSON.stringify(f), cells};
})()`

// TestViewChromium: the live view of a real session in headless
// Chromium, driven over the DevTools protocol. A program prints
// viewDivergences; the page paints the screen frame it gets cell by
// cell as the frame says (text, colours, attributes, widths), hidden
// text is in neither the frame nor the page, the browser finds the text,
// and rows of one background or one vertical line meet without a
// stripe or a break. With SCREEN_SHOTS=dir, a screenshot is written
// there.
func TestViewChromium(t *testing.T) {
	t.Parallel()
	browser := needChromium(t)
	s := startServer(t)
	id := s.call("shell_start", map[string]any{"command": "/bin/sh", "args": []string{"-c", `printf '%s' "$SCREEN"; exec sleep 600`},
		"cols": 36, "rows": 8, "view": true, "env": map[string]any{"SCREEN": viewDivergences}})
	url, _ := id["view_url"].(string)
	sid, _ := id["shell_session_id"].(string)
	if url == "" {
		t.Fatalf("shell_start gave no view_url: %v", id)
	}
	defer s.call("shell_stop", map[string]any{"session_id": sid})
	s.call("shell_wait", map[string]any{"session_id": sid, "wait_for": "dim rev", "timeout_ms": waitTimeout.Milliseconds()})

	bctx, _ := startChromium(t, browser, chromedp.WindowSize(1800, 1200))
	ctx, cancel := context.WithTimeout(bctx, 4*waitTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("chromium at %s: %v", url, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`[...document.querySelectorAll("#screen .row")].some((r) => r.textContent.includes("dim rev"))`)); err != nil {
		t.Fatalf("the view shows no screen: %v", err)
	}
	type expected struct {
		Frame string         `json:"frame"`
		Cells [][]screenCell `json:"cells"`
	}
	want, err := chromedp.Run(ctx, chromedp.Evaluate[expected](viewExpectJS, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[paintedScreen](paintedScreenJS))
	if err != nil {
		t.Fatal(err)
	}
	checkPainted(t, "the view", want.Cells, got)
	edges := 0
	for _, dpr := range []float64{1, 2} {
		img, png, err := screenshotOf(ctx, dpr)
		if err != nil {
			t.Fatal(err)
		}
		edges += checkNoGaps(t, fmt.Sprintf("the view at %gx", dpr), want.Cells, got, img, dpr)
		if dir := os.Getenv("SCREEN_SHOTS"); dir != "" && dpr == 2 {
			if err := os.WriteFile(filepath.Join(dir, "view-divergences.png"), png, 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	if edges < 20 {
		t.Errorf("%d cell edges checked for gaps, want 20 at least", edges)
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`[window.find("bold red", false, false, true), window.find("e\u0301 a\u0308\u0323 x日本y", false, false, true), document.body.innerText.includes("secret")]`))
	if err != nil || !found[0] || !found[1] || found[2] {
		row, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(["strike", "strike over", "x日", "curly bold", "e\u0301 a", "pw:"].map(w => [w, window.find(w, false, false, true)]))`))
		t.Errorf("find in the page: %v %v, want the words found and no hidden text on the page (row 4: %q)", found, err, row)
	}
	if strings.Contains(want.Frame, "secret") {
		t.Errorf("the screen frame carries hidden text: %s", want.Frame)
	}
}

// TestViewInputMethod: text that comes with no key of its own (an input
// method's commit, 日本; an accent a dead key made) reaches the program
// from the live view once the tab holds the keyboard, as typed keys do;
// the page dropped it before.
func TestViewInputMethod(t *testing.T) {
	t.Parallel()
	browser := needChromium(t)
	s := startServer(t)
	st := s.call("shell_start", map[string]any{"command": "cat", "cols": 40, "rows": 6, "view": true})
	url, _ := st["view_url"].(string)
	sid, _ := st["shell_session_id"].(string)
	defer s.call("shell_stop", map[string]any{"session_id": sid})

	bctx, _ := startChromium(t, browser)
	ctx, cancel := context.WithTimeout(bctx, 4*waitTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitEnabled(chromedp.ID("take")), chromedp.Click(chromedp.ID("take"))); err != nil {
		t.Fatalf("chromium at %s: %v", url, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.classList.contains("holding")`)); err != nil {
		t.Fatalf("the tab did not take the keyboard: %v", err)
	}
	typed := "日本é"
	if err := chromedp.Do(ctx,
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, input.InsertText, input.InsertTextParams{Text: typed}) // as an input method commits it
			return err
		}),
		chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	got := s.call("shell_wait", map[string]any{"session_id": sid, "wait_for": typed, "timeout_ms": waitTimeout.Milliseconds()})
	if got["matched"] != true {
		t.Errorf("the program did not get %q: %v", typed, got)
	}
}
