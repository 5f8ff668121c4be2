package protocol

import (
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
)

// chains checks each sender's hash chain: sequence numbers start at 0 and
// strictly increase; when a message directly follows the previous one seen
// from that sender (seq = last+1) its prev_hash must equal the hash of that
// message. Gaps are legitimate: they are the sender's private messages to
// other players, checked when transcripts are compared.
type chains map[peer.ID]*chainState

type chainState struct {
	seq  uint64
	hash [32]byte
}

// accept checks o against the sender's chain and advances it. The error
// names the sender and the sequence numbers.
func (c chains) accept(o *Opened) error {
	e := o.Entry
	st, ok := c[o.Sender]
	switch {
	case !ok && e.Seq == 0:
		if len(e.PrevHash) != 0 {
			return fmt.Errorf("peer %s: first message carries a prev_hash", o.Sender)
		}
	case !ok:
		// The first message seen from this sender need not be its first
		// (e.g. an audit of a partial transcript); nothing to link to.
	case e.Seq <= st.seq:
		return fmt.Errorf("peer %s: sequence number %d after %d (replayed or out of order)", o.Sender, e.Seq, st.seq)
	case e.Seq == st.seq+1 && string(e.PrevHash) != string(st.hash[:]):
		return fmt.Errorf("peer %s: message %d does not chain to message %d (prev_hash mismatch)", o.Sender, e.Seq, st.seq)
	}
	c[o.Sender] = &chainState{seq: e.Seq, hash: o.Hash}
	return nil
}
