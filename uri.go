package main

// uri.go: the resource URIs as a type. Every URI the server hands out or
// matches a subscription against is built by one constructor per shape and
// printed by resourceURI.String; every URI a client sends is read by
// parseResourceURI. No code concatenates a URI, so a typo cannot make a
// notification miss its subscribers.

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
)

// maxURILen is the longest URI parseResourceURI looks at; longer ones are
// not found.
const maxURILen = 2048

// uriKind is what a resource URI names.
type uriKind uint8

// Resource kinds, one per URI shape.
const (
	uriSessions    uriKind = iota + 1 // sessions://list
	uriThemes                         // themes://list
	uriTheme                          // theme://{name}
	uriInfo                           // session://{id}/info
	uriBuffer                         // session://{id}/buffer
	uriScreenshots                    // session://{id}/screenshots
	uriScreenshot                     // session://{id}/screenshots/{name}
	uriRecordings                     // session://{id}/recordings
	uriRecording                      // session://{id}/recordings/{name}
	uriCommands                       // session://{id}/commands
	uriCommand                        // session://{id}/commands/{n}
	uriTrace                          // session://{id}/trace
	uriTape                           // session://{id}/tape
	uriApp                            // ui://ttywright/terminal, the terminal app (MCP Apps)
)

// resourceURI is a resource URI: its kind, the session id (session://
// kinds) and the theme or capture name. From parseResourceURI both are
// decoded and pass cleanName. Values compare equal exactly when their
// canonical forms do, so it keys the subscriptions.
type resourceURI struct {
	kind    uriKind
	session string
	name    string
}

// The constructors, one per URI shape.
func sessionsListURI() resourceURI         { return resourceURI{kind: uriSessions} }
func themesListURI() resourceURI           { return resourceURI{kind: uriThemes} }
func themeURI(name string) resourceURI     { return resourceURI{kind: uriTheme, name: name} }
func infoURI(id string) resourceURI        { return resourceURI{kind: uriInfo, session: id} }
func bufferURI(id string) resourceURI      { return resourceURI{kind: uriBuffer, session: id} }
func screenshotsURI(id string) resourceURI { return resourceURI{kind: uriScreenshots, session: id} }
func recordingsURI(id string) resourceURI  { return resourceURI{kind: uriRecordings, session: id} }
func screenshotURI(id, name string) resourceURI {
	return resourceURI{kind: uriScreenshot, session: id, name: name}
}
func commandsURI(id string) resourceURI { return resourceURI{kind: uriCommands, session: id} }
func appURI() resourceURI               { return resourceURI{kind: uriApp} }
func traceURI(id string) resourceURI    { return resourceURI{kind: uriTrace, session: id} }
func tapeURI(id string) resourceURI     { return resourceURI{kind: uriTape, session: id} }
func commandURI(id string, n int) resourceURI {
	return resourceURI{kind: uriCommand, session: id, name: strconv.Itoa(n)}
}
func recordingURI(id, name string) resourceURI {
	return resourceURI{kind: uriRecording, session: id, name: name}
}

// member returns the URI of the capture name in the list u
// (session://{id}/screenshots or .../recordings); any other u is returned
// as it is.
func (u resourceURI) member(name string) resourceURI {
	switch u.kind {
	case uriScreenshots:
		return screenshotURI(u.session, name)
	case uriRecordings:
		return recordingURI(u.session, name)
	}
	return u
}

// String returns the canonical form of u (names need no escaping: cleanName
// admits only unreserved characters); "" for the zero value.
func (u resourceURI) String() string {
	switch u.kind {
	case uriSessions:
		return "sessions://list"
	case uriThemes:
		return "themes://list"
	case uriTheme:
		return "theme://" + u.name
	case uriInfo:
		return "session://" + u.session + "/info"
	case uriBuffer:
		return "session://" + u.session + "/buffer"
	case uriScreenshots:
		return "session://" + u.session + "/screenshots"
	case uriScreenshot:
		return "session://" + u.session + "/screenshots/" + u.name
	case uriRecordings:
		return "session://" + u.session + "/recordings"
	case uriRecording:
		return "session://" + u.session + "/recordings/" + u.name
	case uriCommands:
		return "session://" + u.session + "/commands"
	case uriCommand:
		return "session://" + u.session + "/commands/" + u.name
	case uriTrace:
		return "session://" + u.session + "/trace"
	case uriTape:
		return "session://" + u.session + "/tape"
	case uriApp:
		return "ui://ttywright/terminal"
	}
	return ""
}

// template is the URI template (RFC 6570, level 1) of kind k: its
// String with {id} for the session and {name} (or {n}, a command's
// number) for the name.
func (k uriKind) template() string {
	name := "{name}"
	if k == uriCommand {
		name = "{n}"
	}
	return resourceURI{kind: k, session: "{id}", name: name}.String()
}

// errBadURI is returned by parseResourceURI for every URI it refuses; the
// caller turns it into -32002 Resource not found.
var errBadURI = errors.New("resources: not a ttywright resource URI")

// parseResourceURI parses one of the URI shapes above; the scheme is case
// insensitive. After the scheme, the text is split at '/' and each segment
// is percent-decoded exactly once and must pass cleanName: so "..",
// separators (also as %2F), NUL, '?', '#' and empty segments are all
// refused, and a URI has exactly the segments its shape has. Any refusal is
// errBadURI.
func parseResourceURI(raw string) (resourceURI, error) {
	if len(raw) > maxURILen {
		return resourceURI{}, errBadURI
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return resourceURI{}, errBadURI
	}
	raws := strings.Split(rest, "/")
	if len(raws) > 3 {
		return resourceURI{}, errBadURI
	}
	seg := make([]string, len(raws))
	for i, s := range raws {
		d, err := url.PathUnescape(s)
		if err != nil {
			return resourceURI{}, errBadURI
		}
		// cleanName trims spaces; a name it changed is not the name given.
		if c, err := cleanName(d, ""); err != nil || c != d {
			return resourceURI{}, errBadURI
		}
		seg[i] = d
	}
	switch strings.ToLower(scheme) {
	case "sessions":
		if len(seg) == 1 && seg[0] == "list" {
			return sessionsListURI(), nil
		}
	case "themes":
		if len(seg) == 1 && seg[0] == "list" {
			return themesListURI(), nil
		}
	case "theme":
		if len(seg) == 1 {
			return themeURI(seg[0]), nil
		}
	case "session":
		return parseSessionURI(seg)
	case "ui":
		if len(seg) == 2 && seg[0] == "ttywright" && seg[1] == "terminal" {
			return appURI(), nil
		}
	}
	return resourceURI{}, errBadURI
}

// parseSessionURI parses the decoded segments of a session:// URI.
func parseSessionURI(seg []string) (resourceURI, error) {
	id := seg[0]
	switch {
	case len(seg) == 2 && seg[1] == "info":
		return infoURI(id), nil
	case len(seg) == 2 && seg[1] == "buffer":
		return bufferURI(id), nil
	case len(seg) == 2 && seg[1] == "screenshots":
		return screenshotsURI(id), nil
	case len(seg) == 2 && seg[1] == "recordings":
		return recordingsURI(id), nil
	case len(seg) == 3 && seg[1] == "screenshots":
		return screenshotURI(id, seg[2]), nil
	case len(seg) == 3 && seg[1] == "recordings":
		return recordingURI(id, seg[2]), nil
	case len(seg) == 2 && seg[1] == "commands":
		return commandsURI(id), nil
	case len(seg) == 2 && seg[1] == "trace":
		return traceURI(id), nil
	case len(seg) == 2 && seg[1] == "tape":
		return tapeURI(id), nil
	case len(seg) == 3 && seg[1] == "commands":
		if n, err := strconv.Atoi(seg[2]); err == nil && n > 0 && strconv.Itoa(n) == seg[2] {
			return commandURI(id, n), nil
		}
		// Any other integer (0, -1, 007, one past int64) fits the
		// template too: it parses, to a command that never exists, so a
		// read says which numbers do.
		if d := strings.TrimPrefix(seg[2], "-"); d != "" && strings.Trim(d, "0123456789") == "" {
			return resourceURI{kind: uriCommand, session: id, name: seg[2]}, nil
		}
	}
	return resourceURI{}, errBadURI
}
