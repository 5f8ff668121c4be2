package cheat

import (
	"crypto/rand"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/pb"
)

// randomKey returns the bytes of a fresh uniformly random non-zero scalar.
func randomKey() []byte {
	k, err := commcrypto.NewKey(rand.Reader)
	if err != nil {
		panic("cheat: crypto/rand failed: " + err.Error())
	}
	return k.Bytes()
}

// wrongKey replaces its first key release's first key (a private one to
// a drawer, or a public one for the dora indicator) by a random key: a
// valid scalar that fails the commitment R = r·G.
type wrongKey struct {
	protocol.Honest
	private bool
	done    bool
}

func (w *wrongKey) Entry(_ uint32, to peer.ID, e *pb.Entry) {
	kr := e.GetKeyRelease()
	if w.done || kr == nil || (to != "") != w.private || len(kr.Keys) < commcrypto.ScalarSize {
		return
	}
	copy(kr.Keys, randomKey())
	w.done = true
}

// nonce reveals a nonce that differs in one bit from the one it committed
// to.
type nonce struct {
	protocol.Honest
	done bool
}

func (n *nonce) Entry(_ uint32, _ peer.ID, e *pb.Entry) {
	if r := e.GetNonceReveal(); r != nil && !n.done && len(r.Nonce) > 0 {
		r.Nonce[0] ^= 1
		n.done = true
	}
}
