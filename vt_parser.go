package main

// vt_parser.go: the escape-sequence parser, a table-driven state machine
// after Paul Williams' DEC ANSI parser (vt100.net/emu/dec_ansi_parser).
// The table is built once by vtBuildTable from the diagram's rules; the
// byte loop, Terminal.feed, looks a byte up, runs the action and moves
// to the next state. Parameters go into a fixed array as digits arrive,
// so no sequence allocates.
//
// C1 handling: the terminal always runs in UTF-8 mode, so bytes 0x80-0x9F
// are never controls. In the ground state they are UTF-8 continuation
// bytes; inside OSC, DCS and SOS/PM/APC strings they are string content
// (U+2733 is E2 9C B3, and 0x9C there must not end the string); inside
// ESC and CSI sequences they are ignored.

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// vtState is a parser state of the DEC diagram.
type vtState uint8

// Parser states.
const (
	stGround vtState = iota
	stEscape
	stEscapeInter
	stCSIEntry
	stCSIParam
	stCSIInter
	stCSIIgnore
	stDCSEntry
	stDCSParam
	stDCSInter
	stDCSPass
	stDCSIgnore
	stOSC
	stString // SOS, PM and APC strings: consumed and dropped
	vtNumStates
)

// vtStateNames names the states for test failure messages.
var vtStateNames = [vtNumStates]string{
	"ground", "escape", "escape-intermediate", "csi-entry", "csi-param",
	"csi-intermediate", "csi-ignore", "dcs-entry", "dcs-param",
	"dcs-intermediate", "dcs-passthrough", "dcs-ignore", "osc-string",
	"sos-pm-apc-string",
}

func (s vtState) String() string {
	if s < vtNumStates {
		return vtStateNames[s]
	}
	return "invalid"
}

// vtAction is what the parser does with a byte on a transition.
type vtAction uint8

// Parser actions. Entry and exit actions (clear, osc start/end, hook,
// unhook) are not in the table: Write runs them when the state changes.
const (
	acNone        vtAction = iota
	acIgnore               // drop the byte
	acPrint                // draw a character (ground)
	acExecute              // C0 control
	acCollect              // intermediate or private-marker byte
	acParam                // digit, ';' or ':'
	acEscDispatch          // final byte of an ESC sequence
	acCSIDispatch          // final byte of a CSI sequence
	acPut                  // DCS passthrough byte
	acOSCPut               // OSC string byte
	acHook                 // DCS final byte: remember the sequence, enter passthrough
)

// vtTable maps state<<8|byte to action<<4|next state.
type vtTable [vtNumStates][256]uint8

// vtTransitions is built once at start-up (with utf8Forms, the only
// init-time work).
var vtTransitions = vtBuildTable()

// vtBuildTable writes the DEC diagram as rules: first the default of each
// state, then the "anywhere" arrows, then each state's byte ranges.
func vtBuildTable() *vtTable {
	t := new(vtTable)
	set := func(s vtState, lo, hi byte, a vtAction, next vtState) {
		for b := int(lo); b <= int(hi); b++ {
			t[s][b] = uint8(a)<<4 | uint8(next)
		}
	}
	for s := vtState(0); s < vtNumStates; s++ {
		// Default: stay and ignore (covers 0x80-0xFF in ESC/CSI states).
		set(s, 0x00, 0xFF, acIgnore, s)
		// C0 controls execute in the middle of ESC, CSI and DCS-header
		// states without leaving them.
		set(s, 0x00, 0x17, acExecute, s)
		set(s, 0x19, 0x19, acExecute, s)
		set(s, 0x1C, 0x1F, acExecute, s)
		// Anywhere: CAN and SUB abort to ground, ESC starts over.
		set(s, 0x18, 0x18, acExecute, stGround)
		set(s, 0x1A, 0x1A, acExecute, stGround)
		set(s, 0x1B, 0x1B, acNone, stEscape)
	}

	// ground
	set(stGround, 0x20, 0x7E, acPrint, stGround)
	set(stGround, 0x7F, 0x7F, acIgnore, stGround)
	set(stGround, 0x80, 0xFF, acPrint, stGround) // UTF-8, decoded by Write

	// escape
	set(stEscape, 0x20, 0x2F, acCollect, stEscapeInter)
	set(stEscape, 0x30, 0x4F, acEscDispatch, stGround)
	set(stEscape, 0x50, 0x50, acNone, stDCSEntry) // DCS
	set(stEscape, 0x51, 0x57, acEscDispatch, stGround)
	set(stEscape, 0x58, 0x58, acNone, stString) // SOS
	set(stEscape, 0x59, 0x5A, acEscDispatch, stGround)
	set(stEscape, 0x5B, 0x5B, acNone, stCSIEntry) // CSI
	set(stEscape, 0x5C, 0x5C, acEscDispatch, stGround)
	set(stEscape, 0x5D, 0x5D, acNone, stOSC)    // OSC
	set(stEscape, 0x5E, 0x5F, acNone, stString) // PM, APC
	set(stEscape, 0x60, 0x7E, acEscDispatch, stGround)
	set(stEscape, 0x7F, 0x7F, acIgnore, stEscape)

	// escape intermediate
	set(stEscapeInter, 0x20, 0x2F, acCollect, stEscapeInter)
	set(stEscapeInter, 0x30, 0x7E, acEscDispatch, stGround)
	set(stEscapeInter, 0x7F, 0x7F, acIgnore, stEscapeInter)

	// CSI entry
	set(stCSIEntry, 0x20, 0x2F, acCollect, stCSIInter)
	set(stCSIEntry, 0x30, 0x3B, acParam, stCSIParam)
	set(stCSIEntry, 0x3C, 0x3F, acCollect, stCSIParam) // private marker < = > ?
	set(stCSIEntry, 0x40, 0x7E, acCSIDispatch, stGround)
	set(stCSIEntry, 0x7F, 0x7F, acIgnore, stCSIEntry)

	// CSI param
	set(stCSIParam, 0x20, 0x2F, acCollect, stCSIInter)
	set(stCSIParam, 0x30, 0x3B, acParam, stCSIParam)
	set(stCSIParam, 0x3C, 0x3F, acNone, stCSIIgnore)
	set(stCSIParam, 0x40, 0x7E, acCSIDispatch, stGround)
	set(stCSIParam, 0x7F, 0x7F, acIgnore, stCSIParam)

	// CSI intermediate
	set(stCSIInter, 0x20, 0x2F, acCollect, stCSIInter)
	set(stCSIInter, 0x30, 0x3F, acNone, stCSIIgnore)
	set(stCSIInter, 0x40, 0x7E, acCSIDispatch, stGround)
	set(stCSIInter, 0x7F, 0x7F, acIgnore, stCSIInter)

	// CSI ignore
	set(stCSIIgnore, 0x20, 0x3F, acIgnore, stCSIIgnore)
	set(stCSIIgnore, 0x40, 0x7E, acNone, stGround)

	// DCS entry, param, intermediate: like CSI, ending in a hook.
	set(stDCSEntry, 0x00, 0x17, acIgnore, stDCSEntry)
	set(stDCSEntry, 0x19, 0x19, acIgnore, stDCSEntry)
	set(stDCSEntry, 0x1C, 0x1F, acIgnore, stDCSEntry)
	set(stDCSEntry, 0x20, 0x2F, acCollect, stDCSInter)
	set(stDCSEntry, 0x30, 0x3B, acParam, stDCSParam)
	set(stDCSEntry, 0x3C, 0x3F, acCollect, stDCSParam)
	set(stDCSEntry, 0x40, 0x7E, acHook, stDCSPass)
	set(stDCSParam, 0x00, 0x17, acIgnore, stDCSParam)
	set(stDCSParam, 0x19, 0x19, acIgnore, stDCSParam)
	set(stDCSParam, 0x1C, 0x1F, acIgnore, stDCSParam)
	set(stDCSParam, 0x20, 0x2F, acCollect, stDCSInter)
	set(stDCSParam, 0x30, 0x3B, acParam, stDCSParam)
	set(stDCSParam, 0x3C, 0x3F, acNone, stDCSIgnore)
	set(stDCSParam, 0x40, 0x7E, acHook, stDCSPass)
	set(stDCSInter, 0x00, 0x17, acIgnore, stDCSInter)
	set(stDCSInter, 0x19, 0x19, acIgnore, stDCSInter)
	set(stDCSInter, 0x1C, 0x1F, acIgnore, stDCSInter)
	set(stDCSInter, 0x20, 0x2F, acCollect, stDCSInter)
	set(stDCSInter, 0x30, 0x3F, acNone, stDCSIgnore)
	set(stDCSInter, 0x40, 0x7E, acHook, stDCSPass)

	// DCS passthrough and ignore: everything up to ST is data.
	set(stDCSPass, 0x00, 0x17, acPut, stDCSPass)
	set(stDCSPass, 0x19, 0x19, acPut, stDCSPass)
	set(stDCSPass, 0x1C, 0x7E, acPut, stDCSPass)
	set(stDCSPass, 0x7F, 0x7F, acIgnore, stDCSPass)
	set(stDCSPass, 0x80, 0xFF, acPut, stDCSPass)
	set(stDCSIgnore, 0x00, 0x17, acIgnore, stDCSIgnore)
	set(stDCSIgnore, 0x19, 0x19, acIgnore, stDCSIgnore)
	set(stDCSIgnore, 0x1C, 0xFF, acIgnore, stDCSIgnore)

	// OSC string: BEL ends it (xterm), ESC \ ends it through the escape
	// state; other C0 controls are dropped.
	set(stOSC, 0x00, 0x17, acIgnore, stOSC)
	set(stOSC, 0x07, 0x07, acNone, stGround)
	set(stOSC, 0x19, 0x19, acIgnore, stOSC)
	set(stOSC, 0x1C, 0x1F, acIgnore, stOSC)
	set(stOSC, 0x20, 0xFF, acOSCPut, stOSC)

	// SOS/PM/APC: dropped up to ST.
	set(stString, 0x00, 0x17, acIgnore, stString)
	set(stString, 0x19, 0x19, acIgnore, stString)
	set(stString, 0x1C, 0xFF, acIgnore, stString)
	return t
}

// vtMaxParams bounds the parameters of one sequence; extra ones are
// dropped (xterm keeps 30).
const vtMaxParams = 32

// vtMaxParam saturates a parameter value.
const vtMaxParam = 65535

// vtParser holds the sequence being parsed: parameters, sub-parameter
// marks, the private marker and intermediates. Its zero value is ready.
type vtParser struct {
	state   vtState
	params  [vtMaxParams]uint32
	sub     uint32 // bit i: params[i] followed a ':' (a sub-parameter of i-1)
	nparams int    // index of the parameter being accumulated
	prefix  byte   // private marker < = > ? (0 = none)
	inter   byte   // first intermediate byte (0 = none)
	ninter  int    // count of intermediates; more than one is not a sequence we know

	osc     []byte // OSC string, capped at vtMaxOSC
	oscBEL  bool   // the OSC ended with BEL (replies use the same terminator)
	dcs     []byte // DCS data, capped at vtMaxDCS
	dcsKey  uint32 // prefix<<16 | inter<<8 | final of the DCS being collected
	utf8acc rune   // UTF-8 decoding state across writes
	utf8n   int    // continuation bytes still expected
	utf8lo  byte   // accepted range of the next continuation byte
	utf8hi  byte
}

// Limits on string payloads; longer strings are truncated, never grown.
const (
	vtMaxOSC = 4096
	vtMaxDCS = 256
)

// clear starts a new sequence (the diagram's "clear" entry action).
func (p *vtParser) clear() {
	p.params[0] = 0
	p.sub = 0
	p.nparams = 0
	p.prefix = 0
	p.inter = 0
	p.ninter = 0
}

// collect records a private marker or an intermediate byte.
func (p *vtParser) collect(b byte) {
	if b >= 0x3C && b <= 0x3F {
		p.prefix = b
		return
	}
	if p.ninter == 0 {
		p.inter = b
	}
	p.ninter++
}

// param accumulates a digit or moves to the next parameter on ';' or ':'.
func (p *vtParser) param(b byte) {
	switch {
	case b >= '0' && b <= '9':
		v := p.params[p.nparams]*10 + uint32(b-'0')
		if v > vtMaxParam {
			v = vtMaxParam
		}
		p.params[p.nparams] = v
	case p.nparams < vtMaxParams-1:
		p.nparams++
		p.params[p.nparams] = 0
		if b == ':' {
			p.sub |= 1 << p.nparams
		}
	}
}

// count returns the number of parameters of the sequence (at least 1:
// "CSI m" has one empty, that is 0, parameter).
func (p *vtParser) count() int { return p.nparams + 1 }

// get returns parameter i, or def when it is absent or 0 (the usual
// "0 means default" rule of ECMA-48 cursor and erase functions).
func (p *vtParser) get(i int, def int) int {
	if i > p.nparams || p.params[i] == 0 {
		return def
	}
	return int(p.params[i])
}

// raw returns parameter i as given (0 when absent).
func (p *vtParser) raw(i int) int {
	if i > p.nparams {
		return 0
	}
	return int(p.params[i])
}

// isSub reports whether parameter i followed a ':'.
func (p *vtParser) isSub(i int) bool { return i <= p.nparams && p.sub&(1<<i) != 0 }

// key packs the private marker, the intermediate and a final byte into one
// value so dispatch can switch on whole sequences: key('?', 0, 'h') is
// DECSET. More than one intermediate gives a key nothing matches.
func (p *vtParser) key(final byte) uint32 {
	if p.ninter > 1 {
		return 0
	}
	return uint32(p.prefix)<<16 | uint32(p.inter)<<8 | uint32(final)
}

// seqKey builds the same value as vtParser.key for a switch case.
func seqKey(prefix, inter, final byte) uint32 {
	return uint32(prefix)<<16 | uint32(inter)<<8 | uint32(final)
}

// feed runs the parser over p: the ground state's common bytes in
// ground, everything else a byte at a time through the table.
func (t *Terminal) feed(p []byte) {
	tab := vtTransitions
	for i := 0; i < len(p); {
		if t.p.state == stGround && t.p.utf8n == 0 {
			if i += t.ground(p[i:]); i == len(p) {
				return
			}
		}
		b := p[i]
		if t.p.state == stGround && (t.p.utf8n > 0 || b >= 0x80) {
			if t.feedUTF8(b) {
				i++
			}
			continue
		}
		tr := tab[t.p.state][b]
		a, next := vtAction(tr>>4), vtState(tr&0x0F)
		if next != t.p.state && (t.p.state == stOSC || t.p.state == stDCSPass) {
			t.exitState(b)
		}
		switch a {
		case acPrint:
			t.print(rune(b))
		case acExecute:
			t.execute(b)
		case acCollect:
			t.p.collect(b)
		case acParam:
			t.p.param(b)
			// Fast path: the digits and separators that follow stay in
			// the param state with the same action; take them without
			// table lookups.
			for i+1 < len(p) {
				c := p[i+1]
				if c-'0' > 9 && c != ';' && c != ':' {
					break
				}
				t.p.param(c)
				i++
			}
		case acEscDispatch:
			t.escDispatch(b)
		case acCSIDispatch:
			t.csiDispatch(b)
		case acHook:
			t.p.dcsKey = t.p.key(b)
			t.p.dcs = t.p.dcs[:0]
		case acPut:
			if len(t.p.dcs) < vtMaxDCS {
				t.p.dcs = append(t.p.dcs, b)
			}
		case acOSCPut:
			if len(t.p.osc) < vtMaxOSC {
				t.p.osc = append(t.p.osc, b)
			}
		}
		if next != t.p.state {
			t.enterState(next)
		}
		i++
	}
}

// feedUTF8 takes byte b in the ground state while a UTF-8 sequence is
// pending, or as the start of one (a sequence split across writes, or an
// invalid byte). It reports whether b was used: a broken sequence is one
// U+FFFD, and the byte that broke it is read again on its own.
func (t *Terminal) feedUTF8(b byte) (used bool) {
	if t.p.utf8n == 0 {
		t.utf8Start(b)
		return true
	}
	if b < t.p.utf8lo || b > t.p.utf8hi {
		t.p.utf8n = 0
		t.print(0xFFFD)
		return false
	}
	t.p.utf8acc = t.p.utf8acc<<6 | rune(b&0x3F)
	t.p.utf8lo, t.p.utf8hi = 0x80, 0xBF
	t.p.utf8n--
	if t.p.utf8n == 0 {
		t.print(t.p.utf8acc)
	}
	return true
}

// enterState moves the parser to state next, clearing what the new
// sequence collects.
func (t *Terminal) enterState(next vtState) {
	t.p.state = next
	switch next {
	case stEscape, stCSIEntry, stDCSEntry:
		t.p.clear()
	case stOSC:
		t.p.osc = t.p.osc[:0]
	}
}

// ground runs the ground state's common cases over p, which starts in
// the ground state with no UTF-8 sequence pending, and returns how many
// bytes it consumed. It stops at the first byte it leaves to the table:
// a C0 control other than CR and LF, DEL, an ESC that does not start a
// complete CSI sequence in p, or a UTF-8 sequence that is invalid or
// incomplete in p. What it does is what the table would do, faster:
// whole runs of printable ASCII at once, CSI sequences parsed in one
// loop, UTF-8 decoded in place. Every case must leave the terminal as
// the table would: FuzzVT compares whole writes, which take these paths,
// with the same bytes written one at a time, which mostly do not.
func (t *Terminal) ground(p []byte) int {
	i := 0
	for i < len(p) {
		switch b := p[i]; {
		case b >= 0x20 && b < 0x7F:
			if n := t.printFresh(p[i:]); n > 0 {
				i += n
				continue
			}
			n := printableRun(p[i:])
			t.printASCII(p[i : i+n])
			i += n
		case b == '\r':
			t.cur.col = 0
			t.resetWrap()
			t.last = 0
			t.dirty = true
			i++
		case b == '\n':
			t.lineFeed()
			i++
		case b == 0x1B:
			n := t.csi(p[i:])
			if n == 0 {
				return i
			}
			i += n
		case b >= 0x80:
			if n := t.printText(p[i:]); n > 0 {
				i += n
				continue
			}
			r, n := utf8.DecodeRune(p[i:])
			if n == 1 { // invalid, or cut off by the end of p
				return i
			}
			t.print(r)
			i += n
		default:
			return i
		}
	}
	return i
}

// csi parses and dispatches the CSI sequence at the start of p (which
// starts with ESC) when it is complete in p and of the common form: ESC
// [, an optional private marker (< = > ?), digits, ';' and ':', and a
// final byte. It returns the sequence's length, or 0 for anything else
// (intermediates, controls inside, a cut-off sequence), having changed
// only the parameters, which the table's ESC then clears.
func (t *Terminal) csi(p []byte) int {
	if len(p) < 3 || p[1] != '[' {
		return 0
	}
	q := &t.p
	q.clear()
	i := 2
	if b := p[i]; b >= 0x3C && b <= 0x3F {
		q.prefix = b
		i++
	}
	// vtParser.param's rules, with the parameter being accumulated (v,
	// at index n) in registers until its separator. The first loop
	// leaves saturation to the second (which goes on from the same i,
	// v, n and sub): without a min per digit, each digit waits only for
	// a multiply-add on the one before.
	var v, sub uint32
	n := 0
fast:
	for ; i < len(p); i++ {
		switch b := p[i]; {
		case b-'0' <= 9:
			if v = v*10 + uint32(b-'0'); v > vtMaxParam {
				v = vtMaxParam
				i++
				break fast
			}
		case b == ';' || b == ':':
			if n < vtMaxParams-1 {
				q.params[n] = v
				n, v = n+1, 0
				if b == ':' {
					sub |= 1 << n
				}
			}
		case b >= 0x40 && b <= 0x7E:
			q.params[n], q.nparams, q.sub = v, n, sub
			t.csiDispatch(b)
			return i + 1
		default:
			return 0
		}
	}
	for ; i < len(p); i++ {
		switch b := p[i]; {
		case b-'0' <= 9:
			v = min(v*10+uint32(b-'0'), vtMaxParam)
		case b == ';' || b == ':':
			if n < vtMaxParams-1 {
				q.params[n] = v
				n, v = n+1, 0
				if b == ':' {
					sub |= 1 << n
				}
			}
		case b >= 0x40 && b <= 0x7E:
			q.params[n], q.nparams, q.sub = v, n, sub
			t.csiDispatch(b)
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// nonPrintable flags the bytes of x (eight bytes of input, the first in
// the low byte) outside 0x20-0x7E by their top bit, exactly up to the
// first such byte (see printableRun).
func nonPrintable(x uint64) uint64 {
	return ((x-0x2020202020202020)&^x | (x + 0x0101010101010101) | x) & 0x8080808080808080
}

// printableRun returns the length of the run of printable ASCII bytes
// (0x20-0x7E) at the start of p. It tests eight bytes at a time: in
// m, the top bit of a byte is set where the byte is below 0x20 (the
// subtraction borrows) or above 0x7E (the addition carries into, or the
// byte already has, the top bit). A borrow or carry only reaches bytes
// above the one that caused it, so the lowest flagged byte is exactly
// the first non-printable one.
func printableRun(p []byte) int {
	i := 0
	for ; i+8 <= len(p); i += 8 {
		if m := nonPrintable(binary.LittleEndian.Uint64(p[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(p); i++ {
		if p[i] < 0x20 || p[i] >= 0x7F {
			break
		}
	}
	return i
}

// exitState runs the exit action of the current state before a
// transition on byte b: an OSC or DCS string ends (ESC, or BEL for OSC)
// and is dispatched, unless CAN or SUB cancelled it.
func (t *Terminal) exitState(b byte) {
	cancelled := b == 0x18 || b == 0x1A
	switch t.p.state {
	case stOSC:
		if !cancelled {
			t.p.oscBEL = b == 0x07
			t.oscDispatch(t.p.osc)
		}
	case stDCSPass:
		if !cancelled {
			t.dcsDispatch(t.p.dcsKey, t.p.dcs)
		}
	}
}

// utf8Start begins a UTF-8 sequence with lead byte b; bytes that cannot
// start one print U+FFFD. The accepted ranges of the first continuation
// byte reject overlong forms, surrogates and values above U+10FFFF
// (Unicode Table 3-7).
func (t *Terminal) utf8Start(b byte) {
	p := &t.p
	p.utf8lo, p.utf8hi = 0x80, 0xBF
	switch {
	case b >= 0xC2 && b <= 0xDF:
		p.utf8n, p.utf8acc = 1, rune(b&0x1F)
	case b >= 0xE0 && b <= 0xEF:
		p.utf8n, p.utf8acc = 2, rune(b&0x0F)
		if b == 0xE0 {
			p.utf8lo = 0xA0
		} else if b == 0xED {
			p.utf8hi = 0x9F
		}
	case b >= 0xF0 && b <= 0xF4:
		p.utf8n, p.utf8acc = 3, rune(b&0x07)
		if b == 0xF0 {
			p.utf8lo = 0x90
		} else if b == 0xF4 {
			p.utf8hi = 0x8F
		}
	default:
		t.print(0xFFFD)
	}
}
