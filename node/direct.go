package node

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"

	"github.com/mentalmj/mentalmj/protocol"
)

// The connection manager (see the package doc, "From relayed to direct")
// checks every table peer's connections every pathTick, and on every new
// connection or identification.
const (
	pathTick = 500 * time.Millisecond
	// retryPunch is half the wait after the first failed attempt at a
	// direct connection; the wait doubles with every attempt (0.5 s, 1,
	// 2, 4, 8 s) up to maxPunchWait (punchWait), with ±25% jitter. The
	// first five attempts fall within the 15 s the table waits for
	// direct pairs before its first hand; a pair that stays relayed then
	// retries every 15 s for the rest of the game (hours), each attempt
	// a DCUtR exchange over the relay and synchronised dials from both
	// sides: a public relay carries 128 KiB per circuit, and a NAT that
	// started letting a punch through is found within 15 s either way.
	retryPunch   = 250 * time.Millisecond
	maxPunchWait = 15 * time.Second
	// punchTimeout bounds one DCUtR attempt (the protocol itself makes up
	// to three synchronised dials in it).
	punchTimeout = 20 * time.Second
)

// Path says how the node reaches one table peer now: over a direct
// connection, through a relay, or not at all.
type Path struct {
	// Peer is the table peer.
	Peer peer.ID
	// Direct is set when the node holds a direct (not relayed)
	// connection to Peer; the table's stream moves onto it.
	Direct bool
	// Transport is "QUIC" or "TCP" for the connection the path uses
	// ("" with no connection).
	Transport string
	// Family is "IPv4" or "IPv6" for a direct connection: the address
	// family it runs over ("" for a relayed one or none).
	Family string
	// How says how a direct connection came about: "hole punched" (after
	// the peer was reached through a relay), "LAN" (a private address), or
	// "dialled" (a public address dialled directly).
	How string
	// Relay is the relay a relayed connection goes through ("" for a
	// direct one or none).
	Relay peer.ID
	// RelayPlayer is set when Relay is a player of the table, relaying
	// for the pair on its table relay (playerrelay.go).
	RelayPlayer bool
	// Limited is set for a relayed connection with circuit limits (circuit
	// relay v2) not known to carry a whole game: every relay v2 circuit
	// with a limit is marked limited, and only a relay of Config.Relays
	// tells this node its limits in the reservation; one at least an hour
	// and 64 MiB per circuit (or unlimited) clears the flag.
	Limited bool
	// Why says, for a relayed path, why it is not direct (yet): hole
	// punching's state, or the NAT that prevents it (NATPeer, NATSelf).
	Why string
	// NATPeer and NATSelf are what the peer's and this node's NATs do to
	// ports, as far as known (NATUnknown before the observations).
	NATPeer, NATSelf NAT
}

// String is the path as a screen shows it after the peer's name:
// "direct (QUIC, IPv6, hole punched)" (the family left out when Family is
// empty), "relayed via 12D3…xyz: their NAT gives a new port for every
// destination", "relayed via 12D3…xyz (a player)", "not connected". It is
// Describe(ShortID).
func (p Path) String() string {
	return p.Describe(ShortID)
}

// Describe is String with the relay named by who (a nickname, "carol",
// when known): "relayed via carol (a player): their NAT …".
func (p Path) Describe(who func(peer.ID) string) string {
	switch {
	case p.Direct && p.Family != "":
		return fmt.Sprintf("direct (%s, %s, %s)", p.Transport, p.Family, p.How)
	case p.Direct:
		return fmt.Sprintf("direct (%s, %s)", p.Transport, p.How)
	case p.Relay != "":
		s := fmt.Sprintf("relayed via %s", who(p.Relay))
		if p.RelayPlayer {
			s += " (a player)"
		}
		if p.Why != "" {
			s += ": " + p.Why
		}
		return s
	default:
		return "not connected"
	}
}

// pathState is the connection manager's record of one peer, guarded by
// Node.pathMu.
type pathState struct {
	path       Path
	relayedYet bool      // the peer was reached only through a relay once
	punching   bool      // a DCUtR attempt runs
	punches    int       // attempts made
	nextPunch  time.Time // no attempt before
	lastErr    error     // of the last failed attempt
	moving     bool      // the table's stream is being moved onto a direct connection
	reported   bool      // a path was reported (OnPath) already
	askedNAT   time.Time // when the peer was last asked about its NAT
}

// startPaths starts the connection manager: from New until Close it
// records the addresses peers observe us at and, once the table is set,
// checks every table peer's path.
func (n *Node) startPaths() {
	sub, err := n.host.EventBus().Subscribe([]any{new(event.EvtPeerIdentificationCompleted), new(event.EvtPeerConnectednessChanged)})
	if err != nil {
		n.log.Warn("connection manager: no event subscription, checking on a timer only", "err", err)
		sub = nil
	}
	n.bg.Go(func() {
		var events <-chan any
		if sub != nil {
			defer sub.Close()
			events = sub.Out()
		}
		tick := time.NewTicker(pathTick)
		defer tick.Stop()
		for {
			if t := n.table.Load(); t != nil {
				n.checkPaths(t)
			}
			select {
			case <-n.bgCtx.Done():
				return
			case <-tick.C:
			case e := <-events:
				if id, ok := e.(event.EvtPeerIdentificationCompleted); ok {
					n.observed(id)
				}
			}
		}
	})
}

// checkPaths updates every peer's Path, reports changes, starts hole
// punches that are due and moves table streams onto direct connections.
func (n *Node) checkPaths(t *table) {
	for _, id := range t.order {
		n.checkPath(t.links[id])
	}
}

func (n *Node) checkPath(l *link) {
	if n.bgCtx.Err() != nil {
		return // closing: start nothing more
	}
	id := l.info.ID
	var direct, relayed network.Conn
	var inbound, outbound []network.Conn // relayed connections by direction
	for _, c := range n.host.Network().ConnsToPeer(id) {
		if isCircuit(c.RemoteMultiaddr()) || c.Stat().Limited {
			relayed = c
			if c.Stat().Direction == network.DirInbound {
				inbound = append(inbound, c)
			} else {
				outbound = append(outbound, c)
			}
		} else if direct == nil || c.Stat().Opened.Before(direct.Stat().Opened) {
			direct = c
		}
	}
	established := l.established.Load()
	public := len(n.holePunchAddrs()) > 0
	limited := relayed != nil && relayed.Stat().Limited && !n.carriesGame(relayOf(relayed.RemoteMultiaddr()))
	// Only relayed connections of one kind are duplicates: one through a
	// player (or a relay that carries a game) that meets a limited one
	// through a public relay is the pair moving off it (relaymove.go),
	// and the limited one is about to close.
	if direct == nil && len(inbound) > 0 && len(outbound) > 0 && n.host.ID() < id && established && n.moveStreams && public && n.sameRelayKind(inbound, outbound) {
		// Both dialled through the relay at once. DCUtR runs over a
		// relayed connection from the side that accepted it, so keep one
		// direction only: the one the lower peer ID dialled. Streams on
		// the closed one come back on the other (reconnection, Sync);
		// without MoveToDirect, or with no public address to punch
		// from (a LAN, loopback), nothing is closed.
		for _, c := range inbound {
			n.log.Debug("closing a duplicate relayed connection", "peer", id.String())
			n.closeOwn(c)
		}
		inbound = nil
	}
	initiator := len(inbound) > 0 && len(outbound) == 0
	// The peer accepted our relayed connection: it is DCUtR's initiator.
	peerInitiates := len(outbound) > 0 && len(inbound) == 0
	now := time.Now()
	n.pathMu.Lock()
	st := n.paths[id]
	if st == nil {
		st = &pathState{}
		n.paths[id] = st
	}
	p := Path{Peer: id, NATPeer: st.path.NATPeer, NATSelf: n.selfNATLocked()}
	switch {
	case direct != nil:
		p.Direct, p.Transport, p.Family = true, transportName(direct.RemoteMultiaddr()), familyName(direct.RemoteMultiaddr())
		switch {
		case manet.IsPrivateAddr(direct.RemoteMultiaddr()):
			p.How = "LAN"
		case st.relayedYet || !givenAddr(l.info.Addrs, direct.RemoteMultiaddr()):
			// libp2p also punches on its own, for a relayed
			// connection met before the table (the invite meeting).
			p.How = "hole punched"
		default:
			p.How = "dialled"
		}
	case relayed != nil:
		st.relayedYet = true
		p.Transport, p.Relay = transportName(relayed.RemoteMultiaddr()), relayOf(relayed.RemoteMultiaddr())
		p.RelayPlayer = n.isPlayerRelay(p.Relay)
		p.Limited = limited
		p.Why = n.whyRelayedLocked(st, p, public)
	}
	// "not connected" is news only once the peer was reached.
	changed := p != st.path && (st.reported || p.Direct || p.Relay != "")
	st.reported = st.reported || changed
	st.path = p
	punch := relayed != nil && direct == nil && !st.punching && !now.Before(st.nextPunch)
	waitForPeer := waitForPeerPunch(peerInitiates, p.NATSelf, p.NATPeer)
	attempt := 0
	if punch {
		st.punching = true
		st.punches++
		attempt = st.punches
	}
	askNAT := relayed != nil && direct == nil && p.NATPeer == NATUnknown && now.Sub(st.askedNAT) > 2*time.Second
	if askNAT {
		st.askedNAT = now
	}
	move := direct != nil && n.moveStreams && !st.moving && established && l.downError() == nil && l.outOnLimited()
	if move {
		st.moving = true
	}
	closeRelayed := direct != nil && relayed != nil && n.moveStreams && !st.moving && established && l.downError() == nil && l.outOnDirect()
	n.pathMu.Unlock()

	if changed && n.bgCtx.Err() == nil {
		n.log.Info("path to peer", "peer", id.String(), "path", p.String())
		if n.onPath != nil {
			n.onPath(p)
		}
	}
	if punch {
		// After a few rounds without a hole punch from the other side
		// (its view of the connections may differ), try from this one.
		initiator = initiator || attempt > 3 && !waitForPeer
		n.bg.Go(func() { n.holePunch(l, st, initiator, waitForPeer, attempt) })
	}
	if askNAT {
		n.bg.Go(func() { n.askNAT(id) })
	}
	n.checkLeave(l, p) // off limited circuits (relaymove.go)
	if move {
		n.bg.Go(func() { n.moveToDirect(l, st) })
	}
	if closeRelayed {
		// The table's stream runs on the direct connection: the relay has
		// nothing more to carry for this pair.
		for _, c := range n.host.Network().ConnsToPeer(id) {
			if isCircuit(c.RemoteMultiaddr()) || c.Stat().Limited {
				n.log.Info("closing the relayed connection: the peer is reached directly", "peer", id.String(), "relay", relayOf(c.RemoteMultiaddr()).String())
				n.closeOwn(c)
			}
		}
	}
}

// whyRelayedLocked explains a relayed path (n.pathMu held).
func (n *Node) whyRelayedLocked(st *pathState, p Path, public bool) string {
	switch {
	case p.NATPeer == NATPortPerDestination:
		return "their NAT gives a new port for every destination, so hole punching cannot work"
	case p.NATSelf == NATPortPerDestination:
		return "your NAT gives a new port for every destination, so hole punching cannot work"
	case p.NATPeer == NATChangesPort && st.punches > 0:
		return "their NAT changes ports, most likely a new port for every destination: hole punching keeps failing"
	case p.NATSelf == NATChangesPort && st.punches > 0:
		return "your NAT changes ports, most likely a new port for every destination: hole punching keeps failing"
	case n.hps == nil:
		return "hole punching is off"
	case !public:
		return "no public address of ours known yet (a relay observes it)"
	case st.lastErr != nil:
		// Without the attempt count: a path changes (and is reported)
		// only when something new happens.
		return fmt.Sprintf("hole punching failed (%v); retrying", shortErr(st.lastErr))
	case st.punching:
		return "hole punching"
	default:
		return "hole punching soon"
	}
}

// waitForPeerPunch reports whether this node leaves the hole punch to
// its peer and dials none of the peer's addresses itself: when the peer
// is DCUtR's initiator (it accepted our relayed connection and we hold
// no relayed connection it dialled: peerInitiates) and neither NAT is
// known to change ports (NATUnknown counts as keeping them), so that the
// peer's punch can get through.
//
// A direct dial of ours to the peer's address would spoil the punch:
// go-libp2p's dial worker joins the punch's synchronised dial to a dial
// of the same address still in progress (swarm's dial_worker.go), so no
// packet of ours goes out at the punch's moment, and our low-TTL opener
// finds the 4-tuple taken. A DCUtR attempt of ours would open with such
// a dial (the holepunch service dials a peer with a public address
// first) and then be refused: the peer's holepunch service resets a DCUtR
// stream on a connection it sees as inbound. When a NAT changes ports no
// punch gets through, and our direct dial (to a forwarded or UPnP-mapped
// port) is the way left, so it stays.
func waitForPeerPunch(peerInitiates bool, self, peer NAT) bool {
	changes := func(n NAT) bool { return n == NATChangesPort || n == NATPortPerDestination }
	return peerInitiates && !changes(self) && !changes(peer)
}

// holePunch makes attempt number attempt at a direct connection to the
// peer of l: a direct dial of its direct addresses (a LAN, a public or
// forwarded port), or, on the side that accepted the relayed connection
// (DCUtR's initiator), a hole punch (libp2p's holepunch.Service, which makes up to
// three synchronised dials). With waitForPeer (waitForPeerPunch) it does
// neither: the peer punches. It schedules the next attempt if all fail.
func (n *Node) holePunch(l *link, st *pathState, initiator, waitForPeer bool, attempt int) {
	id := l.info.ID
	var direct []multiaddr.Multiaddr
	for _, a := range l.info.Addrs {
		if !isCircuit(a) {
			direct = append(direct, a)
		}
	}
	// A direct dial runs on every third attempt only, and never beside a
	// hole punch of ours: a dial to the same peer in progress (another
	// home's LAN address only times out) would delay the hole punch's
	// synchronised dial past its moment.
	results := make(chan error, 2)
	tries := 0
	dialDirect := !waitForPeer && len(direct) > 0 && (attempt%3 == 1 && !initiator || attempt%3 == 0)
	if dialDirect {
		tries++
		go func() {
			ctx, cancel := context.WithTimeout(network.WithForceDirectDial(n.bgCtx, "mentalmj direct"), directDialTimeout)
			defer cancel()
			if err := n.host.Connect(ctx, peer.AddrInfo{ID: id, Addrs: direct}); err != nil {
				results <- fmt.Errorf("direct dial: %w", err)
				return
			}
			results <- nil
		}()
	}
	switch {
	case dialDirect || !initiator || n.hps == nil:
	case len(n.holePunchAddrs()) == 0:
		// DirectConnect would block until a public address is known.
		tries++
		results <- errors.New("hole punch: no public address of ours known yet")
	default:
		tries++
		go func() {
			if err := n.hps.DirectConnect(id); err != nil {
				results <- fmt.Errorf("hole punch: %w", err)
				return
			}
			results <- nil
		}()
	}
	var errs []error
	timeout := time.After(punchTimeout)
	for range tries {
		select {
		case err := <-results:
			if err == nil {
				n.finishPunch(id, st, nil)
				return
			}
			errs = append(errs, err)
		case <-timeout:
			errs = append(errs, fmt.Errorf("no result within %s", punchTimeout))
		case <-n.bgCtx.Done():
			return
		}
		if len(errs) > 0 && errs[len(errs)-1] != nil && strings.HasPrefix(errs[len(errs)-1].Error(), "no result") {
			break
		}
	}
	err := errors.Join(errs...)
	if err == nil {
		err = errors.New("the peer starts the hole punch; waiting for it")
	}
	n.finishPunch(id, st, err)
}

// directDialTimeout bounds the direct dial before a hole punch.
const directDialTimeout = 3 * time.Second

// finishPunch records the result of an attempt and schedules the next.
func (n *Node) finishPunch(id peer.ID, st *pathState, err error) {
	n.pathMu.Lock()
	defer n.pathMu.Unlock()
	st.punching = false
	if err != nil {
		st.lastErr = err
		wait := punchWait(st.punches)
		st.nextPunch = time.Now().Add(wait + time.Duration(rand.Int64N(int64(wait)/2)) - wait/4)
		n.log.Info("no direct connection yet", "peer", id.String(), "attempt", st.punches, "err", err)
		return
	}
	st.lastErr = nil
	n.log.Info("direct connection made", "peer", id.String(), "attempt", st.punches)
}

// punchWait is the wait after the failed attempt number attempts (from
// 1) at a direct connection, before jitter: retryPunch doubled attempts
// times, at most maxPunchWait.
func punchWait(attempts int) time.Duration {
	// The shift is bounded only against overflow: maxPunchWait bounds
	// the wait.
	return min(retryPunch<<min(max(attempts, 0), 16), maxPunchWait)
}

// moveToDirect moves the table's stream to peer l onto the direct
// connection: it ends the outbound stream on the relayed one as a dropped
// connection (the protocol holds back new entries, §18.2 of SPEC) and
// redials at once; the new stream runs on the direct connection, which
// libp2p prefers, and the two sides' Syncs resend whatever was in flight.
func (n *Node) moveToDirect(l *link, st *pathState) {
	id := l.info.ID
	n.log.Info("moving the table's stream onto the direct connection", "peer", id.String())
	n.lost(l, fmt.Errorf("peer %s: moving onto a direct connection: %w", id, protocol.ErrPeerGone), false)
	ctx, cancel := context.WithTimeout(n.bgCtx, 30*time.Second)
	err := n.WaitUp(ctx, id)
	cancel()
	n.pathMu.Lock()
	st.moving = false
	n.pathMu.Unlock()
	if err != nil {
		n.log.Warn("moving onto the direct connection failed", "peer", id.String(), "err", err)
	}
}

// outOnLimited reports whether the outbound stream runs over a relayed
// connection.
func (l *link) outOnLimited() bool {
	l.outMu.Lock()
	defer l.outMu.Unlock()
	if l.out == nil {
		return false
	}
	c := l.out.Conn()
	return c.Stat().Limited || isCircuit(c.RemoteMultiaddr())
}

// outOnDirect reports whether the outbound stream runs over a direct
// connection.
func (l *link) outOnDirect() bool {
	l.outMu.Lock()
	defer l.outMu.Unlock()
	if l.out == nil {
		return false
	}
	c := l.out.Conn()
	return !c.Stat().Limited && !isCircuit(c.RemoteMultiaddr())
}

// Paths returns how the node reaches each table peer now, in table order,
// looking at its connections afresh; nil before the table is set.
func (n *Node) Paths() []Path {
	t := n.table.Load()
	if t == nil {
		return nil
	}
	n.checkPaths(t)
	n.pathMu.Lock()
	defer n.pathMu.Unlock()
	var out []Path
	for _, id := range t.order {
		if st := n.paths[id]; st != nil {
			out = append(out, st.path)
		} else {
			out = append(out, Path{Peer: id})
		}
	}
	return out
}

// WaitDirect waits until every table peer is reached directly, or ctx is
// done, or no pair that is still relayed is likely to become direct: a
// NAT that gives a new port for every destination on either side (or one
// that changes ports, after giveUpPunches failed attempts), or no public
// address of ours to punch from. It returns the paths then.
func (n *Node) WaitDirect(ctx context.Context) []Path {
	for {
		public := len(n.holePunchAddrs()) > 0
		waiting := false
		if t := n.table.Load(); t != nil {
			n.checkPaths(t)
		}
		n.pathMu.Lock()
		for _, st := range n.paths {
			p := st.path
			if p.Direct {
				continue
			}
			if p.Relay == "" {
				waiting = true // not connected (yet)
				continue
			}
			hopeless := p.NATPeer == NATPortPerDestination || p.NATSelf == NATPortPerDestination ||
				(p.NATPeer == NATChangesPort || p.NATSelf == NATChangesPort) && st.punches >= giveUpPunches && !st.punching
			if !hopeless && public && n.hps != nil {
				waiting = true
			}
		}
		n.pathMu.Unlock()
		if !waiting {
			return n.Paths()
		}
		select {
		case <-ctx.Done():
			return n.Paths()
		case <-time.After(pathTick):
		}
	}
}

// giveUpPunches is how many failed attempts WaitDirect waits for on a
// pair behind a NAT that changes ports (attempts go on in the background).
const giveUpPunches = 2

// givenAddr reports whether remote's IP and port are those of one of the
// addresses the peer was given by (the invite, --peer).
func givenAddr(given []multiaddr.Multiaddr, remote multiaddr.Multiaddr) bool {
	rip, rport, ok := ipPort(remote)
	if !ok {
		return false
	}
	for _, a := range given {
		if ip, port, ok := ipPort(a); ok && !isCircuit(a) && ip == rip && port == rport {
			return true
		}
	}
	return false
}

// transportName is "QUIC" or "TCP" for a's transport ("" if neither); for
// a relayed address, the transport to the relay.
func transportName(a multiaddr.Multiaddr) string {
	name := ""
	for _, c := range a {
		switch c.Code() {
		case multiaddr.P_QUIC_V1, multiaddr.P_QUIC:
			name = "QUIC"
		case multiaddr.P_TCP:
			if name == "" {
				name = "TCP"
			}
		}
	}
	return name
}

// familyName is "IPv4" or "IPv6" for a's first IP component ("" if it
// has none, e.g. a DNS name).
func familyName(a multiaddr.Multiaddr) string {
	for _, c := range a {
		switch c.Code() {
		case multiaddr.P_IP4:
			return "IPv4"
		case multiaddr.P_IP6:
			return "IPv6"
		}
	}
	return ""
}

// shortErr keeps an error's message to one short line.
func shortErr(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return s
}

// ShortID abbreviates a peer ID for screens: its first 6 and last 4
// characters, "12D3Ko…mMMw".
func ShortID(id peer.ID) string {
	s := id.String()
	if len(s) <= 12 {
		return s
	}
	return s[:6] + "…" + s[len(s)-4:]
}
