package protocol

import (
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// Misbehavior makes a node cheat, for protocol research (package player/cheat,
// `mentalmj lab`) and for tests. Honest nodes leave Config.Misbehavior
// nil. Its methods are called from the goroutine running the game, at the
// points named below; Honest is a Misbehavior that changes nothing, for
// embedding.
type Misbehavior interface {
	// Entry may rewrite e before it is signed. to is the recipient of a
	// private message, or of one copy of a forked broadcast; "" for a
	// broadcast.
	Entry(hand uint32, to peer.ID, e *pb.Entry)
	// Fork says whether a broadcast of e is to be signed once per
	// recipient under one sequence number, each copy passed to Entry with
	// its recipient: equivocation, different signed messages to different
	// peers. The transcript keeps the first copy.
	Fork(hand uint32, e *pb.Entry) ForkMode
	// Envelope returns the bytes to send to peer to in place of the
	// signed envelope env, an entry or a Waiting notice (a forged or
	// stripped signature, a replay of an earlier envelope); nil sends
	// nothing (silence).
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

// Fork returns NoFork.
func (Honest) Fork(uint32, *pb.Entry) ForkMode { return NoFork }

// ForkMode says whether and how a Misbehavior forks a broadcast.
type ForkMode int

const (
	// NoFork signs the broadcast once, as an honest node does.
	NoFork ForkMode = iota
	// ForkChained signs a copy per peer, and from then on each peer's
	// entries chain to the last copy that peer got: no peer sees its chain
	// break, and only comparing transcripts shows the fork.
	ForkChained
	// ForkNaive signs a copy per peer and chains on from the first copy:
	// the peers that got another copy see the chain break at the next
	// entry.
	ForkNaive
)

// Envelope returns env.
func (Honest) Envelope(_ uint32, _ peer.ID, env []byte) []byte { return env }

// Act returns chosen, not replaced.
func (Honest) Act(_ *game.Kyoku, _ game.Seat, chosen game.Action) (game.Action, bool) {
	return chosen, false
}
