//go:build natlab

package node

import (
	"net"
	"slices"

	manet "github.com/multiformats/go-multiaddr/net"
)

// In a binary built with the natlab tag (package natlab's tests), libp2p
// treats the documentation ranges TEST-NET-2 (198.51.100.0/24),
// TEST-NET-3 (203.0.113.0/24, RFC 5737) and IPv6's 2001:db8::/32 (RFC
// 3849) as public Internet addresses: the lab's Internet uses them, and
// libp2p's hole punching, AutoNAT and observed addresses only ever
// consider public addresses. No other build changes.
func init() {
	manet.Unroutable4 = slices.DeleteFunc(manet.Unroutable4, func(n *net.IPNet) bool {
		s := n.String()
		return s == "198.51.100.0/24" || s == "203.0.113.0/24"
	})
	manet.Unroutable6 = slices.DeleteFunc(manet.Unroutable6, func(n *net.IPNet) bool {
		return n.String() == "2001:db8::/32"
	})
}
