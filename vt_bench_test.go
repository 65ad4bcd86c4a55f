package main

// vt_bench_test.go: emulator throughput on generated streams of at least
// 1 MB each (nothing large is committed):
//
//	BenchmarkVTLsColor   coloured `ls -R`-like listing, SGR 16-colour, CR LF
//	BenchmarkVTCursorRGB full-screen redraws: CUP, truecolor SGR, short text
//	BenchmarkVTSeq       `seq 1 200000`: short lines, scrolling into history
//	BenchmarkVTPlain     printable ASCII lines of 100 bytes
//	BenchmarkVTLongLines printable ASCII lines of 300-1500 bytes, wrapping
//	BenchmarkVTCJK       CJK text and emoji (wide cells), some colour
//	BenchmarkVTColour    BenchmarkThroughput's stream (256-colour, bold and
//	                     truecolour SGR on every line) in 4 KiB writes, as a
//	                     PTY delivers it
//	BenchmarkVTWrite     allocations of one 4 KiB Write in the steady state
//	BenchmarkVTCursorCSI BenchmarkVTCursorRGB's escape sequences alone:
//	                     the parser's and dispatch's share of that stream
//	BenchmarkDrawUTF8    printText's draw loop alone over one line of the
//	                     CJK stream's words, kept in cache
//
// With -vtstreams DIR, each stream benchmark first writes its stream to
// DIR/NAME.vt: `go run ./bench/vtspeed` feeds the same files to xterm.js.

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

var vtStreamDir = flag.String("vtstreams", "", "write each VT benchmark stream to `dir`/NAME.vt (for bench/vtspeed)")

// lsStream imitates `ls -R --color=always` output.
func lsStream(size int) []byte {
	rng := rand.New(rand.NewSource(1))
	colors := []string{"\x1b[0m", "\x1b[01;34m", "\x1b[01;32m", "\x1b[01;36m", "\x1b[00m", "\x1b[40;33;01m"}
	words := []string{"main", "vt", "render", "session", "config", "README", "testdata", "fixtures", "index", "lib"}
	exts := []string{".go", ".md", ".json", "", ".txt", ".png"}
	var b []byte
	for len(b) < size {
		b = fmt.Appendf(b, "./%s/%s:\r\n", words[rng.Intn(len(words))], words[rng.Intn(len(words))])
		for n := 3 + rng.Intn(20); n > 0; n-- {
			c := colors[rng.Intn(len(colors))]
			b = fmt.Appendf(b, "%s%s_%d%s\x1b[0m\r\n", c, words[rng.Intn(len(words))], rng.Intn(1000), exts[rng.Intn(len(exts))])
		}
		b = append(b, "\r\n"...)
	}
	return b
}

// cursorRGBStream imitates a full-screen program redrawing a 120x40
// screen with cursor addressing and truecolor cells.
func cursorRGBStream(size int) []byte { return cursorStream(size, true) }

// cursorStream is cursorRGBStream, with its text and the erases that
// follow it when text is set, else only its CUP and SGR sequences.
func cursorStream(size int, text bool) []byte {
	rng := rand.New(rand.NewSource(2))
	var b []byte
	for len(b) < size {
		row, col := 1+rng.Intn(40), 1+rng.Intn(100)
		b = fmt.Appendf(b, "\x1b[%d;%dH\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm", row, col,
			rng.Intn(256), rng.Intn(256), rng.Intn(256), rng.Intn(256), rng.Intn(256), rng.Intn(256))
		if rng.Intn(4) == 0 {
			b = append(b, "\x1b[1;4m"...)
		}
		n, erase := 4+rng.Intn(8), rng.Intn(8) == 0
		if text {
			b = append(b, "status: ok  "[:n]...)
		}
		if erase && text {
			b = append(b, "\x1b[K\x1b[m"...)
		}
	}
	return b
}

// seqStream is the output of `seq 1 200000` after the tty's ONLCR.
func seqStream() []byte {
	var b []byte
	for i := 1; i <= 200000; i++ {
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '\r', '\n')
	}
	return b
}

// plainStream is printable ASCII with CR LF every 100 bytes: the ceiling
// of the text path.
func plainStream(size int) []byte {
	line := []byte("The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. 0123456789..\r\n")
	var b []byte
	for len(b) < size {
		b = append(b, line...)
	}
	return b
}

// longLinesStream is lines of 300-1500 bytes of printable ASCII words,
// each wrapping over several rows of a 120-column screen.
func longLinesStream(size int) []byte {
	rng := rand.New(rand.NewSource(3))
	words := strings.Fields("lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor " +
		"incididunt ut labore et dolore magna aliqua. {\"key\": [1, 2, 3]} /usr/lib/x86_64-linux-gnu 0x7ffd_c0de")
	var b []byte
	for len(b) < size {
		n := 300 + rng.Intn(1200)
		for start := len(b); len(b)-start < n; {
			b = append(b, words[rng.Intn(len(words))]...)
			b = append(b, ' ')
		}
		b = append(b, '\r', '\n')
	}
	return b
}

// cjkStream is lines of Chinese, Japanese and Korean text with emoji
// (wide cells, 3- and 4-byte UTF-8), ASCII punctuation and an occasional
// SGR colour.
func cjkStream(size int) []byte {
	rng := rand.New(rand.NewSource(4))
	words := strings.Fields("终端 模拟器 测试 日本語 のテキスト 表示 한국어 문자열 출력 漢字 かな カタカナ " +
		"🚀 ✨ 🎉 😀 👍 🔥 ✅ 📦 🌏 123 ok: -> | [42]")
	var b []byte
	for len(b) < size {
		if rng.Intn(4) == 0 {
			b = fmt.Appendf(b, "\x1b[3%dm", 1+rng.Intn(6))
		}
		for n := 5 + rng.Intn(30); n > 0; n-- {
			b = append(b, words[rng.Intn(len(words))]...)
			b = append(b, ' ')
		}
		b = append(b, "\x1b[0m\r\n"...)
	}
	return b
}

// colourStream is at least size bytes of lines with 256-colour, bold and
// truecolour SGR, ending in "THE-LAST-LINE\r\n" (BenchmarkThroughput).
func colourStream(size int) []byte {
	var b []byte
	for i := 0; len(b) < size; i++ {
		b = fmt.Appendf(b, "\x1b[38;5;%dmline %7d\x1b[0m \x1b[1;3%dmbold\x1b[0m \x1b[48;2;%d;40;60m truecolour background \x1b[0m the quick brown fox\r\n", i%256, i, i%8, i%256)
	}
	return append(b, "THE-LAST-LINE\r\n"...)
}

// benchStream feeds in, in one Write, to a 120x40 terminal with a
// 10000-line history, and with -vtstreams first writes it to
// DIR/name.vt. Besides the wall-clock MB/s it reports cpu-MB/s, bytes
// per second of process CPU time, which stays meaningful on a machine
// busy with other work.
func benchStream(b *testing.B, name string, in []byte) {
	if *vtStreamDir != "" {
		if err := os.WriteFile(filepath.Join(*vtStreamDir, name+".vt"), in, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	benchChunks(b, in, len(in))
}

// benchChunks feeds in like benchStream, chunk bytes per Write.
func benchChunks(b *testing.B, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	term := NewTerminal(120, 40, 10000)
	term.Write(in) // warm up: history full, buffers grown
	cpu0 := cpuTime()
	b.ResetTimer()
	for range b.N {
		for p := in; len(p) > 0; {
			n := min(chunk, len(p))
			term.Write(p[:n])
			p = p[n:]
		}
	}
	b.StopTimer()
	if d := cpuTime() - cpu0; d > 0 {
		b.ReportMetric(float64(len(in))*float64(b.N)/1e6/d.Seconds(), "cpu-MB/s")
	}
}

// cpuTime returns the user plus system CPU time of the process.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkVTLsColor(b *testing.B)   { benchStream(b, "ls-color", lsStream(2<<20)) }
func BenchmarkVTCursorRGB(b *testing.B) { benchStream(b, "cursor-rgb", cursorRGBStream(2<<20)) }
func BenchmarkVTSeq(b *testing.B)       { benchStream(b, "seq", seqStream()) }
func BenchmarkVTPlain(b *testing.B)     { benchStream(b, "plain", plainStream(2<<20)) }
func BenchmarkVTLongLines(b *testing.B) { benchStream(b, "long-lines", longLinesStream(2<<20)) }
func BenchmarkVTCJK(b *testing.B)       { benchStream(b, "cjk-emoji", cjkStream(2<<20)) }
func BenchmarkVTColour(b *testing.B)    { benchChunks(b, colourStream(5<<20), 4096) }
func BenchmarkVTCursorCSI(b *testing.B) { benchChunks(b, cursorStream(2<<20, false), 2<<20) }

// BenchmarkDrawUTF8 is drawUTF8 alone drawing one line of the CJK
// stream's words (plain, in cache) from column 0, over and over: the
// ceiling of the CJK stream's rate. chars/ns counts the characters drawn.
func BenchmarkDrawUTF8(b *testing.B) {
	runeWidth(0x4E00) // builds the width table
	p := []byte("终端 模拟器 测试 日本語 のテキスト 表示 한국어 🚀 ✨ 🎉 ok: -> 출력 漢字 かな カタカナ 😀 👍 🔥 [42] 終端\x1b[0m\r\n")
	cells := make([]Cell, 400)
	pen := Cell{Width: 1}
	drawn, _, _ := drawUTF8(cells, p, 0, &pen)
	chars := utf8.RuneCount(p[:drawn])
	b.SetBytes(int64(drawn))
	b.ResetTimer()
	for range b.N {
		drawUTF8(cells, p, 0, &pen)
	}
	b.ReportMetric(float64(chars)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "chars/ns")
}

// BenchmarkVTWrite is one 4 KiB Write per op, cycling through the
// streams above on a terminal that has seen them all: allocs/op is the
// steady state's allocations per Write (0 is the goal).
func BenchmarkVTWrite(b *testing.B) {
	var in []byte
	for _, s := range [][]byte{lsStream(1 << 20), cursorRGBStream(1 << 20), seqStream(), plainStream(1 << 20),
		longLinesStream(1 << 20), cjkStream(1 << 20), colourStream(1 << 20)} {
		in = append(in, s...)
	}
	in = in[:len(in)/4096*4096]
	term := NewTerminal(120, 40, 10000)
	term.Write(in)
	term.Write(in) // every block of the history reused once
	b.SetBytes(4096)
	b.ReportAllocs()
	b.ResetTimer()
	off := 0
	for range b.N {
		term.Write(in[off : off+4096])
		off = (off + 4096) % len(in)
	}
}
