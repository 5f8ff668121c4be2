package cheat

import (
	"bytes"

	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// entryOf decodes the entry an envelope carries, without verifying it;
// nil if it does not decode.
func entryOf(env []byte) *pb.Entry {
	var e pb.Envelope
	var entry pb.Entry
	if proto.Unmarshal(env, &e) != nil || proto.Unmarshal(e.Entry, &entry) != nil {
		return nil
	}
	return &entry
}

// wireCheat says how envelope tampers with what it sends.
type wireCheat int

const (
	replay wireCheat = iota // its previous envelope instead of its nonce reveal
	forge                   // its nonce reveal with one signature bit flipped
	strip                   // its nonce reveal without a signature
	stall                   // nothing at all from its first shuffle pass on
)

// envelope tampers with the signed bytes it sends: what it sends carries
// no valid signature, or is a copy of an earlier message, or is nothing.
// None of it is evidence against the cheater, so the protocol names it in
// a fault.
type envelope struct {
	protocol.Honest
	how       wireCheat
	prev, cur []byte
	silent    bool
}

func (c *envelope) Envelope(_ uint32, _ peer.ID, env []byte) []byte {
	if !bytes.Equal(env, c.cur) {
		c.prev, c.cur = c.cur, env
	}
	if c.silent {
		return nil
	}
	e := entryOf(env)
	if e == nil {
		return env
	}
	switch {
	case c.how == stall:
		if e.GetShuffle() == nil {
			return env
		}
		c.silent = true
		return nil
	case e.GetNonceReveal() == nil || e.Hand != 1:
		return env
	case c.how == replay:
		return c.prev
	}
	var sealed pb.Envelope
	if proto.Unmarshal(env, &sealed) != nil {
		return env
	}
	if c.how == forge {
		sealed.Signature[0] ^= 1
	} else {
		sealed.Signature = nil
	}
	out, err := proto.Marshal(&sealed)
	if err != nil {
		return env
	}
	return out
}

// outOfTurn signs a dahai in place of its first nonce reveal: a signed
// message of a kind the protocol does not allow at that point.
type outOfTurn struct {
	protocol.Honest
	done bool
}

func (o *outOfTurn) Entry(_ uint32, _ peer.ID, e *pb.Entry) {
	if e.GetNonceReveal() != nil && !o.done {
		e.Body = &pb.Entry_Turn{Turn: &pb.Turn{Kind: pb.TurnKind_TURN_DAHAI}}
		o.done = true
	}
}

// equivocate forks its first answer to a tile on offer: one peer gets the
// answer marked timed out, the others unmarked, both signed under one
// sequence number. Both are valid, so the game goes on. The protocol then
// keeps each peer's chain whole, so only comparing transcripts shows the
// two signatures; a naive equivocator chains on from one copy, and the
// peers that got the other see the chain break at its next message.
type equivocate struct {
	protocol.Honest
	naive        bool
	forked, done bool
}

func (q *equivocate) Fork(_ uint32, e *pb.Entry) protocol.ForkMode {
	q.forked = !q.done && e.GetAnswer() != nil
	q.done = q.done || q.forked
	switch {
	case !q.forked:
		return protocol.NoFork
	case q.naive:
		return protocol.ForkNaive
	}
	return protocol.ForkChained
}

func (q *equivocate) Entry(_ uint32, to peer.ID, e *pb.Entry) {
	if q.forked && to != "" && e.GetAnswer() != nil {
		e.GetAnswer().TimedOut = !e.GetAnswer().TimedOut
		q.forked = false // only the first copy differs
	}
}
