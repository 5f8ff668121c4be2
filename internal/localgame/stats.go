package localgame

import (
	"fmt"
	"io"
	"slices"

	"github.com/mentalmj/mentalmj/internal/progress"
)

// printStats prints the hand setup times (the slowest of the four nodes per
// hand), the tsumo latency over all draws of all nodes, and the largest
// peak RSS of the four nodes, in one line that benchmarks parse.
func printStats(w io.Writer, reports map[int][]progress.Hand, peakRSS int64) {
	var setups, draws []float64
	for _, rs := range reports {
		var slowest float64
		for _, r := range rs {
			slowest = max(slowest, r.SetupMs)
			draws = append(draws, r.DrawLatencyMs...)
		}
		setups = append(setups, slowest)
	}
	if len(setups) == 0 {
		return
	}
	fmt.Fprintf(w, "stats: hand setup median %.1f ms max %.1f ms; tsumo latency median %.2f ms p99 %.2f ms over %d draws; peak RSS per node %.1f MB\n",
		percentile(setups, 50), percentile(setups, 100), percentile(draws, 50), percentile(draws, 99), len(draws), float64(peakRSS)/1024)
}

// printTiming prints, in one line that benchmarks parse, the medians over
// the hands of: the pause between hands (pause_ms, the slowest node),
// the hand's wall time (the slowest node), and the play per event (the
// slowest node's hand time less its setup, over the hand's events).
func printTiming(w io.Writer, reports map[int][]progress.Hand) {
	var pauses, hands, perEvent []float64
	for _, rs := range reports {
		var pause, hand, play float64
		for _, r := range rs {
			pause, hand = max(pause, r.PauseMs), max(hand, r.DurationMs)
			if r.Events > 0 {
				play = max(play, (r.DurationMs-r.SetupMs)/float64(r.Events))
			}
		}
		pauses, hands, perEvent = append(pauses, pause), append(hands, hand), append(perEvent, play)
	}
	if len(hands) == 0 {
		return
	}
	fmt.Fprintf(w, "timing: pause between hands median %.1f ms; one hand median %.1f ms; play per event median %.2f ms\n",
		percentile(pauses, 50), percentile(hands, 50), percentile(perEvent, 50))
}

// percentile returns the p-th percentile (nearest rank) of xs, 0 if empty.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p/100*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}
