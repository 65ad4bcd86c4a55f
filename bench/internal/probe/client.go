// Package probe holds what the bench commands share: a client of the
// ttywright binary over its stdio, readings of the server process from
// /proc, quantiles, the stream generators' list and the probes that more
// than one command runs (a flood read to its end, the load). It imports
// only the standard library, as the product module requires.
package probe

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Client is an MCP client of the binary over its stdin and stdout:
// newline-delimited JSON-RPC, written by hand. Calls may come from several
// goroutines at once; responses are matched by id.
type Client struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	stderr *lockedBuffer

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan response
	err     error
}

type response struct {
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// lockedBuffer collects the server's stderr: exec writes it from its own
// goroutine while an error message may read it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Start starts bin with args, runs initialize, notifications/initialized
// and tools/list, and returns the client and the time that took from just
// before exec: the server's cold start as a client sees it. An error
// carries the server's stderr.
func Start(bin string, args ...string) (*Client, time.Duration, error) {
	c := &Client{waiting: map[int]chan response{}, stderr: &lockedBuffer{}}
	c.cmd = exec.Command(bin, args...)
	c.cmd.Stderr = c.stderr
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return nil, 0, err
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, 0, err
	}
	t0 := time.Now()
	if err := c.cmd.Start(); err != nil {
		return nil, 0, err
	}
	go c.read(bufio.NewReaderSize(out, 1<<20))
	if _, err := c.Call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "ttywright-bench", "version": "1"}}); err != nil {
		c.Close()
		return nil, 0, err
	}
	if err := c.write(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		c.Close()
		return nil, 0, err
	}
	raw, err := c.Call("tools/list", map[string]any{})
	d := time.Since(t0)
	if err != nil {
		c.Close()
		return nil, 0, err
	}
	var list struct{ Tools []json.RawMessage }
	if json.Unmarshal(raw, &list) != nil || len(list.Tools) == 0 {
		c.Close()
		return nil, 0, fmt.Errorf("tools/list returned no tools: %s", raw)
	}
	return c, d, nil
}

// Pid is the server's process id.
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// read routes every response to its caller and drops notifications.
func (c *Client) read(r *bufio.Reader) {
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			c.mu.Lock()
			c.err = fmt.Errorf("the server's output ended: %v\nstderr:\n%s", err, c.stderr.String())
			for id, ch := range c.waiting {
				close(ch)
				delete(c.waiting, id)
			}
			c.mu.Unlock()
			return
		}
		var msg struct {
			ID *int `json:"id"`
			response
		}
		if json.Unmarshal(line, &msg) != nil || msg.ID == nil {
			continue // a notification
		}
		c.mu.Lock()
		ch := c.waiting[*msg.ID]
		delete(c.waiting, *msg.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- msg.response
		}
	}
}

// write sends one frame.
func (c *Client) write(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// Call sends one request and waits for its response; a JSON-RPC error is
// an error.
func (c *Client) Call(method string, params any) (json.RawMessage, error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	id := c.nextID
	ch := make(chan response, 1)
	c.waiting[id] = ch
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err == nil {
		_, err = c.in.Write(append(b, '\n'))
	}
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	r, ok := <-ch
	if !ok {
		return nil, c.err
	}
	if len(r.Error) > 0 {
		return nil, fmt.Errorf("%s: %s", method, r.Error)
	}
	return r.Result, nil
}

// Tool calls a tool and returns its structured result; isError is an
// error.
func (c *Client) Tool(name string, args map[string]any) (map[string]any, error) {
	raw, err := c.Call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	var r struct {
		IsError           bool            `json:"isError"`
		Content           json.RawMessage `json:"content"`
		StructuredContent map[string]any  `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.IsError {
		return nil, fmt.Errorf("%s: %s", name, r.Content)
	}
	if r.StructuredContent != nil {
		return r.StructuredContent, nil
	}
	// No structuredContent: the first text block, when it is a JSON object.
	var blocks []struct{ Text string }
	m := map[string]any{}
	if json.Unmarshal(r.Content, &blocks) == nil && len(blocks) > 0 && json.Unmarshal([]byte(blocks[0].Text), &m) != nil {
		m = map[string]any{}
	}
	return m, nil
}

// StartSession calls shell_start and returns the session's id.
func (c *Client) StartSession(args map[string]any) (string, error) {
	r, err := c.Tool("shell_start", args)
	if err != nil {
		return "", err
	}
	id, _ := r["shell_session_id"].(string)
	if id == "" {
		return "", errors.New("shell_start returned no shell_session_id")
	}
	return id, nil
}

// Close ends the server by closing its stdin, as MCP's stdio shutdown
// says, and kills it if it has not exited 15 s later (an error).
func (c *Client) Close() error {
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(15 * time.Second):
		c.cmd.Process.Kill()
		<-done
		return errors.New("the server did not exit within 15 s of stdin closing")
	}
}
