package main

// tools_shell.go: shell_start, shell_send, shell_read, shell_wait,
// shell_resize, shell_stop. SKELETON: the PTY work replaces these.

import "context"

func notYet(name string) *Tool {
	return &Tool{Name: name, Input: map[string]any{"type": "object"},
		Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
			return toolErrorf("%s: not implemented yet", name)
		}}
}

func (a *App) toolShellStart() *Tool  { return notYet("shell_start") }
func (a *App) toolShellSend() *Tool   { return notYet("shell_send") }
func (a *App) toolShellRead() *Tool   { return notYet("shell_read") }
func (a *App) toolShellWait() *Tool   { return notYet("shell_wait") }
func (a *App) toolShellResize() *Tool { return notYet("shell_resize") }
func (a *App) toolShellStop() *Tool   { return notYet("shell_stop") }
