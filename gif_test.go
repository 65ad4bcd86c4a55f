package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"math/rand/v2"
	"os"
	"testing"
	"time"
)

// synthFrame draws a w x h frame of terminal-like content: a background, a
// few coloured "text" blocks and, for gradient frames, a band of many colours
// (more than a GIF palette holds).
func synthFrame(w, h, step int, gradient bool) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, image.NewUniform(color.RGBA{0x28, 0x2c, 0x34, 0xff}), image.Point{}, draw.Src)
	cols := []color.RGBA{{0xe0, 0x6c, 0x75, 0xff}, {0x98, 0xc3, 0x79, 0xff}, {0xab, 0xb2, 0xbf, 0xff}, {0x61, 0xaf, 0xef, 0xff}}
	for i := 0; i <= step; i++ {
		x, y := (i*8)%w, (i*8/w*16)%h
		draw.Draw(img, image.Rect(x, y, x+6, y+12), image.NewUniform(cols[i%len(cols)]), image.Point{}, draw.Src)
	}
	if gradient {
		for y := h / 2; y < h/2+20 && y < h; y++ {
			for x := 0; x < w; x++ {
				img.SetRGBA(x, y, color.RGBA{uint8(x), uint8(y * 3), uint8(x ^ step), 0xff})
			}
		}
	}
	return img
}

// composite plays back a decoded GIF (disposal "none" everywhere, as the
// encoder writes it) and returns the canvas after each frame.
func composite(t *testing.T, g *gif.GIF) []*image.RGBA {
	t.Helper()
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	var out []*image.RGBA
	for i, fr := range g.Image {
		if g.Disposal[i] != gif.DisposalNone {
			t.Fatalf("frame %d: disposal %d, want none", i, g.Disposal[i])
		}
		draw.Draw(canvas, fr.Bounds(), fr, fr.Bounds().Min, draw.Over)
		out = append(out, image.NewRGBA(canvas.Rect))
		copy(out[len(out)-1].Pix, canvas.Pix)
	}
	return out
}

func encodeFrames(t *testing.T, frames []*image.RGBA, times []time.Duration, end time.Duration) (*gif.GIF, []byte) {
	t.Helper()
	var buf bytes.Buffer
	e := newGIFEncoder(&buf)
	t0 := time.Unix(1000, 0)
	for i, f := range frames {
		e.add(f, t0.Add(times[i]))
	}
	if _, err := e.finish(t0.Add(end)); err != nil {
		t.Fatalf("finish: %v", err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return g, buf.Bytes()
}

func TestGIFRoundTrip(t *testing.T) {
	t.Parallel()
	const w, h = 160, 96
	tests := []struct {
		name      string
		steps     []int  // synthFrame steps, in order
		gradient  []bool // per frame
		want      int    // distinct frames expected
		quantized bool
	}{
		{"one frame", []int{0}, []bool{false}, 1, false},
		{"typing", []int{0, 1, 2, 3, 4}, make([]bool, 5), 5, false},
		{"identical frames merge", []int{0, 0, 1, 1, 1, 2}, make([]bool, 6), 3, false},
		{"gradient is quantised", []int{0, 1, 2}, []bool{false, true, true}, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var frames []*image.RGBA
			var times []time.Duration
			for i, s := range tt.steps {
				frames = append(frames, synthFrame(w, h, s, tt.gradient[i]))
				times = append(times, time.Duration(i)*100*time.Millisecond)
			}
			end := time.Duration(len(frames)) * 100 * time.Millisecond
			g, _ := encodeFrames(t, frames, times, end)
			if len(g.Image) != tt.want {
				t.Fatalf("got %d frames, want %d", len(g.Image), tt.want)
			}
			if g.Config.Width != w || g.Config.Height != h {
				t.Errorf("got %dx%d, want %dx%d", g.Config.Width, g.Config.Height, w, h)
			}
			shown := composite(t, g)
			// Match each decoded frame with the last input frame it stands for.
			k := 0
			for i, f := range frames {
				if i+1 < len(frames) && bytes.Equal(frames[i+1].Pix, f.Pix) {
					continue
				}
				if k >= len(shown) {
					t.Fatalf("ran out of decoded frames at input %d", i)
				}
				if d := pixelDiff(shown[k], f); !tt.quantized && d != 0 || d > len(f.Pix)/8 {
					t.Errorf("frame %d (input %d): %d pixels differ", k, i, d)
				}
				if k > 0 && bytes.Equal(shown[k].Pix, shown[k-1].Pix) {
					t.Errorf("frames %d and %d are identical", k-1, k)
				}
				k++
			}
		})
	}
}

// pixelDiff counts pixels whose colours differ.
func pixelDiff(a, b *image.RGBA) int {
	n := 0
	for i := 0; i+3 < len(a.Pix) && i+3 < len(b.Pix); i += 4 {
		if a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] || a.Pix[i+2] != b.Pix[i+2] {
			n++
		}
	}
	return n
}

func TestGIFDelays(t *testing.T) {
	t.Parallel()
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	tests := []struct {
		name  string
		times []time.Duration // when each (distinct) frame appeared
		end   time.Duration
		want  []int // centiseconds
	}{
		{"real time", ms(0, 100, 350, 1000), 2500, []int{10, 25, 65, 150}},
		{"idle capped at 2 s", ms(0, 5000, 5100), 6500, []int{200, 10, 140}},
		{"last frame held 1 s", ms(0, 100), 150, []int{10, 100}},
		{"never below 2/100 s", ms(0, 5, 10, 100), 1200, []int{2, 2, 6, 110}},
		{"rounding does not drift", ms(0, 33, 66, 99, 133, 166, 199, 233, 266, 299), 1299,
			[]int{3, 4, 3, 3, 4, 3, 3, 4, 3, 100}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var frames []*image.RGBA
			for i := range tt.times {
				frames = append(frames, synthFrame(64, 32, i, false))
			}
			g, _ := encodeFrames(t, frames, tt.times, tt.end*time.Millisecond)
			if fmt.Sprint(g.Delay) != fmt.Sprint(tt.want) {
				t.Errorf("delays %v, want %v", g.Delay, tt.want)
			}
		})
	}
}

func TestGIFErrors(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	e := newGIFEncoder(&buf)
	if _, err := e.finish(time.Now()); err == nil {
		t.Errorf("finish with no frames: no error")
	}
	e = newGIFEncoder(&buf)
	e.add(synthFrame(16, 16, 0, false), time.Now())
	e.add(synthFrame(32, 16, 0, false), time.Now())
	if e.Err() == nil {
		t.Errorf("frame of another size: no error")
	}
	e = newGIFEncoder(&buf)
	e.add(image.NewRGBA(image.Rect(0, 0, 0, 0)), time.Now())
	if e.Err() == nil {
		t.Errorf("empty frame: no error")
	}
	e = newGIFEncoder(errWriter{})
	e.add(synthFrame(16, 16, 0, false), time.Now())
	if _, err := e.finish(time.Now()); err == nil {
		t.Errorf("failing writer: no error")
	}
}

type errWriter struct{}

func (errWriter) Write(p []byte) (int, error) { return 0, fmt.Errorf("disk full") }

// FuzzGIFRoundTrip encodes two frames made of arbitrary pixel bytes and
// checks that the decoded animation has the input's size and, while each
// frame has at most 255 colours (a palette less the transparent index),
// the last frame's exact pixels; with more, the last frame is quantised
// and every pixel still shows one of its colours.
func FuzzGIFRoundTrip(f *testing.F) {
	f.Add(uint8(8), uint8(4), []byte("hello, world"), []byte{1, 2, 3})
	f.Add(uint8(1), uint8(1), []byte{0}, []byte{255, 255, 255})
	f.Add(uint8(40), uint8(30), bytes.Repeat([]byte{7, 200, 13, 99, 250}, 300), []byte("x"))
	f.Fuzz(func(t *testing.T, w, h uint8, a, b []byte) {
		if w == 0 || h == 0 || len(a) == 0 || len(b) == 0 {
			return
		}
		mk := func(src []byte) *image.RGBA {
			img := image.NewRGBA(image.Rect(0, 0, int(w), int(h)))
			for i := range img.Pix {
				img.Pix[i] = src[i%len(src)]
				if i%4 == 3 {
					img.Pix[i] = 0xff
				}
			}
			return img
		}
		fa, fb := mk(a), mk(b)
		g, _ := encodeFrames(t, []*image.RGBA{fa, fb}, []time.Duration{0, time.Second}, 2*time.Second)
		if g.Config.Width != int(w) || g.Config.Height != int(h) {
			t.Fatalf("size %dx%d, want %dx%d", g.Config.Width, g.Config.Height, w, h)
		}
		shown := composite(t, g)
		last := shown[len(shown)-1]
		// Not len(b) <= 3*255: a pixel may start at any byte of b, so b
		// gives up to min(len(b), w*h) colours.
		ca, cb := colourSet(fa), colourSet(fb)
		switch {
		case len(ca) <= 255 && len(cb) <= 255:
			if d := pixelDiff(last, fb); d != 0 {
				t.Fatalf("last frame: %d pixels differ", d)
			}
		case len(ca) <= 255: // the first frame exact, the last quantised
			for i := 0; i < len(last.Pix); i += 4 {
				if c := [3]uint8(last.Pix[i : i+3]); !cb[c] {
					t.Fatalf("last frame (%d colours): pixel %d shows %v, not one of its colours", len(cb), i/4, c)
				}
			}
		}
	})
}

// colourSet returns the distinct RGB colours of img.
func colourSet(img *image.RGBA) map[[3]uint8]bool {
	set := map[[3]uint8]bool{}
	for i := 0; i < len(img.Pix); i += 4 {
		set[[3]uint8(img.Pix[i:i+3])] = true
	}
	return set
}

// BenchmarkGIFFrame encodes full-screen changes of a 120x40 screen at scale
// 1 (960x640), the worst case of a constantly redrawing program.
func BenchmarkGIFFrame(b *testing.B) {
	frames := make([]*image.RGBA, 8)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range frames {
		frames[i] = synthFrame(960, 640, 0, false)
		for k := 0; k < 400; k++ { // scattered "text" over the whole screen
			x, y := rng.IntN(120)*8, rng.IntN(40)*16
			draw.Draw(frames[i], image.Rect(x, y, x+7, y+14), image.NewUniform(color.RGBA{uint8(k), 0xc3, 0x79, 0xff}), image.Point{}, draw.Src)
		}
	}
	var out countWriter
	e := newGIFEncoder(&out)
	t0 := time.Now()
	b.SetBytes(960 * 640)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.add(frames[i%len(frames)], t0.Add(time.Duration(i)*100*time.Millisecond))
	}
	e.finish(t0.Add(time.Duration(b.N) * 100 * time.Millisecond))
	b.ReportMetric(float64(out.n)/float64(b.N), "gif-bytes/frame")
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// readGIF reads and decodes the GIF file at path, failing the test if it
// cannot.
func readGIF(t *testing.T, path string) *gif.GIF {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s does not decode: %v", path, err)
	}
	return g
}

// TestGIFIdleCap: an agent's recording shows a still screen at most
// gifIdleCap; a tape's (idleCap 0) keeps each pause as long as it was.
func TestGIFIdleCap(t *testing.T) {
	t.Parallel()
	a, b := image.NewRGBA(image.Rect(0, 0, 16, 16)), image.NewRGBA(image.Rect(0, 0, 16, 16))
	b.Pix[0] = 0xff
	for _, tc := range []struct {
		idleCap time.Duration
		wantCS  int // the first frame's delay, centiseconds
	}{{gifIdleCap, 200}, {0, 500}} {
		var buf bytes.Buffer
		e := newGIFEncoder(&buf)
		e.idleCap = tc.idleCap
		t0 := time.Unix(1000, 0)
		e.add(a, t0)
		e.add(b, t0.Add(5*time.Second))
		if _, err := e.finish(t0.Add(6 * time.Second)); err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if g.Delay[0] != tc.wantCS {
			t.Errorf("idle cap %v: a 5 s pause shows %d cs, want %d", tc.idleCap, g.Delay[0], tc.wantCS)
		}
	}
}
