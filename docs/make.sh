#!/bin/sh
# Regenerates the README's pictures with ttywright itself:
#   docs/snap.png  the README's first command (ttywright snap), in a window frame
#   docs/demo.gif  an agent editing a file in vim, recorded through the MCP tools
#   docs/htop.png  a screenshot of htop through the MCP tools
# Needs Go, bash, vim and htop; the GIF and htop picture are driven by the
# official MCP Go SDK client (interop/makedocs), fetched by the Go toolchain.
set -eu
cd "$(dirname "$0")/.."
go run . snap -o docs/snap.png --cols 100 --rows 24 --trim --title "ttywright snap -- ls -l --color=always /usr" \
	-- ls -l --color=always /usr
(cd interop && go run ./makedocs -out ../docs)
ls -l docs
