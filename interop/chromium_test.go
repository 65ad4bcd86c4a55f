package interop

import (
	"context"
	"fmt"
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
