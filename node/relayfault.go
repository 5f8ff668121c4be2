package node

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/sec"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	"github.com/multiformats/go-multiaddr"
)

// A relay is a stranger's machine: it may refuse reservations or
// circuits, give addresses that lead to someone else, or drop circuits.
// None of that is a player's fault. The node names the relay (RelayFault,
// Config.OnRelayFault), trusts nothing the relay says about addresses
// (relayed addresses are built from the relay address the player was given,
// never from the relay's reservation or identify), and prefers its other
// paths: for suspectFor after a fault, dials of addresses through that
// relay wait suspectDelay behind the other addresses of the same peer
// (libp2p's dial ranker), so they are used only if nothing else answers.
const (
	// suspectFor is how long a relay stays suspect after its last fault.
	suspectFor = 2 * time.Minute
	// suspectDelay is how long a dial through a suspect relay waits behind
	// the other addresses of the same peer.
	suspectDelay = 2 * time.Second
	// faultRepeat is how long the same fault of the same relay is not
	// reported again (it is still logged at debug level).
	faultRepeat = time.Minute
)

// RelayFaultKind says what a relay did wrong.
type RelayFaultKind string

// The kinds of RelayFault.
const (
	// RelayRefusedCircuit: the relay answered a circuit request (circuit
	// relay v2 CONNECT) with an error status, such as PERMISSION_DENIED,
	// NO_RESERVATION or RESOURCE_LIMIT_EXCEEDED.
	RelayRefusedCircuit RelayFaultKind = "refused a circuit"
	// RelayUnreachable: the relay could not be dialled for a circuit.
	RelayUnreachable RelayFaultKind = "unreachable"
	// RelayNotRelay: the peer answered but does not speak circuit relay
	// v2 (its hop protocol is not supported).
	RelayNotRelay RelayFaultKind = "not a relay"
	// RelayWrongPeer: the security handshake (TLS 1.3 or Noise) at an
	// address given for a relay, or at the far end of a circuit through
	// a relay, authenticated another peer than the one expected.
	RelayWrongPeer RelayFaultKind = "wrong peer"
	// RelayDroppedCircuit: a circuit to a table peer through the relay
	// closed without the node or the peer having ended it.
	RelayDroppedCircuit RelayFaultKind = "dropped a circuit"
)

// RelayFault reports something a relay did wrong, or a table peer's
// address that leads to someone else. It is never a player's fault: the
// node goes on over its other paths (another relay, a direct connection)
// and, if none is left, the hand pauses as for a dropped connection (SPEC
// §18.2). Reservation failures are reported by Config.OnRelay instead.
type RelayFault struct {
	// Kind is what went wrong.
	Kind RelayFaultKind
	// Relay is the relay at fault; "" for a table peer's direct address
	// that leads to another peer (RelayWrongPeer).
	Relay peer.ID
	// Addr is the address dialled: the relay's (without /p2p/RELAY), or
	// the table peer's for a direct address; nil if unknown.
	Addr multiaddr.Multiaddr
	// Peer is the table peer the circuit was for ("" if unknown: libp2p
	// dials a relay's circuit without saying for whom).
	Peer peer.ID
	// Actual is, for RelayWrongPeer, the peer the security handshake
	// authenticated instead.
	Actual peer.ID
	// Status is, for RelayRefusedCircuit, the relay's status code name
	// (circuit relay v2 HopMessage Status, e.g. "PERMISSION_DENIED").
	Status string
	// Err is the underlying error, if any.
	Err error
}

// Message is the fault as a screen shows it, with name for Peer (a
// nickname, or ShortID(Peer)):
//
//	relay 12D3Ko…abcd at /ip4/198.51.100.4/tcp/4001 refused a circuit (PERMISSION_DENIED): going on over other paths
//	relay 12D3Ko…abcd at /ip4/198.51.100.4/tcp/4001 is someone else: the security handshake there authenticated 12D3Ko…wxyz; not trusted, going on over other paths
//	relay 12D3Ko…abcd dropped the circuit to bob: reconnecting over another path (another relay, or directly)
func (f RelayFault) Message(name string) string {
	at := ""
	if f.Addr != nil {
		at = " at " + f.Addr.String()
	}
	to := ""
	if f.Peer != "" {
		to = " to " + name
	}
	switch f.Kind {
	case RelayRefusedCircuit:
		return fmt.Sprintf("relay %s%s refused a circuit%s (%s): going on over other paths", ShortID(f.Relay), at, to, f.Status)
	case RelayUnreachable:
		why := ""
		if f.Err != nil {
			why = " (" + dialCause(f.Err) + ")"
		}
		return fmt.Sprintf("relay %s%s is unreachable%s: going on over other paths", ShortID(f.Relay), at, why)
	case RelayNotRelay:
		return fmt.Sprintf("relay %s%s is not a relay (it does not speak circuit relay v2): going on over other paths", ShortID(f.Relay), at)
	case RelayWrongPeer:
		switch {
		case f.Relay == "":
			return fmt.Sprintf("the address %s given for %s leads to another peer: the security handshake there authenticated %s; not trusted, going on over %s's other addresses",
				f.Addr, name, ShortID(f.Actual), name)
		case f.Peer != "":
			return fmt.Sprintf("relay %s%s connected us to %s instead of %s (the security handshake says so): not trusted, going on over other paths",
				ShortID(f.Relay), at, ShortID(f.Actual), name)
		default:
			return fmt.Sprintf("relay %s%s is someone else: the security handshake there authenticated %s; not trusted, going on over other paths",
				ShortID(f.Relay), at, ShortID(f.Actual))
		}
	case RelayDroppedCircuit:
		return fmt.Sprintf("relay %s dropped the circuit%s: reconnecting over another path (another relay, or directly)", ShortID(f.Relay), to)
	default:
		return fmt.Sprintf("relay %s%s: %s", ShortID(f.Relay), at, f.Kind)
	}
}

// String is Message with the peer's short ID for its name.
func (f RelayFault) String() string {
	return f.Message(ShortID(f.Peer))
}

// relayFaults is the node's record of faulty relays, guarded by mu.
type relayFaults struct {
	mu       sync.Mutex
	suspect  map[peer.ID]time.Time // relay → suspect until
	reported map[string]time.Time  // fault key → last reported
	ownClose map[string]bool       // IDs of connections the node closed itself
}

// faultKey identifies a fault for faultRepeat: the same relay, kind,
// address and peer.
func (f RelayFault) key() string {
	return fmt.Sprintf("%s|%s|%v|%s|%s", f.Kind, f.Relay, f.Addr, f.Peer, f.Actual)
}

// relayFault records f: the relay becomes suspect, and f is logged and
// reported (Config.OnRelayFault) unless the same fault was reported less
// than faultRepeat ago.
func (n *Node) relayFault(f RelayFault) {
	now := time.Now()
	rf := &n.faults
	rf.mu.Lock()
	if f.Relay != "" {
		rf.suspect[f.Relay] = now.Add(suspectFor)
	}
	k := f.key()
	repeat := now.Sub(rf.reported[k]) < faultRepeat
	if !repeat {
		rf.reported[k] = now
	}
	rf.mu.Unlock()
	if repeat || n.bgCtx.Err() != nil {
		n.log.Debug("relay fault", "kind", string(f.Kind), "relay", f.Relay.String(), "peer", f.Peer.String(), "err", f.Err)
		return
	}
	level := slog.LevelWarn
	if n.onRelayFault != nil {
		level = slog.LevelInfo // the screen says it already
	}
	n.log.Log(context.Background(), level, f.String(), "kind", string(f.Kind), "relay", f.Relay.String(), "addr", fmt.Sprint(f.Addr), "peer", f.Peer.String(), "err", f.Err)
	if n.onRelayFault != nil {
		n.onRelayFault(f)
	}
}

// isSuspect reports whether relay r had a fault less than suspectFor ago.
func (n *Node) isSuspect(r peer.ID) bool {
	if r == "" {
		return false
	}
	n.faults.mu.Lock()
	defer n.faults.mu.Unlock()
	return time.Now().Before(n.faults.suspect[r])
}

// closeOwn closes c and remembers that the node closed it itself, so that
// its closing is not taken for a relay dropping a circuit.
func (n *Node) closeOwn(c network.Conn) {
	n.faults.mu.Lock()
	n.faults.ownClose[c.ID()] = true
	n.faults.mu.Unlock()
	_ = c.Close()
}

// rankDials is the swarm's dial ranker (swarm.WithDialRanker): libp2p's
// DefaultDialRanker, with circuits through players first (playersFirst),
// on the public network (Config.Public) with circuits
// through relays that may not carry a game behind those through relays
// that do (preferGameRelays, pool.go),
// and the addresses through suspect relays moved
// suspectDelay behind the last other address, when the peer has another.
// With relayOnly (set by tests, to play as behind NATs that nothing
// passes on 127.0.0.1) it drops every direct address of a peer that has
// a relayed one.
func (n *Node) rankDials(addrs []multiaddr.Multiaddr) []network.AddrDelay {
	if n.relayOnly.Load() && slices.ContainsFunc(addrs, isCircuit) {
		addrs = slices.DeleteFunc(slices.Clone(addrs), func(a multiaddr.Multiaddr) bool { return !isCircuit(a) })
	}
	// Circuits through players first (playerrelay.go).
	ranked := n.playersFirst(swarm.DefaultDialRanker(addrs))
	if n.getDHT() != nil {
		// On the public network, AutoRelay's public relays are there
		// too: their circuits go behind those that carry a game.
		ranked = preferGameRelays(ranked, n.gameRelay)
	}
	var last time.Duration
	trusted := false
	suspect := make([]bool, len(ranked))
	for i, d := range ranked {
		suspect[i] = n.isSuspect(relayOf(d.Addr))
		if !suspect[i] {
			trusted = true
			last = max(last, d.Delay)
		}
	}
	if !trusted {
		return ranked
	}
	for i := range ranked {
		if suspect[i] {
			ranked[i].Delay += last + suspectDelay
		}
	}
	slices.SortStableFunc(ranked, func(a, b network.AddrDelay) int { return cmp.Compare(a.Delay, b.Delay) })
	return ranked
}

// circuitClosed is the network's notification that a connection closed.
// A relayed connection to a table peer that was the last connection to
// it, that the node did not close, while neither the node is closing nor
// the peer said goodbye, was dropped by its relay (a limit, a reset, the
// relay going away), or the peer's node died without a goodbye, which the
// wire cannot tell apart: a RelayFault naming the relay. The table's
// stream reconnects by itself (reconnect.go), over another path first.
func (n *Node) circuitClosed(_ network.Network, c network.Conn) {
	n.faults.mu.Lock()
	own := n.faults.ownClose[c.ID()]
	delete(n.faults.ownClose, c.ID())
	n.faults.mu.Unlock()
	r := relayOf(c.RemoteMultiaddr())
	if own || r == "" || n.bgCtx.Err() != nil || n.isClosed() {
		return
	}
	t := n.table.Load()
	if t == nil {
		return
	}
	p := c.RemotePeer()
	l, ok := t.links[p]
	if !ok || !l.established.Load() {
		return
	}
	if n.isProbe(l, c, r) {
		return // a peer's probe of a path that carries a game (relaymove.go)
	}
	if cn := n.host.Network().Connectedness(p); cn == network.Connected || cn == network.Limited {
		// Another connection to the peer is left: the pair lost nothing.
		// This is also how the peer's own close of a relayed connection
		// looks once the pair is direct (or cut to one relayed
		// connection), which the wire cannot tell from a relay's drop.
		return
	}
	l.stMu.Lock()
	left := l.left
	l.stMu.Unlock()
	if left {
		return
	}
	n.relayFault(RelayFault{Kind: RelayDroppedCircuit, Relay: r, Peer: p})
}

// dialWatch is the swarm's metrics tracer (swarm.WithMetricsTracer), used
// only for FailedDialing: every failed dial of one address, including
// those the swarm hides because another address of the same peer
// answered. It turns the failures that are a relay's doing (a circuit
// refused, a relay unreachable, a handshake that authenticated another
// peer) into RelayFaults.
type dialWatch struct{ n *Node }

var _ swarm.MetricsTracer = dialWatch{}

// FailedDialing classifies one failed dial of addr with err; cause is set
// when the dial's context was cancelled (another address answered first,
// or the dial timed out): those are no fault.
func (w dialWatch) FailedDialing(addr multiaddr.Multiaddr, err error, cause error) {
	if cause != nil || err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return
	}
	if f, ok := w.n.classifyDialError(addr, err); ok {
		w.n.relayFault(f)
	}
}

// classifyDialError turns a failed dial of addr into a RelayFault, if it
// is one: a dial through a relay (addr …/p2p/RELAY/p2p-circuit) that the
// relay refused, that could not reach the relay, or whose handshake
// authenticated another peer; or a direct dial of a relay's or a table
// peer's address whose handshake authenticated another peer.
func (n *Node) classifyDialError(addr multiaddr.Multiaddr, err error) (RelayFault, bool) {
	var mismatch sec.ErrPeerIDMismatch
	isMismatch := errors.As(err, &mismatch)
	if !isMismatch {
		var pm *sec.ErrPeerIDMismatch
		if errors.As(err, &pm) && pm != nil {
			mismatch, isMismatch = *pm, true
		}
	}
	if errors.Is(err, swarm.ErrDialBackoff) {
		return RelayFault{}, false // an earlier failure, already looked at
	}
	r := relayOf(addr)
	if r == "" {
		// A direct address. Only a wrong peer is news here: a relay or a
		// table peer that is down is reported where it is waited for
		// (reservations, Connect).
		if !isMismatch || !n.gater.admits(mismatch.Expected) || n.givenRelayAddr(mismatch.Expected, addr) {
			return RelayFault{}, false
		}
		f := RelayFault{Kind: RelayWrongPeer, Addr: addr, Actual: mismatch.Actual, Err: err}
		if n.isRelay(mismatch.Expected) {
			f.Relay = mismatch.Expected
		} else {
			f.Peer = mismatch.Expected
		}
		return f, true
	}
	if !n.gater.admits(r) {
		// A relay neither given nor in the table's addresses: on the
		// public network, the DHT's peers are dialled through relays
		// that are none of the table's business.
		return RelayFault{}, false
	}
	relayAddr, _ := splitCircuit(addr)
	f := RelayFault{Relay: r, Addr: relayAddr, Err: err}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "concurrent active dial"):
		return RelayFault{}, false // the circuit client's de-duplication: no dial was made
	case isMismatch && mismatch.Expected == r:
		f.Kind, f.Actual = RelayWrongPeer, mismatch.Actual
	case isMismatch:
		f.Kind, f.Peer, f.Actual = RelayWrongPeer, mismatch.Expected, mismatch.Actual
	case strings.Contains(msg, "protocols not supported"): // go-multistream's ErrNotSupported
		f.Kind = RelayNotRelay
	case strings.Contains(msg, "error opening hop stream to relay"):
		f.Kind = RelayUnreachable
	default:
		status := hopStatus(msg)
		if status == "" {
			return RelayFault{}, false // e.g. the peer behind the relay failed its handshake: not the relay's doing
		}
		if n.quietPlayerRefusal(r, status) {
			return RelayFault{}, false // a player that is no path to that peer (playerrelay.go)
		}
		f.Kind, f.Status = RelayRefusedCircuit, status
	}
	return f, true
}

// hopStatus finds the circuit relay v2 status name (pb.Status, other than
// OK and UNUSED) that libp2p's circuit client put in a dial error's text,
// "error opening relay circuit: NAME (CODE)"; "" if there is none. The
// client's error type is unexported, so its text is all there is.
func hopStatus(msg string) string {
	const prefix = "error opening relay circuit: "
	i := strings.Index(msg, prefix)
	if i < 0 {
		return ""
	}
	rest := msg[i+len(prefix):]
	for name, v := range pbv2.Status_value {
		if v != int32(pbv2.Status_OK) && v != int32(pbv2.Status_UNUSED) && strings.HasPrefix(rest, name+" ") {
			return name
		}
	}
	return ""
}

// dialCause is the reason a dial failed, in one line of at most 120
// characters: the causes libp2p's swarm gives per address (swarm.DialError,
// e.g. "dial tcp4 127.0.0.1:4001: connect: connection refused"), else the
// first line of err.
func dialCause(err error) string {
	if errors.Is(err, swarm.ErrDialBackoff) {
		return "it did not answer a moment ago, and libp2p backs off"
	}
	var de *swarm.DialError
	if errors.As(err, &de) && len(de.DialErrors) > 0 {
		causes := make([]string, 0, len(de.DialErrors))
		for _, te := range de.DialErrors {
			causes = append(causes, te.Cause.Error())
		}
		err = errors.New(strings.Join(causes, "; "))
	}
	line, _, _ := strings.Cut(err.Error(), "\n")
	return shortErr(errors.New(line))
}

// splitCircuit splits a relayed address RELAYADDR/p2p/RELAY/p2p-circuit[/…]
// into RELAYADDR and RELAY.
func splitCircuit(a multiaddr.Multiaddr) (multiaddr.Multiaddr, peer.ID) {
	before, _ := multiaddr.SplitFunc(a, func(c multiaddr.Component) bool { return c.Code() == multiaddr.P_CIRCUIT })
	transport, id := peer.SplitAddr(before)
	return transport, id
}

// givenRelayAddr reports whether addr is an address Config.Relays gives
// for relay r: its reservation reports a failure there (Config.OnRelay,
// WaitReservations), so a RelayFault would say it twice.
func (n *Node) givenRelayAddr(r peer.ID, addr multiaddr.Multiaddr) bool {
	for _, s := range n.relays {
		if s.info.ID == r && slices.ContainsFunc(s.info.Addrs, addr.Equal) {
			return true
		}
	}
	return false
}

// isRelay reports whether p is a relay of Config.Relays or one named in
// the table's relayed addresses.
func (n *Node) isRelay(p peer.ID) bool {
	if n.gater.relays[p] {
		return true
	}
	t := n.table.Load()
	return t != nil && t.relays[p]
}

// The rest of swarm.MetricsTracer: nothing to do.

func (dialWatch) OpenedConnection(network.Direction, crypto.PubKey, network.ConnectionState, multiaddr.Multiaddr) {
}
func (dialWatch) ClosedConnection(network.Direction, time.Duration, network.ConnectionState, multiaddr.Multiaddr) {
}
func (dialWatch) CompletedHandshake(time.Duration, network.ConnectionState, multiaddr.Multiaddr) {}
func (dialWatch) DialCompleted(bool, int, time.Duration)                                         {}
func (dialWatch) DialRankingDelay(time.Duration)                                                 {}
func (dialWatch) UpdatedBlackHoleSuccessCounter(string, swarm.BlackHoleState, int, float64)      {}
