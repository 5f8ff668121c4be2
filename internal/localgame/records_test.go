package localgame

import (
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/wall"
)

// viewOf is a one-round view for seat 0 ("me") of four: seat 0's haipai
// and tsumo known; seats 1–3 with the haipai given (h: a hidden tile or
// not) and a hidden or known tsumo, and the events after.
func viewOf(hiddenHai [4]bool, hiddenDraw [4]bool, after ...mjlog.Event) *mjlog.Game {
	g := &mjlog.Game{Players: []mjlog.Player{{Name: "me"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}}
	var r mjlog.Round
	for s := range 4 {
		hai := make([]wall.Tile, 13)
		for i := range hai {
			hai[i] = wall.Tile(s*13 + i)
		}
		if hiddenHai[s] {
			hai[3] = mjlog.Hidden
		}
		r.Init.Hai[s] = hai
		tile := wall.Tile(60 + s)
		if hiddenDraw[s] {
			tile = mjlog.Hidden
		}
		r.Events = append(r.Events, mjlog.Draw{Who: s, Tile: tile}, mjlog.Discard{Who: s, Tile: wall.Tile(60 + s)})
	}
	r.Events = append(r.Events, after...)
	g.Rounds = []mjlog.Round{r}
	return g
}

// TestViewRules holds a private-hands view to SPEC §19 with views made
// by hand: one where every opponent's hand is hidden passes; one where
// all three opponents showed their hands (a win, a riichi, a tenpai at
// the draw) passes though it hides nothing (the case a two-hand local
// game can meet); so does an opponent whose only hidden tile is a
// tsumo; a leak (an opponent never shown, every tile known) and a hidden
// tile of the player's own fail.
func TestViewRules(t *testing.T) {
	all := [4]bool{false, true, true, true}
	none := [4]bool{}
	tenpai := mjlog.Ryuukyoku{Hai: [4][]wall.Tile{3: {1, 2, 3}}}
	for _, c := range []struct {
		name       string
		hai, draws [4]bool
		after      []mjlog.Event
		want       string // "" passes, else a part of the error
	}{
		{"opponents hidden", all, all, nil, ""},
		{"opponents hidden in haipai only", all, none, nil, ""},
		{"every opponent shown", none, none, []mjlog.Event{mjlog.Reach{Who: 2, Step: 1}, mjlog.Agari{Who: 1, FromWho: 2}, tenpai}, ""},
		{"a leak", none, none, []mjlog.Event{mjlog.Reach{Who: 2, Step: 1}, tenpai}, "seat 1 never showed its hand"},
		{"hidden only by a tsumo", [4]bool{false, false, true, true}, [4]bool{false, true, false, false}, nil, ""},
		{"own tile hidden", [4]bool{true, true, true, true}, all, nil, "its own seat 0 has a hidden tile"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := viewRules(viewOf(c.hai, c.draws, c.after...), "me")
			switch {
			case c.want == "" && err != nil:
				t.Errorf("want no error, got %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("want an error with %q, got %v", c.want, err)
			}
		})
	}
}
