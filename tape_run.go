package main

// tape_run.go: the runner that plays a parsed tape through the Toolbox,
// in process, with the tools an agent uses: shell_start with the tape's
// shell, shell_send for Type and the keys at the tape's typing speed,
// shell_wait and shell_find for the assertions, shell_click,
// shell_screenshot, shell_record_start/stop for the GIF and the cast.
// Every tool call goes through tapeRun.call. Each run has its own
// sessions and its own output directory under a temporary directory.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// tapeOptions are how a tape runs.
type tapeOptions struct {
	Update    bool   // write the Snapshot goldens instead of comparing
	TmpDir    string // where the run's output directory and shell files go ("" = the system's)
	TraceDir  string // where a failed run's trace goes ("" = nowhere)
	TraceName string // its file name there ("" = traceName of the tape's path)
	// Timeout bounds the whole run (0: none); a tape still running then
	// fails at the command it was at.
	Timeout time.Duration
}

// defaultTapeTimeout is --timeout's default: a tape that has not ended
// within it fails (a Sleep 1000m, an Expect that never holds).
const defaultTapeTimeout = 10 * time.Minute

// tapeResult is what running one tape came to.
type tapeResult struct {
	Path     string
	Err      error        // the tape did not parse, or could not run
	ParseErr bool         // Err is the parse error: nothing ran
	Failure  *tapeFailure // an assertion failed
	Warnings []tapeWarning
	Outputs  []string // the Output paths the tape names
	Wrote    []string // the files written (Output, Screenshot, updated goldens)
	Duration time.Duration
	// TracePath is the trace of the failed run (traceName in
	// tapeOptions.TraceDir), "" when it passed or did not start.
	TracePath string
}

// Passed reports whether the tape ran to its end with every assertion met.
func (r *tapeResult) Passed() bool { return r.Err == nil && r.Failure == nil }

// tapeFailure is an assertion that failed: the command, what it expected,
// the screen it saw and the last tool calls before it.
type tapeFailure struct {
	Line, Col int
	Cmd       string
	Expected  string
	Got       string // what was seen instead, when more than the screen
	Actual    string // the screen
	Steps     []string
}

// tapeStepsKept is how many of the last tool calls a failure shows.
const tapeStepsKept = 8

// tapeRun is one run of a tape.
type tapeRun struct {
	prog       *tapeProgram
	opt        tapeOptions
	set        tapeSettings
	env        map[string]string
	tb         *Toolbox
	store      *captureStore
	tools      map[string]*Tool
	tmp        string
	sid        string
	cols       int
	rows       int
	scale      int
	started    bool // the settings are read and the session runs
	hidden     bool
	recording  bool               // a recording runs (shell_record_start)
	segments   []recordStopResult // the recordings stopped, in order
	shellCmd   tapeCmd            // the Set Shell that chose the shell, if any
	clip       string
	at         tapeCmd // the command running now
	lastScreen string  // the screen when --timeout ended the run
	lastCmd    int     // the n of the last command Wait+Command saw end
	frames     int
	masks      []tapeCmd
	outputs    []tapeCmd
	text       strings.Builder // the .txt/.ascii output
	steps      []string
	res        *tapeResult
}

// runTape parses and runs the tape at path.
func runTape(ctx context.Context, path string, opt tapeOptions) *tapeResult {
	start := time.Now()
	res := &tapeResult{Path: path}
	defer func() { res.Duration = time.Since(start) }()
	prog, err := parseTapeFile(path)
	if err == nil {
		err = checkOutputs(prog)
	}
	if err != nil {
		res.Err, res.ParseErr = err, true
		return res
	}
	for _, c := range prog.Cmds {
		if c.Name == "Output" {
			res.Outputs = append(res.Outputs, c.Text)
		}
	}
	r := &tapeRun{prog: prog, opt: opt, set: defaultTapeSettings(), env: map[string]string{}, res: res}
	runCtx := ctx
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	err = r.run(runCtx, ctx)
	switch {
	case err != nil && ctx.Err() == nil && runCtx.Err() != nil:
		res.Err, res.Failure = nil, &tapeFailure{Line: r.at.Line, Col: r.at.Col, Cmd: r.at.String(),
			Expected: fmt.Sprintf("the tape to end within --timeout %v", opt.Timeout), Got: "still at this command", Actual: r.lastScreen, Steps: r.steps}
	case err != nil && ctx.Err() != nil: // SIGINT, SIGTERM: not the tape's failure
		res.Err, res.Failure = fmt.Errorf("%w: %v", errInterrupted, err), nil
	case err != nil && res.Failure == nil:
		res.Err = err
	}
	return res
}

// run plays every command, then writes the outputs and stops the session.
// A run that fails keeps its session's trace (keepTrace), unless outer,
// the context of the whole run (SIGINT, SIGTERM), ended it.
func (r *tapeRun) run(ctx, outer context.Context) (err error) {
	tmp, err := os.MkdirTemp(r.opt.TmpDir, "ttywright-tape-")
	if err != nil {
		return err
	}
	r.tmp = tmp
	defer os.RemoveAll(tmp)
	defer r.close()
	defer func() {
		if err != nil && outer.Err() == nil {
			if r.started && ctx.Err() != nil {
				r.lastScreen = r.screenNow() // for the --timeout failure, before the session stops
			}
			r.keepTrace()
		}
	}()
	r.prepare()
	for i, c := range r.prog.Cmds {
		if !r.started && !isTapeSetting(c) {
			if err := r.start(ctx); err != nil {
				return r.cmdErr(c, err)
			}
		}
		r.at = c
		if err := r.exec(ctx, c, i); err != nil {
			return err
		}
	}
	if !r.started {
		if err := r.start(ctx); err != nil {
			return err
		}
	}
	return r.finish(ctx)
}

// isTapeSetting reports whether c is read before the terminal starts:
// the leading Set, Output and Require commands, as VHS reads them.
func isTapeSetting(c tapeCmd) bool {
	return c.Name == "Set" || c.Name == "Output" || c.Name == "Require" || c.Name == "Env"
}

// prepare reads what VHS applies before the terminal starts wherever it
// is in the tape: Env and Set Shell.
func (r *tapeRun) prepare() {
	for _, c := range r.prog.Cmds {
		switch {
		case c.Name == "Env":
			r.env[c.Setting] = c.Text
		case c.Name == "Set" && c.Setting == "Shell":
			r.set.Shell, r.shellCmd = c.Text, c
		}
	}
}

// cmdErr is err at command c.
func (r *tapeRun) cmdErr(c tapeCmd, err error) error {
	var te *tapeError
	if errors.As(err, &te) {
		return err
	}
	return &tapeError{r.prog.Path, c.Line, c.Col, c.String() + ": " + err.Error()}
}

// warn records a warning once per command and message.
func (r *tapeRun) warn(w tapeWarning) {
	for _, o := range r.res.Warnings {
		if o.Cmd == w.Cmd && o.Msg == w.Msg {
			return
		}
	}
	r.res.Warnings = append(r.res.Warnings, w)
}

// call runs one tool through the Toolbox, as a tools/call would (a step
// of the session's trace), and decodes its structured result into out
// (when not nil). A result with isError is an error carrying its text.
// Every tool call of a tape run goes through here.
func (r *tapeRun) call(ctx context.Context, tool string, args any, out any) (*ToolResult, error) {
	t := r.tools[tool]
	if t == nil {
		return nil, fmt.Errorf("no tool %s", tool)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	cctx := ctx
	if t.Arrive != nil {
		cctx = t.Arrive(ctx, raw)
	}
	origin := fmt.Sprintf("%s:%d: %s", r.prog.Path, r.at.Line, r.at)
	res := r.tb.Run(cctx, t, &ToolCall{Args: raw, tool: t, Progress: func(float64, float64, string) {}, Origin: origin})
	r.step(tool, raw, res)
	if res == nil {
		return nil, fmt.Errorf("%s returned nothing", tool)
	}
	if res.IsError {
		return res, fmt.Errorf("%s: %s", tool, resultSummary(res))
	}
	if out != nil && res.Structured != nil {
		b, err := json.Marshal(res.Structured)
		if err == nil {
			err = json.Unmarshal(b, out)
		}
		if err != nil {
			return res, fmt.Errorf("%s: reading its result: %v", tool, err)
		}
	}
	return res, nil
}

// step keeps a line for the call among the last tapeStepsKept.
func (r *tapeRun) step(tool string, args []byte, res *ToolResult) {
	line := tool + " " + string(args)
	if res != nil {
		line += " → " + resultSummary(res)
	}
	r.steps = append(r.steps, line)
	if len(r.steps) > tapeStepsKept {
		r.steps = r.steps[1:]
	}
}

// resultSummary is the first line of a result's text.
func resultSummary(res *ToolResult) string {
	text := res.Text
	if text == "" && res.Structured != nil {
		b, _ := json.Marshal(res.Structured)
		text = string(b)
	}
	first, _, _ := strings.Cut(text, "\n")
	if len(first) > 200 {
		first = first[:200] + "…"
	}
	return first
}

// start builds the run's rooms and starts the shell at the settings'
// size.
func (r *tapeRun) start(ctx context.Context) error {
	r.started = true
	cols, rows, scale, err := r.set.tapeGrid()
	if err != nil {
		return err
	}
	r.cols, r.rows, r.scale = cols, rows, scale
	r.store = newCaptureStore(filepath.Join(r.tmp, "out"), 0)
	sessions := newSessions(SessionConfig{Cols: cols, Rows: rows, Scrollback: 1000, MaxSessions: 2}, r.store, nil)
	r.tb = newToolbox(ToolsConfig{Theme: r.set.Theme, Scale: scale, KeepPauses: true, Layout: r.set.layout()}, sessions, r.store)
	r.tools = map[string]*Tool{}
	for _, t := range r.tb.list() {
		r.tools[t.Name] = t
	}
	args, err := r.shellArgs()
	if err != nil {
		return err
	}
	var st startResult
	if _, err := r.call(ctx, "shell_start", args, &st); err != nil {
		return err
	}
	r.sid = st.ID
	return nil
}

// tapeShellArgs are the arguments each shell starts with, as VHS starts
// it: no start-up files, no history, the prompt "> ".
var tapeShellArgs = map[string][]string{
	"bash":  {"--noprofile", "--norc", "+o", "history"},
	"zsh":   {"--histnostore"},
	"fish":  {"--no-config", "--private", "-C", "function fish_greeting; end", "-C", `function fish_prompt; echo -n "> "; end`},
	"nu":    {"--execute", "$env.PROMPT_COMMAND = {'> '}; $env.PROMPT_COMMAND_RIGHT = {''}"},
	"osh":   {"--norc"},
	"pwsh":  {"-Login", "-NoLogo", "-NoExit", "-NoProfile", "-Command", "Function prompt { '> ' }"},
	"xonsh": {"--no-rc", "-D", "PROMPT=> "},
}

// shellArgs are shell_start's arguments for the tape's shell.
func (r *tapeRun) shellArgs() (map[string]any, error) {
	sh := r.set.Shell
	path, err := exec.LookPath(sh)
	if err != nil {
		return nil, &tapeError{r.prog.Path, r.shellCmd.Line, r.shellCmd.Col,
			fmt.Sprintf("Set Shell %s: %s is not installed (install it, or use bash, zsh or fish)", sh, sh)}
	}
	env := map[string]string{"PS1": "> ", "PROMPT": "> ", "HISTFILE": "/dev/null"}
	if sh == "zsh" {
		// No user start-up files (VHS runs zsh --no-rcs, which would
		// leave out the integration's marks too).
		zdot := filepath.Join(r.tmp, "zdotdir")
		if err := os.Mkdir(zdot, 0o700); err != nil {
			return nil, err
		}
		env["ZDOTDIR"] = zdot
	}
	for k, v := range r.env {
		env[k] = v
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	integ := sh == "bash" || sh == "zsh" || sh == "fish"
	return map[string]any{"command": path, "args": append([]string{}, tapeShellArgs[sh]...), "cols": r.cols, "rows": r.rows,
		"theme": r.set.Theme, "env": env, "cwd": cwd, "shell_integration": integ, "trace": r.opt.TraceDir != ""}, nil
}

// keepTrace writes the trace of the run's session, failed, into
// opt.TraceDir (traceName) and names it in the result. A run that did
// not start a session has none; a trace that cannot be written is a
// warning.
func (r *tapeRun) keepTrace() {
	if r.opt.TraceDir == "" || r.tb == nil {
		return
	}
	log := r.tb.TraceOf(r.tb.sessions.Get(r.sid))
	if log == nil {
		return
	}
	b, err := log.HTML()
	path := filepath.Join(r.opt.TraceDir, cmp.Or(r.opt.TraceName, traceName(r.prog.Path)))
	if err == nil {
		err = os.MkdirAll(r.opt.TraceDir, 0o755)
	}
	if err == nil {
		err = writeRegular(path, b)
	}
	if err != nil {
		r.warn(tapeWarning{Cmd: "trace", Msg: fmt.Sprintf("the failed run's trace was not written: %v", err)})
		return
	}
	r.res.TracePath = path
}

// traceName is the file a failed tape's trace is kept in: its path
// without ".tape", each folder separator a "-", then ".trace.html"
// (testdata/cli/help.tape: testdata-cli-help.trace.html). Two paths can
// give one name (x/y-z, x-y/z): a suite numbers them (traceNames).
func traceName(tape string) string {
	p := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(tape)), ".tape")
	p = strings.TrimLeft(strings.ReplaceAll(p, "../", ""), "./")
	return strings.NewReplacer("/", "-", ":", "-").Replace(p) + ".trace.html"
}

// traceNames gives each tape of a suite its own trace file name: the
// traceName, and for a name another tape (earlier in order) already has,
// the name with -2, -3... before ".trace.html".
func traceNames(tapes []string) []string {
	taken := map[string]bool{}
	names := make([]string, len(tapes))
	for i, t := range tapes {
		base := strings.TrimSuffix(traceName(t), ".trace.html")
		name := base + ".trace.html"
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s-%d.trace.html", base, n)
		}
		taken[name] = true
		names[i] = name
	}
	return names
}

// close stops the session and the rooms of the run.
func (r *tapeRun) close() {
	if r.tb != nil {
		r.tb.shutdown()
		r.store.close()
	}
}
