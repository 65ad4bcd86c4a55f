package main

// pngenc.go: a PNG encoder for paletted screenshots, faster than
// image/png for this case. A screen of text is mostly runs of a few
// colours, so the encoder packs pixels at the smallest bit depth the
// palette allows (1, 2, 4 or 8 bits; image/png's sub-byte path calls an
// interface method per pixel), uses no row filters (they do not help
// indexed colour), and compresses bands of rows concurrently: each band
// is an independent run of deflate blocks ending in a sync flush, and the
// bands are joined into one zlib stream (as pigz does). Band boundaries
// depend only on the image, so the output is the same on every machine.
// References: PNG (ISO/IEC 15948, RFC 2083), zlib (RFC 1950), deflate
// (RFC 1951).

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"io"
	"runtime"
	"sync"
)

// pngBandBytes is the least packed image data worth a band of its own.
const pngBandBytes = 256 << 10

// flateWriters keeps deflate compressors (about 1 MB each) for reuse.
var flateWriters sync.Pool

// rawBuffers keeps the packed rows of a band for reuse (*[]byte).
var rawBuffers sync.Pool

// writePalettedPNG encodes m. Palettes of more than 256 colours are an
// error from image/png's rules; callers pass RenderImage's output.
func writePalettedPNG(w io.Writer, m *image.Paletted) error {
	b := m.Bounds()
	width, height := b.Dx(), b.Dy()
	if width <= 0 || height <= 0 || len(m.Palette) == 0 || len(m.Palette) > 256 {
		return pngEncoder.Encode(w, m) // let image/png report the problem
	}
	depth := 8
	switch n := len(m.Palette); {
	case n <= 2:
		depth = 1
	case n <= 4:
		depth = 2
	case n <= 16:
		depth = 4
	}
	rowBytes := 1 + (width*depth+7)/8 // filter byte + packed pixels

	// Bands of whole rows, compressed concurrently: at most 8, an even
	// number when more than one, so 2, 4 or 8 cores share them evenly.
	nb := min(8, rowBytes*height/pngBandBytes)
	if nb > 1 {
		nb &^= 1
	}
	nb = max(nb, 1)
	rowsPer := (height + nb - 1) / nb
	nb = (height + rowsPer - 1) / rowsPer
	type band struct {
		z     bytes.Buffer
		adler uint32
		n     int // uncompressed bytes
		err   error
	}
	bands := make([]band, nb)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range bands {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			bd := &bands[i]
			y0, y1 := i*rowsPer, min((i+1)*rowsPer, height)
			rawp, _ := rawBuffers.Get().(*[]byte)
			if rawp == nil {
				rawp = new([]byte)
			}
			defer rawBuffers.Put(rawp)
			if cap(*rawp) < (y1-y0)*rowBytes {
				*rawp = make([]byte, (y1-y0)*rowBytes)
			}
			raw := (*rawp)[:(y1-y0)*rowBytes]
			bd.z.Grow(len(raw) / 8)
			for y := y0; y < y1; y++ {
				raw[(y-y0)*rowBytes] = 0 // filter type None
				packRow(raw[(y-y0)*rowBytes+1:(y-y0+1)*rowBytes], m.Pix[(y+b.Min.Y-m.Rect.Min.Y)*m.Stride+(b.Min.X-m.Rect.Min.X):], width, depth)
			}
			bd.adler, bd.n = adler32.Checksum(raw), len(raw)
			zw, _ := flateWriters.Get().(*flate.Writer)
			if zw == nil {
				zw, _ = flate.NewWriter(&bd.z, flate.BestSpeed)
			} else {
				zw.Reset(&bd.z)
			}
			defer flateWriters.Put(zw)
			if _, err := zw.Write(raw); err != nil {
				bd.err = err
				return
			}
			if i == nb-1 {
				bd.err = zw.Close() // the final block
			} else {
				bd.err = zw.Flush() // byte-aligned, not final
			}
		}()
	}
	wg.Wait()

	var sum uint32 = 1
	for i := range bands {
		if bands[i].err != nil {
			return bands[i].err
		}
		sum = adler32Combine(sum, bands[i].adler, bands[i].n)
	}
	pw := &pngWriter{w: w}
	pw.write([]byte("\x89PNG\r\n\x1a\n"))
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(width))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(height))
	ihdr = append(ihdr, byte(depth), 3, 0, 0, 0) // colour type 3: indexed
	pw.chunk("IHDR", ihdr)
	plte := make([]byte, 0, 3*len(m.Palette))
	var trns []byte
	for i, c := range m.Palette {
		r, g, bl, a := c.RGBA()
		if a != 0xffff {
			for len(trns) < i {
				trns = append(trns, 0xff)
			}
			trns = append(trns, byte(a>>8))
			if a != 0 { // un-premultiply
				r, g, bl = r*0xffff/a, g*0xffff/a, bl*0xffff/a
			}
		}
		plte = append(plte, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	pw.chunk("PLTE", plte)
	if trns != nil {
		pw.chunk("tRNS", trns)
	}
	// The zlib stream, one IDAT chunk a band: header, deflate data, Adler-32.
	for i := range bands {
		data := bands[i].z.Bytes()
		if i == 0 {
			data = append([]byte{0x78, 0x01}, data...) // deflate, 32K window, fastest
		}
		if i == nb-1 {
			data = binary.BigEndian.AppendUint32(data, sum)
		}
		pw.chunk("IDAT", data)
	}
	pw.chunk("IEND", nil)
	return pw.err
}

// packRow packs width palette indices from src into dst at depth bits a
// pixel, leftmost pixel in the high bits.
func packRow(dst, src []byte, width, depth int) {
	switch depth {
	case 8:
		copy(dst, src[:width])
	case 4:
		x := 0
		for ; x+1 < width; x += 2 {
			dst[x/2] = src[x]<<4 | src[x+1]&0x0f
		}
		if x < width {
			dst[x/2] = src[x] << 4
		}
	default:
		per := 8 / depth
		for i := range dst {
			dst[i] = 0
		}
		for x := 0; x < width; x++ {
			dst[x/per] |= src[x] << (8 - depth*(x%per+1))
		}
	}
}

// adler32Combine returns the Adler-32 of the concatenation of two byte
// strings from their checksums and the second one's length (zlib's
// adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int) uint32 {
	const base = 65521
	rem := uint32(len2 % base)
	s1 := a1 & 0xffff
	s2 := rem * s1 % base
	s1 += a2&0xffff + base - 1
	s2 += a1>>16 + a2>>16 + base - rem
	if s1 >= base {
		s1 -= base
	}
	if s1 >= base {
		s1 -= base
	}
	if s2 >= 2*base {
		s2 -= 2 * base
	}
	if s2 >= base {
		s2 -= base
	}
	return s2<<16 | s1
}

// pngWriter writes chunks with a sticky error.
type pngWriter struct {
	w   io.Writer
	err error
}

func (p *pngWriter) write(b []byte) {
	if p.err == nil {
		_, p.err = p.w.Write(b)
	}
}

// chunk writes one PNG chunk: length, type, data, CRC-32 of type and data.
func (p *pngWriter) chunk(typ string, data []byte) {
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[:4], uint32(len(data)))
	copy(hdr[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(hdr[4:])
	crc.Write(data)
	p.write(hdr[:])
	p.write(data)
	p.write(binary.BigEndian.AppendUint32(nil, crc.Sum32()))
}
