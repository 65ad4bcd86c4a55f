package main

// tool_app_keyboard.go: app_keyboard, the terminal app's hold of its
// session's keyboard (session_keyboard.go), with the keyboard rules of
// every viewer: take, the keys the person types while they hold it, and
// give back, whose reply is the one line the app puts in the model's
// context (appAccount).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

type appKeyboardArgs struct {
	SessionID string `json:"session_id"`
	Viewer    string `json:"viewer"`
	Action    string `json:"action"` // take, give or keys
	Keys      string `json:"keys"`   // with keys: what the person typed, as xterm sends it
}

type appKeyboardResult struct {
	Status any `json:"status"` // the keyboard as this app sees it, as app_screen's
	// Account, after a give of a keyboard the app held, is the line for
	// the model's context: how long, the commands and exit codes.
	Account string `json:"account,omitempty"`
}

func (r appKeyboardResult) blocks() (string, []Content) {
	if r.Account != "" {
		return r.Account, nil
	}
	return "done", nil
}

func (tb *Toolbox) toolAppKeyboard() *Tool {
	return newTool(Tool{
		Name:  "app_keyboard",
		Title: "The terminal app's keyboard",
		Description: "For the terminal app only: take the session's keyboard for the person, type the keys they pressed (as xterm sends them) while they hold it, " +
			"or give it back; a give returns the line for the model's context.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"viewer":     appViewerProp,
			"action":     map[string]any{"type": "string", "enum": []string{"take", "give", "keys"}, "description": "What to do."},
			"keys":       map[string]any{"type": "string", "minLength": 1, "maxLength": maxViewKeys, "description": "With keys: the bytes to type, as xterm sends them."},
		}, "session_id", "viewer", "action"),
		App: appOnly,
	}, tb.appKeyboard, appStep[appKeyboardArgs, appKeyboardResult])
}

// appKeyboard takes, types with or gives back the keyboard of the app's
// session.
func (tb *Toolbox) appKeyboard(ctx context.Context, _ *ToolCall, in appKeyboardArgs) (appKeyboardResult, error) {
	s, v, err := tb.appOf(in.SessionID, in.Viewer)
	if err != nil {
		return appKeyboardResult{}, err
	}
	if (in.Action == "keys") != (in.Keys != "") {
		return appKeyboardResult{}, errors.New("keys goes with action keys, and only with it")
	}
	var res appKeyboardResult
	switch in.Action {
	case "take":
		if err := s.TakeKeyboard(v.id); err != nil {
			return appKeyboardResult{}, fmt.Errorf("the keyboard could not be taken: %v", err)
		}
		tb.apps.took(v, newestCommand(s))
	case "give":
		if s.Keyboard().HolderID == v.id {
			took, n := tb.apps.since(v)
			res.Account = appAccount(s, took, n)
		}
		s.GiveKeyboard(v.id)
	case "keys":
		if len(in.Keys) > maxViewKeys {
			return appKeyboardResult{}, fmt.Errorf("keys are %d bytes, over the %d of a call: send a long paste in parts", len(in.Keys), maxViewKeys)
		}
		if err := s.PersonInput(ctx, v.id, []byte(in.Keys)); err != nil {
			return appKeyboardResult{}, fmt.Errorf("the keys were not typed: %v", err)
		}
	default:
		return appKeyboardResult{}, fmt.Errorf("action %q: use take, give or keys", in.Action)
	}
	res.Status = json.RawMessage(viewStatus(s, v.id, s.Status().Exited))
	return res, nil
}
