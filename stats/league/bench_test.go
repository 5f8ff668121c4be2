package league

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/cputime"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

func writeB(b *testing.B, dir, name string, c []byte) {
	if err := os.WriteFile(filepath.Join(dir, name), c, 0o644); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLeague10k verifies and rates 10,000 certificate files read
// from a directory: Load (read, decode, verify every signature) then
// Compute. "distinct" is 10,000 four-player games among 40 players, one
// file each (40,000 signatures to verify); "copies" is what players who
// pool their data directories hold, 2,500 games with each of its four
// players' copy (10,000 signatures: a copy is verified once).
// Run on one core: go test -run XXX -bench League10k -benchtime 3x -cpu 1 ./stats/league
func BenchmarkLeague10k(b *testing.B) {
	b.Run("distinct", func(b *testing.B) { benchLeague(b, 10000, 1) })
	b.Run("copies", func(b *testing.B) { benchLeague(b, 2500, 4) })
}

func benchLeague(b *testing.B, games, copies int) {
	dir := b.TempDir()
	ps := newPlayers(b, 40)
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range games {
		perm := rng.Perm(len(ps))[:4]
		table := []player{ps[perm[0]], ps[perm[1]], ps[perm[2]], ps[perm[3]]}
		places := []int{1, 2, 3, 4}
		rng.Shuffle(4, func(a, c int) { places[a], places[c] = places[c], places[a] })
		c := certify(b, table, 0, places, false, t0.Add(time.Duration(i)*time.Minute), func(r *pb.Result) {
			r.GameId[1], r.GameId[2] = byte(i), byte(i>>8) // a game id per game
		})
		for k := range copies {
			writeB(b, dir, fmt.Sprintf("g%05d-%d.cert", i, k), c)
		}
	}
	b.ResetTimer()
	cpu0 := cputime.Now()
	for b.Loop() {
		got, err := Load([]string{dir})
		if err != nil || len(got) != games {
			b.Fatalf("%d games, %v", len(got), err)
		}
		st := Compute(got, Ippan)
		if st.FourPlayer.Games != games {
			b.Fatal(st.FourPlayer.Games)
		}
	}
	// CPU time per run: on a shared machine the wall time also counts the
	// other processes' turns.
	b.ReportMetric(float64((cputime.Now()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}
