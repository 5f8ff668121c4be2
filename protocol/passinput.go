package protocol

import "errors"

// A shuffle or rekey pass names, in its signed input field, the pass it
// builds on: the one before it in its hand (SPEC.md §9.2). A pass whose
// input is not the pass this player holds there is a fault when the
// input is unknown (the previous player may have signed two passes and
// sent them to different players, FaultDiverged), but a blame when the
// input is a pass this player knows at another place — of an earlier
// hand, or of another position in this one. No honest player can name
// such a pass: what it takes as the previous pass was checked to be of
// this hand, from the previous seat, in turn, and a signed entry's hash
// binds its hand, sender and sequence number. So the pass alone, with its
// input, is the evidence. The pipelined setup (§22) makes this the cheat
// of a prepared pass built on an older one, which the nodes must judge on
// arrival like any other.

// passRef says where a pass this player holds (received or its own) stands.
type passRef struct {
	kind string
	hand uint32
	seq  uint64
	by   string
}

// maxKnownHands bounds the hands whose passes are kept for the input
// check: the hand before the one in play, that one and the next
// (prepared).
const maxKnownHands = 3

// setLastPass makes o, a pass this player took or sent, the one the next
// pass of the hand must build on, and remembers it for checkInput.
func (h *hand) setLastPass(o *Opened) {
	h.lastPass = o.Hash[:]
	g := h.g
	if g.knownPasses == nil {
		g.knownPasses = map[[32]byte]passRef{}
	}
	for k, r := range g.knownPasses {
		if r.hand+maxKnownHands <= h.num {
			delete(g.knownPasses, k)
		}
	}
	g.knownPasses[o.Hash] = passRef{kind: o.Kind(), hand: o.Entry.Hand, seq: o.Entry.Seq, by: o.Sender.String()}
}

// misplacedInput returns the blame on o's sender when input names a pass
// this player holds other than the one o must build on; nil otherwise.
func (h *hand) misplacedInput(o *Opened, input []byte) error {
	if len(input) != 32 {
		return nil
	}
	r, ok := h.g.knownPasses[[32]byte(input)]
	if !ok {
		return nil
	}
	return blamef(o, h.num, passKind(o), errMisplacedInput, "its %s of hand %d builds on the %s of hand %d (seq %d of %s), not on the pass before it in hand %d",
		o.Kind(), h.num, r.kind, r.hand, r.seq, r.by, h.num)
}

// errMisplacedInput is wrapped by the blame misplacedInput returns.
var errMisplacedInput = errors.New("pass built on another input than the previous pass")
