package main

// main_test.go: the command line (flags, TTYWRIGHT_* variables, exit
// statuses) and the built binary over real stdio. Also declares -update
// for every golden-file test in the package.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// update regenerates golden files under testdata/ instead of comparing
// against them: go test -run TestX -update.
var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// A scenario is a protocol conversation kept in testdata: a prose header
// saying what it pins, then "-- client --" lines sent one at a time and
// "-- server --" lines expected back, in order.
type scenario struct {
	header         string
	client, server []string
}

// parseScenario reads the txtar-like scenario format. Blank lines and
// lines starting with '#' inside the sections are ignored.
func parseScenario(data string) (scenario, error) {
	var sc scenario
	head, rest, ok := strings.Cut(data, "-- client --\n")
	if !ok {
		return sc, fmt.Errorf("no \"-- client --\" line")
	}
	client, server, ok := strings.Cut(rest, "-- server --\n")
	if !ok {
		return sc, fmt.Errorf("no \"-- server --\" line")
	}
	sc.header = head
	for _, l := range strings.Split(client, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			sc.client = append(sc.client, l)
		}
	}
	for _, l := range strings.Split(server, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			sc.server = append(sc.server, l)
		}
	}
	return sc, nil
}

// format writes the scenario back with the given server lines.
func (sc scenario) format(server []string) string {
	return sc.header + "-- client --\n" + strings.Join(sc.client, "\n") + "\n-- server --\n" + strings.Join(server, "\n") + "\n"
}

func TestParseConfig(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home) // "~/" in --output-dir and --log-path
	defaults := Config{Theme: "one-dark", Cols: 120, Rows: 40, OutputDir: defaultOutputDir(),
		Scale: 2, MaxSessions: 16, Scrollback: 10000, Nice: 5, MaxOutputBytes: defaultMaxOutputBytes, IdleExit: 30 * time.Minute}
	with := func(f func(*Config)) Config { c := defaults; f(&c); return c }
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    Config
		action  string
		wantErr string // substring of the error; "" = no error
	}{
		{name: "defaults", want: defaults},
		{name: "max-output-bytes", args: []string{"--max-output-bytes", "0"}, wantErr: "--max-output-bytes 0: must be positive"},
		{name: "max-output-bytes from environment", env: map[string]string{"TTYWRIGHT_MAX_OUTPUT_BYTES": "1048576"},
			want: with(func(c *Config) { c.MaxOutputBytes = 1 << 20 })},
		{name: "flags", args: []string{"--cols", "80", "-rows=24", "--scale", "1", "--inline-images", "--max-sessions", "2", "--scrollback", "0", "--output-dir", "/tmp/x", "--log-path", "/tmp/l"},
			want: with(func(c *Config) {
				c.Cols, c.Rows, c.Scale, c.InlineImages, c.MaxSessions, c.Scrollback, c.OutputDir, c.LogPath = 80, 24, 1, true, 2, 0, "/tmp/x", "/tmp/l"
			})},
		{name: "environment", env: map[string]string{"TTYWRIGHT_COLS": "100", "TTYWRIGHT_INLINE_IMAGES": "1", "TTYWRIGHT_OUTPUT_DIR": "/tmp/o", "TTYWRIGHT_ALLOW_COMMAND": "bash,vim"},
			want: with(func(c *Config) {
				c.Cols, c.InlineImages, c.OutputDir, c.AllowCommands = 100, true, "/tmp/o", []string{"bash", "vim"}
			})},
		{name: "flag wins over environment", args: []string{"--cols", "90", "--allow-command", "htop"}, env: map[string]string{"TTYWRIGHT_COLS": "100", "TTYWRIGHT_ALLOW_COMMAND": "bash"},
			want: with(func(c *Config) { c.Cols, c.AllowCommands = 90, []string{"htop"} })},
		// A client's JSON config has no shell to expand "~".
		{name: "home", args: []string{"--output-dir", "~/caps", "--log-path", "~/calls.jsonl"}, env: map[string]string{"TTYWRIGHT_OUTPUT_DIR": "~"},
			want: with(func(c *Config) {
				c.OutputDir, c.LogPath = filepath.Join(home, "caps"), filepath.Join(home, "calls.jsonl")
			})},
		{name: "home from environment", env: map[string]string{"TTYWRIGHT_OUTPUT_DIR": "~", "TTYWRIGHT_LOG_PATH": "~user/x"},
			want: with(func(c *Config) { c.OutputDir, c.LogPath = home, "~user/x" })},
		{name: "repeated allow-command", args: []string{"--allow-command", "bash", "--allow-command", "vim"},
			want: with(func(c *Config) { c.AllowCommands = []string{"bash", "vim"} })},
		{name: "shared from environment", env: map[string]string{"TTYWRIGHT_SHARED": "1", "TTYWRIGHT_IDLE_EXIT": "90s"},
			want: with(func(c *Config) { c.Shared, c.IdleExit = true, 90*time.Second })},
		{name: "idle-exit off", args: []string{"--shared", "--idle-exit", "0"}, want: with(func(c *Config) { c.Shared, c.IdleExit = true, 0 })},
		{name: "bad idle-exit", args: []string{"--idle-exit", "soon"}, wantErr: `invalid value "soon" for flag -idle-exit`},
		{name: "version", args: []string{"--version"}, want: defaults, action: "version"},
		{name: "licenses", args: []string{"--licenses"}, want: defaults, action: "licenses"},

		{name: "bad theme", args: []string{"--theme", "neon"}, wantErr: `--theme: unknown theme "neon"`},
		{name: "a slip of a subcommand", args: []string{"atach"}, wantErr: `did you mean "ttywright attach"?`},
		{name: "a program", args: []string{"ls", "-l"}, wantErr: `did you mean "ttywright snap -- ls -l"?`},
		{name: "cols zero", args: []string{"--cols", "0"}, wantErr: "--cols 0: must be from 2 to 1000"},
		// shell_start refuses a 1-column screen, so the default must not be one.
		{name: "cols one", args: []string{"--cols", "1"}, wantErr: "--cols 1: must be from 2 to 1000"},
		{name: "rows too big", args: []string{"--rows", "501"}, wantErr: "--rows 501: must be from 1 to 500"},
		{name: "cols too big", args: []string{"--cols", "1001"}, wantErr: "--cols 1001: must be from 2 to 1000"},
		{name: "images too large", args: []string{"--cols", "1000", "--rows", "500", "--scale", "4"}, wantErr: "larger than the image size limit"},
		{name: "scale", args: []string{"--scale", "5"}, wantErr: "--scale 5: must be from 1 to 4"},
		{name: "max-sessions", args: []string{"--max-sessions", "0"}, wantErr: "--max-sessions 0"},
		{name: "scrollback", args: []string{"--scrollback", "-1"}, wantErr: "--scrollback -1"},
		{name: "not a number", args: []string{"--cols", "wide"}, wantErr: `invalid value "wide" for flag -cols`},
		{name: "unknown flag", args: []string{"--colour"}, wantErr: "flag provided but not defined: -colour"},
		{name: "argument", args: []string{"bash"}, wantErr: `unexpected argument "bash"`},
		{name: "empty allow-command", args: []string{"--allow-command", " "}, wantErr: "empty command"},
		{name: "bad environment", env: map[string]string{"TTYWRIGHT_ROWS": "tall"}, wantErr: `TTYWRIGHT_ROWS="tall"`},
		{name: "bad environment range", env: map[string]string{"TTYWRIGHT_SCALE": "9"}, wantErr: "--scale 9"},
		{name: "bad environment bool", env: map[string]string{"TTYWRIGHT_INLINE_IMAGES": "maybe"}, wantErr: `TTYWRIGHT_INLINE_IMAGES="maybe": parse error: use true or false`},
		{name: "bad environment int hint", env: map[string]string{"TTYWRIGHT_COLS": "wide"}, wantErr: "use a whole number, e.g. 120"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			cfg, action, err := parseConfig(tt.args, getenv, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v, want one containing %q", err, tt.wantErr)
				}
				if err != nil && strings.Contains(err.Error(), "\n") {
					t.Errorf("error is not one line: %q", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cfg.Settings = nil // TestFlagSettings
			if action != tt.action || !reflect.DeepEqual(cfg, tt.want) {
				t.Errorf("got %+v %q\nwant %+v %q", cfg, action, tt.want, tt.action)
			}
		})
	}
}

// TestFlagSettings: the settings a front end and the shared service
// compare hold every flag that sets up sessions, as given or from the
// environment (allow-command's list joined), and none of the HTTP
// listener's nor --shared.
func TestFlagSettings(t *testing.T) {
	env := map[string]string{"TTYWRIGHT_ALLOW_COMMAND": "bash,vim", "TTYWRIGHT_SHARED": "true"}
	cfg, _, err := parseConfig([]string{"--max-sessions", "4"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"max-sessions": "4", "allow-command": "bash,vim", "theme": "one-dark", "idle-exit": "30m0s", "shell-integration": "true"} {
		if got, ok := cfg.Settings[name]; !ok || got != want {
			t.Errorf("%s: %q (%v), want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"shared", "http", "http-auth", "tls-cert", "version", "licenses"} {
		if v, ok := cfg.Settings[name]; ok {
			t.Errorf("%s is a setting (%q)", name, v)
		}
	}
}

func TestRunExitStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args       []string
		status     int
		stdout     string // prefix
		stderrLine bool   // exactly one line on stderr
	}{
		{[]string{"--version"}, 0, "ttywright ", false},
		{[]string{"--licenses"}, 0, "", false}, // text checked below
		{[]string{"--cols", "x"}, 2, "", true},
		{[]string{"--theme", "nope"}, 2, "", true},
		{[]string{"--log-path", "/nonexistent-dir/x.jsonl"}, 2, "", true},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		status := run(tt.args, func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr)
		if status != tt.status || !strings.HasPrefix(stdout.String(), tt.stdout) {
			t.Errorf("%v: status %d stdout %q, want %d %q", tt.args, status, stdout.String(), tt.status, tt.stdout)
		}
		if tt.stderrLine && (strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "ttywright: ")) {
			t.Errorf("%v: stderr %q, want one line", tt.args, stderr.String())
		}
	}
	var licences bytes.Buffer
	run([]string{"--licenses"}, func(string) string { return "" }, strings.NewReader(""), &licences, io.Discard)
	if !strings.Contains(strings.ToUpper(licences.String()), "SIL OPEN FONT LICENSE") {
		t.Errorf("--licenses does not print the OFL: %.200q", licences.String())
	}

	// Serving: EOF on stdin ends it cleanly, and stdout gets only JSON.
	var stdout, stderr bytes.Buffer
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	if status := run([]string{"--output-dir", t.TempDir()}, func(string) string { return "" }, strings.NewReader(in), &stdout, &stderr); status != 0 {
		t.Errorf("serve: status %d, stderr %q", status, stderr.String())
	}
	if got := stdout.String(); got != `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n" {
		t.Errorf("serve: stdout %q", got)
	}
}

// TestBinary builds ttywright once and runs it over real stdio.
func TestBinary(t *testing.T) {
	t.Parallel()
	bin := serverBinary(t)
	t.Run("stdio", func(t *testing.T) { testBinaryStdio(t, bin) })
	t.Run("signals", func(t *testing.T) { testBinarySignals(t, bin) })
	t.Run("closed stdout", func(t *testing.T) { testBinaryClosedStdout(t, bin) })
	t.Run("terminal", func(t *testing.T) { testBinaryTerminal(t, bin) })
	t.Run("cancel a real wait", testBinaryCancelWait)
}

// testBinaryCancelWait cancels a long shell_wait on a real shell: pings
// are answered while it waits, the wait stops (the call log records it
// as cancelled, long before its timeout), and no response is sent for it.
func testBinaryCancelWait(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("needs /bin/sh")
	}
	logPath := filepath.Join(t.TempDir(), "calls.jsonl")
	c := startProc(t, "--output-dir", t.TempDir(), "--log-path", logPath)
	start := c.mustTool("shell_start", map[string]any{"command": "/bin/sh"})
	// The timeout is longer than stuckAfter: only the cancellation can end
	// the wait in time.
	c.sendMsg(map[string]any{"jsonrpc": "2.0", "id": "wait", "method": "tools/call", "params": map[string]any{"name": "shell_wait",
		"arguments": map[string]any{"session_id": start["shell_session_id"], "wait_for": "never printed", "timeout_ms": 110000}}})
	if r := c.call("ping", nil); r.Error != nil {
		t.Fatalf("ping while the wait runs: %+v", r.Error)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"wait","reason":"test"}}`)

	deadline := time.Now().Add(stuckAfter)
	for {
		data, _ := os.ReadFile(logPath)
		if bytes.Contains(data, []byte(`"tool":"shell_wait"`)) {
			if !bytes.Contains(data, []byte("cancelled")) {
				t.Errorf("shell_wait ended but not by cancellation:\n%s", data)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("shell_wait still running %v after its cancellation", stuckAfter)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := c.call("ping", nil); r.Error != nil {
		t.Errorf("ping after the cancellation: %+v", r.Error)
	}
	c.in.Close()
	<-c.exited
	if err := c.cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.stray {
		t.Errorf("a response no call waited for (none is due to the cancelled call): %+v", r)
	}
}

// testBinaryTerminal runs the server on a pseudo-terminal, as a person
// would: it prints the client-configuration hint, answers a request typed
// there, and exits with 0 on Ctrl-D (EOF).
func testBinaryTerminal(t *testing.T, bin string) {
	cmd := exec.Command(bin, "--output-dir", t.TempDir())
	master, _, err := startPTY(cmd, 200, 24)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer master.Close()
	screen := make(chan string, 1)
	go func() {
		all, _ := io.ReadAll(master) // until EIO: the server has exited
		screen <- string(all)
	}()
	io.WriteString(master, `{"jsonrpc":"2.0","id":"typed","method":"ping"}`+"\r\x04")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after Ctrl-D: %v, want 0", err)
		}
	case <-time.After(stuckAfter):
		cmd.Process.Kill()
		t.Fatal("the server did not exit on Ctrl-D")
	}
	// The reader ends at EIO, once the server's side is closed: closing
	// the master first cut it short, before it had read anything when the
	// machine was busy.
	var out string
	select {
	case out = <-screen:
	case <-time.After(stuckAfter):
		t.Fatal("the terminal stayed open after the server exited")
	}
	for _, want := range []string{"ttywright is an MCP server", "claude mcp add ttywright", `{"jsonrpc":"2.0","id":"typed","result":{}}`} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%s", want, out)
		}
	}
}

// testBinaryStdio runs a scripted session with a large request, garbage
// and a batch; stdout must hold only JSON lines, one response per
// request; EOF ends the process with 0.
func testBinaryStdio(t *testing.T, bin string) {
	cmd := exec.Command(bin, "--output-dir", t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdoutPipe, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 5<<20)
	script := []string{
		// 2025-03-26: the last revision with batches.
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"list","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping","params":{"_meta":{"big":"` + big + `"}}}`,
		`not json`,
		`[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"nope"}]`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope"}}`,
	}
	go func() {
		w := bufio.NewWriter(stdin)
		for _, line := range script {
			w.WriteString(line + "\n")
		}
		w.Flush()
		stdin.Close()
	}()
	out, err := io.ReadAll(stdoutPipe)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v; stderr:\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "MCP server") {
		t.Errorf("the terminal hint was printed with stdin on a pipe:\n%s", stderr.String())
	}
	var ids []string
	for line := range bytes.Lines(out) {
		if !json.Valid(line) || !bytes.HasSuffix(line, []byte("\n")) {
			t.Fatalf("stdout line is not JSON: %.200q", line)
		}
		if line[0] == '[' {
			ids = append(ids, "batch")
			continue
		}
		var r reply
		json.Unmarshal(line, &r)
		ids = append(ids, string(r.ID))
	}
	// Requests run concurrently, so only the set of replies is fixed.
	want := map[string]bool{`1`: true, `"list"`: true, `9007199254740993`: true, `null`: true, "batch": true, `6`: true}
	if len(ids) != len(want) {
		t.Errorf("replies %v, want one each for %v", ids, want)
	}
	for _, id := range ids {
		if !want[id] {
			t.Errorf("unexpected reply id %s", id)
		}
	}
}

// testBinarySignals: SIGTERM, SIGINT and SIGHUP end a serving process
// with 0.
func testBinarySignals(t *testing.T, bin string) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		cmd := exec.Command(bin, "--output-dir", t.TempDir())
		stdin, _ := cmd.StdinPipe() // kept open: only the signal ends it
		defer stdin.Close()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// A reply proves the signal handler is installed.
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
		if _, err := bufio.NewReader(stdout).ReadBytes('\n'); err != nil {
			t.Fatal(err)
		}
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%v: exit %v, want 0", sig, err)
			}
		case <-time.After(stuckAfter):
			cmd.Process.Kill()
			t.Errorf("%v: the server did not exit", sig)
		}
	}
}

// testBinaryClosedStdout: a client that stops reading does not kill the
// server with SIGPIPE; it still exits cleanly on EOF.
func testBinaryClosedStdout(t *testing.T, bin string) {
	cmd := exec.Command(bin, "--output-dir", t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdout.Close()
	for i := range 3 {
		fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v, want 0", err)
	}
}

// TestDocsCoverEverything keeps the manual (main.go's package comment)
// and README.md current: each names every flag, tool and prompt.
func TestDocsCoverEverything(t *testing.T) {
	t.Parallel()
	manual, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	manual, _, _ = bytes.Cut(manual, []byte("\npackage main"))
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var cfg Config
	fs, _, _ := configFlags(&cfg)
	fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
	a := newApp(Config{})
	for _, tool := range a.tools.list() {
		names = append(names, tool.Name)
	}
	for _, p := range a.hub.prompts() {
		names = append(names, p.Name)
	}
	for _, name := range names {
		for doc, text := range map[string][]byte{"main.go's package comment": manual, "README.md": readme} {
			if !bytes.Contains(text, []byte(name)) {
				t.Errorf("%s does not mention %s", doc, name)
			}
		}
	}
}
