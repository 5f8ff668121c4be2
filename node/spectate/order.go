package spectate

import (
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
)

// maxAhead bounds how far ahead of the next expected index a player's
// entry is kept waiting for the ones before it.
const maxAhead = 4096

// order puts the players' published entries in an order one of the
// players saw them in: each player's by index, with no gap, and an entry
// only after the entries of others its clock (Published.after) says its
// author had received (causal delivery with vector clocks; Birman,
// Schiper and Stephenson, "Lightweight causal and atomic group
// multicast", ACM TOCS 9(3), 1991, §4).
type order struct {
	pending map[peer.ID]map[uint64]*published
	next    map[peer.ID]uint64
}

func newOrder() *order {
	return &order{pending: map[peer.ID]map[uint64]*published{}, next: map[peer.ID]uint64{}}
}

// add takes p and returns the entries it makes deliverable, in delivery
// order (often p alone, or none while an earlier one is missing). A copy
// of an entry already taken, or one too far ahead, is dropped.
func (o *order) add(p *published) []*published {
	if p.index < o.next[p.author] || p.index >= o.next[p.author]+maxAhead {
		return nil
	}
	m := o.pending[p.author]
	if m == nil {
		m = map[uint64]*published{}
		o.pending[p.author] = m
	}
	if _, dup := m[p.index]; dup {
		return nil
	}
	m[p.index] = p
	var out []*published
	for progress := true; progress; {
		progress = false
		for author, m := range o.pending {
			q := m[o.next[author]]
			if q == nil || !o.ready(q) {
				continue
			}
			delete(m, q.index)
			o.next[author]++
			out = append(out, q)
			progress = true
		}
	}
	return out
}

// ready reports whether every entry q's clock names was delivered.
func (o *order) ready(q *published) bool {
	for p, n := range q.after {
		if o.next[p] < n {
			return false
		}
	}
	return true
}

// gaps describes, per author with entries held back, the first index
// missing ("entry 5 never came, 12 later ones held") or the clock it
// waits on.
func (o *order) gaps() map[peer.ID]string {
	out := map[peer.ID]string{}
	for a, m := range o.pending {
		if len(m) == 0 {
			continue
		}
		if q := m[o.next[a]]; q != nil {
			out[a] = fmt.Sprintf("its public entry %d waits for entries of others it says it had received, never taken (%d of its entries held)", q.index, len(m))
			continue
		}
		out[a] = fmt.Sprintf("its public entry %d never came (refused, or lost), and the %d later ones received cannot be taken without it", o.next[a], len(m))
	}
	return out
}
