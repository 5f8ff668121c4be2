package spectate

import (
	"fmt"
)

// maxAhead bounds how far ahead of the next expected index an entry is
// kept waiting for the ones before it.
const maxAhead = 4096

// order puts the host's published entries back in the order the host
// recorded them (Published.index, 0, 1, … with no gap), whatever order
// gossipsub delivered them in (a spectator hears them from several
// peers). That order is the host's transcript's, one the audit's replay of
// the kyoku takes.
type order struct {
	pending map[uint64]*published
	next    uint64
}

func newOrder() *order {
	return &order{pending: map[uint64]*published{}}
}

// add takes p and returns the entries it makes deliverable, in order
// (often p alone, or none while an earlier one is missing). A copy of an
// entry already taken, or one too far ahead, is dropped.
func (o *order) add(p *published) []*published {
	if p.index < o.next || p.index >= o.next+maxAhead {
		return nil
	}
	if _, dup := o.pending[p.index]; dup {
		return nil
	}
	o.pending[p.index] = p
	var out []*published
	for q := o.pending[o.next]; q != nil; q = o.pending[o.next] {
		delete(o.pending, o.next)
		o.next++
		out = append(out, q)
	}
	return out
}

// gap describes the entries held back ("entry 5 never came, 12 later
// ones held"), or "" when none is.
func (o *order) gap() string {
	if len(o.pending) == 0 {
		return ""
	}
	return fmt.Sprintf("its published entry %d never came (refused, or lost), and the %d later ones received cannot be taken without it", o.next, len(o.pending))
}

// skip makes i the next index expected, when i is ahead: a late
// spectator's catch-up leaves out the entries of the hands it does not
// need (SPEC.md §25). The entries held below i are dropped.
func (o *order) skip(i uint64) {
	if i <= o.next {
		return
	}
	for k := range o.pending {
		if k < i {
			delete(o.pending, k)
		}
	}
	o.next = i
}
