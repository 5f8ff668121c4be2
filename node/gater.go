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
// in both directions, only with peers of the table; before the table is set
// it admits none. The peer's identity is known, and checked, once the
// security handshake (TLS 1.3 or Noise) has authenticated its key.
type tableGater struct {
	table *atomic.Pointer[table]
	log   *slog.Logger
}

func (g *tableGater) admits(p peer.ID) bool {
	t := g.table.Load()
	if t == nil {
		return false
	}
	_, ok := t.links[p]
	return ok
}

// InterceptPeerDial allows dialling only the table's peers.
func (g *tableGater) InterceptPeerDial(p peer.ID) bool {
	return g.admits(p)
}

// InterceptAddrDial allows dialling any address of a table peer.
func (g *tableGater) InterceptAddrDial(p peer.ID, _ multiaddr.Multiaddr) bool {
	return g.admits(p)
}

// InterceptAccept lets every inbound connection reach the security
// handshake: the remote's peer ID is not known before it.
func (g *tableGater) InterceptAccept(network.ConnMultiaddrs) bool {
	return true
}

// InterceptSecured closes an authenticated connection whose remote peer is
// not at the table.
func (g *tableGater) InterceptSecured(dir network.Direction, p peer.ID, addrs network.ConnMultiaddrs) bool {
	if g.admits(p) {
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
