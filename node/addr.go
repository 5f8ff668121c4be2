package node

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
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
	for _, a := range info.Addrs {
		if isCircuit(a) && relayOf(a) == "" {
			return peer.AddrInfo{}, fmt.Errorf("peer address %q: a relayed address must name its relay: …/p2p/<relay id>/p2p-circuit/p2p/<peer id>", s)
		}
	}
	return *info, nil
}

// ParseRelay parses a --relay argument: the direct multiaddr of a circuit
// relay v2 relay, ending in /p2p/<relay id>, as "mentalmj relay" prints it,
// e.g. /ip4/198.51.100.4/tcp/4001/p2p/12D3KooW…. It returns the relay's
// peer ID with its transport address. It returns an error quoting s if s
// is not a multiaddr, has no /p2p/<peer id> component or no transport
// address before it, or is itself a relayed (/p2p-circuit) address.
func ParseRelay(s string) (peer.AddrInfo, error) {
	m, err := multiaddr.NewMultiaddr(s)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("relay address %q: not a multiaddr: %w", s, err)
	}
	if isCircuit(m) {
		return peer.AddrInfo{}, fmt.Errorf("relay address %q: must be the relay's direct address, not a /p2p-circuit one", s)
	}
	info, err := peer.AddrInfoFromP2pAddr(m)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("relay address %q: must end in /p2p/<relay peer id>: %w", s, err)
	}
	if len(info.Addrs) == 0 {
		return peer.AddrInfo{}, fmt.Errorf("relay address %q: no transport address before /p2p (want e.g. /ip4/198.51.100.4/tcp/4001/p2p/<relay id>)", s)
	}
	return *info, nil
}

// relayOf returns the relay's peer ID in a relayed address
// …/p2p/RELAY/p2p-circuit[/…], or "" if a has no /p2p-circuit component or
// no /p2p/<relay id> right before it.
func relayOf(a multiaddr.Multiaddr) peer.ID {
	before, after := multiaddr.SplitFunc(a, func(c multiaddr.Component) bool {
		return c.Code() == multiaddr.P_CIRCUIT
	})
	if len(after) == 0 {
		return ""
	}
	_, last := multiaddr.SplitLast(before)
	if last == nil || last.Code() != multiaddr.P_P2P {
		return ""
	}
	id, err := peer.Decode(last.Value())
	if err != nil {
		return ""
	}
	return id
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

// DefaultListen returns the addresses a node listens on when the player
// names none: TCP and QUIC v1 on port 4001 of every interface, IPv4 and
// IPv6 alike, as go-libp2p's and kubo's defaults do (the IPv6 sockets are
// IPv6-only, so that the two families' ports are distinct sockets). On a
// machine without IPv6 the IPv6 listeners fail and the node goes on with
// IPv4 (libp2p fails only when no address can be listened on).
func DefaultListen() []string {
	return []string{"/ip4/0.0.0.0/tcp/4001", "/ip4/0.0.0.0/udp/4001/quic-v1", "/ip6/::/tcp/4001", "/ip6/::/udp/4001/quic-v1"}
}

// Dialable returns the addresses of addrs that another machine could
// dial, in order: it drops unspecified (0.0.0.0, ::) and IPv6 link-local
// addresses, and loopback ones unless nothing else is left (a node
// listening on 127.0.0.1 only, as in tests, keeps them). Relayed
// addresses are kept. The result may be empty.
func Dialable(addrs []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	var out, loopback []multiaddr.Multiaddr
	for _, a := range addrs {
		switch {
		case isCircuit(a):
			out = append(out, a)
		case manet.IsIPUnspecified(a) || manet.IsIP6LinkLocal(a):
		case manet.IsIPLoopback(a):
			loopback = append(loopback, a)
		default:
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return loopback
	}
	return out
}

// DialableListenAddrs returns the addresses others could dial a node
// listening on listen at, before it starts (mentalmj id): a specific
// address as it is, and an unspecified IP (0.0.0.0, ::) as each address of
// this machine's interfaces of that family, filtered by Dialable. It
// returns an error if the interfaces cannot be listed.
func DialableListenAddrs(listen []multiaddr.Multiaddr) ([]multiaddr.Multiaddr, error) {
	ifaces, err := manet.InterfaceMultiaddrs()
	if err != nil {
		return nil, fmt.Errorf("listing network interfaces: %w", err)
	}
	var out []multiaddr.Multiaddr
	for _, a := range listen {
		if !manet.IsIPUnspecified(a) {
			out = append(out, a)
			continue
		}
		resolved, err := manet.ResolveUnspecifiedAddress(a, ifaces)
		if err != nil {
			continue // no interface of that family
		}
		out = append(out, Dialable(resolved)...)
	}
	return out, nil
}

// LoopbackPorts returns n distinct ports on 127.0.0.1 that were free for
// TCP and UDP a moment ago, for starting n nodes on one machine (mentalmj
// local, the lab, tests). The ports are drawn at random from
// loopbackPortsFrom up to the start of the kernel's ephemeral range
// (Linux's net.ipv4.ip_local_port_range, 32768 by default): the kernel
// gives other programs' port-0 listeners and outbound connections their
// ports from that range only, so between this call and the node's listen
// only a program binding that very port can take it (a port-0 port could
// be taken by any connection in that moment, and a lab table under CI
// load lost one so). It holds every listener open until all n are
// chosen, so the ports are distinct, and returns an error when n free
// ports cannot be found.
func LoopbackPorts(n int) ([]int, error) {
	lo, hi := loopbackPortsFrom, ephemeralStart()
	if hi-lo < 1000 {
		lo, hi = 1024, 65536 // an odd range setting: any unprivileged port
	}
	ports := make([]int, 0, n)
	seen := map[int]bool{}
	for tries := 0; len(ports) < n; tries++ {
		if tries >= 100*n {
			return nil, fmt.Errorf("no %d free loopback ports in %d–%d after %d tries", n, lo, hi-1, tries)
		}
		p := lo + rand.IntN(hi-lo)
		if seen[p] {
			continue
		}
		addr := fmt.Sprintf("127.0.0.1:%d", p)
		l, err := net.Listen("tcp", addr)
		if err != nil {
			continue
		}
		defer l.Close()
		u, err := net.ListenPacket("udp", addr)
		if err != nil {
			continue
		}
		defer u.Close()
		seen[p] = true
		ports = append(ports, p)
	}
	return ports, nil
}

// loopbackPortsFrom is the lowest port LoopbackPorts draws.
const loopbackPortsFrom = 20000

// ephemeralStart returns the first port of the kernel's ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range), or 32768, Linux's default,
// where it cannot be read.
func ephemeralStart() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	var first, last int
	if _, err := fmt.Sscan(string(b), &first, &last); err != nil || first <= loopbackPortsFrom || first > 65535 {
		return 32768
	}
	return first
}
