package main

// mcp_icon.go: ttywright's icon, the Implementation/Tool/Prompt/
// ResourceTemplate "icons" field of MCP 2025-11-25 and later. It is drawn
// by the server's own renderer (a 4x2-cell screen with a prompt, at scale
// 2) when first asked for, and served as a data: URI, so no client fetches
// anything and no binary file lives in the repository.

import (
	"bytes"
	"encoding/base64"
	"sync"
)

// icon is an MCP Icon: src (https or data: URI), mimeType, sizes ("WxH")
// and the theme ("dark" or "light") it is drawn for.
type icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// iconScreen is what the icon shows: a green bold prompt and a cursor on
// the first row, "tty" dimmed on the second, the cursor hidden.
const iconScreen = "\x1b[?25l\x1b[1;32m >\x1b[0;1m_\r\n\x1b[0;2m tty"

// iconPNG renders the icon: 4x2 cells of 8x16 pixels at scale 2, 64x64
// pixels, in the default (dark) theme.
func iconPNG() ([]byte, error) {
	t := NewTerminal(4, 2, 0)
	if _, err := t.Write([]byte(iconScreen)); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := encodePNG(&b, RenderImage(t.Snapshot(), RenderOptions{Theme: themeList[0], Scale: 2})); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// serverIcons returns the icons list, rendered once; nil if rendering
// failed (the field is optional).
var serverIcons = sync.OnceValue(func() []icon {
	b, err := iconPNG()
	if err != nil {
		return nil
	}
	return []icon{{Src: "data:image/png;base64," + base64.StdEncoding.EncodeToString(b),
		MimeType: "image/png", Sizes: []string{"64x64"}, Theme: "dark"}}
})
