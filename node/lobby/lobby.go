package lobby

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"google.golang.org/protobuf/proto"

	"github.com/mentalmj/mentalmj/node/gossipscore"
	"github.com/mentalmj/mentalmj/node/lobby/pb"
	"github.com/mentalmj/mentalmj/riichi/settings"
)

// Topic is the lobby's gossipsub topic; Version the announcements'
// version field.
const (
	Topic   = "/mentalmj/lobby/1"
	Version = "mentalmj-lobby/1"
)

// MaxAnnouncementSize bounds an announcement's bytes (the invite is most
// of it).
const MaxAnnouncementSize = 2048

// Options tune the lobby; the zero value takes the defaults.
type Options struct {
	// MinInterval is the least time between two announcements of one
	// host (default 2 s).
	MinInterval time.Duration
	// Refresh is how often a host repeats its announcement while seats
	// are free (default 5 s; at least MinInterval).
	Refresh time.Duration
	// Expiry is how long a listener keeps a table not refreshed (default
	// three Refreshes).
	Expiry time.Duration
	// Logger receives what was dropped and why; nil discards.
	Logger *slog.Logger
	// Now is the clock; nil is time.Now (tests).
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	o.MinInterval = cmp.Or(o.MinInterval, 2*time.Second)
	o.Refresh = max(cmp.Or(o.Refresh, 5*time.Second), o.MinInterval)
	o.Expiry = cmp.Or(o.Expiry, 3*o.Refresh)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Table is one open table as a listener knows it.
type Table struct {
	*pb.Announcement
	// Host is the host's peer ID; Settings the decoded settings.
	Host     peer.ID
	Settings settings.Settings
	// Seen is when its last announcement arrived.
	Seen time.Time
}

// Lobby is a node's membership of the lobby topic: it lists the open
// tables and publishes this node's own.
type Lobby struct {
	opt   Options
	h     host.Host
	ps    *pubsub.PubSub
	topic *pubsub.Topic
	sub   *pubsub.Subscription
	lim   *limiter

	mu      sync.Mutex
	tables  map[peer.ID]Table
	changed chan struct{}       // closed and replaced at every change of tables
	scores  map[peer.ID]float64 // gossipsub's peer scores, every second
	cancel  context.CancelFunc
	done    chan struct{}
}

// Join starts gossipsub on h with peer scoring (gossipscore.Params) and the
// lobby's validator, joins Topic and starts listing tables until ctx ends
// or Close. It returns pubsub's errors.
func Join(ctx context.Context, h host.Host, opt Options) (*Lobby, error) {
	opt = opt.withDefaults()
	l := &Lobby{opt: opt, h: h, lim: newLimiter(opt.MinInterval, opt.Now), tables: map[peer.ID]Table{}, changed: make(chan struct{}), done: make(chan struct{})}
	ctx, l.cancel = context.WithCancel(ctx)
	params, thresholds := gossipscore.Params(Topic)
	ps, err := pubsub.NewGossipSub(ctx, h,
		pubsub.WithPeerScore(params, thresholds),
		pubsub.WithMessageSignaturePolicy(pubsub.StrictSign),
		pubsub.WithMaxMessageSize(64<<10),
		pubsub.WithFloodPublish(true),
		pubsub.WithPeerScoreInspect(func(m map[peer.ID]float64) {
			l.mu.Lock()
			l.scores = m
			l.mu.Unlock()
		}, time.Second),
	)
	if err != nil {
		l.cancel()
		return nil, fmt.Errorf("lobby: gossipsub: %w", err)
	}
	if err := ps.RegisterTopicValidator(Topic, l.validate); err != nil {
		l.cancel()
		return nil, fmt.Errorf("lobby: validator: %w", err)
	}
	if l.topic, err = ps.Join(Topic); err != nil {
		l.cancel()
		return nil, fmt.Errorf("lobby: join %s: %w", Topic, err)
	}
	if l.sub, err = l.topic.Subscribe(); err != nil {
		l.cancel()
		return nil, fmt.Errorf("lobby: subscribe %s: %w", Topic, err)
	}
	l.ps = ps
	go l.listen(ctx)
	return l, nil
}

// Close leaves the lobby.
func (l *Lobby) Close() {
	l.cancel()
	<-l.done
	l.sub.Cancel()
	l.topic.Close()
}

// PubSub is the gossipsub router (for its peer scores, in tests and
// diagnostics).
func (l *Lobby) PubSub() *pubsub.PubSub { return l.ps }

// Score returns p's gossipsub peer score as this node last computed it
// (once a second), and whether it has one.
func (l *Lobby) Score(p peer.ID) (float64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.scores[p]
	return s, ok
}

// listen keeps the tables from the validated announcements.
func (l *Lobby) listen(ctx context.Context) {
	defer close(l.done)
	for {
		m, err := l.sub.Next(ctx)
		if err != nil {
			return
		}
		t, ok := m.ValidatorData.(Table)
		if !ok {
			continue
		}
		l.mu.Lock()
		old, had := l.tables[t.Host]
		switch {
		case had && old.TimeMs > t.TimeMs:
			// an older announcement arriving late
		case t.Withdrawn:
			delete(l.tables, t.Host)
		default:
			l.tables[t.Host] = t
		}
		close(l.changed)
		l.changed = make(chan struct{})
		l.mu.Unlock()
	}
}

// Tables returns the open tables announced within Options.Expiry, the
// most recently announced first.
func (l *Lobby) Tables() []Table {
	now := l.opt.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Table
	for id, t := range l.tables {
		if now.Sub(t.Seen) > l.opt.Expiry {
			delete(l.tables, id)
			continue
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Table) int { return cmp.Or(b.Seen.Compare(a.Seen), cmp.Compare(a.Host, b.Host)) })
	return out
}

// Changed returns a channel closed at the next change of the tables.
func (l *Lobby) Changed() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.changed
}

// Open announces this node's table a: at once, after MinInterval, then
// every Refresh, until the returned Opening is withdrawn or ctx ends (then
// a withdrawal is published). a.Host, Version and TimeMs are filled in.
// It returns an error if a is not an announcement the validator accepts.
func (l *Lobby) Open(ctx context.Context, a *pb.Announcement) (*Opening, error) {
	a = proto.Clone(a).(*pb.Announcement)
	a.Version, a.Host, a.TimeMs = Version, []byte(l.h.ID()), l.opt.Now().UnixMilli()
	if _, err := check(a, l.h.ID()); err != nil {
		return nil, fmt.Errorf("lobby: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	o := &Opening{l: l, a: a, cancel: cancel, done: make(chan struct{}), update: make(chan uint32, 1)}
	go o.run(ctx)
	return o, nil
}

// Opening is this node's table in the lobby.
type Opening struct {
	own    *Lobby    // closed with the Opening (OwnLobby)
	once   sync.Once // Close
	l      *Lobby
	a      *pb.Announcement
	cancel context.CancelFunc
	done   chan struct{}
	update chan uint32
}

// SetFreeSeats announces the table with n free seats from its next
// announcement on (at once if MinInterval allows); 0 withdraws it.
func (o *Opening) SetFreeSeats(n uint32) {
	select {
	case <-o.update:
	default:
	}
	o.update <- n
}

// Withdraw publishes the table's withdrawal and stops announcing it.
func (o *Opening) Withdraw() {
	o.cancel()
	<-o.done
}

// OwnLobby makes Close close the Lobby too, and returns o.
func (o *Opening) OwnLobby(l *Lobby) *Opening {
	o.own = l
	return o
}

// Close withdraws the table (once; later calls do nothing) and closes
// the Lobby given to OwnLobby, if any.
func (o *Opening) Close() {
	o.once.Do(func() {
		o.Withdraw()
		if o.own != nil {
			o.own.Close()
		}
	})
}

func (o *Opening) run(ctx context.Context) {
	defer close(o.done)
	opt := o.l.opt
	next := opt.Now()
	first := true
	var last time.Time
	for {
		if wait := next.Sub(opt.Now()); wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-timer.C:
			case n := <-o.update:
				timer.Stop()
				o.a.FreeSeats = n
				next = last.Add(opt.MinInterval)
				if n == 0 {
					o.withdraw(ctx)
					return
				}
				continue
			case <-ctx.Done():
				timer.Stop()
				o.withdraw(ctx)
				return
			}
		}
		if first {
			// Wait (up to a Refresh) for a peer of the topic to be known:
			// published before, the announcement reaches nobody.
			rctx, cancel := context.WithTimeout(ctx, opt.Refresh)
			err := o.waitPeers(rctx)
			cancel()
			if ctx.Err() != nil {
				o.withdraw(ctx)
				return
			}
			if err != nil {
				opt.Logger.Info("lobby: no peer of the topic yet; announcing anyway", "err", err)
			}
		}
		o.a.TimeMs = opt.Now().UnixMilli()
		if err := o.publish(ctx); err != nil && ctx.Err() == nil {
			opt.Logger.Info("lobby: announcement not published", "err", err)
		}
		last = opt.Now()
		if first {
			// A second announcement soon: the first may have gone out
			// before the peers' subscriptions were known.
			next, first = last.Add(opt.MinInterval+opt.MinInterval/4), false
		} else {
			next = last.Add(opt.Refresh)
		}
	}
}

// waitPeers waits until the topic has a peer, or ctx ends (its error).
func (o *Opening) waitPeers(ctx context.Context) error {
	for len(o.l.topic.ListPeers()) == 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

// withdraw publishes the withdrawal (after MinInterval since the last
// announcement, within a second more at most).
func (o *Opening) withdraw(ctx context.Context) {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.l.opt.MinInterval+time.Second)
	defer cancel()
	o.a.Withdrawn, o.a.FreeSeats = true, 0
	for {
		o.a.TimeMs = o.l.opt.Now().UnixMilli()
		err := o.publish(wctx)
		if err == nil || !errors.Is(err, errTooSoon) {
			return
		}
		select {
		case <-wctx.Done():
			return
		case <-time.After(o.l.opt.MinInterval / 4):
		}
	}
}

// errTooSoon is publish's error for an announcement its own validator
// held back (MinInterval).
var errTooSoon = errors.New("sooner than the lobby's interval after the last announcement")

func (o *Opening) publish(ctx context.Context) error {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(o.a)
	if err != nil {
		return err
	}
	if !o.l.lim.allowed(o.l.h.ID()) {
		return errTooSoon
	}
	return o.l.topic.Publish(ctx, b)
}
