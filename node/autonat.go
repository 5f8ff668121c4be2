package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
	"github.com/libp2p/go-libp2p/p2p/protocol/autonatv2"
	"github.com/multiformats/go-multiaddr"
)

// AutoNAT v2 (libp2p's p2p/protocol/autonatv2, the libp2p "AutoNAT v2"
// specification) tells the node whether others can dial it: it asks a
// server it is connected to (a `mentalmj relay`, or any public libp2p
// node that serves it) to dial one of its public addresses, and the
// server's answer counts only with proof: a dial-back that reached us
// carries the nonce of our request. The node runs the client alone (it
// serves no one) and probes each public IP it is observed at (identify),
// once per transport: a probe costs the server a dial and the node a few
// hundred bytes, and what a router does to unsolicited connections does
// not change during a game.
//
// The dial-back comes from a helper host of the server with a fresh peer
// ID, which the gater would refuse as a stranger. While one of the node's
// own probes waits for its dial-back (at most dialBackWindow), the gater
// admits inbound, direct connections from unknown peers, at most
// maxDialBacks at once, and the node's resource manager lets such a peer
// open only the dial-back protocol: a stranger that dials in then reaches
// neither the game's protocol nor any other, and its connection is closed
// when the probe ends.

const (
	// dialBackWindow bounds one probe, and with it the time the gater
	// admits dial-backs: the client's own stream timeout (15 s) and the
	// wait for the dial-back (5 s).
	dialBackWindow = 20 * time.Second
	// maxDialBacks is how many unknown peers the gater admits during one
	// window (a server dials back once per request).
	maxDialBacks = 4
	// firstProbeRetry and maxProbeRetry pace the retries of a probe that
	// got no answer (no server yet, a server busy or throttled): the
	// wait doubles from the first to the second.
	firstProbeRetry = time.Second
	maxProbeRetry   = 2 * time.Minute
	// maxProbeAttempts bounds the retries for one set of addresses.
	maxProbeAttempts = 8
)

// Reachability is what AutoNAT v2 told the node about one of its public
// addresses.
type Reachability struct {
	// Addr is the address the server dialled (or failed to).
	Addr multiaddr.Multiaddr
	// Reachability is network.ReachabilityPublic when the server dialled
	// Addr back (with the nonce of our request), ReachabilityPrivate when
	// its dial failed (a NAT or a firewall drops connections the node did
	// not open), ReachabilityUnknown when no server answered (Err says
	// why).
	Reachability network.Reachability
	// Server is the AutoNAT v2 server that answered, when the node knows
	// (it was connected to only one); "" otherwise.
	Server peer.ID
	// Err is why no server answered, for ReachabilityUnknown.
	Err error
}

// String says what the node learnt, as a screen shows it: "reachable at
// /ip4/…/tcp/4001 (AutoNAT v2: 12D3Ko…xjX dialled back)".
func (r Reachability) String() string {
	server := "a server"
	if r.Server != "" {
		server = ShortID(r.Server)
	}
	switch r.Reachability {
	case network.ReachabilityPublic:
		return fmt.Sprintf("reachable at %s (AutoNAT v2: %s dialled back)", r.Addr, server)
	case network.ReachabilityPrivate:
		return fmt.Sprintf("not reachable at %s: connections you did not open are dropped, as most home routers do (AutoNAT v2: %s could not dial back); hole punching or a relay connects you",
			r.Addr, server)
	default:
		return fmt.Sprintf("reachability unknown: %v", r.Err)
	}
}

// probeKey is what a probe is made once for: a transport at a public IP,
// and apart from that a router's port mapping (mapped) at that IP, which
// lets peers in where the ports observed at the same IP do not
// (portmap.go).
type probeKey struct {
	transport, ip string
	mapped        bool
}

// autoNAT is the node's AutoNAT v2 client and the probes it made.
type autoNAT struct {
	an   *autonatv2.AutoNAT
	kick chan struct{} // a new public observation (buffered, at most one)

	mu     sync.Mutex
	probed map[probeKey]bool
	last   *Reachability
	all    []Reachability // every answer, in order (at most one per probeKey)
}

// startAutoNAT starts the AutoNAT v2 client on the node's host and the
// loop that probes each new public observation (New).
func (n *Node) startAutoNAT() error {
	// The server half is given the node's own host as its dialer and is
	// stopped at once: the node dials back for no one.
	an, err := autonatv2.New(n.host)
	if err != nil {
		return fmt.Errorf("starting AutoNAT v2: %w", err)
	}
	if err := an.Start(n.host); err != nil {
		return fmt.Errorf("starting AutoNAT v2: %w", err)
	}
	n.host.RemoveStreamHandler(autonatv2.DialProtocol)
	n.autonat = &autoNAT{an: an, kick: make(chan struct{}, 1), probed: map[probeKey]bool{}}
	n.bg.Go(n.probeLoop)
	return nil
}

// kickProbe tells the probe loop that a public observation arrived.
func (n *Node) kickProbe() {
	if n.autonat == nil {
		return
	}
	select {
	case n.autonat.kick <- struct{}{}:
	default:
	}
}

// Reachability returns what AutoNAT v2 last told the node, and false if
// no probe has ended yet.
func (n *Node) Reachability() (Reachability, bool) {
	if n.autonat == nil {
		return Reachability{}, false
	}
	n.autonat.mu.Lock()
	defer n.autonat.mu.Unlock()
	if n.autonat.last == nil {
		return Reachability{}, false
	}
	return *n.autonat.last, true
}

// errRefused is a probe's error when the AutoNAT v2 server refused to
// dial the address asked.
var errRefused = errors.New("the AutoNAT v2 server refused to dial our addresses")

// probeLoop probes the node's public addresses not probed yet, each time
// a new one is observed, until Close.
func (n *Node) probeLoop() {
	a := n.autonat
	for {
		select {
		case <-n.bgCtx.Done():
			return
		case <-a.kick:
		}
		addrs, keys := n.unprobed()
		for i := range addrs {
			if !n.probeOne(addrs[i], keys[i]) {
				return
			}
		}
	}
}

// probeOne probes one public address (one IP and transport), retrying a
// probe no server answered, and reports the answer. It returns false once
// the node closes.
func (n *Node) probeOne(addr multiaddr.Multiaddr, key probeKey) bool {
	a := n.autonat
	wait := firstProbeRetry
	for attempt := 1; ; attempt++ {
		r := n.probe([]multiaddr.Multiaddr{addr})
		if r.Reachability != network.ReachabilityUnknown || attempt == maxProbeAttempts {
			a.mu.Lock()
			a.probed[key] = true
			a.last = &r
			a.all = append(a.all, r)
			a.mu.Unlock()
			n.log.Info("reachability", "addr", fmt.Sprint(r.Addr), "reachability", r.Reachability.String(), "server", r.Server.String(), "err", r.Err)
			if n.onReachability != nil && n.bgCtx.Err() == nil {
				n.onReachability(r)
			}
			return true
		}
		if errors.Is(r.Err, errRefused) && !n.probeDialData {
			// A refusal is the server's final word on this address
			// (it wants dial data, or cannot dial the transport).
			a.mu.Lock()
			a.probed[key] = true
			a.mu.Unlock()
			n.log.Info("reachability not probed: the AutoNAT v2 server refused", "addr", addr.String())
			return true
		}
		n.log.Debug("reachability probe got no answer, retrying", "attempt", attempt, "retry_in", wait.String(), "err", r.Err)
		if !sleepCtx(n.bgCtx, wait) {
			return false
		}
		wait = min(2*wait, maxProbeRetry)
	}
}

// PendingProbes counts the node's public addresses (one per IP and
// transport) that AutoNAT v2 has not answered for yet.
func (n *Node) PendingProbes() int {
	if n.autonat == nil {
		return 0
	}
	addrs, _ := n.unprobed()
	return len(addrs)
}

// Reachabilities returns every answer AutoNAT v2 gave the node so far,
// one per public IP and transport probed, in the order they came.
func (n *Node) Reachabilities() []Reachability {
	if n.autonat == nil {
		return nil
	}
	n.autonat.mu.Lock()
	defer n.autonat.mu.Unlock()
	return append([]Reachability(nil), n.autonat.all...)
}

// unprobed returns the node's public addresses to probe, one per
// transport and public IP not probed yet: the addresses peers observed
// it at (identify) and its public listen addresses.
func (n *Node) unprobed() ([]multiaddr.Multiaddr, []probeKey) {
	var addrs []multiaddr.Multiaddr
	var keys []probeKey
	n.autonat.mu.Lock()
	defer n.autonat.mu.Unlock()
	mapped := n.MappedAddrs()
	for _, a := range n.holePunchAddrs() {
		ip, _, ok := ipPort(a)
		k := probeKey{transportName(a), ip, slices.ContainsFunc(mapped, a.Equal)}
		if !ok || k.transport == "" || n.autonat.probed[k] || containsKey(keys, k) {
			continue
		}
		addrs = append(addrs, a)
		keys = append(keys, k)
	}
	// libp2p's client asks each server at most once in 2 minutes: with
	// few servers, TCP of each family comes first, then QUIC, and within
	// each a port mapping before an observation.
	order := func(k probeKey) int {
		r := 0
		if k.transport != "TCP" {
			r += 4
		}
		if strings.Contains(k.ip, ":") {
			r += 2
		}
		if !k.mapped {
			r++
		}
		return r
	}
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return order(keys[a]) - order(keys[b]) })
	sa, sk := make([]multiaddr.Multiaddr, len(idx)), make([]probeKey, len(idx))
	for i, j := range idx {
		sa[i], sk[i] = addrs[j], keys[j]
	}
	return sa, sk
}

func containsKey(keys []probeKey, k probeKey) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// probe asks one AutoNAT v2 server to dial one of addrs back, with the
// gater admitting the dial-back meanwhile, and returns what it learnt.
func (n *Node) probe(addrs []multiaddr.Multiaddr) Reachability {
	reqs := make([]autonatv2.Request, len(addrs))
	for i, a := range addrs {
		// No dial data unless Config.ProbeDialData: a server that wants
		// it (our address's IP is not the one it sees us at, as for an
		// IPv6 address asked over IPv4) refuses, which costs nothing.
		reqs[i] = autonatv2.Request{Addr: a, SendDialData: n.probeDialData}
	}
	ctx, cancel := context.WithTimeout(n.bgCtx, dialBackWindow)
	defer cancel()
	n.gater.openDialBacks(dialBackWindow)
	res, err := n.autonat.an.GetReachability(ctx, reqs)
	for _, p := range n.gater.closeDialBacks() {
		_ = n.host.Network().ClosePeer(p)
	}
	switch {
	case err != nil:
		return Reachability{Err: err}
	case res.AllAddrsRefused:
		return Reachability{Err: errRefused}
	}
	r := Reachability{Addr: res.Addr, Reachability: res.Reachability, Server: n.soleAutoNATServer()}
	if res.Reachability == network.ReachabilityUnknown {
		r.Err = errors.New("the AutoNAT v2 server's answer was inconclusive")
	}
	return r
}

// soleAutoNATServer returns the AutoNAT v2 server the node asked when it
// is connected to only one (libp2p's client does not say which it
// picked), "" otherwise.
func (n *Node) soleAutoNATServer() peer.ID {
	var sole peer.ID
	for _, p := range n.host.Network().Peers() {
		protos, err := n.host.Peerstore().SupportsProtocols(p, autonatv2.DialProtocol)
		if err != nil || len(protos) == 0 {
			continue
		}
		if sole != "" {
			return ""
		}
		sole = p
	}
	return sole
}

// dialBacks is the gater's admission of AutoNAT v2 dial-backs.
type dialBacks struct {
	mu       sync.Mutex
	until    time.Time        // admit while before; zero: closed
	admitted map[peer.ID]bool // unknown peers admitted in this window
}

// openDialBacks opens a window of at most d in which InterceptSecured
// admits unknown peers dialling in directly, for a dial-back.
func (g *tableGater) openDialBacks(d time.Duration) {
	g.dialBack.mu.Lock()
	defer g.dialBack.mu.Unlock()
	g.dialBack.until = time.Now().Add(d)
	g.dialBack.admitted = map[peer.ID]bool{}
}

// closeDialBacks closes the window and returns the peers admitted in it,
// whose connections the node closes.
func (g *tableGater) closeDialBacks() []peer.ID {
	g.dialBack.mu.Lock()
	defer g.dialBack.mu.Unlock()
	g.dialBack.until = time.Time{}
	var out []peer.ID
	for p := range g.dialBack.admitted {
		out = append(out, p)
	}
	return out
}

// admitDialBack reports whether an unknown peer dialling in directly is
// admitted as a dial-back (a window open, fewer than maxDialBacks
// admitted in it), and records it.
func (g *tableGater) admitDialBack(p peer.ID, dir network.Direction, remote multiaddr.Multiaddr) bool {
	if dir != network.DirInbound || isCircuit(remote) {
		return false
	}
	g.dialBack.mu.Lock()
	defer g.dialBack.mu.Unlock()
	if !time.Now().Before(g.dialBack.until) || len(g.dialBack.admitted) >= maxDialBacks {
		return false
	}
	g.dialBack.admitted[p] = true
	return true
}

// dialBackOnly reports whether p was admitted only as a dial-back: it may
// open the dial-back protocol and nothing else. The mark stays after the
// window, until its connection is gone.
func (g *tableGater) dialBackOnly(p peer.ID) bool {
	if g.admits(p) {
		return false
	}
	g.dialBack.mu.Lock()
	defer g.dialBack.mu.Unlock()
	return g.dialBack.admitted[p]
}

// newResourceManager returns libp2p's default resource manager (default
// limits scaled to the machine, as libp2p.New makes it) wrapped so that a
// peer admitted only for a dial-back can use no protocol but
// autonatv2.DialBackProtocol.
func newResourceManager(g *tableGater) (network.ResourceManager, error) {
	limits := rcmgr.DefaultLimits
	libp2p.SetDefaultServiceLimits(&limits)
	rm, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(limits.AutoScale()))
	if err != nil {
		return nil, fmt.Errorf("resource manager: %w", err)
	}
	return &dialBackRM{ResourceManager: rm, gater: g}, nil
}

// dialBackRM is a resource manager that confines dial-back peers'
// streams to the dial-back protocol.
type dialBackRM struct {
	network.ResourceManager
	gater *tableGater
}

// OpenStream opens the stream's scope, one that refuses every protocol
// but the dial-back's for a peer admitted only for a dial-back.
func (r *dialBackRM) OpenStream(p peer.ID, dir network.Direction) (network.StreamManagementScope, error) {
	s, err := r.ResourceManager.OpenStream(p, dir)
	if err != nil || !r.gater.dialBackOnly(p) {
		return s, err
	}
	return &dialBackStream{StreamManagementScope: s, peer: p}, nil
}

// dialBackStream is the scope of a dial-back peer's stream.
type dialBackStream struct {
	network.StreamManagementScope
	peer peer.ID
}

// errDialBackOnly is the error a dial-back peer's stream gets for any
// other protocol; the host resets the stream.
var errDialBackOnly = errors.New("a peer admitted for an AutoNAT dial-back may use only the dial-back protocol")

// SetProtocol admits autonatv2.DialBackProtocol only.
func (s *dialBackStream) SetProtocol(id protocol.ID) error {
	if id != autonatv2.DialBackProtocol {
		return fmt.Errorf("peer %s, protocol %s: %w", s.peer, id, errDialBackOnly)
	}
	return s.StreamManagementScope.SetProtocol(id)
}
