package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/protocol"
)

// Moving a pair off a public relay's limited circuits (issue 29: "the game
// never rides a public relay's limited circuits"; docs/DESIGN.md, "Off the
// public relay before hand 1").
//
// A pair meets wherever it can: often through a public relay (2 minutes,
// 128 KiB a circuit), before any player reaches the others directly, so
// before a player could relay for it. Hole punching (DCUtR) runs over that
// relayed connection, so it stays while the table waits for direct paths.
// Once the wait is over (LeaveLimitedRelays) a pair still on limited
// circuits through a relay that does not carry a game moves onto a player's
// table relay or a relay that carries a game (a pool relay, a --relay with
// real limits). First the node checks that such a path leads to the peer
// (probeGamePath: a circuit through the player dialled on the circuit
// transport itself, outside the swarm, and closed at once; the peer
// holds a reservation on that player only once it reaches the player
// directly), so that a pair with nowhere to go keeps its connection.
// libp2p's swarm never dials a peer it holds a connection to, limited or
// not (swarm.dialPeer returns the existing one), so the move then closes
// the limited connection and redials while the pair "avoids" relays that
// cannot carry a game: the connection gater refuses
// to dial the peer through them and refuses the peer's own circuits
// through them (Node.avoidCircuit), so the redial, and the peer's, go
// through a player or a relay that carries a game. The reconnection is
// the protocol's (SPEC §18): before hand 1 nothing is in flight, during a
// hand the Syncs resend it. An attempt that finds no such path within
// leaveBudget (a player who refuses or drops the circuit, or one the peer
// does not reach) is a fault of that path, never a blame: the pair stops
// avoiding and falls back to the next path, the public relay included,
// and a later attempt comes leaveRetry later (doubling).

const (
	// leaveBudget bounds one attempt at moving a pair off limited
	// circuits: how long the pair goes without a connection through
	// relays that cannot carry a game before it falls back to them. A
	// redial through a player takes one relayed round trip (about 20 ms
	// in the NAT lab; from 0.5 s when a direct address is dialled first,
	// swarm.RelayDelay); the peer may still be making its reservation on
	// the player (at most pathTick after it reached the player).
	leaveBudget = 5 * time.Second
	// leaveRetry is the wait after a failed attempt, doubled after each
	// further failure up to leaveRetryMax: each attempt pauses the pair
	// for up to leaveBudget.
	leaveRetry    = 30 * time.Second
	leaveRetryMax = 10 * time.Minute
	// leaveFallback is the time an attempt started by LeaveLimitedRelays
	// leaves before its context's deadline for the pair to fall back
	// onto the next path if the attempt fails.
	leaveFallback = 2 * time.Second
	// leaveProbeEvery is the wait between probes of a pair's paths that
	// carry a game while LeaveLimitedRelays runs (the peer may reach the
	// player any moment); a probe that finds none costs one circuit
	// request to each player (NO_RESERVATION).
	leaveProbeEvery = time.Second
	// leaveProbeTimeout bounds one probe of one path: a circuit request
	// and the security handshake through it.
	leaveProbeTimeout = 5 * time.Second
	// leaveYield is the head start the lower peer ID of a pair gets
	// before the higher one tries to move the pair too.
	leaveYield = time.Second
	// probeLife is how long a peer's probe (probeGamePath) may seem to
	// live on this side: a relayed connection through a relay that
	// carries a game that closes younger than this is taken for one, not
	// for the relay dropping a circuit (isProbe).
	probeLife = 2 * time.Second
)

// leaveState is the node's record of the pairs it moves off limited
// circuits, guarded by mu (never held while calling into libp2p).
type leaveState struct {
	mu sync.Mutex
	// on is set once the wait for direct paths before hand 1 is over
	// (LeaveLimitedRelays): from then on the connection manager moves
	// pairs off limited circuits.
	on bool
	// until is the deadline of LeaveLimitedRelays' context: the attempts
	// it starts may run until then (at least leaveBudget), since the peer
	// may still be waiting for its own direct paths, and so not yet
	// reach the player that could relay the pair.
	until time.Time
	peers map[peer.ID]*leavePeer
}

// leavePeer is one table peer's state.
type leavePeer struct {
	// avoid makes the gater refuse circuits to and from the peer through
	// relays that cannot carry a game (avoidCircuit).
	avoid bool
	// moving is set while an attempt runs (leaveLimited).
	moving bool
	// offSince is when the pair, avoiding, was last seen without a path
	// that carries a game (zero while it has one).
	offSince time.Time
	failures int
	next     time.Time // no attempt before
	moved    int       // attempts that put the pair on a path that carries a game
	// lastLimited is the pair's last path on limited circuits, while it
	// has had no path since that carries a game or is direct.
	lastLimited *Path
	// yielded is set once the head start of leaveYield was given.
	yielded bool
}

// backOff counts a failed attempt and puts the next one leaveRetry after
// now, doubled per failure up to leaveRetryMax (n.leave.mu held).
func (st *leavePeer) backOff(now time.Time) {
	st.failures++
	st.next = now.Add(min(leaveRetry<<min(st.failures-1, 8), leaveRetryMax))
}

// leavePeerLocked returns id's state, made on first use (n.leave.mu held).
func (n *Node) leavePeerLocked(id peer.ID) *leavePeer {
	if n.leave.peers == nil {
		n.leave.peers = make(map[peer.ID]*leavePeer)
	}
	st := n.leave.peers[id]
	if st == nil {
		st = &leavePeer{}
		n.leave.peers[id] = st
	}
	return st
}

// avoidCircuit reports whether a connection with table peer p through
// relay r is refused: the node is moving the pair off limited circuits
// (or keeps it off them) and r cannot carry a game (carriesGame: neither a
// player of the table nor a relay this node holds a reservation on with
// limits of at least 1 h and 64 MiB). The gater asks it for every address
// dialled (InterceptAddrDial) and every inbound relayed connection
// (InterceptSecured).
func (n *Node) avoidCircuit(p, r peer.ID) bool {
	n.leave.mu.Lock()
	st := n.leave.peers[p]
	avoid := st != nil && st.avoid
	n.leave.mu.Unlock()
	return avoid && !n.carriesGame(r)
}

// LeaveLimitedRelays moves every table peer reached only through a relay
// whose circuits cannot carry a game (Path.Limited: a public relay's 2
// minutes and 128 KiB) onto a player's table relay or a relay that carries
// a game, where one may lead to it: a player this node reaches directly
// (whose relay the peer may hold a reservation on), or a relay that
// carries a game among the peer's addresses. Call it once the wait for
// direct paths before hand 1 is over (hole punching runs over the limited
// connection until then); from then on the connection manager also moves
// pairs that land on limited circuits later (after a drop), at most once
// every leaveRetry (doubling) for a pair that could not be moved. Until
// ctx is done it probes the paths of a pair with nowhere to go yet every
// leaveProbeEvery, and an attempt it starts may take until leaveFallback
// before ctx's deadline (at least leaveBudget). It waits until no pair is
// left on limited circuits or not connected and no attempt runs, or ctx
// is done, and returns the paths then, in table order (a pair not
// connected then, last seen on limited circuits, as that path);
// nil before the table is set. It needs Config.MoveToDirect (the
// protocol's reconnection): without it it moves nothing.
func (n *Node) LeaveLimitedRelays(ctx context.Context) []Path {
	t := n.table.Load()
	if t == nil {
		return nil
	}
	n.leave.mu.Lock()
	n.leave.on = true
	n.leave.until, _ = ctx.Deadline()
	n.leave.mu.Unlock()
	defer func() {
		n.leave.mu.Lock()
		n.leave.until = time.Time{}
		n.leave.mu.Unlock()
	}()
	if !n.moveStreams {
		return n.Paths()
	}
	// A pair last seen on limited circuits that is not connected when
	// the wait ends (its peer gave up on the game and left, say) is given
	// as that path: nothing that carries a game took it.
	lastLimited := func(paths []Path) []Path {
		n.leave.mu.Lock()
		defer n.leave.mu.Unlock()
		for i, p := range paths {
			if st := n.leave.peers[p.Peer]; st != nil && st.lastLimited != nil && !p.Direct && p.Relay == "" {
				paths[i] = *st.lastLimited
			}
		}
		return paths
	}
	for {
		paths := n.Paths() // checks every path, starting the attempts that are due
		busy := false
		n.leave.mu.Lock()
		for _, p := range paths {
			st := n.leave.peers[p.Peer]
			switch {
			case st != nil && st.moving:
				busy = true
			case p.Relay != "" && p.Limited:
				// Nothing to move onto yet: no player reached
				// directly, or none the peer reaches (probes
				// every leaveProbeEvery). One may come before ctx
				// is done.
				busy = true
			case !p.Direct && p.Relay == "":
				// Not connected: after a failed attempt, the
				// fallback's redial is under way.
				busy = true
			}
		}
		n.leave.mu.Unlock()
		if !busy {
			return lastLimited(paths)
		}
		select {
		case <-ctx.Done():
			return lastLimited(n.Paths())
		case <-time.After(pathTick / 5):
		}
	}
}

// checkLeave is the connection manager's step for moving the pair with
// l's peer off limited circuits, given its path p as just seen
// (checkPath): it starts an attempt (leaveLimited) when one is due, makes
// a pair relayed through a player or a relay that carries a game avoid
// the others, and ends the avoiding of a pair that lost its path that
// carries a game and found none for leaveBudget (the next path, a public
// relay included, then takes it).
func (n *Node) checkLeave(l *link, p Path) {
	id := l.info.ID
	now := time.Now()
	onGame := p.Direct || p.Relay != "" && !p.Limited
	n.leave.mu.Lock()
	st := n.leavePeerLocked(id)
	switch {
	case p.Relay != "" && p.Limited:
		st.lastLimited = &p
	case onGame:
		st.lastLimited = nil
	}
	if !n.leave.on || !n.moveStreams || n.bgCtx.Err() != nil {
		n.leave.mu.Unlock()
		return
	}
	if !st.yielded {
		// Both sides of a pair may move it; the higher peer ID gives
		// the lower one a head start, so that they seldom close and
		// redial at once.
		st.yielded = true
		if n.host.ID() > id && st.next.Before(now.Add(leaveYield)) {
			st.next = now.Add(leaveYield)
		}
	}
	start := false
	switch {
	case st.moving:
	case st.avoid && onGame:
		st.offSince = time.Time{}
	case st.avoid && st.offSince.IsZero():
		st.offSince = now
	case st.avoid && now.Sub(st.offSince) > leaveBudget:
		n.leaveFailedLocked(id, st, now, "the pair lost its path through a player or a relay that carries a game, and found no other")
	case !st.avoid && p.Relay != "" && !p.Limited:
		// Relayed through a player or a relay that carries a game (the
		// peer moved the pair, or it met there): a redial after a drop
		// keeps off relays that cannot carry a game, as on the side
		// that moved it.
		st.avoid = true
	case !st.avoid && p.Relay != "" && p.Limited && !now.Before(st.next) && l.established.Load():
		// The link may be down (a stream that ended with a duplicate
		// relayed connection, before the protocol runs and redials):
		// the move redials it (WaitUp).
		st.moving, start = true, true
	}
	n.leave.mu.Unlock()
	if start {
		n.bg.Go(func() { n.leaveLimited(l, st) })
	}
}

// leaveFailedLocked ends an attempt (or the avoiding after a lost path)
// that found no path carrying a game: the pair may use any relay again,
// and the next attempt waits leaveRetry, doubled per failure up to
// leaveRetryMax (n.leave.mu held).
func (n *Node) leaveFailedLocked(id peer.ID, st *leavePeer, now time.Time, why string) {
	st.avoid, st.offSince = false, time.Time{}
	st.backOff(now)
	n.log.Info("the pair stays on a relay that cannot carry a game: no player or relay that carries a game took it; falling back to the next path",
		"peer", id.String(), "why", why, "next attempt", st.next.Sub(now).Round(time.Second).String())
}

// gamePaths returns the addresses through which peer id may be reached
// over circuits that carry a game: through every other table peer this
// node reaches directly (playerCircuits), and the peer's known addresses
// through relays that carry a game (carriesGame).
func (n *Node) gamePaths(id peer.ID) []multiaddr.Multiaddr {
	out := n.playerCircuits(id)
	for _, a := range n.host.Peerstore().Addrs(id) {
		if isCircuit(a) && n.carriesGame(relayOf(a)) {
			out = append(out, a)
		}
	}
	return out
}

// probeGamePath finds a path that carries a game to peer id (gamePaths)
// that leads to it now: it dials each through the circuit transport
// itself (the swarm would only return the limited connection the pair
// has), which asks the relay for a circuit and makes the security
// handshake with id through it, and closes the connection at once (the
// peer's swarm saw an inbound connection that closed; its other
// connection is left, so nothing is lost or reported there). It returns
// the relay of the first that leads to id, or an error naming why none
// did. A refusal other than a player's NO_RESERVATION (the peer does not
// reach that player: no fault) is reported as a relay fault, never a
// player's.
func (n *Node) probeGamePath(id peer.ID) (peer.ID, error) {
	addrs := n.gamePaths(id)
	if len(addrs) == 0 {
		return "", fmt.Errorf("no player reached directly and no relay that carries a game among the peer's addresses")
	}
	sw, ok := n.host.Network().(*swarm.Swarm)
	if !ok {
		return "", fmt.Errorf("the host's network is not a swarm")
	}
	var errs []error
	for _, a := range addrs {
		tpt := sw.TransportForDialing(a)
		if tpt == nil || !tpt.Proxy() {
			continue
		}
		ctx, cancel := context.WithTimeout(n.bgCtx, leaveProbeTimeout)
		c, err := tpt.Dial(ctx, a, id)
		cancel()
		if err != nil {
			if f, ok := n.classifyDialError(a, err); ok {
				n.relayFault(f)
			}
			errs = append(errs, fmt.Errorf("%s: %w", a, err))
			continue
		}
		_ = c.Close()
		return relayOf(a), nil
	}
	return "", errors.Join(errs...)
}

// leaveLimited makes one attempt at moving the pair with l's peer off its
// limited circuits: if a path that carries a game leads to the peer
// (probeGamePath; if none does, the pair stays and the next probe comes
// leaveProbeEvery later while LeaveLimitedRelays runs, leaveRetry
// (doubling) later after it), the pair avoids relays that cannot carry a game, its
// connections through them are closed (the node's own close: no relay
// fault), and the table's stream is redialled (WaitUp), which now goes
// through a player or a relay that carries a game. If within leaveBudget
// the pair is not on such a path, it falls back (leaveFailedLocked) and
// the redial that goes on takes the next path.
func (n *Node) leaveLimited(l *link, st *leavePeer) {
	id := l.info.ID
	probed, err := n.probeGamePath(id)
	if err != nil {
		// Nowhere to go yet: the pair keeps its connection.
		now := time.Now()
		n.leave.mu.Lock()
		st.moving = false
		if n.leave.until.After(now) {
			st.next = now.Add(leaveProbeEvery)
		} else {
			st.backOff(now)
		}
		n.leave.mu.Unlock()
		n.log.Debug("no path that carries a game leads to the peer yet", "peer", id.String(), "err", err)
		return
	}
	n.leave.mu.Lock()
	st.avoid, st.offSince = true, time.Time{}
	deadline := time.Now().Add(leaveBudget)
	if until := n.leave.until.Add(-leaveFallback); until.After(deadline) {
		deadline = until
	}
	n.leave.mu.Unlock()
	var closed []string
	for _, c := range n.host.Network().ConnsToPeer(id) {
		if n.isLimitedCircuit(c) {
			closed = append(closed, relayOf(c.RemoteMultiaddr()).String())
			n.closeOwn(c)
		}
	}
	n.log.Info("moving the pair off a relay that cannot carry a game", "peer", id.String(), "closed", fmt.Sprint(closed), "probed", probed.String())
	n.lost(l, fmt.Errorf("peer %s: moving off a relay that cannot carry a game: %w", id, protocol.ErrPeerGone), false)
	ctx, cancel := context.WithDeadline(n.bgCtx, deadline)
	err = n.WaitUp(ctx, id)
	cancel()
	var via peer.ID
	carried := false
	if err == nil {
		for _, c := range n.host.Network().ConnsToPeer(id) {
			if r := relayOf(c.RemoteMultiaddr()); !n.isLimitedCircuit(c) {
				carried, via = true, r
			}
		}
	}
	now := time.Now()
	n.leave.mu.Lock()
	defer n.leave.mu.Unlock()
	st.moving = false
	if !carried {
		if err == nil {
			err = fmt.Errorf("reconnected, but not over a path that carries a game")
		}
		n.leaveFailedLocked(id, st, now, err.Error())
		return
	}
	st.failures, st.next = 0, time.Time{}
	st.moved++
	n.log.Info("the pair left the relay that cannot carry a game", "peer", id.String(), "via", via.String())
}

// leftLimited returns how many times the pair with p was moved onto a path
// that carries a game, and whether it avoids relays that cannot carry one
// now (tests, benchmarks).
func (n *Node) leftLimited(p peer.ID) (moved int, avoid bool) {
	n.leave.mu.Lock()
	defer n.leave.mu.Unlock()
	if st := n.leave.peers[p]; st != nil {
		return st.moved, st.avoid
	}
	return 0, false
}

// isLimitedCircuit reports whether c is a relayed connection with limits
// through a relay that cannot carry a game.
func (n *Node) isLimitedCircuit(c network.Conn) bool {
	r := relayOf(c.RemoteMultiaddr())
	return r != "" && c.Stat().Limited && !n.carriesGame(r)
}

// sameRelayKind reports whether every relayed connection in a and b is
// limited through a relay that cannot carry a game, or none is.
func (n *Node) sameRelayKind(a, b []network.Conn) bool {
	limited := 0
	for _, c := range append(slices.Clone(a), b...) {
		if n.isLimitedCircuit(c) {
			limited++
		}
	}
	return limited == 0 || limited == len(a)+len(b)
}

// isProbe reports whether the relayed connection c with l's peer through
// relay r that just closed looks like that peer's probe (probeGamePath):
// through a relay that carries a game, closed less than probeLife after
// it opened, and neither of the table's streams with the peer ran on it.
// The peer closes its probe at once, and this side may see that close
// after the peer's close of the limited connection the pair is leaving,
// so that no connection seems left: that is the pair moving, not the
// relay (a player, often) dropping a circuit, and it is neither reported
// nor made suspect.
func (n *Node) isProbe(l *link, c network.Conn, r peer.ID) bool {
	if time.Since(c.Stat().Opened) >= probeLife || !n.carriesGame(r) {
		return false
	}
	l.outMu.Lock()
	out := l.out
	l.outMu.Unlock()
	l.inMu.Lock()
	in := l.inbound
	l.inMu.Unlock()
	return (out == nil || out.Conn() != c) && (in == nil || in.Conn() != c)
}
