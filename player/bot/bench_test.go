package bot

import (
	"testing"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// BenchmarkChoose measures Bot.Choose (LegalActions included) over the
// decision points of two self-play hanchan, replayed from clones; the
// decisions/s metric is the bot's throughput.
func BenchmarkChoose(b *testing.B) {
	type position struct {
		k *game.Kyoku
		s game.Seat
	}
	var ps []position
	tl := newTally()
	tl.onDecision = func(k *game.Kyoku, s game.Seat) { ps = append(ps, position{k.Clone(), s}) }
	for seed := uint64(1); seed <= 2; seed++ {
		var bots [4]*Bot
		for s := range bots {
			bots[s] = New(seed*4 + uint64(s))
		}
		if err := playMatch(seed, bots, tl, false); err != nil {
			b.Fatal(err)
		}
	}
	bot := New(1)
	b.ResetTimer()
	i := 0
	for b.Loop() {
		p := ps[i%len(ps)]
		if _, err := bot.Choose(p.k, p.s); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "decisions/s")
}

// BenchmarkSelfPlayHanchan measures a whole hanchan of four bots through
// riichi/game.Match on a random wall with every tile known to the engine
// (walls, engine and bots); the hanchan/s metric is the throughput.
func BenchmarkSelfPlayHanchan(b *testing.B) {
	tl := newTally()
	seed := uint64(1)
	for b.Loop() {
		var bots [4]*Bot
		for s := range bots {
			bots[s] = New(seed*4 + uint64(s))
		}
		if err := playMatch(seed, bots, tl, false); err != nil {
			b.Fatal(err)
		}
		seed++
	}
	b.ReportMetric(float64(tl.matches)/b.Elapsed().Seconds(), "hanchan/s")
	b.ReportMetric(float64(tl.decisions)/float64(tl.matches), "decisions/hanchan")
}
