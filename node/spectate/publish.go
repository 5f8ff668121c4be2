package spectate

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/spectate/pb"
	"github.com/mentalmj/mentalmj/protocol"
)

// firstSpectatorWait bounds how long the Publisher holds its first
// message for a spectator to be in the topic; with none by then it
// publishes anyway (a spectator that comes later catches up: CatchUp).
const firstSpectatorWait = 2 * time.Second

// Publisher is the table's host's side of the topic: it publishes every
// public entry the host records (Publish, given to
// protocol.Config.Publish), its own and the other players', in the
// order recorded. The other players do not join the topic: each entry
// leaves the table once, to the host's small mesh, and the spectators
// forward it to each other.
type Publisher struct {
	s  *session
	h  host.Host
	cu *catchUpServer

	mu      sync.Mutex
	queue   []*pb.Published
	wake    chan struct{}
	closing bool
	done    chan struct{}
	drained chan struct{}

	sent atomic.Int64 // messages handed to gossipsub so far (BenchmarkSpectators waits for them)
}

// NewPublisher joins, as its publisher, the topic of the table named
// table that h's node hosts (Topic(table, h.ID())), whose players are
// players (h's own ID among them). It returns gossipsub's errors. Close
// it when the game is over.
func NewPublisher(ctx context.Context, h host.Host, table string, players []peer.ID, opt Options) (*Publisher, error) {
	s, err := join(ctx, h, table, h.ID(), slices.Clone(players), true, opt)
	if err != nil {
		return nil, err
	}
	p := &Publisher{s: s, h: h, wake: make(chan struct{}, 1), done: make(chan struct{}), drained: make(chan struct{})}
	p.cu = &catchUpServer{table: table, every: opt.CatchUpEvery, bytes: opt.CatchUpBytes, last: map[peer.ID]time.Time{}, log: s.opt.Logger.Info}
	if p.cu.every <= 0 {
		p.cu.every = CatchUpEvery
	}
	if p.cu.bytes <= 0 {
		p.cu.bytes = CatchUpBytes
	}
	h.SetStreamHandler(CatchUpProtocol, p.cu.handle)
	go p.drain(ctx)
	go p.run(ctx)
	return p, nil
}

// Publish queues e for the topic and returns at once (it is called on the
// game's goroutine).
func (p *Publisher) Publish(e protocol.PublicEntry) {
	m := &pb.Published{Envelope: e.Envelope, Index: e.Index}
	p.mu.Lock()
	p.queue = append(p.queue, m)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Republish queues again the public entries of records (the transcript
// this node wrote, being resumed: protocol.Resume.Records) of its last
// two hands, numbered as protocol.Config.Publish numbers them (the
// public entries of the whole transcript, from 0). Those the crash kept
// from going out would otherwise hold back the spectators for good;
// spectators keep the first copy of each index (SPEC.md §25). The earlier
// hands' public entries are not published again but kept for the
// catch-up (CatchUpProtocol), so that a spectator joining after the
// resume can still audit every hand.
func (p *Publisher) Republish(records []*protocol.Opened) {
	var public []*protocol.Opened
	for _, o := range records {
		if o.Recipient == "" {
			public = append(public, o)
		}
	}
	if len(public) == 0 {
		return
	}
	from := public[len(public)-1].Entry.Hand
	if from > 0 {
		from--
	}
	for i, o := range public {
		if o.Entry.Hand >= from {
			p.Publish(protocol.PublicEntry{Envelope: o.Envelope, Sender: o.Sender, Index: uint64(i)})
			continue
		}
		m := &pb.Published{Envelope: o.Envelope, Index: uint64(i)}
		if b, err := proto.Marshal(m); err == nil {
			p.cu.record(m, b)
		}
	}
}

// CatchUps returns how many catch-up requests (CatchUpProtocol) the
// Publisher answered and refused so far.
func (p *Publisher) CatchUps() (served, refused int) {
	p.cu.mu.Lock()
	defer p.cu.mu.Unlock()
	return p.cu.served, p.cu.refused
}

// Close publishes what is queued and stays in the topic for linger in
// all (gossipsub sends from its own queues after Publish returns, and
// answers the spectators' requests for what they missed), then leaves
// it.
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
	p.h.RemoveStreamHandler(CatchUpProtocol)
	p.s.opt.Logger.Debug("spectators: leaving the topic", "topic_peers", p.s.topic.ListPeers())
	p.s.close()
	<-p.drained
}

// run publishes the queue in order.
func (p *Publisher) run(ctx context.Context) {
	defer close(p.done)
	first := true
	for {
		p.mu.Lock()
		q, closing := p.queue, p.closing
		p.queue = nil
		p.mu.Unlock()
		for rest := q; len(rest) > 0; {
			n := burst(rest)
			for _, m := range rest[:n] {
				if b, err := proto.Marshal(m); err == nil {
					p.cu.record(m, b)
				}
			}
			msg := &pb.Published{Envelope: rest[0].Envelope, Index: rest[0].Index}
			for _, m := range rest[1:n] {
				msg.More = append(msg.More, m.Envelope)
			}
			b, err := proto.Marshal(msg)
			if err == nil {
				err = p.publish(ctx, b, first)
				first = false
			}
			if err != nil {
				p.s.opt.Logger.Info("spectators: entries not published", "index", msg.Index, "entries", n, "err", err)
			}
			p.sent.Add(int64(n))
			rest = rest[n:]
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

// burst returns how many of the queued messages q (at least one) go out
// as one topic message (pb.Published.more, SPEC.md §25): those with
// consecutive indexes from q[0]'s, at most maxBurst of them, whose
// envelopes total at most protocol.MaxMessageSize bytes. One gossipsub
// message, signed once, for a burst of entries (a player's passes, its
// key releases at once) costs the host less than one each.
func burst(q []*pb.Published) int {
	n, size := 1, len(q[0].Envelope)
	for n < len(q) && n < maxBurst && q[n].Index == q[0].Index+uint64(n) && size+len(q[n].Envelope)+4 <= protocol.MaxMessageSize {
		size += len(q[n].Envelope) + 4
		n++
	}
	return n
}

// publish publishes m; the first message waits until the host's mesh on
// the topic holds a spectator (gossipsub's readiness, MinTopicSize(1): the
// host publishes to its mesh only), up to firstSpectatorWait, since
// published before, the first entries (the Hellos, without which a
// spectator cannot audit) would reach no one.
func (p *Publisher) publish(ctx context.Context, b []byte, first bool) error {
	if first {
		wctx, cancel := context.WithTimeout(ctx, firstSpectatorWait)
		err := p.s.topic.Publish(wctx, b, pubsub.WithReadiness(pubsub.MinTopicSize(1)))
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		p.s.opt.Logger.Debug("spectators: no spectator in the mesh yet; publishing anyway", "err", err)
	}
	return p.s.topic.Publish(ctx, b)
}

// drain reads (and drops) what the topic delivers to the host (its own
// messages): it subscribes only to be in the mesh.
func (p *Publisher) drain(ctx context.Context) {
	defer close(p.drained)
	for {
		if _, err := p.s.sub.Next(ctx); err != nil {
			return
		}
	}
}
