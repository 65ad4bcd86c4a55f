package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTraceChromium: a traced session's trace in a real browser. A Go SDK
// client drives bash with trace: true through seven tool calls; the
// trace.html that shell_stop wrote in the output directory is opened from
// its file:// URL in headless Chromium, driven over the DevTools
// protocol. The network domain sees one request, the file itself; the
// step list has one entry per tool call; and the screen the page draws
// for each of the three shell_send steps is, row for row, the bufferAfter
// of that call's reply. With TRACE_PNG=path the page is also written
// there as a PNG (docs/trace.png).
func TestTraceChromium(t *testing.T) {
	t.Parallel()
	browser := needChromium(t)
	s := startServer(t, "--cols", "80", "--rows", "16")
	calls := 0
	call := func(name string, args map[string]any) map[string]any { calls++; return s.call(name, args) }
	id, _ := call("shell_start", map[string]any{"command": "/bin/bash", "args": []string{"--norc", "--noprofile", "-i"}, "trace": true,
		"env": map[string]any{"PS1": prompt, "HISTFILE": "/dev/null", "LC_ALL": "C.UTF-8", "API_TOKEN": "do-not-keep-me"}})["shell_session_id"].(string)
	call("shell_wait", map[string]any{"session_id": id, "wait_for": promptWait})
	var screens []string // bufferAfter of the three shell_send calls
	for _, line := range []string{"echo hello from the trace\n", "printf '\\033[1;31mred\\033[0m and plain\\n'; false\n", "seq 3; ls /nonexistent\n"} {
		r := call("shell_send", map[string]any{"session_id": id, "text": line, "wait_for_command": true})
		screens = append(screens, fmt.Sprint(r["bufferAfter"]))
	}
	call("shell_screenshot", map[string]any{"session_id": id, "name": "end"})
	call("shell_stop", map[string]any{"session_id": id})

	path := filepath.Join(s.outDir, id, "trace.html")
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("shell_stop wrote no trace: %v", err)
	}
	if strings.Contains(string(page), "do-not-keep-me") {
		t.Error("the trace holds the API_TOKEN value")
	}
	res, err := s.cs.ReadResource(s.ctx(), &mcp.ReadResourceParams{URI: "session://" + id + "/trace"})
	if err != nil || len(res.Contents) != 1 || res.Contents[0].MIMEType != "text/html" || res.Contents[0].Text != string(page) {
		t.Errorf("session://%s/trace is not the file as text/html: %v", id, err)
	}
	fileURL := "file://" + path

	bctx, _ := startChromium(t, browser, chromedp.WindowSize(1280, 900))
	ctx, cancel := context.WithTimeout(bctx, 2*waitTimeout)
	defer cancel()

	var mu sync.Mutex
	var requests []string
	if err := chromedp.Listen(bctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(fileURL), chromedp.WaitVisible(chromedp.CSS("#screen .row"))); err != nil {
		t.Fatalf("chromium at %s: %v", fileURL, err)
	}
	steps, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#steps li.step").length`))
	if err != nil || steps != calls {
		t.Errorf("the step list has %d entries (%v), want one per tool call: %d", steps, err, calls)
	}
	const screenText = `Array.from(document.querySelectorAll("#screen .row")).map(r => r.textContent.replace(/ +$/, "")).join("\n").replace(/\n+$/, "")`
	for i, want := range screens {
		step := 2 + i // after shell_start and shell_wait
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#steps li[data-i="%d"]`, step)))); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](screenText))
		if err != nil {
			t.Fatal(err)
		}
		if trimLines(got) != trimLines(want) {
			t.Errorf("step %d's screen in the page:\n%s\nwant the reply's bufferAfter:\n%s", step+1, got, want)
		}
	}
	// The red word is drawn bold and red, and the before/after toggle
	// marks changed cells.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#steps li[data-i="3"]`))); err != nil {
		t.Fatal(err)
	}
	red, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#screen span")].filter(s => s.textContent === "red").map(s => s.style.cssText).join("|")`))
	if err != nil || !strings.Contains(red, "font-weight: bold") || !regexp.MustCompile(`color: rgb\(2[0-9][0-9], `).MatchString(red) {
		t.Errorf("the red word's style: %q (%v)", red, err)
	}
	marked, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#screen .chg").length`))
	if err != nil || marked == 0 {
		t.Errorf("no changed cells marked after a command (%d, %v)", marked, err)
	}
	if out := os.Getenv("TRACE_PNG"); out != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err == nil {
			err = os.WriteFile(out, png, 0o644)
		}
		if err != nil {
			t.Errorf("TRACE_PNG: %v", err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(requests) != 1 || requests[0] != fileURL {
		t.Errorf("the page made requests %q, want only the file itself", requests)
	}
}

// trimLines drops trailing blanks of each line and trailing empty lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// TestTraceScreensChromium: the one painter (the root package's html.go)
// in a real browser, on real programs' screens. The root package's
// TestTraceScreensForBrowser writes a trace with one step a screen
// (vim, less, man, git log, bash, htop, alacritty's recordings, the
// render goldens' screens and one of what the pages drew wrong before:
// hidden text, strike-through, overline, combining marks, wide
// characters, a background and box lines over several rows) and each
// screen's cells as a screenshot draws them. Headless Chromium opens the
// trace and shows each step: every cell's text, colours and attributes,
// as Chromium computed them, are the cell's, each span as wide as its
// columns; and at the edge between two rows of one background, or of
// one vertical line, the pixels on both sides are the same: no stripe,
// no break. Hidden text is nowhere on the page, and text is found with
// the browser's find. With SCREEN_SHOTS=dir, screenshots of a few steps
// are written there.
func TestTraceScreensChromium(t *testing.T) {
	t.Parallel()
	browser := needChromium(t)
	dir := t.TempDir()
	gen := exec.Command("go", "test", "-count=1", "-run", "^TestTraceScreensForBrowser$", ".")
	gen.Dir = ".."
	gen.Env = append(os.Environ(), "TTYWRIGHT_TRACE_SCREENS="+dir)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("writing the trace of the screens: %v\n%s", err, out)
	}
	var want [][][]screenCell
	b, err := os.ReadFile(filepath.Join(dir, "cells.json"))
	if err == nil {
		err = json.Unmarshal(b, &want)
	}
	if err != nil || len(want) == 0 {
		t.Fatalf("cells.json: %v (%d screens)", err, len(want))
	}

	bctx, _ := startChromium(t, browser, chromedp.WindowSize(1800, 1200))
	ctx, cancel := context.WithTimeout(bctx, 8*waitTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(dir, "trace.html")), chromedp.WaitVisible(chromedp.CSS("#screen .row")),
		chromedp.Click(chromedp.ID("mark"))); err != nil { // no changed-cell marks over the colours
		t.Fatal(err)
	}
	shots := os.Getenv("SCREEN_SHOTS")
	edges := 0
	for i, cells := range want {
		name, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`select(%d), D.steps[%d].tool`, i, i)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[paintedScreen](paintedScreenJS))
		if err != nil {
			t.Fatal(err)
		}
		checkPainted(t, name, cells, got)
		for _, dpr := range []float64{1, 2} {
			img, png, err := screenshotOf(ctx, dpr)
			if err != nil {
				t.Fatal(err)
			}
			edges += checkNoGaps(t, fmt.Sprintf("%s at %gx", name, dpr), cells, got, img, dpr)
			if shots != "" && dpr == 2 && regexp.MustCompile(`^(divergences|htop|vim|render/boxes|render/attributes)`).MatchString(name) {
				if err := os.WriteFile(filepath.Join(shots, "trace-"+strings.NewReplacer("/", "-").Replace(name)+".png"), png, 0o644); err != nil {
					t.Error(err)
				}
			}
		}
		if name == "divergences" {
			found, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`[window.find("bold red", false, false, true), window.find("e\u0301 a\u0308\u0323 x日本y", false, false, true), document.body.innerText.includes("secret")]`))
			if err != nil || !found[0] || !found[1] || found[2] {
				t.Errorf("find in the page: %v %v, want the words found and no hidden text on the page", found, err)
			}
		}
	}
	if edges < 20 {
		t.Errorf("%d row edges checked for gaps, want the divergences' and the boxes' (20 at least)", edges)
	}
}
