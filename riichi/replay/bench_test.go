package replay

import (
	"context"
	"testing"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
)

// loadReplayable parses every replayable log of the corpus once.
func loadReplayable(b *testing.B) ([]*mjlog.Game, int) {
	b.Helper()
	var games []*mjlog.Game
	rounds := 0
	for _, f := range tenhoucorpus.For(b).MustFiles(b) {
		g, err := mjlog.Read(f)
		if err != nil {
			b.Fatal(err)
		}
		if g.Go.Type&^0xFF == 0 {
			games = append(games, g)
			rounds += len(g.Rounds)
		}
	}
	return games, rounds
}

// BenchmarkReplayRounds replays the parsed log of the corpuss, four- and
// three-player (parse excluded), and reports kyoku replayed per second of
// wall time and of CPU time (run with -cpu 1).
func BenchmarkReplayRounds(b *testing.B) {
	games, rounds := loadReplayable(b)
	b.ResetTimer()
	cpu0 := cpuNow()
	for b.Loop() {
		for _, g := range games {
			if res := Game(g); len(res.Mismatches) != 0 {
				b.Fatal(res.Mismatches[0])
			}
		}
	}
	b.ReportMetric(float64(rounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
	if c := cpuNow() - cpu0; cpu0 > 0 && c > 0 {
		b.ReportMetric(float64(rounds)*float64(b.N)/c.Seconds(), "rounds/cpu-s")
	}
}

// BenchmarkReplayFiles reads, parses and replays the log of the corpuss (parse
// included; the five special-rule logs are parsed and skipped).
func BenchmarkReplayFiles(b *testing.B) {
	_, rounds := loadReplayable(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Files(context.Background(), []string{tenhoucorpus.For(b).Dir}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}
