package node

import (
	"fmt"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
)

// ParsePeer parses a --peer argument: a multiaddr that ends in
// /p2p/<peer id>, e.g. /ip4/192.0.2.7/tcp/4001/p2p/12D3KooW…, and returns
// the peer ID with the transport address before /p2p (a relayed address
// …/p2p/<relay>/p2p-circuit/p2p/<id> keeps the relay part). It returns an
// error quoting s if s is not a multiaddr, has no /p2p/<peer id> component,
// or has no transport address before it.
func ParsePeer(s string) (peer.AddrInfo, error) {
	m, err := multiaddr.NewMultiaddr(s)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("peer address %q: not a multiaddr: %w", s, err)
	}
	info, err := peer.AddrInfoFromP2pAddr(m)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("peer address %q: must end in /p2p/<peer id>: %w", s, err)
	}
	if len(info.Addrs) == 0 {
		return peer.AddrInfo{}, fmt.Errorf("peer address %q: no transport address before /p2p (want e.g. /ip4/192.0.2.7/tcp/4001/p2p/<peer id>)", s)
	}
	return *info, nil
}

// ParseListen parses a --listen argument, a multiaddr such as
// /ip4/0.0.0.0/tcp/4001 or /ip4/127.0.0.1/udp/0/quic-v1 (port 0 picks a free
// port). It returns an error quoting s if s is not a multiaddr or carries a
// /p2p component (a listen address names no peer).
func ParseListen(s string) (multiaddr.Multiaddr, error) {
	m, err := multiaddr.NewMultiaddr(s)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: not a multiaddr: %w", s, err)
	}
	if _, id := peer.SplitAddr(m); id != "" {
		return nil, fmt.Errorf("listen address %q: must not contain /p2p/<peer id>", s)
	}
	return m, nil
}
