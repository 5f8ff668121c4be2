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
	ev   Evidence // the last entry accepted
	// all holds every entry accepted from the sender, by seq, so that an
	// entry sent again after a reconnection can be told apart: the same
	// entry (dropped) or a different one under a seq already held
	// (equivocation).
	all map[uint64]Evidence
}

// held returns the entry accepted from sender under seq, if any.
func (c chains) held(sender peer.ID, seq uint64) (Evidence, bool) {
	st, ok := c[sender]
	if !ok {
		return Evidence{}, false
	}
	ev, ok := st.all[seq]
	return ev, ok
}

// chainFork is the error of accept for two entries, both signed by the
// sender, that cannot both belong to one honest chain: a second entry with
// the sequence number of the last one, or an entry at seq last+1 whose
// prev_hash is not the last entry's hash. It is proof of equivocation.
type chainFork struct {
	seq      uint64
	evidence []Evidence
	msg      string
}

func (f *chainFork) Error() string { return f.msg }

// accept checks o against the sender's chain and advances it. A fork is a
// *chainFork; a replayed copy or an older sequence number is a plain
// error. The errors name the sender and the sequence numbers.
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
	case e.Seq == st.seq && o.Hash != st.hash:
		return &chainFork{seq: e.Seq, evidence: append([]Evidence{st.ev}, evidenceOf(o)...),
			msg: fmt.Sprintf("peer %s: two different messages with sequence number %d", o.Sender, e.Seq)}
	case e.Seq <= st.seq:
		return fmt.Errorf("peer %s: sequence number %d after %d (replayed or out of order)", o.Sender, e.Seq, st.seq)
	case e.Seq == st.seq+1 && string(e.PrevHash) != string(st.hash[:]):
		return &chainFork{seq: st.seq, evidence: append([]Evidence{st.ev}, evidenceOf(o)...),
			msg: fmt.Sprintf("peer %s: message %d does not chain to message %d (prev_hash mismatch)", o.Sender, e.Seq, st.seq)}
	}
	ev := evidenceOf(o)[0]
	if st == nil {
		st = &chainState{all: map[uint64]Evidence{}}
		c[o.Sender] = st
	}
	st.seq, st.hash, st.ev = e.Seq, o.Hash, ev
	st.all[e.Seq] = ev
	return nil
}
