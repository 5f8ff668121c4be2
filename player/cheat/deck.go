package cheat

import (
	"crypto/rand"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// deckCheat says how shuffle tampers with its pass.
type deckCheat int

const (
	drop         deckCheat = iota // one element fewer
	duplicate                     // element 1 becomes a copy of element 0
	replace                       // element 0 becomes a random element
	twoKeys                       // the second half is locked again under a second key
	identity                      // element 0 becomes the identity (32 zero bytes)
	noncanonical                  // element 0 becomes a non-canonical encoding
)

// nonCanonical is 2^255 - 19 (the field prime) in little-endian: an
// encoding of 0 that is not canonical, which RFC 9496 §4.3.1 rejects.
var nonCanonical = [commcrypto.ElementSize]byte{0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}

// shuffle tampers with its first shuffle pass.
type shuffle struct {
	protocol.Honest
	how  deckCheat
	done bool
}

func (s *shuffle) Entry(_ uint32, _ peer.ID, e *pb.Entry) {
	sp := e.GetShuffle()
	const size = commcrypto.ElementSize
	if sp == nil || s.done || len(sp.Deck) < 2*size {
		return
	}
	s.done = true
	switch s.how {
	case drop:
		sp.Deck = sp.Deck[:len(sp.Deck)-size]
	case duplicate:
		copy(sp.Deck[size:2*size], sp.Deck[:size])
	case replace:
		copy(sp.Deck[:size], randomElement())
	case twoKeys:
		half := len(sp.Deck) / size / 2
		deck, err := commcrypto.DecodeElements(sp.Deck[half*size:], len(sp.Deck)/size-half)
		if err != nil {
			return
		}
		k2, _ := commcrypto.DecodeScalar(randomKey())
		copy(sp.Deck[half*size:], commcrypto.EncodeElements(commcrypto.LockAll(k2, deck)))
	case identity:
		clear(sp.Deck[:size])
	case noncanonical:
		copy(sp.Deck[:size], nonCanonical[:])
	}
}

// randomElement returns the encoding of r·G for a random scalar r.
func randomElement() []byte {
	k, err := commcrypto.NewKey(rand.Reader)
	if err != nil {
		panic("cheat: crypto/rand failed: " + err.Error())
	}
	return commcrypto.EncodeElements([]commcrypto.Element{commcrypto.Commit(k)})
}

// rekeyPosition is the wall position rekey tampers with: yama[12], the
// ura-dora indicator of a fifth kan, which no player decrypts during a
// hand: without proofs only the end-of-hand audit can catch it; with
// proofs (the default) the rekey proof fails on arrival.
const rekeyPosition = 12

// rekey locks one position of its first rekey pass once more under a
// random factor, so that it no longer matches r·k⁻¹ for the committed r.
type rekey struct {
	protocol.Honest
	done bool
}

func (r *rekey) Entry(_ uint32, _ peer.ID, e *pb.Entry) {
	rk := e.GetRekey()
	const size = commcrypto.ElementSize
	if rk == nil || r.done || len(rk.Wall) < (rekeyPosition+1)*size {
		return
	}
	r.done = true
	el, err := commcrypto.DecodeElement(rk.Wall[rekeyPosition*size : (rekeyPosition+1)*size])
	if err != nil {
		return
	}
	f, _ := commcrypto.DecodeScalar(randomKey())
	copy(rk.Wall[rekeyPosition*size:], commcrypto.EncodeElements([]commcrypto.Element{commcrypto.Lock(f, el)}))
}

// shuffleProof tampers with the proof of its shuffle pass: flip flips one
// byte of its first pass's proof; otherwise, from its second hand on, it
// sends the shuffle pass it made in its first hand (deck, key commitment
// and proof, all valid then). The pass of the first seat starts from the
// tile points in every hand, so only the hand number bound into the
// Fiat–Shamir transcript tells such a replay apart.
type shuffleProof struct {
	protocol.Honest
	flip  bool
	saved *pb.ShufflePass
	done  bool
}

func (s *shuffleProof) Entry(hand uint32, _ peer.ID, e *pb.Entry) {
	sp := e.GetShuffle()
	if sp == nil || s.done {
		return
	}
	switch {
	case s.flip && len(sp.Proof) > 0:
		sp.Proof[len(sp.Proof)/2] ^= 0x10
		s.done = true
	case !s.flip && s.saved == nil:
		s.saved = &pb.ShufflePass{Deck: append([]byte(nil), sp.Deck...), KeyCommitment: append([]byte(nil), sp.KeyCommitment...), Proof: append([]byte(nil), sp.Proof...)}
	case !s.flip:
		sp.Deck, sp.KeyCommitment, sp.Proof = s.saved.Deck, s.saved.KeyCommitment, s.saved.Proof
		s.done = true
	}
}
