package replay

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mentalmj/mentalmj/mjlog"
)

// loadFourPlayer parses every replayable shared log once.
func loadFourPlayer(b *testing.B) ([]*mjlog.Game, int) {
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
		if g.Go.Players() == 4 && g.Go.Type&^0xFF == 0 {
			games = append(games, g)
			rounds += len(g.Rounds)
		}
	}
	return games, rounds
}

// BenchmarkReplayRounds replays the parsed four-player shared logs (parse
// excluded) and reports kyoku replayed per second.
func BenchmarkReplayRounds(b *testing.B) {
	games, rounds := loadFourPlayer(b)
	b.ResetTimer()
	for b.Loop() {
		for _, g := range games {
			if res := Game(g); len(res.Mismatches) != 0 {
				b.Fatal(res.Mismatches[0])
			}
		}
	}
	b.ReportMetric(float64(rounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkReplayFiles reads, parses and replays the shared logs (parse
// included; three-player logs are parsed and skipped).
func BenchmarkReplayFiles(b *testing.B) {
	_, rounds := loadFourPlayer(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Files(context.Background(), []string{sharedLogs}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rounds)*float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}
