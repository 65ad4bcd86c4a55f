package main

import (
	"strings"
	"testing"
)

// TestResourceURIRoundTrip checks each constructor's canonical form and
// that parseResourceURI gives the same value back.
func TestResourceURIRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		u    resourceURI
		want string
	}{
		{sessionsListURI(), "sessions://list"},
		{themesListURI(), "themes://list"},
		{themeURI("one-dark"), "theme://one-dark"},
		{infoURI("s1"), "session://s1/info"},
		{bufferURI("s1"), "session://s1/buffer"},
		{screenshotsURI("s1"), "session://s1/screenshots"},
		{screenshotURI("s1", "first"), "session://s1/screenshots/first"},
		{recordingsURI("s1"), "session://s1/recordings"},
		{recordingURI("s1", "demo.cast"), "session://s1/recordings/demo.cast"},
		{screenshotsURI("s1").member("first"), "session://s1/screenshots/first"},
		{recordingsURI("s1").member("demo"), "session://s1/recordings/demo"},
	} {
		if got := tc.u.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.u, got, tc.want)
		}
		if got, err := parseResourceURI(tc.want); err != nil || got != tc.u {
			t.Errorf("parseResourceURI(%q) = %+v, %v, want %+v", tc.want, got, err, tc.u)
		}
	}
}

// TestParseResourceURIRefuses lists URIs of no known shape.
func TestParseResourceURIRefuses(t *testing.T) {
	t.Parallel()
	for _, uri := range []string{
		"", "sessions://", "sessions://other", "session://s1", "session://s1/nope", "session://s1/info/x",
		"session://s1/screenshots/a/b", "session://s1/screenshots/..", "session://s1/screenshots/%2F",
		"session://s1//buffer", "theme://", "file:///etc/passwd", "session:s1/buffer",
	} {
		if u, err := parseResourceURI(uri); err != errBadURI {
			t.Errorf("parseResourceURI(%q) = %+v, %v, want errBadURI", uri, u, err)
		}
	}
}

// TestURITemplates: each template parses back to its kind once its
// variables are filled in, and the templates are the ones resources
// list, in their order.
func TestURITemplates(t *testing.T) {
	t.Parallel()
	var got []string
	for _, tmpl := range resourceTemplates {
		got = append(got, tmpl.URITemplate)
		filled := strings.NewReplacer("{id}", "s1", "{name}", "x", "{n}", "3").Replace(tmpl.URITemplate)
		if u, err := parseResourceURI(filled); err != nil || u.kind != tmpl.kind {
			t.Errorf("%s filled in as %s parses to %+v, %v; want kind %d", tmpl.URITemplate, filled, u, err, tmpl.kind)
		}
	}
	want := []string{"session://{id}/info", "session://{id}/buffer", "session://{id}/screenshots", "session://{id}/screenshots/{name}",
		"session://{id}/recordings", "session://{id}/recordings/{name}", "session://{id}/commands", "session://{id}/commands/{n}", "session://{id}/trace", "session://{id}/tape", "theme://{name}"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("templates %v, want %v", got, want)
	}
}
