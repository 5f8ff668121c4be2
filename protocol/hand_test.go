package protocol

import (
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

func TestHonestHandsAuditClean(t *testing.T) {
	tb := newTable(t)
	out := tb.play(t, 2, nil)
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
		if len(o.results) != 2 {
			t.Fatalf("player %d played %d hands, want 2", i, len(o.results))
		}
	}
	for h := 0; h < 2; h++ {
		ref := out[0].results[h]
		if len(ref.Blame) != 0 {
			t.Fatalf("hand %d: honest run blamed %v", h+1, ref.Blame)
		}
		if err := wall.FourPlayer.CheckPermutation(toTiles(ref.Yama)); err != nil {
			t.Fatalf("hand %d: yama is not a permutation: %v", h+1, err)
		}
		if ref.Oya != h {
			t.Errorf("hand %d: oya seat %d, want %d (dealer rotates)", h+1, ref.Oya, h)
		}
		if ref.DoraIndicator != ref.Yama[5] {
			t.Errorf("hand %d: dora indicator %d is not yama[5] = %d", h+1, ref.DoraIndicator, ref.Yama[5])
		}
		// 70 tsumo, 70 dahai, 1 dora indicator
		if ref.Events != 141 {
			t.Errorf("hand %d: %d events, want 141", h+1, ref.Events)
		}
		for i := 1; i < Players; i++ {
			r := out[i].results[h]
			if !slices.Equal(r.Yama, ref.Yama) || r.Dice != ref.Dice || !slices.Equal(r.Seats, ref.Seats) {
				t.Errorf("hand %d: player %d's audit disagrees with player 0's", h+1, i)
			}
		}
	}
	if slices.Equal(out[0].results[0].Yama, out[0].results[1].Yama) {
		t.Error("two hands dealt the same wall")
	}
}

func toTiles(ids []int) []wall.Tile {
	out := make([]wall.Tile, len(ids))
	for i, id := range ids {
		out[i] = wall.Tile(id)
	}
	return out
}
