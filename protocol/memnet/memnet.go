package memnet

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/protocol/transport"
)

// Network connects in-process players without a network, for tests,
// simulations and benchmarks of the protocol alone. Each ordered pair of
// peers has an unbounded FIFO queue, optionally delayed as a link across
// the world would be (SetLatency, SetLink; package latency).
type Network struct {
	mu     sync.Mutex
	queues map[[2]peer.ID]*memQueue
	// all is the delay of every link not in links; seed numbers the
	// links' jitter streams.
	all    latency.Link
	links  map[[2]peer.ID]latency.Link
	seed   uint64
	closed map[peer.ID]bool
	// cut holds, for each peer whose connections are cut (Cut), a channel
	// closed when they are restored.
	cut map[peer.ID]chan struct{}
}

type memQueue struct {
	mu    sync.Mutex
	msgs  []memMsg
	sched *latency.Schedule // nil: delivered at once
	ready chan struct{}     // closed and replaced when a message arrives
	gone  bool
	down  bool // cut: messages in flight were lost, Send and Recv fail
	// epoch counts the cuts; seen is the epoch the reader was last told
	// of, so that a reader learns of every cut (ErrPeerGone once) even if
	// the connection was restored before it looked.
	epoch, seen int
}

// memMsg is a message in flight and when it is delivered (zero: at once).
type memMsg struct {
	b  []byte
	at time.Time
}

// New returns an empty in-memory network.
func New() *Network {
	return &Network{queues: map[[2]peer.ID]*memQueue{}, links: map[[2]peer.ID]latency.Link{}, closed: map[peer.ID]bool{}, cut: map[peer.ID]chan struct{}{}}
}

// SetLatency delays every message on every link, in both directions, by
// l (latency.Link: one-way delay ± jitter, order kept), except the links
// given their own delay with SetLink. It applies to the messages sent
// after it; call it before the players start.
func (n *Network) SetLatency(l latency.Link) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.all = l
	for k, q := range n.queues {
		if _, own := n.links[k]; !own {
			q.setLink(l, n.nextSeed())
		}
	}
}

// SetLink delays the messages from peer from to peer to by l (one
// direction; call it again with the peers swapped for the other). It
// applies to the messages sent after it.
func (n *Network) SetLink(from, to peer.ID, l latency.Link) {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := [2]peer.ID{from, to}
	n.links[k] = l
	if q := n.queues[k]; q != nil {
		q.setLink(l, n.nextSeed())
	}
}

// nextSeed numbers the jitter streams; n.mu is held.
func (n *Network) nextSeed() uint64 {
	n.seed++
	return n.seed
}

func (q *memQueue) setLink(l latency.Link, seed uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.sched = nil
	if !l.Zero() {
		q.sched = latency.NewSchedule(l, seed)
	}
}

func (n *Network) queue(from, to peer.ID) *memQueue {
	n.mu.Lock()
	defer n.mu.Unlock()
	q := n.queues[[2]peer.ID{from, to}]
	if q == nil {
		q = &memQueue{ready: make(chan struct{}), down: n.cut[from] != nil || n.cut[to] != nil}
		l, own := n.links[[2]peer.ID{from, to}]
		if !own {
			l = n.all
		}
		if !l.Zero() {
			q.sched = latency.NewSchedule(l, n.nextSeed())
		}
		n.queues[[2]peer.ID{from, to}] = q
	}
	return q
}

// Transport returns the transport of player self on this network, for
// protocol.Config.Transport. It implements transport.Reconnecting: after
// Cut(p), WaitUp waits for Restore(p).
func (n *Network) Transport(self peer.ID) transport.Transport {
	return &memTransport{n: n, self: self}
}

var _ transport.Reconnecting = (*memTransport)(nil)

// Cut drops every connection of peer p, as a network failure or a crash of
// p's node would: the messages in flight to and from p are lost, Send and
// Recv on them report ErrPeerGone, and WaitUp waits until Restore(p).
func (n *Network) Cut(p peer.ID) {
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
func (n *Network) Restore(p peer.ID) {
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
func (n *Network) Disconnect(p peer.ID) {
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
	n    *Network
	self peer.ID
}

func (t *memTransport) Send(_ context.Context, to peer.ID, msg []byte) error {
	if len(msg) > transport.MaxMessageSize {
		return fmt.Errorf("message to %s: %d bytes exceeds %d", to, len(msg), transport.MaxMessageSize)
	}
	q := t.n.queue(t.self, to)
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.gone || q.down {
		return fmt.Errorf("send to %s: %w", to, transport.ErrPeerGone)
	}
	m := memMsg{b: append([]byte(nil), msg...)}
	if q.sched != nil {
		m.at = q.sched.Deliver(time.Now())
	}
	q.msgs = append(q.msgs, m)
	close(q.ready)
	q.ready = make(chan struct{})
	return nil
}

func (t *memTransport) Recv(ctx context.Context, from peer.ID) ([]byte, error) {
	q := t.n.queue(from, t.self)
	for {
		q.mu.Lock()
		if err := ctx.Err(); err != nil {
			// A reader that gave up (a crashed node's) takes nothing more:
			// what arrives is left for the next reader of the queue.
			q.mu.Unlock()
			return nil, fmt.Errorf("peer %s: %w", from, err)
		}
		if q.seen != q.epoch {
			q.seen = q.epoch
			q.mu.Unlock()
			return nil, fmt.Errorf("peer %s: connection cut: %w", from, transport.ErrPeerGone)
		}
		var early time.Duration // the next message is still in flight
		if len(q.msgs) > 0 {
			m := q.msgs[0]
			if early = time.Until(m.at); m.at.IsZero() || early <= 0 {
				q.msgs = q.msgs[1:]
				q.mu.Unlock()
				return m.b, nil
			}
		}
		if q.gone && len(q.msgs) == 0 || q.down {
			q.mu.Unlock()
			return nil, fmt.Errorf("peer %s: %w", from, transport.ErrPeerGone)
		}
		ready := q.ready
		q.mu.Unlock()
		var arrived <-chan time.Time
		var t *time.Timer
		if early > 0 {
			t = time.NewTimer(early)
			arrived = t.C
		}
		select {
		case <-ready:
		case <-arrived:
		case <-ctx.Done():
			return nil, fmt.Errorf("peer %s: %w", from, ctx.Err())
		}
		if t != nil {
			t.Stop()
		}
	}
}

// WaitUp implements transport.Reconnecting: it returns once neither this
// player nor peer p is cut off, or with ctx's error, or ErrPeerGone (wrapped) if p
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
			return fmt.Errorf("peer %s: %w", p, transport.ErrPeerGone)
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
