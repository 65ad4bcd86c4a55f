package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTypeScriptSDK runs ts/interop.test.mjs, the same scenario through the
// official TypeScript SDK client, against the binary TestMain built. It
// needs node and `npm ci` in ts/; without them it skips, except under CI
// (CI=true), where a skip would hide a missing install step.
func TestTypeScriptSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("ts", "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		msg := "needs node and the SDK: run `npm ci` in interop/ts (" + err.Error() + ")"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cmd := exec.Command(node, "--test", "--test-reporter=spec", "interop.test.mjs")
	cmd.Dir = "ts"
	cmd.Env = append(os.Environ(), "TTYWRIGHT_BIN="+binPath)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test interop.test.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("TypeScript SDK scenario failed: %v", err)
	}
}
