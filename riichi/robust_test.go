package riichi

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// TestScoreNeverPanics feeds Score random, mostly malformed contexts
// (random ids, counts, meld shapes and flags); every call must return a
// result or one of the documented errors.
func TestScoreNeverPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	randTile := func() wall.Tile { return wall.Tile(r.IntN(150) - 5) }
	ok := 0
	for i := 0; i < 20000; i++ {
		var ctx WinContext
		nm := r.IntN(6)
		for m := 0; m < nm; m++ {
			meld := Meld{Type: MeldType(r.IntN(6)), Called: randTile(), From: r.IntN(5)}
			for n := 0; n < 2+r.IntN(4); n++ {
				meld.Tiles = append(meld.Tiles, randTile())
			}
			ctx.Melds = append(ctx.Melds, meld)
		}
		if r.IntN(2) == 0 {
			// A real complete hand, so that some contexts get far.
			c := randomComplete(r)
			for k, n := range c {
				for j := 0; j < n; j++ {
					ctx.Hand = append(ctx.Hand, wall.Tile(4*k+j))
				}
			}
			ctx.Melds = nil
		} else {
			for n := 0; n < r.IntN(16); n++ {
				ctx.Hand = append(ctx.Hand, randTile())
			}
		}
		if len(ctx.Hand) > 0 && r.IntN(4) != 0 {
			ctx.WinTile = ctx.Hand[r.IntN(len(ctx.Hand))]
		} else {
			ctx.WinTile = randTile()
		}
		ctx.Tsumo, ctx.Riichi, ctx.Tenhou = r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(20) == 0
		ctx.SeatWind, ctx.RoundWind = wall.Kind(26+r.IntN(6)), wall.Kind(27+r.IntN(4))
		ctx.DoraIndicators = []wall.Tile{randTile()}
		ctx.UraIndicators = []wall.Tile{randTile()}
		ctx.Rules = TenhouRules
		_, err := Score(ctx)
		switch {
		case err == nil:
			ok++
		case errors.Is(err, ErrInvalidHand), errors.Is(err, ErrNotComplete), errors.Is(err, ErrNoYaku):
		default:
			t.Fatalf("undocumented error %v", err)
		}
	}
	if ok == 0 {
		t.Fatal("no context scored at all")
	}
}

// FuzzParseHand checks ParseHand never panics, and that whatever it
// accepts survives FormatHand → ParseHand with the same kinds.
func FuzzParseHand(f *testing.F) {
	for _, s := range []string{"123m456p789s11z222z", "0m0p0s", "19m19p19s1234567z", "5555m", "1z8z", "m", "12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tiles, err := ParseHand(s)
		if err != nil {
			return
		}
		back, err := ParseHand(FormatHand(tiles))
		if err != nil {
			t.Fatalf("%q: FormatHand output %q does not parse: %v", s, FormatHand(tiles), err)
		}
		if CountsOf(back) != CountsOf(tiles) {
			t.Fatalf("%q: round trip changed the kinds", s)
		}
		c := CountsOf(tiles)
		_ = Shanten(&c, 0)
		_ = Waits(&c, 0)
		_ = Decompositions(c, 0)
	})
}
