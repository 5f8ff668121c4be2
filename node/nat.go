package node

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// NATProtocolID is the libp2p protocol on which a node tells a table peer
// what its NAT does to ports (one byte, a NAT value), so that both sides
// of a pair that cannot be hole punched can say why.
const NATProtocolID = "/mentalmj/nat/1.0.0"

// NAT is what a node's NAT does to the source port of its connections, as
// far as the addresses observed by others (identify) tell.
type NAT byte

const (
	// NATUnknown: no public observation yet.
	NATUnknown NAT = iota
	// NATNone: observed at its own address; no NAT.
	NATNone
	// NATKeepsPort: observed at another address with its own port, from
	// every observer: a NAT hole punching gets through (most home
	// routers, Linux MASQUERADE).
	NATKeepsPort
	// NATChangesPort: observed with another port than its own, by one
	// observer: most likely a NAT that gives every destination a new
	// port, though a NAT whose port was taken (two players behind one
	// router on the same port) looks the same until a second observer.
	NATChangesPort
	// NATPortPerDestination: observed with different ports by different
	// observers: a NAT that gives every destination a new port
	// ("symmetric"; MASQUERADE --random), which hole punching cannot
	// predict.
	NATPortPerDestination
	natValues
)

// String describes n as a sentence fragment: "a NAT that keeps ports".
func (n NAT) String() string {
	switch n {
	case NATNone:
		return "no NAT"
	case NATKeepsPort:
		return "a NAT that keeps ports"
	case NATChangesPort:
		return "a NAT that changes ports (likely a new port for every destination)"
	case NATPortPerDestination:
		return "a NAT that gives a new port for every destination"
	default:
		return "unknown NAT"
	}
}

// observation is one address of ours as a peer observed it over a direct
// connection.
type observation struct {
	observer          peer.ID
	transport         string // "TCP" or "QUIC"
	localIP, obsIP    string
	localPort, obsPrt int
	addr              multiaddr.Multiaddr
}

// maxObservations bounds what the node keeps: the latest per observer and
// transport, at most this many in all.
const maxObservations = 16

// observed records the address a peer observed us at, from identify over
// a direct connection; relayed connections observe the relay, not us.
func (n *Node) observed(e event.EvtPeerIdentificationCompleted) {
	c := e.Conn
	if c == nil || e.ObservedAddr == nil || c.Stat().Limited || isCircuit(c.RemoteMultiaddr()) {
		return
	}
	if !manet.IsPublicAddr(e.ObservedAddr) {
		return
	}
	tr := transportName(c.LocalMultiaddr())
	lip, lport, ok1 := ipPort(c.LocalMultiaddr())
	oip, oport, ok2 := ipPort(e.ObservedAddr)
	if tr == "" || !ok1 || !ok2 || tr != transportName(e.ObservedAddr) {
		return
	}
	o := observation{observer: e.Peer, transport: tr, localIP: lip, obsIP: oip, localPort: lport, obsPrt: oport, addr: e.ObservedAddr}
	n.pathMu.Lock()
	n.obs = slices.DeleteFunc(n.obs, func(x observation) bool { return x.observer == o.observer && x.transport == o.transport })
	n.obs = append(n.obs, o)
	if len(n.obs) > maxObservations {
		n.obs = n.obs[len(n.obs)-maxObservations:]
	}
	n.pathMu.Unlock()
	n.kickProbe() // AutoNAT v2 probes a new public IP (autonat.go)
}

// ipPort reads the IP and the TCP or UDP port of a.
func ipPort(a multiaddr.Multiaddr) (ip string, port int, ok bool) {
	hasPort := false
	for _, c := range a {
		switch c.Code() {
		case multiaddr.P_IP4, multiaddr.P_IP6:
			if ip == "" {
				ip = c.Value()
			}
		case multiaddr.P_TCP, multiaddr.P_UDP:
			if !hasPort {
				p, err := strconv.Atoi(c.Value())
				if err != nil {
					return "", 0, false
				}
				port, hasPort = p, true
			}
		}
	}
	return ip, port, ip != "" && hasPort
}

// selfNATLocked classifies this node's NAT from its observations
// (n.pathMu held).
func (n *Node) selfNATLocked() NAT {
	if len(n.obs) == 0 {
		return NATUnknown
	}
	type socket struct {
		transport string
		port      int
	}
	ports := map[socket]int{} // local socket → a port observed for it
	changed := false
	for _, o := range n.obs {
		if o.obsIP == o.localIP {
			return NATNone
		}
		k := socket{o.transport, o.localPort}
		if p, ok := ports[k]; ok && p != o.obsPrt {
			return NATPortPerDestination
		}
		ports[k] = o.obsPrt
		changed = changed || o.obsPrt != o.localPort
	}
	if changed {
		return NATChangesPort
	}
	return NATKeepsPort
}

// SelfNAT returns what this node's NAT does to ports, as far as known.
func (n *Node) SelfNAT() NAT {
	n.pathMu.Lock()
	defer n.pathMu.Unlock()
	return n.selfNATLocked()
}

// holePunchAddrs returns this node's public addresses for DCUtR: its
// public listen addresses and the addresses peers observed it at.
func (n *Node) holePunchAddrs() []multiaddr.Multiaddr {
	// The interfaces' own addresses as well as the host's: once AutoRelay
	// holds a reservation (Config.Public), libp2p leaves a node it
	// counts as private with its relayed addresses only, and a public
	// IPv6 address on the interface would never be offered.
	own, err := n.host.Network().InterfaceListenAddresses()
	if err != nil {
		own = nil
	}
	// A port mapping first: it is the address that lets the peer in
	// whatever our NAT does (portmap.go).
	out := n.MappedAddrs()
	for _, a := range append(own, n.host.Addrs()...) {
		if !isCircuit(a) && manet.IsPublicAddr(a) {
			out = append(out, a)
		}
	}
	n.pathMu.Lock()
	obs := slices.Clone(n.obs)
	n.pathMu.Unlock()
	for _, o := range obs {
		out = append(out, o.addr)
	}
	out = append(out, inferredAddrs(obs, n.host.Network().ListenAddresses())...)
	return multiaddr.Unique(out)
}

// inferredAddrs returns, for every observation of ours whose NAT kept the
// port (observed port = local port), the other transports' listen
// addresses of the same family at the observed IP: a NAT that keeps the
// TCP socket's port 4001 keeps the QUIC socket's port 4001 too, as Linux
// MASQUERADE and most home routers do. The observers (relays, peers) met
// the node over one transport only, usually TCP; without this, DCUtR
// offered only TCP addresses and never punched over QUIC, whose
// retransmissions outlast a router's TCP reset or ICMP error (issue 29).
func inferredAddrs(obs []observation, listen []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	var out []multiaddr.Multiaddr
	for _, o := range obs {
		if o.obsPrt != o.localPort || o.obsIP == o.localIP {
			continue
		}
		for _, l := range listen {
			if len(l) < 2 || transportName(l) == "" || transportName(l) == o.transport {
				continue
			}
			lip, _, ok := ipPort(l)
			if !ok || strings.Contains(lip, ":") != strings.Contains(o.obsIP, ":") {
				continue
			}
			proto := "ip4"
			if strings.Contains(o.obsIP, ":") {
				proto = "ip6"
			}
			ip, err := multiaddr.NewComponent(proto, o.obsIP)
			if err != nil {
				continue
			}
			out = append(out, append(multiaddr.Multiaddr{*ip}, l[1:]...))
		}
	}
	return out
}

// handleNAT answers a table peer's NATProtocolID stream with this node's
// NAT value.
func (n *Node) handleNAT(s network.Stream) {
	defer s.Close()
	if t := n.table.Load(); t == nil || t.links[s.Conn().RemotePeer()] == nil {
		_ = s.ResetWithError(network.StreamGated)
		return
	}
	_ = s.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, _ = s.Write([]byte{byte(n.SelfNAT())})
}

// askNAT asks table peer id what its NAT does (NATProtocolID) and records
// the answer in its Path. A peer's answer is only its word: it changes
// what the screens say, nothing else. A bad or missing answer is logged
// and asked again later.
func (n *Node) askNAT(id peer.ID) {
	ctx, cancel := context.WithTimeout(network.WithAllowLimitedConn(n.bgCtx, "mentalmj nat"), 5*time.Second)
	defer cancel()
	s, err := n.host.NewStream(ctx, id, NATProtocolID)
	if err != nil {
		n.log.Debug("asking a peer about its NAT", "peer", id.String(), "err", err)
		return
	}
	defer s.Close()
	_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
	var b [1]byte
	if _, err := io.ReadFull(s, b[:]); err != nil || NAT(b[0]) >= natValues {
		n.log.Debug("asking a peer about its NAT: bad answer", "peer", id.String(), "err", err, "answer", fmt.Sprint(b[0]))
		return
	}
	n.pathMu.Lock()
	if st := n.paths[id]; st != nil {
		st.path.NATPeer = NAT(b[0])
	}
	n.pathMu.Unlock()
}

// Observation is one address of the node as a peer observed it over a
// direct connection (identify's observed address).
type Observation struct {
	// Observer is the peer that observed it.
	Observer peer.ID
	// Transport is "TCP" or "QUIC".
	Transport string
	// Local is the node's own socket address (IP and port) that
	// connection ran from; Observed is where the observer saw it.
	Local, Observed multiaddr.Multiaddr
}

// Observations returns the addresses peers observed the node at, the
// latest per observer and transport (at most 16).
func (n *Node) Observations() []Observation {
	n.pathMu.Lock()
	defer n.pathMu.Unlock()
	var out []Observation
	for _, o := range n.obs {
		out = append(out, Observation{Observer: o.observer, Transport: o.transport,
			Local: socketAddr(o.localIP, o.localPort, o.transport), Observed: o.addr})
	}
	return out
}

// socketAddr builds /ip4|ip6/IP/tcp|udp/PORT[/quic-v1] (nil if ip is not
// an IP).
func socketAddr(ip string, port int, transport string) multiaddr.Multiaddr {
	proto := "ip4"
	if strings.Contains(ip, ":") {
		proto = "ip6"
	}
	s := fmt.Sprintf("/%s/%s/tcp/%d", proto, ip, port)
	if transport == "QUIC" {
		s = fmt.Sprintf("/%s/%s/udp/%d/quic-v1", proto, ip, port)
	}
	a, err := multiaddr.NewMultiaddr(s)
	if err != nil {
		return nil
	}
	return a
}
