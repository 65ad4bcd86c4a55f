package main

import (
	"fmt"
	"slices"
	"testing"
)

type completion struct {
	Completion struct {
		Values  []string
		Total   int
		HasMore bool
	}
}

func TestCompletion(t *testing.T) {
	f := newResFixture(t)
	s2 := f.addSession(t, "s2", f.sess.Started.Add(1))
	f.addScreenshot(t, s2, "final", 8, 16)
	f.addSession(t, "t3", f.sess.Started.Add(2))
	res := func(uri, arg, value string, ctx map[string]string) map[string]any {
		p := map[string]any{"ref": map[string]string{"type": "ref/resource", "uri": uri}, "argument": map[string]string{"name": arg, "value": value}}
		if ctx != nil {
			p["context"] = map[string]any{"arguments": ctx}
		}
		return p
	}
	prompt := func(name, arg, value string) map[string]any {
		return map[string]any{"ref": map[string]string{"type": "ref/prompt", "name": name}, "argument": map[string]string{"name": arg, "value": value}}
	}
	for _, tc := range []struct {
		name   string
		params map[string]any
		want   []string
	}{
		{"ids", res("session://{id}/info", "id", "", nil), []string{"s1", "s2", "t3"}},
		{"ids by prefix", res("session://{id}/buffer", "id", "s", nil), []string{"s1", "s2"}},
		{"no id matches", res("session://{id}/buffer", "id", "z", nil), []string{}},
		{"screenshots of s1", res("session://{id}/screenshots/{name}", "name", "", map[string]string{"id": "s1"}), []string{"first", "second"}},
		{"screenshots by prefix", res("session://{id}/screenshots/{name}", "name", "s", map[string]string{"id": "s1"}), []string{"second"}},
		{"screenshots of s2", res("session://{id}/screenshots/{name}", "name", "", map[string]string{"id": "s2"}), []string{"final"}},
		{"screenshots of all", res("session://{id}/screenshots/{name}", "name", "", nil), []string{"first", "second", "final"}},
		{"screenshots of unknown", res("session://{id}/screenshots/{name}", "name", "", map[string]string{"id": "zz"}), []string{}},
		{"recordings", res("session://{id}/recordings/{name}", "name", "d", map[string]string{"id": "s1"}), []string{"demo"}},
		{"themes", res("theme://{name}", "name", "", nil), themeNames()},
		{"theme prefix", res("theme://{name}", "name", themeList[0].Name[:5], nil), []string{themeList[0].Name}},
		{"unknown argument", res("theme://{name}", "id", "", nil), []string{}},
		{"prompt theme", prompt("record-session", "theme", themeList[0].Name), []string{themeList[0].Name}},
		{"prompt background", prompt("theme-selection", "background", "l"), []string{"light"}},
		{"prompt no completions", prompt("vim-edit", "filename", "a"), []string{}},
	} {
		var r completion
		f.mustCall(t, "completion/complete", tc.params, &r)
		if !slices.Equal(r.Completion.Values, tc.want) || r.Completion.Total != len(tc.want) || r.Completion.HasMore {
			t.Errorf("%s: %+v, want %q", tc.name, r.Completion, tc.want)
		}
	}
	for _, bad := range []map[string]any{
		res("session://{id}/nope", "id", "", nil),
		prompt("nope", "x", ""),
		{"ref": map[string]string{"type": "ref/tool"}},
		{"ref": "session://{id}/info"},
	} {
		if _, err := f.call(t, "completion/complete", bad); rpcCode(err) != codeInvalidParams {
			t.Errorf("%v: %v, want -32602", bad, err)
		}
	}
}

func TestCompletionLimit(t *testing.T) {
	f := newResFixture(t)
	for i := range 150 {
		name := fmt.Sprintf("many-%03d", i)
		f.sess.AddScreenshot(Capture{Name: name, URI: "session://s1/screenshots/" + name, MimeType: "image/png"})
	}
	var r completion
	f.mustCall(t, "completion/complete", map[string]any{
		"ref": map[string]string{"type": "ref/resource", "uri": "session://{id}/screenshots/{name}"}, "argument": map[string]string{"name": "name", "value": "many-"},
		"context": map[string]any{"arguments": map[string]string{"id": "s1"}},
	}, &r)
	if len(r.Completion.Values) != 100 || r.Completion.Total != 150 || !r.Completion.HasMore || r.Completion.Values[0] != "many-000" {
		t.Errorf("150 matches: %d values (first %q), total %d, hasMore %v; want 100, many-000, 150, true",
			len(r.Completion.Values), r.Completion.Values[0], r.Completion.Total, r.Completion.HasMore)
	}
}
