package main

// tool_app_screen.go: app_screen, the terminal app's long-poll for the
// screen (tools_app.go): one turn of a viewer (viewerStep), so it returns
// at once when the screen or the keyboard changed since the app's last
// poll, else at the first change, at most appPollWait later. The screen
// is the live view's frame (viewScreenFrame), drawn with the one encoding
// and painted by the one painter (html.go).

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

type appScreenArgs struct {
	SessionID string `json:"session_id"`
	Viewer    string `json:"viewer"`
	Since     string `json:"since"`
	HostTheme string `json:"host_theme"` // "light" or "dark": appTheme
}

type appScreenResult struct {
	Viewer string `json:"viewer"` // this app's token: pass it in each call
	Next   string `json:"next"`   // pass it as since in the next poll
	// Frame is the screen as the live view gets it ({"op":"screen",
	// ...}, docs/attach-protocol.md), when it changed since since.
	Frame any `json:"frame,omitempty"`
	// Status is the keyboard as this app sees it, as the live view's
	// status: {"keyboard","you","viewers"}, "exit_code" once the program
	// ended.
	Status any    `json:"status"`
	Title  string `json:"title"` // the session's command line
	// Foreground is what the program waits for while it runs; Prompt the
	// cursor's row while it waits for a secret (the app asks for it).
	Foreground *Foreground `json:"foreground,omitempty"`
	Prompt     string      `json:"prompt,omitempty"`
	Commands   int         `json:"commands"` // the newest finished command's number: app_commands has more when it grows
}

// blocks is a short line: the frame goes in structuredContent alone.
func (r appScreenResult) blocks() (string, []Content) {
	if r.Frame == nil {
		return "no change", nil
	}
	return "a new screen", nil
}

func (tb *Toolbox) toolAppScreen() *Tool {
	return newTool(Tool{
		Name:  "app_screen",
		Title: "The terminal app's screen",
		Description: "For the terminal app only: waits until the session's screen or keyboard changed since `since` (at most 25 s) and returns the screen frame, " +
			"the keyboard's status and what the program waits for. Without viewer it joins the session as a new viewer.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"viewer":     appViewerProp,
			"since":      prop("string", "next from the last poll; none: the current screen at once."),
			"host_theme": map[string]any{"type": "string", "enum": []string{"light", "dark"}, "description": "The client's look: the screen is painted in a theme of that kind."},
		}, "session_id"),
		ReadOnly: true,
		App:      appOnly,
	}, tb.appScreen, appStep[appScreenArgs, appScreenResult])
}

// appScreen waits for the next screen of the app's session.
func (tb *Toolbox) appScreen(ctx context.Context, _ *ToolCall, in appScreenArgs) (appScreenResult, error) {
	s, err := tb.session(in.SessionID)
	if err != nil {
		return appScreenResult{}, err
	}
	since, err := parseSince(in.Since)
	if err != nil {
		return appScreenResult{}, err
	}
	v, token, err := tb.apps.join(s, in.Viewer)
	if err != nil {
		return appScreenResult{}, err
	}
	th := appTheme(s, in.HostTheme)
	res := appScreenResult{Viewer: token}
	pctx, last, done := tb.apps.wait(ctx, v)
	var sent time.Time
	now, exited, err := viewerStep(pctx, s, since, in.Since == "" || token != in.Viewer, &last, viewerOutputs{
		screen: func(snap *Snapshot) error {
			res.Frame, sent = json.RawMessage(viewScreenFrame(snap, th)), last
			return nil
		},
	})
	done(sent)
	if err != nil { // no change in time, or a newer poll of this app: nothing new
		now = since
	}
	res.Next = fmt.Sprintf("%d.%d", now.Screen, now.Keyboard)
	res.Status = json.RawMessage(viewStatus(s, v.id, exited))
	res.Title = strings.Join(append([]string{s.Command}, s.Args...), " ")
	if !exited {
		fg := s.Foreground()
		res.Foreground = &fg
		if fg.Input == inputSecret {
			res.Prompt = promptText(s)
		}
	}
	res.Commands = newestCommand(s)
	return res, nil
}

// parseSince reads app_screen's since, "SCREEN.KEYBOARD" (the
// generations a poll returned as next); "" is the zero ViewGen.
func parseSince(since string) (ViewGen, error) {
	if since == "" {
		return ViewGen{}, nil
	}
	a, b, ok := strings.Cut(since, ".")
	scr, err1 := strconv.ParseUint(a, 10, 64)
	kb, err2 := strconv.ParseUint(b, 10, 64)
	if !ok || err1 != nil || err2 != nil {
		return ViewGen{}, fmt.Errorf("since %q is not a next of app_screen: pass the last poll's next, or none", clipRunes(since, 40))
	}
	return ViewGen{Screen: scr, Keyboard: kb}, nil
}

// appStep is the step form of the app's tools: the person's, not the
// agent's, so no step of the session (the person's keys show in a trace
// as a person's step, never their text).
func appStep[A, R any](A, R) stepView { return stepView{} }
