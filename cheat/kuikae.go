package cheat

import (
	"slices"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// kuikae takes every chi or pon it may until one leaves it holding a tile
// the table's kuikae switch forbids discarding right after that call (the
// called kind, and after a chi under "forbidden" the kind at the
// sequence's other end: game.Rules.Kuikae), then discards that tile at
// once: a swap call (喰い替え). Every preset forbids it. The calls are
// legal; the dahai is not, and it is signed. Under --rule kuikae=allowed
// no tile is ever forbidden and the strategy only calls a lot.
type kuikae struct {
	protocol.Honest
	called bool // it called and its dahai is due
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
		for _, a := range legal {
			if a.Type == game.Chi || a.Type == game.Pon {
				k.called = true
				return a, true
			}
		}
	case game.PhaseTurn:
		if !k.called || v.Turn() != s {
			return chosen, false
		}
		k.called = false
		tiles, _ := v.Hand(s)
		for _, t := range tiles {
			allowed := slices.ContainsFunc(legal, func(a game.Action) bool { return a.Type == game.Discard && a.Tile == t })
			if !allowed {
				k.done = true
				return game.Action{Type: game.Discard, Tile: t}, true
			}
		}
	}
	return chosen, false
}
