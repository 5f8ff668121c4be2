package spectate

import (
	"crypto/rand"
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	ppb "github.com/mentalmj/mentalmj/protocol/pb"
)

// A resumed host publishes again the public entries of its transcript's
// last two hands, each with the index Config.Publish gave it (its place
// among all the transcript's public entries, private ones not counted),
// and no private entry; the earlier hands' public entries are kept for
// the catch-up without being published again.
func TestRepublishLastTwoHands(t *testing.T) {
	k, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	self, _ := peer.IDFromPrivateKey(k)
	k2, _, _ := crypto.GenerateEd25519Key(rand.Reader)
	other, _ := peer.IDFromPrivateKey(k2)
	// hand of each record, and whether it is private (to other).
	layout := []struct {
		hand    uint32
		private bool
	}{{0, false}, {1, false}, {1, true}, {1, false}, {2, false}, {2, true}, {2, false}, {3, true}, {3, false}, {3, false}}
	var recs []*protocol.Opened
	for i, l := range layout {
		e := &ppb.Entry{Hand: l.hand, Seq: uint64(i), Sender: []byte(self), Body: &ppb.Entry_Waiting{Waiting: &ppb.Waiting{}}}
		if l.private {
			e.Recipient = []byte(other)
		}
		o, err := protocol.Seal(k, e)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, o)
	}
	p := &Publisher{wake: make(chan struct{}, 1), cu: &catchUpServer{}}
	p.Republish(recs)
	var got []uint64
	for _, m := range p.queue {
		got = append(got, m.Index)
	}
	// Public entries, numbered: hand 0 -> 0, hand 1 -> 1, 2; hand 2 ->
	// 3, 4; hand 3 -> 5, 6. The last two hands are 2 and 3.
	if want := []uint64{3, 4, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("republished indexes %v, want %v", got, want)
	}
	var kept []uint64
	for _, m := range p.cu.history {
		kept = append(kept, m.index)
	}
	if want := []uint64{0, 1, 2}; !slices.Equal(kept, want) {
		t.Errorf("kept for the catch-up %v, want %v", kept, want)
	}
	for _, m := range p.queue {
		o, err := protocol.Open(m.Envelope)
		if err != nil || o.Recipient != "" {
			t.Errorf("republished entry %d: %v, recipient %q", m.Index, err, o.Recipient)
		}
	}
}
