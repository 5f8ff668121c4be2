package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
)

// closeGrace bounds how long Close waits for each peer to confirm it read
// everything sent on the outbound stream.
const closeGrace = 2 * time.Second

var _ protocol.Transport = (*Node)(nil)

// ErrEmptyMessage is returned (wrapped, naming the peer) by Send for an
// empty message: the empty frame is the goodbye a closing node sends
// (Close), telling its peers it left for good rather than lost its
// connection.
var ErrEmptyMessage = errors.New("empty message (the empty frame is the goodbye of a closing node)")

// link returns the table entry of peer p, or an error naming p if the table
// is not set or p is not in it.
func (n *Node) link(p peer.ID) (*link, error) {
	t := n.table.Load()
	if t == nil {
		return nil, fmt.Errorf("peer %s: %w (peer table not set)", p, ErrNotInTable)
	}
	l, ok := t.links[p]
	if !ok {
		return nil, fmt.Errorf("peer %s: %w", p, ErrNotInTable)
	}
	return l, nil
}

// Send implements protocol.Transport: it writes msg (at most
// protocol.MaxMessageSize bytes) as one varint-length-delimited frame on
// the long-lived outbound stream to peer to, opening it with one dial
// attempt if Connect has not. It returns once the frame is handed to the
// stream, without waiting for the peer to read it. The write is bounded by
// ctx and by Config.WriteTimeout, so a stalled peer cannot block it for
// ever. Concurrent Sends to one peer are serialized; their frames never
// interleave.
//
// Errors name the peer: ErrNotInTable for a peer outside the table,
// ErrFrameTooLarge for an oversized msg, ErrEmptyMessage for an empty one
// (the empty frame is a closing node's goodbye), ctx's error if ctx is done before
// writing, ErrClosed after Close. A failed write resets the stream (a
// partial frame would corrupt the framing), so it and every later Send to
// that peer return an error wrapping protocol.ErrPeerGone (and ctx's error
// or the stream's, for the first).
func (n *Node) Send(ctx context.Context, to peer.ID, msg []byte) error {
	l, err := n.link(to)
	if err != nil {
		return fmt.Errorf("send: %w", err)
	}
	if len(msg) > protocol.MaxMessageSize {
		return fmt.Errorf("send: peer %s: %w", to, errFrameTooLarge{size: len(msg)})
	}
	if len(msg) == 0 {
		return fmt.Errorf("send: peer %s: %w", to, ErrEmptyMessage)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("send: peer %s: %w", to, err)
	}
	if n.isClosed() {
		return fmt.Errorf("send: peer %s: %w", to, ErrClosed)
	}
	if err := l.downError(); err != nil {
		return fmt.Errorf("send: peer %s: connection down (WaitUp redials): %w", to, err)
	}
	if err := n.openOutbound(ctx, l); err != nil {
		return fmt.Errorf("send: %w", err)
	}

	l.outMu.Lock()
	defer l.outMu.Unlock()
	if l.outErr != nil {
		return fmt.Errorf("send: %w", l.outErr)
	}
	s := l.out
	if s == nil {
		return fmt.Errorf("send: peer %s: no outbound stream: %w", to, protocol.ErrPeerGone)
	}
	deadline := time.Now().Add(n.writeTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = s.SetWriteDeadline(deadline)
	// Cancelling ctx interrupts a blocked write by moving the deadline to
	// the past. If the callback has started, wait for it to finish so it
	// cannot move the next Send's deadline.
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = s.SetWriteDeadline(time.Unix(1, 0))
		close(interrupted)
	})
	err = l.writer.WriteMsg(msg)
	if !stop() {
		<-interrupted
	}
	if err == nil {
		return nil
	}
	_ = s.Reset()
	l.out, l.writer = nil, nil
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = fmt.Errorf("%w (%w)", ctxErr, err)
	}
	lostErr := fmt.Errorf("peer %s: outbound stream reset after a failed send (%v): %w", to, err, protocol.ErrPeerGone)
	n.log.Warn("send failed, stream reset", "peer", to.String(), "bytes", len(msg), "err", err)
	l.markDown(lostErr, false)
	return fmt.Errorf("send: peer %s: %d bytes: %w: %w", to, len(msg), err, protocol.ErrPeerGone)
}

// Recv implements protocol.Transport: it returns the next message from
// peer from, in the order the peer sent them, blocking until one arrives.
// Messages that arrived before the connection dropped are still returned
// first. Every loss of the connection is then reported once, with an
// error wrapping protocol.ErrPeerGone, even if the link came back before
// Recv looked; while the link is down Recv keeps returning that error
// (WaitUp waits for it to come back).
//
// Errors name the peer and wrap: ErrNotInTable for a peer outside the
// table; ctx's error when ctx is done first ("no message within the
// deadline" for context.DeadlineExceeded); protocol.ErrPeerGone once the
// peer's stream closed, was reset or its connection dropped, and
// additionally ErrFrameTooLarge (with the size in bytes) if the peer sent a
// frame over protocol.MaxMessageSize; ErrClosed after Close.
func (n *Node) Recv(ctx context.Context, from peer.ID) ([]byte, error) {
	l, err := n.link(from)
	if err != nil {
		return nil, fmt.Errorf("recv: %w", err)
	}
	for {
		// A queued message wins over a done ctx or a departed peer.
		select {
		case msg := <-l.inbox:
			return msg, nil
		default:
		}
		changed, gone := l.recvState()
		if gone != nil {
			return nil, fmt.Errorf("recv: %w", gone)
		}
		select {
		case msg := <-l.inbox:
			return msg, nil
		case <-changed:
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("recv: peer %s: no message within the deadline: %w", from, ctx.Err())
			}
			return nil, fmt.Errorf("recv: peer %s: %w", from, ctx.Err())
		case <-n.closed:
			return nil, fmt.Errorf("recv: peer %s: %w", from, ErrClosed)
		}
	}
}

// closeOutbound sends every peer the goodbye (an empty frame: the
// protocol never sends one), half-closes every outbound stream and waits, at most
// closeGrace, for each peer to confirm by closing its side that it read
// everything: QUIC and yamux would otherwise drop frames still buffered
// when the connection shuts down.
func (n *Node) closeOutbound() {
	t := n.table.Load()
	if t == nil {
		return
	}
	var wg sync.WaitGroup
	for _, id := range t.order {
		l := t.links[id]
		l.outMu.Lock()
		s := l.out
		if l.writer != nil {
			// The goodbye: an empty frame says this node is leaving for
			// good, not dropping its connection (see endInbound).
			_ = s.SetWriteDeadline(time.Now().Add(closeGrace))
			_ = l.writer.WriteMsg(nil)
		}
		l.out, l.writer = nil, nil
		if l.outErr == nil {
			l.outErr = fmt.Errorf("peer %s: %w", id, ErrClosed)
		}
		l.outMu.Unlock()
		if s != nil {
			wg.Go(func() { drainClose(s) })
		}
	}
	wg.Wait()
}

// drainClose closes s for writing, reads until the peer closes its side
// (it sends nothing else on this stream) or closeGrace passes, and frees s.
func drainClose(s network.Stream) {
	_ = s.SetWriteDeadline(time.Now().Add(closeGrace))
	if err := s.CloseWrite(); err != nil {
		_ = s.Reset()
		return
	}
	_ = s.SetReadDeadline(time.Now().Add(closeGrace))
	if _, err := io.Copy(io.Discard, s); err != nil {
		_ = s.Reset()
		return
	}
	_ = s.Close()
}
