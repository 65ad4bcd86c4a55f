package interop

import (
	"path/filepath"
	"testing"
)

// TestAppsChromium runs ts/apps.test.mjs: the terminal app,
// ui://ttywright/terminal, in the official @modelcontextprotocol/ext-apps
// host bridge (AppBridge) with the TypeScript SDK v2 client, in headless
// Chromium, over stdio (relayed by the test's Node side) and over --http.
// With SCREEN_SHOTS=dir, it writes its screenshots there.
func TestAppsChromium(t *testing.T) {
	t.Parallel()
	needChromium(t)
	needProgram(t, "vim")
	needProgram(t, "htop")
	needProgram(t, "python3")
	runNodeTest(t, "apps.test.mjs", filepath.Join("@modelcontextprotocol", "ext-apps"))
}
