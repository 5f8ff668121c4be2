package node

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-msgio"
	"github.com/multiformats/go-multiaddr"

	"github.com/mentalmj/mentalmj/protocol"
)

// peerstoreTTL keeps the table's addresses for the life of the node.
const peerstoreTTL = peerstore.PermanentAddrTTL

// Retry pacing of Connect while the other players are still starting: the
// wait doubles from firstRetry up to maxRetry, with ±25% jitter.
const (
	firstRetry = 100 * time.Millisecond
	maxRetry   = 2 * time.Second
)

// Connect dials every table peer and opens the one long-lived outbound
// stream Send writes to, in parallel for all peers. A peer that cannot be
// reached yet (not started, or not yet admitting us) is retried with
// backoff (100 ms doubling to 2 s) until it succeeds or ctx is done; each
// attempt is bounded by Config.DialTimeout. Peers already connected are
// skipped, so Connect may be called again after a partial failure. It
// returns nil when every peer has a stream, or an error naming each peer it
// could not reach with its last error (ctx's error wrapped), or an error if
// the table is not set or the node is closed.
func (n *Node) Connect(ctx context.Context) error {
	t := n.table.Load()
	if t == nil {
		return errors.New("connect: peer table not set (Config.Peers or SetPeers)")
	}
	if n.isClosed() {
		return fmt.Errorf("connect: %w", ErrClosed)
	}
	errs := make([]error, len(t.order))
	var wg sync.WaitGroup
	for i, id := range t.order {
		wg.Go(func() { errs[i] = n.connectPeer(ctx, t.links[id]) })
	}
	wg.Wait()
	var failed []error
	for _, err := range errs {
		if err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("connect: could not reach %d of %d peers: %w", len(failed), len(t.order), errors.Join(failed...))
	}
	return nil
}

// relayedDialDelay is how long the higher peer ID of a pair known only by
// relayed addresses waits before dialling (connectPeer).
const relayedDialDelay = 300 * time.Millisecond

// allCircuits reports whether every address in addrs is relayed.
func allCircuits(addrs []multiaddr.Multiaddr) bool {
	for _, a := range addrs {
		if !isCircuit(a) {
			return false
		}
	}
	return len(addrs) > 0
}

// connectPeer retries openOutbound for one peer until it succeeds or ctx is
// done.
func (n *Node) connectPeer(ctx context.Context, l *link) error {
	id := l.info.ID
	wait := firstRetry
	if n.host.ID() > id && allCircuits(l.info.Addrs) {
		// Both would dial through the relay at once, making two relayed
		// connections; the lower peer ID dials first and the other,
		// a moment later, finds its connection and uses it.
		if !sleepCtx(ctx, relayedDialDelay) {
			return fmt.Errorf("peer %s: %w", id, ctx.Err())
		}
	}
	for attempt := 1; ; attempt++ {
		err := n.openOutbound(ctx, l)
		if err == nil {
			return nil
		}
		if errors.Is(err, ErrClosed) {
			return err
		}
		n.log.Debug("peer not reachable yet", "peer", id.String(), "attempt", attempt, "err", err)
		if attempt%4 == 3 {
			// The addresses given may be stale: ask the DHT (public
			// network only) for the peer's current ones.
			n.findPeer(ctx, id)
		}
		jitter := time.Duration(rand.Int64N(int64(wait)/2)) - wait/4
		timer := time.NewTimer(wait + jitter)
		select {
		case <-ctx.Done():
			timer.Stop()
			return fmt.Errorf("peer %s: %w (after %d attempts; last: %v)", id, ctx.Err(), attempt, err)
		case <-n.closed:
			timer.Stop()
			return fmt.Errorf("peer %s: %w", id, ErrClosed)
		case <-timer.C:
		}
		wait = min(2*wait, maxRetry)
	}
}

// openOutbound makes one attempt to dial the peer and open its outbound
// stream, unless it is already open. Attempts for one peer are serialized
// (a peer accepts one stream from us), but do not hold the link's lock while
// dialling, so Close is not held up by a slow dial.
func (n *Node) openOutbound(ctx context.Context, l *link) error {
	id := l.info.ID
	select {
	case l.dialing <- struct{}{}:
		defer func() { <-l.dialing }()
	case <-ctx.Done():
		return fmt.Errorf("peer %s: dial: %w", id, ctx.Err())
	}
	l.outMu.Lock()
	out, outErr := l.out, l.outErr
	l.outMu.Unlock()
	if out != nil {
		return nil
	}
	if outErr != nil {
		return outErr
	}
	dctx, cancel := context.WithTimeout(ctx, n.dialTimeout)
	defer cancel()
	// The swarm backs off from addresses that failed recently; a peer
	// that was still starting a moment ago deserves a fresh dial.
	if sw, ok := n.host.Network().(*swarm.Swarm); ok {
		sw.Backoff().Clear(id)
	}
	// A relayed (limited) connection is fine for our few small messages;
	// one through a relay is enough (a second would only get in the way
	// of hole punching, which the connection manager starts).
	sctx := network.WithAllowLimitedConn(dctx, "mentalmj table stream")
	// Through the other players' table relays too (playerrelay.go): the
	// dial ranker tries them after the direct addresses.
	addrs := append(slices.Clone(l.info.Addrs), n.playerCircuits(id)...)
	if err := n.host.Connect(sctx, peer.AddrInfo{ID: id, Addrs: addrs}); err != nil {
		return fmt.Errorf("peer %s: dial: %w", id, err)
	}
	s, err := n.host.NewStream(sctx, id, ProtocolID)
	if err != nil {
		return fmt.Errorf("peer %s: open stream %s: %w", id, ProtocolID, err)
	}
	if err := nameProtocol(dctx, s); err != nil {
		_ = s.Reset()
		return fmt.Errorf("peer %s: open stream %s: %w", id, ProtocolID, err)
	}
	l.outMu.Lock()
	defer l.outMu.Unlock()
	if l.outErr != nil { // closed meanwhile
		_ = s.Reset()
		return l.outErr
	}
	l.out = s
	l.writer = msgio.NewVarintWriter(s)
	l.established.Store(true)
	n.log.Info("connected to peer", "peer", id.String(), "addr", s.Conn().RemoteMultiaddr().String())
	return nil
}

// nameProtocol sends the new outbound stream s's protocol name now,
// without waiting for the peer's answer, bounded by ctx.
//
// libp2p negotiates a stream lazily when the peer's identify listed the
// protocol: the multistream-select header and the protocol's name go out
// with the first write. The peer's libp2p gives every inbound stream 10 s
// (basichost.DefaultNegotiationTimeout) from the moment the muxer
// announces it to name its protocol, then resets it. A table stream may
// wait longer than that for its first frame (the host's Hello follows the
// wait for direct paths, up to 15 s; a stream reopened in the game waits
// for the next move), and a frame written as the reset crossed it was
// taken by the write and lost. An empty write sends the lazy handshake's
// half (go-multistream's lazyClientConn.Write) and is a no-op on a stream
// NewStream already negotiated in full (yamux and quic-go return 0, nil for
// it), so the peer's handler has the stream at once either way.
//
// Waiting for the peer's answer instead (a382eee, taken back) hung on a
// fully negotiated stream, where a read waits for data the peer never
// sends (TestConnectPeerHandlerLate). A refusal of the protocol still
// shows as the stream's reset at the first frame, as before.
func nameProtocol(ctx context.Context, s network.Stream) error {
	if d, ok := ctx.Deadline(); ok {
		_ = s.SetWriteDeadline(d)
		defer func() { _ = s.SetWriteDeadline(time.Time{}) }()
	}
	if _, err := s.Write(nil); err != nil {
		return fmt.Errorf("naming the protocol: %w", err)
	}
	return nil
}

// disconnected is the network's notification that a connection closed. Once
// the game's streams to a table peer were set up, losing the last
// connection to it means it is gone: Recv reports protocol.ErrPeerGone even
// if the peer never sent a frame (its inbound stream, opened lazily with
// its first frame, would otherwise never have reported anything).
func (n *Node) disconnected(_ network.Network, c network.Conn) {
	p := c.RemotePeer()
	t := n.table.Load()
	if t == nil {
		return
	}
	l, ok := t.links[p]
	if !ok || !l.established.Load() {
		return
	}
	// A relayed connection with limits counts as Limited, not Connected;
	// the table's stream may well be running over one.
	if c := n.host.Network().Connectedness(p); c == network.Connected || c == network.Limited {
		return
	}
	n.log.Info("peer disconnected", "peer", p.String())
	n.lost(l, fmt.Errorf("peer %s: no connection left: %w", p, protocol.ErrPeerGone), false)
}
