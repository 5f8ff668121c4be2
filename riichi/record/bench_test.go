package record

import (
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// benchRounds plays every ranked round of the corpus logs (four- and three-player)
// through a fresh engine b.N times, recording them if record is set, and
// reports kyoku per second.
func benchRounds(b *testing.B, record bool) {
	var games []*mjlog.Game
	rounds := 0
	for _, g := range corpusLogs(b, tenhoucorpus.For(b)) {
		if !specialRules(g) {
			games = append(games, g)
			rounds += len(g.Rounds)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for _, g := range games {
			m := game.NewMatch(logRules(g))
			for i := range g.Rounds {
				rec, _, err := play(m, &g.Rounds[i], true, record)
				if err != nil {
					b.Fatal(err)
				}
				if record {
					_ = rec.Round()
				}
			}
		}
	}
	b.ReportMetric(float64(rounds)*float64(b.N)/b.Elapsed().Seconds(), "kyoku/s")
}

// BenchmarkRecordLogs drives the engine through the shared logs' 2176
// ranked kyoku and records them (mjlog parsing excluded).
func BenchmarkRecordLogs(b *testing.B) { benchRounds(b, true) }

// BenchmarkEngineOnlyLogs is BenchmarkRecordLogs without the recorder: the
// difference is the recorder's cost.
func BenchmarkEngineOnlyLogs(b *testing.B) { benchRounds(b, false) }
