package interop

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/gif"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// secretScript reads a secret with Python's getpass (echo off, so the
// foreground program's input is "secret") and prints its SHA-256: a test
// sees that the right secret arrived without it ever being on the screen.
const secretScript = `import getpass, hashlib; s = getpass.getpass("Passphrase: "); print("got", hashlib.sha256(s.encode()).hexdigest())`

// newSecret returns a fresh random secret, the random part of it alone
// (which no JSON or form escaping changes, so a search for it finds an
// escaped copy too) and the line secretScript prints for it. The secret
// holds a space and form metacharacters, so the page's form decoding is
// exercised.
func newSecret(t *testing.T) (secret, core, printed string) {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	core = hex.EncodeToString(b)
	secret = "pw +&=%/" + core
	sum := sha256.Sum256([]byte(secret))
	return secret, core, "got " + hex.EncodeToString(sum[:])
}

// startSecretPrompt starts an integrated bash (so the commands resource
// lists what ran) and runs secretScript in it, up to its prompt, where
// the foreground program must read with echo off.
func (s *server) startSecretPrompt() string {
	s.t.Helper()
	needProgram(s.t, "python3")
	id := s.startBash("")
	r := s.call("shell_send", map[string]any{"session_id": id, "input": "python3 -c '" + secretScript + `'\r`,
		"wait_for_input": true, "timeout_ms": waitTimeout.Milliseconds()})
	fg, _ := r["foreground"].(map[string]any)
	if r["input"] != "secret" || fg["input"] != "secret" || fg["command"] != "python3" {
		s.t.Fatalf("python3's getpass prompt: input %v, foreground %v, want python3 reading a secret; screen:\n%s", r["input"], fg, s.screen(id))
	}
	return id
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// personTypes plays the person at the page: it loads pageURL as a browser
// would, checks the page's security headers, takes the form's CSRF token
// and submits secret from the page's own origin. It returns the submit's
// status and page, or an error when either request fails.
func personTypes(pageURL, secret string) (int, string, error) {
	resp, err := http.Get(pageURL)
	if err != nil {
		return 0, "", err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, string(page), fmt.Errorf("GET %s: %s", pageURL, resp.Status)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		return resp.StatusCode, string(page), fmt.Errorf("GET: Content-Security-Policy %q, want default-src 'none'", csp)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		return resp.StatusCode, string(page), fmt.Errorf("GET: Cache-Control %q, want no-store", cc)
	}
	m := csrfField.FindSubmatch(page)
	if m == nil || !strings.Contains(string(page), `type="password"`) {
		return resp.StatusCode, string(page), fmt.Errorf("GET: the page has no csrf field or no password field")
	}
	u, err := url.Parse(pageURL)
	if err != nil {
		return 0, "", err
	}
	form := url.Values{"csrf": {string(m[1])}, "secret": {secret}}
	req, err := http.NewRequest(http.MethodPost, pageURL, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", u.Scheme+"://"+u.Host)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), nil
}

// secretNowhere checks that neither the secret nor its random core is in
// what (named by name).
func secretNowhere(t *testing.T, name, what string, needles ...string) {
	t.Helper()
	for _, n := range needles {
		if strings.Contains(what, n) {
			t.Errorf("the secret (%q) is in %s", n, name)
		}
	}
}

// checkSecretNowhere checks, after the secret was typed and its program
// printed printed, every place the secret must not reach: the session's
// screen and scrollback and raw output, the commands resource and each
// command's output, the server's stderr, the --log-path log, the
// recording (its asciicast, and its GIF through the screen text it was
// drawn from), every file in the output directory, and wire: every
// message the client sent or received. Each place that should hold the
// program's output is also checked to hold printed, so that an empty
// place does not pass.
func checkSecretNowhere(t *testing.T, s *server, id, logPath, wire, printed string, needles ...string) {
	t.Helper()
	must := func(name, what, want string) {
		t.Helper()
		secretNowhere(t, name, what, needles...)
		if want != "" && !strings.Contains(what, want) {
			t.Errorf("%s lacks %q (so the check that it lacks the secret means little): %.2000s", name, want, what)
		}
	}

	// The recording, stopped as both formats.
	rec := s.call("shell_record_stop", map[string]any{"session_id": id, "name": "secret", "format": "both"})
	castPath, _ := rec["cast_path"].(string)
	cast, err := os.ReadFile(castPath)
	if err != nil {
		t.Errorf("the recording's cast_path %q: %v", castPath, err)
	}
	// The file as it is, and its output events joined (the program
	// writes a line in pieces, and a secret split across events would
	// match in neither).
	secretNowhere(t, "the asciicast "+castPath, string(cast), needles...)
	must("the asciicast's output events", castOutput(t, cast), printed)
	if !strings.Contains(castOutput(t, cast), "Passphrase:") {
		t.Errorf("the asciicast lacks the prompt Passphrase:")
	}
	gifPath, _ := rec["gif_path"].(string)
	if f, err := os.Open(gifPath); err != nil {
		t.Errorf("the recording's gif_path %q: %v", gifPath, err)
	} else {
		g, err := gif.DecodeAll(f)
		f.Close()
		if err != nil || len(g.Image) < 2 {
			t.Errorf("the recording's GIF: %v (%d frames), want several frames", err, len(g.Image))
		}
		// The GIF's frames are pixels drawn from the screens that
		// shell_read shows (text and scrollback, checked below); there
		// is no text in them to search without OCR.
	}

	// The screen and scrollback, and the raw output.
	text := s.callRaw("shell_read", map[string]any{"session_id": id, "scrollback": true, "max_bytes": 1 << 20})
	must("shell_read's text", textOf(text)+string(mustJSON(text.StructuredContent)), printed)
	raw := s.callRaw("shell_read", map[string]any{"session_id": id, "raw": true, "max_bytes": 1 << 20})
	must("shell_read's raw output", textOf(raw)+string(mustJSON(raw.StructuredContent)), printed)
	buf := readResource(t, s, "session://"+id+"/buffer")
	if buf != nil {
		must("session://"+id+"/buffer", buf.Text, printed)
	}

	// The commands resource, and the output of the python3 command.
	cmds := readResource(t, s, "session://"+id+"/commands")
	if cmds == nil {
		t.Fatal("no commands resource")
	}
	must("session://"+id+"/commands", cmds.Text, "python3 -c")
	var list []struct {
		Line string `json:"line"`
		URI  string `json:"uri"`
	}
	if err := json.Unmarshal([]byte(cmds.Text), &list); err != nil {
		t.Fatalf("session://%s/commands: %v", id, err)
	}
	sawPython := false
	for _, c := range list {
		if !strings.HasPrefix(c.Line, "python3 -c") {
			continue
		}
		sawPython = true
		if out := readResource(t, s, c.URI); out != nil {
			must(c.URI, out.Text, printed)
		}
	}
	if !sawPython {
		t.Errorf("session://%s/commands lists no python3 command: %s", id, cmds.Text)
	}

	// The server's own outputs: stderr, the call log, the output directory.
	must("the server's stderr", s.stderr.String(), "")
	logged, err := os.ReadFile(logPath)
	if err != nil {
		t.Errorf("--log-path %s: %v", logPath, err)
	}
	must("the --log-path log", string(logged), "shell_ask_secret")
	files := 0
	err = filepath.WalkDir(s.outDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		secretNowhere(t, "the output directory's "+p, string(b), needles...)
		return nil
	})
	if err != nil || files == 0 {
		t.Errorf("reading the output directory %s: %v (%d files)", s.outDir, err, files)
	}

	// Everything on the wire, both ways (read late, so that it holds the
	// calls above too).
	must("the messages the client sent and received", wire, printed)
}

// TestSecretGoSDK: the official Go SDK client as the person's client,
// with an elicitation handler for URL mode that plays the person (loads
// the page over HTTP, takes its CSRF token and submits a random secret),
// in both eras the server offers it: 2025-11-25 (a server-to-client
// elicitation/create request, then notifications/elicitation/complete)
// and 2026-07-28 (an input_required result that the SDK fulfils through
// the same handler and retries with inputResponses and requestState).
// python3's getpass reads the secret and prints its SHA-256; the tool's
// reply shows that line, and the secret is in nothing the client, the
// log, the recording or the session's resources got.
func TestSecretGoSDK(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(era, func(t *testing.T) {
			secret, core, printed := newSecret(t)
			wire := &syncBuffer{}
			asked := make(chan *mcp.ElicitParams, 4)
			completed := make(chan string, 4)
			version := era
			if era == "2026-07-28" {
				version = "" // the SDK's default: server/discover, then the stateless era
			}
			logPath := filepath.Join(t.TempDir(), "calls.jsonl")
			s := startServerWith(t, clientSetup{version: version, wire: wire, options: func(o *mcp.ClientOptions) {
				o.Capabilities = &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{URL: &mcp.URLElicitationCapabilities{}}}
				o.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked <- req.Params
					if req.Params.Mode != "url" || !strings.HasPrefix(req.Params.URL, "http://127.0.0.1:") {
						return &mcp.ElicitResult{Action: "decline"}, nil
					}
					code, page, err := personTypes(req.Params.URL, secret)
					if err != nil || code != http.StatusOK || !strings.Contains(page, "Sent") {
						t.Errorf("the person's submit: %d %v\n%s", code, err, page)
						return &mcp.ElicitResult{Action: "cancel"}, nil
					}
					return &mcp.ElicitResult{Action: "accept"}, nil
				}
				o.ElicitationCompleteHandler = func(_ context.Context, n *mcp.ElicitationCompleteNotificationRequest) {
					completed <- n.Params.ElicitationID
				}
			}}, "--log-path", logPath)
			if got := s.cs.InitializeResult().ProtocolVersion; got != era {
				t.Fatalf("negotiated %s, want %s", got, era)
			}
			id := s.startSecretPrompt()
			s.call("shell_record_start", map[string]any{"session_id": id, "fps": 10})

			res := s.callRaw("shell_ask_secret", map[string]any{"session_id": id, "message": "interop: unlock the test key", "timeout_ms": 60000})
			if res.IsError {
				t.Fatalf("shell_ask_secret failed: %s", textOf(res))
			}
			var p *mcp.ElicitParams
			select {
			case p = <-asked:
			default:
				t.Fatalf("shell_ask_secret returned without asking the client: %s", textOf(res))
			}
			if p.Mode != "url" || !strings.Contains(p.Message, "interop: unlock the test key") || !strings.Contains(p.Message, "python3") {
				t.Errorf("elicitation params %+v: want mode url and the agent's message with the program", p)
			}
			r := structured(t, res)
			if r["delivered"] != true || r["action"] != "accept" || r["url"] != nil {
				t.Errorf("shell_ask_secret = %v, want delivered, action accept, no url", r)
			}
			if !strings.Contains(textOf(res), printed) || !strings.Contains(fmt.Sprint(r["bufferAfter"]), printed) {
				t.Errorf("shell_ask_secret's reply lacks %q:\n%s", printed, textOf(res))
			}

			var fromServer, fromClient []wireMsg
			for _, m := range wireMessages(t, wire.String()) {
				if m.read {
					fromServer = append(fromServer, m)
				} else {
					fromClient = append(fromClient, m)
				}
			}
			switch era {
			case "2025-11-25":
				// A server-to-client request, answered by the handler,
				// then the completion notice.
				if p.ElicitationID == "" {
					t.Errorf("elicitation/create without an elicitationId: %+v", p)
				}
				select {
				case got := <-completed:
					if got != p.ElicitationID {
						t.Errorf("notifications/elicitation/complete for %q, want %q", got, p.ElicitationID)
					}
				case <-s.ctx().Done():
					t.Error("no notifications/elicitation/complete")
				}
				var reqID json.RawMessage
				for _, m := range fromServer {
					if m.Method == "elicitation/create" && m.ID != nil {
						reqID = m.ID
					}
					if m.Result != nil && m.Result["resultType"] == "input_required" {
						t.Errorf("an input_required result at 2025-11-25: %s", m.line)
					}
				}
				answered := false
				for _, m := range fromClient {
					answered = answered || reqID != nil && string(m.ID) == string(reqID) && m.Method == "" && m.Result["action"] == "accept"
				}
				if reqID == nil || !answered {
					t.Errorf("the wire lacks elicitation/create (id %s) and its answer {action: accept}:\n%s", reqID, wire.String())
				}
			case "2026-07-28":
				// No server-to-client request in this era: the page came
				// in an input_required result, and the retry carried the
				// answer and the request state.
				state := ""
				for _, m := range fromServer {
					if m.Method == "elicitation/create" {
						t.Errorf("a server-to-client elicitation/create at 2026-07-28: %s", m.line)
					}
					if m.Result == nil || m.Result["resultType"] != "input_required" {
						continue
					}
					var ir struct {
						InputRequests map[string]struct {
							Method string
							Params struct{ Mode, URL, Message string }
						}
						RequestState string
					}
					_ = json.Unmarshal(mustJSON(m.Result), &ir)
					sec := ir.InputRequests["secret"]
					if sec.Method != "elicitation/create" || sec.Params.Mode != "url" || sec.Params.URL != p.URL || ir.RequestState == "" {
						t.Errorf("input_required result %s: want inputRequests.secret an elicitation/create for %s, and a requestState", m.line, p.URL)
					}
					state = ir.RequestState
				}
				retried := false
				for _, m := range fromClient {
					var cp struct {
						Name           string
						InputResponses map[string]struct{ Action string }
						RequestState   string
					}
					if m.Method != "tools/call" || json.Unmarshal(m.Params, &cp) != nil || cp.Name != "shell_ask_secret" {
						continue
					}
					retried = retried || state != "" && cp.RequestState == state && cp.InputResponses["secret"].Action == "accept"
				}
				if !retried {
					t.Errorf("the wire lacks the input_required round trip (state %q):\n%s", state, wire.String())
				}
			}
			checkSecretNowhere(t, s, id, logPath, wire.String(), printed, secret, core)
		})
	}
}

// TestSecretLinkGoSDK: a client that declares no URL elicitation (the Go
// SDK's defaults) gets the link in the reply's text and structuredContent,
// the page works the same for the person, and shell_wait
// {wait_for_input: true} then shows what followed.
func TestSecretLinkGoSDK(t *testing.T) {
	t.Parallel()
	secret, core, printed := newSecret(t)
	wire := &syncBuffer{}
	logPath := filepath.Join(t.TempDir(), "calls.jsonl")
	s := startServerWith(t, clientSetup{wire: wire}, "--log-path", logPath)
	id := s.startSecretPrompt()
	s.call("shell_record_start", map[string]any{"session_id": id, "fps": 10})
	pageURL := askSecretLink(t, s, id)
	code, page, err := personTypes(pageURL, secret)
	if err != nil || code != http.StatusOK || !strings.Contains(page, "Sent") {
		t.Fatalf("the person's submit: %d %v\n%s", code, err, page)
	}
	r := s.call("shell_wait", map[string]any{"session_id": id, "wait_for_input": true, "timeout_ms": waitTimeout.Milliseconds()})
	if r["ended_by"] != "input" || !strings.Contains(fmt.Sprint(r["buffer"]), printed) {
		t.Errorf("shell_wait {wait_for_input} = %v; screen:\n%s\nwant %q", r, s.screen(id), printed)
	}
	// The page works once.
	if code, _, _ := personTypes(pageURL, secret); code == http.StatusOK {
		t.Errorf("the page answered 200 a second time")
	}
	checkSecretNowhere(t, s, id, logPath, wire.String(), printed, secret, core)
}

// askSecretLink calls shell_ask_secret for a client without URL
// elicitation and returns the page's URL, checked to be in the reply's
// text and structuredContent.url alike.
func askSecretLink(t *testing.T, s *server, id string) string {
	t.Helper()
	res := s.callRaw("shell_ask_secret", map[string]any{"session_id": id, "message": "interop: unlock the test key", "timeout_ms": 60000})
	if res.IsError {
		t.Fatalf("shell_ask_secret failed: %s", textOf(res))
	}
	r := structured(t, res)
	pageURL, _ := r["url"].(string)
	if !strings.HasPrefix(pageURL, "http://127.0.0.1:") || !strings.Contains(pageURL, "/secret/") || r["delivered"] != false {
		t.Fatalf("shell_ask_secret = %v, want a page url and delivered false", r)
	}
	if !strings.Contains(textOf(res), "SHOW THE PERSON THIS LINK: "+pageURL) {
		t.Errorf("the reply's text lacks the link: %s", textOf(res))
	}
	return pageURL
}

// wireMsg is one JSON-RPC message that mcp.LoggingTransport logged: read
// (from the server) or written (by the client).
type wireMsg struct {
	read   bool
	line   string
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result map[string]any  `json:"result"`
}

// wireMessages parses what mcp.LoggingTransport wrote: one "read: " or
// "write: " line a message.
func wireMessages(t *testing.T, wire string) []wireMsg {
	t.Helper()
	var out []wireMsg
	for _, line := range strings.Split(wire, "\n") {
		var m wireMsg
		var body string
		var ok bool
		if body, ok = strings.CutPrefix(line, "read: "); ok {
			m.read = true
		} else if body, ok = strings.CutPrefix(line, "write: "); !ok {
			if line != "" {
				t.Errorf("the wire log has a line that is no message: %.300s", line)
			}
			continue
		}
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Errorf("the wire log's message %.300s: %v", body, err)
			continue
		}
		m.line = body
		out = append(out, m)
	}
	return out
}

// castOutput joins the data of an asciicast v2 file's output events.
func castOutput(t *testing.T, cast []byte) string {
	t.Helper()
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSpace(string(cast)), "\n") {
		if i == 0 {
			continue // the header
		}
		var ev []any
		if err := json.Unmarshal([]byte(line), &ev); err != nil || len(ev) != 3 {
			t.Errorf("asciicast event %d: %q: %v", i, line, err)
			continue
		}
		if ev[1] == "o" {
			b.WriteString(fmt.Sprint(ev[2]))
		}
	}
	return b.String()
}
