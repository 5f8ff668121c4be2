package protocol

import (
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// Misbehavior makes a node cheat, for protocol research (package cheat,
// `mentalmj lab`) and for tests. Honest nodes leave Config.Misbehavior
// nil. Its methods are called from the goroutine running the game, at the
// points named below; Honest is a Misbehavior that changes nothing, for
// embedding.
type Misbehavior interface {
	// Entry may rewrite e before it is signed. to is the recipient of a
	// private message, or of one copy of a forked broadcast; "" for a
	// broadcast.
	Entry(hand uint32, to peer.ID, e *pb.Entry)
	// Fork reports whether a broadcast of e is to be signed once per
	// recipient under one sequence number, each copy passed to Entry with
	// its recipient: equivocation, different signed messages to different
	// peers. The transcript keeps the first copy.
	Fork(hand uint32, e *pb.Entry) bool
	// Envelope returns the bytes to send to peer to in place of the
	// signed envelope env (a forged or stripped signature, a replay of an
	// earlier envelope); nil sends nothing (silence).
	Envelope(hand uint32, to peer.ID, env []byte) []byte
	// Act may replace the action this player's Player chose for seat on
	// view; with replaced = true the replacement is sent without checking
	// it against the legal actions.
	Act(view *game.Kyoku, seat game.Seat, chosen game.Action) (a game.Action, replaced bool)
}

// Honest is the Misbehavior that changes nothing; a strategy embeds it and
// overrides what it needs.
type Honest struct{}

// Entry leaves e as it is.
func (Honest) Entry(uint32, peer.ID, *pb.Entry) {}

// Fork returns false.
func (Honest) Fork(uint32, *pb.Entry) bool { return false }

// Envelope returns env.
func (Honest) Envelope(_ uint32, _ peer.ID, env []byte) []byte { return env }

// Act returns chosen, not replaced.
func (Honest) Act(_ *game.Kyoku, _ game.Seat, chosen game.Action) (game.Action, bool) {
	return chosen, false
}
