package screen

import (
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// A kan's new dora indicator is counted before the players' keys reveal
// it (game.Unknown): the feed announces it once, with its tile, when it is
// known, and never as an unknown tile ("新ドラ表示牌 ?" was seen in a
// bots' game).
func TestNewDoraIndicatorAnnouncedWhenKnown(t *testing.T) {
	const u = game.Unknown
	for _, c := range []struct {
		name      string
		prev, cur []wall.Tile
		want      []wall.Tile
	}{
		{"the first, known", nil, []wall.Tile{10}, []wall.Tile{10}},
		{"kan: counted, not yet revealed", []wall.Tile{10}, []wall.Tile{10, u}, nil},
		{"kan: revealed", []wall.Tile{10, u}, []wall.Tile{10, 55}, []wall.Tile{55}},
		{"kan: counted and revealed at once", []wall.Tile{10}, []wall.Tile{10, 55}, []wall.Tile{55}},
		{"nothing new", []wall.Tile{10, 55}, []wall.Tile{10, 55}, nil},
		{"two kans, the second unknown", []wall.Tile{10}, []wall.Tile{10, 55, u}, []wall.Tile{55}},
	} {
		if got := newDoraIndicators(c.prev, c.cur); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
