package riichi

import (
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// TestRulesReds checks Rules.Reds against Rules.IsRed (the second path)
// for every id and every red-five count, with and without Aka.
func TestRulesReds(t *testing.T) {
	for _, aka := range []bool{false, true} {
		for red := range 5 {
			r := Rules{Aka: aka, Red: red}
			reds := r.Reds()
			for id := range wall.Tile(wall.NumTiles) {
				if reds.Has(id) != r.IsRed(id) {
					t.Errorf("aka %v red %d: Reds has %d = %v, IsRed %v", aka, red, id, reds.Has(id), r.IsRed(id))
				}
			}
		}
	}
}

// TestFormatHandReds writes the same ids under different red sets, as the
// notation writes them: 0 for a red five of the set, 5 otherwise, the red
// first among the fives of a suit.
func TestFormatHandReds(t *testing.T) {
	ids := []wall.Tile{53, 16, 52, 88, 17}
	for _, c := range []struct {
		reds wall.Reds
		want string
	}{
		{0, "55m55p5s"},
		{wall.TenhouReds, "05m05p0s"},
		{wall.RedsOf(52), "55m05p5s"},
		{wall.RedsOf(16, 52, 53, 88), "05m00p0s"},
	} {
		if got := FormatHandReds(ids, c.reds); got != c.want {
			t.Errorf("reds %v: %s, want %s", c.reds.Tiles(), got, c.want)
		}
	}
	if FormatHand(ids) != FormatHandReds(ids, wall.TenhouReds) {
		t.Error("FormatHand is not Tenhou's red fives")
	}
}
