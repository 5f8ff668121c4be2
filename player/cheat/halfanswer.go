package cheat

import (
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// halfAnswer answers a dahai to the next drawer only and then falls
// silent: the next drawer goes on to its tsumo and waits for the keys of
// players still waiting for the cheater's answer, whose waits (for an
// answer, a player action) are longer than the drawer's (for keys, an
// automatic step). It is the case the Waiting notices are for (SPEC.md
// §9): only the cheater may be named.
//
// It learns which peer sits where from its own private key releases: the
// tsumo keys it sends before a dahai go to the player who then discards.
type halfAnswer struct {
	protocol.Honest
	mu       sync.Mutex
	lastKeys peer.ID               // recipient of its last private key release
	seatPeer map[game.Seat]peer.ID // learned seat → peer
	target   peer.ID               // the next drawer, once armed
	seq      uint64                // the answer sent to target alone
	silent   bool
}

func (h *halfAnswer) Act(v *game.Kyoku, s game.Seat, chosen game.Action) (game.Action, bool) {
	_, _, from, kan, ok := v.Offer()
	if !ok || kan || v.Phase() != game.PhaseResponse || v.OfferIsKita() {
		return chosen, false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seatPeer == nil {
		h.seatPeer = map[game.Seat]peer.ID{}
	}
	if h.lastKeys != "" {
		h.seatPeer[from] = h.lastKeys
		h.lastKeys = "" // a caller discards without a tsumo
	}
	next := game.Seat((int(from) + 1) % v.Players())
	if p, known := h.seatPeer[next]; known && next != s && h.target == "" && chosen.Type == game.Pass {
		h.target = p
	}
	return chosen, false
}

func (h *halfAnswer) Envelope(_ uint32, to peer.ID, env []byte) []byte {
	e := entryOf(env)
	h.mu.Lock()
	defer h.mu.Unlock()
	if e == nil {
		return env
	}
	if k := e.GetKeyRelease(); k != nil && len(k.Positions) == 1 && len(e.Recipient) > 0 && !h.silent {
		h.lastKeys = to
	}
	if h.target != "" && !h.silent && e.GetAnswer() != nil {
		h.silent, h.seq = true, e.Seq
	}
	switch {
	case !h.silent:
		return env
	case e.GetAnswer() != nil && e.Seq == h.seq && to == h.target:
		return env
	}
	return nil
}
