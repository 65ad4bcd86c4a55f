package main

// mcp_prompts.go: MCP prompts: short guides that teach an agent to
// drive terminal programs with this server's tools, by their real names
// and arguments. prompts/list and prompts/get.

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// promptArg is one argument of a prompt (MCP PromptArgument).
type promptArg struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`

	complete func(h *mcpHub) []string // completion/complete values; nil = none
	check    func(v string) error     // validates a given value; nil = any
}

// prompt is one MCP prompt: what prompts/list shows, and text, which
// writes the user message from the arguments (required ones are present).
type prompt struct {
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"` // 2025-06-18+
	Description string      `json:"description,omitempty"`
	Arguments   []promptArg `json:"arguments,omitempty"`

	text func(args map[string]string) string
}

// prompts lists the server's prompts in prompts/list order.
func (h *mcpHub) prompts() []*prompt {
	return []*prompt{
		{
			Name:        "terminal-basics",
			Title:       "Driving a terminal program",
			Description: "How to start a program, type into it, wait for it, read its screen, capture it and stop it with the shell_* tools.",
			text:        func(map[string]string) string { return terminalBasics },
		},
		{
			Name:        "vim-edit",
			Title:       "Edit a file with vim",
			Description: "Step-by-step: open a file in vim in a terminal session, change it, save and quit, checking the screen after each step.",
			Arguments: []promptArg{{Name: "filename", Required: true,
				Description: "The file to edit, as vim should open it (relative to the session's cwd, or absolute)."}},
			text: vimEdit,
		},
		{
			Name:        "record-session",
			Title:       "Record a terminal session as a GIF",
			Description: "Record a task in a terminal as an animated GIF (or asciicast) and fetch it through its resource.",
			Arguments: []promptArg{
				{Name: "task", Description: "What to show in the recording, e.g. \"run the test suite\"."},
				{Name: "theme", Description: "The colour theme for the recording; see themes://list.", complete: func(*mcpHub) []string { return themeNames() },
					check: func(v string) error { _, err := lookupTheme(v); return err }},
			},
			text: recordSession,
		},
		{
			Name:        "theme-selection",
			Title:       "Choose a colour theme",
			Description: "Which colour theme to pick for screenshots and recordings, and how to apply it.",
			Arguments: []promptArg{{Name: "background",
				Description: "The background the images will sit on: \"dark\" or \"light\" (a page, slide or README).",
				complete:    func(*mcpHub) []string { return []string{"dark", "light"} }}},
			text: themeSelection,
		},
		{
			Name:        "tui-navigate",
			Title:       "Navigate a full-screen program",
			Description: "How to see what a TUI highlights, find things on its screen by text and style, click them or use keys, and wait for the result.",
			text:        func(map[string]string) string { return tuiNavigate },
		},
		{
			Name:        "ask-for-password",
			Title:       "When a program asks for a password",
			Description: "What to do when a program in a terminal waits for a password, a passphrase or an answer only the person can give.",
			text:        func(map[string]string) string { return askForPassword },
		},
		{
			Name:        "write-regression-test",
			Title:       "Turn a session into a regression test",
			Description: "Make what was done in a terminal session a tape that ttywright test replays and checks, and save it with the project's tests.",
			Arguments: []promptArg{
				{Name: "session_id", Description: "The session to turn into a test (sessions://list).", complete: sessionIDs},
				{Name: "path", Description: "Where to save the tape, e.g. tests/tapes/help.tape (default testdata/tapes/NAME.tape)."},
			},
			text: writeRegressionTest,
		},
	}
}

// sessionIDs lists the ids of the sessions, for completion.
func sessionIDs(h *mcpHub) []string {
	var ids []string
	for _, s := range h.resSessions() {
		ids = append(ids, s.ID)
	}
	return ids
}

// lookupPrompt returns the prompt called name, or nil.
func (h *mcpHub) lookupPrompt(name string) *prompt {
	for _, p := range h.prompts() {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// promptsList is prompts/list: {prompts, nextCursor?}.
func (h *mcpHub) promptsList(ctx context.Context, params json.RawMessage) (any, error) {
	var p cursorParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	page, next, err := paginate(h.prompts(), p.Cursor, h.res.perPage())
	if err != nil {
		return nil, err
	}
	if !versionAtLeast(ctx, protoV20250618) { // title came then
		for _, p := range page { // h.prompts() builds them afresh
			p.Title = ""
		}
	}
	return struct {
		Prompts    []*prompt `json:"prompts"`
		NextCursor string    `json:"nextCursor,omitempty"`
	}{page, next}, nil
}

// promptMessage is one message of a prompts/get result.
type promptMessage struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// promptsGet is prompts/get {name, arguments} -> {description, messages}:
// one user message. An unknown prompt, a missing required argument or an
// unknown argument is -32602 naming the fix.
func (h *mcpHub) promptsGet(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
	}
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	pr := h.lookupPrompt(p.Name)
	if pr == nil {
		return nil, invalidParams("unknown prompt %q: prompts/list names them (%s)", p.Name, strings.Join(h.promptNames(), ", "))
	}
	args := map[string]string{}
	for k, v := range p.Arguments {
		if !slicesContainsArg(pr.Arguments, k) {
			return nil, invalidParams("prompt %s has no argument %q (it takes: %s)", pr.Name, k, argNames(pr.Arguments))
		}
		args[k] = strings.TrimSpace(v)
	}
	for _, arg := range pr.Arguments {
		if v := args[arg.Name]; v != "" && arg.check != nil {
			if err := arg.check(v); err != nil {
				return nil, invalidParams("prompt %s, argument %s: %v", pr.Name, arg.Name, err)
			}
		}
	}
	for _, arg := range pr.Arguments {
		if arg.Required && args[arg.Name] == "" {
			return nil, invalidParams("prompt %s needs the argument %q: %s", pr.Name, arg.Name, arg.Description)
		}
	}
	return map[string]any{
		"description": pr.Description,
		"messages":    []promptMessage{{Role: "user", Content: Content{Type: "text", Text: pr.text(args)}}},
	}, nil
}

func (h *mcpHub) promptNames() []string {
	var names []string
	for _, p := range h.prompts() {
		names = append(names, p.Name)
	}
	return names
}

func slicesContainsArg(args []promptArg, name string) bool {
	for _, a := range args {
		if a.Name == name {
			return true
		}
	}
	return false
}

func argNames(args []promptArg) string {
	if len(args) == 0 {
		return "no arguments"
	}
	var names []string
	for _, a := range args {
		names = append(names, a.Name)
	}
	return strings.Join(names, ", ")
}

// terminalBasics is the terminal-basics prompt.
const terminalBasics = `You can drive terminal programs through the ttywright tools. The loop is: start, send, wait, look, repeat.

1. Start: shell_start {command, args, cols, rows, theme, cwd, env}. Without a command it runs $SHELL (or bash). It returns shell_session_id; pass it as session_id to every other tool.
2. Run a command in a shell: shell_send {session_id, text: "ls -la\n", wait_for_command: true}. text arrives exactly as written, like a paste, with newlines as Enter; wait_for_command returns when the command has ended and the prompt is back, with its line, exit code, duration and output (the newest max_bytes, default 8192; the output, as far as the scrollback held it, stays at session://{id}/commands/{n}), whatever the prompt looks like. shell_wait {session_id, wait_for_command: true} waits for a command already running.
3. Keys: shell_send {session_id, keys: ["Enter", "Tab", "Escape", "Up", "Down", "PageDown", "F1", "C-c", "M-x"]}. Send C-c in a call of its own. type_delay_ms types one key at a time (for recordings).
4. In other programs wait for what the screen will show when they are done: wait_for (text or /regex/), then wait_for_gone, wait_idle_ms (no output for that long) or wait_stable_ms (the screen unchanged), all within timeout_ms (default 10000). A timeout says TIMED OUT and returns the screen; it is not an error. The echo of what you typed never satisfies a wait.
5. Look after every step: the reply shows the command's output and the new prompt, or the screen; shell_read {session_id} returns the scrollback and screen as text (scrollback: false for the screen only). Check for errors and prompts before the next step.
6. Capture: shell_screenshot {session_id, name} writes a PNG (plus SVG, ANSI and text) and returns its uri; inline: true also returns the image. shell_record_start and shell_record_stop make a GIF.
7. Resize with shell_resize {session_id, cols, rows}. Finish with shell_stop {session_id}: SIGHUP, then SIGKILL after 2 s; it returns exit_code.

Resources: sessions://list lists every session; session://{id}/buffer is the text, session://{id}/commands the finished commands, session://{id}/screenshots and session://{id}/recordings the captures, readable by their uri. Full-screen programs (vim, htop, less) redraw the whole screen: read it again rather than relying on scrolled text.`

// writeRegressionTest is the write-regression-test prompt.
func writeRegressionTest(args map[string]string) string {
	id := cmp.Or(args["session_id"], "{id}")
	path := cmp.Or(args["path"], "testdata/tapes/NAME.tape")
	return fmt.Sprintf(`Turn what was done in the ttywright session %[1]s into a regression test that ttywright test replays and checks.

1. Make every step wait for its outcome, never sleep: shell_send {session_id, text: "make\n", wait_for_command: true} for a shell command (the tape checks its exit code), wait_for for what the program shows once done (the tape checks it with Expect), wait_for_gone for a spinner or dialog that goes away, wait_for_input after a key in a full-screen program (Wait+Input: it has read the key and waits for the next). A wait that timed out becomes a pause, not a check: redo the step with a wait that holds.
2. Read session://%[1]s/tape (resources/read). It is the session so far as a tape, VHS's language with ttywright's assertions: Type "...", keys (Enter, Tab, Down 3, Ctrl+C), Wait+Command exit=N, Wait+Input, Expect "text" or Expect /regex/, Expect+Gone, Click "text" or Click row col, Screenshot NAME.png. Comments say what a tape cannot replay (a resize, a secret a person typed).
3. Edit it into a test: drop the exploratory steps, keep one check per outcome that matters. Where a whole screen is the outcome (a TUI, a report), add Snapshot NAME (Snapshot+Style NAME to check highlights and colours too); add Mask /regex/ before it for what changes from run to run (clocks, pids, temporary paths).
4. Save it as %[2]s, with the project's tests, and run ttywright test %[2]s --update once to write the golden files beside it; read them, then run ttywright test %[2]s: it must pass. Change what the program prints and run it again: it must fail with the expected and the actual screen. Commit the tape and its goldens.
5. In CI: ttywright test DIR -j 4 --junit report.xml (exit 1 on a failure; each failure names its trace).`, id, path)
}

// askForPassword is the ask-for-password prompt.
const askForPassword = `A program in a ttywright terminal may stop to ask for something only the person can give. Never type a password, passphrase or token yourself, and never ask the person to tell it to you in the conversation.

1. Know what the program waits for: every reply with a screen has foreground {pid, command, input}. input "secret" means it reads with echo off (sudo, ssh, ssh-keygen, passwd, gpg, read -s); "line" a question with echo on ([y/N], read -p); "keys" a full-screen program; "command" the shell's prompt; "none" it is busy.
2. After a command that may prompt, wait with shell_send {session_id, text: "sudo make install\n", wait_for_command: true}: it returns early with waiting_for: "secret" (or "line") when the command stops at a prompt. shell_wait {session_id, wait_for_input: true} returns once the program reads its terminal again and says the input kind.
3. At a secret: call shell_ask_secret {session_id, message: "why the password is needed"}. The person types it into a one-time page on this machine, straight into the program. If the client shows the page itself, the call returns once the program has read it, with what followed. If the reply says SHOW THE PERSON THIS LINK, show the link and the sentence, then shell_wait {session_id, wait_for_input: true, timeout_ms: 120000} until the program has read it.
4. At a line question, answer it only when the answer is yours to give (a confirmation the person asked for): shell_send {session_id, text: "y\n", wait_for_command: true}. Otherwise ask the person.
5. If the person declines, or the page expires, the program still waits: send keys ["C-c"] to give up the command, and say so.`

// tuiNavigate is the tui-navigate prompt.
const tuiNavigate = `Drive a full-screen program (mc, htop, vim, dialog, a menu or form) with the ttywright tools like a browser page: look, locate, act, check.

1. Look with styles: shell_read {session_id, format: "styled"} shows the screen with the styles that carry meaning: {rev}Save{/} is reverse video (most TUIs mark the selected item that way), {bold red}Error{/} a colour, {|} the cursor. A first line such as {base white on-blue} names the background most of the screen has (plain text has it), and {1=black on-cyan} numbers a style used often ({1}text). structuredContent.runs has every styled run with row, col and style.
2. Locate: shell_find {session_id, text: "Save"} returns matches with 0-based row, col and style; text may be /regex/i. Add style: {selected: true} to find only the highlighted item, whatever its colours (or fg, bg, bold, reverse as the styled read showed); style alone finds it with no text. With timeout_ms it waits until the match exists, e.g. shell_find {session_id, text: "Saved", timeout_ms: 5000}; gone: true waits until it has disappeared.
3. Act with the mouse when the program takes it: shell_click {session_id, text: "OK"} clicks the first cell of the match (nth: 1 for the second); shell_click {session_id, row: 5, col: 10, button: "right"}; count: 2 double-clicks; button: "wheel_down" with count scrolls. It returns the screen after and takes wait_for, wait_idle_ms and timeout_ms like shell_send. If it says the program has not enabled mouse reporting, use keys.
4. Act with keys otherwise (they always work): shell_send {session_id, keys: ["Down", "Down", "Enter"]}; Tab moves between fields, Escape closes a menu, F10 or q quits many programs.
5. Check after every action: shell_find {session_id, text: "Banana", style: {selected: true}} tells whether the highlight is where you meant it to be; shell_read {session_id, format: "styled"} shows the whole screen; shell_screenshot {session_id, inline: true} shows the pixels.`

// vimEdit is the vim-edit prompt.
func vimEdit(args map[string]string) string {
	f := args["filename"]
	return fmt.Sprintf(`Edit the file %[1]s with vim in a terminal, using the ttywright tools. Check the screen after every step.

1. shell_start {command: "vim", args: [%[2]s]} and keep the shell_session_id it returns as session_id.
2. shell_wait {session_id, wait_for: %[3]s} until vim has drawn the file (its name shows on the bottom line; a new file says [New]). Then shell_read {session_id, scrollback: false} to see the text and where the cursor is.
3. vim starts in Normal mode. Move with keys: ["Up", "Down", "Left", "Right", "Home", "End", "PageDown"], or Normal-mode commands sent as input, never as text (text is pasted, and vim inserts a paste even in Normal mode): shell_send {session_id, input: "gg"} (first line), input: "G" (last line), "42G" (line 42), "/pattern\r" (search).
4. Change text: shell_send {session_id, keys: ["i"]} enters Insert mode ("-- INSERT --" on the bottom line); shell_send {session_id, text: "the new lines\n"} types the text; then keys: ["Escape"] returns to Normal mode. Normal-mode commands go as input too: "o" opens a new line below, "dd" deletes a line, "x" a character, "u" undoes.
5. After each change, shell_read {session_id, scrollback: false} (or shell_screenshot {session_id, inline: true}) and compare with what you intended before going on.
6. Save and quit: shell_send {session_id, keys: ["Escape"]} to be sure you are in Normal mode, then shell_send {session_id, keys: [":", "w", "q", "Enter"], wait_idle_ms: 300}. The result says exited: true with exit_code 0 when vim has quit. To throw the changes away instead, send the keys of ":q!" and Enter.
7. If vim shows an error such as E37 (No write since last change) or E212 (Can't open file for writing), read it with shell_read and fix the cause; shell_stop {session_id} ends a session that is stuck.`, f, jsonString(f), jsonString(vimBase(f)))
}

// vimBase is the part of a path vim is sure to show on its message line.
func vimBase(f string) string {
	if i := strings.LastIndexAny(f, `/\`); i >= 0 && i+1 < len(f) {
		return f[i+1:]
	}
	return f
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// recordSession is the record-session prompt.
func recordSession(args map[string]string) string {
	task := args["task"]
	if task == "" {
		task = "the task you are asked to show"
	}
	theme := ""
	if t := args["theme"]; t != "" {
		theme = ", theme: " + jsonString(t)
	}
	return fmt.Sprintf(`Record this in a terminal as an animated GIF: %s

1. shell_start {cols: 100, rows: 30%s} (add command and args to start a program other than the shell). Keep shell_session_id as session_id. A smaller screen makes a smaller, more legible GIF.
2. Get the stage ready before recording: shell_send {session_id, text: "clear\n", wait_idle_ms: 200}.
3. shell_record_start {session_id, name: "demo", fps: 10} (fps at most 30; border: {style: "macos", title: "..."} adds a window frame). Frames are taken when the screen changes, so idle time costs nothing (pauses are capped at 2 s).
4. Do the task with shell_send {session_id, text, type_delay_ms: 50, wait_for_command: true}: type_delay_ms makes the typing look natural, and wait_for_command waits in a shell (elsewhere wait_for with text the program prints when it is done, or wait_idle_ms) instead of sleeping. Check the reply after each step.
5. Leave the final screen up for a moment (shell_wait {session_id, wait_idle_ms: 1000}), then shell_record_stop {session_id, format: "gif"} ("cast" writes an asciicast v2 file instead, "both" writes both). It returns uri, gif_path, frame_count, duration_ms and bytes.
6. The recording is the resource at uri (session://{id}/recordings/{name}); session://{id}/recordings lists them all. shell_stop {session_id} when done.

Recordings are limited to 10 minutes and 20,000 frames.`, task, theme)
}

// themeSelection is the theme-selection prompt; it lists the themes this
// server has, so it stays true when themes are added.
func themeSelection(args map[string]string) string {
	var b strings.Builder
	bg := args["background"]
	fmt.Fprintf(&b, "Choose a colour theme for terminal screenshots and recordings made with ttywright.\n\nThe themes (themes://list has them, theme://{name} gives the exact colours):\n")
	for i, t := range themeList {
		def := ""
		if i == 0 && !strings.Contains(t.Tip, "default") {
			def = ", the default"
		}
		fmt.Fprintf(&b, "- %s (%s%s)", t.Name, t.Type, def)
		if t.Description != "" {
			fmt.Fprintf(&b, ": %s", strings.TrimSuffix(t.Description, "."))
		}
		if t.Tip != "" {
			fmt.Fprintf(&b, ". %s", strings.TrimSuffix(t.Tip, "."))
		}
		b.WriteString(".\n")
	}
	b.WriteString("\nHow to choose:\n")
	switch bg {
	case "light":
		b.WriteString("- The images will sit on a light background: prefer a light theme so the terminal does not look like a hole in the page, unless the program's own colours were designed for dark terminals.\n")
	case "dark":
		b.WriteString("- The images will sit on a dark background: prefer a dark theme; a light one would glare.\n")
	default:
		b.WriteString("- Match the page the images go on: a light theme for light pages and printed documents, a dark theme for dark pages and slides.\n")
	}
	b.WriteString(`- Programs with many colours (htop, syntax highlighting, test runners) stay most legible on a dark theme with strong ANSI colours.
- Keep one theme across a set of screenshots so they look like one document.

Apply it: the theme is chosen when a session starts, shell_start {theme: "<name>"}; every screenshot and recording of that session uses it. To compare two themes, start a second session with the same command and the other theme, and shell_screenshot {session_id, inline: true} both.`)
	return b.String()
}
