package node

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	"github.com/multiformats/go-multiaddr"
)

// Players relay for each other (issue 29, item 4; docs/DESIGN.md, "Players
// relay for each other"). Every node runs a circuit relay v2 service
// (libp2p's circuitv2/relay, the protocol /libp2p/circuit/relay/0.2.0/hop)
// that admits only the table's peers, and holds a reservation on every
// table peer it reaches directly. A pair with no direct path then dials
// through a third player that reaches both:
// /p2p/CAROL/p2p-circuit/p2p/BOB. The circuit carries the pair's own
// end-to-end encrypted libp2p connection (Noise or TLS 1.3 between the
// pair, the relay sees ciphertext only) and every game message on it stays
// signed by its sender (SPEC §6), so the relaying player can drop or delay
// the pair's traffic but neither read nor change it; a dropped circuit is
// a lost connection, a fault of that path, never a blame (SPEC §18).

// Limits of the table's relay. A hand sends about 93 kB through the relay
// per relayed pair, both directions summed (docs/BENCHMARKS.md, "Players
// relay for each other"), so a hanchan of 8–12 hands about 1 MB, and a
// game lasts about an hour at human speed; a circuit gets 12 hours and
// 256 MiB in each direction, far over a long game, so that a circuit that
// carries a game is never cut by its limit. A table has at most 3 other
// peers: a reservation each, and a few circuits each (a pair may dial
// through the relay from both sides at once, and reconnect after a drop
// while the old circuit closes).
const (
	// PlayerRelayDuration is the time limit of one circuit through a
	// player's table relay.
	PlayerRelayDuration = 12 * time.Hour
	// PlayerRelayData is the data limit of one circuit through a player's
	// table relay, in bytes in each direction (256 MiB).
	PlayerRelayData = 256 << 20
	// playerRelayTTL is how long a reservation on a player lasts; the
	// node renews it playerRelayRenew before it ends.
	playerRelayTTL   = time.Hour
	playerRelayRenew = 10 * time.Minute
	// playerRelayRetry is the wait after a failed reservation.
	playerRelayRetry = 5 * time.Second
	// playerRelayTimeout bounds one reservation exchange.
	playerRelayTimeout = 10 * time.Second
)

// playerRelayResources are the table relay's resources (relay.Resources):
// the limits above, 8 reservations (a table's 3 peers, with room for a
// peer that restarted), 8 circuits per peer.
func playerRelayResources() relay.Resources {
	r := relay.DefaultResources()
	r.Limit = &relay.RelayLimit{Duration: PlayerRelayDuration, Data: PlayerRelayData}
	r.ReservationTTL = playerRelayTTL
	r.MaxReservations = 8
	r.MaxCircuits = 8
	r.BufferSize = 16 << 10
	r.MaxReservationsPerIP = 8
	r.MaxReservationsPerASN = 8
	return r
}

// tableACL is the table relay's relay.ACLFilter: it admits reservations
// from the table's peers and circuits between two of them, nothing else.
// Before the table is set it admits nothing. The connection gater already
// keeps strangers out; the ACL also keeps out the peers the gater admits
// for other reasons (relays, spectators, AutoNAT dial-backs).
type tableACL struct{ n *Node }

// AllowReserve admits a reservation from a table peer only.
func (a tableACL) AllowReserve(p peer.ID, _ multiaddr.Multiaddr) bool {
	ok := a.n.isTablePeer(p)
	if !ok {
		a.n.log.Info("table relay: refused a reservation from a peer outside the table", "peer", p.String())
	}
	return ok
}

// AllowConnect admits a circuit from one table peer to another only.
func (a tableACL) AllowConnect(src peer.ID, _ multiaddr.Multiaddr, dest peer.ID) bool {
	ok := a.n.isTablePeer(src) && a.n.isTablePeer(dest)
	if !ok {
		a.n.log.Info("table relay: refused a circuit outside the table", "from", src.String(), "to", dest.String())
	}
	return ok
}

// isTablePeer reports whether p is one of the table's peers (false
// before the table is set).
func (n *Node) isTablePeer(p peer.ID) bool {
	t := n.table.Load()
	if t == nil {
		return false
	}
	_, ok := t.links[p]
	return ok
}

// startPlayerRelay starts the table relay service on the node's host and
// the loop that keeps a reservation on every table peer reached
// directly. With Config.NoPlayerRelay it starts neither.
func (n *Node) startPlayerRelay() error {
	r, err := relay.New(n.host, relay.WithResources(playerRelayResources()), relay.WithACL(tableACL{n}), relay.WithMetricsTracer(&n.playerRelayStats))
	if err != nil {
		return fmt.Errorf("table relay: %w", err)
	}
	n.playerRelay = r
	n.bg.Go(func() {
		<-n.bgCtx.Done()
		_ = r.Close()
	})
	n.bg.Go(n.keepPlayerReservations)
	return nil
}

// keepPlayerReservations reserves a slot on every table peer the node has
// a direct connection to, and renews it before it ends, until the node
// closes.
func (n *Node) keepPlayerReservations() {
	select {
	case <-n.tableSet:
	case <-n.bgCtx.Done():
		return
	}
	t := n.table.Load()
	next := make(map[peer.ID]time.Time, len(t.order)) // no attempt before
	tick := time.NewTicker(pathTick)
	defer tick.Stop()
	for {
		now := time.Now()
		for _, id := range t.order {
			if now.Before(next[id]) || !n.directTo(id) {
				continue
			}
			expires, err := n.reserveOnPlayer(id)
			if err != nil {
				// A player that refuses is a fault of that path only:
				// pairs go through another player or relay.
				n.log.Debug("no reservation on a player", "peer", id.String(), "err", err)
				next[id] = time.Now().Add(playerRelayRetry)
				continue
			}
			next[id] = expires.Add(-playerRelayRenew)
		}
		select {
		case <-n.bgCtx.Done():
			return
		case <-tick.C:
		}
	}
}

// directTo reports whether the node holds a direct (not relayed)
// connection to p.
func (n *Node) directTo(p peer.ID) bool {
	for _, c := range n.host.Network().ConnsToPeer(p) {
		if !isCircuit(c.RemoteMultiaddr()) && !c.Stat().Limited {
			return true
		}
	}
	return false
}

// reserveOnPlayer makes one reservation on the table peer p's table
// relay and returns when it ends.
func (n *Node) reserveOnPlayer(p peer.ID) (time.Time, error) {
	ctx, cancel := context.WithTimeout(n.bgCtx, playerRelayTimeout)
	defer cancel()
	rsv, err := client.Reserve(ctx, n.host, peer.AddrInfo{ID: p})
	if err != nil {
		return time.Time{}, fmt.Errorf("reservation on player %s: %w", p, err)
	}
	n.log.Debug("reservation on a player", "peer", p.String(), "expires", rsv.Expiration)
	return rsv.Expiration, nil
}

// playerCircuits returns the addresses of peer id through the table
// relay of every other table peer this node reaches directly,
// /p2p/CAROL/p2p-circuit: they lead somewhere if id holds a reservation
// on that player, which it does once it reaches that player directly.
// Nil with NoPlayerRelay or before the table is set.
func (n *Node) playerCircuits(id peer.ID) []multiaddr.Multiaddr {
	t := n.table.Load()
	if t == nil || n.playerRelay == nil {
		return nil
	}
	var out []multiaddr.Multiaddr
	for _, via := range t.order {
		// A circuit needs a direct connection to the relaying player
		// (circuit relay v2 does not nest).
		if via == id || !n.directTo(via) {
			continue
		}
		a, err := multiaddr.NewMultiaddr("/p2p/" + via.String() + "/p2p-circuit")
		if err != nil {
			continue
		}
		out = append(out, a)
	}
	return out
}

// isPlayerRelay reports whether relayed connections through r go through
// a player of the table (its table relay, whose limits are the
// PlayerRelay ones: a circuit carries a whole game).
func (n *Node) isPlayerRelay(r peer.ID) bool {
	return r != "" && n.isTablePeer(r)
}

// playerRelayStats counts what the node's table relay did, as the
// relay's relay.MetricsTracer: the bytes it relayed (both directions,
// summed), the circuits it opened, and the reservations and circuits it
// refused.
type playerRelayStats struct {
	bytes, circuits, refusedRsv, refusedCircuits atomic.Int64
}

func (s *playerRelayStats) RelayStatus(bool)               {}
func (s *playerRelayStats) ConnectionOpened()              { s.circuits.Add(1) }
func (s *playerRelayStats) ConnectionClosed(time.Duration) {}
func (s *playerRelayStats) ConnectionRequestHandled(st pbv2.Status) {
	if st != pbv2.Status_OK {
		s.refusedCircuits.Add(1)
	}
}
func (s *playerRelayStats) ReservationAllowed(bool) {}
func (s *playerRelayStats) ReservationClosed(int)   {}
func (s *playerRelayStats) ReservationRequestHandled(st pbv2.Status) {
	if st != pbv2.Status_OK {
		s.refusedRsv.Add(1)
	}
}
func (s *playerRelayStats) BytesTransferred(n int) { s.bytes.Add(int64(n)) }

// quietPlayerRefusal reports whether a refused circuit through relay r
// with status is no fault worth saying: r is a player of the table and
// the peer dialled holds no reservation there (NO_RESERVATION: that peer
// does not reach r directly, so r is simply not a path between them).
// Any other refusal by a player is said as a relay's would be: a fault of
// that path, never the player's blame.
func (n *Node) quietPlayerRefusal(r peer.ID, status string) bool {
	return n.isPlayerRelay(r) && status == pbv2.Status_NO_RESERVATION.String()
}

// otherRelayDelay is how long a dial waits before it tries a circuit
// through a relay other than a player, when it has a circuit through a
// player (playersFirst).
const otherRelayDelay = time.Second

// playersFirst is a step of the dial ranker (rankDials): circuits
// through a player of the table (/p2p/PLAYER/p2p-circuit, which libp2p's
// ranker, seeing no transport in them, puts last) come swarm.RelayDelay
// after the direct addresses, as libp2p ranks relays (at once with none),
// and every circuit through another relay otherRelayDelay after them, so
// that a pair goes through a player (whose circuits carry a game) before
// a public relay (whose limited circuits do not). Without a player
// circuit, ranked is returned as it is.
func (n *Node) playersFirst(ranked []network.AddrDelay) []network.AddrDelay {
	isPlayer := func(d network.AddrDelay) bool { return n.isPlayerRelay(relayOf(d.Addr)) }
	if !slices.ContainsFunc(ranked, isPlayer) {
		return ranked
	}
	var players time.Duration
	if slices.ContainsFunc(ranked, func(d network.AddrDelay) bool { return !isCircuit(d.Addr) }) {
		players = swarm.RelayDelay
	}
	for i, d := range ranked {
		switch {
		case isPlayer(d):
			ranked[i].Delay = players
		case isCircuit(d.Addr):
			ranked[i].Delay = max(d.Delay, players+otherRelayDelay)
		}
	}
	slices.SortStableFunc(ranked, func(a, b network.AddrDelay) int { return cmp.Compare(a.Delay, b.Delay) })
	return ranked
}
