package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// resFixture is an App with one session (id s1), two screenshots and one
// recording written as real PNG and GIF files into a temporary output
// directory, built without the PTY, screenshot or recording tools.
type resFixture struct {
	app   *App
	conn  *Server // a legacy connection whose notifications go to sink
	dir   string  // the output directory
	sess  *Session
	files map[string][]byte // capture URI -> file bytes

	mu   sync.Mutex
	sink func(method string, params any) // nil: notifications dropped
}

func newResFixture(t testing.TB) *resFixture {
	t.Helper()
	return fillResFixture(t, newApp(Config{OutputDir: t.TempDir(), Cols: 80, Rows: 24, Theme: "one-dark"}))
}

// fillResFixture adds the fixture's session and captures to app.
func fillResFixture(t testing.TB, app *App) *resFixture {
	t.Helper()
	f := &resFixture{app: app, dir: app.cfg.OutputDir, files: map[string][]byte{}}
	f.conn = testConn(app, func(method string, params any) {
		f.mu.Lock()
		sink := f.sink
		f.mu.Unlock()
		if sink != nil {
			sink(method, params)
		}
	})
	f.sess = f.addSession(t, "s1", time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC))
	f.addScreenshot(t, f.sess, "first", 16, 32)
	f.addScreenshot(t, f.sess, "second", 24, 32)
	f.addRecording(t, f.sess, "demo")
	f.addCommand(f.sess, "make", "ok")
	return f
}

func (f *resFixture) addSession(t testing.TB, id string, started time.Time) *Session {
	t.Helper()
	s := &Session{ID: id, Command: "bash", Args: []string{"-l"}, Cwd: "/home/me", Theme: "one-dark", Started: started,
		term: NewTerminal(80, 24, 100), pid: 4242}
	addTestSession(f.app, s)
	f.app.tools.openTrace(s, true) // as shell_start {trace: true} does
	if err := os.MkdirAll(filepath.Join(f.dir, id), 0o700); err != nil {
		t.Fatal(err)
	}
	return s
}

// addCommand adds a finished command (exit status 0) to s, as its
// shell's marks would have.
func (f *resFixture) addCommand(s *Session, line, output string) {
	code := 0
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sh.next++
	at := time.Date(2026, 11, 30, 6, 1, 0, 0, time.UTC)
	s.sh.cmds = append(s.sh.cmds, &command{n: s.sh.next, line: line, exitCode: &code, started: at, ended: at.Add(time.Second),
		output: output, outBytes: len(output), drawn: true})
	s.sh.ended++
}

func (f *resFixture) writeFile(t testing.TB, id, file string, b []byte) string {
	t.Helper()
	p := filepath.Join(f.dir, id, file)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *resFixture) addScreenshot(t testing.TB, s *Session, name string, w, h int) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{0xff, 0, 0, 0xff})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	uri := screenshotURI(s.ID, name).String()
	f.files[uri] = buf.Bytes()
	s.AddScreenshot(Capture{Name: name, URI: uri, Path: f.writeFile(t, s.ID, name+".png", buf.Bytes()), MimeType: "image/png",
		Created: time.Now(), Width: w, Height: h, Bytes: int64(buf.Len())})
}

func (f *resFixture) addRecording(t testing.TB, s *Session, name string) {
	t.Helper()
	pal := color.Palette{color.Black, color.White}
	g := &gif.GIF{}
	for i := range 3 {
		fr := image.NewPaletted(image.Rect(0, 0, 8, 8), pal)
		fr.SetColorIndex(i, i, 1)
		g.Image, g.Delay = append(g.Image, fr), append(g.Delay, 10)
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		t.Fatal(err)
	}
	uri := recordingURI(s.ID, name).String()
	f.files[uri] = buf.Bytes()
	s.AddRecording(Capture{Name: name, URI: uri, Path: f.writeFile(t, s.ID, name+".gif", buf.Bytes()), MimeType: "image/gif",
		Created: time.Now(), Bytes: int64(buf.Len()), FrameCount: 3, DurationMS: 300})
}

// call runs one of the resource methods with params marshalled from p.
func (f *resFixture) call(t testing.TB, method string, p any) (json.RawMessage, error) {
	t.Helper()
	m := f.conn.methods[method].handle
	if m == nil {
		t.Fatalf("no resources/*, prompts/* or completion/complete method %s", method)
	}
	raw, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	v, err := m(f.conn, context.Background(), &message{Params: raw})
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: result does not marshal: %v", method, err)
	}
	return out, nil
}

// mustCall is call that fails the test on an error and decodes into v.
func (f *resFixture) mustCall(t testing.TB, method string, p, v any) {
	t.Helper()
	out, err := f.call(t, method, p)
	if err != nil {
		t.Fatalf("%s %v: %v", method, p, err)
	}
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("%s: %v in %s", method, err, out)
	}
}

func rpcCode(err error) int {
	var e *RPCError
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

type readResult struct {
	Contents []struct {
		URI      string `json:"uri"`
		MimeType string `json:"mimeType"`
		Text     string `json:"text"`
		Blob     string `json:"blob"`
	} `json:"contents"`
}

func (f *resFixture) read(t testing.TB, uri string) (mime, text string, blob []byte) {
	t.Helper()
	var r readResult
	f.mustCall(t, "resources/read", map[string]string{"uri": uri}, &r)
	if len(r.Contents) != 1 || r.Contents[0].URI != uri {
		t.Fatalf("read %s: contents %+v, want one entry for the uri", uri, r.Contents)
	}
	c := r.Contents[0]
	if c.Blob != "" {
		b, err := base64.StdEncoding.DecodeString(c.Blob)
		if err != nil {
			t.Fatalf("read %s: blob is not base64: %v", uri, err)
		}
		blob = b
	}
	return c.MimeType, c.Text, blob
}

func TestResourcesList(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	var r struct {
		Resources []struct {
			URI, Name, Title, Description, MimeType string
			Size                                    int64
			Annotations                             struct{ LastModified time.Time }
		}
		NextCursor string
	}
	f.mustCall(t, "resources/list", map[string]any{}, &r)
	var got []string
	for _, res := range r.Resources {
		got = append(got, res.URI)
		if res.Name == "" || res.MimeType == "" || res.Description == "" {
			t.Errorf("%s: name %q, mimeType %q, description %q: want all set", res.URI, res.Name, res.MimeType, res.Description)
		}
		if b, ok := f.files[res.URI]; ok {
			if res.Size != int64(len(b)) {
				t.Errorf("%s: size %d, want %d", res.URI, res.Size, len(b))
			}
			if res.Annotations.LastModified.IsZero() {
				t.Errorf("%s: no annotations.lastModified", res.URI)
			}
		}
	}
	want := []string{"sessions://list", "themes://list"}
	for _, th := range themeList {
		want = append(want, "theme://"+th.Name)
	}
	want = append(want,
		"session://s1/info", "session://s1/buffer",
		"session://s1/screenshots", "session://s1/screenshots/first", "session://s1/screenshots/second",
		"session://s1/recordings", "session://s1/recordings/demo", "session://s1/commands", "session://s1/commands/1",
		"session://s1/tape", "session://s1/trace")
	if !slices.Equal(got, want) {
		t.Errorf("resources/list:\n got %q\nwant %q", got, want)
	}
	if r.NextCursor != "" {
		t.Errorf("nextCursor %q on a short list, want none", r.NextCursor)
	}
}

func TestResourcesPagination(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	f.addSession(t, "s2", f.sess.Started.Add(time.Second))
	f.app.hub.res.pageSize = 3
	var all []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("pagination does not end")
		}
		var r struct {
			Resources  []struct{ URI string }
			NextCursor string
		}
		f.mustCall(t, "resources/list", map[string]any{"cursor": cursor}, &r)
		if len(r.Resources) > 3 {
			t.Fatalf("page of %d, want at most 3", len(r.Resources))
		}
		for _, res := range r.Resources {
			all = append(all, res.URI)
		}
		if r.NextCursor == "" {
			break
		}
		cursor = r.NextCursor
	}
	var want []string
	for _, res := range f.app.hub.allResources() {
		want = append(want, res.URI)
	}
	if !slices.Equal(all, want) {
		t.Errorf("pages joined:\n got %q\nwant %q", all, want)
	}
	if !slices.Contains(all, "session://s2/info") {
		t.Errorf("second session missing from %q", all)
	}
	for _, bad := range []string{"x", "!!!", base64.RawURLEncoding.EncodeToString([]byte("o:-1")), base64.RawURLEncoding.EncodeToString([]byte("o:1e3"))} {
		for _, m := range []string{"resources/list", "resources/templates/list", "prompts/list"} {
			if _, err := f.call(t, m, map[string]any{"cursor": bad}); rpcCode(err) != codeInvalidParams {
				t.Errorf("%s cursor %q: %v, want -32602", m, bad, err)
			}
		}
	}
}

func TestResourceTemplates(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	var r struct {
		ResourceTemplates []struct{ URITemplate, Name, Description string }
	}
	f.mustCall(t, "resources/templates/list", nil, &r)
	fill := strings.NewReplacer("{id}", "s1", "{name}", "first", "{n}", "1")
	var got []string
	for _, tm := range r.ResourceTemplates {
		got = append(got, tm.URITemplate)
		uri := fill.Replace(tm.URITemplate)
		switch {
		case strings.HasPrefix(uri, "theme://"):
			uri = "theme://" + themeList[0].Name
		case strings.Contains(uri, "/recordings/"):
			uri = strings.Replace(uri, "first", "demo", 1)
		}
		if _, err := f.call(t, "resources/read", map[string]string{"uri": uri}); err != nil {
			t.Errorf("template %s as %s: %v", tm.URITemplate, uri, err)
		}
	}
	want := []string{"session://{id}/info", "session://{id}/buffer", "session://{id}/screenshots", "session://{id}/screenshots/{name}",
		"session://{id}/recordings", "session://{id}/recordings/{name}", "session://{id}/commands", "session://{id}/commands/{n}",
		"session://{id}/trace", "session://{id}/tape", "theme://{name}"}
	if !slices.Equal(got, want) {
		t.Errorf("templates %q, want %q", got, want)
	}
}

func TestResourcesRead(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	f.sess.mu.Lock()
	f.sess.exited, f.sess.exitCode = true, 3
	f.sess.mu.Unlock()

	t.Run("sessions", func(t *testing.T) {
		mime, text, _ := f.read(t, "sessions://list")
		var list []map[string]any
		if err := json.Unmarshal([]byte(text), &list); err != nil || mime != "application/json" {
			t.Fatalf("%s %v: %s", mime, err, text)
		}
		if len(list) != 1 || list[0]["id"] != "s1" || list[0]["command"] != "bash" || list[0]["exited"] != true ||
			list[0]["exit_code"] != 3.0 || list[0]["cols"] != 80.0 || list[0]["pid"] != 4242.0 {
			t.Errorf("sessions://list = %s", text)
		}
		for _, k := range []string{"args", "rows", "started", "recording", "theme"} {
			if _, ok := list[0][k]; !ok {
				t.Errorf("sessions://list entry lacks %q: %s", k, text)
			}
		}
	})
	t.Run("info", func(t *testing.T) {
		_, text, _ := f.read(t, "session://s1/info")
		var info map[string]any
		if err := json.Unmarshal([]byte(text), &info); err != nil {
			t.Fatal(err)
		}
		if info["cwd"] != "/home/me" || info["screenshot_count"] != 2.0 || info["recording_count"] != 1.0 || info["id"] != "s1" {
			t.Errorf("info = %s", text)
		}
	})
	t.Run("capture lists", func(t *testing.T) { checkReadCaptureLists(t, f) })
	t.Run("blobs", func(t *testing.T) { checkReadBlobs(t, f) })
	t.Run("themes", func(t *testing.T) {
		_, text, _ := f.read(t, "themes://list")
		var list []map[string]string
		if err := json.Unmarshal([]byte(text), &list); err != nil || len(list) != len(themeList) {
			t.Fatalf("themes://list %v: %s", err, text)
		}
		for i, th := range themeList {
			if list[i]["name"] != th.Name || list[i]["type"] != th.Type {
				t.Errorf("themes://list[%d] = %v, want %s %s", i, list[i], th.Name, th.Type)
			}
		}
	})
}

// checkReadCaptureLists reads the capture lists: the names in order and
// the sizes of the files.
func checkReadCaptureLists(t *testing.T, f *resFixture) {
	for _, tc := range []struct {
		uri   string
		names []string
	}{
		{"session://s1/screenshots", []string{"first", "second"}},
		{"session://s1/recordings", []string{"demo"}},
	} {
		_, text, _ := f.read(t, tc.uri)
		var list []struct {
			Name, URI  string
			Bytes      int64
			Width      int
			FrameCount int `json:"frame_count"`
		}
		if err := json.Unmarshal([]byte(text), &list); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range list {
			names = append(names, c.Name)
			if int64(len(f.files[c.URI])) != c.Bytes {
				t.Errorf("%s: %s bytes %d, want %d", tc.uri, c.URI, c.Bytes, len(f.files[c.URI]))
			}
		}
		if !slices.Equal(names, tc.names) {
			t.Errorf("%s names %q, want %q (%s)", tc.uri, names, tc.names, text)
		}
	}
}

// checkReadBlobs reads every capture: the blob is the file and decodes.
func checkReadBlobs(t *testing.T, f *resFixture) {
	for uri, want := range f.files {
		mime, _, blob := f.read(t, uri)
		if !bytes.Equal(blob, want) {
			t.Errorf("%s: blob differs from the file (%d vs %d bytes)", uri, len(blob), len(want))
		}
		switch mime {
		case "image/png":
			if _, err := png.Decode(bytes.NewReader(blob)); err != nil {
				t.Errorf("%s: %v", uri, err)
			}
		case "image/gif":
			g, err := gif.DecodeAll(bytes.NewReader(blob))
			if err != nil || len(g.Image) != 3 {
				t.Errorf("%s: %v", uri, err)
			}
		default:
			t.Errorf("%s: mimeType %q", uri, mime)
		}
	}
}

func TestResourceTheme(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	for _, th := range themeList {
		_, text, _ := f.read(t, "theme://"+th.Name)
		var got struct {
			Name, Type, Background, Foreground, Cursor string
			ANSI                                       []string
		}
		if err := json.Unmarshal([]byte(text), &got); err != nil {
			t.Fatal(err)
		}
		bg := th.Background
		if got.Name != th.Name || got.Type != th.Type || len(got.ANSI) != 16 || got.Background != hexColor(bg) {
			t.Errorf("theme://%s = %s", th.Name, text)
		}
		for _, c := range append([]string{got.Background, got.Foreground, got.Cursor}, got.ANSI...) {
			if len(c) != 7 || c[0] != '#' || strings.Trim(c[1:], "0123456789abcdef") != "" {
				t.Errorf("theme://%s: colour %q is not #rrggbb", th.Name, c)
			}
		}
	}
	// Dracula's published palette (draculatheme.com/contribute).
	_, text, _ := f.read(t, "theme://dracula")
	var d struct {
		Background, Foreground string
		ANSI                   []string
	}
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		t.Fatal(err)
	}
	if d.Background != "#282a36" || d.Foreground != "#f8f8f2" || len(d.ANSI) != 16 || d.ANSI[1] != "#ff5555" || d.ANSI[2] != "#50fa7b" {
		t.Errorf("theme://dracula = %s, want background #282a36, foreground #f8f8f2, red #ff5555, green #50fa7b", text)
	}
}

func TestResourceBuffer(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	f.sess.mu.Lock()
	f.sess.term.Write([]byte("hello\r\nworld\r\n"))
	f.sess.mu.Unlock()
	mime, text, _ := f.read(t, "session://s1/buffer")
	if mime != "text/plain" {
		t.Errorf("buffer mimeType %q", mime)
	}
	if text != "hello\nworld\n" {
		t.Errorf("buffer = %q, want %q (the cursor's empty row is kept, as shell_read keeps it)", text, "hello\nworld\n")
	}
}

func TestResourceNotFound(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	// A file outside the output directory, and ways to try to reach it.
	outside := filepath.Join(filepath.Dir(f.dir), filepath.Base(f.dir)+"-secret.png")
	if err := os.WriteFile(outside, f.files["session://s1/screenshots/first"], 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(outside) })
	f.sess.AddScreenshot(Capture{Name: "escape", URI: "session://s1/screenshots/escape", Path: outside, MimeType: "image/png"})
	link := filepath.Join(f.dir, "s1", "link.png")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	f.sess.AddScreenshot(Capture{Name: "link", URI: "session://s1/screenshots/link", Path: link, MimeType: "image/png"})
	f.sess.AddScreenshot(Capture{Name: "gone", URI: "session://s1/screenshots/gone", Path: filepath.Join(f.dir, "s1", "gone.png"), MimeType: "image/png"})

	for _, uri := range []string{
		"session://nope/info",
		"session://nope/screenshots/first",
		"session://s1/screenshots/missing",
		"session://s1/recordings/first",
		"session://x/screenshots/../../etc",
		"session://s1/screenshots/../../../etc/passwd",
		"session://s1/screenshots/%2e%2e",
		"session://s1/screenshots/..%2F..%2Fetc",
		"session://s1/screenshots/%252e%252e",
		"session://s1/screenshots/first%00",
		"session://s1/screenshots/first\x00",
		"session://s1/screenshots/" + filepath.Base(outside),
		"session://s1/screenshots/escape",
		"session://s1/screenshots/link",
		"session://s1/screenshots/gone",
		"session://s1/screenshots/",
		"session://s1/screenshots/first/",
		"session://s1/screenshots/first?x=1",
		"session://s1/screenshots//first",
		"session://s1//info",
		"session://s1/bogus",
		"session:///info",
		"session://%20s1/info",
		"session://.s1/info",
		"sessions://all",
		"theme://none",
		"theme://../dracula",
		"file:///etc/passwd",
		"/etc/passwd",
		"",
		"sessions:/list",
		strings.Repeat("a", maxURILen+1),
	} {
		_, err := f.call(t, "resources/read", map[string]string{"uri": uri})
		var e *RPCError
		if !errors.As(err, &e) || e.Code != codeResourceNotFound && !(uri == "" && e.Code == codeInvalidParams) {
			t.Errorf("read %q: %v, want -32002", uri, err)
			continue
		}
		if uri != "" {
			if d, ok := e.Data.(map[string]string); !ok || d["uri"] != uri {
				t.Errorf("read %q: data %v, want {uri}", uri, e.Data)
			}
		}
	}
	// Percent-decoding once is fine for names that need none.
	if _, err := f.call(t, "resources/read", map[string]string{"uri": "session://s1/screenshots/%66irst"}); err != nil {
		t.Errorf("percent-encoded name: %v", err)
	}
	if _, err := f.call(t, "resources/read", json.RawMessage(`{"uri": 5}`)); rpcCode(err) != codeInvalidParams {
		t.Errorf("uri as number: %v, want -32602", err)
	}
}

// notes records the notifications of a fixture's connection.
type notes struct {
	mu   sync.Mutex
	got  []note
	wake chan struct{}
}

type note struct {
	method string
	uri    string
	at     time.Time
}

func listenNotes(f *resFixture) *notes {
	n := &notes{wake: make(chan struct{}, 1)}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sink = func(method string, params any) {
		uri := ""
		if m, ok := params.(map[string]string); ok {
			uri = m["uri"]
		}
		n.mu.Lock()
		n.got = append(n.got, note{method, uri, time.Now()})
		n.mu.Unlock()
		select {
		case n.wake <- struct{}{}:
		default:
		}
	}
	return n
}

// count returns how many notifications of method (and uri, if not "") came.
func (n *notes) count(method, uri string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, x := range n.got {
		if x.method == method && (uri == "" || x.uri == uri) {
			c++
		}
	}
	return c
}

// waitFor waits until count(method, uri) >= want or d passes.
func (n *notes) waitFor(method, uri string, want int, d time.Duration) bool {
	deadline := time.After(d)
	for n.count(method, uri) < want {
		select {
		case <-n.wake:
		case <-deadline:
			return false
		}
	}
	return true
}

func subscribe(t testing.TB, f *resFixture, method, uri string) {
	t.Helper()
	if _, err := f.call(t, method, map[string]string{"uri": uri}); err != nil {
		t.Fatalf("%s %s: %v", method, uri, err)
	}
}

// flood calls resourceUpdated(u) in a tight loop for d; it returns when
// it began and when the last call began.
func flood(a *App, u resourceURI, d time.Duration) (start, last time.Time) {
	start = time.Now()
	for time.Since(start) < d {
		last = time.Now()
		a.hub.resourceUpdated(u)
		a.hub.resourceUpdated(infoURI("s1")) // not subscribed: ignored
		time.Sleep(100 * time.Microsecond)
	}
	return start, last
}

// notificationsSettled reports whether h has no resource notification
// armed or on its way, for any watcher, nor for the debouncers in also
// (ones a watcher dropped): from then on none comes without a new
// change. It holds sendMu as fire does, so a send in progress counts.
func notificationsSettled(h *mcpHub, also ...*debouncer) bool {
	r := &h.res
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	for w := range r.watchers {
		also = append(also, w.list)
		for _, d := range w.uris {
			also = append(also, d)
		}
	}
	return !slices.ContainsFunc(also, func(d *debouncer) bool { return d != nil && d.pending })
}

// waitSettled waits until notificationsSettled(h, also...): every
// notification the changes so far armed has been sent or dropped.
func waitSettled(t testing.TB, h *mcpHub, also ...*debouncer) {
	t.Helper()
	waitFor(t, func() bool { return notificationsSettled(h, also...) })
}

// deadlockGuard bounds waits for a notification that must come: long
// enough for a loaded CI machine, so no test asserts a latency.
const deadlockGuard = 10 * time.Second

func TestResourceSubscribe(t *testing.T) {
	t.Parallel()
	const updated = "notifications/resources/updated"
	for _, interval := range []time.Duration{20 * time.Millisecond, defaultUpdateInterval} {
		if interval == defaultUpdateInterval && testing.Short() {
			continue
		}
		t.Run(interval.String(), func(t *testing.T) {
			t.Parallel()
			f := newResFixture(t)
			f.app.hub.res.interval = interval
			n := listenNotes(f)
			const buf = "session://s1/buffer"
			bufURI := bufferURI("s1")
			f.app.hub.resourceUpdated(bufURI) // not subscribed yet: nothing
			subscribe(t, f, "resources/subscribe", buf)
			subscribe(t, f, "resources/subscribe", buf) // twice is once

			// One change: one notification, at once (the leading edge).
			t0 := time.Now()
			f.app.hub.resourceUpdated(bufURI)
			if !n.waitFor(updated, buf, 1, deadlockGuard) {
				t.Fatal("no notifications/resources/updated after a change")
			}
			t.Logf("interval %v: first updated %v after the change", interval, time.Since(t0))

			// A flood: at most one per interval, and the trailing edge
			// arrives after it ends. Once nothing is armed, every
			// notification of the flood has come.
			before := n.count(updated, buf)
			start, lastCall := flood(f.app, bufURI, 4*interval+interval/2)
			waitSettled(t, f.app.hub)
			end := time.Now()
			got, trailing := 0, false
			n.mu.Lock()
			for _, x := range n.got[before:] {
				if x.method == updated && !x.at.Before(start) {
					got++
				}
				trailing = trailing || x.method == updated && !x.at.Before(lastCall)
			}
			n.mu.Unlock()
			if !trailing {
				t.Error("no updated after the last change of a flood: the trailing edge was lost")
			}
			// Sends are spaced by at least the interval, so a span of
			// length L holds at most L/interval+1 of them (+1 for the one
			// whose timer was armed just before the flood).
			limit := int(end.Sub(start)/interval) + 2
			if got > limit {
				t.Errorf("%d notifications from a %v flood to %v after it, want at most %d", got, lastCall.Sub(start), end.Sub(lastCall), limit)
			}
			if n.count(updated, "session://s1/info") != 0 {
				t.Error("updated for a URI nobody subscribed to")
			}
			t.Logf("interval %v: %d notifications in %v", interval, got, end.Sub(start))

			// Unsubscribe: nothing more, not even a pending trailing one
			// (its timer fires and drops it).
			f.app.hub.resourceUpdated(bufURI)
			f.app.hub.resourceUpdated(bufURI)
			f.app.hub.res.mu.Lock()
			dropped := f.conn.watch.uris[bufURI]
			f.app.hub.res.mu.Unlock()
			subscribe(t, f, "resources/unsubscribe", buf)
			after := n.count(updated, buf)
			flood(f.app, bufURI, 3*interval)
			waitSettled(t, f.app.hub, dropped)
			if c := n.count(updated, buf); c != after {
				t.Errorf("%d notifications after unsubscribe", c-after)
			}
		})
	}
}

func TestResourceSubscribeErrors(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	if _, err := f.call(t, "resources/subscribe", map[string]string{"uri": "session://x/screenshots/../../etc"}); rpcCode(err) != codeResourceNotFound {
		t.Errorf("subscribe to a bad URI: %v, want -32002", err)
	}
	if _, err := f.call(t, "resources/subscribe", map[string]string{}); rpcCode(err) != codeInvalidParams {
		t.Errorf("subscribe without a uri: %v, want -32602", err)
	}
	// Another spelling of a subscribed URI is the same subscription, and
	// notifications use the spelling the client subscribed with.
	f.app.hub.res.interval = time.Millisecond
	n := listenNotes(f)
	subscribe(t, f, "resources/subscribe", "SESSION://s1/%62uffer")
	f.app.hub.resourceUpdated(bufferURI("s1"))
	if !n.waitFor("notifications/resources/updated", "SESSION://s1/%62uffer", 1, deadlockGuard) {
		t.Error("no updated for a percent-encoded subscription")
	}
	subscribe(t, f, "resources/unsubscribe", "session://s1/buffer")
	f.app.hub.res.mu.Lock()
	if len(f.conn.watch.uris) != 0 {
		t.Errorf("subscriptions left after unsubscribing another spelling: %v", f.conn.watch.uris)
	}
	f.app.hub.res.mu.Unlock()
	// A session that does not exist is refused as resources/read refuses
	// it; a capture or command of an existing one that is not made yet,
	// and a stopped session still kept readable, may be subscribed to.
	for _, uri := range []string{"session://s9/buffer", "session://shell-999/info", "session://s9/screenshots/later"} {
		_, err := f.call(t, "resources/subscribe", map[string]string{"uri": uri})
		var re *RPCError
		if !errors.As(err, &re) || re.Code != codeResourceNotFound || !strings.Contains(re.Message, "the sessions are s1") {
			t.Errorf("subscribe %s: %v, want -32002 naming the sessions", uri, err)
		}
	}
	subscribe(t, f, "resources/subscribe", "session://s1/screenshots/later")
	subscribe(t, f, "resources/subscribe", "session://s1/commands/99")
	subscribe(t, f, "resources/unsubscribe", "session://never/buffer")
	f.app.sessions.Remove(f.addSession(t, "s2", time.Now())) // as shell_stop does
	subscribe(t, f, "resources/subscribe", "session://s2/info")
	f.app.hub.res.mu.Lock()
	for i := len(f.conn.watch.uris); i < maxSubscriptions; i++ {
		f.conn.watch.uris[infoURI("fill"+strconv.Itoa(i))] = &debouncer{}
	}
	f.app.hub.res.mu.Unlock()
	if _, err := f.call(t, "resources/subscribe", map[string]string{"uri": "session://s1/info"}); rpcCode(err) != codeInvalidParams {
		t.Errorf("subscription %d: %v, want -32602", maxSubscriptions+1, err)
	}
}

// TestResourceListChanged: list changes coalesce into list_changed, and
// updated goes only to the resources whose content changed: a burst of
// list changes updates nothing by itself, a finished command updates the
// info, the commands and sessions://list (it shows command_running) but
// not the screenshots, and a screenshot updates its list and the info but
// not sessions://list (it shows no captures).
func TestResourceListChanged(t *testing.T) {
	t.Parallel()
	const changed, updated = "notifications/resources/list_changed", "notifications/resources/updated"
	f := newResFixture(t)
	f.app.hub.res.interval = 20 * time.Millisecond
	n := listenNotes(f)
	subscribed := []string{"sessions://list", "session://s1/info", "session://s1/screenshots", "session://s1/recordings",
		"session://s1/commands", "session://s1/buffer"}
	for _, u := range subscribed {
		subscribe(t, f, "resources/subscribe", u)
	}
	counts := func() map[string]int {
		m := map[string]int{}
		for _, u := range subscribed {
			m[u] = n.count(updated, u)
		}
		return m
	}
	// settle waits out every notification the last change armed, and
	// checks that list_changed still comes.
	settle := func() {
		t.Helper()
		waitSettled(t, f.app.hub)
		before := n.count(changed, "")
		f.app.hub.resourceListChanged()
		if !n.waitFor(changed, "", before+1, deadlockGuard) {
			t.Fatal("no list_changed after a change")
		}
		waitSettled(t, f.app.hub)
	}

	// A burst of changes (start, screenshot, record stop, stop) coalesces:
	// sends are spaced by the interval, so the burst holds at most
	// span/interval+1 of them, and one trailing edge may follow.
	start := time.Now()
	for range 50 {
		f.app.hub.resourceListChanged()
	}
	span := time.Since(start)
	waitSettled(t, f.app.hub)
	if n.count(changed, "") == 0 {
		t.Fatal("no list_changed after a burst of changes")
	}
	if c, limit := n.count(changed, ""), int(span/f.app.hub.res.interval)+2; c > limit {
		t.Errorf("%d list_changed for one burst of 50 in %v, want at most %d", c, span, limit)
	}
	settle()
	for u, c := range counts() {
		if c != 0 {
			t.Errorf("%s got %d updated from list changes alone", u, c)
		}
	}

	for _, step := range []struct {
		name   string
		change func()
		want   []string // updated; every other subscribed URI gets none
	}{
		{"a command ends", func() { f.addCommand(f.sess, "ls", "x"); f.sess.Emit(Event{Kind: EventCommand, Ended: true}) },
			[]string{"session://s1/info", "sessions://list", "session://s1/commands"}},
		{"a screenshot", func() {
			if r := callTool(t, f.app, "shell_screenshot", `{"session_id":"s1","name":"third"}`); r.IsError {
				t.Fatalf("shell_screenshot: %+v", r)
			}
		}, []string{"session://s1/info", "session://s1/screenshots"}},
	} {
		before := counts()
		step.change()
		for _, u := range step.want {
			if !n.waitFor(updated, u, before[u]+1, deadlockGuard) {
				t.Errorf("%s: no updated for %s", step.name, u)
			}
		}
		settle()
		for u, c := range counts() {
			if !slices.Contains(step.want, u) && c != before[u] {
				t.Errorf("%s: %d updated for %s, whose content did not change", step.name, c-before[u], u)
			}
		}
	}
}

func FuzzResourceURI(f *testing.F) {
	for _, s := range []string{
		"sessions://list", "themes://list", "theme://one-dark", "session://s1/info", "session://s1/buffer",
		"session://s1/screenshots", "session://s1/screenshots/first", "session://s1/recordings/demo",
		"session://s1/recordings/demo.gif", "session://x/screenshots/../../etc", "session://s1/screenshots/%2e%2e%2fx",
		"session://s1/screenshots/first%00", "theme://%64racula", "session://s1/screenshots/link",
	} {
		f.Add(s)
	}
	fx := newResFixture(f)
	outside := filepath.Join(filepath.Dir(fx.dir), filepath.Base(fx.dir)+"-fuzz.png")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.Remove(outside) })
	if err := os.Symlink(outside, filepath.Join(fx.dir, "s1", "link.png")); err != nil {
		f.Fatal(err)
	}
	fx.sess.AddScreenshot(Capture{Name: "link", Path: filepath.Join(fx.dir, "s1", "link.png"), MimeType: "image/png"})
	f.Fuzz(func(t *testing.T, uri string) {
		u, perr := parseResourceURI(uri)
		if perr == nil {
			for _, part := range []string{u.session, u.name} {
				if strings.ContainsAny(part, "/\\\x00") || strings.Contains(part, "..") {
					t.Fatalf("%q parsed to %+v", uri, u)
				}
			}
			if v, err := parseResourceURI(u.String()); err != nil || v != u {
				t.Fatalf("%q: canonical %q reparses to %+v, %v", uri, u.String(), v, err)
			}
		}
		c, err := fx.app.hub.readResource(uri)
		if err != nil {
			if rpcCode(err) != codeResourceNotFound {
				t.Fatalf("%q: %v, want -32002", uri, err)
			}
			return
		}
		if perr != nil {
			t.Fatalf("%q: read although it does not parse", uri)
		}
		if c.Blob != nil {
			b, _ := base64.StdEncoding.DecodeString(*c.Blob)
			if string(b) == "secret" {
				t.Fatalf("%q read the file outside the output directory", uri)
			}
			found := false
			for _, want := range fx.files {
				found = found || bytes.Equal(b, want)
			}
			if !found {
				t.Fatalf("%q: blob is no capture file", uri)
			}
		}
	})
}

// BenchmarkResourceUpdated measures the hook the PTY path calls on every
// screen change: with nothing subscribed, with other URIs subscribed, and
// for a subscribed URI inside its debounce interval.
func BenchmarkResourceUpdated(b *testing.B) {
	f := newResFixture(b)
	const buf = "session://s1/buffer"
	bufURI := bufferURI("s1")
	b.Run("none-subscribed", func(b *testing.B) {
		for b.Loop() {
			f.app.hub.resourceUpdated(bufURI)
		}
	})
	for i := range 100 {
		subscribe(b, f, "resources/subscribe", bufferURI("other"+strconv.Itoa(i)).String())
	}
	b.Run("others-subscribed", func(b *testing.B) {
		for b.Loop() {
			f.app.hub.resourceUpdated(bufURI)
		}
	})
	f.app.hub.res.interval = time.Hour
	subscribe(b, f, "resources/subscribe", buf)
	f.app.hub.resourceUpdated(bufURI) // arms the timer: every further call is covered by it
	b.Run("subscribed-pending", func(b *testing.B) {
		for b.Loop() {
			f.app.hub.resourceUpdated(bufURI)
		}
	})
}

// BenchmarkResourceReadBlob measures resources/read of a 1 MiB capture
// (os.Root open, read, base64, JSON).
func BenchmarkResourceReadBlob(b *testing.B) {
	f := newResFixture(b)
	data := bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 1<<18)
	f.sess.AddScreenshot(Capture{Name: "big", URI: "session://s1/screenshots/big", MimeType: "image/png",
		Path: f.writeFile(b, "s1", "big.png", data), Bytes: int64(len(data))})
	m := f.conn.methods["resources/read"].handle
	params := &message{Params: json.RawMessage(`{"uri":"session://s1/screenshots/big"}`)}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		v, err := m(f.conn, context.Background(), params)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}

// TestResourcesProtocol drives the resource methods through the JSON-RPC
// loop: capabilities, list, read, errors with their codes and data,
// subscribe, notifications, unsubscribe, prompts and completion.
func TestResourcesProtocol(t *testing.T) {
	t.Parallel()
	var f *resFixture
	c := startAppServer(t, nil, func(a *App, s *Server) {
		f = fillResFixture(t, a)
		a.hub.res.interval = 20 * time.Millisecond
	})
	init := c.initialize("2025-06-18")
	caps, _ := init["capabilities"].(map[string]any)
	res, _ := caps["resources"].(map[string]any)
	if res["subscribe"] != true || res["listChanged"] != true || caps["prompts"] == nil || caps["completions"] == nil {
		t.Errorf("capabilities %v: want resources {subscribe, listChanged}, prompts, completions", caps)
	}

	id := 1
	req := func(method string, params any) reply {
		t.Helper()
		id++
		return c.request(id, method, params)
	}
	var list struct {
		Resources []struct{ URI, MimeType string }
	}
	r := req("resources/list", nil)
	if r.Error != nil || json.Unmarshal(r.Result, &list) != nil {
		t.Fatalf("resources/list: %+v", r)
	}
	var uris []string
	for _, x := range list.Resources {
		uris = append(uris, x.URI)
	}
	for uri := range f.files {
		if !slices.Contains(uris, uri) {
			t.Errorf("resources/list lacks %s: %q", uri, uris)
		}
	}

	r = req("resources/read", map[string]string{"uri": "session://s1/recordings/demo"})
	var rd readResult
	if r.Error != nil || json.Unmarshal(r.Result, &rd) != nil || len(rd.Contents) != 1 {
		t.Fatalf("resources/read: %+v", r)
	}
	if b, err := base64.StdEncoding.DecodeString(rd.Contents[0].Blob); err != nil || !bytes.Equal(b, f.files["session://s1/recordings/demo"]) || rd.Contents[0].MimeType != "image/gif" {
		t.Errorf("recording blob: %v, mimeType %q", err, rd.Contents[0].MimeType)
	}

	checkProtocolErrors(t, req)

	checkProtocolSubscription(t, c, f, req)

	var pr promptResult
	r = req("prompts/get", map[string]any{"name": "vim-edit", "arguments": map[string]string{"filename": "a.txt"}})
	if r.Error != nil || json.Unmarshal(r.Result, &pr) != nil || len(pr.Messages) != 1 {
		t.Errorf("prompts/get: %+v", r)
	}
	var comp completion
	r = req("completion/complete", map[string]any{"ref": map[string]string{"type": "ref/resource", "uri": "session://{id}/info"},
		"argument": map[string]string{"name": "id", "value": "s"}})
	if r.Error != nil || json.Unmarshal(r.Result, &comp) != nil || !slices.Equal(comp.Completion.Values, []string{"s1"}) {
		t.Errorf("completion/complete: %+v %s", r.Error, r.Result)
	}
}

// checkProtocolErrors checks the error codes (and, for -32002, the uri in
// data) of bad requests; req sends one request.
func checkProtocolErrors(t *testing.T, req func(method string, params any) reply) {
	t.Helper()
	for _, tc := range []struct {
		method string
		params any
		code   int
	}{
		{"resources/read", map[string]string{"uri": "session://x/screenshots/../../etc"}, codeResourceNotFound},
		{"resources/read", map[string]string{"uri": "session://nope/buffer"}, codeResourceNotFound},
		{"resources/list", map[string]string{"cursor": "bogus"}, codeInvalidParams},
		{"prompts/get", map[string]string{"name": "vim-edit"}, codeInvalidParams},
		{"completion/complete", map[string]any{"ref": map[string]string{"type": "ref/nope"}}, codeInvalidParams},
	} {
		r := req(tc.method, tc.params)
		if r.Error == nil || r.Error.Code != tc.code {
			t.Errorf("%s %v: %+v, want error %d", tc.method, tc.params, r.Error, tc.code)
			continue
		}
		if tc.code == codeResourceNotFound {
			d, _ := r.Error.Data.(map[string]any)
			if d["uri"] != tc.params.(map[string]string)["uri"] {
				t.Errorf("%s: error data %v, want the uri", tc.method, r.Error.Data)
			}
		}
	}
}

// checkProtocolSubscription subscribes to a buffer, changes it, gets exactly
// the notification, then unsubscribes; req sends one request.
func checkProtocolSubscription(t *testing.T, c *testClient, f *resFixture, req func(method string, params any) reply) {
	t.Helper()
	// Subscribe, change, get exactly the notification.
	const buf = "session://s1/buffer"
	if r := req("resources/subscribe", map[string]string{"uri": buf}); r.Error != nil {
		t.Fatalf("subscribe: %+v", r.Error)
	}
	f.app.hub.resourceUpdated(bufferURI("s1"))
	if n := c.recvResponse(); n.Method != "notifications/resources/updated" || !strings.Contains(string(n.Params), buf) {
		t.Errorf("after a change: %s %s, want notifications/resources/updated for %s", n.Method, n.Params, buf)
	}
	f.app.hub.resourceListChanged()
	if n := c.recvResponse(); n.Method != "notifications/resources/list_changed" {
		t.Errorf("after a list change: %s %s, want notifications/resources/list_changed", n.Method, n.Params)
	}
	if r := req("resources/unsubscribe", map[string]string{"uri": buf}); r.Error != nil {
		t.Fatalf("unsubscribe: %+v", r.Error)
	}
	f.app.hub.resourceUpdated(bufferURI("s1"))
	waitSettled(t, f.app.hub) // anything sent by now comes before the ping's reply
	if r := req("ping", nil); r.Error != nil {
		t.Errorf("ping after unsubscribe: %+v", r)
	}
}

// TestResourcesAfterStop: a session that shell_stop removed from the App
// keeps its info, buffer and captures readable, and stays listed.
func TestResourcesAfterStop(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	f.app.hub.resourceListChanged() // shell_start reports the new session
	f.sess.mu.Lock()
	f.sess.term.Write([]byte("last words\r\n"))
	f.sess.exited, f.sess.exitCode = true, 129
	f.sess.mu.Unlock()
	before := map[string]string{}
	for _, uri := range []string{"sessions://list", "session://s1/info", "session://s1/buffer", "session://s1/screenshots", "session://s1/recordings"} {
		_, before[uri], _ = f.read(t, uri)
	}
	f.app.sessions.Remove(f.sess) // shell_stop forgets it, and reports the change
	for uri, want := range before {
		if uri == "sessions://list" || uri == "session://s1/info" {
			// Marked, so that an agent can tell it from one that only exited.
			want = strings.Replace(want, `"recording":false,`, `"recording":false,"stopped":true,`, 1)
		}
		if _, got, _ := f.read(t, uri); got != want {
			t.Errorf("%s after stop:\n got %s\nwant %s", uri, got, want)
		}
	}
	if _, _, blob := f.read(t, "session://s1/recordings/demo"); !bytes.Equal(blob, f.files["session://s1/recordings/demo"]) {
		t.Error("recording blob differs after stop")
	}
	// The tools refuse it, saying why and where its screen went, not that
	// there is no such session while sessions://list shows it.
	if _, err := f.app.tools.session("s1"); err == nil || !strings.Contains(err.Error(), "stopped with shell_stop") || !strings.Contains(err.Error(), "session://s1/buffer") {
		t.Errorf("a tool on the stopped session: %v", err)
	}
	if _, err := f.app.tools.session("s9"); err == nil || !strings.Contains(err.Error(), `no session "s9"`) {
		t.Errorf("a tool on an unknown session: %v", err)
	}
	if v := f.app.hub.resSession("s1"); v == nil || v.live != nil {
		t.Errorf("stopped session kept as %+v, want a frozen copy without the Session", v)
	}
	var list struct{ Resources []struct{ URI string } }
	f.mustCall(t, "resources/list", nil, &list)
	if !slices.ContainsFunc(list.Resources, func(r struct{ URI string }) bool { return r.URI == "session://s1/screenshots/first" }) {
		t.Errorf("stopped session's screenshot not listed: %v", list.Resources)
	}
	// The record is bounded.
	for i := range maxGoneSessions + 10 {
		id := "g" + strconv.Itoa(i)
		f.app.sessions.Remove(f.addSession(t, id, f.sess.Started.Add(time.Duration(i+1))))
	}
	if n := len(f.app.hub.resSessions()); n != maxGoneSessions {
		t.Errorf("%d sessions kept after %d stops, want %d", n, maxGoneSessions+11, maxGoneSessions)
	}
	if f.app.hub.resSession("s1") != nil {
		t.Error("the oldest stopped session was not dropped")
	}
}

// TestResourceListChangedConcurrent starts and stops sessions from several
// goroutines, each reporting with resourceListChanged, while reading the
// lists: in the end every live session reads live and every stopped one
// is frozen (run with -race).
func TestResourceListChangedConcurrent(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 16 {
				id := "c" + strconv.Itoa(g) + "-" + strconv.Itoa(i)
				f.addSession(t, id, time.Now())
				f.app.hub.resourceListChanged()
				if _, err := f.app.hub.readResource("sessions://list"); err != nil {
					t.Errorf("sessions://list: %v", err)
				}
				if i%2 == 1 {
					f.app.sessions.Remove(f.app.sessions.Get(id))
				}
			}
		}()
	}
	wg.Wait()
	live, stopped := 0, 0
	for _, v := range f.app.hub.resSessions() {
		isLive := f.app.sessions.Get(v.ID) != nil
		switch {
		case isLive && v.live != nil:
			live++
		case !isLive && v.stopped != nil:
			stopped++
		default:
			t.Errorf("%s: live in the App %v, but read as %+v", v.ID, isLive, v)
		}
	}
	if live != 1+4*8 || stopped != 4*8 {
		t.Errorf("%d live and %d stopped sessions, want %d and %d", live, stopped, 1+4*8, 4*8)
	}
}

// TestBindParamsErrors: a wrong type in params is named in the request's
// terms (the field and the JSON kind), never in Go's.
func TestBindParamsErrors(t *testing.T) {
	t.Parallel()
	var p struct {
		URI       string            `json:"uri"`
		Arguments map[string]string `json:"arguments"`
	}
	for _, tc := range []struct{ params, want string }{
		{`{"uri":5}`, `in "uri": number given where a string is needed`},
		{`{"arguments":{"filename":5}}`, `in "arguments": number given where a string is needed`},
		{`[1]`, `params must be a JSON object`},
	} {
		err := bindParams(json.RawMessage(tc.params), &p)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "Go ") {
			t.Errorf("bindParams(%s) = %v, want an error containing %q", tc.params, err, tc.want)
		}
	}
}

// TestListenUpdatedOnlyChanged: a subscriptions/listen stream's URIs are
// held to the same rule as resources/subscribe: a finished command sends
// list_changed and updates the commands, not the screenshots list.
func TestListenUpdatedOnlyChanged(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	f.app.hub.res.interval = 20 * time.Millisecond
	var mu sync.Mutex
	got := map[string]int{}
	count := func(key string) int {
		mu.Lock()
		defer mu.Unlock()
		return got[key]
	}
	st := &watcher{id: json.RawMessage(`"L"`), ctx: context.Background(), list: &debouncer{},
		send: func(method string, params any) {
			uri, _ := params.(map[string]any)["uri"].(string)
			mu.Lock()
			got[method+" "+uri]++
			mu.Unlock()
		},
		uris: map[resourceURI]*debouncer{}}
	for _, u := range []resourceURI{screenshotsURI("s1"), commandsURI("s1")} {
		st.uris[u] = &debouncer{uri: u.String()}
	}
	if err := f.app.hub.addWatcher(st, nil); err != nil {
		t.Fatal(err)
	}
	defer f.app.hub.removeWatcher(st)
	const listChanged, updated = "notifications/resources/list_changed ", "notifications/resources/updated "
	f.sess.Emit(Event{Kind: EventCommand}) // a command starts: the list of finished ones stays
	waitSettled(t, f.app.hub)
	if c := count(updated + "session://s1/commands"); c != 0 {
		t.Errorf("%d updated for the commands list when a command started", c)
	}
	f.addCommand(f.sess, "ls", "x")
	f.sess.Emit(Event{Kind: EventCommand, Ended: true})
	waitSettled(t, f.app.hub)
	if count(listChanged) == 0 || count(updated+"session://s1/commands") == 0 {
		mu.Lock()
		t.Errorf("no list_changed and commands updated after a command: %v", got)
		mu.Unlock()
	}
	if c := count(updated + "session://s1/screenshots"); c != 0 {
		t.Errorf("%d updated for the screenshots list after a command", c)
	}
}

// TestResourceCaptureFileGone: a capture whose file was deleted by hand
// leaves its list, resources/list and the info's count, as a read of it
// is not found.
func TestResourceCaptureFileGone(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	for _, file := range []string{"first.png", "demo.gif"} {
		if err := os.Remove(filepath.Join(f.dir, "s1", file)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ list, want string }{
		{"session://s1/screenshots", "second"},
		{"session://s1/recordings", ""},
	} {
		c, err := f.app.hub.readResource(tc.list)
		if err != nil {
			t.Fatal(err)
		}
		var got []captureJSON
		json.Unmarshal([]byte(*c.Text), &got)
		var names []string
		for _, x := range got {
			names = append(names, x.Name)
		}
		if strings.Join(names, ",") != tc.want {
			t.Errorf("%s lists %v, want [%s]", tc.list, names, tc.want)
		}
	}
	for _, r := range f.app.hub.allResources() {
		if r.URI == "session://s1/screenshots/first" || r.URI == "session://s1/recordings/demo" {
			t.Errorf("resources/list has %s, whose file is gone", r.URI)
		}
	}
	c, err := f.app.hub.readResource("session://s1/info")
	if err != nil {
		t.Fatal(err)
	}
	var info sessionJSON
	json.Unmarshal([]byte(*c.Text), &info)
	if info.Screenshots == nil || *info.Screenshots != 1 || info.Recordings == nil || *info.Recordings != 0 {
		t.Errorf("info counts the captures as %s, want 1 screenshot and 0 recordings", *c.Text)
	}
	if _, err := f.app.hub.readResource("session://s1/screenshots/first"); rpcCode(err) != codeResourceNotFound {
		t.Errorf("read of a deleted capture: %v, want -32002", err)
	}
}

// TestResourceCommandNumbers: every integer in the place of {n} fits the
// template, so one with no command is not found with the numbers that
// exist (or none yet), never "not a ttywright resource URI".
func TestResourceCommandNumbers(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	f.addCommand(f.sess, "ls", "x")
	f.addSession(t, "s2", time.Now())
	for _, tc := range []struct{ uri, want string }{
		{"session://s1/commands/0", "session s1 has no command 0: its commands are numbered 1-2"},
		{"session://s1/commands/-1", "session s1 has no command -1: its commands are numbered 1-2"},
		{"session://s1/commands/3", "session s1 has no command 3: its commands are numbered 1-2"},
		{"session://s1/commands/007", "session s1 has no command 007: its commands are numbered 1-2"},
		{"session://s1/commands/99999999999999999999", "has no command 99999999999999999999: its commands are numbered 1-2"},
		{"session://s2/commands/1", "session s2 has no command 1: it has no finished commands yet"},
		{"session://s1/commands/2", ""},
	} {
		_, err := f.app.hub.readResource(tc.uri)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.uri, err)
			}
			continue
		}
		if rpcCode(err) != codeResourceNotFound || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "session://") {
			t.Errorf("%s: %v, want -32002 saying %q", tc.uri, err, tc.want)
		}
	}
	// A command number that is not the canonical form is refused, not
	// mistaken for another: 01 is not command 1.
	if u, err := parseResourceURI("session://s1/commands/01"); err != nil || u == commandURI("s1", 1) {
		t.Errorf("commands/01 parsed to %+v, %v: want a command URI other than commands/1", u, err)
	}
	if _, err := parseResourceURI("session://s1/commands/abc"); err == nil {
		t.Error("commands/abc parsed: {n} is a number")
	}
}

// TestResourceCastIsText: an asciicast is JSON lines, so it is read as
// text with its MIME type; a GIF and a PNG stay base64 blobs.
func TestResourceCastIsText(t *testing.T) {
	t.Parallel()
	f := newResFixture(t)
	cast := "{\"version\":2,\"width\":80,\"height\":24}\n[0.1,\"o\",\"h\u00e9\\u001b[0m\"]\n"
	f.sess.AddRecording(Capture{Name: "demo.cast", URI: "session://s1/recordings/demo.cast", MimeType: "application/x-asciicast",
		Path: f.writeFile(t, "s1", "demo.cast", []byte(cast)), Created: time.Now(), Bytes: int64(len(cast))})
	for _, tc := range []struct {
		uri, mime string
		text      bool
	}{
		{"session://s1/recordings/demo.cast", "application/x-asciicast", true},
		{"session://s1/recordings/demo", "image/gif", false},
		{"session://s1/screenshots/first", "image/png", false},
	} {
		c, err := f.app.hub.readResource(tc.uri)
		if err != nil {
			t.Fatalf("%s: %v", tc.uri, err)
		}
		if c.MimeType != tc.mime || (c.Text != nil) != tc.text || (c.Blob != nil) == tc.text {
			t.Errorf("%s: %s, text %v, blob %v; want %s as text %v", tc.uri, c.MimeType, c.Text != nil, c.Blob != nil, tc.mime, tc.text)
		}
		if tc.text && c.Text != nil && *c.Text != cast {
			t.Errorf("%s: text %q, want the file %q", tc.uri, *c.Text, cast)
		}
	}
	for _, r := range f.app.hub.allResources() {
		if r.URI == "session://s1/recordings/demo.cast" && r.MimeType != "application/x-asciicast" {
			t.Errorf("resources/list gives %s as %s", r.URI, r.MimeType)
		}
	}
}

// TestUpdatedOnlyChangedE2E: with a real bash, shell_start updates
// sessions://list, a finished command does not touch the screenshots or
// recordings lists, and shell_stop updates sessions://list and the info
// but not them either.
func TestUpdatedOnlyChangedE2E(t *testing.T) {
	t.Parallel()
	needShell(t, "bash")
	c := &noteClient{testClient: startServer(t), t: t}
	c.initialize("2025-06-18")
	c.req("resources/subscribe", map[string]any{"uri": "sessions://list"}, nil)
	mark := len(c.notes)
	home := t.TempDir()
	st := c.tool("shell_start", map[string]any{"command": "bash", "cwd": home, "env": map[string]any{"HOME": home}})
	id, _ := st["shell_session_id"].(string)
	if !c.waitNote(mark, e2eUpdated, "sessions://list", deadlockGuard) {
		t.Error("no updated for sessions://list after shell_start")
	}
	shots, recs, info := screenshotsURI(id).String(), recordingsURI(id).String(), infoURI(id).String()
	for _, u := range []string{shots, recs, info} {
		c.req("resources/subscribe", map[string]any{"uri": u}, nil)
	}
	c.settle()
	mark = len(c.notes)
	c.tool("shell_send", map[string]any{"session_id": id, "input": "echo hi\r", "wait_for_command": true})
	if !c.waitNote(mark, e2eChanged, "", deadlockGuard) || !c.waitNote(mark, e2eUpdated, info, deadlockGuard) {
		t.Error("no list_changed and info updated after a command")
	}
	c.settle() // a trailing updated comes before this returns
	stop := len(c.notes)
	c.tool("shell_stop", map[string]any{"session_id": id})
	if !c.waitNote(stop, e2eUpdated, "sessions://list", deadlockGuard) || !c.waitNote(stop, e2eUpdated, info, deadlockGuard) {
		t.Error("no updated for sessions://list and the info after shell_stop")
	}
	c.settle()
	for _, u := range []string{shots, recs} {
		if n := c.count(mark, e2eUpdated, u); n != 0 {
			t.Errorf("%d updated for %s, which no command or stop changed", n, u)
		}
	}
}

// TestResourceSessionName: a resource URI naming a session by its name
// is told the session's id.
func TestResourceSessionName(t *testing.T) {
	t.Parallel()
	a := newTestApp(t)
	m := mustCall(t, a, "shell_start", map[string]any{"command": "sleep", "args": []string{"60"}, "name": "pair"})
	_, err := a.hub.readResource("session://pair/commands")
	if err == nil || !strings.Contains(err.Error(), "that is the name of session "+m["shell_session_id"].(string)) {
		t.Errorf("session://pair/commands: %v, want the id of the session named pair", err)
	}
}
