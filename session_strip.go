package main

// session_strip.go: the shell integration's own marks taken out of the
// output that leaves the emulator. The marks (OSC 133 and OSC 7 carrying
// the session's nonce, and a C mark's whole command line) are for the
// emulator; a raw read or a recording that kept them would hand the
// nonce, with which anyone can forge the shell's marks, and the user's
// command lines to whoever reads it. A program's own OSC 133, without
// the nonce, is its output and stays.

import "bytes"

// markStrip removes the integration's marks from a stream of output,
// however the reads split them. A mark starts with one of its prefixes
// ("ESC ] 133 ; A ; tw_nonce=NONCE" for kinds A to D, "ESC ] 7 ;
// tw_nonce=NONCE"), whose next byte is ';' or the terminator, and ends
// at BEL or ST (ESC \), as the emulator's OSC parser ends it (CAN and
// SUB abort it). The zero value strips nothing; use newMarkStrip.
type markStrip struct {
	prefixes [][]byte
	held     []byte // the start of a possible mark, held back until it is told apart
	state    stripState
}

type stripState uint8

const (
	stripText    stripState = iota // passing output through
	stripPrefix                    // held holds a prefix of a mark's prefix
	stripConfirm                   // held holds a whole prefix: the next byte decides
	stripDrop                      // inside a mark: dropped up to its terminator
	stripDropEsc                   // inside a mark after ESC: '\' ends it
)

// newMarkStrip returns the filter for the marks that carry nonce; nil
// when nonce is "" (no integration: nothing to strip).
func newMarkStrip(nonce string) *markStrip {
	if nonce == "" {
		return nil
	}
	f := &markStrip{}
	for _, k := range "ABCD" {
		f.prefixes = append(f.prefixes, []byte("\x1b]133;"+string(k)+";tw_nonce="+nonce))
	}
	f.prefixes = append(f.prefixes, []byte("\x1b]7;tw_nonce="+nonce))
	return f
}

// filter appends p without the marks to dst and returns it. Bytes that
// may start a mark are held until the next call tells them apart.
func (f *markStrip) filter(dst, p []byte) []byte {
	for len(p) > 0 {
		if f.state == stripText {
			i := bytes.IndexByte(p, 0x1b)
			if i < 0 {
				return append(dst, p...)
			}
			dst = append(dst, p[:i]...)
			p = p[i:]
		}
		dst = f.step(dst, p[0])
		p = p[1:]
	}
	return dst
}

// step takes one byte outside stripText, or the ESC that leaves it.
func (f *markStrip) step(dst []byte, b byte) []byte {
	switch f.state {
	case stripText, stripPrefix:
		f.held = append(f.held, b)
		switch f.matchHeld() {
		case 0:
			return f.release(dst)
		case 2:
			f.state = stripConfirm
		default:
			f.state = stripPrefix
		}
	case stripConfirm:
		switch b {
		case ';':
			f.held, f.state = f.held[:0], stripDrop
		case 0x07, 0x18, 0x1a:
			f.held, f.state = f.held[:0], stripText
		case 0x1b:
			f.held, f.state = f.held[:0], stripDropEsc
		default: // a longer token: the program's, not ours
			f.held = append(f.held, b)
			return f.release(dst)
		}
	case stripDrop:
		switch b {
		case 0x07, 0x18, 0x1a:
			f.state = stripText
		case 0x1b:
			f.state = stripDropEsc
		}
	case stripDropEsc:
		f.state = stripText
		if b != '\\' { // the ESC ended the mark and starts a sequence of its own
			dst = f.step(dst, 0x1b)
			return f.step(dst, b)
		}
	}
	return dst
}

// matchHeld reports how held compares with the prefixes: 0 no prefix
// starts with it, 1 some prefix starts with it, 2 it is a whole prefix.
func (f *markStrip) matchHeld() int {
	partial := 0
	for _, p := range f.prefixes {
		switch {
		case bytes.Equal(p, f.held):
			return 2
		case bytes.HasPrefix(p, f.held):
			partial = 1
		}
	}
	return partial
}

// release passes on the held bytes that start no mark: the first is
// output, and the rest are looked at again, since an ESC among them may
// start one.
func (f *markStrip) release(dst []byte) []byte {
	held := append([]byte(nil), f.held...)
	f.held, f.state = f.held[:0], stripText
	dst = append(dst, held[0])
	return f.filter(dst, held[1:])
}
