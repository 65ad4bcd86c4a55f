package main

// tool_screenshot.go: shell_screenshot. It renders the session's screen to
// {OutputDir}/{sessionID}/{name}.png with .svg, .ansi and .txt beside it,
// records the capture for the session://{id}/screenshots resources, and
// can return the PNG inline as MCP image content.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
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
	Replaced bool   `json:"replaced,omitempty"` // the session had a screenshot of this name: its files were overwritten

	content []Content // the inline image and the resource_link, after the JSON
}

// blocks adds the inline image (when asked for) and the resource_link.
func (r screenshotResult) blocks() (string, []Content) { return "", r.content }

func (tb *Toolbox) toolShellScreenshot() *Tool {
	return newTool(Tool{
		Name:        "shell_screenshot",
		Title:       "Take a screenshot",
		Description: "Save the screen as PNG (and .svg, .ansi, .txt); returns paths, size, uri. For text, shell_read.",
		Input: objectSchema(map[string]any{
			"session_id": sessionIDProp,
			"name":       prop("string", "File name; default screenshot-N."),
			"border":     borderSchema,
			"inline":     prop("boolean", fmt.Sprintf("Also return the image (default %t).", tb.cfg.InlineImages)),
			"scale":      scaleProp(tb.cfg.Scale),
		}, "session_id"),
		ReadOnly: true,
	}, tb.screenshot, screenshotStep)
}

// shotOptions are shell_screenshot's checked drawing options: the pixel
// scale of the files and of the inline image, the frame, and whether the
// PNG comes back inline.
type shotOptions struct {
	scale, inlineScale int
	border             *Border
	inline             bool
}

// screenshot renders the session's screen, writes the files and records
// the capture.
func (tb *Toolbox) screenshot(_ context.Context, _ *ToolCall, args screenshotArgs) (screenshotResult, error) {
	if strings.TrimSpace(args.SessionID) == "" {
		return screenshotResult{}, errors.New("session_id is missing: pass the id shell_start returned (see sessions://list)")
	}
	s, err := tb.session(args.SessionID)
	if err != nil {
		return screenshotResult{}, err
	}
	opt, err := tb.shotOptions(args)
	if err != nil {
		return screenshotResult{}, err
	}
	// Agents call tools in parallel: two screenshots at once must not take
	// the same default name or write the same .part files.
	s.shotMu.Lock()
	defer s.shotMu.Unlock()
	name, err := screenshotName(s, args.Name)
	if err != nil {
		return screenshotResult{}, err
	}
	theme, err := lookupTheme(s.Theme)
	if err != nil {
		theme = themeList[0]
	}
	snap := s.Snapshot()
	if err := checkImageSize(snap.Cols, snap.Rows, max(opt.scale, opt.inlineScale)); err != nil {
		return screenshotResult{}, err
	}
	replaced := slices.ContainsFunc(s.Screenshots(), func(c Capture) bool { return c.Name == name })
	png, res, err := tb.writeScreenshot(s.ID, name, snap, RenderOptions{Theme: theme, Scale: opt.scale, Border: opt.border, Layout: tb.cfg.Layout})
	if err != nil {
		return screenshotResult{}, err
	}
	res.Replaced = replaced
	s.AddScreenshot(Capture{Name: name, URI: res.URI, Path: res.PNGPath, MimeType: "image/png", Created: time.Now(),
		Width: res.Width, Height: res.Height, Bytes: res.Bytes})

	if opt.inline {
		if opt.inlineScale != opt.scale {
			var small bytes.Buffer
			if err := encodePNG(&small, RenderImage(snap, RenderOptions{Theme: theme, Scale: opt.inlineScale, Border: opt.border, Layout: tb.cfg.Layout})); err != nil {
				return screenshotResult{}, fmt.Errorf("encoding the PNG: %v", err)
			}
			png = small.Bytes()
		}
		res.content = append(res.content, Content{Type: "image", MimeType: "image/png", Data: base64.StdEncoding.EncodeToString(png)})
	}
	res.content = append(res.content, Content{Type: "resource_link", URI: res.URI, Name: name + ".png", MimeType: "image/png",
		Title: "Screenshot " + name, Description: fmt.Sprintf("%dx%d PNG of session %s", res.Width, res.Height, s.ID), Size: res.Bytes})
	return res, nil
}

// shotOptions checks scale and border and picks the defaults: files at
// --scale (2 when that is out of range), the inline image at scale 1
// unless scale is given, inline per --inline-images.
func (tb *Toolbox) shotOptions(args screenshotArgs) (shotOptions, error) {
	o := shotOptions{scale: tb.cfg.Scale, inlineScale: 1, inline: tb.cfg.InlineImages}
	if o.scale < 1 || o.scale > 4 {
		o.scale = 2
	}
	if args.Scale != nil {
		s, err := scaleArg(args.Scale, 0)
		if err != nil {
			return o, err
		}
		o.scale, o.inlineScale = s, s
	}
	var err error
	if o.border, err = parseBorder(args.Border); err != nil {
		return o, err
	}
	if args.Inline != nil {
		o.inline = *args.Inline
	}
	return o, nil
}

// screenshotName checks name, or picks "screenshot-N" with the smallest N
// the session has not used. s.shotMu is held.
func screenshotName(s *Session, name string) (string, error) {
	if name == "" {
		used := map[string]bool{}
		for _, c := range s.Screenshots() {
			used[c.Name] = true
		}
		for n := 1; name == "" || used[name]; n++ {
			name = fmt.Sprintf("screenshot-%d", n)
		}
	}
	return cleanName(name, ".png")
}

// writeScreenshot renders snap and writes {name}.png, .svg, .ansi and
// .txt into the session's capture directory. It returns the PNG and the
// result describing the files.
func (tb *Toolbox) writeScreenshot(id, name string, snap *Snapshot, ro RenderOptions) ([]byte, screenshotResult, error) {
	img := RenderImage(snap, ro)
	var pngBuf bytes.Buffer
	if err := encodePNG(&pngBuf, img); err != nil {
		return nil, screenshotResult{}, fmt.Errorf("encoding the PNG: %v", err)
	}
	files := []captureData{
		{name + ".png", pngBuf.Bytes()},
		{name + ".svg", []byte(snapshotSVG(snap, ro.Theme, ro.Border))},
		{name + ".ansi", screenANSI(snap, ansiLines)},
		{name + ".txt", []byte(snapshotText(snap))},
	}
	if err := tb.store.writeFiles(id, files); err != nil {
		if errors.Is(err, errOutputDirUnsafe) || errors.Is(err, errOutputFull) {
			return nil, screenshotResult{}, err // it names the fix
		}
		return nil, screenshotResult{}, fmt.Errorf("%v (check --output-dir is writable)", err)
	}
	b := img.Bounds()
	return pngBuf.Bytes(), screenshotResult{
		Filename: name + ".png",
		PNGPath:  tb.store.path(id, name, ".png"),
		SVGPath:  tb.store.path(id, name, ".svg"),
		ANSIPath: tb.store.path(id, name, ".ansi"),
		TXTPath:  tb.store.path(id, name, ".txt"),
		URI:      screenshotURI(id, name).String(),
		Width:    b.Dx(),
		Height:   b.Dy(),
		Bytes:    int64(pngBuf.Len()),
	}, nil
}

// screenshotReply is what a trace shows of shell_screenshot's reply.
type screenshotReply struct {
	Filename string `json:"filename"`
}

// screenshotStep is shell_screenshot's step form: a Screenshot of the
// same name, and the PNG beside the trace.
func screenshotStep(in screenshotArgs, out screenshotResult) stepView {
	v := stepView{SessionID: in.SessionID, Summary: in.Name, Reply: screenshotReply{out.Filename}}
	if out.Filename != "" {
		v.Shots = []string{out.Filename}
	}
	name := strings.TrimSuffix(cmp.Or(out.Filename, in.Name+".png"), ".png") + ".png"
	v.Tape = []tapeCmd{{Name: "Screenshot", Text: name, Count: 1}}
	return v
}
