package cheat

import (
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// Cheats on a prepared pass: with the pipelined setup (the default,
// SPEC.md §22) a hand's shuffle and rekey passes are made, proven and sent
// while the hand before it is played, and the receivers check each one as
// it is read and verify its proof beside the play. These strategies aim
// at that overlap.

// preparedSwap swaps two elements of the deck of its first shuffle pass of
// hand 2 or later, after proving it: the pass prepared during the hand
// before (a wrong permutation under a proof made for another one).
type preparedSwap struct {
	protocol.Honest
	done bool
}

func (s *preparedSwap) Entry(hand uint32, _ peer.ID, e *pb.Entry) {
	sp := e.GetShuffle()
	const size = commcrypto.ElementSize
	if sp == nil || s.done || hand < 2 || len(sp.Deck) < 3*size {
		return
	}
	s.done = true
	tmp := make([]byte, size)
	copy(tmp, sp.Deck[size:2*size])
	copy(sp.Deck[size:2*size], sp.Deck[2*size:3*size])
	copy(sp.Deck[2*size:3*size], tmp)
}

// rekeyReplay sends, as its rekey pass of hand 2 (prepared during hand
// 1), the rekey pass it made in hand 1: a pass built on another input (hand
// 1's shuffled deck and its own hand-1 key), whose proof was valid there.
type rekeyReplay struct {
	protocol.Honest
	saved *pb.RekeyPass
	done  bool
}

func (r *rekeyReplay) Entry(_ uint32, _ peer.ID, e *pb.Entry) {
	rk := e.GetRekey()
	switch {
	case rk == nil || r.done:
	case r.saved == nil:
		r.saved = proto.Clone(rk).(*pb.RekeyPass)
	default:
		e.Body = &pb.Entry_Rekey{Rekey: proto.Clone(r.saved).(*pb.RekeyPass)}
		r.done = true
	}
}

// wrongHand signs its first pass prepared during a hand's play under the
// number of the hand in play instead of the next one's: a shuffle or
// rekey pass for hand n sent between its own turns and answers of hand n.
// It knows a hand's play is under way from what it signs itself: a turn,
// answer or call of hand n starts it, its key reveal or an abort ends it.
// A pass made after the play of the hand before it ended is sent
// honestly (the opportunity then comes with the next hand).
type wrongHand struct {
	protocol.Honest
	playing uint32 // the hand whose play is under way, 0 if none
	done    bool
}

func (w *wrongHand) Entry(hand uint32, _ peer.ID, e *pb.Entry) {
	switch e.Body.(type) {
	case *pb.Entry_Turn, *pb.Entry_Answer, *pb.Entry_Call:
		w.playing = hand
	case *pb.Entry_KeyReveal, *pb.Entry_Abort:
		w.playing = 0
	case *pb.Entry_Shuffle, *pb.Entry_Rekey:
		if !w.done && w.playing != 0 && hand == w.playing+1 {
			e.Hand = w.playing
			w.done = true
		}
	}
}
