package interop

import (
	"bufio"
	"bytes"
	"context"
	"image/png"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer is the binary serving --http on a free loopback port.
type httpServer struct {
	url       string // http://127.0.0.1:PORT/mcp
	token     string
	stderr    *syncBuffer
	approvals chan string // the OAuth approval codes it prints, as it prints them
}

var (
	servingRE  = regexp.MustCompile(`serving MCP on (\S+)`)
	approvalRE = regexp.MustCompile(`approval code for .*: (\d{3}-\d{3}) `)
)

// startHTTPBinary runs the binary with --http 127.0.0.1:0 and a token file
// of its own, and waits for the URL on stderr. On cleanup it sends SIGTERM
// and checks the exit status.
func startHTTPBinary(t *testing.T, extra ...string) *httpServer {
	t.Helper()
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	args := append([]string{"--http", "127.0.0.1:0", "--http-token-file", tokenFile, "--output-dir", filepath.Join(dir, "out")}, extra...)
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), "SHELL=/bin/bash")
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hs := &httpServer{stderr: &syncBuffer{}, approvals: make(chan string, 16)}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			hs.stderr.Write([]byte(sc.Text() + "\n"))
			if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
			if m := approvalRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case hs.approvals <- m[1]:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server exited with %v after SIGTERM", err)
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Error("server still running 20 s after SIGTERM")
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", hs.stderr.String())
		}
	})
	select {
	case hs.url = <-found:
	case <-time.After(waitTimeout):
		t.Fatalf("no URL on stderr:\n%s", hs.stderr.String())
	}
	b, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	hs.token = strings.TrimSpace(string(b))
	return hs
}

// bearer adds the token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTPGoSDK: the Go SDK's streamable HTTP client drives the whole
// story against ttywright --http: start bash, a command with
// wait_for_command, an inline screenshot and its resource read as a blob,
// a subscription's update over the session's SSE stream, stop.
func TestHTTPGoSDK(t *testing.T) {
	t.Parallel()
	needProgram(t, "bash")
	for _, version := range []string{"", "2025-11-25"} { // "": the SDK's choice, 2026-07-28
		t.Run("version="+version, func(t *testing.T) { httpGoSDKStory(t, version) })
	}
}

func httpGoSDKStory(t *testing.T, version string) {
	hs := startHTTPBinary(t)
	s := &server{t: t, updates: make(chan string, 256), listed: make(chan struct{}, 256)}
	client := mcp.NewClient(&mcp.Implementation{Name: "ttywright-interop-http", Version: "1.0.0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case s.updates <- r.Params.URI:
			default:
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, HTTPClient: &http.Client{Transport: bearer{hs.token}}}, opts)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, hs.stderr.String())
	}
	s.cs = cs
	defer cs.Close()
	t.Logf("Go SDK over HTTP negotiated %s", cs.InitializeResult().ProtocolVersion)
	httpStory(t, s)
}

// httpStory is the whole story over HTTP with s's client: bash, a
// command with wait_for_command, a subscription's update, an inline
// screenshot and its resource read as a blob, stop.
func httpStory(t *testing.T, s *server) {
	cs := s.cs
	id := s.startBash("")
	r := s.call("shell_send", map[string]any{"session_id": id, "input": "echo over-http-$((6*7))\r", "wait_for_command": true})
	if c, _ := r["command"].(map[string]any); c == nil || c["exit_code"] != 0.0 || !strings.Contains(s.screen(id), "over-http-42") {
		t.Fatalf("wait_for_command: %v", r["command"])
	}

	buf := "session://" + id + "/buffer"
	if err := cs.Subscribe(s.ctx(), &mcp.SubscribeParams{URI: buf}); err != nil {
		t.Fatalf("resources/subscribe: %v", err)
	}
	drain(s.updates)
	s.send(id, `echo tick$((2+2))\r`, "tick4")
	waitUpdate(t, s.updates, buf)

	res := s.callRaw("shell_screenshot", map[string]any{"session_id": id, "name": "remote", "inline": true})
	if res.IsError {
		t.Fatalf("shell_screenshot: %s", textOf(res))
	}
	var sawImage bool
	for _, c := range res.Content {
		if img, ok := c.(*mcp.ImageContent); ok {
			_, err := png.Decode(bytes.NewReader(img.Data))
			sawImage = err == nil
		}
	}
	if !sawImage {
		t.Error("no inline PNG over HTTP")
	}
	shot := structured(t, res)
	rc := readResource(t, s, shot["uri"].(string))
	if rc == nil || !bytes.HasPrefix(rc.Blob, []byte("\x89PNG")) {
		t.Errorf("resources/read %v: not a PNG blob", shot["uri"])
	}

	if r := s.call("shell_stop", map[string]any{"session_id": id}); r["exit_code"] == nil && r["signal"] == nil && r["stopped"] == nil {
		t.Logf("shell_stop: %v", r)
	}
}
