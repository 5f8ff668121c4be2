package main

import (
	"testing"
)

// BenchmarkLocalLatency runs "mentalmj local --hands 4 --rtt RTT": four
// join processes whose every connection runs through the delaying relays
// of package latency, at round-trip times of 0, 50, 100 and 200 ms (no
// jitter, so that the figures are hops × RTT/2 plus computation). It
// reports the medians over the hands of the hand setup, the pause between
// hands (pause_ms), one hand's wall time and the play per event. b.N is
// ignored: each sub-benchmark is one run of four hands (-benchtime 1x).
func BenchmarkLocalLatency(b *testing.B) {
	bin := buildForBench(b)
	for _, rtt := range []string{"0ms", "50ms", "100ms", "200ms"} {
		b.Run("rtt="+rtt, func(b *testing.B) {
			for b.Loop() {
				out := runLocalBench(b, bin, "--hands", "4", "--rtt", rtt)
				metrics(b, out, `stats: hand setup median ([\d.]+) ms`, "setup-ms-median")
				metrics(b, out, `timing: pause between hands median ([\d.]+) ms; one hand median ([\d.]+) ms; play per event median ([\d.]+) ms`,
					"pause-ms-median", "hand-ms-median", "event-ms-median")
			}
		})
	}
}
