package node

import (
	"sync"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
)

// spectatorSlots admits, when a table allows spectators (settings
// Spectators, SPEC.md §25), up to max peers from outside the table, so
// that they can subscribe to the table's gossipsub topic. Such a peer
// reaches no game stream: the game protocol's streams are accepted only
// from the table (stream.go), whatever the gater admitted.
type spectatorSlots struct {
	mu  sync.Mutex
	max int
	in  map[peer.ID]bool
	// connected reports whether a peer still has a connection; set once
	// the host exists.
	connected func(peer.ID) bool
}

// AdmitSpectators lets at most max peers from outside the table connect
// to this node as spectators (0, the default, admits none), for the
// table's gossipsub topic (package node/spectate). They use the node's
// other protocols only: a game stream from a peer outside the table is
// refused as ever.
func (n *Node) AdmitSpectators(max int) {
	s := &n.gater.spectators
	s.mu.Lock()
	defer s.mu.Unlock()
	s.max = max
}

// admit reports whether p, a peer outside the table, is admitted as a
// spectator: it is one already, or a slot is free (slots of spectators no
// longer connected are freed first).
func (s *spectatorSlots) admit(p peer.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.max <= 0 {
		return false
	}
	if s.in[p] {
		return true
	}
	if s.in == nil {
		s.in = map[peer.ID]bool{}
	}
	if len(s.in) >= s.max && s.connected != nil {
		for q := range s.in {
			if !s.connected(q) {
				delete(s.in, q)
			}
		}
	}
	if len(s.in) >= s.max {
		return false
	}
	s.in[p] = true
	return true
}

// hostConnected returns the connected check of a host's network.
func hostConnected(nw network.Network) func(peer.ID) bool {
	return func(p peer.ID) bool { return nw.Connectedness(p) == network.Connected }
}
