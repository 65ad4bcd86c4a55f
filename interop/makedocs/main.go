// Command makedocs makes the README's pictures with ttywright itself,
// driven through its MCP tools by the official Go SDK client, the way an
// agent would: a GIF of editing a file in vim and a screenshot of htop,
// both in a macOS window frame. docs/make.sh runs it:
//
//	cd interop && go run ./makedocs -out ../docs
//
// It builds the binary from the repository root unless -bin is given, and
// needs bash, vim and htop.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	bin := flag.String("bin", "", "ttywright binary (default: go build the repository root)")
	out := flag.String("out", "../docs", "directory for demo.gif and htop.png")
	flag.Parse()
	if err := run(*bin, *out); err != nil {
		fmt.Fprintln(os.Stderr, "makedocs:", err)
		os.Exit(1)
	}
}

func run(bin, out string) error {
	tmp, err := os.MkdirTemp("", "ttywright-docs-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "ttywright")
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Dir = ".."
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("go build: %v", err)
		}
	}
	work := filepath.Join(tmp, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(bin, "--output-dir", filepath.Join(tmp, "out"), "--theme", "one-dark")
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "ttywright-makedocs", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	d := &driver{ctx: ctx, cs: cs}

	id := d.call("shell_start", map[string]any{"command": "/bin/bash", "args": []string{"--norc", "--noprofile", "-i"},
		"cols": 80, "rows": 20, "cwd": work,
		"env": map[string]string{"PS1": `\[\e[1;32m\]demo\[\e[0m\]:\[\e[1;34m\]~\[\e[0m\]$ `, "HISTFILE": "/dev/null", "LC_ALL": "C.UTF-8"}})["shell_session_id"]
	d.call("shell_wait", map[string]any{"session_id": id, "wait_for": "$ ", "timeout_ms": 10000})
	border := map[string]any{"style": "macos", "title": "ttywright: vim"}
	d.call("shell_record_start", map[string]any{"session_id": id, "fps": 15, "border": border, "scale": 2})
	d.send(id, map[string]any{"input": "vim --clean -n hello.txt", "type_delay_ms": 60})
	d.send(id, map[string]any{"input": `\r`, "wait_for": "[New"})
	d.send(id, map[string]any{"input": "i", "wait_for": "-- INSERT --"})
	d.send(id, map[string]any{"input": `Hello from ttywright!\r`, "type_delay_ms": 60})
	d.send(id, map[string]any{"input": "Typed by an agent, recorded as a GIF.", "type_delay_ms": 60, "wait_idle_ms": 400})
	d.send(id, map[string]any{"keys": []string{"Escape"}, "wait_idle_ms": 400})
	d.send(id, map[string]any{"input": ":wq", "type_delay_ms": 120})
	d.send(id, map[string]any{"input": `\r`, "wait_for": "$ "})
	d.send(id, map[string]any{"input": `cat hello.txt\r`, "type_delay_ms": 60, "wait_for": "recorded as a GIF.", "wait_idle_ms": 1500})
	rec := d.call("shell_record_stop", map[string]any{"session_id": id, "name": "demo"})
	d.call("shell_stop", map[string]any{"session_id": id})

	// htop shows only this session's processes (-p), a few sleeping and one
	// busy, so the picture shows ttywright and not the machine it ran on.
	hid := d.call("shell_start", map[string]any{"command": "/bin/bash", "args": []string{"--norc", "--noprofile", "-i"},
		"cols": 100, "rows": 24, "theme": "dracula", "cwd": work,
		"env": map[string]string{"HOME": work, "PS1": "$ ", "HISTFILE": "/dev/null"}})["shell_session_id"]
	d.call("shell_wait", map[string]any{"session_id": hid, "wait_for": "$", "timeout_ms": 10000})
	d.send(hid, map[string]any{"input": `sleep 300 & sleep 301 & yes >/dev/null & htop -p "$(pgrep -d, -s 0)"\r`, "wait_for": "F10"})
	d.call("shell_wait", map[string]any{"session_id": hid, "wait_idle_ms": 1200, "timeout_ms": 5000})
	shot := d.call("shell_screenshot", map[string]any{"session_id": hid, "name": "htop",
		"border": map[string]any{"style": "macos", "title": "ttywright: htop"}})
	d.call("shell_stop", map[string]any{"session_id": hid})
	if d.err != nil {
		return d.err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for src, dst := range map[any]string{rec["gif_path"]: "demo.gif", shot["png_path"]: "htop.png"} {
		if err := copyFile(fmt.Sprint(src), filepath.Join(out, dst)); err != nil {
			return err
		}
		fmt.Println("wrote", filepath.Join(out, dst))
	}
	return nil
}

// driver calls tools and keeps the first error, so the script reads as a
// list of steps.
type driver struct {
	ctx context.Context
	cs  *mcp.ClientSession
	err error
}

func (d *driver) call(name string, args map[string]any) map[string]any {
	if d.err != nil {
		return map[string]any{}
	}
	res, err := d.cs.CallTool(d.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err == nil && res.IsError {
		err = errors.New(fmt.Sprint(res.Content[0].(*mcp.TextContent).Text))
	}
	if err != nil {
		d.err = fmt.Errorf("%s: %v", name, err)
		return map[string]any{}
	}
	var m map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &m)
	return m
}

// send types into a session; wait_for must match when given.
func (d *driver) send(id any, args map[string]any) {
	args["session_id"] = id
	args["timeout_ms"] = 15000
	r := d.call("shell_send", args)
	if _, waits := args["wait_for"]; waits && d.err == nil && r["matched"] != true {
		d.err = fmt.Errorf("shell_send %v: %q never appeared", args["input"], args["wait_for"])
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
