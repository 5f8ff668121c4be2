package node

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
)

var _ protocol.Reconnecting = (*Node)(nil)

// lost records that the connection to the peer of l dropped (left: the
// peer closed its stream, its node shut down) and resets the outbound
// stream, which runs over the dead connection. The protocol learns of it
// from Recv and calls WaitUp to redial.
func (n *Node) lost(l *link, err error, left bool) {
	if !l.markDown(err, left) {
		return
	}
	l.outMu.Lock()
	if l.out != nil {
		_ = l.out.Reset()
		l.out, l.writer = nil, nil
	}
	l.outMu.Unlock()
}

// markDown sets the link down (or left) with err as the reason. It
// reports whether that changed anything: a link already down stays down
// for its first reason, and a peer that left stays gone.
func (l *link) markDown(err error, left bool) bool {
	l.stMu.Lock()
	defer l.stMu.Unlock()
	changed := false
	if !l.down {
		l.down, l.downErr, changed = true, err, true
		l.epoch++
	}
	if left && !l.left {
		l.left, l.downErr, changed = true, err, true
	}
	if changed {
		close(l.changed)
		l.changed = make(chan struct{})
	}
	return changed
}

// markUp sets the link up again: a new outbound stream is open.
func (l *link) markUp() {
	l.stMu.Lock()
	defer l.stMu.Unlock()
	l.redialing = false
	if l.down && !l.left {
		l.down, l.downErr = false, nil
		close(l.changed)
		l.changed = make(chan struct{})
	}
}

// recvState returns the channel closed at the next change and nil, or the
// error Recv reports with an empty inbox: a loss not yet reported, or the
// link being down.
func (l *link) recvState() (changed <-chan struct{}, gone error) {
	l.stMu.Lock()
	defer l.stMu.Unlock()
	if l.seen != l.epoch {
		l.seen = l.epoch
		if l.downErr != nil {
			return nil, l.downErr
		}
		return nil, fmt.Errorf("peer %s: the connection dropped and was made again: %w", l.info.ID, protocol.ErrPeerGone)
	}
	if l.down || l.left {
		return nil, l.downErr
	}
	return l.changed, nil
}

// downError returns why the link is down, nil while it is up.
func (l *link) downError() error {
	l.stMu.Lock()
	defer l.stMu.Unlock()
	if l.down || l.left {
		return l.downErr
	}
	return nil
}

// WaitUp implements protocol.Reconnecting: after the connection to peer p
// dropped, it redials p in the background (backoff from 100 ms doubling to
// 2 s, ±25% jitter, each attempt bounded by Config.DialTimeout; a peer
// that restarted and dialled us is picked up at once) and returns nil once
// a new outbound stream to p is open. It returns at once if the link is
// up. Errors name the peer: ctx's error; one wrapping protocol.ErrPeerGone
// if p closed its stream (its node shut down: it will not come back);
// ErrClosed after Close; ErrNotInTable for a peer outside the table.
func (n *Node) WaitUp(ctx context.Context, p peer.ID) error {
	l, err := n.link(p)
	if err != nil {
		return fmt.Errorf("wait for reconnection: %w", err)
	}
	for {
		l.stMu.Lock()
		left, down, why, changed := l.left, l.down, l.downErr, l.changed
		if down && !left && !l.redialing {
			n.closeMu.Lock()
			if !n.isClosed() {
				l.redialing = true
				n.bg.Add(1)
				go n.redial(l)
			}
			n.closeMu.Unlock()
		}
		l.stMu.Unlock()
		switch {
		case left:
			return fmt.Errorf("wait for reconnection: peer %s left the table: %w", p, why)
		case !down:
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("wait for reconnection: peer %s: %w", p, ctx.Err())
		case <-n.closed:
			return fmt.Errorf("wait for reconnection: peer %s: %w: %w", p, ErrClosed, protocol.ErrPeerGone)
		}
	}
}

// redial opens a new outbound stream to the peer of l, retrying with
// backoff until it succeeds, the peer leaves or the node closes.
func (n *Node) redial(l *link) {
	defer n.bg.Done()
	id := l.info.ID
	wait := firstRetry
	for attempt := 1; ; attempt++ {
		if l.downError() == nil {
			l.markUp() // clears redialing
			return
		}
		err := n.openOutbound(n.bgCtx, l)
		if err == nil {
			n.log.Info("reconnected to peer", "peer", id.String(), "attempt", attempt)
			l.markUp()
			return
		}
		n.log.Debug("redial failed", "peer", id.String(), "attempt", attempt, "err", err)
		jitter := time.Duration(rand.Int64N(int64(wait)/2)) - wait/4
		timer := time.NewTimer(wait + jitter)
		select {
		case <-n.closed:
			timer.Stop()
			return
		case <-timer.C:
		}
		l.stMu.Lock()
		left := l.left
		l.stMu.Unlock()
		if left {
			return
		}
		wait = min(2*wait, maxRetry)
	}
}
