// Ttywright is an MCP server that runs programs in a pseudo-terminal for an
// AI agent. SKELETON: the protocol work writes the manual here.
package main

import (
	"os"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

func main() {
	_ = term.IsTerminal(int(os.Stdin.Fd()))
	_ = unix.Getpid()
}
