package node

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

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
// message, before either side dials), it sends one packet to each of
// them from the very socket the hole punch will use (the TCP and QUIC
// listen ports), with a TTL of openTTL: enough to pass its own home
// router, which creates the mapping, and too little to reach the peer's
// router, which therefore never answers it. When the real packets
// follow, each arrives at the other router as a reply to a mapping that
// exists already, and passes. For TCP the packet is a SYN from a
// connect() on the listen port (SO_REUSEPORT, as libp2p's own dials)
// given up after openTCPWait; for QUIC a datagram of random bytes, which
// a QUIC stack drops, sent from the QUIC socket itself (the node hands
// libp2p's QUIC connection manager the sockets it opens, so that it can
// write on them). On Linux the datagram's TTL is given with the one
// sendmsg (IP_TTL ancillary data), so the QUIC socket's own TTL never
// changes.

// openTTL is the TTL (IPv6 hop limit) of the packets that open the
// node's own NAT: the home router is hop 1 and decrements it to 1, so the
// next router drops it. Behind a second NAT (a CGN), the outer one is not
// opened, and the hole punch goes on as libp2p's alone.
const openTTL = 2

// openTCPWait is how long the TCP opener's connect() runs before it is
// given up: the SYN leaves at once.
const openTCPWait = 30 * time.Millisecond

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
// either dials. For a table peer it opens the node's NAT towards each
// public TCP and QUIC address (at most maxOpenAddrs) and returns addrs
// unchanged; it returns within about openTCPWait.
func (o *natOpener) FilterRemote(id peer.ID, addrs []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	if t := o.n.table.Load(); t == nil || t.links[id] == nil {
		return addrs
	}
	var wg sync.WaitGroup
	for i, a := range addrs {
		if i >= maxOpenAddrs {
			break
		}
		if !manet.IsPublicAddr(a) || isCircuit(a) {
			continue
		}
		wg.Go(func() {
			if err := o.open(a); err != nil {
				o.n.log.Debug("opening our NAT towards a hole-punch address", "peer", id.String(), "addr", a.String(), "err", err)
			}
		})
	}
	wg.Wait()
	return addrs
}

// open sends one low-TTL packet to a (TCP or QUIC) from the socket the
// hole punch will use.
func (o *natOpener) open(a multiaddr.Multiaddr) error {
	ip, port, ok := ipPort(a)
	if !ok {
		return fmt.Errorf("no IP and port in %s", a)
	}
	dst := net.ParseIP(ip)
	if dst == nil {
		return fmt.Errorf("bad IP %q", ip)
	}
	switch transportName(a) {
	case "QUIC":
		return o.openUDP(&net.UDPAddr{IP: dst, Port: port})
	case "TCP":
		return o.openTCP(&net.TCPAddr{IP: dst, Port: port})
	default:
		return fmt.Errorf("neither TCP nor QUIC: %s", a)
	}
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

// openTCP sends a SYN with TTL openTTL to dst from the node's TCP listen
// port of dst's family (SO_REUSEPORT, as libp2p's own dials from it), and
// gives the connect up after openTCPWait: closing a socket whose SYN got
// no answer sends nothing, and the NAT keeps the mapping for the real
// SYN from the same port.
func (o *natOpener) openTCP(dst *net.TCPAddr) error {
	v4 := dst.IP.To4() != nil
	port := 0
	for _, l := range o.n.host.Network().ListenAddresses() {
		ip, p, ok := ipPort(l)
		if ok && transportName(l) == "TCP" && (net.ParseIP(ip).To4() != nil) == v4 {
			port = p
			break
		}
	}
	if port == 0 {
		return errors.New("no TCP listen address of that family")
	}
	netw, local := "tcp4", &net.TCPAddr{IP: net.IPv4zero, Port: port}
	if !v4 {
		netw, local = "tcp6", &net.TCPAddr{IP: net.IPv6unspecified, Port: port}
	}
	d := net.Dialer{LocalAddr: local, Timeout: openTCPWait, Control: lowTTLDialControl(v4)}
	ctx, cancel := context.WithTimeout(context.Background(), openTCPWait)
	defer cancel()
	c, err := d.DialContext(ctx, netw, dst.String())
	if err == nil {
		// The peer answered a TTL-2 SYN: it is at most one router away.
		// That connection is not libp2p's; close it.
		_ = c.Close()
		return nil
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return nil // the SYN left; no answer was expected
	}
	return err
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
