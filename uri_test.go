package main

import "testing"

// TestResourceURIRoundTrip checks each constructor's canonical form and
// that parseResourceURI gives the same value back.
func TestResourceURIRoundTrip(t *testing.T) {
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
