package interop

import (
	"context"
	"fmt"
	"os"
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
