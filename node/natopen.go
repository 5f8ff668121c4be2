package node

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/transport/quicreuse"
	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"github.com/quic-go/quic-go"
	"go.uber.org/fx"
)

// Opening our own NAT before the peer's hole punch arrives (issue 29).
//
// DCUtR has both sides send their first packets (a TCP SYN, QUIC
// packets) at about the same moment. Whichever arrives first at the other
// home's router finds no mapping there. A router that drops it silently
// does no harm: the other side's own packet opens the mapping a moment
// later and the next packet passes. But many routers answer: OpenWrt's
// default WAN zone rejects (TCP reset, ICMP port unreachable), and a
// router without input rules lets its own kernel answer. The reset
// travels back through the sender's NAT, which marks its mapping closed,
// and the sender's connect fails; the router whose kernel answered has
// moreover confirmed a conntrack entry for the peer's packet, so that
// MASQUERADE gives the home's own packet to that peer another port. In
// the NAT lab no pair became direct through such routers (BENCHMARKS.md).
//
// The remedy is the classic low-TTL first packet: as soon as a node
// learns the peer's addresses in the DCUtR exchange (the CONNECT
// message, before either side dials), it sends one datagram to each of
// the peer's public QUIC addresses from the very sockets the hole punch
// will use (libp2p's QUIC sockets), with a TTL of openTTL: enough to
// pass its own home router, which creates the mapping, and too little to
// reach the peer's router, which therefore never answers it. When the
// real packets follow, each arrives at the other router as a reply to a
// mapping that exists already, and passes; a QUIC packet lost before
// that is sent again. The datagram is random bytes, which a QUIC stack
// drops; the node hands libp2p's QUIC connection manager the sockets it
// opens, so that it can write on them. On Linux the datagram's TTL is
// given with the one sendmsg (IP_TTL ancillary data), so the QUIC
// socket's own TTL never changes.
//
// TCP gets no such packet. The node used to send a low-TTL SYN from its
// TCP listen port too (a connect() given up after 30 ms), and the NAT lab
// showed it harmful (docs/BENCHMARKS.md, "The low-TTL opener's two
// races"): the router's conntrack then tracks that SYN's sequence
// number, and when the peer's SYN arrives before our own hole-punch SYN
// has left, the kernel answers it from the listening socket with another
// sequence number, which conntrack holds out of window for good; the
// connection stalls after its handshake, and our real dial, finding its
// 4-tuple taken, leaves from another port. (Had the opener's socket
// lived, the peer's SYN would have made a connection on it, which is not
// libp2p's.) With routers that drop unsolicited packets, TCP alone went
// from 0 of 5 tables with 6/6 pairs direct to 10 of 10 without the SYN.
// The real dial's own SYN cannot go out with a low TTL either: the ICMP
// time exceeded it draws is fatal to a connecting TCP socket. Through
// routers that answer, TCP is left to DCUtR's timing (both SYNs must
// cross) and the pair to QUIC.

// openTTL is the TTL (IPv6 hop limit) of the packets that open the
// node's own NAT: the home router is hop 1 and decrements it to 1, so the
// next router drops it. Behind a second NAT (a CGN), the outer one is not
// opened, and the hole punch goes on as libp2p's alone.
const openTTL = 2

// maxOpenAddrs bounds the addresses one CONNECT makes the node send to.
const maxOpenAddrs = 8

// natOpener opens the node's own NAT towards a table peer's hole-punch
// addresses (see above). It is DCUtR's address filter
// (holepunch.WithAddrFilter) and holds the node's UDP sockets.
type natOpener struct {
	n *Node

	mu  sync.Mutex
	udp []*net.UDPConn // every UDP socket libp2p's QUIC transport opened, newest last

	// writeMu serialises the low-TTL writes: FilterRemote runs for
	// every peer whose CONNECT arrives, often several at once, and where
	// the TTL is set on the socket around the write (not Linux) two
	// overlapping writes would leave it low.
	writeMu sync.Mutex
}

// maxUDPSockets bounds natOpener.udp: libp2p opens one per listen
// address and one per family for dialling.
const maxUDPSockets = 16

// listenUDP is libp2p's QUIC connection manager's way of opening a UDP
// socket (quicreuse.OverrideListenUDP): net.ListenUDP, as by default,
// keeping the socket so that the opener can write on it.
func (o *natOpener) listenUDP(network string, laddr *net.UDPAddr) (net.PacketConn, error) {
	c, err := net.ListenUDP(network, laddr)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	o.udp = append(o.udp, c)
	if len(o.udp) > maxUDPSockets {
		o.udp = o.udp[len(o.udp)-maxUDPSockets:]
	}
	o.mu.Unlock()
	return c, nil
}

// FilterLocal implements holepunch.AddrFilter: our addresses go out as
// they are.
func (o *natOpener) FilterLocal(_ peer.ID, addrs []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	return addrs
}

// FilterRemote implements holepunch.AddrFilter: it is called with the
// peer's addresses as soon as its CONNECT arrives, on both sides, before
// either dials. For a table peer it opens the node's NAT towards each of
// openTargets(addrs) and returns addrs unchanged, without waiting for any
// answer.
func (o *natOpener) FilterRemote(id peer.ID, addrs []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	if t := o.n.table.Load(); t == nil || t.links[id] == nil {
		return addrs
	}
	for _, a := range openTargets(addrs) {
		if err := o.open(a); err != nil {
			o.n.log.Debug("opening our NAT towards a hole-punch address", "peer", id.String(), "addr", a.String(), "err", err)
		}
	}
	return addrs
}

// openTargets returns the addresses of addrs (a peer's CONNECT) that the
// opener sends to: the public QUIC ones, at most maxOpenAddrs, in order.
// TCP addresses are left to the hole punch alone: a low-TTL SYN made the
// TCP punch fail (see the package comment above), and an ICMP error
// is fatal to a connecting TCP socket, so the real dial cannot carry the
// low TTL either.
func openTargets(addrs []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	var out []multiaddr.Multiaddr
	for _, a := range addrs {
		if len(out) == maxOpenAddrs {
			break
		}
		if manet.IsPublicAddr(a) && !isCircuit(a) && transportName(a) == "QUIC" {
			out = append(out, a)
		}
	}
	return out
}

// open sends one low-TTL datagram to a (a QUIC address) from the node's
// QUIC sockets, those the hole punch will use.
func (o *natOpener) open(a multiaddr.Multiaddr) error {
	ip, port, ok := ipPort(a)
	if !ok {
		return fmt.Errorf("no IP and port in %s", a)
	}
	dst := net.ParseIP(ip)
	if dst == nil {
		return fmt.Errorf("bad IP %q", ip)
	}
	return o.openUDP(&net.UDPAddr{IP: dst, Port: port})
}

// openUDP writes a datagram of random bytes with TTL openTTL to dst from
// every UDP socket of dst's family (the QUIC listeners, from which libp2p
// dials and punches; Go opens "udp4" sockets on an IPv4 address and
// "udp6" ones, IPv6-only, on an IPv6 one).
func (o *natOpener) openUDP(dst *net.UDPAddr) error {
	v4 := dst.IP.To4() != nil
	o.mu.Lock()
	conns := append([]*net.UDPConn(nil), o.udp...)
	o.mu.Unlock()
	payload := make([]byte, 32)
	_, _ = rand.Read(payload)
	var errs []error
	sent := 0
	for _, c := range conns {
		la, ok := c.LocalAddr().(*net.UDPAddr)
		if !ok || (la.IP.To4() != nil) != v4 {
			continue
		}
		o.writeMu.Lock()
		err := writeLowTTL(c, payload, dst)
		o.writeMu.Unlock()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sent++
	}
	if sent == 0 && len(errs) == 0 {
		return errors.New("no UDP socket of that family")
	}
	return errors.Join(errs...)
}

// quicConnManager builds libp2p's QUIC connection manager as libp2p's own
// default does (inbound connections accounted by the resource manager,
// source addresses verified by it, closed with the host), with the UDP
// sockets opened through the opener (listenUDP). It is given to
// libp2p.QUICReuse.
func (o *natOpener) quicConnManager(key quic.StatelessResetKey, tokenKey quic.TokenGeneratorKey, rcmgr network.ResourceManager, lc fx.Lifecycle) (*quicreuse.ConnManager, error) {
	cm, err := quicreuse.NewConnManager(key, tokenKey,
		quicreuse.OverrideListenUDP(o.listenUDP),
		quicreuse.ConnContext(func(ctx context.Context, ci *quic.ClientInfo) (context.Context, error) {
			addr, err := quicreuse.ToQuicMultiaddr(ci.RemoteAddr, quic.Version1)
			if err != nil {
				addr = nil
			}
			scope, err := rcmgr.OpenConnection(network.DirInbound, false, addr)
			if err != nil {
				return ctx, err
			}
			ctx = network.WithConnManagementScope(ctx, scope)
			context.AfterFunc(ctx, scope.Done)
			return ctx, nil
		}),
		quicreuse.VerifySourceAddress(rcmgr.VerifySourceAddress),
	)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(cm.Close))
	return cm, nil
}
