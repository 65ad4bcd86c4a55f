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
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Resource limits and defaults.
const (
	defaultUpdateInterval = 250 * time.Millisecond // at most one updated per URI per interval
	defaultPageSize       = 100                    // items per resources/list, prompts/list ... page
	maxSubscriptions      = 4096                   // distinct subscribed URIs; more is -32602
	maxBlobBytes          = 64 << 20               // larger capture files are refused, not base64'd
	maxGoneSessions       = 32                     // stopped sessions whose resources stay readable
)

// resState is the resources part of App: subscriptions and the debouncers
// behind resourceUpdated and resourceListChanged. The zero value is ready
// to use (250 ms interval, 100-item pages).
type resState struct {
	interval time.Duration // debounce interval; 0 = defaultUpdateInterval (tests shorten it)
	pageSize int           // items per page; 0 = defaultPageSize (tests shrink it)

	nsubs    atomic.Int32 // len(subs), read without mu so unsubscribed updates cost one atomic load
	nstreams atomic.Int32 // len(streams), likewise

	mu   sync.Mutex
	subs map[resourceURI]*debouncer // subscribed URI -> its debouncer
	list debouncer                  // notifications/resources/list_changed
	// streams are the open subscriptions/listen requests (listen.go),
	// each with its own debouncers.
	streams map[*listenStream]struct{}

	// known is App.sessions as of the last list change; gone keeps a
	// frozen copy of each session shell_stop has since removed from it
	// (oldest first, at most maxGoneSessions), so that its info, buffer
	// and captures stay readable (an agent stops a session, then fetches
	// its recording) while the Session and its emulator are freed.
	known map[string]*Session
	gone  []*resSess

	// changeMu makes resourceListChanged calls one at a time, so that
	// known only moves forward: two calls with their App snapshots taken
	// in one order and applied in the other would take a live session
	// for a stopped one.
	changeMu sync.Mutex

	// sendMu is held while a notification is checked and sent, so that
	// once unsubscribe returns no updated for that URI can still be on
	// its way. resourceUpdated never takes it: the PTY path never waits
	// for the client.
	sendMu sync.Mutex
}

// debouncer limits one notification stream to one send per interval with
// the trailing edge kept: a change while a send is pending is covered by
// that send, and a change after a send schedules another at last+interval.
type debouncer struct {
	last    time.Time // when the last notification was sent; zero = never
	pending bool      // a timer is armed and will send

	uri string // subscriptions: the URI as the client spelled it, sent back in updated
}

func (r *resState) every() time.Duration {
	if r.interval > 0 {
		return r.interval
	}
	return defaultUpdateInterval
}

func (r *resState) perPage() int {
	if r.pageSize > 0 {
		return r.pageSize
	}
	return defaultPageSize
}

// due marks d pending and returns how long until it may send, or false
// when a send is already pending (and will cover this change). r.mu must
// be held; the caller arms a timer for the delay.
func (r *resState) due(d *debouncer) (time.Duration, bool) {
	if d.pending {
		return 0, false
	}
	d.pending = true
	return max(time.Until(d.last.Add(r.every())), 0), true
}

// armUpdated schedules the updated notification for a subscribed u.
// r.mu must be held.
func (a *App) armUpdated(u resourceURI, d *debouncer) {
	if delay, ok := a.res.due(d); ok {
		time.AfterFunc(delay, func() { a.fireUpdated(u, d) })
	}
}

// resourceUpdated tells subscribers that u changed: at most one
// notifications/resources/updated {uri} per interval (250 ms) per URI, the
// last change always followed by a notification. It never blocks on the
// client; for a URI nobody subscribed to it costs one atomic load (when
// nothing is subscribed) or one map lookup. Called on every screen change.
func (a *App) resourceUpdated(u resourceURI) {
	r := &a.res
	if r.nsubs.Load() == 0 && r.nstreams.Load() == 0 {
		return
	}
	r.mu.Lock()
	if d := r.subs[u]; d != nil {
		a.armUpdated(u, d)
	}
	a.streamsUpdated(u)
	r.mu.Unlock()
}

// fireUpdated sends the updated notification d was armed for, with the
// URI as the client subscribed to it, unless it unsubscribed meanwhile.
func (a *App) fireUpdated(u resourceURI, d *debouncer) {
	r := &a.res
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	if r.subs[u] != d {
		r.mu.Unlock()
		return
	}
	d.pending = false
	d.last = time.Now()
	r.mu.Unlock()
	a.Notify("notifications/resources/updated", map[string]string{"uri": d.uri})
}

// resourceListChanged tells the client that sessions or captures came or
// went: notifications/resources/list_changed, coalesced like updates (one
// at once, then at most one per interval, the last change never lost), and
// freezes the sessions shell_stop removed (resState.gone). It sends no
// updated: the rule is that updated goes only to a resource whose content
// changed, and only the caller knows which did, so each caller sends
// resourceUpdated for exactly those URIs. Called on shell_start,
// screenshot, record stop, a finished command and stop.
func (a *App) resourceListChanged() {
	r := &a.res
	r.changeMu.Lock()
	defer r.changeMu.Unlock()
	a.mu.Lock()
	live := maps.Clone(a.sessions)
	a.mu.Unlock()
	r.mu.Lock()
	var went []*Session
	for id, s := range r.known {
		if live[id] != s {
			went = append(went, s)
		}
	}
	r.known = live
	r.mu.Unlock()
	// Freeze outside r.mu (it takes each session's lock), before the
	// notifications go out, so a client that reacts finds them.
	frozen := make([]*resSess, 0, len(went))
	for _, s := range went {
		frozen = append(frozen, freezeSession(s))
	}
	r.mu.Lock()
	r.gone = append(r.gone, frozen...)
	if n := len(r.gone) - maxGoneSessions; n > 0 {
		r.gone = slices.Delete(r.gone, 0, n)
	}
	if delay, ok := r.due(&r.list); ok {
		time.AfterFunc(delay, a.fireListChanged)
	}
	a.streamsListChanged()
	r.mu.Unlock()
}

func (a *App) fireListChanged() {
	r := &a.res
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	r.list.pending = false
	r.list.last = time.Now()
	r.mu.Unlock()
	a.Notify("notifications/resources/list_changed", nil)
}

// resourceMethods returns the resources/* handlers, merged into the
// server's method table by mcp.go.
func (a *App) resourceMethods() map[string]Method {
	return map[string]Method{
		"resources/list":           a.resourcesList,
		"resources/templates/list": a.resourcesTemplatesList,
		"resources/read":           a.resourcesRead,
		"resources/subscribe":      a.resourcesSubscribe,
		"resources/unsubscribe":    a.resourcesUnsubscribe,
	}
}

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

// hintSession is the hint for an unknown session id: the ids that exist.
func (a *App) hintSession(id string) string {
	var ids []string
	for _, s := range a.resSessions() {
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
func (a *App) subscribable(raw string) (resourceURI, error) {
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
	if u.session != "" && a.resSession(u.session) == nil {
		return u, notFound(raw, a.hintSession(u.session))
	}
	return u, nil
}

// invalidParams is the JSON-RPC error -32602 with a message naming the
// problem.
func invalidParams(format string, a ...any) *RPCError {
	return &RPCError{Code: codeInvalidParams, Message: "Invalid params: " + fmt.Sprintf(format, a...)}
}

// bindParams decodes a request's params into v (absent or null params
// leave v as is); bad JSON or wrong types are -32602.
func bindParams(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		// Said in the request's terms, not Go's ("cannot unmarshal number
		// into Go struct field").
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return invalidParams("in %q: %s given where %s is needed", te.Field, te.Value, jsonKind(te.Type))
		}
		return invalidParams("params must be a JSON object of the method's fields")
	}
	return nil
}

// paginate returns the page of items that cursor points at (the first page
// for ""), at most size long, and the cursor of the next page ("" at the
// end). Cursors are opaque: base64 of "o:" and an offset. A malformed
// cursor is -32602; an offset past the end (the list shrank) is an empty
// last page.
func paginate[T any](items []T, cursor string, size int) ([]T, string, error) {
	off := 0
	if cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		n, ok := strings.CutPrefix(string(b), "o:")
		if err == nil && ok {
			off, err = strconv.Atoi(n)
		}
		if err != nil || !ok || off < 0 {
			return nil, "", invalidParams("cursor %q is not one this server gave out: omit it to start from the first page", cursor)
		}
	}
	if off >= len(items) {
		return []T{}, "", nil
	}
	end := min(off+size, len(items))
	next := ""
	if end < len(items) {
		next = base64.RawURLEncoding.EncodeToString([]byte("o:" + strconv.Itoa(end)))
	}
	return items[off:end], next, nil
}

// resSess is one session as the resources see it: a live one, read
// through the Session's accessors, or a stopped one, frozen when
// shell_stop removed it from the App.
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
	commands    []*command // finished commands (commands.go)
}

func liveSession(s *Session) *resSess {
	return &resSess{ID: s.ID, Command: s.Command, Started: s.Started, live: s}
}

// freezeSession copies what the resources show of s.
func freezeSession(s *Session) *resSess {
	v := liveSession(s)
	v.stopped = &stoppedSession{info: v.describe(true), buffer: s.Text(true), screenshots: s.Screenshots(), recordings: s.Recordings(), commands: s.commandsCopy()}
	v.stopped.info.CommandRunning = false
	v.stopped.info.Stopped = true
	v.live = nil
	return v
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
func (a *App) resSessions() []*resSess {
	var ss []*resSess
	for _, s := range a.listSessions() {
		ss = append(ss, liveSession(s))
	}
	a.res.mu.Lock()
	for _, v := range a.res.gone {
		if !slices.ContainsFunc(ss, func(x *resSess) bool { return x.ID == v.ID }) {
			ss = append(ss, v)
		}
	}
	a.res.mu.Unlock()
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
	shellInfo           // shell_integration, command_running (commands.go)
}

// describe is the session's sessions://list entry, or with info its
// session://{id}/info. A live session is read through its accessors, each
// under the session's lock.
func (v *resSess) describe(info bool) sessionJSON {
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
		ID: s.ID, Command: s.Command, Args: s.Args, Cols: st.Cols, Rows: st.Rows, PID: st.Pid,
		Started: s.Started, Exited: st.Exited, Signal: st.Signal, Recording: s.IsRecording(), Theme: s.Theme,
		RecordingEnded: s.RecordingEnded(), shellInfo: s.ShellInfo(),
	}
	if j.Args == nil {
		j.Args = []string{}
	}
	if st.Exited {
		j.ExitCode = &st.ExitCode
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
func (a *App) allResources() []resourceJSON {
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
	for _, s := range a.resSessions() {
		id := s.ID
		label := fmt.Sprintf("session %s (%s)", id, s.Command)
		out = append(out,
			resourceJSON{URI: infoURI(id).String(), Name: id + "/info", Title: label + " info", MimeType: "application/json",
				Description: "The session's command, size, pid, exit code, cwd and capture counts."},
			resourceJSON{URI: bufferURI(id).String(), Name: id + "/buffer", Title: label + " buffer", MimeType: "text/plain",
				Description: "Scrollback and screen as plain text, as shell_read returns them; subscribe for updates."},
			resourceJSON{URI: screenshotsURI(id).String(), Name: id + "/screenshots", Title: label + " screenshots", MimeType: "application/json",
				Description: "The session's screenshots: name, uri, created, width, height, bytes."})
		for _, c := range a.onDisk(s.Screenshots()) {
			out = append(out, resourceJSON{URI: captureURI(screenshotsURI(id), c), Name: id + "/screenshots/" + c.Name,
				Title: "Screenshot " + c.Name, MimeType: c.MimeType, Size: c.Bytes, Annotations: captureAnnotations(c),
				Description: fmt.Sprintf("%dx%d pixel screenshot of session %s, taken %s.", c.Width, c.Height, id, c.Created.UTC().Format(time.RFC3339))})
		}
		out = append(out, resourceJSON{URI: recordingsURI(id).String(), Name: id + "/recordings", Title: label + " recordings", MimeType: "application/json",
			Description: "The session's recordings: name, uri, created, frame_count, duration_ms, bytes."})
		for _, c := range a.onDisk(s.Recordings()) {
			out = append(out, resourceJSON{URI: captureURI(recordingsURI(id), c), Name: id + "/recordings/" + strings.TrimSuffix(c.Name, filepath.Ext(c.Path)) + filepath.Ext(c.Path),
				Title: "Recording " + c.Name, MimeType: c.MimeType, Size: c.Bytes, Annotations: captureAnnotations(c),
				Description: fmt.Sprintf("%d-frame, %.1f s recording of session %s, made %s.", c.FrameCount, float64(c.DurationMS)/1000, id, c.Created.UTC().Format(time.RFC3339))})
		}
		out = append(out, commandResources(id, label, s.commands())...)
	}
	return out
}

// cursorParams are the params of the paginated list methods.
type cursorParams struct {
	Cursor string `json:"cursor"`
}

// resourcesList is resources/list: {resources, nextCursor?}.
func (a *App) resourcesList(ctx context.Context, params json.RawMessage) (any, error) {
	var p cursorParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	page, next, err := paginate(a.allResources(), p.Cursor, a.res.perPage())
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
}

// resourceTemplates are the URI templates, one per shape of a
// session's or theme's resource (uri.go); completion/complete offers values
// for their {id} and {name}.
var resourceTemplates = []templateJSON{
	{"session://{id}/info", "session-info", "Session info", "One session: command, size, pid, exit code, cwd, capture counts, mouse mode. Ids: sessions://list.", "application/json"},
	{"session://{id}/buffer", "session-buffer", "Session buffer", "Scrollback and screen as plain text, as shell_read returns them.", "text/plain"},
	{"session://{id}/screenshots", "session-screenshots", "Session screenshots", "A session's screenshots: name, uri, created, width, height, bytes.", "application/json"},
	{"session://{id}/screenshots/{name}", "session-screenshot", "Screenshot", "One screenshot as a base64 PNG blob.", "image/png"},
	{"session://{id}/recordings", "session-recordings", "Session recordings", "A session's recordings: name, uri, created, frame_count, duration_ms, bytes.", "application/json"},
	{"session://{id}/recordings/{name}", "session-recording", "Recording", "One recording: the GIF as a base64 image/gif blob, or for name.cast the asciicast as application/x-asciicast text.", ""},
	{"session://{id}/commands", "session-commands", "Session commands", "The commands a shell with integration finished, oldest first: n, line, exit_code, started, duration_ms, cwd, output_bytes, uri.", "application/json"},
	{"session://{id}/commands/{n}", "session-command", "Command output", "One finished command's output as plain text (scrollback included).", "text/plain"},
	{"theme://{name}", "theme", "Theme", "One colour theme: background, foreground, cursor and the 16 ANSI colours as #rrggbb. Names: themes://list.", "application/json"},
}

// resourcesTemplatesList is resources/templates/list.
func (a *App) resourcesTemplatesList(ctx context.Context, params json.RawMessage) (any, error) {
	var p cursorParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	page, next, err := paginate(resourceTemplates, p.Cursor, a.res.perPage())
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
}

// uriParams are the params of resources/read, subscribe and unsubscribe.
type uriParams struct {
	URI string `json:"uri"`
}

// resourcesRead is resources/read {uri} -> {contents: [one entry]}.
func (a *App) resourcesRead(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	if p.URI == "" {
		return nil, invalidParams("uri is missing: pass a URI from resources/list, e.g. sessions://list")
	}
	c, err := a.readResourceCtx(ctx, p.URI)
	if err != nil {
		return nil, err
	}
	return map[string]any{"contents": []resourceContents{c}}, nil
}

// readResourceCtx resolves and reads one URI; ctx bounds the wait for a
// buffer's pending output. Errors are *RPCError: -32002 for anything that
// does not exist or does not parse.
func (a *App) readResourceCtx(ctx context.Context, uri string) (resourceContents, error) {
	u, err := parseResourceURI(uri)
	if err != nil {
		return resourceContents{}, notFound(uri, hintBadURI)
	}
	out := resourceContents{URI: uri, MimeType: "application/json"}
	var v any
	switch u.kind {
	case uriSessions:
		list := []sessionJSON{}
		for _, s := range a.resSessions() {
			list = append(list, s.describe(false))
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
	default:
		s := a.resSession(u.session)
		if s == nil {
			return out, notFound(uri, a.hintSession(u.session))
		}
		switch u.kind {
		case uriInfo:
			j := s.describe(true)
			ns, nr := len(a.onDisk(s.Screenshots())), len(a.onDisk(s.Recordings())) // as the lists count them
			j.Screenshots, j.Recordings = &ns, &nr
			v = j
		case uriBuffer:
			text := s.bufferText(ctx)
			out.MimeType, out.Text = "text/plain", &text
			return out, nil
		case uriScreenshots:
			v = captureList(u, a.onDisk(s.Screenshots()))
		case uriRecordings:
			v = captureList(u, a.onDisk(s.Recordings()))
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
			return a.readCaptureResource(out, u, s)
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

// readCaptureResource reads the screenshot or recording u of session s
// into out: an asciicast as text (JSON lines; the cast writer keeps it
// valid UTF-8), anything else (GIF, PNG) as a base64 blob.
func (a *App) readCaptureResource(out resourceContents, u resourceURI, s *resSess) (resourceContents, error) {
	list, cs := screenshotsURI(u.session), s.Screenshots()
	if u.kind == uriRecording {
		list, cs = recordingsURI(u.session), s.Recordings()
	}
	c, ok := findCapture(list, u.name, cs)
	if !ok {
		return out, notFound(out.URI, hintCapture(list, u.name, cs))
	}
	b, err := a.readCapture(out.URI, c)
	if err != nil {
		return out, err
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
func (a *App) resSession(id string) *resSess {
	a.mu.Lock()
	s := a.sessions[id]
	a.mu.Unlock()
	if s != nil {
		return liveSession(s)
	}
	a.res.mu.Lock()
	defer a.res.mu.Unlock()
	for i := len(a.res.gone) - 1; i >= 0; i-- {
		if a.res.gone[i].ID == id {
			return a.res.gone[i]
		}
	}
	return nil
}

// capturePathInRoot returns c's file as a path relative to the output
// directory, or false when it is not inside it.
func (a *App) capturePathInRoot(c Capture) (string, bool) {
	rel, err := filepath.Rel(a.cfg.OutputDir, c.Path)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return rel, true
}

// onDisk returns the captures of cs whose file is still a regular file in
// the output directory, checked as readCapture checks it: a capture whose
// file was deleted by hand is left out of its list, resources/list and the
// info's counts, so that no list names a capture a read says is gone.
func (a *App) onDisk(cs []Capture) []Capture {
	if len(cs) == 0 {
		return cs
	}
	root, err := os.OpenRoot(a.cfg.OutputDir)
	if err != nil {
		return nil
	}
	defer root.Close()
	out := make([]Capture, 0, len(cs))
	for _, c := range cs {
		if rel, ok := a.capturePathInRoot(c); ok {
			if fi, err := root.Stat(rel); err == nil && fi.Mode().IsRegular() {
				out = append(out, c)
			}
		}
	}
	return out
}

// readCapture reads c's file through os.Root on the output directory, so
// neither a recorded path nor a symlink planted there can lead outside.
// A missing file (deleted since) is -32002 for the URI; one over maxBlobBytes is
// refused with its path so the client can fetch it another way.
func (a *App) readCapture(uri string, c Capture) ([]byte, error) {
	gone := fmt.Sprintf("the file of %s (%s) is gone from the output directory", c.Name, c.Path)
	rel, ok := a.capturePathInRoot(c)
	if !ok {
		return nil, notFound(uri, gone)
	}
	root, err := os.OpenRoot(a.cfg.OutputDir)
	if err != nil {
		return nil, notFound(uri, gone)
	}
	defer root.Close()
	// Whatever keeps the file from being read in the root (gone, not a
	// regular file, a symlink out of it) makes the resource not found.
	fi, err := root.Stat(rel)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, notFound(uri, gone)
	}
	if fi.Size() > maxBlobBytes {
		return nil, &RPCError{Code: codeInternalError,
			Message: fmt.Sprintf("%s is %d bytes, over the %d-byte limit for a resource: read the file at %s instead", c.Name, fi.Size(), maxBlobBytes, c.Path)}
	}
	b, err := root.ReadFile(rel)
	if err != nil {
		return nil, notFound(uri, gone)
	}
	return b, nil
}

// resourcesSubscribe is resources/subscribe {uri}: any URI that
// subscribable takes may be subscribed, also for a capture or command of
// an existing session that is not made yet; a URI of no known shape, an
// unknown theme or session is -32002. Subscriptions are keyed by the parsed resourceURI (session://s1/%62uffer
// is session://s1/buffer), and subscribing twice is one subscription.
func (a *App) resourcesSubscribe(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	u, err := a.subscribable(p.URI)
	if err != nil {
		return nil, err
	}
	key := u
	r := &a.res
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.subs[key] != nil {
		return struct{}{}, nil
	}
	if len(r.subs) >= maxSubscriptions {
		return nil, invalidParams("already %d subscriptions: unsubscribe from some first", len(r.subs))
	}
	if r.subs == nil {
		r.subs = make(map[resourceURI]*debouncer)
	}
	r.subs[key] = &debouncer{uri: p.URI}
	r.nsubs.Store(int32(len(r.subs)))
	return struct{}{}, nil
}

// resourcesUnsubscribe is resources/unsubscribe {uri}. Once it returns, no
// updated notification for uri is sent (a pending one is dropped).
// Unsubscribing a URI that is not subscribed is not an error.
func (a *App) resourcesUnsubscribe(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := bindParams(params, &p); err != nil {
		return nil, err
	}
	r := &a.res
	if u, err := parseResourceURI(p.URI); err == nil { // no other URI can be subscribed
		r.mu.Lock()
		delete(r.subs, u)
		r.nsubs.Store(int32(len(r.subs)))
		r.mu.Unlock()
	}
	// Wait out a notification that passed its check before the delete.
	r.sendMu.Lock()
	r.sendMu.Unlock()
	return struct{}{}, nil
}
