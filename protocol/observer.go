package protocol

import (
	"slices"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// Observer is implemented by a Player that follows the kyoku between its
// own decisions (an mjai bot needs every draw, discard and call as it
// happens). Observe is called with a fresh private view — the player's
// own tiles revealed, everyone else's hidden, exactly what the node may
// know — before every step of the kyoku except the public decryption of
// dora and ura-dora indicators (so a turned indicator is already
// revealed), and once more when the kyoku is over (view.Result() is then
// non-nil, for a kyoku that ended by the rules). Successive views differ
// by one step: a draw, a turn's action, the resolution of the answers to
// a tile on offer (a call, a riichi deposit, a win), or the exhaustive
// draw's declarations. deciding reports that Act will be called for this
// step (seat is on turn, awaited on a tile on offer, or declaring).
// Observe must not block for long; it runs on the protocol's goroutine.
type Observer interface {
	Observe(view *game.Kyoku, seat game.Seat, deciding bool)
}

// observe calls the Player's Observe, if it has one, before step st in
// which seats act.
func (h *hand) observe(st step, seats []game.Seat) {
	o, ok := h.g.cfg.Player.(Observer)
	if !ok || st == stepReveal {
		return
	}
	v, err := h.view()
	if err != nil {
		return
	}
	me := game.Seat(h.seat)
	deciding := slices.Contains(seats, me) && (st == stepTurn || st == stepAnswer || st == stepDeclare)
	o.Observe(v, me, deciding)
}
