package main

// tool_start.go: shell_start, which starts a program in a new session
// and returns once it is ready for input, with its first screen.

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

type startArgs struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Cols    *int              `json:"cols"` // nil: the server's default; 0 is refused
	Rows    *int              `json:"rows"`
	Theme   string            `json:"theme"`
	Cwd     string            `json:"cwd"`
	Env     map[string]string `json:"env"`

	ShellIntegration *bool `json:"shell_integration"` // nil: as --shell-integration says (default on)
	View             bool  `json:"view"`              // offer the live view: view_url
	Trace            bool  `json:"trace"`             // keep an HTML trace (tools_steps.go); --trace sets it for all

	Name string `json:"name"` // a name that session_id takes too, unique among the sessions (checkSessionName)
}

// derefInt is *p, or 0 for nil.
func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

type startResult struct {
	ID      string   `json:"shell_session_id"`
	Name    string   `json:"name,omitempty"`
	Pid     int      `json:"pid"`
	Cols    int      `json:"cols"`
	Rows    int      `json:"rows"`
	Theme   string   `json:"theme"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Cwd     string   `json:"cwd"`

	ShellIntegration shellIntegration `json:"shell_integration"`
	Screen           string           `json:"screen"`             // the first screen, once the program is ready
	Ready            bool             `json:"ready"`              // false: shell_start stopped waiting, or the program exited (Session.waitReady)
	ViewURL          string           `json:"view_url,omitempty"` // the live view, with view (attach_web.go)
	Note             string           `json:"note,omitempty"`
	exitInfo                          // foreground while it runs
}

func (tb *Toolbox) toolShellStart() *Tool {
	return newTool(Tool{
		Name:  "shell_start",
		Title: "Start a program in a terminal",
		Description: "Start command with args (default: the user's shell) in cwd, with env added, in a new cols x rows terminal (120x40); " +
			"returns when ready (a shell: at its prompt) its screen and shell_session_id, the other tools' session_id. " +
			"Readable until shell_stop.",
		Input: objectSchema(map[string]any{
			"command":           map[string]any{"type": "string"},
			"args":              map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"cols":              map[string]any{"type": "integer"},
			"rows":              map[string]any{"type": "integer"},
			"theme":             prop("string", "Picture colours (themes://list; default "+cmp.Or(tb.cfg.Theme, themeList[0].Name)+")."),
			"cwd":               map[string]any{"type": "string"},
			"env":               map[string]any{"type": "object"},
			"shell_integration": prop("boolean", "Prompt marks for wait_for_command (default true; bash's --rcfile wraps your rc)."),
			"view":              prop("boolean", "Return view_url, a live view for a person."),
			"trace":             prop("boolean", "Keep an HTML trace."),
			"name":              prop("string", "A name session_id takes too."),
		}),
		OpenWorld: true,
		App:       appShows,
	}, tb.shellStart, startStep)
}

// shellStart starts the session and waits for the program's first screen.
func (tb *Toolbox) shellStart(ctx context.Context, call *ToolCall, in startArgs) (startResult, error) {
	cols, rows := derefInt(in.Cols), derefInt(in.Rows)
	if (in.Cols != nil && cols == 0) || (in.Rows != nil && rows == 0) {
		// Sessions.Start reads 0 as "the default"; an explicit 0 is a mistake.
		c, r := cols, rows
		if in.Cols == nil {
			c = tb.sessions.cfg.Cols
		}
		if in.Rows == nil {
			r = tb.sessions.cfg.Rows
		}
		return startResult{}, checkSize(c, r)
	}
	if in.View && (tb.views == nil || tb.views.door == nil) {
		return startResult{}, errViewOff
	}
	s, err := tb.startSession(StartOptions{Command: in.Command, Args: in.Args, Cols: cols, Rows: rows, Theme: in.Theme,
		Cwd: clientCwd(in.Cwd, call.Cwd), Env: in.Env, ShellIntegration: in.ShellIntegration, Name: in.Name, Client: call.Client})
	if err != nil {
		return startResult{}, err
	}
	tb.openTrace(s, in.Trace || tb.cfg.Trace)
	// Typing before a shell has printed its prompt works, but the echo
	// lands before the prompt: wait until the program is ready.
	ready, note := s.waitReady(ctx)
	st := s.Status()
	if !ready && note == "" {
		note = fmt.Sprintf("the program exited during start-up: its exit_code is in %s, its last screen in screen", infoURI(s.ID))
	}
	args := s.Args
	if args == nil {
		args = []string{}
	}
	var view string
	if in.View {
		// The session runs already: a view that cannot open is a note,
		// not an error that would hide the session from the agent.
		if view, err = tb.views.Offer(s); err != nil {
			note = strings.TrimPrefix(note+"; ", "; ") + "no live view: " + err.Error()
		}
	}
	return startResult{ID: s.ID, Name: s.Name, Pid: st.Pid, Cols: st.Cols, Rows: st.Rows, Theme: s.Theme, Command: s.Command, Args: args, Cwd: s.Cwd,
		ShellIntegration: s.ShellInfo().Integration, Screen: s.Text(false), Ready: ready, ViewURL: view, Note: note, exitInfo: stateOf(s)}, nil
}

// clientCwd is the cwd argument as the client meant it: its own working
// directory (client, "" when it is the server's) when cwd is empty, cwd
// under it when cwd is relative; "~" is left for sessionCwd to expand.
func clientCwd(cwd, client string) string {
	switch {
	case client == "" || filepath.IsAbs(cwd) || cwd == "~" || strings.HasPrefix(cwd, "~/"):
		return cwd
	case cwd == "":
		return client
	}
	return filepath.Join(client, cwd)
}

// startSession starts a session (Sessions.Start) in the theme opts names,
// the configured one when it names none; its colours are what the
// program hears for OSC 4/10/11/12.
func (tb *Toolbox) startSession(opts StartOptions) (*Session, error) {
	th, err := sessionTheme(opts.Theme, tb.cfg.Theme)
	if err != nil {
		return nil, err
	}
	opts.Theme, opts.Colors = th.Name, th.reportColors()
	return tb.sessions.Start(opts)
}

// sessionTheme is the theme called name, def for "", else the first of
// themeList; an unknown name is an error listing the known ones.
func sessionTheme(name, def string) (*Theme, error) {
	name = cmp.Or(name, def, themeList[0].Name)
	th, err := lookupTheme(name)
	if err != nil {
		return nil, fmt.Errorf("%v (see themes://list)", err)
	}
	return th, nil
}

// startReply is what a trace shows of shell_start's reply.
type startReply struct {
	ID    string `json:"shell_session_id"`
	Cols  int    `json:"cols"`
	Rows  int    `json:"rows"`
	Ready bool   `json:"ready"`
	Note  string `json:"note,omitempty"`
}

// startStep is shell_start's step form. Its tape commands set the
// environment and the directory, and for a program that is no shell type
// the line that starts it into the tape's shell, then Expect the fullest
// line of its first screen, so that the keys after it reach the program
// and not the shell. The first screen itself is not kept: the trace
// stores the screen after each step its own way.
func startStep(in startArgs, out startResult) stepView {
	v := stepView{SessionID: out.ID, Summary: clipRunes(in.Command, 40),
		Reply: startReply{ID: out.ID, Cols: out.Cols, Rows: out.Rows, Ready: out.Ready, Note: out.Note}}
	for _, k := range slices.Sorted(maps.Keys(in.Env)) {
		switch val := in.Env[k]; {
		case secretName(k):
			v.Tape = append(v.Tape, tapeComment("Env %s: its value was not recorded (a secret-like name): set it here", k))
		case !envName.MatchString(k) || strings.ContainsAny(val, "\r\n") || len(tapeSplit(val)) > 1:
			v.Tape = append(v.Tape, tapeComment("Env %s: its value does not fit on a tape line: set it here", strconv.Quote(k)))
		default:
			v.Tape = append(v.Tape, tapeCmd{Name: "Env", Setting: k, Text: val, Count: 1})
		}
	}
	if in.Cwd != "" {
		v.Tape = append(v.Tape, tapeCmd{Name: "Hide", Count: 1})
		v.Tape = append(v.Tape, typeTape("cd "+shellQuote(in.Cwd)+" && clear\n", 0)...) // the replay starts on a clean screen, as the session did
		code := 0
		v.Tape = append(v.Tape, tapeCmd{Name: "Wait", Variant: "Command", Exit: &code, Count: 1}, tapeCmd{Name: "Show", Count: 1})
	}
	if traceShell(out.Command, out.ShellIntegration) != "" {
		return v
	}
	words := []string{shellQuote(out.Command)}
	for _, w := range out.Args {
		words = append(words, shellQuote(w))
	}
	v.Tape = append(v.Tape, typeTape(strings.Join(words, " ")+"\n", 0)...)
	if l := fullestLine(out.Screen); l != "" && out.Ready {
		v.Tape = append(v.Tape, expectText("", 0, l))
	}
	return v
}

// envName is a variable name an Env line can set.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// fullestLine is the line of screen with the most characters other than
// spaces, trimmed and cut to 60 characters ("" for a blank screen).
func fullestLine(screen string) string {
	best, most := "", 0
	for l := range strings.SplitSeq(screen, "\n") {
		n := utf8.RuneCountInString(strings.ReplaceAll(l, " ", ""))
		if n > most {
			best, most = strings.TrimSpace(l), n
		}
	}
	if r := []rune(best); len(r) > 60 {
		best = strings.TrimSpace(string(r[:60]))
	}
	return best
}
