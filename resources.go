package main

// resources.go: MCP resources: the concrete URIs that exist now (the
// lists, the themes, and each session's info, buffer and captures), the
// URI templates, reads as JSON text, plain text or base64 blobs,
// subscriptions with debounced notifications/resources/updated, and
// coalesced notifications/resources/list_changed. URIs are typed and
// parsed strictly (uri.go), so no URI can name a file outside the output
// directory, and capture files are read through os.Root on that directory
// besides.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Resource limits.
const maxGoneSessions = maxStoppedKept // stopped sessions whose resources stay readable

// notFound is the MCP error for an unknown resource: -32002 with the URI
// in data (the modern era sends it as -32602, mcp_modern.go), and a
// message that says where the existing names are, as tool errors do.
func notFound(uri, hint string) *RPCError {
	return &RPCError{Code: codeResourceNotFound, Message: "Resource not found: " + hint, Data: map[string]string{"uri": uri}}
}

// hintBadURI is the hint for a URI of no shape this server serves.
const hintBadURI = "not a ttywright resource URI: resources/list names the resources and resources/templates/list the URI shapes, e.g. sessions://list"

// hintTheme is the hint for an unknown theme name.
func hintTheme(name string) string {
	return fmt.Sprintf("no theme %q: the themes are %s (themes://list)", name, strings.Join(themeNames(), ", "))
}

// hintSession is the hint for an unknown session id: the session's id
// when it is a session's name, else the ids that exist.
func (h *mcpHub) hintSession(id string) string {
	var ids []string
	for _, s := range h.resSessions() {
		if s.live != nil && s.live.Name != "" && s.live.Name == id {
			return fmt.Sprintf("no session %q: that is the name of session %s, and resource URIs take its id (session://%s/...)", id, s.ID, s.ID)
		}
		ids = append(ids, s.ID)
	}
	if len(ids) == 0 {
		return fmt.Sprintf("no session %q: there are no sessions yet, shell_start makes one (sessions://list)", id)
	}
	return fmt.Sprintf("no session %q: the sessions are %s (sessions://list)", id, strings.Join(ids, ", "))
}

// hintCapture is the hint for an unknown capture name in the list
// (session://{id}/screenshots or .../recordings): the names it has.
func hintCapture(list resourceURI, name string, cs []Capture) string {
	kind := "screenshot"
	if list.kind == uriRecordings {
		kind = "recording"
	}
	names := make([]string, 0, len(cs))
	for _, c := range cs {
		names = append(names, c.Name)
	}
	if len(names) == 0 {
		return fmt.Sprintf("no %s %q in session %s: it has none yet (%s)", kind, name, list.session, list)
	}
	return fmt.Sprintf("no %s %q in session %s: its %ss are %s (%s)", kind, name, list.session, kind, strings.Join(names, ", "), list)
}

// hintCommand is the hint for a command number that session id has not
// (or no longer) kept: the numbers it has.
func hintCommand(id, n string, cmds []*command) string {
	list := commandsURI(id).String()
	if len(cmds) == 0 {
		return fmt.Sprintf("session %s has no command %s: it has no finished commands yet (%s lists them once a shell with integration finishes one)", id, n, list)
	}
	return fmt.Sprintf("session %s has no command %s: its commands are numbered %d-%d (the newest %d are kept); %s lists them", id, n, cmds[0].n, cmds[len(cmds)-1].n, maxCommands, list)
}

// subscribable parses a URI a client subscribes to (resources/subscribe,
// subscriptions/listen): any URI of a known shape whose resource exists or
// can still come (a capture or command of an existing session, live or
// stopped and still readable, that is not made yet). A URI of no known
// shape, a theme that is not in the list, or a session that does not
// exist is not found, with the hint resources/read gives: shell_start
// picks the id (skipping ones whose directory exists), so a client cannot
// know a session's id before it starts it.
func (h *mcpHub) subscribable(raw string) (resourceURI, error) {
	if raw == "" {
		return resourceURI{}, invalidParams("uri is missing: pass a URI from resources/list or a template, e.g. session://{id}/buffer")
	}
	u, err := parseResourceURI(raw)
	if err != nil {
		return u, notFound(raw, hintBadURI)
	}
	if u.kind == uriTheme {
		if _, err := lookupTheme(u.name); err != nil {
			return u, notFound(raw, hintTheme(u.name)+"; a theme never changes, so there is nothing to subscribe to")
		}
	}
	if u.session != "" && h.resSession(u.session) == nil {
		return u, notFound(raw, h.hintSession(u.session))
	}
	return u, nil
}

// resSess is one session as the resources see it: a live one, read
// through the Session's accessors, or a stopped one, frozen when
// shell_stop removed it from the list (resState.gone).
type resSess struct {
	ID      string
	Command string
	Started time.Time

	live    *Session // nil when stopped
	stopped *stoppedSession
}

// stoppedSession is what stays of a stopped session.
type stoppedSession struct {
	info        sessionJSON // as session://{id}/info read it
	buffer      string
	screenshots []Capture
	recordings  []Capture
	commands    []*command    // finished commands (session_commands.go)
	trace       *sessionTrace // its steps, and screens when traced (tools_steps.go)
}

func liveSession(s *Session) *resSess {
	return &resSess{ID: s.ID, Command: s.Command, Started: s.Started, live: s}
}

// freeze copies what the resources show of the stopped session s into
// resState.gone, the newest maxGoneSessions kept.
func (h *mcpHub) freeze(s *Session) {
	v := liveSession(s)
	v.stopped = &stoppedSession{info: h.describe(v, true), buffer: s.Text(true), screenshots: s.Screenshots(), recordings: s.Recordings(), commands: s.commandsCopy(), trace: h.toolbox.TraceOf(s)}
	v.stopped.info.CommandRunning = false
	v.stopped.info.Stopped = true
	v.stopped.info.KeyboardInfo = KeyboardInfo{} // no one can watch a stopped session
	v.live = nil
	r := &h.res
	r.mu.Lock()
	r.gone = append(r.gone, v)
	if n := len(r.gone) - maxGoneSessions; n > 0 {
		r.gone = slices.Delete(r.gone, 0, n)
	}
	r.mu.Unlock()
}

// trace returns the session's steps and trace, nil when it has none.
func (h *mcpHub) trace(v *resSess) *sessionTrace {
	if v.live != nil {
		return h.toolbox.TraceOf(v.live)
	}
	return v.stopped.trace
}

// Screenshots returns the session's screenshots, oldest first.
func (v *resSess) Screenshots() []Capture {
	if v.live != nil {
		return v.live.Screenshots()
	}
	return v.stopped.screenshots
}

// Recordings returns the session's recordings, oldest first.
func (v *resSess) Recordings() []Capture {
	if v.live != nil {
		return v.live.Recordings()
	}
	return v.stopped.recordings
}

// resSessions returns every session, live, exited or stopped (see
// resState.gone), oldest first.
func (h *mcpHub) resSessions() []*resSess {
	var ss []*resSess
	for _, s := range h.sessions.List() {
		ss = append(ss, liveSession(s))
	}
	h.res.mu.Lock()
	for _, v := range h.res.gone {
		if !slices.ContainsFunc(ss, func(x *resSess) bool { return x.ID == v.ID }) {
			ss = append(ss, v)
		}
	}
	h.res.mu.Unlock()
	slices.SortStableFunc(ss, func(x, y *resSess) int {
		if c := x.Started.Compare(y.Started); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	})
	return ss
}

// sessionJSON is one entry of sessions://list; session://{id}/info adds
// the cwd and the capture counts.
type sessionJSON struct {
	ID        string    `json:"id"`
	Name      string    `json:"name,omitempty"`   // shell_start's name, which session_id takes too
	Client    string    `json:"client,omitempty"` // the MCP client that started it
	Driven    time.Time `json:"last_driven"`      // when a tool call last named it (its start before any)
	Command   string    `json:"command"`
	Args      []string  `json:"args"`
	Cols      int       `json:"cols"`
	Rows      int       `json:"rows"`
	PID       int       `json:"pid"`
	Started   time.Time `json:"started"`
	Exited    bool      `json:"exited"`
	ExitCode  *int      `json:"exit_code"`        // null while running
	Signal    string    `json:"signal,omitempty"` // the signal that ended it, e.g. "SIGHUP"
	Recording bool      `json:"recording"`
	// Stopped: shell_stop closed it; the tools refuse its id, these
	// resources stay readable. Exited alone means the tools still take it.
	Stopped bool `json:"stopped,omitempty"`
	// RecordingEnded: why the last recording ended by itself (a limit)
	// and its URI, until shell_record_stop reports it.
	RecordingEnded string `json:"recording_ended,omitempty"`
	Theme          string `json:"theme"`

	Cwd         *string `json:"cwd,omitempty"`
	Screenshots *int    `json:"screenshot_count,omitempty"`
	Recordings  *int    `json:"recording_count,omitempty"`
	Mouse       string  `json:"mouse,omitempty"` // info: the mouse mode, e.g. "1000 normal, SGR 1006", or "off"
	// Trace (info): session://{id}/trace when the session is traced, and
	// TracePath the file once shell_stop wrote it.
	Trace     string `json:"trace,omitempty"`
	TracePath string `json:"trace_path,omitempty"`
	shellInfo        // shell_integration, command_running (session_commands.go)
	// Foreground: while it runs, what the foreground program waits for
	// (session_input.go).
	Foreground *Foreground `json:"foreground,omitempty"`
	// KeyboardInfo: viewers and keyboard while a person watches
	// (ttywright attach); person_typed is left to the tools' replies.
	KeyboardInfo
}

// describe is v's sessions://list entry, or with info its
// session://{id}/info. A live session is read through its accessors, each
// under the session's lock.
func (h *mcpHub) describe(v *resSess, info bool) sessionJSON {
	if v.stopped != nil {
		j := v.stopped.info
		if !info {
			j.Cwd, j.Screenshots, j.Recordings, j.Mouse = nil, nil, nil, ""
		}
		return j
	}
	s := v.live
	st := s.Status()
	j := sessionJSON{
		ID: s.ID, Name: s.Name, Client: s.Client, Driven: s.LastDriven(), Command: s.Command, Args: s.Args, Cols: st.Cols, Rows: st.Rows, PID: st.Pid,
		Started: s.Started, Exited: st.Exited, Signal: st.Signal, Theme: s.Theme, shellInfo: s.ShellInfo(),
	}
	j.Recording, j.RecordingEnded = h.toolbox.recs.state(s)
	j.KeyboardInfo = s.KeyboardInfo(false)
	if j.Args == nil {
		j.Args = []string{}
	}
	if st.Exited {
		j.ExitCode = &st.ExitCode
	} else {
		fg := s.Foreground()
		j.Foreground = &fg
	}
	if cwd := j.shellInfo.Cwd; !info && cwd != "" { // the list shows where a shell is now
		j.Cwd = &cwd
	}
	if info {
		cwd, ns, nr := s.Cwd, len(s.Screenshots()), len(s.Recordings())
		if j.shellInfo.Cwd != "" { // where the shell is now (OSC 7)
			cwd = j.shellInfo.Cwd
		}
		j.Cwd, j.Screenshots, j.Recordings = &cwd, &ns, &nr
		m := s.Modes()
		j.Mouse = mouseModeName(m.Mouse, m.MouseEncoding)
	}
	return j
}

// bufferText is session://{id}/buffer: exactly what shell_read returns
// with scrollback (Session.Text), after the output the program wrote
// before the read began has reached the screen.
func (v *resSess) bufferText(ctx context.Context) string {
	if v.stopped != nil {
		return v.stopped.buffer
	}
	if v.live.master != nil { // nil only for sessions built by tests
		v.live.settle(ctx)
	}
	return v.live.Text(true)
}

// captureJSON is one entry of session://{id}/screenshots or /recordings.
type captureJSON struct {
	Name       string    `json:"name"`
	URI        string    `json:"uri"`
	MimeType   string    `json:"mime_type"`
	Created    time.Time `json:"created"`
	Width      int       `json:"width,omitempty"`
	Height     int       `json:"height,omitempty"`
	FrameCount int       `json:"frame_count,omitempty"`
	DurationMS int64     `json:"duration_ms,omitempty"`
	Bytes      int64     `json:"bytes"`
}

// captureURI is c's resource URI in the list (screenshotsURI or
// recordingsURI): the one the capture recorded, else the canonical one built
// from its name.
func captureURI(list resourceURI, c Capture) string {
	if c.URI != "" {
		return c.URI
	}
	return list.member(c.Name).String()
}

// captureList is the list resource (session://{id}/screenshots or
// .../recordings) of the captures cs.
func captureList(list resourceURI, cs []Capture) []captureJSON {
	out := make([]captureJSON, 0, len(cs))
	for _, c := range cs {
		out = append(out, captureJSON{
			Name: c.Name, URI: captureURI(list, c), MimeType: c.MimeType, Created: c.Created,
			Width: c.Width, Height: c.Height, FrameCount: c.FrameCount, DurationMS: c.DurationMS, Bytes: c.Bytes,
		})
	}
	return out
}

// findCapture looks name up among cs: by the URI the capture recorded, then
// by its name, then by name plus file extension ("demo.cast" picks the
// asciicast of a recording saved in both formats).
func findCapture(list resourceURI, name string, cs []Capture) (Capture, bool) {
	want := list.member(name).String()
	for _, c := range cs {
		if c.URI == want {
			return c, true
		}
	}
	for _, c := range cs {
		if c.URI == "" && c.Name == name {
			return c, true
		}
	}
	for _, c := range cs {
		if c.Name+filepath.Ext(c.Path) == name {
			return c, true
		}
	}
	return Capture{}, false
}

// themeSummary is one entry of themes://list.
type themeSummary struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Tip         string `json:"tip"`
}

// themeJSON is theme://{name}: colours as #rrggbb.
type themeJSON struct {
	themeSummary
	Background string     `json:"background"`
	Foreground string     `json:"foreground"`
	Cursor     string     `json:"cursor"`
	ANSI       [16]string `json:"ansi"`
}

func describeTheme(t *Theme) themeJSON {
	j := themeJSON{
		themeSummary: themeSummary{t.Name, t.Type, t.Description, t.Tip},
		Background:   hexColor(t.Background),
		Foreground:   hexColor(t.Foreground),
		Cursor:       hexColor(t.Cursor),
	}
	for i, c := range t.ANSI {
		j.ANSI[i] = hexColor(c)
	}
	return j
}

// resourceJSON is one entry of resources/list (MCP Resource).
type resourceJSON struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"` // 2025-06-18+
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
	Size        int64  `json:"size,omitempty"`

	Annotations *resAnnotations `json:"annotations,omitempty"`
}

// resAnnotations are MCP annotations; captures carry when they were made.
type resAnnotations struct {
	Audience     []string  `json:"audience,omitempty"`    // "user", "assistant"
	LastModified time.Time `json:"lastModified,omitzero"` // 2025-06-18+
}

// captureAnnotations: a capture is for the person and the model alike.
func captureAnnotations(c Capture) *resAnnotations {
	return &resAnnotations{Audience: []string{"user", "assistant"}, LastModified: c.Created.UTC()}
}

// allResources lists the concrete URIs that exist now, in a stable order:
// the two lists, each theme, then per session (oldest first) its info,
// buffer, screenshot list, screenshots, recording list and recordings.
func (h *mcpHub) allResources() []resourceJSON {
	out := []resourceJSON{
		{URI: sessionsListURI().String(), Name: "sessions", Title: "Sessions", MimeType: "application/json",
			Description: "Every terminal session, live or exited: id, command, size, pid, exit code, theme."},
		{URI: themesListURI().String(), Name: "themes", Title: "Themes", MimeType: "application/json",
			Description: "The colour themes shell_start and screenshots accept, with when to choose each."},
	}
	for _, t := range themeList {
		out = append(out, resourceJSON{URI: themeURI(t.Name).String(), Name: "theme-" + t.Name, Title: "Theme " + t.Name,
			MimeType: "application/json", Description: strings.TrimSpace(t.Type + " theme. " + t.Description)})
	}
	for _, s := range h.resSessions() {
		id := s.ID
		label := fmt.Sprintf("session %s (%s)", id, s.Command)
		out = append(out,
			resourceJSON{URI: infoURI(id).String(), Name: id + "/info", Title: label + " info", MimeType: "application/json",
				Description: "The session's command, size, pid, exit code, cwd and capture counts."},
			resourceJSON{URI: bufferURI(id).String(), Name: id + "/buffer", Title: label + " buffer", MimeType: "text/plain",
				Description: "Scrollback and screen as plain text, as shell_read returns them; subscribe for updates."},
			resourceJSON{URI: screenshotsURI(id).String(), Name: id + "/screenshots", Title: label + " screenshots", MimeType: "application/json",
				Description: "The session's screenshots: name, uri, created, width, height, bytes."})
		for _, c := range h.store.onDisk(s.Screenshots()) {
			out = append(out, resourceJSON{URI: captureURI(screenshotsURI(id), c), Name: id + "/screenshots/" + c.Name,
				Title: "Screenshot " + c.Name, MimeType: c.MimeType, Size: c.Bytes, Annotations: captureAnnotations(c),
				Description: fmt.Sprintf("%dx%d pixel screenshot of session %s, taken %s.", c.Width, c.Height, id, c.Created.UTC().Format(time.RFC3339))})
		}
		out = append(out, resourceJSON{URI: recordingsURI(id).String(), Name: id + "/recordings", Title: label + " recordings", MimeType: "application/json",
			Description: "The session's recordings: name, uri, created, frame_count, duration_ms, bytes."})
		for _, c := range h.store.onDisk(s.Recordings()) {
			out = append(out, resourceJSON{URI: captureURI(recordingsURI(id), c), Name: id + "/recordings/" + strings.TrimSuffix(c.Name, filepath.Ext(c.Path)) + filepath.Ext(c.Path),
				Title: "Recording " + c.Name, MimeType: c.MimeType, Size: c.Bytes, Annotations: captureAnnotations(c),
				Description: fmt.Sprintf("%d-frame, %.1f s recording of session %s, made %s.", c.FrameCount, float64(c.DurationMS)/1000, id, c.Created.UTC().Format(time.RFC3339))})
		}
		out = append(out, commandResources(id, label, s.commands())...)
		out = append(out, h.stepResources(s, label)...)
	}
	return out
}

// stepResources are the tape and, when traced, the trace of session v.
func (h *mcpHub) stepResources(v *resSess, label string) []resourceJSON {
	t := h.trace(v)
	if t == nil {
		return nil
	}
	out := []resourceJSON{{URI: tapeURI(v.ID).String(), Name: v.ID + "/tape", Title: label + " tape", MimeType: "text/plain",
		Description: "What was done in the session so far as a tape; replay it with ttywright test."}}
	if t.Full() {
		out = append(out, resourceJSON{URI: traceURI(v.ID).String(), Name: v.ID + "/trace", Title: label + " trace", MimeType: "text/html",
			Description: "The session's trace: each step, the screen after it, commands, screenshots."})
	}
	return out
}

// cursorParams are the params of the paginated list methods.
type cursorParams struct {
	Cursor string `json:"cursor"`
}

// resourcesList is resources/list: {resources, nextCursor?}.
func (h *mcpHub) resourcesList(ctx context.Context, params json.RawMessage) (any, error) {
	var p cursorParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	all := h.allResources()
	if appsFrom(ctx) {
		all = append(all, appResource())
	}
	page, next, err := paginate(all, p.Cursor, h.res.perPage())
	if err != nil {
		return nil, err
	}
	if !versionAtLeast(ctx, protoV20250618) { // title and annotations.lastModified came then
		page = slices.Clone(page)
		for i, r := range page {
			page[i].Title = ""
			if r.Annotations != nil {
				an := *r.Annotations
				an.LastModified = time.Time{}
				page[i].Annotations = &an
			}
		}
	}
	return struct {
		Resources  []resourceJSON `json:"resources"`
		NextCursor string         `json:"nextCursor,omitempty"`
	}{page, next}, nil
}

// templateJSON is one entry of resources/templates/list (RFC 6570 level 1).
type templateJSON struct {
	URITemplate string `json:"uriTemplate"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"` // 2025-06-18+
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`

	kind uriKind // what the template's URIs name
}

// resourceTemplates are the URI templates, one per shape of a
// session's or theme's resource (uri.go); completion/complete offers values
// for their {id} and {name}.
var resourceTemplates = []templateJSON{
	templateOf(uriInfo, "session-info", "Session info", "One session: command, size, pid, exit code, cwd, capture counts, mouse mode. Ids: sessions://list.", "application/json"),
	templateOf(uriBuffer, "session-buffer", "Session buffer", "Scrollback and screen as plain text, as shell_read returns them.", "text/plain"),
	templateOf(uriScreenshots, "session-screenshots", "Session screenshots", "A session's screenshots: name, uri, created, width, height, bytes.", "application/json"),
	templateOf(uriScreenshot, "session-screenshot", "Screenshot", "One screenshot as a base64 PNG blob.", "image/png"),
	templateOf(uriRecordings, "session-recordings", "Session recordings", "A session's recordings: name, uri, created, frame_count, duration_ms, bytes.", "application/json"),
	templateOf(uriRecording, "session-recording", "Recording", "One recording: the GIF as a base64 image/gif blob, or for name.cast the asciicast as application/x-asciicast text.", ""),
	templateOf(uriCommands, "session-commands", "Session commands", "The commands a shell with integration finished, oldest first: n, line, exit_code, started, duration_ms, cwd, output_bytes, uri.", "application/json"),
	templateOf(uriCommand, "session-command", "Command output", "One finished command's output as plain text (scrollback included).", "text/plain"),
	templateOf(uriTrace, "session-trace", "Session trace", "The session's trace as one HTML page (shell_start trace: true, or --trace): each step, the screen after it, commands, screenshots.", "text/html"),
	templateOf(uriTape, "session-tape", "Session tape", "What was done in the session so far as a tape (VHS's language with ttywright's assertions); replay it with ttywright test.", "text/plain"),
	templateOf(uriTheme, "theme", "Theme", "One colour theme: background, foreground, cursor and the 16 ANSI colours as #rrggbb. Names: themes://list.", "application/json"),
}

// templateOf is the template entry of kind k.
func templateOf(k uriKind, name, title, desc, mime string) templateJSON {
	return templateJSON{URITemplate: k.template(), Name: name, Title: title, Description: desc, MimeType: mime, kind: k}
}

// resourcesTemplatesList is resources/templates/list.
func (h *mcpHub) resourcesTemplatesList(ctx context.Context, params json.RawMessage) (any, error) {
	var p cursorParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	page, next, err := paginate(resourceTemplates, p.Cursor, h.res.perPage())
	if err != nil {
		return nil, err
	}
	if !versionAtLeast(ctx, protoV20250618) { // title came then
		page = slices.Clone(page)
		for i := range page {
			page[i].Title = ""
		}
	}
	return struct {
		ResourceTemplates []templateJSON `json:"resourceTemplates"`
		NextCursor        string         `json:"nextCursor,omitempty"`
	}{page, next}, nil
}

// resourceContents is one entry of a resources/read result: text
// (TextResourceContents, "text" present even when empty) or a base64 blob
// (BlobResourceContents). Pointers, not a MarshalJSON method, so that a
// large blob is not re-scanned by encoding/json's compaction.
type resourceContents struct {
	URI      string  `json:"uri"`
	MimeType string  `json:"mimeType"`
	Text     *string `json:"text,omitempty"`
	Blob     *string `json:"blob,omitempty"` // base64
	// Meta is the terminal app's _meta.ui (mcp_apps.go).
	Meta map[string]any `json:"_meta,omitempty"`
}

// uriParams are the params of resources/read, subscribe and unsubscribe.
type uriParams struct {
	URI string `json:"uri"`
}

// resourcesRead is resources/read {uri} -> {contents: [one entry]}.
func (h *mcpHub) resourcesRead(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	if p.URI == "" {
		return nil, invalidParams("uri is missing: pass a URI from resources/list, e.g. sessions://list")
	}
	c, err := h.readResourceCtx(ctx, p.URI)
	if err != nil {
		return nil, err
	}
	return map[string]any{"contents": []resourceContents{c}}, nil
}

// readResourceCtx resolves and reads one URI; ctx bounds the wait for a
// buffer's pending output. Errors are *RPCError: -32002 for anything that
// does not exist or does not parse.
func (h *mcpHub) readResourceCtx(ctx context.Context, uri string) (resourceContents, error) {
	u, err := parseResourceURI(uri)
	if err != nil {
		return resourceContents{}, notFound(uri, hintBadURI)
	}
	out := resourceContents{URI: uri, MimeType: "application/json"}
	var v any
	switch u.kind {
	case uriSessions:
		list := []sessionJSON{}
		for _, s := range h.resSessions() {
			list = append(list, h.describe(s, false))
		}
		v = list
	case uriThemes:
		list := make([]themeSummary, 0, len(themeList))
		for _, t := range themeList {
			list = append(list, describeTheme(t).themeSummary)
		}
		v = list
	case uriTheme:
		t, err := lookupTheme(u.name)
		if err != nil {
			return out, notFound(uri, hintTheme(u.name))
		}
		v = describeTheme(t)
	case uriApp:
		return readApp(out), nil
	default:
		s := h.resSession(u.session)
		if s == nil {
			return out, notFound(uri, h.hintSession(u.session))
		}
		switch u.kind {
		case uriInfo:
			j := h.describe(s, true)
			ns, nr := len(h.store.onDisk(s.Screenshots())), len(h.store.onDisk(s.Recordings())) // as the lists count them
			j.Screenshots, j.Recordings = &ns, &nr
			if t := h.trace(s); t.Full() {
				j.Trace, j.TracePath = traceURI(u.session).String(), t.Path()
			}
			v = j
		case uriBuffer:
			text := s.bufferText(ctx)
			out.MimeType, out.Text = "text/plain", &text
			return out, nil
		case uriScreenshots:
			v = captureList(u, h.store.onDisk(s.Screenshots()))
		case uriRecordings:
			v = captureList(u, h.store.onDisk(s.Recordings()))
		case uriCommands:
			v = commandList(u.session, s.commands())
		case uriCommand:
			text, ok := s.commandOutput(u.name)
			if !ok {
				return out, notFound(uri, hintCommand(u.session, u.name, s.commands()))
			}
			out.MimeType, out.Text = "text/plain", &text
			return out, nil
		case uriScreenshot, uriRecording:
			return h.readCaptureResource(out, u, s)
		case uriTrace, uriTape:
			return h.readSteps(out, u, s)
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return out, err
	}
	text := string(b)
	out.Text = &text
	return out, nil
}

// readSteps reads session s's trace (the HTML page) or tape (tape_gen.go).
func (h *mcpHub) readSteps(out resourceContents, u resourceURI, s *resSess) (resourceContents, error) {
	t := h.trace(s)
	if t == nil {
		return out, notFound(out.URI, fmt.Sprintf("session %s was not started by shell_start, so it has no steps", u.session))
	}
	if u.kind == uriTape {
		text := genTape(t)
		out.MimeType, out.Text = "text/plain", &text
		return out, nil
	}
	if !t.Full() {
		return out, notFound(out.URI, fmt.Sprintf("session %s keeps no trace: start one with shell_start {trace: true}, or the server with --trace; %s has its steps as a tape", u.session, tapeURI(u.session)))
	}
	b, err := t.HTML()
	if err != nil {
		return out, &RPCError{Code: codeInternalError, Message: "the trace cannot be written: " + err.Error()}
	}
	text := string(b)
	out.MimeType, out.Text = "text/html", &text
	return out, nil
}

// readCaptureResource reads the screenshot or recording u of session s
// into out: an asciicast as text (JSON lines; the cast writer keeps it
// valid UTF-8), anything else (GIF, PNG) as a base64 blob.
func (h *mcpHub) readCaptureResource(out resourceContents, u resourceURI, s *resSess) (resourceContents, error) {
	list, cs := screenshotsURI(u.session), s.Screenshots()
	if u.kind == uriRecording {
		list, cs = recordingsURI(u.session), s.Recordings()
	}
	c, ok := findCapture(list, u.name, cs)
	if !ok {
		return out, notFound(out.URI, hintCapture(list, u.name, cs))
	}
	b, err := h.store.read(c)
	var big *captureTooLarge
	switch {
	case errors.As(err, &big):
		return out, &RPCError{Code: codeInternalError, Message: big.Error()}
	case err != nil:
		return out, notFound(out.URI, fmt.Sprintf("the file of %s (%s) is gone from the output directory", c.Name, c.Path))
	}
	if c.MimeType == "application/x-asciicast" && utf8.Valid(b) {
		text := string(b)
		out.MimeType, out.Text = c.MimeType, &text
		return out, nil
	}
	blob := base64.StdEncoding.EncodeToString(b)
	out.MimeType, out.Blob = c.MimeType, &blob
	if out.MimeType == "" {
		out.MimeType = "application/octet-stream"
	}
	return out, nil
}

// resSession returns the session with the given id (live first, then
// the most recently stopped), or nil.
func (h *mcpHub) resSession(id string) *resSess {
	if s := h.sessions.Get(id); s != nil {
		return liveSession(s)
	}
	h.res.mu.Lock()
	defer h.res.mu.Unlock()
	for i := len(h.res.gone) - 1; i >= 0; i-- {
		if h.res.gone[i].ID == id {
			return h.res.gone[i]
		}
	}
	return nil
}
