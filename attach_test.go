//go:build unix

package main

// attach_test.go: the attach listener with real sessions: a viewer
// lists, attaches, takes the keyboard and types; the socket directory's
// checks; and bad viewers (garbage, half a frame then silence, one that
// never reads while a flood runs, more than the limit at once, another
// uid), each disconnected or bounded while the server keeps answering.

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// attachTestServer starts an attach listener over a's sessions in a
// fresh directory, with the given read and write limits.
func attachTestServer(t testing.TB, a *App, read, write time.Duration) *attachServer {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ttywright")
	as, err := startAttachLimits(a.sessions, a.tools.views, dir, t.Logf, read, write)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(as.Close)
	return as
}

// viewerConn is a test's attach connection.
type viewerConn struct {
	t  testing.TB
	c  net.Conn
	br *bufio.Reader
}

func dialViewer(t testing.TB, as *attachServer) *viewerConn {
	t.Helper()
	c, err := net.Dial("unix", as.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &viewerConn{t: t, c: c, br: bufio.NewReaderSize(c, 1<<20)}
}

func (v *viewerConn) send(s string) {
	v.t.Helper()
	if _, err := v.c.Write([]byte(s + "\n")); err != nil {
		v.t.Fatal(err)
	}
}

// next returns the next frame's op and line; "" at the end of the
// connection.
func (v *viewerConn) next() (string, []byte) {
	v.t.Helper()
	_ = v.c.SetReadDeadline(time.Now().Add(stuckAfter))
	line, err := v.br.ReadBytes('\n')
	if err != nil {
		return "", nil
	}
	var head struct{ Op string }
	if err := json.Unmarshal(line, &head); err != nil {
		v.t.Fatalf("not JSON from the server: %q", line)
	}
	return head.Op, line
}

// until reads frames until one with op op for which ok (when not nil)
// holds; it fails the test at the end of the connection.
func (v *viewerConn) until(op string, ok func([]byte) bool) []byte {
	v.t.Helper()
	for {
		got, line := v.next()
		if got == "" {
			v.t.Fatalf("the connection ended before a %s frame", op)
		}
		if got == op && (ok == nil || ok(line)) {
			return line
		}
	}
}

// ended reports whether the server closed the connection (after any
// frames it sent first).
func (v *viewerConn) ended() bool {
	for {
		if op, _ := v.next(); op == "" {
			return true
		}
	}
}

func screenHas(text string) func([]byte) bool {
	return func(line []byte) bool {
		g, err := decodeScreenFrame(line)
		if err != nil {
			return false
		}
		var b strings.Builder
		for _, c := range g.Cells {
			b.WriteString(c.Text)
		}
		return strings.Contains(b.String(), text)
	}
}

// TestAttachViewer: a viewer lists the sessions, attaches, gets the
// status and the screen, takes the keyboard, types, and gives it back;
// the agent's view of the session follows; a detach leaves the program
// running.
func TestAttachViewer(t *testing.T) {
	a := newTestApp(t)
	id := start(t, a, "sh")
	s := a.sessions.Get(id)
	as := attachTestServer(t, a, attachReadLimit, attachWriteLimit)
	v := dialViewer(t, as)
	v.send(`{"op":"list"}`)
	var list attachSessionsFrame
	json.Unmarshal(v.until("sessions", nil), &list)
	if list.Server != os.Getpid() || len(list.Sessions) != 1 || list.Sessions[0].ID != id || list.Sessions[0].State != "running" || list.Sessions[0].Keyboard != holderAgent {
		t.Fatalf("sessions: %+v", list)
	}
	v.send(`{"op":"take"}`)
	v.until("error", nil) // before attach
	v.send(fmt.Sprintf(`{"op":"attach","session":%q}`, id))
	v.until("status", nil)
	v.until("screen", nil)
	if k := s.KeyboardInfo(false); k.Viewers != 1 || k.Keyboard != holderAgent {
		t.Errorf("attached: %+v", k)
	}
	v.send(`{"op":"keys","data":"` + base64.StdEncoding.EncodeToString([]byte("echo no\r")) + `"}`)
	v.until("error", nil) // not held
	v.send(`{"op":"take"}`)
	v.until("status", func(l []byte) bool { return strings.Contains(string(l), `"you":true`) })
	v.send(`{"op":"keys","data":"` + base64.StdEncoding.EncodeToString([]byte("echo yes-$((6*7))\r")) + `"}`)
	v.until("screen", screenHas("yes-42"))
	if r, _ := call(t, a, "shell_send", map[string]any{"session_id": id, "text": "x"}); !r.IsError {
		t.Error("shell_send while the viewer holds the keyboard was not refused")
	}
	v.send(`{"op":"give"}`)
	v.until("status", func(l []byte) bool { return strings.Contains(string(l), `"keyboard":"agent"`) })
	mustCall(t, a, "shell_send", map[string]any{"session_id": id, "text": "echo agent-$((2*3))\n", "wait_for": "agent-6"})
	v.until("screen", screenHas("agent-6"))
	v.send(`{"op":"detach"}`)
	if !v.ended() {
		t.Error("detach did not end the connection")
	}
	waitFor(t, func() bool { return s.Keyboard().Viewers == 0 })
	if st := s.Status(); st.Exited {
		t.Error("detach ended the program")
	}
}

// waitFor polls cond until it holds, failing after stuckAfter.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(stuckAfter); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the condition did not hold in time")
		}
	}
}

// TestAttachLeaveGivesBack: a viewer that goes away while it holds the
// keyboard gives it back, and with resize the session its size.
func TestAttachLeaveGivesBack(t *testing.T) {
	a := newTestApp(t)
	id := start(t, a, "sh")
	s := a.sessions.Get(id)
	as := attachTestServer(t, a, attachReadLimit, attachWriteLimit)
	v := dialViewer(t, as)
	v.send(fmt.Sprintf(`{"op":"attach","session":%q,"control":true,"resize":true,"cols":50,"rows":10}`, id))
	v.until("status", func(l []byte) bool { return strings.Contains(string(l), `"you":true`) })
	waitFor(t, func() bool { st := s.Status(); return st.Cols == 50 && st.Rows == 10 })
	v.send(`{"op":"size","cols":60,"rows":12}`)
	waitFor(t, func() bool { st := s.Status(); return st.Cols == 60 && st.Rows == 12 })
	v.c.Close()
	waitFor(t, func() bool { k := s.Keyboard(); return k.Viewers == 0 && k.Holder == holderAgent })
	if st := s.Status(); st.Cols != 80 || st.Rows != 24 {
		t.Errorf("after the viewer left the session is %dx%d, want 80x24 back", st.Cols, st.Rows)
	}
}

// TestAttachBadViewers: each bad viewer is answered with an error frame
// or cut off, and the server keeps serving the tools meanwhile.
func TestAttachBadViewers(t *testing.T) {
	a := newTestApp(t)
	id := start(t, a, "sh")
	as := attachTestServer(t, a, 300*time.Millisecond, 300*time.Millisecond)
	tests := []struct {
		name string
		send string
	}{
		{"garbage", "\x00\xff not json at all\n"},
		{"unknown op", `{"op":"format c:"}` + "\n"},
		{"half a frame then silence", `{"op":"atta`},
		{"a line over 1 MiB", strings.Repeat("x", maxAttachFrame+10)},
		{"unknown session", `{"op":"attach","session":"shell-99"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := dialViewer(t, as)
			go v.c.Write([]byte(tt.send)) // a long line blocks until the server stops reading
			if !v.ended() {
				t.Error("the connection stayed open")
			}
			mustCall(t, a, "shell_read", map[string]any{"session_id": id})
		})
	}
}

// TestAttachSlowViewer: a viewer that never reads while the program
// floods its screen is disconnected after the write limit; the server
// and another viewer are unaffected.
func TestAttachSlowViewer(t *testing.T) {
	a := newTestApp(t)
	id := start(t, a, "sh", "-c", "yes flood-flood-flood-flood-flood-flood-flood-flood")
	other := start(t, a, "sh")
	as := attachTestServer(t, a, attachReadLimit, 300*time.Millisecond)
	slow := dialViewer(t, as)
	slow.send(fmt.Sprintf(`{"op":"attach","session":%q}`, id))
	good := dialViewer(t, as)
	good.send(fmt.Sprintf(`{"op":"attach","session":%q}`, id))
	good.until("screen", screenHas("flood"))
	frames := make(chan struct{}, 1)
	go func() { // the good viewer keeps reading
		for {
			if op, _ := good.next(); op == "" {
				close(frames)
				return
			}
			select {
			case frames <- struct{}{}:
			default:
			}
		}
	}()
	s := a.sessions.Get(id)
	waitFor(t, func() bool { return s.Keyboard().Viewers == 1 }) // the slow one is gone
	for i := 0; i < 5; i++ {
		if _, ok := <-frames; !ok {
			t.Fatal("the viewer that reads was disconnected too")
		}
		mustCall(t, a, "shell_read", map[string]any{"session_id": other})
	}
}

// TestAttachClientLimit: of 100 viewers at once maxAttachClients are
// served and the others told why and disconnected; the tools answer
// meanwhile.
func TestAttachClientLimit(t *testing.T) {
	a := newTestApp(t)
	id := start(t, a, "sh")
	as := attachTestServer(t, a, attachReadLimit, attachWriteLimit)
	var vs []*viewerConn
	for i := 0; i < 100; i++ {
		v := dialViewer(t, as)
		// A refused viewer may be closed before it writes: the error frame waits to be read.
		v.c.Write([]byte(fmt.Sprintf(`{"op":"attach","session":%q}`+"\n", id)))
		vs = append(vs, v)
	}
	served, refused := 0, 0
	for _, v := range vs {
		switch op, line := v.next(); {
		case op == "status":
			served++
		case op == "error" && strings.Contains(string(line), "too many viewers"):
			refused++
		default:
			t.Errorf("a viewer got %q", line)
		}
	}
	if served != maxAttachClients || refused != 100-maxAttachClients {
		t.Errorf("%d served and %d refused, want %d and %d", served, refused, maxAttachClients, 100-maxAttachClients)
	}
	mustCall(t, a, "shell_read", map[string]any{"session_id": id})
}

// TestAttachDir: the socket directory is created 0700, and one that is a
// symlink, open to others or not a directory is refused.
func TestAttachDir(t *testing.T) {
	base := t.TempDir()
	tests := []struct {
		name  string
		setup func(dir string)
		ok    bool
	}{
		{"missing", func(string) {}, true},
		{"private", func(d string) { os.Mkdir(d, 0o700) }, true},
		{"open to the group", func(d string) { os.Mkdir(d, 0o700); os.Chmod(d, 0o770) }, false},
		{"open to all", func(d string) { os.Mkdir(d, 0o700); os.Chmod(d, 0o777) }, false},
		{"a symlink", func(d string) { os.Mkdir(d+".real", 0o700); os.Symlink(d+".real", d) }, false},
		{"a file", func(d string) { os.WriteFile(d, nil, 0o600) }, false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(base, fmt.Sprint(i))
			tt.setup(dir)
			err := ensureAttachDir(dir)
			if (err == nil) != tt.ok {
				t.Fatalf("error %v, want ok %v", err, tt.ok)
			}
			if fi, _ := os.Lstat(dir); tt.ok && fi.Mode().Perm() != 0o700 {
				t.Errorf("mode %04o", fi.Mode().Perm())
			}
		})
	}
}

// TestAttachStaleSockets: a socket left by a server that is gone is
// removed when a server starts; its own is removed when it closes.
func TestAttachStaleSockets(t *testing.T) {
	a := newTestApp(t)
	dir := filepath.Join(t.TempDir(), "ttywright")
	os.Mkdir(dir, 0o700)
	cmd := exec.Command("true")
	cmd.Run()
	stale := filepath.Join(dir, fmt.Sprintf("%d.sock", cmd.Process.Pid)) // a pid that has exited
	ln, err := net.Listen("unix", stale)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	as, err := startAttach(a.sessions, a.tools.views, dir, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale socket is still there: %v", err)
	}
	if got := attachSockets(dir); len(got) != 1 || got[os.Getpid()] != as.Path() {
		t.Errorf("live sockets: %v", got)
	}
	as.Close()
	if _, err := os.Lstat(as.Path()); !os.IsNotExist(err) {
		t.Errorf("the socket outlived Close: %v", err)
	}
}

// TestAttachOtherUIDRefused: as root, a process running as another uid
// that reaches the socket (the directory opened up on purpose) is
// disconnected without a frame, and its attempt is logged.
func TestAttachOtherUIDRefused(t *testing.T) {
	a := newTestApp(t)
	start(t, a, "sh")
	dir := filepath.Join(t.TempDir(), "ttywright")
	logged := make(chan string, 4)
	as, err := startAttach(a.sessions, a.tools.views, dir, func(format string, a ...any) { logged <- fmt.Sprintf(format, a...) })
	if err != nil {
		t.Fatal(err)
	}
	defer as.Close()
	for _, p := range []string{filepath.Dir(filepath.Dir(dir)), filepath.Dir(dir), dir} {
		os.Chmod(p, 0o755) // defeats the directory's protection, leaving the uid check alone
	}
	other, self := otherUIDAnswers(t, as.Path(), `{"op":"list"}`)
	if other != "b''" {
		t.Errorf("another uid got %s, want nothing", other)
	}
	if msg := <-logged; !strings.Contains(msg, "refused a connection from uid 65534") {
		t.Errorf("logged %q", msg)
	}
	if !strings.Contains(self, "sessions") { // the refusal was the uid's
		t.Errorf("this uid's client got %s", self)
	}
}

// otherUIDAnswers connects to the unix socket sock, opened to everyone
// for the test (mode 0777; its directories are the caller's to open),
// sends line, and returns what came back (Python's repr of the bytes),
// as uid 65534 and as this uid.
func otherUIDAnswers(t *testing.T, sock, line string) (other, self string) {
	t.Helper()
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil || os.Getuid() != 0 {
		t.Skip("connecting as another user needs root and /usr/bin/python3")
	}
	os.Chmod(sock, 0o777)
	script := `import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
try:
    s.sendall(sys.argv[2].encode()+b'\n'); print(repr(s.recv(65536)))
except ConnectionError:
    print(repr(b''))`
	for i, uid := range []int{65534, os.Getuid()} {
		cmd := exec.Command(py, "-c", script, sock, line)
		if uid != os.Getuid() {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}}
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the client of uid %d: %v\n%s", uid, err, out)
		}
		if i == 0 {
			other = strings.TrimSpace(string(out))
		} else {
			self = strings.TrimSpace(string(out))
		}
	}
	return other, self
}

// TestAttachDirName: the sockets' directory is XDG_RUNTIME_DIR's, and
// without it the same whatever else the environment holds (TMPDIR is
// not read), so a server started by a client with a bare environment
// is found by the person's shell.
func TestAttachDirName(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	if got := attachDir(env("XDG_RUNTIME_DIR", "/run/x")); got != "/run/x/ttywright" {
		t.Errorf("with XDG_RUNTIME_DIR: %s", got)
	}
	bare := attachDir(env())
	if got := attachDir(env("TMPDIR", t.TempDir(), "XDG_RUNTIME_DIR", "relative")); got != bare {
		t.Errorf("with TMPDIR and a relative XDG_RUNTIME_DIR: %s, with a bare environment %s: want the same", got, bare)
	}
	uid := strconv.Itoa(os.Getuid())
	if bare != "/run/user/"+uid+"/ttywright" && bare != "/tmp/ttywright-"+uid {
		t.Errorf("with a bare environment: %s", bare)
	}
}

// TestViewScreenFrameBound: a screen whose styles would make a frame over
// maxViewFrame is sent as its text in the default style, within it.
func TestViewScreenFrameBound(t *testing.T) {
	t.Parallel()
	term := NewTerminal(1000, 500, 0)
	var b strings.Builder
	for i := range 1000*500 - 1 {
		fmt.Fprintf(&b, "\x1b[38;2;%d;%d;3m\x1b[48;2;4;%d;6m\x1b]8;;https://x.example/%d\x1b\\%c", i%256, i/256%256, i%7, i, 'a'+i%26)
	}
	term.Write([]byte(b.String()))
	f := viewScreenFrame(term.Snapshot(), themeList[0])
	if len(f) > maxViewFrame || !bytes.Contains(f, []byte(`"op":"screen"`)) {
		t.Fatalf("a frame of %d bytes (at most %d): %.200s", len(f), maxViewFrame, f)
	}
	if !bytes.Contains(f, []byte("abcdefghij")) {
		t.Errorf("the plain frame lost the screen's text: %.300s", f)
	}
}
