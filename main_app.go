package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"runtime/debug"
	"time"
)

// main_app.go: the server's configuration and the App that builds the
// rooms from it and wires them together: the capture store, the
// sessions, the tools and the MCP hub, which hears the sessions' events
// and carries the tools' log messages to the clients.

// Config is the server configuration from flags and TTYWRIGHT_* variables.
type Config struct {
	Theme          string   // default theme name
	Cols, Rows     int      // default screen size in cells
	OutputDir      string   // where captures are written (created 0700)
	Scale          int      // integer pixel scale of the bitmap font for files on disk
	InlineImages   bool     // screenshots inline by default
	Trace          bool     // --trace: an HTML trace of every session
	LogPath        string   // JSONL log of every tool call; "" = none
	MaxSessions    int      // live sessions at most
	MaxOutputBytes int64    // cap on the bytes of the captures written (--max-output-bytes); 0 = defaultMaxOutputBytes
	Scrollback     int      // history lines per session
	AllowCommands  []string // when non-empty, shell_start refuses any other command

	NoShellIntegration bool // --shell-integration=false: no OSC 133 marks added to shells (session_integ.go)
	Nice               int  // --nice: the programs' nice value, below the server's priority
	// Web is where the secret pages listen (--web): "" for 127.0.0.1 on
	// a free port, a loopback host:port, or "off" for none (web.go).
	Web string
	// HTTP serves MCP over Streamable HTTP instead of stdio when its Addr
	// is set (--http and friends, mcp_http.go).
	HTTP HTTPConfig
	// Shared relays stdio to the user's shared service (--shared,
	// main_shared.go); IdleExit is when that service exits unused
	// (--idle-exit, main_service.go); Settings is every flag's value as
	// text, which they compare (flagSettings).
	Shared   bool
	IdleExit time.Duration
	Settings map[string]string
}

// App is the server: its configuration and the rooms built from it.
type App struct {
	cfg      Config
	store    *captureStore
	sessions *Sessions
	tools    *Toolbox
	hub      *mcpHub
}

// newApp builds the rooms for cfg; no session runs yet.
func newApp(cfg Config) *App {
	a := &App{cfg: cfg, store: newCaptureStore(cfg.OutputDir, cfg.MaxOutputBytes)}
	a.sessions = newSessions(cfg.sessions(), a.store, nil)
	a.tools = newToolbox(cfg.tools(), a.sessions, a.store)
	if cfg.Web != "off" {
		a.tools.web = newWebDoor(cfg.Web)
	}
	a.tools.views = newSessionViews(a.tools.web)
	a.hub = newHub(buildVersion(), a.tools)
	a.sessions.events = a.hub // before any session starts
	a.tools.log = a.hub.log
	return a
}

// newServer returns a new MCP connection to the app.
func (a *App) newServer() *Server { return newServer(a.hub) }

// serveHTTP serves MCP over HTTP at cfg.Addr until ctx ends or the
// listener fails; each legacy session and each 2026-07-28 request is a
// Server of the app's hub with proto's error log and call log. The URL and
// the token file's path go to stderr.
func (a *App) serveHTTP(ctx context.Context, cfg HTTPConfig, proto *Server, stderr io.Writer) error {
	newConn := func() *Server {
		s := a.newServer()
		s.errlog, s.calls = proto.errlog, proto.calls
		return s
	}
	cfg.AllowCommands = a.cfg.AllowCommands // the consent page names them
	h, err := newHTTPMCP(cfg, newConn, proto.errlog)
	if err != nil {
		return err
	}
	defer h.Close()
	url, err := h.Listen()
	if err != nil {
		return err
	}
	if p := h.auth.Path(); p != "" {
		fmt.Fprintf(stderr, "ttywright: serving MCP on %s\nttywright: the bearer token is in %s (send Authorization: Bearer TOKEN, or use %s/TOKEN)\n", url, p, url)
		if h.oauth != nil {
			fmt.Fprintf(stderr, "ttywright: clients may sign in with OAuth: each sign-in prints an approval code here, to type on its consent page\n")
		}
	} else {
		fmt.Fprintf(stderr, "ttywright: serving MCP on %s without authentication (--http-auth=none)\n", url)
	}
	done := make(chan error, 1)
	go func() { done <- h.Serve() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		h.Close()
		err = <-done
	}
	return err
}

// shutdown stops every session (Toolbox.shutdown), which saves their
// recordings, closes the secret pages, then lets the output directory go.
func (a *App) shutdown() {
	a.tools.shutdown()
	if a.tools.web != nil {
		a.tools.web.Close()
	}
	a.store.close()
}

// startAttach opens the attach listener, where a person's ttywright
// attach watches the sessions and takes their keyboard; when it cannot
// (an unsafe socket directory, no unix sockets) the server runs without,
// and says why on errlog. Close the result at exit: it may be nil.
func (a *App) startAttach(getenv func(string) string, errlog *log.Logger) *attachServer {
	as, err := startAttach(a.sessions, a.tools.views, attachDir(getenv), errlog.Printf)
	if err != nil {
		errlog.Printf("%v: ttywright attach cannot reach this server", err)
		return nil
	}
	return as
}

// sessions is the part of c the Session room needs.
func (c Config) sessions() SessionConfig {
	return SessionConfig{Cols: c.Cols, Rows: c.Rows, Scrollback: c.Scrollback, MaxSessions: c.MaxSessions,
		AllowCommands: c.AllowCommands, NoShellIntegration: c.NoShellIntegration, Version: buildVersion(), Nice: c.Nice}
}

// tools is the part of c the Tools room needs.
func (c Config) tools() ToolsConfig {
	return ToolsConfig{Theme: c.Theme, Scale: c.Scale, InlineImages: c.InlineImages, Trace: c.Trace}
}

// buildVersion is the module version when built by go install (v1.2.3),
// else the VCS revision, else "devel".
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, kv := range bi.Settings {
		if kv.Key == "vcs.revision" && len(kv.Value) >= 12 {
			return "devel-" + kv.Value[:12]
		}
	}
	return "devel"
}
