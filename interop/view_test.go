package interop

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBrowserView runs ts/view.test.mjs: the live view of a session in a
// real headless Chromium (Debian's, $CHROMIUM to name another) driven by
// playwright-core. The view is of a real session, served by the root
// package's TestSessionViewServeForBrowser. Without chromium it skips,
// except under CI (CI=true).
func TestBrowserView(t *testing.T) {
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
