package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/sec"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	pbv2 "github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/pb"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	"github.com/multiformats/go-multiaddr"
)

// Retry pacing of a failed reservation: the wait doubles from
// firstReserveRetry up to maxReserveRetry, with ±25% jitter.
const (
	firstReserveRetry = 500 * time.Millisecond
	maxReserveRetry   = 30 * time.Second
	// minRenew is the shortest wait before renewing a reservation.
	minRenew = 100 * time.Millisecond
)

// relaySlot is this node's reservation on one relay of Config.Relays. The
// fields after info are guarded by Node.rsvMu.
type relaySlot struct {
	info peer.AddrInfo
	// lost receives a signal (buffered, at most one) when the last
	// connection to the relay closes: the relay then drops the reservation.
	lost chan struct{}

	expires time.Time // zero while there is no reservation
	lastErr error     // why the last attempt failed, nil after a success
	// limitDuration and limitData are the circuit limits the relay
	// stated in its last reservation (0: none).
	limitDuration time.Duration
	limitData     uint64
	// lostOnce is set by keepReservation alone once a loss was reported,
	// so that the next reservation is reported as regained.
	lostOnce bool
}

// validateRelays checks Config.Relays: each a valid peer ID other than
// self, given once, with at least one address and none of them relayed.
func validateRelays(self peer.ID, relays []peer.AddrInfo) error {
	seen := make(map[peer.ID]bool, len(relays))
	for _, r := range relays {
		if err := r.ID.Validate(); err != nil {
			return fmt.Errorf("relay: invalid peer ID %q: %w", r.ID, err)
		}
		if r.ID == self {
			return fmt.Errorf("relay %s is this node itself", r.ID)
		}
		if seen[r.ID] {
			return fmt.Errorf("relay %s given twice", r.ID)
		}
		seen[r.ID] = true
		if len(r.Addrs) == 0 {
			return fmt.Errorf("relay %s has no address to dial", r.ID)
		}
		for _, a := range r.Addrs {
			if isCircuit(a) {
				return fmt.Errorf("relay %s: address %s is itself relayed; give the relay's direct address", r.ID, a)
			}
		}
	}
	return nil
}

// isCircuit reports whether a goes through a relay (has a /p2p-circuit
// component).
func isCircuit(a multiaddr.Multiaddr) bool {
	for _, c := range a {
		if c.Code() == multiaddr.P_CIRCUIT {
			return true
		}
	}
	return false
}

// startReservations runs keepReservation for every relay until ctx is
// done.
func (n *Node) startReservations(ctx context.Context) {
	for _, s := range n.relays {
		n.bg.Go(func() { n.keepReservation(ctx, s) })
	}
}

// keepReservation holds a reservation on one relay (circuit relay v2 RESERVE,
// libp2p's client.Reserve): it reserves, renews half-way to the expiry the
// relay granted, reserves again at once if the connection to the relay
// drops, and retries a failure with backoff (0.5 s doubling to 30 s), until
// ctx is done.
func (n *Node) keepReservation(ctx context.Context, s *relaySlot) {
	id := s.info.ID
	wait := firstReserveRetry
	failures := 0
	for {
		select { // a loss signalled before this attempt is stale
		case <-s.lost:
		default:
		}
		// The swarm backs off from addresses that failed recently; a
		// relay that was restarting a moment ago deserves a fresh dial.
		if sw, ok := n.host.Network().(*swarm.Swarm); ok {
			sw.Backoff().Clear(id)
		}
		rctx, cancel := context.WithTimeout(ctx, n.dialTimeout)
		rsv, err := client.Reserve(rctx, n.host, s.info)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			err = reserveError(s.info, err)
			n.setReservation(s, time.Time{}, err)
			failures++
			if failures == 1 && n.onRelay != nil {
				n.onRelay(id, false, err)
			}
			level := slog.LevelDebug // the first failure in a row is enough to see
			if failures == 1 {
				level = slog.LevelWarn
			}
			n.log.Log(ctx, level, "relay reservation failed, retrying", "relay", id.String(), "failures", failures, "retry_in", wait.String(), "err", err)
			if !sleepCtx(ctx, wait+time.Duration(rand.Int64N(int64(wait)/2))-wait/4) {
				return
			}
			wait = min(2*wait, maxReserveRetry)
			continue
		}
		if failures > 0 && n.onRelay != nil || s.lostOnce {
			n.onRelay(id, true, nil)
		}
		wait, failures, s.lostOnce = firstReserveRetry, 0, false
		n.setReservation(s, rsv.Expiration, nil)
		n.rsvMu.Lock()
		s.limitDuration, s.limitData = rsv.LimitDuration, rsv.LimitData
		n.rsvMu.Unlock()
		n.log.Info("relay reservation", "relay", id.String(), "expires", rsv.Expiration.Format(time.RFC3339),
			"circuit_duration", rsv.LimitDuration.String(), "circuit_bytes", rsv.LimitData)
		timer := time.NewTimer(max(time.Until(rsv.Expiration)/2, minRenew))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-s.lost:
			timer.Stop()
			err := fmt.Errorf("relay %s: connection lost", id)
			n.setReservation(s, time.Time{}, err)
			n.log.Warn("connection to relay lost, reserving again", "relay", id.String())
			if n.onRelay != nil {
				n.onRelay(id, false, err)
				s.lostOnce = true
				failures = 1 // reported: the next failures are not news
			}
		case <-timer.C:
		}
	}
}

// reserveError says why a reservation on the relay info failed, naming
// the relay by peer ID and address: the relay refused it (its circuit
// relay v2 status, e.g. RESERVATION_REFUSED or PERMISSION_DENIED), its
// address leads to another peer (the security handshake authenticated
// someone else), it does not speak circuit relay v2, or it could not be
// reached. It wraps err.
func reserveError(info peer.AddrInfo, err error) error {
	at := fmt.Sprintf("relay %s at %s", info.ID, multiaddrList(info.Addrs))
	var re client.ReservationError
	var mismatch sec.ErrPeerIDMismatch
	switch {
	case errors.As(err, &mismatch):
		return quietCause{fmt.Sprintf("%s: that address leads to another peer, %s (the security handshake authenticated it): not trusted; check the relay address", at, mismatch.Actual), err}
	case errors.As(err, &re) && re.Status != pbv2.Status_CONNECTION_FAILED:
		// libp2p's text adds nothing to the status (and prints a nil
		// cause as "%!s(<nil>)"): keep it for errors.As only.
		return quietCause{fmt.Sprintf("%s refused the reservation (%s)", at, re.Status), err}
	case strings.Contains(err.Error(), "protocols not supported"): // go-multistream's ErrNotSupported
		return fmt.Errorf("%s is not a circuit relay v2 relay (it does not speak %s): %w", at, proto.ProtoIDv2Hop, err)
	default:
		return quietCause{fmt.Sprintf("%s is unreachable (%s)", at, dialCause(err)), err}
	}
}

// quietCause is an error whose text is msg alone and which unwraps to
// err.
type quietCause struct {
	msg string
	err error
}

func (e quietCause) Error() string { return e.msg }
func (e quietCause) Unwrap() error { return e.err }

// multiaddrList writes addresses as "A" or "A, B".
func multiaddrList(addrs []multiaddr.Multiaddr) string {
	s := make([]string, len(addrs))
	for i, a := range addrs {
		s[i] = a.String()
	}
	return strings.Join(s, ", ")
}

// sleepCtx waits d or until ctx is done; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// Circuits that can carry a whole game: a relay whose circuits last at
// least gameCircuitDuration and carry gameCircuitBytes (or have no limit)
// is one a pair can stay relayed on; public relays' defaults (2 minutes,
// 128 KiB) are far below.
const (
	gameCircuitDuration = time.Hour
	gameCircuitBytes    = 64 << 20
)

// carriesGame reports whether this node holds a reservation on relay
// whose stated circuit limits can carry a whole game. A relay found on
// the public network (AutoRelay) states its limits to no one but the node
// that reserved there, so it reports false for those.
func (n *Node) carriesGame(relay peer.ID) bool {
	if n.isPlayerRelay(relay) {
		return true // a table relay: PlayerRelayDuration, PlayerRelayData
	}
	n.rsvMu.Lock()
	defer n.rsvMu.Unlock()
	for _, s := range n.relays {
		if s.info.ID == relay && !s.expires.IsZero() {
			return (s.limitDuration == 0 || s.limitDuration >= gameCircuitDuration) &&
				(s.limitData == 0 || s.limitData >= gameCircuitBytes)
		}
	}
	return false
}

// setReservation records the state of s and wakes WaitReservations.
func (n *Node) setReservation(s *relaySlot, expires time.Time, err error) {
	n.rsvMu.Lock()
	defer n.rsvMu.Unlock()
	s.expires, s.lastErr = expires, err
	close(n.rsvChanged)
	n.rsvChanged = make(chan struct{})
}

// relayDisconnected is the network's notification that a connection
// closed; if it was the last one to a relay of Config.Relays, that relay's
// reservation is gone and keepReservation makes a new one.
func (n *Node) relayDisconnected(_ network.Network, c network.Conn) {
	p := c.RemotePeer()
	for _, s := range n.relays {
		if s.info.ID != p {
			continue
		}
		if n.host.Network().Connectedness(p) == network.Connected {
			return
		}
		select {
		case s.lost <- struct{}{}:
		default:
		}
		return
	}
}

// relayedAddrsLocked returns this node's relayed addresses, one per address
// of every relay holding a live reservation:
// RELAYADDR/p2p/RELAY/p2p-circuit/p2p/SELF. n.rsvMu must be held.
func (n *Node) relayedAddrsLocked() []multiaddr.Multiaddr {
	var out []multiaddr.Multiaddr
	now := time.Now()
	for _, s := range n.relays {
		if !s.expires.After(now) {
			continue
		}
		for _, a := range s.info.Addrs {
			suffix, err := multiaddr.NewMultiaddr("/p2p/" + s.info.ID.String() + "/p2p-circuit/p2p/" + n.host.ID().String())
			if err != nil {
				continue // only for invalid peer IDs, which validateRelays refused
			}
			out = append(out, a.Encapsulate(suffix))
		}
	}
	return out
}

// RelayedAddrs returns the node's relayed addresses, ending in
// /p2p/<relay id>/p2p-circuit/p2p/<peer id>, one per address of each relay
// of Config.Relays on which the node holds a reservation now; nil if it
// holds none. Other players pass them to ParsePeer to reach this node
// through the relay.
func (n *Node) RelayedAddrs() []multiaddr.Multiaddr {
	n.rsvMu.Lock()
	defer n.rsvMu.Unlock()
	return n.relayedAddrsLocked()
}

// WaitReservations waits until the node holds a reservation on every relay
// of Config.Relays, or ctx is done, and returns its relayed addresses then
// (RelayedAddrs). Reservations are made in the background from New on and
// kept (renewed, remade after a lost connection) until Close, whether or
// not anyone waits. With no relays it returns nil, nil at once. If ctx is
// done first it returns the addresses it has and an error naming each relay
// still without a reservation, with its last failure, wrapping ctx's
// error; after Close, an error wrapping ErrClosed.
func (n *Node) WaitReservations(ctx context.Context) ([]multiaddr.Multiaddr, error) {
	for {
		n.rsvMu.Lock()
		addrs := n.relayedAddrsLocked()
		var missing []error
		now := time.Now()
		for _, s := range n.relays {
			if s.expires.After(now) {
				continue
			}
			if s.lastErr != nil {
				missing = append(missing, s.lastErr)
			} else {
				missing = append(missing, fmt.Errorf("relay %s: no answer yet", s.info.ID))
			}
		}
		changed := n.rsvChanged
		n.rsvMu.Unlock()
		if len(missing) == 0 {
			return addrs, nil
		}
		select {
		case <-ctx.Done():
			return addrs, fmt.Errorf("no reservation on %d of %d relays: %w: %w", len(missing), len(n.relays), ctx.Err(), errors.Join(missing...))
		case <-n.closed:
			return addrs, fmt.Errorf("waiting for relay reservations: %w", ErrClosed)
		case <-changed:
		}
	}
}
