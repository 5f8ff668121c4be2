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
}

type memQueue struct {
	mu    sync.Mutex
	msgs  [][]byte
	ready chan struct{} // closed and replaced when a message arrives
	gone  bool
}

// NewMemNetwork returns an empty in-memory network.
func NewMemNetwork() *MemNetwork {
	return &MemNetwork{queues: map[[2]peer.ID]*memQueue{}, closed: map[peer.ID]bool{}}
}

func (n *MemNetwork) queue(from, to peer.ID) *memQueue {
	n.mu.Lock()
	defer n.mu.Unlock()
	q := n.queues[[2]peer.ID{from, to}]
	if q == nil {
		q = &memQueue{ready: make(chan struct{})}
		n.queues[[2]peer.ID{from, to}] = q
	}
	return q
}

// Transport returns the Transport of player self on this network.
func (n *MemNetwork) Transport(self peer.ID) Transport { return &memTransport{n: n, self: self} }

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
	if q.gone {
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
		if len(q.msgs) > 0 {
			m := q.msgs[0]
			q.msgs = q.msgs[1:]
			q.mu.Unlock()
			return m, nil
		}
		if q.gone {
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
