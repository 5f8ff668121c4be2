package riichi

import (
	"math/rand/v2"
	"testing"
)

// benchHands returns n random 13-tile hands as counts.
func benchHands(n int) []Counts {
	r := rand.New(rand.NewPCG(11, 12))
	out := make([]Counts, n)
	for i := range out {
		out[i] = CountsOf(randomHand(r, 13))
	}
	return out
}

// BenchmarkShanten measures Shanten (standard, chiitoitsu and kokushi) on
// random 13-tile hands; ns/op is per hand.
func BenchmarkShanten(b *testing.B) {
	hands := benchHands(1024)
	shantenTables() // build outside the timer
	b.ResetTimer()
	sink := 0
	for i := 0; b.Loop(); i++ {
		sink += Shanten(&hands[i&1023], 0)
	}
	_ = sink
}

// BenchmarkShantenStandard measures the table-driven standard-form shanten.
func BenchmarkShantenStandard(b *testing.B) {
	hands := benchHands(1024)
	shantenTables()
	b.ResetTimer()
	sink := 0
	for i := 0; b.Loop(); i++ {
		sink += ShantenStandard(&hands[i&1023], 0)
	}
	_ = sink
}

// BenchmarkWaits measures Waits on tenpai hands (complete hands minus one
// tile).
func BenchmarkWaits(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	hands := make([]Counts, 1024)
	for i := range hands {
		c := randomComplete(r)
		for k := range c {
			if c[k] > 0 {
				c[k]--
				break
			}
		}
		hands[i] = c
	}
	shantenTables()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		_ = Waits(&hands[i&1023], 0)
	}
}

// BenchmarkScore measures Score over the wins of the shared Tenhou logs
// (a realistic mix of hands); ns/op is per scored win.
func BenchmarkScore(b *testing.B) {
	wins := loadLogWins(b)
	shantenTables()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := Score(wins[i%len(wins)].ctx); err != nil {
			b.Fatal(err)
		}
	}
}
