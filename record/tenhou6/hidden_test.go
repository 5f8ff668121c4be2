package tenhou6

import (
	"errors"
	"testing"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/wall"
)

// A player's view of a private-hands game has hidden tiles, which
// tenhou.net/6 JSON cannot express: Convert refuses it with ErrHidden.
func TestConvertRefusesHiddenTiles(t *testing.T) {
	g := &mjlog.Game{File: "view.xml", Rounds: []mjlog.Round{{
		Init:   mjlog.Init{DoraIndicator: 57, Ten: []int{250, 250, 250, 250}, Hai: [4][]wall.Tile{{0}, {1}, {2}, {3}}},
		Events: []mjlog.Event{mjlog.Draw{Who: 1, Tile: mjlog.Hidden}},
	}}}
	if _, err := Convert(g); !errors.Is(err, ErrHidden) {
		t.Errorf("Convert: %v, want ErrHidden", err)
	}
	g.Rounds[0].Events = nil
	g.Rounds[0].Init.Hai[2] = []wall.Tile{mjlog.Hidden}
	if _, err := Convert(g); !errors.Is(err, ErrHidden) {
		t.Errorf("Convert with a hidden haipai tile: %v, want ErrHidden", err)
	}
}
