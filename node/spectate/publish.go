package spectate

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/spectate/pb"
	"github.com/mentalmj/mentalmj/protocol"
)

// firstPeerWait bounds how long a Publisher holds its first message for
// the other players to be peers of the topic.
const firstPeerWait = 10 * time.Second

// heartbeat is gossipsub's heartbeat interval (pubsub.GossipSubHeartbeatInterval,
// 1 s): the mesh is repaired at each.
const heartbeat = time.Second

// Publisher is a player's side of the table's topic: it publishes the
// player's public entries (Publish, given to protocol.Config.Publish) in
// order, and forwards the other players' for the spectators.
type Publisher struct {
	s    *session
	self peer.ID

	mu      sync.Mutex
	queue   []*pb.Published
	wake    chan struct{}
	closing bool
	done    chan struct{}
	drained chan struct{}
}

// NewPublisher joins the topic of the table (table, hostID) on h, whose
// players are players (h's own ID among them). It returns gossipsub's
// errors. Close it when the game is over.
func NewPublisher(ctx context.Context, h host.Host, table string, hostID peer.ID, players []peer.ID, opt Options) (*Publisher, error) {
	s, err := join(ctx, h, table, hostID, slices.Clone(players), opt)
	if err != nil {
		return nil, err
	}
	p := &Publisher{s: s, self: h.ID(), wake: make(chan struct{}, 1), done: make(chan struct{}), drained: make(chan struct{})}
	go p.drain(ctx)
	go p.run(ctx)
	return p, nil
}

// Publish queues e for the topic and returns at once (it is called on the
// game's goroutine).
func (p *Publisher) Publish(e protocol.PublicEntry) {
	m := &pb.Published{Envelope: e.Envelope, Index: e.Index}
	for q, n := range e.After {
		m.After = append(m.After, &pb.Clock{Peer: []byte(q), Count: n})
	}
	slices.SortFunc(m.After, func(a, b *pb.Clock) int { return slices.Compare(a.Peer, b.Peer) })
	p.mu.Lock()
	p.queue = append(p.queue, m)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Close publishes what is queued and keeps forwarding the others'
// entries for linger in all (gossipsub sends from its own queues after
// Publish returns, and the other players' last entries may still pass
// through this node), then leaves the topic.
func (p *Publisher) Close(linger time.Duration) {
	end := time.Now().Add(linger)
	p.mu.Lock()
	p.closing = true
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
	select {
	case <-p.done:
	case <-time.After(linger):
	}
	time.Sleep(time.Until(end))
	p.s.opt.Logger.Debug("spectators: leaving the topic", "topic_peers", p.s.topic.ListPeers())
	p.s.close()
	<-p.drained
}

// run publishes the queue in order.
func (p *Publisher) run(ctx context.Context) {
	defer close(p.done)
	waited := false
	for {
		p.mu.Lock()
		q, closing := p.queue, p.closing
		p.queue = nil
		p.mu.Unlock()
		if len(q) > 0 && !waited {
			p.waitPeers(ctx)
			waited = true
			p.s.opt.Logger.Debug("spectators: publishing", "topic_peers", p.s.topic.ListPeers())
		}
		for _, m := range q {
			b, err := proto.Marshal(m)
			if err == nil {
				err = p.s.topic.Publish(ctx, b)
			}
			if err != nil {
				p.s.opt.Logger.Info("spectators: entry not published", "index", m.Index, "err", err)
			}
		}
		if len(q) > 0 {
			continue
		}
		if closing {
			return
		}
		select {
		case <-p.wake:
		case <-ctx.Done():
			return
		}
	}
}

// waitPeers waits until every other player is a peer of the topic (up
// to firstPeerWait), and until a gossipsub heartbeat after the topic was
// joined, for the meshes to form: published before, the first entries (the Hellos, without which a
// spectator cannot audit) would reach only part of the topic.
func (p *Publisher) waitPeers(ctx context.Context) {
	deadline := time.Now().Add(firstPeerWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		in := p.s.topic.ListPeers()
		all := true
		p.s.mu.Lock()
		for q := range p.s.players {
			if q != p.self && !slices.Contains(in, q) {
				all = false
			}
		}
		p.s.mu.Unlock()
		if all {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Until(p.s.joined.Add(heartbeat))):
	}
}

// drain reads (and drops) what the topic delivers to this player: it
// subscribes only to be in the mesh and forward.
func (p *Publisher) drain(ctx context.Context) {
	defer close(p.drained)
	for {
		if _, err := p.s.sub.Next(ctx); err != nil {
			return
		}
	}
}
