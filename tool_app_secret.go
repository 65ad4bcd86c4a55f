package main

// tool_app_secret.go: app_secret, the terminal app's password field:
// while the session's program reads a secret with echo off, what the
// person types there goes to the program as the secret page's does
// (writeSecret), checked by the page's rule (webCheckSecret). It is in no
// reply, log, trace, cast or tape: the call is no step, the call log
// leaves the app's tools out, and the reply says only which program got
// a secret (SECURITY.md).

import (
	"context"
	"errors"
	"fmt"
)

type appSecretArgs struct {
	SessionID string `json:"session_id"`
	Viewer    string `json:"viewer"`
	Secret    string `json:"secret"`
}

type appSecretResult struct {
	// Account is the line for the model's context: a secret was typed,
	// into which program; never the secret.
	Account string `json:"account"`
}

func (r appSecretResult) blocks() (string, []Content) { return r.Account, nil }

func (tb *Toolbox) toolAppSecret() *Tool {
	return newTool(Tool{
		Name:  "app_secret",
		Title: "The terminal app's secret",
		Description: "For the terminal app only: while the program reads a secret with echo off (input \"secret\"), type what the person entered in the app's password field, " +
			"and Enter, into it.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"viewer":     appViewerProp,
			"secret":     map[string]any{"type": "string", "minLength": 1, "maxLength": maxSecretLen, "description": "What the person typed; no control characters."},
		}, "session_id", "viewer", "secret"),
		App: appOnly,
	}, tb.appSecret, appStep[appSecretArgs, appSecretResult])
}

// appSecret types the person's secret into the program that reads one.
func (tb *Toolbox) appSecret(_ context.Context, _ *ToolCall, in appSecretArgs) (appSecretResult, error) {
	s, _, err := tb.appOf(in.SessionID, in.Viewer)
	if err != nil {
		return appSecretResult{}, err
	}
	fg := s.Foreground()
	if fg.Input != inputSecret {
		return appSecretResult{}, fmt.Errorf("%s: no program reads a secret now, so nothing was typed", fg.describe())
	}
	p := []byte(in.Secret)
	defer clear(p)
	if why := webCheckSecret(p); why != "" {
		return appSecretResult{}, errors.New(why)
	}
	if err := writeSecret(s, fg, p); err != nil {
		return appSecretResult{}, err
	}
	tb.logf("info", "secrets", "session %s: the person typed a secret into %s from the terminal app", s.ID, fg.Command)
	return appSecretResult{Account: fmt.Sprintf("The person typed a secret into %s (pid %d) in terminal session %s from the terminal app; you never see it.", fg.Command, fg.PID, s.ID)}, nil
}
