package spectate

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/gossipscore"
	"github.com/mentalmj/mentalmj/node/spectate/pb"
	"github.com/mentalmj/mentalmj/protocol"
)

// MaxMessageSize bounds a topic message: a protocol message and its
// Published wrapper.
const MaxMessageSize = protocol.MaxMessageSize + 4096

// outboundQueue is the messages gossipsub queues per peer (and for
// validation) before it drops one.
const outboundQueue = 4096

// playersWait is how long the validator holds a message of a player other
// than the host while the host's Hello, which names the players, has not
// arrived.
const playersWait = 10 * time.Second

// Options tune a Publisher or a Watch; the zero value takes the
// defaults.
type Options struct {
	// Logger receives what was dropped and why; nil discards.
	Logger *slog.Logger
	// OnReject, if not nil, is told of every message the validator
	// rejected, on a goroutine of gossipsub; it must not block.
	OnReject func(Rejection)
	// CatchUpEvery and CatchUpBytes bound the Publisher's catch-up
	// (CatchUpProtocol): how often one peer may ask, and the bytes of
	// messages one answer holds at most; 0 takes CatchUpEvery and
	// CatchUpBytes. A Watch asks at most once per CatchUpEvery (the
	// host's limit).
	CatchUpEvery time.Duration
	CatchUpBytes int
}

// Rejection is a topic message the validator rejected.
type Rejection struct {
	// From is the peer that delivered it; Author the peer that signed it
	// as gossipsub's author (they differ when it was forwarded).
	From, Author peer.ID
	// Reason says what was wrong.
	Reason string
}

func (r Rejection) String() string {
	if r.From == r.Author {
		return fmt.Sprintf("rejected a message from peer %s: %s", r.Author, r.Reason)
	}
	return fmt.Sprintf("rejected a message of peer %s, forwarded by %s: %s", r.Author, r.From, r.Reason)
}

// maxBurst bounds the entries of one topic message (pb.Published's
// envelope and more; SPEC.md §25): a message is at most MaxMessageSize
// bytes, and an envelope is never under 64 (its signature alone).
const maxBurst = MaxMessageSize / 64

// published is a validated entry (the pubsub ValidatorData is a message's
// entries, []*published). author
// is its publisher (the host), whose index orders the stream; the entry's
// own signer is entry.Sender.
type published struct {
	author peer.ID
	index  uint64
	entry  *protocol.Opened
}

// session is a node's membership of one table's topic.
type session struct {
	opt   Options
	table string
	host  peer.ID
	// self is this node's peer ID; publisher says it is the host's node,
	// which publishes (then its own messages skip the validator's checks:
	// validate).
	self      peer.ID
	publisher bool
	ps        *pubsub.PubSub
	topic     *pubsub.Topic
	sub       *pubsub.Subscription

	joined time.Time // when the topic was joined

	mu      sync.Mutex
	players map[peer.ID]bool // nil until known
	known   chan struct{}    // closed when players is set
	cancel  context.CancelFunc

	// noHello is signalled (without blocking) when check holds an entry
	// because the host's Hello, which names the players, has not come:
	// Watch.Run then asks the host for it (askForHello).
	noHello chan struct{}
}

// The host's mesh on the topic (gossipsub's D, Dlo, Dhi, Dscore, Dout
// and Dlazy for the publisher): it sends each message to publisherD
// spectators and the spectators forward it to each other, so the host's
// bytes do not grow with their number (SPEC.md §25; docs/BENCHMARKS.md,
// "Live spectators"). It gossips to no one (Dlazy 0, and a gossip factor
// of 0): an IHAVE from the host draws IWANTs, full copies, from
// spectators about to get the message from a neighbour (with Dlazy 1 and
// the default factor, 20 spectators cost the host 2.5–3 copies instead
// of 2); the spectators gossip among themselves.
const (
	publisherD     = 2
	publisherDlo   = 1
	publisherDhi   = 2
	publisherDlazy = 0
)

// routerOptions are gossipsub's options for the topic's host (publisher)
// or a spectator: peer scoring, StrictSign, the size bound and deep
// queues for both; the host publishes to its small mesh only (no flood
// publishing), a spectator keeps gossipsub's default mesh.
func routerOptions(name string, publisher bool) []pubsub.Option {
	params, thresholds := gossipscore.Params(name)
	opts := []pubsub.Option{
		pubsub.WithPeerScore(params, thresholds),
		pubsub.WithMessageSignaturePolicy(pubsub.StrictSign),
		pubsub.WithMaxMessageSize(MaxMessageSize),
		pubsub.WithPeerExchange(true),
		// A hand is bursts of entries (a player's passes and key
		// releases at once): gossipsub's default queue of 32 messages
		// per peer drops some, and a spectator missing one entry holds
		// back all the later ones.
		pubsub.WithPeerOutboundQueueSize(outboundQueue),
		pubsub.WithValidateQueueSize(outboundQueue),
	}
	if publisher {
		gp := pubsub.DefaultGossipSubParams()
		gp.D, gp.Dlo, gp.Dhi, gp.Dscore, gp.Dout, gp.Dlazy = publisherD, publisherDlo, publisherDhi, publisherDlo, 0, publisherDlazy
		gp.GossipFactor = 0
		opts = append(opts, pubsub.WithGossipSubParams(gp), pubsub.WithFloodPublish(false))
	}
	return opts
}

// join starts gossipsub on h with peer scoring and the table's validator
// and subscribes to the topic of (table, hostID), as its publisher (the
// host's own node) or a spectator. players are the table's players when
// known (the host's node); nil for a spectator, which learns them from
// the host's Hello.
func join(ctx context.Context, h host.Host, table string, hostID peer.ID, players []peer.ID, publisher bool, opt Options) (*session, error) {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	s := &session{opt: opt, table: table, host: hostID, self: h.ID(), publisher: publisher, known: make(chan struct{}), noHello: make(chan struct{}, 1)}
	if players != nil {
		s.setPlayers(players)
	}
	ctx, s.cancel = context.WithCancel(ctx)
	name := Topic(table, hostID)
	ps, err := pubsub.NewGossipSub(ctx, h, routerOptions(name, publisher)...)
	if err != nil {
		s.cancel()
		return nil, fmt.Errorf("spectators: gossipsub: %w", err)
	}
	if err := ps.RegisterTopicValidator(name, s.validate); err != nil {
		s.cancel()
		return nil, fmt.Errorf("spectators: validator: %w", err)
	}
	if s.topic, err = ps.Join(name); err != nil {
		s.cancel()
		return nil, fmt.Errorf("spectators: join %s: %w", name, err)
	}
	if s.sub, err = s.topic.Subscribe(pubsub.WithBufferSize(1024)); err != nil {
		s.cancel()
		return nil, fmt.Errorf("spectators: subscribe %s: %w", name, err)
	}
	s.ps = ps
	s.joined = time.Now()
	return s, nil
}

func (s *session) close() {
	s.sub.Cancel()
	_ = s.topic.Close()
	s.cancel()
}

// setPlayers fixes the table's players (once).
func (s *session) setPlayers(ps []peer.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.players != nil {
		return
	}
	s.players = map[peer.ID]bool{}
	for _, p := range ps {
		s.players[p] = true
	}
	close(s.known)
}

// playersKnown reports whether the host's Hello has named the players.
func (s *session) playersKnown() bool {
	select {
	case <-s.known:
		return true
	default:
		return false
	}
}

// isPlayer waits (up to playersWait, or ctx) for the players to be known
// and reports whether p is one. While it waits, noHello is signalled.
func (s *session) isPlayer(ctx context.Context, p peer.ID) (bool, error) {
	if !s.playersKnown() {
		select {
		case s.noHello <- struct{}{}:
		default:
		}
	}
	select {
	case <-s.known:
	case <-ctx.Done():
		return false, ctx.Err()
	case <-time.After(playersWait):
		return false, fmt.Errorf("the host's Hello, which names the players, has not come within %v", playersWait)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.players[p], nil
}

// validate is the topic validator (SPEC.md §25): Reject for a message no
// honest host publishes — oversized, malformed, published by anyone but
// the host, an entry whose signature fails, a private entry, an entry
// signed by someone not at the table; Ignore while the players are not
// known yet; Accept otherwise, with the published entry as ValidatorData.
//
// The host's node accepts its own publications unchecked: gossipsub runs
// the validator on a local Publish too (from is then the node's own ID,
// which no remote peer can be: libp2p's secure channel authenticates the
// peer that delivers a message), and what the Publisher publishes is
// what the node's game recorded, every entry already opened and checked
// by protocol.Game. Checking it again was most of the host's publishing
// cost (docs/BENCHMARKS.md, "Live spectators"). Every message another
// peer delivers, to the host or a spectator, is checked in full.
func (s *session) validate(ctx context.Context, from peer.ID, m *pubsub.Message) pubsub.ValidationResult {
	author := m.GetFrom()
	if s.publisher && from == s.self && author == s.self {
		return pubsub.ValidationAccept
	}
	reject := func(format string, args ...any) pubsub.ValidationResult {
		s.rejected(Rejection{From: from, Author: author, Reason: fmt.Sprintf(format, args...)})
		return pubsub.ValidationReject
	}
	if len(m.Data) > MaxMessageSize {
		return reject("%d bytes, at most %d", len(m.Data), MaxMessageSize)
	}
	if author != s.host {
		return reject("published by %s: only the table's host (%s) publishes on its topic", author, s.host)
	}
	var msg pb.Published
	if err := proto.Unmarshal(m.Data, &msg); err != nil {
		return reject("malformed: %v", err)
	}
	if len(msg.More)+1 > maxBurst {
		return reject("%d entries in one message, at most %d", len(msg.More)+1, maxBurst)
	}
	var ps []*published
	for i, env := range append([][]byte{msg.Envelope}, msg.More...) {
		p, why := s.check(msg.Index+uint64(i), env)
		switch {
		case why == "" && p == nil:
			return pubsub.ValidationIgnore
		case why != "":
			return reject("%s", why)
		}
		p.author = author
		ps = append(ps, p)
	}
	m.ValidatorData = ps
	return pubsub.ValidationAccept
}

// rejected logs r and tells Options.OnReject.
func (s *session) rejected(r Rejection) {
	s.opt.Logger.Info("spectators: " + r.String())
	if s.opt.OnReject != nil {
		s.opt.OnReject(r)
	}
}

// check checks a published entry as the topic's validator does (and the
// catch-up, CatchUp, for each message the host sends): the envelope's
// signature, no recipient, the host's Hello for the link's table (it
// names the players), a signer who is a player. It returns the entry, or
// why it is refused; (nil, "") while the players are not known yet.
func (s *session) check(index uint64, envelope []byte) (*published, string) {
	o, err := protocol.Open(envelope)
	if err != nil {
		return nil, fmt.Sprintf("entry %d does not verify: %v", index, err)
	}
	if o.Recipient != "" {
		return nil, fmt.Sprintf("a private entry (to %s): the host never publishes one", o.Recipient)
	}
	if h := o.Entry.GetHello(); h != nil && o.Sender == s.host {
		if h.Table != s.table {
			return nil, fmt.Sprintf("the host's Hello is for table %q, the link names %q", h.Table, s.table)
		}
		var ps []peer.ID
		for i, b := range h.Peers {
			p, err := peer.IDFromBytes(b)
			if err != nil {
				return nil, fmt.Sprintf("the host's Hello: peer %d: %v", i+1, err)
			}
			ps = append(ps, p)
		}
		s.setPlayers(ps)
	}
	ok, err := s.isPlayer(context.Background(), o.Sender)
	if err != nil {
		s.opt.Logger.Debug("spectators: message held back", "signer", o.Sender, "err", err)
		return nil, ""
	}
	if !ok {
		return nil, fmt.Sprintf("entry %d is signed by %s, not a player of the table", index, o.Sender)
	}
	return &published{index: index, entry: o}, ""
}
