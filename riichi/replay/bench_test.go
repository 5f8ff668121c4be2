package replay

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mentalmj/mentalmj/record/mjlog"
)

// loadReplayable parses every replayable shared log once.
func loadReplayable(b *testing.B) ([]*mjlog.Game, int) {
	b.Helper()
	ents, err := os.ReadDir(sharedLogs)
	if err != nil {
		b.Skipf("shared logs not present: %v", err)
	}
	var games []*mjlog.Game
	rounds := 0
	for _, e := range ents {
		if !mjlog.IsLogName(e.Name()) {
			continue
		}
		g, err := mjlog.Read(filepath.Join(sharedLogs, e.Name()))
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

// BenchmarkReplayRounds replays the parsed shared logs, four- and
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

// BenchmarkReplayFiles reads, parses and replays the shared logs (parse
// included; the five special-rule logs are parsed and skipped).
func BenchmarkReplayFiles(b *testing.B) {
	_, rounds := loadReplayable(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Files(context.Background(), []string{sharedLogs}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}
