package node

import (
	"log/slog"
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/control"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
)

// tableGater is the host's connmgr.ConnectionGater. It admits connections,
// in both directions, only with peers of the table and with relays: those
// of Config.Relays and those named in the table's relayed addresses; before
// the table is set it admits only the former, and the peers Config.Meet
// admits to a meeting. The peer's identity is known,
// and checked, once the security handshake (TLS 1.3 or Noise) has
// authenticated its key. A relayed connection is gated like a direct one:
// a stranger reaching us through an admitted relay is refused once its
// handshake, end to end through the relay, names it. Admitting a relay
// lets it carry circuits and reservations, not play: handleStream still
// accepts ProtocolID streams only from the table's peers.
type tableGater struct {
	table  *atomic.Pointer[table]
	relays map[peer.ID]bool   // Config.Relays; fixed in New
	meet   func(peer.ID) bool // Config.Meet: admits before the table is set
	log    *slog.Logger
	// public (Config.Public) lets the node dial anyone: the DHT's peers
	// and public relays. Inbound connections are gated as always.
	public bool
	// dialBack admits AutoNAT v2 dial-backs during the node's own
	// probes (autonat.go).
	dialBack dialBacks
	// spectators admits peers outside the table as spectators
	// (spectators.go).
	spectators spectatorSlots
	// firewalled, set by tests, holds the peers (a set,
	// map[peer.ID]bool) with which no direct connection is made in
	// either direction, as between homes whose routers let nothing
	// through: only relayed ones.
	firewalled atomic.Pointer[map[peer.ID]bool]
	// avoid reports whether a circuit with a table peer through a relay
	// is refused: the node moves that pair off relays that cannot carry
	// a game (Node.avoidCircuit, relaymove.go).
	avoid func(p, relay peer.ID) bool
}

// avoids reports whether the relayed address a (dialled, or an inbound
// connection's remote address) with p goes through a relay the node keeps
// the pair with p off (avoid).
func (g *tableGater) avoids(p peer.ID, a multiaddr.Multiaddr) bool {
	return g.avoid != nil && isCircuit(a) && g.avoid(p, relayOf(a))
}

// blocksDirect reports whether a direct connection with p at address a
// is refused by the tests' firewall (firewalled).
func (g *tableGater) blocksDirect(p peer.ID, a multiaddr.Multiaddr) bool {
	f := g.firewalled.Load()
	return f != nil && (*f)[p] && !isCircuit(a)
}

func (g *tableGater) admits(p peer.ID) bool {
	if g.relays[p] {
		return true
	}
	t := g.table.Load()
	if t == nil {
		return g.meet != nil && g.meet(p)
	}
	if _, ok := t.links[p]; ok {
		return true
	}
	return t.relays[p]
}

// InterceptPeerDial allows dialling only the table's peers and relays
// (anyone on the public network).
func (g *tableGater) InterceptPeerDial(p peer.ID) bool {
	return g.public || g.admits(p)
}

// InterceptAddrDial allows dialling any address of a table peer or relay
// (anyone's on the public network), except a circuit to a table peer
// through a relay the node keeps that pair off (avoid).
func (g *tableGater) InterceptAddrDial(p peer.ID, a multiaddr.Multiaddr) bool {
	if g.blocksDirect(p, a) || g.avoids(p, a) {
		return false
	}
	return g.public || g.admits(p)
}

// InterceptAccept lets every inbound connection reach the security
// handshake: the remote's peer ID is not known before it.
func (g *tableGater) InterceptAccept(network.ConnMultiaddrs) bool {
	return true
}

// InterceptSecured closes an authenticated connection whose remote peer is
// neither at the table nor a relay, unless (on the public network) the
// node dialled it, or it dials in directly while the node waits for an
// AutoNAT v2 dial-back (it may then use the dial-back protocol only). It
// also closes a table peer's circuit through a relay the node keeps that
// pair off (avoid).
func (g *tableGater) InterceptSecured(dir network.Direction, p peer.ID, addrs network.ConnMultiaddrs) bool {
	if g.blocksDirect(p, addrs.RemoteMultiaddr()) {
		return false
	}
	if g.avoids(p, addrs.RemoteMultiaddr()) {
		g.log.Info("refused a circuit through a relay that cannot carry a game: the pair is moving onto a player or a relay that can",
			"peer", p.String(), "direction", dir.String(), "remote", addrs.RemoteMultiaddr().String())
		return false
	}
	if g.admits(p) || g.public && dir == network.DirOutbound {
		return true
	}
	if dir == network.DirInbound && g.spectators.admit(p) {
		g.log.Debug("admitted a spectator", "peer", p.String(), "remote", addrs.RemoteMultiaddr().String())
		return true
	}
	if g.admitDialBack(p, dir, addrs.RemoteMultiaddr()) {
		g.log.Debug("admitted a connection for an AutoNAT dial-back", "peer", p.String(), "remote", addrs.RemoteMultiaddr().String())
		return true
	}
	g.log.Info("refused connection from a peer outside the table",
		"peer", p.String(), "direction", dir.String(), "remote", addrs.RemoteMultiaddr().String())
	return false
}

// InterceptUpgraded admits every connection that passed InterceptSecured.
func (g *tableGater) InterceptUpgraded(network.Conn) (bool, control.DisconnectReason) {
	return true, 0
}
