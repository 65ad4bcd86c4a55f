package main

// app.go: the server's configuration and the App that holds the sessions
// and reaches the client (notifications and log messages). The tools are
// in tools.go and tools_*.go, the protocol in mcp.go and jsonrpc.go.

import "sync"

// Config is the server configuration from flags and TTYWRIGHT_* variables.
type Config struct {
	Theme         string   // default theme name
	Cols, Rows    int      // default screen size in cells
	OutputDir     string   // where captures are written (created 0700)
	Scale         int      // integer pixel scale of the bitmap font for files on disk
	InlineImages  bool     // screenshots inline by default
	LogPath       string   // JSONL log of every tool call; "" = none
	MaxSessions   int      // live sessions at most
	Scrollback    int      // history lines per session
	AllowCommands []string // when non-empty, shell_start refuses any other command

	NoShellIntegration bool // --shell-integration=false: no OSC 133 marks added to shells (shellinteg.go)
}

// App is the server's state: configuration, sessions and the notifier.
// Its methods are safe for concurrent use.
type App struct {
	cfg Config

	mu       sync.Mutex
	sessions map[string]*Session
	nextID   int

	res resState  // resources.go: subscriptions and notification debouncing
	rec recLimits // record.go: caps on each recording

	// notify sends a JSON-RPC notification to the client (set by the
	// protocol layer; nil-safe through App.Notify).
	notify func(method string, params any)
	// log sends notifications/message (set by the protocol layer;
	// nil-safe through App.Log).
	log func(level, logger string, data any)
}

// newApp returns an App with no sessions.
func newApp(cfg Config) *App {
	return &App{cfg: cfg, sessions: map[string]*Session{}}
}

// Notify sends a notification to the client, if one is connected.
func (a *App) Notify(method string, params any) {
	if a.notify != nil {
		a.notify(method, params)
	}
}

// Log sends an MCP log message (notifications/message) to the client when
// level is at or above the level it chose with logging/setLevel (default
// "info"). level is one of debug, info, notice, warning, error, critical,
// alert, emergency; logger names the part ("pty", "render"); data is any
// JSON value. Never log secrets: the client may show it to a person.
func (a *App) Log(level, logger string, data any) {
	if a.log != nil {
		a.log(level, logger, data)
	}
}
