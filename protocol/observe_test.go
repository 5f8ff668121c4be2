package protocol

import (
	"slices"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// TestObserverSeesOwnTilesOnly checks the Observer against the audited
// wall (an independent truth: it is decrypted only at the end): every tile
// an observation shows in the player's own hand is the wall's tile at its
// position, no other player's concealed tile is shown, the stages come in
// protocol order, and the last view's result is the hand's result.
func TestObserverSeesOwnTilesOnly(t *testing.T) {
	t.Parallel()
	tb := newTable(t)
	var obs []Observation
	out := tb.play(t, 1, func(i int, c *Config) {
		if i == 2 {
			c.Observer = ObserverFunc(func(o Observation) { obs = append(obs, o) })
		}
	})
	for i, o := range out {
		if o.err != nil {
			t.Fatalf("player %d: %v", i, o.err)
		}
	}
	res := out[2].results[0]
	var stages []string
	plays := 0
	for _, o := range obs {
		if len(stages) == 0 || stages[len(stages)-1] != o.Stage {
			stages = append(stages, o.Stage)
		}
		if o.View == nil {
			continue
		}
		plays++
		if o.Seat < 0 || o.Seats[o.Seat] != tb.ids[2] || len(o.Nicks) != Players {
			t.Fatalf("observation names seat %d of %v, want player 2 (%s)", o.Seat, o.Seats, tb.ids[2])
		}
		for s := game.Seat(0); s < Players; s++ {
			tiles, positions := o.View.Hand(s)
			for j, tl := range tiles {
				if s != o.Seat && tl != game.Unknown {
					t.Fatalf("seat %d's concealed tile at %d shown to seat %d", s, positions[j], o.Seat)
				}
				if s == o.Seat && tl != wall.Tile(res.Yama[positions[j]]) {
					t.Fatalf("own tile at position %d shown as %s, the audited wall has %s", positions[j], tl, wall.Tile(res.Yama[positions[j]]))
				}
			}
		}
	}
	want := []string{"seats and dice", "shuffle", "rekey", "haipai", "dora indicator", "play", "key reveal"}
	if !slices.Equal(stages, want) {
		t.Errorf("stages %q, want %q", stages, want)
	}
	if plays < 10 {
		t.Errorf("%d observations of the kyoku, want one per step", plays)
	}
	last := obs[len(obs)-1]
	if last.View == nil || last.View.Result() == nil || last.View.Result().Scores != res.Result.Scores {
		t.Errorf("last observation does not hold the hand's result %+v", res.Result)
	}
}

// Pause.Text says whom the table waits for and for how long, in minutes
// and seconds rounded to the second; the zero Pause says nothing.
func TestPauseText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p    Pause
		want string
	}{
		{Pause{}, ""},
		{Pause{Peer: "p", Nick: "bob", Left: 105 * time.Second}, "waiting for bob to reconnect (1:45 left)"},
		{Pause{Peer: "p", Nick: "bob", Left: 1500 * time.Millisecond}, "waiting for bob to reconnect (0:02 left)"},
		{Pause{Peer: "p", Nick: "bob", Left: -time.Second}, "waiting for bob to reconnect (0:00 left)"},
	} {
		if got := c.p.Text(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
