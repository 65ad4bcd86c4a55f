// Ttywright is an MCP server that lets an AI agent drive terminal programs
// the way Playwright drives a browser: it starts programs in a
// pseudo-terminal, types into them, reads their screen, takes PNG
// screenshots and records GIFs, all through the Model Context Protocol
// (JSON-RPC 2.0 over stdin and stdout). It needs no network and no fonts:
// the terminal emulator and a bitmap font are built in.
//
// Usage:
//
//	ttywright [flags]
//	ttywright snap [-o out.png] [--gif out.gif] [--cols N --rows N --theme T] [--wait-for TEXT | --idle DUR] [--delay DUR] [--timeout DUR] [--title T] [--trim] -- COMMAND [ARGS...]
//	ttywright attach [--list] [--server PID] [--control] [--resize] [--web] [SESSION]
//	ttywright tape [--update] [--json] FILE.tape
//	ttywright test [-j N] [--retries N] [--update] [--junit FILE] [DIR|FILE.tape...]
//	ttywright --http 127.0.0.1:8765 [flags]
//	ttywright --shared [flags]
//	ttywright service [flags] | service status | service stop | service logs
//	ttywright --version | --licenses | --help
//
// With no arguments ttywright serves MCP on stdin and stdout, one JSON
// message per line; an MCP client (Claude Desktop, Claude Code, Cursor,
// the MCP Inspector) starts it as a subprocess. Stdout carries protocol
// messages only; logs go to stderr. When stdin is a terminal it prints a
// hint on stderr about configuring a client, then serves anyway. It exits
// when stdin closes or on SIGTERM, SIGINT or SIGHUP, after hanging up on
// every program it started (SIGHUP, then SIGKILL) and reaping it.
//
// The snap subcommand runs COMMAND in a pseudo-terminal without any MCP
// client and writes a screenshot (and with --gif a recording of the whole
// run) when COMMAND exits; with --wait-for once the screen shows TEXT (or
// matches a /regex/) and the output pauses for 100 ms; with --idle once
// the output, after it began, stayed quiet that long; --delay waits longer
// still. At --timeout (10 s) it takes the picture anyway and exits with
// status 1. --title draws a macOS window frame; --trim crops the blank
// rows below the output, in the PNG and the GIF; --scale sets the pixel
// scale. `ttywright snap -h` lists the flags.
//
// The attach subcommand lets a person watch a session of a running server
// of theirs in their own terminal, live, and take its keyboard: Ctrl-] t
// takes it (the agent's shell_send and shell_click are then refused),
// Ctrl-] g gives it back, Ctrl-] d detaches. --list lists the sessions of
// every server of the user; --server PID picks a server when ids collide;
// --control takes the keyboard at once; --resize gives the session the
// terminal's size while the person holds the keyboard. Each server
// listens on a unix socket in a directory private to the user
// ($XDG_RUNTIME_DIR/ttywright, else /run/user/UID/ttywright, else
// /tmp/ttywright-UID) and admits
// only the user's own processes; docs/attach-protocol.md is the protocol.
// --web prints the link of the session's live view in a browser instead
// (the link shell_start's view returns as view_url): the same screen and
// keyboard on the loopback door of the secret pages. Replies with a
// screen say viewers, keyboard and person_typed while a person watches.
//
// With --shared (or TTYWRIGHT_SHARED=1) the process is a front end of
// the user's shared service: it relays MCP on stdio to one ttywright per
// user, starting it (detached, its stderr in service.log) when none runs,
// so that sessions outlive the client that started them and every client
// sees and drives every session. The service listens on service.sock in
// the attach sockets' directory and admits only the user's processes.
// shell_start's name names a session, and session_id takes the name;
// sessions://list says which client started each session and when it was
// last driven; a call that drives a session another client's call waits
// on is told so. The service stops after --idle-exit with no client and
// no running session, on `ttywright service stop`, or on SIGTERM,
// stopping every session; if it dies, the front ends say which sessions
// went on the next call and start a new one. Its settings are the first
// front end's: a front end whose flags differ is told which apply.
// `ttywright service` runs it in the foreground (with --http it also
// serves MCP over HTTP); service status, stop and logs describe, stop it
// and print its log.
//
// The tape subcommand runs a tape: VHS's .tape language (Output, Require,
// Set, Type, the keys, Sleep, Wait, Hide/Show, Screenshot, Env, Source,
// Copy/Paste) played through the same tools an agent calls, with no
// browser and no ffmpeg, plus assertions that wait: Wait+Command [exit=N],
// Expect "text" or /regex/, Expect+Gone, ExpectStyle "text" bold fg=red,
// Snapshot[+Style] NAME (compared with NAME.txt, or NAME.style.txt, beside
// the tape), Mask /regex/ and Mask rows N-M (0-based), Click "text" or
// Click ROW COL. A malformed tape stops before anything runs with
// FILE:LINE:COL and what was expected there; what ttywright cannot honour
// (a TTF font family, letter spacing) is a warning naming the command.
// --update writes the Snapshot goldens; --json prints the result as JSON.
// The test subcommand runs tapes as tests: each FILE, every *.tape under
// each DIR but _*.tape (for Source), -j N at a time, each in its own
// sessions and temporary directory, a failed one again up to --retries
// times; it prints each failure with the expected and the actual screen
// and the last tool calls, then "N passed, N failed", writes --junit FILE
// for CI, and exits with status 1 when a tape failed.
//
// # Flags
//
// Every flag can also be set with an environment variable TTYWRIGHT_<NAME>,
// the flag name in upper case with '-' as '_' (TTYWRIGHT_OUTPUT_DIR); a
// flag on the command line wins. A bad value exits with status 2 and a
// one-line message.
//
// --theme NAME is the default colour theme of new sessions (one-dark).
// Sessions can pick another one in shell_start; themes://list lists them.
//
// --cols N and --rows N are the default screen size in cells (120 by 40),
// at most 1000 columns and 500 rows.
//
// --output-dir DIR is where screenshots and recordings are written, as
// DIR/<session id>/<name>.png (and .svg, .ansi, .txt, .gif, .cast). The
// default is $TMPDIR/ttywright-UID, one per user; it is created with mode
// 0700 when first used.
//
// --scale N is the integer pixel scale of the 8x16 font in files written
// to disk, 1 to 4 (default 2: a cell is 16x32 pixels). Inline images sent
// to the model are drawn at scale 1 unless a call asks otherwise.
//
// --inline-images makes shell_screenshot return the PNG inline as MCP
// image content by default, not only as a file and a resource link.
//
// --log-path FILE appends one JSON line per tool call to FILE: time, tool,
// input, a summary of the output, duration_ms and isError.
//
// --max-sessions N caps the number of live sessions (default 16).
//
// --max-output-bytes N caps the bytes of the captures the server writes
// in the output directory, those still there (default 1073741824, 1 GiB).
// Past it a screenshot or a recording is refused with an error saying
// what is used, and a running recording stops and is saved with a note.
// Captures deleted by hand make room again.
//
// --scrollback N is the number of lines kept above the screen for each
// session (default 10000).
//
// --allow-command CMD may be repeated; when given, shell_start runs only
// the listed files (symlinks resolved, compared by device and inode), each
// only under its own name, since argv[0] picks the behaviour of rbash,
// rvim and busybox applets: allowing rbash does not allow bash. The
// checked file is the one executed (on Linux a binary through
// /proc/self/fd). shell_start's env may then set only TERM, COLORTERM,
// LANG, LANGUAGE, LC_*, TZ, NO_COLOR, FORCE_COLOR, CLICOLOR*, COLUMNS,
// LINES and PATH equal to the server's; other variables (BASH_ENV,
// LD_PRELOAD, PYTHONPATH, ...) could make the program run other code. In
// TTYWRIGHT_ALLOW_COMMAND, separate commands with commas.
//
// --nice N is the nice value the programs sessions start run at (and
// what they start), 5 by default, 0 to 19: when they take every CPU the
// server's answers still come first. On Linux their autogroup (each
// session's own) gets it too. 0 runs them at the server's priority.
//
// --shell-integration=false starts interactive bash, zsh and fish without
// the OSC 133 prompt and command marks that wait_for_command and
// session://{id}/commands read (default true; shell_start can turn them
// off per session with shell_integration false).
//
// --web ADDR is where the one-time pages of shell_ask_secret listen, a
// loopback host:port (default 127.0.0.1 on a free port, open only while
// a page waits); --web=off turns them off.
//
// --http ADDR serves MCP over Streamable HTTP at host:port instead of
// stdio, on /mcp, both eras: a legacy initialize opens a session
// (Mcp-Session-Id, its GET stream resumable with Last-Event-ID, DELETE to
// end it), a 2026-07-28 request is served statelessly. A 256-bit bearer
// token is made, written to a 0600 file whose path goes to stderr, or read
// from --http-token-file (written there when the file does not exist); a
// client sends Authorization: Bearer TOKEN or uses /mcp/TOKEN, never a
// query string. --http-auth oauth (the default) makes ttywright an OAuth
// 2.1 authorization server too, for clients that sign in (ChatGPT,
// claude.ai): the owner approves each sign-in on its consent page with a
// one-time approval code that ttywright prints on stderr; --http-public-url
// is the URL they reach it by (a tunnel's), and with --http-token-file the
// grants are kept in FILE.grants. --http-auth token serves the bearer token
// only; --http-auth=none is accepted only on a loopback address. Host must be a served name (--http-host adds one,
// a tunnel's) and Origin the server's own or one given with
// --http-allow-origin, which also gets CORS headers. --tls-cert and
// --tls-key serve HTTPS; a non-loopback address without them needs
// --http-insecure (a tunnel in front terminates TLS). Whoever holds the
// token can run what the agent can; SECURITY.md gives the limits.
//
// --shared serves stdio through the user's shared service (above);
// --idle-exit DURATION is how long that service waits with no client and
// no running session before it exits (30m; 0: never).
//
// --version prints the version and exits; --licenses prints the licences
// of the embedded fonts and exits.
//
// # Tools
//
// shell_start starts a program (default $SHELL) and returns its
// shell_session_id (with view true also view_url, the session's live view
// for a person's browser); with name it names the session, and every
// session_id takes the name. shell_send types text (exactly as written, like a
// paste), input (escapes such as "\r" for Enter) and named keys, then
// waits; shell_wait waits without typing. Their waits hold in order:
// wait_for (text or /regex/, never satisfied by the echo of the input
// just typed, nor with new_only by text already on the screen), then
// wait_for_gone, wait_for_input (the program read what was typed and
// reads again), then wait_idle_ms or wait_stable_ms, within timeout_ms.
// Each reply says what the foreground program waits for (input: command,
// secret, line, keys or none); at a secret, shell_ask_secret lets the
// person type it into the program through a one-time loopback page that
// the client shows (URL-mode elicitation) or the reply links to.
// Calls that type into one session (shell_send, shell_click) take turns,
// in the order they arrive; the wait for the turn counts against
// timeout_ms.
// shell_read returns the screen text with a status line (format "styled"
// marks reverse video, bold, colours); shell_find locates text by content
// and style and can wait for it; shell_click clicks or scrolls the mouse
// in the mode the program enabled; shell_screenshot writes PNG, SVG, ANSI and text captures;
// shell_record_start and shell_record_stop record a GIF or asciicast;
// shell_resize changes the screen size; shell_stop ends the program.
// shell_start {trace: true} keeps an HTML trace of the session (see
// --trace).
// To a client that declared MCP Apps (io.modelcontextprotocol/ui),
// shell_start and shell_read show the terminal app, ui://ttywright/terminal,
// in the conversation: the live screen, the commands, taking the keyboard
// and typing a secret, through app_screen, app_commands, app_keyboard and
// app_secret, tools the client keeps from the model.
//
// # Resources
//
// sessions://list, session://{id}/info, session://{id}/buffer,
// session://{id}/screenshots and .../screenshots/{name},
// session://{id}/recordings and .../recordings/{name}, themes://list and
// theme://{name}. Clients may subscribe to any of them.
// session://{id}/tape is what was done in the session so far as a tape,
// VHS's language with ttywright's assertions, the waits written as
// assertions (wait_for_command as Wait+Command exit=N, wait_for as
// Expect), so that replaying it with ttywright test checks the same
// outcomes; session://{id}/trace is a traced session's HTML trace.
//
// # Prompts
//
// terminal-basics, vim-edit, record-session, theme-selection,
// tui-navigate, ask-for-password and write-regression-test are short guides to these tools that a client can offer
// its user.
//
// # Example
//
// Register the server with Claude Code, then ask for a screenshot:
//
//	$ claude mcp add ttywright -- ttywright --theme dracula
//	$ claude "open htop with ttywright and show me a screenshot"
//
// Or talk to it by hand (one request per line):
//
//	$ ttywright
//	{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}
//	{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"shell_start","arguments":{"command":"bash"}}}
//
// Or take a one-off screenshot without a client:
//
//	$ ttywright snap -o demo.png -- ls --color=always /
//
// # Code
//
// The program is one package main whose files are rooms: the emulator,
// the PTY, the capture files, the pictures, sessions, resource URIs, the
// tools, the protocol and the program. docs/ARCHITECTURE.md gives each
// room's files and the rooms it may use, and rooms_test.go holds the code
// to that table with the type checker: no room uses a room above it, and
// no two rooms use each other. The emulator (the vt*.go files) uses
// nothing else of the package and does no I/O.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"
)

func main() {
	log.SetPrefix("ttywright: ")
	log.SetFlags(0)
	if len(os.Args) > 1 {
		if sub, ok := subcommands[os.Args[1]]; ok {
			os.Exit(sub(os.Args[2:]))
		}
	}
	if cfg, action, err := parseConfig(os.Args[1:], os.Getenv, io.Discard); err == nil && action == "" && cfg.Shared {
		// A front end (main_shared.go) runs no session: it is no
		// subreaper, which would kill the service it started at its exit.
		os.Exit(run(os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
	}
	if err := hideDescriptors(); err != nil {
		log.Printf("cannot make the process non-dumpable: %v (a program in a session could write to the client through /proc)", err)
	}
	removeStaleIntegrationDirs()    // wrapper directories of servers that were killed (session_integ.go)
	finishOrphans := adoptOrphans() // the server process only, never a test calling run
	status := run(os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	finishOrphans() // run stopped every session: kill and reap what they left behind
	os.Exit(status)
}

// run is the server command: parse the configuration, serve until stdin
// closes or a signal arrives, clean up. It returns the exit status.
func run(args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, action, err := parseConfig(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "ttywright: %v\n", err)
		return 2
	}
	switch action {
	case "version":
		fmt.Fprintln(stdout, "ttywright", buildVersion())
		return 0
	case "licenses":
		fmt.Fprint(stdout, licenseText())
		return 0
	}

	if cfg.Shared {
		return runShared(cfg, args, getenv, stdin, stdout, stderr)
	}
	a := newApp(cfg)
	srv := a.newServer()
	srv.errlog = log.New(stderr, "ttywright: ", 0)
	if cfg.LogPath != "" {
		if srv.calls, err = openCallLog(cfg.LogPath); err != nil {
			fmt.Fprintf(stderr, "ttywright: --log-path: %v\n", err)
			return 2
		}
		defer srv.calls.Close()
	}
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) && cfg.HTTP.Addr == "" {
		fmt.Fprint(stderr, hint)
	}

	// With SIGPIPE caught, a write to a closed stdout fails with EPIPE
	// instead of killing the process before it can stop its sessions. (Not
	// signal.Ignore: an ignored SIGPIPE would be inherited by programs
	// started in sessions.)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	// SIGHUP too: when the terminal of a person running the server by hand
	// closes, the sessions (each in its own process session, so not hung
	// up on by the kernel) must still be stopped.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt, syscall.SIGHUP)
	viewers := a.startAttach(getenv, srv.errlog)
	what := "reading stdin"
	if cfg.HTTP.Addr != "" {
		what, err = "serving HTTP", a.serveHTTP(ctx, cfg.HTTP, srv, stderr)
	} else {
		err = srv.Serve(ctx, stdin, stdout)
	}
	stop() // a second Ctrl-C now ends the process even if cleanup hangs
	viewers.Close()
	a.shutdown()
	if err != nil {
		log.Printf("%s: %v", what, err)
		return 1
	}
	return 0
}

// hint is printed on stderr when a person runs the server in a terminal.
const hint = `ttywright is an MCP server: it speaks JSON-RPC on stdin/stdout and is meant to be started by an MCP client.
  Claude Code:    claude mcp add ttywright -- ttywright
  Claude Desktop: add {"mcpServers": {"ttywright": {"command": "ttywright"}}} to claude_desktop_config.json
  Try it now:     ttywright snap -o demo.png -- ls --color=always /
Serving on stdin anyway; press Ctrl-D to quit.
`

// usageHead opens --help: what the program is, first.
const usageHead = `ttywright: Playwright for the terminal, an MCP server that runs programs in
pseudo-terminals with its own terminal emulator. Without arguments it serves
MCP (JSON-RPC) on stdin/stdout, to be started by an MCP client.

usage: ttywright [flags]                              serve MCP on stdin/stdout
       ttywright snap [flags] -- COMMAND [ARGS...]    screenshot a command (snap -h)
       ttywright attach [SESSION]                     watch a session and take its keyboard (attach -h)
       ttywright tape FILE.tape                       run a VHS tape, with assertions (tape -h)
       ttywright test [DIR|FILE.tape...]              run tapes as tests (test -h)
       ttywright --http 127.0.0.1:8765 [flags]        serve MCP over HTTP, with OAuth sign-in and a bearer token (SECURITY.md)
       ttywright --shared [flags]                     relay stdio to your shared service: sessions outlive the client
       ttywright service status|stop|logs             the shared service (service -h)
       ttywright --version | --licenses

flags (each also TTYWRIGHT_<NAME>):
`

// printUsage writes the help text and the flags to w.
func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, usageHead)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprintf(w, "\nthemes: %s\n", strings.Join(themeNames(), ", "))
}

// configFlags defines the server's flags on a new flag set, storing into
// cfg; version and licenses are the two action flags.
func configFlags(cfg *Config) (fs *flag.FlagSet, version, licenses *bool) {
	fs = flag.NewFlagSet("ttywright", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&cfg.Theme, "theme", "one-dark", "default colour theme (see themes://list)")
	fs.IntVar(&cfg.Cols, "cols", 120, "default screen width in cells (2-1000)")
	fs.IntVar(&cfg.Rows, "rows", 40, "default screen height in cells (1-500)")
	fs.StringVar(&cfg.OutputDir, "output-dir", defaultOutputDir(), "directory for screenshots and recordings (created 0700)")
	fs.IntVar(&cfg.Scale, "scale", 2, "integer pixel scale of the font in files on disk (1-4)")
	fs.BoolVar(&cfg.InlineImages, "inline-images", false, "return screenshots inline as MCP image content by default")
	fs.BoolVar(&cfg.Trace, "trace", false, "keep an HTML trace of every session (steps, screens, commands), written at shell_stop as <output-dir>/<id>/trace.html")
	fs.StringVar(&cfg.LogPath, "log-path", "", "append a JSON line per tool call to this file")
	fs.IntVar(&cfg.MaxSessions, "max-sessions", 16, "maximum number of live sessions (1-1000)")
	fs.Int64Var(&cfg.MaxOutputBytes, "max-output-bytes", defaultMaxOutputBytes, "cap on the bytes of the captures this server wrote that are still in the output directory; past it captures are refused and recordings stop")
	fs.IntVar(&cfg.Scrollback, "scrollback", 10000, "scrollback lines kept per session")
	fs.Func("allow-command", "allow only this program, under this name, in shell_start (repeatable; symlinks resolved; env then limited to TERM, LANG, LC_*, TZ and similar, PATH only as the server's; see SECURITY.md)", func(v string) error {
		if v = strings.TrimSpace(v); v == "" {
			return errors.New("empty command")
		}
		cfg.AllowCommands = append(cfg.AllowCommands, v)
		return nil
	})
	fs.IntVar(&cfg.Nice, "nice", 5, "nice value of the programs sessions run (0-19): the server's requests come first when they take every CPU; 0 runs them at the server's priority")
	fs.StringVar(&cfg.Web, "web", "", "where the one-time pages of shell_ask_secret listen, for a person to type a password into a program: a loopback host:port, or off (default 127.0.0.1 on a free port, open only while a page waits)")
	httpFlags(fs, &cfg.HTTP)
	fs.BoolVar(&cfg.Shared, "shared", false, "serve stdio through the user's shared ttywright service, started when none runs: its sessions outlive this client and every client shares them (README \"Sessions that outlive the client\")")
	fs.DurationVar(&cfg.IdleExit, "idle-exit", 30*time.Minute, "the shared service exits after this long with no client and no running session (0: never)")
	fs.Var((*offFlag)(&cfg.NoShellIntegration), "shell-integration", "mark prompts and commands in interactive bash, zsh and fish (OSC 133) (default true; -shell-integration=false turns it off)")
	version = fs.Bool("version", false, "print the version and exit")
	licenses = fs.Bool("licenses", false, "print the licences of the embedded fonts and exit")
	return fs, version, licenses
}

// subcommands are the program's subcommands by name, each run with the
// arguments after its name; its result is the exit status. An argument
// of the server that is a slip of a name is told the name.
// (Set in init: the service's parseConfig reads the names.)
var subcommands map[string]func(args []string) int

func init() {
	subcommands = map[string]func(args []string) int{
		"snap":    runSnap,
		"tape":    func(args []string) int { return runTapeCmd(args, os.Stdout, os.Stderr) },
		"test":    func(args []string) int { return runTestCmd(args, os.Stdout, os.Stderr) },
		"attach":  func(args []string) int { return runAttach(args, os.Getenv, os.Stdin, os.Stdout, os.Stderr) },
		"service": func(args []string) int { return runServiceCmd(args, os.Getenv, os.Stdout, os.Stderr) },
	}
}

// parseConfig reads flags, then TTYWRIGHT_* variables for the flags not
// given, and validates the result. action is "", "version" or "licenses".
// Usage errors are returned as one-line errors; -h and --help print the
// usage to help (standard output) and return flag.ErrHelp.
func parseConfig(args []string, getenv func(string) string, help io.Writer) (cfg Config, action string, err error) {
	fs, version, licenses := configFlags(&cfg)

	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(help, fs)
			return cfg, "", err
		}
		return cfg, "", fmt.Errorf("%v (ttywright -h lists the flags)", err)
	}
	if fs.NArg() > 0 {
		if near := nearestName(fs.Arg(0), slices.Sorted(maps.Keys(subcommands))); near != "" {
			return cfg, "", fmt.Errorf("unexpected argument %q: the server takes only flags; did you mean \"ttywright %s\"?", fs.Arg(0), near)
		}
		return cfg, "", fmt.Errorf("unexpected argument %q: the server takes only flags; did you mean \"ttywright snap -- %s\"?", fs.Arg(0), strings.Join(fs.Args(), " "))
	}

	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if given[f.Name] || f.Name == "version" || f.Name == "licenses" || envErr != nil {
			return
		}
		name := "TTYWRIGHT_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		v := getenv(name)
		if v == "" {
			return
		}
		values := []string{v}
		if f.Name == "allow-command" {
			values = strings.Split(v, ",")
		}
		for _, v := range values {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v%s", name, v, err, envHint(f))
				return
			}
		}
	})
	if envErr != nil {
		return cfg, "", envErr
	}
	switch {
	case *version:
		return cfg, "version", nil
	case *licenses:
		return cfg, "licenses", nil
	}
	if err := validateConfig(&cfg); err != nil {
		return cfg, "", err
	}
	cfg.Settings = flagSettings(fs, cfg)
	return cfg, "", nil
}

// flagSettings is the value of every flag that sets up sessions and
// tools, as text (allow-command's list joined with commas): what a
// shared service and a front end compare (main_service.go). The HTTP
// listener's flags, and the flags that only pick what the process does,
// are left out.
func flagSettings(fs *flag.FlagSet, cfg Config) map[string]string {
	m := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		switch {
		case f.Name == "version" || f.Name == "licenses" || f.Name == "shared":
		case strings.HasPrefix(f.Name, "http") || strings.HasPrefix(f.Name, "tls"):
		case f.Name == "allow-command":
			m[f.Name] = strings.Join(cfg.AllowCommands, ",")
		default:
			m[f.Name] = f.Value.String()
		}
	})
	return m
}

// envHint says what a TTYWRIGHT_* variable takes, after flag's bare
// "parse error".
func envHint(f *flag.Flag) string {
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return ": use true or false (or 1 or 0)"
	}
	if _, err := strconv.Atoi(f.DefValue); err == nil {
		return ": use a whole number, e.g. " + f.DefValue
	}
	return ""
}

// validateConfig checks ranges and the theme, and makes the output
// directory absolute (sessions may change their working directory, the
// server never does, but paths in results should not depend on it).
func validateConfig(cfg *Config) error {
	if _, err := lookupTheme(cfg.Theme); err != nil {
		return fmt.Errorf("--theme: %v", err)
	}
	if err := cfg.HTTP.validate(); err != nil {
		return err
	}
	if cfg.Web != "off" {
		if _, _, err := webLoopback(cfg.Web); err != nil {
			return fmt.Errorf("--web: %v (or --web=off)", err)
		}
	}
	for _, r := range []struct {
		name     string
		v        int
		min, max int
	}{
		{"cols", cfg.Cols, minCols, maxCols}, // session.go: what shell_start accepts
		{"rows", cfg.Rows, minRows, maxRows},
		{"scale", cfg.Scale, 1, 4},
		{"max-sessions", cfg.MaxSessions, 1, 1000},
		{"scrollback", cfg.Scrollback, 0, 1000000},
		{"nice", cfg.Nice, 0, 19},
	} {
		if r.v < r.min || r.v > r.max {
			return fmt.Errorf("--%s %s: must be from %d to %d", r.name, strconv.Itoa(r.v), r.min, r.max)
		}
	}
	if cfg.MaxOutputBytes < 1 {
		return fmt.Errorf("--max-output-bytes %d: must be positive, e.g. %d (1 GiB)", cfg.MaxOutputBytes, defaultMaxOutputBytes)
	}
	if checkImageSize(cfg.Cols, cfg.Rows, cfg.Scale) != nil {
		return fmt.Errorf("--cols %d, --rows %d and --scale %d make screenshots larger than the image size limit: lower one of them", cfg.Cols, cfg.Rows, cfg.Scale)
	}
	if cfg.OutputDir == "" {
		return errors.New("--output-dir: must not be empty")
	}
	// MCP clients start the server without a shell, so a "~/..." in a
	// client's JSON config arrives as it was written.
	cfg.OutputDir, cfg.LogPath = expandHome(cfg.OutputDir), expandHome(cfg.LogPath)
	dir, err := filepath.Abs(cfg.OutputDir)
	if err != nil {
		return fmt.Errorf("--output-dir: %v", err)
	}
	cfg.OutputDir = dir
	return nil
}

// httpFlags defines the flags of MCP over HTTP (mcp_http.go).
func httpFlags(fs *flag.FlagSet, c *HTTPConfig) {
	fs.StringVar(&c.Addr, "http", "", "serve MCP over Streamable HTTP at host:port on /mcp instead of stdio (e.g. 127.0.0.1:8765); a bearer token is made unless --http-auth=none")
	fs.StringVar(&c.Auth, "http-auth", "", "oauth (default: clients sign in with OAuth 2.1, the owner approving each with a code printed on stderr; the bearer token works too), token (the bearer token only, written to a 0600 file whose path goes to stderr) or none (loopback addresses only)")
	fs.StringVar(&c.PublicURL, "http-public-url", "", "the URL clients reach the server by, e.g. a tunnel's https://abc.trycloudflare.com (no path): OAuth's issuer and resource, and a name the Host check accepts (default: the listen address's URL)")
	fs.StringVar(&c.TokenFile, "http-token-file", "", "read the bearer token from this file (mode 0600, at least 32 characters), or write a new one there when it does not exist; OAuth grants are kept beside it in FILE.grants, so a restart signs no client out")
	fs.Func("http-allow-origin", "allow this Origin (scheme://host[:port]) and answer it with CORS headers (repeatable; default: none but the server's own)", func(v string) error {
		c.AllowOrigin = append(c.AllowOrigin, strings.TrimSpace(v))
		return nil
	})
	fs.Func("http-host", "accept this name in the Host header too, e.g. a tunnel's public host (repeatable; default: the listen address's names, the TLS certificate's)", func(v string) error {
		if v = strings.TrimSpace(v); v == "" || strings.ContainsAny(v, "/ ") {
			return errors.New("give a host name, e.g. abc.example.com")
		}
		c.Hosts = append(c.Hosts, v)
		return nil
	})
	fs.StringVar(&c.TLSCert, "tls-cert", "", "serve HTTPS with this PEM certificate (chain) file; with --tls-key")
	fs.StringVar(&c.TLSKey, "tls-key", "", "the PEM private key of --tls-cert")
	fs.BoolVar(&c.Insecure, "http-insecure", false, "allow plain HTTP on a non-loopback address (a tunnel or proxy in front terminates TLS)")
}

// offFlag is a boolean flag that defaults to true and stores its
// negation, so that Config's zero value keeps the feature on.
type offFlag bool

func (f *offFlag) String() string {
	if f != nil && bool(*f) {
		return "false"
	}
	return "true"
}

func (f *offFlag) Set(v string) error {
	on, err := strconv.ParseBool(v)
	*f = offFlag(!on)
	return err
}

func (f *offFlag) IsBoolFlag() bool { return true }
