package main

// vt_bench_test.go: emulator throughput on three generated streams of at
// least 1 MB each (nothing large is committed):
//
//	BenchmarkVTLsColor  coloured `ls -R`-like listing, SGR 16-colour, CR LF
//	BenchmarkVTCursorRGB full-screen redraws: CUP, truecolor SGR, short text
//	BenchmarkVTSeq       `seq 1 200000`: short lines, scrolling into history
//	BenchmarkVTColour    BenchmarkThroughput's stream (256-colour, bold and
//	                     truecolour SGR on every line) in 4 KiB writes, as a
//	                     PTY delivers it

import (
	"fmt"
	"math/rand"
	"strconv"
	"syscall"
	"testing"
	"time"
)

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
func cursorRGBStream(size int) []byte {
	rng := rand.New(rand.NewSource(2))
	var b []byte
	for len(b) < size {
		row, col := 1+rng.Intn(40), 1+rng.Intn(100)
		b = fmt.Appendf(b, "\x1b[%d;%dH\x1b[38;2;%d;%d;%dm\x1b[48;2;%d;%d;%dm", row, col,
			rng.Intn(256), rng.Intn(256), rng.Intn(256), rng.Intn(256), rng.Intn(256), rng.Intn(256))
		if rng.Intn(4) == 0 {
			b = append(b, "\x1b[1;4m"...)
		}
		b = append(b, "status: ok  "[:4+rng.Intn(8)]...)
		if rng.Intn(8) == 0 {
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

// colourStream is at least size bytes of lines with 256-colour, bold and
// truecolour SGR, ending in "THE-LAST-LINE\r\n" (BenchmarkThroughput).
func colourStream(size int) []byte {
	var b []byte
	for i := 0; len(b) < size; i++ {
		b = fmt.Appendf(b, "\x1b[38;5;%dmline %7d\x1b[0m \x1b[1;3%dmbold\x1b[0m \x1b[48;2;%d;40;60m truecolour background \x1b[0m the quick brown fox\r\n", i%256, i, i%8, i%256)
	}
	return append(b, "THE-LAST-LINE\r\n"...)
}

// benchStream feeds in to a 120x40 terminal with a 10000-line history.
// Besides the wall-clock MB/s it reports cpu-MB/s, bytes per second of
// process CPU time, which stays meaningful on a machine busy with other
// work.
func benchStream(b *testing.B, in []byte) { benchChunks(b, in, len(in)) }

// benchChunks is benchStream with in written chunk bytes at a time.
func benchChunks(b *testing.B, in []byte, chunk int) {
	b.SetBytes(int64(len(in)))
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

func BenchmarkVTLsColor(b *testing.B)   { benchStream(b, lsStream(2<<20)) }
func BenchmarkVTCursorRGB(b *testing.B) { benchStream(b, cursorRGBStream(2<<20)) }
func BenchmarkVTSeq(b *testing.B)       { benchStream(b, seqStream()) }
func BenchmarkVTColour(b *testing.B)    { benchChunks(b, colourStream(5<<20), 4096) }

// BenchmarkVTPlain is printable ASCII with CR LF every 100 bytes: the
// ceiling of the text path.
func BenchmarkVTPlain(b *testing.B) {
	line := []byte("The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs. 0123456789..\r\n")
	var in []byte
	for len(in) < 2<<20 {
		in = append(in, line...)
	}
	benchStream(b, in)
}
