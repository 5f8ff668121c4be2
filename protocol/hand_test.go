package protocol

import (
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

func TestHonestHandsAuditClean(t *testing.T) {
	t.Parallel()
	_, out := sharedHonestGame(t)
	for h := 0; h < 2; h++ {
		ref := out[0].results[h]
		if len(ref.Blame) != 0 {
			t.Fatalf("hand %d: honest run blamed %v", h+1, ref.Blame)
		}
		if err := wall.FourPlayer.CheckPermutation(toTiles(ref.Yama)); err != nil {
			t.Fatalf("hand %d: yama is not a permutation: %v", h+1, err)
		}
		if h == 0 && ref.Oya != 0 {
			t.Errorf("hand 1: oya seat %d, want 0", ref.Oya)
		}
		if ref.DoraIndicator != ref.Yama[5] {
			t.Errorf("hand %d: dora indicator %d is not yama[5] = %d", h+1, ref.DoraIndicator, ref.Yama[5])
		}
		// Tsumogiri players never call or win: the hand runs to an
		// exhaustive draw (70 tsumo and 70 dahai) unless it is aborted
		// (four identical winds first).
		if ref.Result == nil || ref.Result.End == game.EndAgari {
			t.Fatalf("hand %d: result %+v, want a draw", h+1, ref.Result)
		}
		if ref.Result.End == game.EndExhaustive && ref.Events < 141 {
			t.Errorf("hand %d: %d events for an exhaustive draw, want at least 141", h+1, ref.Events)
		}
		for i := 1; i < Players; i++ {
			r := out[i].results[h]
			if !slices.Equal(r.Yama, ref.Yama) || r.Dice != ref.Dice || !slices.Equal(r.Seats, ref.Seats) || r.Events != ref.Events || r.Result.Scores != ref.Result.Scores {
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
