package bot

import (
	"testing"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// TestRedFivesValuedByRules values a five as a red five (a han more) only
// where the table's rules play it red (riichi.Rules.IsRed, the second
// path): id 16 is a plain 5m without red fives, id 53 a red 5p with four.
func TestRedFivesValuedByRules(t *testing.T) {
	var d game.Deal
	d.Scores = [4]int{25000, 25000, 25000, 25000}
	d.Haipai[0] = []wall.Tile{16, 17, 52, 53, 54, 88, 89, 100, 101, 102, 103, 104, 105}
	next := wall.Tile(108) // the honours left and 1m..4m: no five
	for s := 1; s < 4; s++ {
		for range 13 {
			d.Haipai[s] = append(d.Haipai[s], next)
			if next++; next == wall.NumTiles {
				next = 0
			}
		}
	}
	d.DoraIndicator = 60 // 7p: no five is dora
	for aka := range 5 {
		r := game.TenhouRules(true, aka > 0, true)
		if aka != 3 {
			r.Hand.Red = aka
		}
		k, err := game.NewKyoku(r, d)
		if err != nil {
			t.Fatal(err)
		}
		v := newView(k, 0)
		for _, pair := range [][2]wall.Tile{{16, 17}, {52, 54}, {53, 54}, {88, 89}} {
			red, plain := v.tileValue(pair[0]), v.tileValue(pair[1])
			if (red > plain) != r.Hand.IsRed(pair[0]) || (red < plain) {
				t.Errorf("aka=%d: tile %d valued %d, plain %d valued %d; IsRed %v", aka, pair[0], red, pair[1], plain, r.Hand.IsRed(pair[0]))
			}
		}
		if got, want := v.redUsed(d.Haipai[0]), len(r.Hand.Reds().Tiles()); got != want {
			t.Errorf("aka=%d: %d red fives in the hand, the rules play %d", aka, got, want)
		}
	}
}
