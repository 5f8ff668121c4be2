package bot

import (
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// table drives a Kyoku with chosen haipai for the unit tests: hands, draws
// and indicators are written in the standard notation (riichi.ParseHand)
// and each tile gets a distinct Tenhou id. Every tile is known to the
// engine, so seats without an option pass implicitly.
type table struct {
	t    *testing.T
	k    *game.Kyoku
	used [wall.NumTiles]bool
}

// tiles parses notation s and gives each tile a free id of its kind (red
// fives their red id, plain fives never).
func (h *table) tiles(s string) []wall.Tile {
	h.t.Helper()
	parsed, err := riichi.ParseHand(s)
	if err != nil {
		h.t.Fatal(err)
	}
	out := make([]wall.Tile, 0, len(parsed))
	for _, p := range parsed {
		found := false
		for id := wall.Tile(4 * p.Kind()); id < wall.Tile(4*p.Kind()+4); id++ {
			if !h.used[id] && id.IsRed() == p.IsRed() {
				h.used[id] = true
				out = append(out, id)
				found = true
				break
			}
		}
		if !found {
			h.t.Fatalf("notation %q: no %s left", s, p)
		}
	}
	return out
}

func (h *table) tile(s string) wall.Tile {
	h.t.Helper()
	ts := h.tiles(s)
	if len(ts) != 1 {
		h.t.Fatalf("want one tile, got %q", s)
	}
	return ts[0]
}

// newTable deals hands[s] (13 tiles) to seat s, seat 0 the dealer of East 1
// with 25000 each, and the dora indicator dora.
func newTable(t *testing.T, hands [4]string, dora string) *table {
	t.Helper()
	h := &table{t: t}
	d := game.Deal{Scores: [4]int{25000, 25000, 25000, 25000}}
	for s := range hands {
		d.Haipai[s] = h.tiles(hands[s])
	}
	d.DoraIndicator = h.tile(dora)
	k, err := game.NewKyoku(game.TenhouRules(true, true, true), d)
	if err != nil {
		t.Fatal(err)
	}
	h.k = k
	return h
}

// draw makes the pending draw with the tile named s.
func (h *table) draw(s string) {
	h.t.Helper()
	if _, err := h.k.Draw(h.tile(s)); err != nil {
		h.t.Fatal(err)
	}
}

// held returns a tile of the kind (and redness) named s in seat's hand.
func (h *table) held(seat game.Seat, s string) wall.Tile {
	h.t.Helper()
	k, red, err := wall.ParseTileName(s)
	if err != nil {
		h.t.Fatal(err)
	}
	tiles, _ := h.k.Hand(seat)
	for _, t := range tiles {
		if t.Kind() == k && t.IsRed() == red {
			return t
		}
	}
	h.t.Fatalf("seat %d holds no %s", seat, s)
	return 0
}

func (h *table) do(a game.Action) {
	h.t.Helper()
	if err := h.k.Apply(a); err != nil {
		h.t.Fatal(err)
	}
}

// passAll makes every awaited seat but keep pass.
func (h *table) passAll(keep game.Seat) {
	h.t.Helper()
	for _, s := range h.k.Awaiting() {
		if s != keep {
			h.do(game.Action{Type: game.Pass, Seat: s})
		}
	}
}

// drawDiscard lets the seat to move draw s and discard it at once, and
// everyone but keep pass.
func (h *table) drawDiscard(s string, keep game.Seat) {
	h.t.Helper()
	seat := h.k.Turn()
	h.draw(s)
	h.do(game.Action{Type: game.Discard, Seat: seat, Tile: h.held(seat, s)})
	h.passAll(keep)
}

// choose asks a bot with seed 1 for seat's action and checks that it is
// accepted by the engine's LegalActions.
func (h *table) choose(seat game.Seat) game.Action {
	h.t.Helper()
	a, err := New(1).Choose(h.k, seat)
	if err != nil {
		h.t.Fatal(err)
	}
	return a
}
