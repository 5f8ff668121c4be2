package cheat

import (
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// dahai discards claiming a tile of another kind than the one its keys
// decrypt to.
type dahai struct {
	protocol.Honest
	done bool
}

func (d *dahai) Entry(_ uint32, _ peer.ID, e *pb.Entry) {
	t := e.GetTurn()
	if d.done || t == nil || t.Kind != pb.TurnKind_TURN_DAHAI || t.Shown == nil || len(t.Shown.Tiles) != 1 {
		return
	}
	t.Shown.Tiles[0] = (t.Shown.Tiles[0] + 4) % wall.NumTiles
	d.done = true
}

// call answers pon to a tile on offer, then shows two of its tiles
// claiming they are of the kind on offer.
type call struct {
	protocol.Honest
	offered wall.Tile
	pending bool
	done    bool
}

func (c *call) Act(v *game.Kyoku, s game.Seat, chosen game.Action) (game.Action, bool) {
	t, _, _, _, ok := v.Offer()
	tiles, _ := v.Hand(s)
	if c.done || !ok || v.Phase() != game.PhaseResponse || chosen.Type != game.Pass || len(tiles) < 2 {
		return chosen, false
	}
	c.offered, c.pending = t, true
	return game.Action{Type: game.Pon, Tiles: tiles[:2]}, true
}

func (c *call) Entry(_ uint32, _ peer.ID, e *pb.Entry) {
	m := e.GetCall()
	if !c.pending || m == nil || m.Shown == nil {
		return
	}
	for i := range m.Shown.Tiles {
		m.Shown.Tiles[i] = uint32(c.offered.Kind())*4 + uint32(i+1)%4
	}
	c.pending, c.done = false, true
}

// falseWin declares a win its hand does not make: tsumo agari on its
// first turn, or ron on the first tile on offer.
type falseWin struct {
	protocol.Honest
	ron  bool
	done bool
}

func (f *falseWin) Act(v *game.Kyoku, _ game.Seat, chosen game.Action) (game.Action, bool) {
	switch {
	case f.done, chosen.Type == game.TsumoAgari, chosen.Type == game.Ron:
		return chosen, false
	case !f.ron && v.Phase() == game.PhaseTurn:
		f.done = true
		return game.Action{Type: game.TsumoAgari}, true
	case f.ron && v.Phase() == game.PhaseResponse:
		f.done = true
		return game.Action{Type: game.Ron}, true
	}
	return chosen, false
}

// falseTenpai declares tenpai at an exhaustive draw when its hand is not.
type falseTenpai struct{ protocol.Honest }

func (falseTenpai) Act(_ *game.Kyoku, _ game.Seat, chosen game.Action) (game.Action, bool) {
	if chosen.Type == game.Noten {
		return game.Action{Type: game.Tenpai}, true
	}
	return chosen, false
}

// notenRiichi declares riichi with its first dahai of a closed hand that
// is not tenpai (no riichi discard is among its legal actions), and
// declares tenpai if the hand reaches its exhaustive draw.
type notenRiichi struct {
	protocol.Honest
	done bool
}

func (n *notenRiichi) Act(v *game.Kyoku, s game.Seat, chosen game.Action) (game.Action, bool) {
	if n.done && v.Phase() == game.PhaseDeclare {
		// In riichi on a noten hand at the exhaustive draw, nothing is
		// legal: it keeps up the lie and declares tenpai.
		return game.Action{Type: game.Tenpai}, true
	}
	if n.done || chosen.Type != game.Discard || chosen.Riichi || v.Riichi(s) || len(v.Melds(s)) > 0 || v.Scores()[s] < 1000 || v.LiveLeft() < 4 {
		return chosen, false
	}
	if slices.ContainsFunc(v.LegalActions(s), func(a game.Action) bool { return a.Riichi }) {
		return chosen, false // tenpai: a riichi would be legal
	}
	n.done = true
	chosen.Riichi = true
	return chosen, true
}

// withhold keeps its key reveal back at the end of a hand it did not win.
type withhold struct {
	protocol.Honest
	hand uint32
	won  bool
}

func (w *withhold) Act(_ *game.Kyoku, _ game.Seat, chosen game.Action) (game.Action, bool) {
	if chosen.Type == game.TsumoAgari || chosen.Type == game.Ron {
		w.won = true
	}
	return chosen, false
}

func (w *withhold) Envelope(hand uint32, _ peer.ID, env []byte) []byte {
	if hand != w.hand {
		w.hand, w.won = hand, false
	}
	if e := entryOf(env); e != nil && e.GetKeyReveal() != nil && !w.won {
		return nil
	}
	return env
}
