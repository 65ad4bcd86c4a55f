package main

import (
	"slices"
	"testing"
)

// TestChildEnv: a program gets the server's environment without another
// terminal's variables and the server's own settings, the call's env over
// it.
func TestChildEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		base       []string
		extra      map[string]string
		want, gone []string
	}{
		{"kept", []string{"HOME=/h", "API_KEY=k"}, nil, []string{"HOME=/h", "API_KEY=k", "TERM=xterm-256color", "PWD=/w"}, nil},
		{"another terminal", []string{"TMUX=/t,1,0", "TERM=screen", "KITTY_PID=4"}, nil, []string{"TERM=xterm-256color"}, []string{"TMUX=/t,1,0", "TERM=screen", "KITTY_PID=4"}},
		{"the server's settings", []string{"TTYWRIGHT_HTTP_TOKEN_FILE=/s/tok", "TTYWRIGHT_HTTP=:1"}, nil, nil, []string{"TTYWRIGHT_HTTP_TOKEN_FILE=/s/tok", "TTYWRIGHT_HTTP=:1"}},
		{"the call's env wins", []string{"LANG=C", "TTYWRIGHT_X=server"}, map[string]string{"LANG": "fr", "TTYWRIGHT_X": "call"}, []string{"LANG=fr", "TTYWRIGHT_X=call"}, []string{"LANG=C", "TTYWRIGHT_X=server"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, err := childEnv(tc.base, "/w", tc.extra)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !slices.Contains(env, w) {
					t.Errorf("%s missing from %q", w, env)
				}
			}
			for _, g := range tc.gone {
				if slices.Contains(env, g) {
					t.Errorf("%s kept in %q", g, env)
				}
			}
		})
	}
}
