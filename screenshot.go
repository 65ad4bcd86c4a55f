package main

// screenshot.go: shell_screenshot. It renders the session's screen to
// {OutputDir}/{sessionID}/{name}.png with .svg, .ansi and .txt beside it,
// records the capture for the session://{id}/screenshots resources, and
// can return the PNG inline as MCP image content.

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"
)

// screenshotArgs are shell_screenshot's arguments.
type screenshotArgs struct {
	SessionID string  `json:"session_id"`
	Name      string  `json:"name"`
	Border    *Border `json:"border"`
	Inline    *bool   `json:"inline"`
	Scale     *int    `json:"scale"`
}

// screenshotResult is shell_screenshot's structured result. Width and
// Height are the PNG file's size in pixels.
type screenshotResult struct {
	Filename string `json:"filename"`
	PNGPath  string `json:"png_path"`
	SVGPath  string `json:"svg_path"`
	ANSIPath string `json:"ansi_path"`
	TXTPath  string `json:"txt_path"`
	URI      string `json:"uri"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Bytes    int64  `json:"bytes"`
}

// screenshotBorderSchema describes the border argument.
var screenshotBorderSchema = map[string]any{
	"type":        "object",
	"description": `Optional window frame: {"style": "macos", "title": "..."} adds a title bar with the three window buttons (title defaults to the terminal's title)`,
	"properties": map[string]any{
		"style": map[string]any{"type": "string", "enum": []string{"macos", "none"}, "description": `"macos" (default when border is given) or "none"`},
		"title": map[string]any{"type": "string", "description": "Text in the title bar"},
	},
}

func (a *App) toolShellScreenshot() *Tool {
	return &Tool{
		Name:  "shell_screenshot",
		Title: "Take a screenshot",
		Description: "Render the session's current screen to a PNG (with .svg, .ansi and .txt beside it) under the " +
			"output directory, drawn with the embedded bitmap font in the session's theme. Returns the paths, " +
			"the size in pixels and the resource uri (session://{id}/screenshots/{name}). With inline: true the " +
			"PNG also comes back as image content so you can look at it (drawn at scale 1 unless scale is given). " +
			"To check text, shell_read is cheaper; take screenshots to show people what the screen looks like.",
		Input: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"session_id": map[string]any{"type": "string", "description": "Session id from shell_start"},
				"name":       map[string]any{"type": "string", "description": "File name without extension: letters, digits, '-', '_', '.' (default screenshot-N; a .png suffix is dropped)"},
				"border":     screenshotBorderSchema,
				"inline":     map[string]any{"type": "boolean", "description": "Also return the PNG as image content (default: the server's --inline-images)"},
				"scale":      map[string]any{"type": "integer", "minimum": 1, "maximum": 4, "description": "Pixel scale: a cell is 8*scale x 16*scale pixels (default: --scale for files, 1 for the inline image)"},
			},
			"required":             []string{"session_id"},
			"additionalProperties": false,
		},
		Output: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"filename":  map[string]any{"type": "string", "description": "The PNG's file name"},
				"png_path":  map[string]any{"type": "string"},
				"svg_path":  map[string]any{"type": "string"},
				"ansi_path": map[string]any{"type": "string"},
				"txt_path":  map[string]any{"type": "string"},
				"uri":       map[string]any{"type": "string", "description": "session://{id}/screenshots/{name}"},
				"width":     map[string]any{"type": "integer", "description": "PNG width in pixels"},
				"height":    map[string]any{"type": "integer", "description": "PNG height in pixels"},
				"bytes":     map[string]any{"type": "integer", "description": "PNG size"},
			},
			"required": []string{"filename", "png_path", "svg_path", "ansi_path", "txt_path", "uri", "width", "height"},
		},
		ReadOnly:   true,
		Idempotent: false,
		Handle: func(ctx context.Context, call *ToolCall) *ToolResult {
			var args screenshotArgs
			if err := call.Bind(&args); err != nil {
				return toolErrorf("%v", err)
			}
			return a.screenshot(args)
		},
	}
}

// screenshot validates the arguments, renders and writes the files.
func (a *App) screenshot(args screenshotArgs) *ToolResult {
	if strings.TrimSpace(args.SessionID) == "" {
		return toolErrorf("shell_screenshot: session_id is missing: pass the id shell_start returned (see sessions://list)")
	}
	s, err := a.session(args.SessionID)
	if err != nil {
		return toolErrorf("shell_screenshot: %v", err)
	}
	scale, inlineScale := a.cfg.Scale, 1
	if scale < 1 || scale > 4 {
		scale = 2
	}
	if args.Scale != nil {
		if *args.Scale < 1 || *args.Scale > 4 {
			return toolErrorf("shell_screenshot: scale %d is out of range: use 1 to 4 (a cell is 8*scale x 16*scale pixels)", *args.Scale)
		}
		scale, inlineScale = *args.Scale, *args.Scale
	}
	border := args.Border
	if border != nil {
		switch border.Style {
		case "", "macos":
			border = &Border{Style: "macos", Title: border.Title}
		case "none":
			border = nil
		default:
			return toolErrorf("shell_screenshot: border style %q is unknown: use \"macos\", or leave border out", border.Style)
		}
	}
	// Agents call tools in parallel: two screenshots at once took the same
	// default name (both reported screenshot-1, one file was left) and
	// raced on its .part files.
	s.shotMu.Lock()
	defer s.shotMu.Unlock()
	name := args.Name
	if name == "" {
		used := map[string]bool{}
		for _, c := range s.Screenshots() {
			used[c.Name] = true
		}
		for n := 1; name == "" || used[name]; n++ {
			name = fmt.Sprintf("screenshot-%d", n)
		}
	}
	if name, err = cleanName(name, ".png"); err != nil {
		return toolErrorf("shell_screenshot: %v", err)
	}
	inline := a.cfg.InlineImages
	if args.Inline != nil {
		inline = *args.Inline
	}
	theme, err := lookupTheme(s.Theme)
	if err != nil {
		theme = themeList[0]
	}

	snap := s.Snapshot()
	if err := checkImageSize(snap.Cols, snap.Rows, max(scale, inlineScale)); err != nil {
		return toolErrorf("shell_screenshot: %v", err)
	}
	img := RenderImage(snap, RenderOptions{Theme: theme, Scale: scale, Border: border})
	var pngBuf bytes.Buffer
	if err := encodePNG(&pngBuf, img); err != nil {
		return toolErrorf("shell_screenshot: encoding the PNG: %v", err)
	}
	files := []struct {
		ext  string
		data []byte
	}{
		{".png", pngBuf.Bytes()},
		{".svg", []byte(snapshotSVG(snap, theme, border))},
		{".ansi", []byte(screenANSI(snap))},
		{".txt", []byte(snapshotText(snap))},
	}
	for _, f := range files {
		if err := a.writeCapture(s.ID, name+f.ext, f.data); err != nil {
			if errors.Is(err, errOutputDirUnsafe) {
				return toolErrorf("shell_screenshot: %v", err) // it names the fix
			}
			return toolErrorf("shell_screenshot: %v (check --output-dir is writable)", err)
		}
	}

	b := img.Bounds()
	uri := screenshotURI(s.ID, name).String()
	res := screenshotResult{
		Filename: name + ".png",
		PNGPath:  a.capturePath(s.ID, name, ".png"),
		SVGPath:  a.capturePath(s.ID, name, ".svg"),
		ANSIPath: a.capturePath(s.ID, name, ".ansi"),
		TXTPath:  a.capturePath(s.ID, name, ".txt"),
		URI:      uri,
		Width:    b.Dx(),
		Height:   b.Dy(),
		Bytes:    int64(pngBuf.Len()),
	}
	s.AddScreenshot(Capture{Name: name, URI: uri, Path: res.PNGPath, MimeType: "image/png", Created: time.Now(),
		Width: res.Width, Height: res.Height, Bytes: res.Bytes})
	a.resourceListChanged()
	a.resourceUpdated(screenshotsURI(s.ID))
	a.resourceUpdated(screenshotURI(s.ID, name))

	out := &ToolResult{Structured: res}
	if inline {
		data := pngBuf.Bytes()
		if inlineScale != scale {
			var small bytes.Buffer
			if err := encodePNG(&small, RenderImage(snap, RenderOptions{Theme: theme, Scale: inlineScale, Border: border})); err != nil {
				return toolErrorf("shell_screenshot: encoding the PNG: %v", err)
			}
			data = small.Bytes()
		}
		out.Extra = append(out.Extra, Content{Type: "image", MimeType: "image/png", Data: base64.StdEncoding.EncodeToString(data)})
	}
	out.Extra = append(out.Extra, Content{Type: "resource_link", URI: uri, Name: name + ".png", MimeType: "image/png",
		Title: "Screenshot " + name, Description: fmt.Sprintf("%dx%d PNG of session %s", res.Width, res.Height, s.ID), Size: res.Bytes})
	return out
}

// writeCapture writes {OutputDir}/{sessionID}/{file} through os.Root (so a
// planted symlink cannot lead outside the output directory), via a
// temporary name and a rename, so readers never see half a file.
func (a *App) writeCapture(sessionID, file string, data []byte) error {
	f, err := a.createCapture(sessionID, file+".part")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		a.removeCapture(sessionID, file+".part")
		return fmt.Errorf("write %s: %w", a.capturePath(sessionID, file, ""), err)
	}
	return a.renameCapture(sessionID, file+".part", file)
}
