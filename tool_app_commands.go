package main

// tool_app_commands.go: app_commands, the terminal app's read of the
// commands a shell with integration ran (session_commands.go), for its
// command blocks: each as a wait result writes a command
// (commandResult), its output cut to the newest appCommandOutput bytes.

import "context"

// The bounds of app_commands.
const (
	appCommands      = 20      // the newest finished commands it returns
	appCommandOutput = 8 << 10 // bytes of each command's output, the newest
)

type appCommandsArgs struct {
	SessionID string `json:"session_id"`
	Viewer    string `json:"viewer"`
}

type appCommandsResult struct {
	Commands []*commandResult `json:"commands"`          // the newest finished, oldest first
	Running  *commandResult   `json:"running,omitempty"` // the command running now, its output so far
}

func (r appCommandsResult) blocks() (string, []Content) { return "the commands", nil }

func (tb *Toolbox) toolAppCommands() *Tool {
	return newTool(Tool{
		Name:        "app_commands",
		Title:       "The terminal app's commands",
		Description: "For the terminal app only: the newest 20 commands the shell finished (line, exit code, duration, who typed it, output) and the one running.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"viewer":     appViewerProp,
		}, "session_id", "viewer"),
		ReadOnly:   true,
		Idempotent: true,
		App:        appOnly,
	}, tb.appCommands, appStep[appCommandsArgs, appCommandsResult])
}

// appCommands returns the app's session's newest commands.
func (tb *Toolbox) appCommands(_ context.Context, _ *ToolCall, in appCommandsArgs) (appCommandsResult, error) {
	s, _, err := tb.appOf(in.SessionID, in.Viewer)
	if err != nil {
		return appCommandsResult{}, err
	}
	cmds := s.commandsCopy()
	cmds = cmds[max(0, len(cmds)-appCommands):]
	res := appCommandsResult{Commands: make([]*commandResult, 0, len(cmds)), Running: runningCommand(s, appCommandOutput)}
	for _, c := range cmds {
		res.Commands = append(res.Commands, c.result(s.ID, appCommandOutput))
	}
	return res, nil
}
