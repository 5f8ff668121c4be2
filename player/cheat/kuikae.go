package cheat

import (
	"slices"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// kuikae takes every chi or pon it may (first one that keeps a tile of
// the called kind in hand) until one leaves it holding a tile
// the table's kuikae switch forbids discarding right after that call (the
// called kind, and after a chi under "forbidden" the kind at the
// sequence's other end: game.Rules.Kuikae), then discards that tile at
// once: a swap call (喰い替え). Every preset forbids it. The calls are
// legal; the dahai is not, and it is signed. It discards the called kind
// when it holds one, so under --rule kuikae=allowed it makes the same swap,
// legally there.
type kuikae struct {
	protocol.Honest
	called bool      // it called and its dahai is due
	kind   wall.Kind // the kind it called
	done   bool
}

func (k *kuikae) Act(v *game.Kyoku, s game.Seat, chosen game.Action) (game.Action, bool) {
	if k.done {
		return chosen, false
	}
	legal := v.LegalActions(s)
	switch v.Phase() {
	case game.PhaseResponse:
		if chosen.Type == game.Ron {
			return chosen, false
		}
		t, _, _, _, ok := v.Offer()
		tiles, _ := v.Hand(s)
		// A call that leaves a tile of the called kind in hand first.
		keeps := func(a game.Action) bool {
			return slices.ContainsFunc(tiles, func(h wall.Tile) bool { return h.Kind() == t.Kind() && !slices.Contains(a.Tiles, h) })
		}
		calls := slices.DeleteFunc(slices.Clone(legal), func(a game.Action) bool { return a.Type != game.Chi && a.Type != game.Pon })
		slices.SortStableFunc(calls, func(a, b game.Action) int {
			if keeps(a) == keeps(b) {
				return 0
			} else if keeps(a) {
				return -1
			}
			return 1
		})
		if ok && len(calls) > 0 {
			k.called, k.kind = true, t.Kind()
			return calls[0], true
		}
	case game.PhaseTurn:
		if !k.called || v.Turn() != s {
			return chosen, false
		}
		k.called = false
		tiles, _ := v.Hand(s)
		// The called kind first: every kuikae switch but "allowed"
		// forbids it, and under "allowed" the swap is made all the same.
		// Then the kind at a chi's other end, which only "forbidden" does.
		i := slices.IndexFunc(tiles, func(t wall.Tile) bool { return t.Kind() == k.kind })
		if i < 0 {
			i = slices.IndexFunc(tiles, func(t wall.Tile) bool {
				return !slices.ContainsFunc(legal, func(a game.Action) bool { return a.Type == game.Discard && a.Tile == t })
			})
		}
		if i >= 0 {
			k.done = true
			return game.Action{Type: game.Discard, Tile: tiles[i]}, true
		}
	}
	return chosen, false
}
