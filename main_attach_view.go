//go:build unix

package main

// main_attach_view.go: what ttywright attach draws in the person's
// terminal. The terminal is put in raw mode on the alternate screen; each
// screen frame is drawn by changing only the cells that differ from what
// was drawn last (a cursor move, an SGR and the text of each changed
// run), the cursor set where the session's is, and the last row is the
// status: the session, who holds the keyboard and the keys. A terminal
// smaller than the session shows the part around the cursor and says so;
// a larger one leaves the rest blank.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"golang.org/x/term"
)

// attachPrefix is Ctrl-], which starts a command key: t, g or d.
const attachPrefix = 0x1d

// attachStatusKeys ends the status row.
const attachStatusKeys = "Ctrl-] t take · g give back · d detach"

// drawnCell is a cell as drawn on the person's terminal.
type drawnCell struct {
	text  string // "" for a blank
	sgr   string
	valid bool // false: unknown, draw it
}

// attachView is the person's terminal and what is drawn on it.
type attachView struct {
	out          io.Writer
	session      string
	cols, rows   int // the terminal's size
	grid         *frameGrid
	drawn        []drawnCell // (rows-1) x cols
	modes        frameModes
	keyboard     string
	you, wanted  bool // the keyboard is this viewer's; it asked for it
	viewers      int
	note         string // the last error or event, shown in the status row
	exited       bool
	buf          bytes.Buffer
	offRow, offC int // the session cell at the terminal's top left
}

// attachTerminal attaches to pick and draws it until the person detaches
// or the server goes away.
func attachTerminal(pick foundSession, f attachFlags, stdin *os.File) error {
	fd := int(stdin.Fd())
	if !term.IsTerminal(fd) || !term.IsTerminal(int(os.Stdout.Fd())) {
		return errors.New("standard input and output must be a terminal (ttywright attach --list works anywhere)")
	}
	c, err := net.Dial("unix", pick.path)
	if err != nil {
		return fmt.Errorf("server %d: %v", pick.pid, err)
	}
	defer c.Close()
	v := &attachView{out: os.Stdout, session: pick.ID, wanted: f.control}
	v.cols, v.rows = terminalSize()
	vc, vr := v.sessionSize()
	if err := sendRequest(c, attachRequest{Op: "attach", Session: pick.ID, Control: f.control, Resize: f.resize, Cols: vc, Rows: vr}); err != nil {
		return err
	}
	old, err := term.MakeRaw(fd)
	if err != nil {
		return err
	}
	defer term.Restore(fd, old)
	io.WriteString(v.out, "\x1b[?1049h\x1b[0m\x1b[H\x1b[2J")
	defer io.WriteString(v.out, "\x1b[0m\x1b[?2004l\x1b[?1l\x1b[?25h\x1b[?1049l")
	return v.run(c, stdin, f.resize)
}

// run is the viewer's loop: frames from the server, keys from the
// person, and the terminal's signals.
func (v *attachView) run(c net.Conn, stdin *os.File, resize bool) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames := make(chan []byte)
	go readFrames(ctx, c, frames)
	keys := make(chan []byte)
	go readKeys(ctx, stdin, keys)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGWINCH, syscall.SIGHUP, syscall.SIGTERM)
	defer signal.Stop(sigs)
	prefix := false
	for {
		select {
		case line, ok := <-frames:
			if !ok {
				return errors.New("the server closed the connection")
			}
			v.frame(line)
		case p, ok := <-keys:
			if !ok {
				_ = sendRequest(c, attachRequest{Op: "detach"}) // closing the terminal detaches
				return nil
			}
			var detach bool
			if prefix, detach = v.keys(c, p, prefix); detach {
				return sendRequest(c, attachRequest{Op: "detach"})
			}
		case s := <-sigs:
			if s != syscall.SIGWINCH {
				_ = sendRequest(c, attachRequest{Op: "detach"}) // Best effort: the terminal is gone.
				return nil
			}
			v.cols, v.rows = terminalSize()
			v.drawn = nil
			if resize {
				cols, rows := v.sessionSize()
				_ = sendRequest(c, attachRequest{Op: "size", Cols: cols, Rows: rows}) // a failure shows as the closed connection
			}
			v.draw()
		}
	}
}

// keys handles a chunk the person typed: Ctrl-] and the key after it are
// commands (also across chunks: prefix says the chunk before ended in
// Ctrl-]), the rest goes to the program while the person holds the
// keyboard. It returns the prefix state and whether to detach.
func (v *attachView) keys(c net.Conn, p []byte, prefix bool) (bool, bool) {
	var pass []byte
	flush := func() {
		if len(pass) > 0 {
			v.forward(c, pass)
			pass = nil
		}
	}
	for _, b := range p {
		switch {
		case prefix:
			prefix = false
			switch b {
			case 't':
				v.wanted, v.note = true, ""
				_ = sendRequest(c, attachRequest{Op: "take"}) // a failure shows as the closed connection
			case 'g':
				flush()
				v.wanted, v.note = false, ""
				_ = sendRequest(c, attachRequest{Op: "give"})
			case 'd':
				flush()
				return false, true
			case attachPrefix:
				pass = append(pass, b)
			}
		case b == attachPrefix:
			prefix = true
		default:
			pass = append(pass, b)
		}
	}
	flush()
	v.draw()
	return prefix, false
}

// forward sends the person's keys, or says the view is read-only.
func (v *attachView) forward(c net.Conn, p []byte) {
	if !v.wanted || v.exited {
		v.note = "read-only: Ctrl-] t takes the keyboard"
		return
	}
	for len(p) > 0 {
		n := min(len(p), maxAttachKeys)
		_ = sendRequest(c, attachRequest{Op: "keys", Data: base64.StdEncoding.EncodeToString(p[:n])})
		p = p[n:]
	}
}

// frame applies one frame from the server.
func (v *attachView) frame(line []byte) {
	var head struct {
		Op       string `json:"op"`
		Keyboard string `json:"keyboard"`
		You      bool   `json:"you"`
		Viewers  int    `json:"viewers"`
		Message  string `json:"message"`
		ExitCode int    `json:"exit_code"`
	}
	if json.Unmarshal(line, &head) != nil {
		return
	}
	switch head.Op {
	case "screen":
		if g, err := decodeScreenFrame(line); err == nil {
			v.grid = g
		}
	case "status":
		if (head.Keyboard != v.keyboard || head.You != v.you) && !v.exited {
			v.note = "" // an error of the keyboard's last holder says nothing now
		}
		v.keyboard, v.you, v.viewers = head.Keyboard, head.You, head.Viewers
		if !head.You && head.Keyboard == holderPerson {
			v.wanted = false
		}
	case "error":
		v.note = head.Message
	case "exited":
		v.exited, v.note = true, fmt.Sprintf("the program exited (code %d)", head.ExitCode)
	}
	v.draw()
}

// sessionSize is the size the session takes with --resize: the terminal
// less the status row, within the screen bounds.
func (v *attachView) sessionSize() (int, int) {
	return min(max(v.cols, minCols), maxCols), min(max(v.rows-1, minRows), maxRows)
}

// terminalSize is the size of standard output's terminal (80x24 when it
// cannot be read).
func terminalSize() (int, int) {
	cols, rows, err := term.GetSize(int(os.Stdout.Fd()))
	if err != nil || cols < 1 || rows < 2 {
		return 80, 24
	}
	return cols, rows
}

// sendRequest writes one request frame.
func sendRequest(c net.Conn, r attachRequest) error {
	b, err := encodeFrame(r)
	if err != nil {
		return err
	}
	_, err = c.Write(b)
	return err
}

// readFrames sends each frame of c to out until c ends, then closes out.
func readFrames(ctx context.Context, c net.Conn, out chan<- []byte) {
	defer close(out)
	fr := newFrameReader(c)
	for {
		line, err := fr.next()
		if err != nil {
			return
		}
		select {
		case out <- append([]byte(nil), line...):
		case <-ctx.Done():
			return
		}
	}
}

// readKeys sends what the person types to out until standard input ends,
// then closes out.
func readKeys(ctx context.Context, in io.Reader, out chan<- []byte) {
	defer close(out)
	buf := make([]byte, 4096)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			select {
			case out <- append([]byte(nil), buf[:n]...):
			case <-ctx.Done():
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// draw brings the terminal up to date: the changed cells, the modes, the
// status row and the cursor.
func (v *attachView) draw() {
	v.buf.Reset()
	v.buf.WriteString("\x1b[?25l")
	if v.grid != nil {
		v.drawCells()
		v.drawModes()
	}
	v.drawStatus()
	v.drawCursor()
	_, _ = v.out.Write(v.buf.Bytes()) // a terminal that is gone ends the loop by its signal or EOF
}

// place sets the viewport's offsets: the whole session when it fits,
// else the part around the cursor.
func (v *attachView) place() {
	g, h := v.grid, v.rows-1
	v.offRow, v.offC = 0, 0
	if g.Rows > h {
		v.offRow = min(max(g.Cursor.Row-h/2, 0), g.Rows-h)
	}
	if g.Cols > v.cols {
		v.offC = min(max(g.Cursor.Col-v.cols/2, 0), g.Cols-v.cols)
	}
}

// drawCells draws the cells that differ from what is drawn.
func (v *attachView) drawCells() {
	h := v.rows - 1
	if len(v.drawn) != h*v.cols {
		v.drawn = make([]drawnCell, h*v.cols)
		v.buf.WriteString("\x1b[0m\x1b[2J")
	}
	v.place()
	pen, atRow, atCol := "", -1, -1
	for r := 0; r < h; r++ {
		for c := 0; c < v.cols; c++ {
			want, wide := v.cellAt(r+v.offRow, c+v.offC)
			if wide && c == v.cols-1 {
				want.text = "" // a wide character cut by the edge
			}
			i := r*v.cols + c
			if v.drawn[i] == want {
				if wide {
					c++ // the cell it covers is drawn with it
				}
				continue
			}
			if atRow != r || atCol != c {
				v.buf.WriteString("\x1b[" + strconv.Itoa(r+1) + ";" + strconv.Itoa(c+1) + "H")
			}
			if want.sgr != pen {
				v.buf.WriteString("\x1b[0;" + want.sgr + "m")
				pen = want.sgr
			}
			text := want.text
			if text == "" {
				text = " "
			}
			v.buf.WriteString(text)
			v.drawn[i] = want
			atRow, atCol = r, c+1
			if wide && c+1 < v.cols {
				v.drawn[i+1] = drawnCell{sgr: want.sgr, valid: true, text: "\x00"} // covered by the wide character
				atCol = -1
				c++
			}
		}
	}
	v.buf.WriteString("\x1b[0m")
}

// cellAt is the session's cell at row, col as drawn, and whether it is a
// wide character; outside the session a blank.
func (v *attachView) cellAt(row, col int) (drawnCell, bool) {
	g := v.grid
	if row >= g.Rows || col >= g.Cols {
		return drawnCell{sgr: "0", valid: true}, false
	}
	gc := g.Cells[row*g.Cols+col]
	sgr := g.Styles[gc.Style].SGR
	if gc.Cont {
		return drawnCell{sgr: sgr, valid: true}, false // its wide character was cut off on the left
	}
	r, _ := utf8.DecodeRuneInString(gc.Text)
	return drawnCell{text: gc.Text, sgr: sgr, valid: true}, gc.Text != "" && runeWidth(r) == 2
}

// drawModes makes the person's terminal encode keys as the program
// asked: cursor keys (DECCKM) and bracketed paste.
func (v *attachView) drawModes() {
	m := v.grid.Modes
	if m.AppCursor != v.modes.AppCursor {
		v.buf.WriteString(map[bool]string{true: "\x1b[?1h", false: "\x1b[?1l"}[m.AppCursor])
	}
	if m.BracketedPaste != v.modes.BracketedPaste {
		v.buf.WriteString(map[bool]string{true: "\x1b[?2004h", false: "\x1b[?2004l"}[m.BracketedPaste])
	}
	v.modes = m
}

// statusText is the status row's text for a row of width cells: the
// session and who types, then what there is to say (a note, that the
// terminal is too small and which part shows), the keys and the viewers,
// which are left out first when the row is short.
func (v *attachView) statusText(width int) string {
	who := "agent types (read-only)"
	switch {
	case v.you:
		who = "you type"
	case v.keyboard == holderPerson:
		who = "another person types"
	}
	must := []string{v.session, who}
	if v.note != "" {
		must = append(must, v.note)
	}
	if g := v.grid; g != nil && (g.Cols > v.cols || g.Rows > v.rows-1) {
		must = append(must, fmt.Sprintf("terminal too small for %dx%d: rows %d-%d, cols %d-%d shown", g.Cols, g.Rows,
			v.offRow+1, min(g.Rows, v.offRow+v.rows-1), v.offC+1, min(g.Cols, v.offC+v.cols)))
	}
	optional := []string{attachStatusKeys}
	if v.viewers > 1 {
		optional = append(optional, fmt.Sprintf("%d viewers", v.viewers))
	}
	for n := len(optional); ; n-- {
		s := " " + strings.Join(append(slices.Clone(must), optional[:n]...), " · ") + " "
		if n == 0 || utf8.RuneCountInString(s) <= width {
			return s
		}
	}
}

// drawStatus draws the status row in reverse video, cut or padded to the
// terminal's width.
func (v *attachView) drawStatus() {
	s := []rune(v.statusText(v.cols))
	if len(s) > v.cols {
		s = s[:v.cols]
	}
	v.buf.WriteString("\x1b[" + strconv.Itoa(v.rows) + ";1H\x1b[0;7m" + string(s))
	if pad := v.cols - len(s); pad > 0 {
		v.buf.Write(bytes.Repeat([]byte{' '}, pad))
	}
	v.buf.WriteString("\x1b[0m")
}

// drawCursor puts the cursor where the session's is, when that is in
// view and visible.
func (v *attachView) drawCursor() {
	g := v.grid
	if g == nil || !g.Cursor.Visible {
		return
	}
	r, c := g.Cursor.Row-v.offRow, g.Cursor.Col-v.offC
	if r < 0 || r >= v.rows-1 || c < 0 || c >= v.cols {
		return
	}
	v.buf.WriteString("\x1b[" + strconv.Itoa(r+1) + ";" + strconv.Itoa(c+1) + "H\x1b[?25h")
}
