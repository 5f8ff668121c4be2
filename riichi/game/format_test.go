package game

import (
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// TestActionFormatReds names an action's tiles by the red set given, and
// String by Tenhou's: a pon of 5p with ids 52 and 53 under no red fives,
// Tenhou's three, and four (53 the second red 5p).
func TestActionFormatReds(t *testing.T) {
	pon := Action{Type: Pon, Seat: 1, Tile: 54, Tiles: []wall.Tile{52, 53}}
	dahai := Action{Type: Discard, Seat: 1, Tile: 53, Riichi: true}
	for _, c := range []struct {
		reds         wall.Reds
		pon, discard string
	}{
		{0, "pon 5p (5p5p)", "discard 5p riichi"},
		{wall.TenhouReds, "pon 5p (0p5p)", "discard 5p riichi"},
		{wall.RedsOf(16, 52, 53, 88), "pon 5p (0p0p)", "discard 0p riichi"},
	} {
		if got := pon.Format(c.reds); got != c.pon {
			t.Errorf("reds %v: %s, want %s", c.reds.Tiles(), got, c.pon)
		}
		if got := dahai.Format(c.reds); got != c.discard {
			t.Errorf("reds %v: %s, want %s", c.reds.Tiles(), got, c.discard)
		}
	}
	if pon.String() != pon.Format(wall.TenhouReds) {
		t.Errorf("String %s is not Tenhou's naming", pon)
	}
}

// TestIllegalErrorReds names the rejected action's tiles by the table's
// red fives: "pon 5p (5p5p)" at a table without red fives.
func TestIllegalErrorReds(t *testing.T) {
	pon := Action{Type: Pon, Seat: 2, Tile: 54, Tiles: []wall.Tile{52, 53}}
	e := &IllegalError{Seat: 2, Wind: "West", Action: pon, Reason: "riichi declared"}
	if got, want := e.Error(), "seat 2 (West): pon 5p (5p5p): riichi declared"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
	e.Reds = wall.TenhouReds
	if got, want := e.Error(), "seat 2 (West): pon 5p (0p5p): riichi declared"; got != want {
		t.Errorf("%s, want %s", got, want)
	}
}
