package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

type ntArgs struct {
	N    int  `json:"n"`
	Fail bool `json:"fail"`
}

type ntResult struct {
	N int `json:"n"`
}

type ntShown struct {
	N int `json:"n"`
}

func (r ntShown) blocks() (string, []Content) {
	return "shown", []Content{{Type: "text", Text: "extra"}}
}

// TestNewTool: newTool decodes the arguments, prefixes the tool name
// once to every error (its own argument errors included), returns the
// typed result as Structured, with the text and blocks of contentBlocks,
// and attaches the step its step form makes of the typed arguments and
// result (of a failed call, only its session and summary; none for
// arguments that did not decode).
func TestNewTool(t *testing.T) {
	t.Parallel()
	plain := newTool(Tool{Name: "test_nt", Input: objectSchema(map[string]any{"n": prop("integer", "a number"), "fail": prop("boolean", "")}, "n")},
		func(_ context.Context, _ *ToolCall, in ntArgs) (ntResult, error) {
			if in.Fail {
				return ntResult{}, errors.New("it failed: call again without fail")
			}
			return ntResult{N: in.N * 2}, nil
		}, func(in ntArgs, out ntResult) stepView {
			return stepView{SessionID: "s", Summary: fmt.Sprintf("%d→%d", in.N, out.N), Reply: out}
		})
	shown := newTool(Tool{Name: "test_shown"}, func(_ context.Context, _ *ToolCall, in struct{}) (ntShown, error) {
		return ntShown{N: 1}, nil
	}, func(struct{}, ntShown) stepView { return stepView{} })
	tests := []struct {
		tool       *Tool
		args       string
		isError    bool
		text       string // the result's Text (prefix, for errors)
		structured any
		extra      int
		step       string // the step's summary, "" for no step
	}{
		{plain, `{"n":2}`, false, "", ntResult{N: 4}, 0, "2→4"},
		{plain, `{"n":2,"fail":true}`, true, "test_nt: it failed: call again without fail", nil, 0, "2→0 · error"},
		{plain, `{"n":"two"}`, true, `test_nt: argument "n" must be an integer`, nil, 0, ""},
		{plain, `{}`, true, `test_nt: missing required argument "n" (a number)`, nil, 0, ""},
		{plain, `{"m":1}`, true, "test_nt: unknown argument \"m\": the arguments are fail, n", nil, 0, ""},
		{shown, `{}`, false, "shown", ntShown{N: 1}, 1, ""},
	}
	for _, tt := range tests {
		r := tt.tool.Handle(context.Background(), &ToolCall{Args: json.RawMessage(tt.args), tool: tt.tool})
		if r.IsError != tt.isError || !strings.HasPrefix(r.Text, tt.text) || r.Structured != tt.structured || len(r.Extra) != tt.extra {
			t.Errorf("%s %s: got %+v, want isError %v, text %q..., structured %v, %d extra blocks", tt.tool.Name, tt.args, r, tt.isError, tt.text, tt.structured, tt.extra)
		}
		switch {
		case tt.step == "" && r.step != nil && r.step.Summary != "":
			t.Errorf("%s %s: step %+v, want none", tt.tool.Name, tt.args, *r.step)
		case tt.step != "" && (r.step == nil || r.step.Summary != tt.step || r.step.SessionID != "s"):
			t.Errorf("%s %s: step %+v, want summary %q in session s", tt.tool.Name, tt.args, r.step, tt.step)
		case tt.step != "" && tt.isError && (r.step.Reply != nil || r.step.Error != r.Text):
			t.Errorf("%s %s: a failed call's step %+v keeps a reply, or not its error", tt.tool.Name, tt.args, *r.step)
		}
		if n := strings.Count(r.Text, tt.tool.Name+":"); tt.isError && n != 1 {
			t.Errorf("%s %s: the name is in %q %d times, want once", tt.tool.Name, tt.args, r.Text, n)
		}
	}
}

// TestArgPath: a type error in an embedded struct's field names the
// argument as the client wrote it, not the Go path to it.
func TestArgPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ field, args, want string }{
		{"WaitArgs.commandWaitArgs.wait_for_command", `{"wait_for_command":"true"}`, "wait_for_command"},
		{"border.title", `{"border":{"title":5}}`, "border.title"},
		{"session_id", `{"session_id":5}`, "session_id"},
	} {
		if got, _ := argPathValue(tc.field, json.RawMessage(tc.args)); got != tc.want {
			t.Errorf("argPathValue(%q) = %q, want %q", tc.field, got, tc.want)
		}
	}
}

// TestArgTypeErrorNamesMember: a wrong type inside an object or array
// argument names the entry or element to fix, not the whole argument
// (encoding/json's error stops at the map or slice).
func TestArgTypeErrorNamesMember(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"shell_start", map[string]any{"env": map[string]any{"A": 5}}, `argument "env.A" must be a string, not number`},
		{"shell_start", map[string]any{"env": map[string]any{"A": "x", "B": true}}, `argument "env.B" must be a string, not bool`},
		{"shell_start", map[string]any{"env": map[string]any{"A": map[string]any{"x": 1}}}, `argument "env.A" must be a string, not object`},
		{"shell_start", map[string]any{"args": []any{"-c", 3}}, `argument "args[1]" must be a string, not number`},
		{"shell_start", map[string]any{"env": 5}, `argument "env" must be an object, not number`},
		{"shell_send", map[string]any{"session_id": "x", "keys": []any{"Enter", []any{"a"}}}, `argument "keys[1]" must be a string, not array`},
	} {
		r, _ := call(t, a, tc.tool, tc.args)
		if !r.IsError || !strings.Contains(r.Text, tc.want) {
			t.Errorf("%s %v: %q (isError %v), want %q...", tc.tool, tc.args, r.Text, r.IsError, tc.want)
		}
	}
}

// TestNullArgumentRefused: a null for an optional argument, or inside an
// object or array argument, is refused with its name, not taken as "not
// given"; a null for a required argument is a missing one.
func TestNullArgumentRefused(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"shell_start", map[string]any{"command": "true", "cols": nil}, `argument "cols" is null`},
		{"shell_start", map[string]any{"command": "true", "env": map[string]any{"A": nil}}, `argument "env.A" is null`},
		{"shell_start", map[string]any{"command": "true", "args": []any{"-c", nil}}, `argument "args[1]" is null`},
		{"shell_send", map[string]any{"session_id": nil}, `missing required argument "session_id"`},
	} {
		r, _ := call(t, a, tc.tool, tc.args)
		if !r.IsError || !strings.Contains(r.Text, tc.want) {
			t.Errorf("%s %v: %q (isError %v), want %q...", tc.tool, tc.args, r.Text, r.IsError, tc.want)
		}
	}
	if n := len(a.sessions.List()); n != 0 {
		t.Errorf("%d sessions started by refused calls", n)
	}
}

// outputSchema is an output schema: an object of props.
func outputSchema(props map[string]any, required ...string) map[string]any {
	m := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		m["required"] = required
	}
	return m
}
