package node

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	bhost "github.com/libp2p/go-libp2p/p2p/host/basic"
	inat "github.com/libp2p/go-libp2p/p2p/net/nat"
	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// Port mapping: a home router that offers UPnP IGD or NAT-PMP maps a
// public port of its WAN address to the node's listen port on request
// (libp2p's NAT manager asks for every TCP and UDP listen port, with an
// external port of the router's choosing, and renews the mapping). A
// peer's dial of that address reaches the node whatever the router's NAT
// does to the node's own connections, so a node behind a NAT that gives a
// new port per destination (no hole punch reaches it) becomes reachable.
//
// libp2p puts the mapped addresses among the host's addresses only once
// its own AutoNAT confirms them, which this node does not run (it forces
// private reachability and probes with its own AutoNAT v2 client,
// autonat.go); so the node reads the mappings off the NAT manager itself
// and offers them where it offers its observed addresses: first among its
// hole-punch addresses (DCUtR sends them to the peer, which dials them)
// and to its AutoNAT v2 probes, apart from an observation at the same IP.

// portMapWait bounds how long PortMappingPending waits for a mapping
// after the host started: libp2p's gateway discovery (UPnP SSDP search and
// NAT-PMP, DiscoveryTimeout, 10 s) and the first mapping requests.
const portMapWait = inat.DiscoveryTimeout + 3*time.Second

// portMapPoll is how often the node looks for a new or changed mapping
// (the NAT manager has no event for it), to probe it.
const portMapPoll = time.Second

// natPortMap is the libp2p option for the NAT manager: libp2p's own
// (libp2p.NATPortMap), kept by n for MappedAddrs.
func (n *Node) natPortMap() libp2p.Option {
	return libp2p.NATManager(func(nw network.Network) bhost.NATManager {
		m := bhost.NewNATManager(nw)
		n.natmgr = m
		n.natStart = time.Now()
		return m
	})
}

// announceMappings is the host's address factory: libp2p's addresses
// and the mapped ones (MappedAddrs), which libp2p itself leaves out while
// the node counts as private with relayed addresses. Identify gives the
// peers the host's addresses, and pushes them again when they change
// (libp2p recomputes them every 5 s), so a mapping made after the table
// connected reaches the peers (dialAnnounced).
func (n *Node) announceMappings(addrs []multiaddr.Multiaddr) []multiaddr.Multiaddr {
	for _, a := range n.MappedAddrs() {
		if !slices.ContainsFunc(addrs, a.Equal) {
			addrs = append(addrs, a)
		}
	}
	return addrs
}

// MappedAddrs returns the public addresses a home router mapped for the
// node on request (UPnP IGD or NAT-PMP, libp2p's NAT manager), one per
// listen address mapped (e.g. /ip4/WAN/tcp/PORT and
// /ip4/WAN/udp/PORT/quic-v1, where PORT is the router's choice), or nil
// when there is none (no such router, or not yet).
func (n *Node) MappedAddrs() []multiaddr.Multiaddr {
	h := n.published.Load() // libp2p's address factory calls this from the start
	if n.natmgr == nil || h == nil {
		return nil
	}
	var out []multiaddr.Multiaddr
	for _, l := range (*h).Network().ListenAddresses() {
		a := n.natmgr.GetMapping(l)
		if a == nil || isCircuit(a) || !manet.IsPublicAddr(a) || slices.ContainsFunc(out, a.Equal) {
			continue
		}
		out = append(out, a)
	}
	// Listen addresses come in no fixed order.
	slices.SortFunc(out, multiaddr.Multiaddr.Compare)
	return out
}

// PortMappingPending reports whether the node may still get a port
// mapping: it has none yet and the host started less than portMapWait
// ago. A check of the network (netcheck) waits for it to turn false
// before saying "none".
func (n *Node) PortMappingPending() bool {
	if n.natmgr == nil {
		return false
	}
	return len(n.MappedAddrs()) == 0 && time.Since(n.natStart) < portMapWait
}

// watchMappings, each time the node's mapped addresses change until
// Close, kicks the AutoNAT v2 probes (autonat.go) and makes every
// relayed table peer's next attempt at a direct connection due at once
// (punchSoon).
func (n *Node) watchMappings() {
	if n.natmgr == nil {
		return
	}
	tick := time.NewTicker(portMapPoll)
	defer tick.Stop()
	var last []multiaddr.Multiaddr
	for {
		select {
		case <-n.bgCtx.Done():
			return
		case <-tick.C:
		}
		now := n.MappedAddrs()
		if !slices.EqualFunc(now, last, multiaddr.Multiaddr.Equal) {
			if len(now) > 0 {
				n.log.Info("port mapping", "addrs", now)
			}
			last = now
			n.kickProbe()
			if len(now) > 0 {
				n.punchSoon()
			}
		}
	}
}

// punchSoon makes the next attempt at a direct connection (direct.go) due
// now for every table peer not being attempted: a new mapping is an
// address the peer can dial, which the attempts made before it could not
// offer. A DCUtR attempt started by this side (on a relayed connection it
// accepted) sends the peer the mapped addresses, and the peer's dial of
// them gets through the router; when the peer is the side to start DCUtR,
// its next attempt (by its own schedule) gets them in this node's answer.
func (n *Node) punchSoon() {
	n.pathMu.Lock()
	defer n.pathMu.Unlock()
	for _, st := range n.paths {
		if !st.punching && !st.path.Direct {
			st.nextPunch = time.Time{}
		}
	}
}

// announcedDialTimeout bounds a dial of a peer's announced address.
const announcedDialTimeout = 3 * time.Second

// dialAnnounced, until Close, dials at once the public IPv4 addresses a
// table peer announces (identify's listen addresses, at each
// identification and each push) that it did not dial before, while the
// peer is reached through a relay only: a port mapping the peer's router
// made once the table had connected (announceMappings). Without it the
// pair waits for a DCUtR attempt, whose rounds are libp2p's 10 s dials
// with the roles of a hole punch (the side that gets the CONNECT dials
// as a server, which a mapped port's listener, also a server, refuses)
// and which learns new addresses only between rounds. A NAT'd peer
// announces no public IPv4 address (its observed ones are not among its
// host's addresses, host.go), and IPv6 addresses are left to hole
// punching, so this dials only mappings and public hosts.
func (n *Node) dialAnnounced() {
	sub, err := n.host.EventBus().Subscribe(new(event.EvtPeerIdentificationCompleted))
	if err != nil {
		n.log.Warn("port mapping: no identify subscription: peers' mappings wait for hole punching", "err", err)
		return
	}
	defer sub.Close()
	dialled := map[peer.ID][]multiaddr.Multiaddr{}
	for {
		var e event.EvtPeerIdentificationCompleted
		select {
		case <-n.bgCtx.Done():
			return
		case ev, ok := <-sub.Out():
			if !ok {
				return
			}
			e, _ = ev.(event.EvtPeerIdentificationCompleted)
		}
		t := n.table.Load()
		if t == nil || t.links[e.Peer] == nil || n.directTo(e.Peer) {
			continue
		}
		var fresh []multiaddr.Multiaddr
		for _, a := range e.ListenAddrs {
			if isCircuit(a) || !manet.IsPublicAddr(a) || familyName(a) != "IPv4" || slices.ContainsFunc(dialled[e.Peer], a.Equal) {
				continue
			}
			fresh = append(fresh, a)
		}
		if len(fresh) == 0 {
			continue
		}
		dialled[e.Peer] = append(dialled[e.Peer], fresh...)
		id := e.Peer
		n.bg.Go(func() { n.dialAnnouncedAddrs(id, fresh) })
	}
}

// announcedDials is how many times dialAnnounced dials one set of
// announced addresses while the peer has no direct connection: a dial
// that joined libp2p's dial of a hole punch in progress for the same
// peer can time out with it.
const announcedDials = 3

// dialAnnouncedAddrs dials id at addrs, announcedDials times at most,
// 0.5 s apart, until the node has a direct connection to it.
func (n *Node) dialAnnouncedAddrs(id peer.ID, addrs []multiaddr.Multiaddr) {
	for i := range announcedDials {
		if i > 0 && !sleepCtx(n.bgCtx, 500*time.Millisecond) {
			return
		}
		if n.directTo(id) {
			return
		}
		ctx, cancel := context.WithTimeout(network.WithForceDirectDial(n.bgCtx, "mentalmj announced address"), announcedDialTimeout)
		err := n.host.Connect(ctx, peer.AddrInfo{ID: id, Addrs: addrs})
		cancel()
		n.log.Info("dialled a peer's announced public address", "peer", id.String(), "addrs", fmt.Sprint(addrs), "attempt", i+1, "err", err)
		if err == nil {
			return
		}
	}
}
