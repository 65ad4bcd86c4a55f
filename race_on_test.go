//go:build race

package main

// raceEnabled: the tests run under the race detector, which slows every
// goroutine 5-10x; a few timing figures are looser then.
const raceEnabled = true
