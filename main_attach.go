//go:build unix

package main

// main_attach.go: the attach subcommand, `ttywright attach [SESSION]`: a
// person watches a session of a running server in their own terminal and
// may take its keyboard. It finds the user's servers by their sockets
// (attach_dir_unix.go), asks each for its sessions, and draws the chosen
// one (main_attach_view.go) until the person detaches.

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// attachFlags are the attach subcommand's flags and argument.
type attachFlags struct {
	list    bool
	server  int
	control bool
	resize  bool
	web     bool
	session string
}

const attachUsage = `usage: ttywright attach [--server PID] [--control] [--resize] [SESSION]
       ttywright attach --list
       ttywright attach --web [--server PID] [SESSION]

Watch a session of a running ttywright server of yours in this terminal.
With no SESSION it lists the sessions and attaches when there is one.
--web prints the link of the session's live view in a browser instead.
Keys: Ctrl-] t takes the keyboard, Ctrl-] g gives it back, Ctrl-] d detaches.
`

// parseAttachFlags reads the attach subcommand's arguments.
func parseAttachFlags(args []string, help io.Writer) (attachFlags, error) {
	var f attachFlags
	fs := flag.NewFlagSet("ttywright attach", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&f.list, "list", false, "list the sessions of every server of yours and exit")
	fs.IntVar(&f.server, "server", 0, "the server's pid, when two servers have a session of that id")
	fs.BoolVar(&f.control, "control", false, "take the keyboard at once")
	fs.BoolVar(&f.resize, "resize", false, "while you hold the keyboard, the session takes this terminal's size")
	fs.BoolVar(&f.web, "web", false, "print the link of the session's live view in a browser and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(help, attachUsage)
			fs.SetOutput(help)
			fs.PrintDefaults()
		}
		return f, err
	}
	switch fs.NArg() {
	case 0:
	case 1:
		f.session = fs.Arg(0)
	default:
		return f, fmt.Errorf("attach takes one session id, not %q", strings.Join(fs.Args(), " "))
	}
	return f, nil
}

// runAttach is the attach subcommand; it returns the exit status.
func runAttach(args []string, getenv func(string) string, stdin *os.File, stdout, stderr io.Writer) int {
	f, err := parseAttachFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "ttywright attach: %v (ttywright attach -h)\n", err)
		return 2
	}
	dir := attachDir(getenv)
	if err := checkAttachDir(dir); err != nil {
		fmt.Fprintf(stderr, "ttywright attach: no server of yours is running (%v)\n", err)
		return 1
	}
	found := listServers(dir, f.server)
	if f.list {
		printSessions(stdout, found)
		return 0
	}
	pick, err := pickSession(found, f.session)
	if err != nil {
		if f.session == "" && len(found) > 1 {
			printSessions(stderr, found)
		}
		fmt.Fprintf(stderr, "ttywright attach: %v\n", err)
		return 1
	}
	if f.web {
		url, err := askWeb(pick)
		if err != nil {
			fmt.Fprintf(stderr, "ttywright attach: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, url)
		return 0
	}
	if err := attachTerminal(pick, f, stdin); err != nil {
		fmt.Fprintf(stderr, "ttywright attach: %v\n", err)
		return 1
	}
	return 0
}

// foundSession is one session of one server.
type foundSession struct {
	path    string // the server's socket
	pid     int
	service bool // the server is the user's shared service
	attachSessionJSON
}

// listServers asks each live server in dir (only the one of pid server,
// when not 0) for its sessions. A server that does not answer in time is
// left out.
func listServers(dir string, server int) []foundSession {
	var out []foundSession
	for pid, path := range attachSockets(dir) {
		if server != 0 && pid != server {
			continue
		}
		list, err := askSessions(path)
		if err != nil {
			continue
		}
		for _, s := range list.Sessions {
			out = append(out, foundSession{path: path, pid: list.Server, service: list.Service, attachSessionJSON: s})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].pid != out[j].pid {
			return out[i].pid < out[j].pid
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// askSessions sends list to the server at path and reads its answer.
func askSessions(path string) (attachSessionsFrame, error) {
	var f attachSessionsFrame
	c, err := net.DialTimeout("unix", path, time.Second)
	if err != nil {
		return f, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte("{\"op\":\"list\"}\n")); err != nil {
		return f, err
	}
	line, err := newFrameReader(c).next()
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(line, &f); err != nil || f.Op != "sessions" {
		return f, fmt.Errorf("the server at %s did not list its sessions", path)
	}
	return f, nil
}

// askWeb asks the server of s for the link of its live view.
func askWeb(s foundSession) (string, error) {
	c, err := net.DialTimeout("unix", s.path, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	req, _ := encodeFrame(attachRequest{Op: "web", Session: s.ID}) // always encodes
	if _, err := c.Write(req); err != nil {
		return "", err
	}
	line, err := newFrameReader(c).next()
	if err != nil {
		return "", err
	}
	var f struct{ Op, URL, Message string }
	switch err := json.Unmarshal(line, &f); {
	case err != nil:
		return "", fmt.Errorf("server %d did not answer with a link: %v", s.pid, err)
	case f.Op == "error":
		return "", errors.New(f.Message)
	case f.Op != "web" || f.URL == "":
		return "", fmt.Errorf("server %d did not answer with a link", s.pid)
	}
	return f.URL, nil
}

// printSessions writes the sessions as a table.
func printSessions(w io.Writer, found []foundSession) {
	if len(found) == 0 {
		fmt.Fprintln(w, "no sessions: no server of yours runs one")
		return
	}
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tSESSION\tNAME\tCLIENT\tCOMMAND\tSIZE\tSTATE\tIDLE\tKEYBOARD\tVIEWERS")
	for _, s := range found {
		server := strconv.Itoa(s.pid)
		if s.service {
			server += " (service)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%dx%d\t%s\t%s\t%s\t%d\n", server, s.ID, cmp.Or(s.Name, "-"), cmp.Or(s.Client, "-"), s.Command, s.Cols, s.Rows, s.State,
			(time.Duration(s.IdleMS) * time.Millisecond).Round(time.Second), s.Keyboard, s.Viewers)
	}
	tw.Flush()
}

// pickSession is the session to attach to: the one named id (in one
// server), or with no id the only one there is.
func pickSession(found []foundSession, id string) (foundSession, error) {
	var match []foundSession
	for _, s := range found {
		if id == "" || s.ID == id || s.Name == id {
			match = append(match, s)
		}
	}
	switch {
	case len(match) == 1:
		return match[0], nil
	case len(match) == 0 && id == "":
		return foundSession{}, errors.New("no server of yours runs a session")
	case len(match) == 0:
		return foundSession{}, fmt.Errorf("no session %q: ttywright attach --list lists them", id)
	case id == "":
		return foundSession{}, errors.New("there are several sessions: name one, e.g. ttywright attach " + match[0].ID)
	}
	var pids []string
	for _, s := range match {
		pids = append(pids, fmt.Sprint(s.pid))
	}
	return foundSession{}, fmt.Errorf("servers %s each have a session %q: pick one with --server PID", strings.Join(pids, ", "), id)
}
