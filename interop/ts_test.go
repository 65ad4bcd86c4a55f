package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTypeScriptSDK runs ts/interop.test.mjs, the same scenario through the
// official TypeScript SDK client (which speaks the legacy era: initialize),
// against the binary TestMain built.
func TestTypeScriptSDK(t *testing.T) {
	t.Parallel()
	runNodeTest(t, "interop.test.mjs", filepath.Join("@modelcontextprotocol", "sdk"))
}

// TestInspector runs ts/inspector.test.mjs: the MCP Inspector's CLI pinned
// to the stateless 2026-07-28 era (--protocol-era modern, and its mcpdo
// connection CLI with --era modern for a whole terminal session).
func TestInspector(t *testing.T) {
	t.Parallel()
	runNodeTest(t, "inspector.test.mjs", filepath.Join("@modelcontextprotocol", "inspector"))
}

// TestTypeScriptSecret runs ts/secret.test.mjs: shell_ask_secret through
// the official TypeScript SDK v2 client (@modelcontextprotocol/client),
// whose URL-mode elicitation handler plays the person at the page, in the
// 2026-07-28 era (input_required, fulfilled and retried by the client)
// and the 2025-11-25 era (elicitation/create, then
// notifications/elicitation/complete).
func TestTypeScriptSecret(t *testing.T) {
	t.Parallel()
	needProgram(t, "python3") // the program that reads the secret
	runNodeTest(t, "secret.test.mjs", filepath.Join("@modelcontextprotocol", "client"))
}

// TestTypeScriptHTTP runs ts/http.test.mjs: ttywright --http with its
// bearer token, driven by the TypeScript SDK v2 client's streamable HTTP
// transport in both eras (the whole story, a subscription's update over
// SSE included), then the MCP Inspector CLI with --transport http.
func TestTypeScriptHTTP(t *testing.T) {
	t.Parallel()
	needProgram(t, "bash")
	runNodeTest(t, "http.test.mjs", filepath.Join("@modelcontextprotocol", "client"))
}

// TestTypeScriptShared runs ts/shared.test.mjs: ttywright --shared as
// Claude Code would use it, through the TypeScript SDK client: client A
// starts a web server and vim and exits, client B (a new process) finds,
// reads, saves and fetches, while ttywright attach in tmux watches.
func TestTypeScriptShared(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"python3", "vim", "tmux"} {
		needProgram(t, p)
	}
	runNodeTest(t, "shared.test.mjs", filepath.Join("@modelcontextprotocol", "sdk"))
}

// TestTypeScriptCodegen runs ts/codegen.test.mjs: an agent's session
// through the TypeScript SDK client (vim, a CLI's failing and passing
// command, a dialog menu) whose session://{id}/tape, replayed with
// ttywright test, passes, then fails when the CLI prints something else.
func TestTypeScriptCodegen(t *testing.T) {
	t.Parallel()
	needProgram(t, "bash")
	needProgram(t, "vim")
	needProgram(t, "dialog")
	runNodeTest(t, "codegen.test.mjs", filepath.Join("@modelcontextprotocol", "sdk"))
}

// runNodeTest runs one node --test file in ts/ with TTYWRIGHT_BIN set. It
// needs node and `npm ci` in ts/ (the package under node_modules); without
// them it skips, except under CI (CI=true), where a skip would hide a
// missing install step.
func runNodeTest(t *testing.T, file, pkg string) {
	runNodeTestIn(t, file, pkg, nil, nil)
}

// runNodeTestIn is runNodeTest with the command run by wrap (a command
// and its arguments before node's, e.g. unshare) and env added.
func runNodeTestIn(t *testing.T, file, pkg string, wrap, env []string) {
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join("ts", "node_modules", pkg, "package.json"))
	}
	if err != nil {
		msg := "needs node and " + pkg + ": run `npm ci` in interop/ts (" + err.Error() + ")"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	args := append(append(wrap, node), "--test", "--test-reporter=spec", file)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = "ts"
	cmd.Env = append(append(os.Environ(), "TTYWRIGHT_BIN="+binPath), env...)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test %s:\n%s", file, out)
	if err != nil {
		t.Fatalf("%s failed: %v", file, err)
	}
}
