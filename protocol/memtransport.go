package protocol

import (
	"context"
	"fmt"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"
)

// MemNetwork connects in-process players without a network, for tests,
// simulations and benchmarks of the protocol alone. Each ordered pair of
// peers has an unbounded FIFO queue.
type MemNetwork struct {
	mu     sync.Mutex
	queues map[[2]peer.ID]*memQueue
	closed map[peer.ID]bool
	// cut holds, for each peer whose connections are cut (Cut), a channel
	// closed when they are restored.
	cut map[peer.ID]chan struct{}
}

type memQueue struct {
	mu    sync.Mutex
	msgs  [][]byte
	ready chan struct{} // closed and replaced when a message arrives
	gone  bool
	down  bool // cut: messages in flight were lost, Send and Recv fail
	// epoch counts the cuts; seen is the epoch the reader was last told
	// of, so that a reader learns of every cut (ErrPeerGone once) even if
	// the connection was restored before it looked.
	epoch, seen int
}

// NewMemNetwork returns an empty in-memory network.
func NewMemNetwork() *MemNetwork {
	return &MemNetwork{queues: map[[2]peer.ID]*memQueue{}, closed: map[peer.ID]bool{}, cut: map[peer.ID]chan struct{}{}}
}

func (n *MemNetwork) queue(from, to peer.ID) *memQueue {
	n.mu.Lock()
	defer n.mu.Unlock()
	q := n.queues[[2]peer.ID{from, to}]
	if q == nil {
		q = &memQueue{ready: make(chan struct{}), down: n.cut[from] != nil || n.cut[to] != nil}
		n.queues[[2]peer.ID{from, to}] = q
	}
	return q
}

// Transport returns the Transport of player self on this network. It
// implements Reconnecting: after Cut(p), WaitUp waits for Restore(p).
func (n *MemNetwork) Transport(self peer.ID) Transport { return &memTransport{n: n, self: self} }

// Cut drops every connection of peer p, as a network failure or a crash of
// p's node would: the messages in flight to and from p are lost, Send and
// Recv on them report ErrPeerGone, and WaitUp waits until Restore(p).
func (n *MemNetwork) Cut(p peer.ID) {
	n.mu.Lock()
	if n.cut[p] == nil {
		n.cut[p] = make(chan struct{})
	}
	var qs []*memQueue
	for k, q := range n.queues {
		if k[0] == p || k[1] == p {
			qs = append(qs, q)
		}
	}
	n.mu.Unlock()
	for _, q := range qs {
		q.mu.Lock()
		q.down, q.msgs = true, nil
		q.epoch++
		close(q.ready)
		q.ready = make(chan struct{})
		q.mu.Unlock()
	}
}

// Restore reconnects peer p after Cut(p).
func (n *MemNetwork) Restore(p peer.ID) {
	n.mu.Lock()
	up := n.cut[p]
	delete(n.cut, p)
	var qs []*memQueue
	for k, q := range n.queues {
		if (k[0] == p || k[1] == p) && n.cut[k[0]] == nil && n.cut[k[1]] == nil {
			qs = append(qs, q)
		}
	}
	n.mu.Unlock()
	for _, q := range qs {
		q.mu.Lock()
		q.down = false
		q.mu.Unlock()
	}
	if up != nil {
		close(up)
	}
}

// Disconnect makes every queue from p report ErrPeerGone once drained, as
// if p's node had crashed.
func (n *MemNetwork) Disconnect(p peer.ID) {
	n.mu.Lock()
	var qs []*memQueue
	for k, q := range n.queues {
		if k[0] == p {
			qs = append(qs, q)
		}
	}
	n.closed[p] = true
	n.mu.Unlock()
	for _, q := range qs {
		q.mu.Lock()
		q.gone = true
		close(q.ready)
		q.ready = make(chan struct{})
		q.mu.Unlock()
	}
}

type memTransport struct {
	n    *MemNetwork
	self peer.ID
}

func (t *memTransport) Send(_ context.Context, to peer.ID, msg []byte) error {
	if len(msg) > MaxMessageSize {
		return fmt.Errorf("message to %s: %d bytes exceeds %d", to, len(msg), MaxMessageSize)
	}
	q := t.n.queue(t.self, to)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.gone || q.down {
		return fmt.Errorf("send to %s: %w", to, ErrPeerGone)
	}
	q.msgs = append(q.msgs, append([]byte(nil), msg...))
	close(q.ready)
	q.ready = make(chan struct{})
	return nil
}

func (t *memTransport) Recv(ctx context.Context, from peer.ID) ([]byte, error) {
	q := t.n.queue(from, t.self)
	for {
		q.mu.Lock()
		if q.seen != q.epoch {
			q.seen = q.epoch
			q.mu.Unlock()
			return nil, fmt.Errorf("peer %s: connection cut: %w", from, ErrPeerGone)
		}
		if len(q.msgs) > 0 {
			m := q.msgs[0]
			q.msgs = q.msgs[1:]
			q.mu.Unlock()
			return m, nil
		}
		if q.gone || q.down {
			q.mu.Unlock()
			return nil, fmt.Errorf("peer %s: %w", from, ErrPeerGone)
		}
		ready := q.ready
		q.mu.Unlock()
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, fmt.Errorf("peer %s: %w", from, ctx.Err())
		}
	}
}

// WaitUp implements Reconnecting: it returns once neither this player nor
// peer p is cut off, or with ctx's error, or ErrPeerGone (wrapped) if p
// was disconnected for good (Disconnect).
func (t *memTransport) WaitUp(ctx context.Context, p peer.ID) error {
	for {
		t.n.mu.Lock()
		gone := t.n.closed[p]
		var wait chan struct{}
		if c := t.n.cut[p]; c != nil {
			wait = c
		} else if c := t.n.cut[t.self]; c != nil {
			wait = c
		}
		t.n.mu.Unlock()
		switch {
		case gone:
			return fmt.Errorf("peer %s: %w", p, ErrPeerGone)
		case wait == nil:
			return nil
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return fmt.Errorf("peer %s: %w", p, ctx.Err())
		}
	}
}
