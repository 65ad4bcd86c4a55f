package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hashPrompt reads a secret with getpass and prints its SHA-256, so a
// test can check what arrived without the secret on the screen.
const hashPrompt = `import getpass, hashlib
s = getpass.getpass("Passphrase: ")
print("got", hashlib.sha256(s.encode()).hexdigest())
input("more> ")
`

// testSecret is a fresh random secret and the line hashPrompt prints
// for it.
func testSecret() (secret, printed string) {
	secret = "S3cr" + rand.Text()
	sum := sha256.Sum256([]byte(secret))
	return secret, "got " + hex.EncodeToString(sum[:])
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// personTypes plays the person: it loads the page at pageURL as a
// browser would and submits secret. It returns the status of the
// submit and the page that answered it, or 0 and the error when nothing
// listens (the door closes when no page waits).
func personTypes(t *testing.T, pageURL, secret string) (int, string) {
	t.Helper()
	resp, err := http.Get(pageURL)
	if err != nil {
		return 0, err.Error()
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := csrfField.FindSubmatch(page)
	if resp.StatusCode != http.StatusOK || m == nil {
		return resp.StatusCode, string(page)
	}
	u, _ := url.Parse(pageURL)
	form := url.Values{"csrf": {string(m[1])}, "secret": {secret}}
	req, _ := http.NewRequest(http.MethodPost, pageURL, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// secretSession starts hashPrompt in c's app and waits for its prompt.
func secretSession(t *testing.T, c *testClient) string {
	t.Helper()
	needProgram(t, "python3")
	id := start(t, c.app, realPython(), "-c", hashPrompt)
	s, _ := c.app.tools.session(id)
	awaitInput(t, s, inputSecret)
	return id
}

// lines collects what the server wrote, to check that the secret is in
// none of it.
type wireLog struct{ lines []string }

func (l *wireLog) next(t *testing.T, c *testClient) reply {
	t.Helper()
	line := c.recv()
	l.lines = append(l.lines, string(line))
	var r reply
	json.Unmarshal(line, &r)
	return r
}

// TestAskSecretURLElicitation: a 2025-11-25 client with elicitation.url
// gets elicitation/create {mode: "url"}; the person submits the page;
// the program gets the secret; the client gets
// notifications/elicitation/complete and a reply that shows what
// followed, and the secret is in nothing the server wrote.
func TestAskSecretURLElicitation(t *testing.T) {
	t.Parallel()
	c := startAppServer(t, nil, func(*App, *Server) {})
	r := c.request(0, "initialize", map[string]any{"protocolVersion": protoV20251125,
		"capabilities": map[string]any{"elicitation": map[string]any{"url": map[string]any{}}},
		"clientInfo":   map[string]any{"name": "test", "version": "1"}})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	id := secretSession(t, c)
	secret, printed := testSecret()
	c.sendRequest(7, "tools/call", map[string]any{"name": "shell_ask_secret", "arguments": map[string]any{"session_id": id, "message": "to unlock the key"}})
	var log wireLog
	var ask reply
	for ask = log.next(t, c); ask.Method != "elicitation/create"; ask = log.next(t, c) {
	}
	var p struct {
		Mode, URL, Message, ElicitationID string
	}
	json.Unmarshal(ask.Params, &p)
	if p.Mode != "url" || !strings.HasPrefix(p.URL, "http://127.0.0.1:") || p.ElicitationID == "" || !strings.Contains(p.Message, "to unlock the key") {
		t.Fatalf("elicitation/create params %s", ask.Params)
	}
	if code, page := personTypes(t, p.URL, secret); code != http.StatusOK {
		t.Fatalf("submit: %d %s", code, page)
	}
	c.sendMsg(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(ask.ID), "result": map[string]any{"action": "accept"}})
	var res reply
	complete := false
	for res = log.next(t, c); string(res.ID) != "7"; res = log.next(t, c) {
		if res.Method == "notifications/elicitation/complete" {
			complete = strings.Contains(string(res.Params), p.ElicitationID)
		}
	}
	text, st, isErr := toolResult(res)
	if isErr || st["delivered"] != true || !strings.Contains(text, printed) || !complete {
		t.Fatalf("reply isError %v complete %v structured %v text:\n%s", isErr, complete, st, text)
	}
	if code, page := personTypes(t, p.URL, secret); code != 0 && code != http.StatusGone {
		t.Errorf("second use of the page: %d %s, want 410 or no listener", code, page)
	}
	for _, l := range log.lines {
		if strings.Contains(l, secret) {
			t.Fatalf("the secret is in a message to the client: %s", l)
		}
	}
}

// TestAskSecretInputRequired: a 2026-07-28 client with URL elicitation
// gets input_required with the page; its retry with the answer and the
// requestState returns once the program has read the secret. A forged
// requestState is refused.
func TestAskSecretInputRequired(t *testing.T) {
	t.Parallel()
	c := startAppServer(t, nil, func(*App, *Server) {})
	id := secretSession(t, c)
	secret, printed := testSecret()
	meta := map[string]any{metaProtocolVersion: protoV20260728,
		metaClientCapabilities: map[string]any{"elicitation": map[string]any{"url": map[string]any{}}}}
	args := map[string]any{"session_id": id}
	r := c.call("tools/call", map[string]any{"name": "shell_ask_secret", "arguments": args, "_meta": meta})
	var first struct {
		ResultType    string `json:"resultType"`
		RequestState  string `json:"requestState"`
		InputRequests map[string]struct {
			Method string
			Params struct{ Mode, URL, Message string }
		} `json:"inputRequests"`
	}
	json.Unmarshal(r.Result, &first)
	req := first.InputRequests[secretKey]
	if r.Error != nil || first.ResultType != "input_required" || first.RequestState == "" || req.Method != "elicitation/create" || req.Params.Mode != "url" {
		t.Fatalf("first call: %+v %s", r.Error, r.Result)
	}
	forged := c.call("tools/call", map[string]any{"name": "shell_ask_secret", "arguments": args, "_meta": meta,
		"inputResponses": map[string]any{secretKey: map[string]any{"action": "accept"}}, "requestState": first.RequestState + "0"})
	if text, _, isErr := toolResult(forged); !isErr || !strings.Contains(text, "requestState") {
		t.Errorf("a forged requestState: isError %v %q", isErr, text)
	}
	done := make(chan reply, 1)
	go func() {
		done <- c.call("tools/call", map[string]any{"name": "shell_ask_secret", "arguments": args, "_meta": meta,
			"inputResponses": map[string]any{secretKey: map[string]any{"action": "accept"}}, "requestState": first.RequestState})
	}()
	if code, page := personTypes(t, req.Params.URL, secret); code != http.StatusOK {
		t.Fatalf("submit: %d %s", code, page)
	}
	res := <-done
	var out map[string]any
	json.Unmarshal(res.Result, &out)
	text, st, isErr := toolResult(res)
	if isErr || out["resultType"] != "complete" || st["delivered"] != true || !strings.Contains(text, printed) {
		t.Fatalf("retry: isError %v %v text:\n%s", isErr, out["resultType"], text)
	}
	if strings.Contains(string(res.Result)+string(r.Result), secret) {
		t.Fatal("the secret is in a result")
	}
}

// TestAskSecretLink: a client without URL elicitation gets the link in
// the reply; the page works the same, and shell_wait {wait_for_input}
// then shows what followed.
func TestAskSecretLink(t *testing.T) {
	t.Parallel()
	c := startAppServer(t, nil, func(*App, *Server) {})
	c.initialize(protoV20251125)
	id := secretSession(t, c)
	secret, printed := testSecret()
	st, text, isErr := c.tool("shell_ask_secret", map[string]any{"session_id": id})
	link, _ := st["url"].(string)
	if isErr || link == "" || !strings.Contains(text, link) || !strings.Contains(text, "python") {
		t.Fatalf("isError %v structured %v text %q", isErr, st, text)
	}
	if code, page := personTypes(t, link, secret); code != http.StatusOK {
		t.Fatalf("submit: %d %s", code, page)
	}
	_, text, isErr = c.tool("shell_wait", map[string]any{"session_id": id, "wait_for_input": true})
	if isErr || !strings.Contains(text, printed) || strings.Contains(text, secret) {
		t.Fatalf("after the page: isError %v %q", isErr, text)
	}
}

// TestAskSecretRefused: no page is offered when nothing reads a secret
// (a fake "password:" printed with echo on is a line), with --web=off,
// or after the prompt ended (the link then answers 410).
func TestAskSecretRefused(t *testing.T) {
	t.Parallel()
	t.Run("fake prompt", func(t *testing.T) {
		t.Parallel()
		c := startAppServer(t, nil, func(*App, *Server) {})
		c.initialize(protoV20251125)
		id := start(t, c.app, "sh", "-c", `printf 'password: '; read x`)
		s, _ := c.app.tools.session(id)
		awaitInput(t, s, inputLine)
		_, text, isErr := c.tool("shell_ask_secret", map[string]any{"session_id": id})
		if !isErr || !strings.Contains(text, "no program reads a secret") {
			t.Errorf("isError %v %q", isErr, text)
		}
		if c.app.tools.web.Addr() != "" {
			t.Errorf("the door listens on %s with no page", c.app.tools.web.Addr())
		}
	})
	t.Run("web off", func(t *testing.T) {
		t.Parallel()
		c := startAppServer(t, func(cfg *Config) { cfg.Web = "off" }, func(*App, *Server) {})
		c.initialize(protoV20251125)
		id := secretSession(t, c)
		if _, text, isErr := c.tool("shell_ask_secret", map[string]any{"session_id": id}); !isErr || !strings.Contains(text, "--web=off") {
			t.Errorf("isError %v %q", isErr, text)
		}
	})
	t.Run("prompt ended", func(t *testing.T) {
		t.Parallel()
		c := startAppServer(t, nil, func(*App, *Server) {})
		c.initialize(protoV20251125)
		id := secretSession(t, c)
		st, _, _ := c.tool("shell_ask_secret", map[string]any{"session_id": id})
		link, _ := st["url"].(string)
		s, _ := c.app.tools.session(id)
		ask := c.app.tools.asks.open(id)
		c.mustTool("shell_send", map[string]any{"session_id": id, "keys": []string{"C-c"}})
		select {
		case <-ask.offer.Done(): // watchSecretPrompt saw the prompt end
		case <-s.done:
		case <-time.After(stuckAfter):
			t.Fatal("the page did not end with its prompt")
		}
		// The tab the person has open is answered, not refused: the
		// listener stays a while after the last page ended.
		resp, err := http.Get(link)
		if err != nil {
			t.Fatalf("the page after the prompt ended: %v, want 410", err)
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusGone || !strings.Contains(string(page), "No longer needed") {
			t.Errorf("the page after the prompt ended: %d %s, want 410 No longer needed", resp.StatusCode, page)
		}
	})
}

// TestAskSecretSudo: the person types the test user's real password
// into a real sudo prompt; sudo accepts it and the command ends 0.
func TestAskSecretSudo(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" || os.Getuid() != 0 {
		t.Skip("needs root, to run runuser as the test user without a password")
	}
	pw, err := os.ReadFile("/etc/ttywright-test.pw")
	if _, e := exec.Command("id", testUser).Output(); e != nil || err != nil {
		t.Skipf("no user %s or no /etc/ttywright-test.pw: .ci/testuser creates them (with sudo, as root)", testUser)
	}
	c := startAppServer(t, nil, func(*App, *Server) {})
	c.initialize(protoV20251125)
	id := start(t, c.app, "runuser", "-u", testUser, "--", "sh", "-c", "sudo -k true && echo sudo-ok")
	s, _ := c.app.tools.session(id)
	awaitInput(t, s, inputSecret)
	st, _, isErr := c.tool("shell_ask_secret", map[string]any{"session_id": id})
	link, _ := st["url"].(string)
	if isErr || link == "" {
		t.Fatalf("no link: %v", st)
	}
	secret := strings.TrimSpace(string(pw))
	if code, page := personTypes(t, link, secret); code != http.StatusOK {
		t.Fatalf("submit: %d %s", code, page)
	}
	_, text, _ := c.tool("shell_wait", map[string]any{"session_id": id, "wait_for": "sudo-ok", "timeout_ms": 10000})
	if !strings.Contains(text, "sudo-ok") || strings.Contains(text, secret) {
		t.Fatalf("after the page: %q", text)
	}
}

// TestAskSecretPageShowsTheFile: a program named like another (python
// linked as ./sudo) shows on the page as the file it runs, with the name
// it runs as and its arguments quoted.
func TestAskSecretPageShowsTheFile(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the executable's path is read from /proc")
	}
	c := startAppServer(t, nil, func(*App, *Server) {})
	c.initialize(protoV20251125)
	dir := t.TempDir()
	fake := dir + "/sudo"
	if err := os.Symlink(realPython(), fake); err != nil {
		t.Fatal(err)
	}
	id := start(t, c.app, fake, "-c", `import getpass; getpass.getpass("[sudo] password for root: ")`)
	s, _ := c.app.tools.session(id)
	awaitInput(t, s, inputSecret)
	st, _, _ := c.tool("shell_ask_secret", map[string]any{"session_id": id})
	link, _ := st["url"].(string)
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	exe, _ := os.Readlink("/proc/" + strconv.Itoa(s.Foreground().PID) + "/exe")
	if !strings.Contains(string(page), exe) || !strings.Contains(string(page), "running as") || !strings.Contains(string(page), "&#34;import getpass;") {
		t.Errorf("the page does not show %s, the name it runs as and the quoted argument:\n%s", exe, page)
	}
}

// TestAskSecretRetryAfterAnotherAsk: a 2026-07-28 retry finds its page
// although another page was offered after the person typed into the
// first.
func TestAskSecretRetryAfterAnotherAsk(t *testing.T) {
	t.Parallel()
	c := startAppServer(t, nil, func(*App, *Server) {})
	meta := map[string]any{metaProtocolVersion: protoV20260728,
		metaClientCapabilities: map[string]any{"elicitation": map[string]any{"url": map[string]any{}}}}
	ask := func(id string, extra map[string]any) (string, string, reply) {
		params := map[string]any{"name": "shell_ask_secret", "arguments": map[string]any{"session_id": id}, "_meta": meta}
		for k, v := range extra {
			params[k] = v
		}
		r := c.call("tools/call", params)
		var res struct {
			RequestState  string `json:"requestState"`
			InputRequests map[string]struct {
				Params struct{ URL string }
			} `json:"inputRequests"`
		}
		json.Unmarshal(r.Result, &res)
		return res.RequestState, res.InputRequests[secretKey].Params.URL, r
	}
	a, b := secretSession(t, c), secretSession(t, c)
	secret, printed := testSecret()
	stateA, urlA, _ := ask(a, nil)
	if code, page := personTypes(t, urlA, secret); code != http.StatusOK {
		t.Fatalf("submit: %d %s", code, page)
	}
	ask(b, nil)
	_, _, r := ask(a, map[string]any{"inputResponses": map[string]any{secretKey: map[string]any{"action": "accept"}}, "requestState": stateA})
	if text, _, isErr := toolResult(r); isErr || !strings.Contains(text, printed) {
		t.Fatalf("the retry of the first page: isError %v %q", isErr, text)
	}
}

// TestAskSecretOnePagePerPrompt: a second shell_ask_secret for a prompt
// whose page is open returns that page (the person may be typing in it),
// and a secret submitted after the prompt ended is typed nowhere
// (writeSecret looks again before it writes).
func TestAskSecretOnePagePerPrompt(t *testing.T) {
	t.Parallel()
	c := startAppServer(t, nil, func(*App, *Server) {})
	c.initialize(protoV20251125)
	id := secretSession(t, c)
	first, _, _ := c.tool("shell_ask_secret", map[string]any{"session_id": id, "message": "for the deploy key"})
	second, _, _ := c.tool("shell_ask_secret", map[string]any{"session_id": id})
	if first["url"] == nil || second["url"] != first["url"] {
		t.Errorf("a second call for the open page's prompt gave %v, want the same page %v", second["url"], first["url"])
	}
	resp, err := http.Get(first["url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "for the deploy key") {
		t.Errorf("the page does not show the agent's message:\n%s", page)
	}
	s, _ := c.app.tools.session(id)
	fg := s.Foreground()
	c.mustTool("shell_send", map[string]any{"session_id": id, "keys": []string{"C-c"}, "wait_for_input": true})
	if err := writeSecret(s, fg, []byte("late-secret")); err == nil || strings.Contains(s.Text(true), "late-secret") {
		t.Errorf("a secret for a prompt that ended: err %v, screen %q", err, s.Text(true))
	}
}

// TestAskSecretLinkThenWait: for a client that cannot show the page, the
// reply's link comes with a shell_wait {wait_for_input}, which does not
// hold while the page is open (it returned at once on the prompt still
// waiting for the person, which sent the agent back to shell_ask_secret
// and replaced the page the person had open), and returns once the
// person has typed the secret and the program went on.
func TestAskSecretLinkThenWait(t *testing.T) {
	c := startAppServer(t, nil, func(*App, *Server) {})
	c.initialize(protoV20251125) // no elicitation: the reply carries the link
	id := secretSession(t, c)
	st, text, _ := c.tool("shell_ask_secret", map[string]any{"session_id": id})
	link, _ := st["url"].(string)
	if link == "" || !strings.Contains(text, "wait_for_input: true") {
		t.Fatalf("no link and wait in the reply: %v %q", st, text)
	}
	if m, text, _ := c.tool("shell_wait", map[string]any{"session_id": id, "wait_for_input": true, "timeout_ms": 1500}); m["timed_out"] != true {
		t.Errorf("wait_for_input held while the page was open: %v %q", m, text)
	}
	secret, printed := testSecret()
	if code, page := personTypes(t, link, secret); code != http.StatusOK {
		t.Fatalf("submit: %d %s", code, page)
	}
	m, text, _ := c.tool("shell_wait", map[string]any{"session_id": id, "wait_for_input": true, "timeout_ms": 60000})
	if !strings.Contains(text, printed) || m["input"] == inputSecret || m["timed_out"] == true {
		t.Errorf("after the person typed: %v %q", m, text)
	}
}

// TestAskSecretShellRead: a read -s in the session's own shell shows on
// the page as that shell, not as ttywright's wrapper (--rcfile and a
// temporary file).
func TestAskSecretShellRead(t *testing.T) {
	c := startAppServer(t, nil, func(*App, *Server) {})
	c.initialize(protoV20251125)
	id := startShell(t, c.app, "bash", "", nil, nil)
	c.mustTool("shell_send", map[string]any{"session_id": id, "text": "read -s -p 'Token: ' x\n", "wait_for_input": true})
	st, text, isErr := c.tool("shell_ask_secret", map[string]any{"session_id": id})
	link, _ := st["url"].(string)
	if isErr || link == "" {
		t.Fatalf("no page for read -s: %q", text)
	}
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "this session&#39;s shell") || strings.Contains(string(page), "rcfile") {
		t.Errorf("the page names the wrapper, or not the shell:\n%s", page)
	}
}
