package spectate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// Watch is a spectator's membership of a table's topic: it takes the
// players' public entries in order, audits each hand once its keys are
// revealed, and gives the game's verdict at the end.
type Watch struct {
	s    *session
	h    host.Host
	link Link
	ord  *order

	mu       sync.Mutex
	records  []protocol.Record
	rejects  []Rejection
	every    time.Duration // the least time between two catch-ups (the host's limit)
	joined   bool          // caught up with a gap (CatchUp)
	caughtUp int           // entries the host's catch-up answers brought
}

// NewWatch joins the topic of the table link names, on h (which should
// then dial link.AddrInfo()). It returns gossipsub's errors.
func NewWatch(ctx context.Context, h host.Host, link Link, opt Options) (*Watch, error) {
	w := &Watch{h: h, link: link, ord: newOrder(), every: opt.CatchUpEvery}
	if w.every <= 0 {
		w.every = CatchUpEvery
	}
	user := opt.OnReject
	opt.OnReject = func(r Rejection) {
		w.mu.Lock()
		w.rejects = append(w.rejects, r)
		w.mu.Unlock()
		if user != nil {
			user(r)
		}
	}
	s, err := join(ctx, h, link.Table, link.Host, nil, false, opt)
	if err != nil {
		return nil, err
	}
	w.s = s
	return w, nil
}

// Close leaves the topic.
func (w *Watch) Close() { w.s.close() }

// Peers returns the number of the topic's peers this node knows.
func (w *Watch) Peers() int { return len(w.s.topic.ListPeers()) }

// Records returns the entries taken so far, in the order taken, as
// transcript records (protocol.Record, Index 1-based): what
// protocol.AuditTranscript and `mentalmj audit` read.
func (w *Watch) Records() []protocol.Record {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.records)
}

// Rejections returns the messages the validator rejected so far.
func (w *Watch) Rejections() []Rejection {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.rejects)
}

// Gaps returns, for the host when the spectator holds back entries it
// published, why: an entry that never came (a message refused by a
// validator, or lost) holds back all the later ones, and with them the
// hand's audit. The map is empty when nothing is held back.
func (w *Watch) Gaps() map[peer.ID]string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if g := w.ord.gap(); g != "" {
		return map[peer.ID]string{w.link.Host: g}
	}
	return map[peer.ID]string{}
}

// HandVerdict is one hand as the spectator audited it, once its keys
// were revealed.
type HandVerdict struct {
	// Hand is the 1-based hand number; Round its round ("East 1") and
	// honba.
	Hand  int
	Round string
	Honba int
	// Result says how the hand ended (verdict.DescribeResult).
	Result string
	// Audit is the hand's audit (protocol.HandAudit), of the entries
	// taken up to and including its key reveal.
	Audit *protocol.HandAudit
}

// OK reports whether the hand verified: no blame, no fault.
func (v HandVerdict) OK() bool { return v.Audit.OK() }

// String is the line the spectator prints: "hand 1 (East 1, 0 honba):
// RESULT; audit: wall verified", or the blame and faults.
func (v HandVerdict) String() string {
	var audit string
	switch {
	case v.OK() && v.Audit.PrivateHands:
		audit = verdict.PartialWall(v.Audit.Shown, len(v.Audit.Yama))
	case v.OK():
		audit = "wall verified"
	default:
		var parts []string
		for _, b := range v.Audit.Blame {
			parts = append(parts, fmt.Sprintf("blame on %s: %s", b.Peer, b.Reason))
		}
		for _, f := range v.Audit.Faults {
			parts = append(parts, "fault: "+f.String())
		}
		audit = strings.Join(parts, "; ")
	}
	return fmt.Sprintf("hand %d (%s, %d honba): %s; audit: %s", v.Hand, v.Round, v.Honba, v.Result, audit)
}

// meshWait is how long a spectator waits, once connected to the host,
// before it asks for the catch-up: about a gossipsub heartbeat (1 s),
// the time the host's mesh takes to take it in. repairEvery is how often
// Run looks for an entry that never came.
const (
	meshWait    = 1200 * time.Millisecond
	repairEvery = 2 * time.Second
)

// catchUpResult is the catch-up's answer: the entries, and the indexes
// after which it leaves entries out (skips: the first index after each
// gap).
type catchUpResult struct {
	entries []*published
	skips   map[uint64]bool
	err     error
}

// catchUpOnce waits (up to catchUpTimeout) for the host's connection and
// asks it once for what it published from index from on (CatchUp); with
// settle, after meshWait.
func (w *Watch) catchUpOnce(ctx context.Context, from uint64, settle bool) catchUpResult {
	deadline := time.Now().Add(catchUpTimeout)
	for w.h.Network().Connectedness(w.link.Host) != network.Connected {
		if time.Now().After(deadline) {
			return catchUpResult{err: fmt.Errorf("the host %s was not reached", w.link.Host)}
		}
		select {
		case <-ctx.Done():
			return catchUpResult{err: ctx.Err()}
		case <-time.After(100 * time.Millisecond):
		}
	}
	// Before the first ask, a heartbeat, so that the host's mesh holds
	// this spectator before the host takes the catch-up's snapshot: what
	// it publishes after that comes by gossip (the host's mesh is small
	// and it gossips to no one).
	if settle {
		select {
		case <-ctx.Done():
			return catchUpResult{err: ctx.Err()}
		case <-time.After(meshWait):
		}
	}
	es, err := w.CatchUp(ctx, from)
	r := catchUpResult{entries: es, skips: map[uint64]bool{}, err: err}
	for i, p := range es {
		if i > 0 && p.index > es[i-1].index+1 {
			r.skips[p.index] = true
			w.mu.Lock()
			w.joined = true
			w.mu.Unlock()
		}
	}
	return r
}

// Joined reports whether the host's catch-up left entries out (SPEC.md
// §25: a host that answers only the hand in play, as the catch-up's first
// version did): the hands before the first one the spectator holds whole
// are not audited. A spectator that caught up on the whole game
// (CaughtUp) audits every hand, and Joined is false.
func (w *Watch) Joined() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.joined
}

// CaughtUp returns how many entries the host's catch-up answers brought
// (copies of entries gossip also delivered included): 0 for a spectator
// that took the game from its first entry on the topic.
func (w *Watch) CaughtUp() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.caughtUp
}

// playerCount returns the number of the table's players (once known).
func (w *Watch) playerCount() int {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return len(w.s.players)
}

// handDone is one hand's verdict, and whether the game is over after
// it.
type handDone struct {
	v    *HandVerdict
	done bool
}

// lastCompleted returns the last hand whose key reveals, with those of
// reveals already taken, taken completes (every player's), or 0.
func (w *Watch) lastCompleted(taken []*published, reveals map[uint32]map[peer.ID]bool) uint32 {
	n := w.playerCount()
	more := map[uint32]map[peer.ID]bool{}
	var last uint32
	for _, q := range taken {
		e := q.entry.Entry
		if e.GetKeyReveal() == nil {
			continue
		}
		if more[e.Hand] == nil {
			more[e.Hand] = map[peer.ID]bool{}
		}
		more[e.Hand][q.entry.Sender] = true
		got := len(more[e.Hand])
		for p := range reveals[e.Hand] {
			if !more[e.Hand][p] {
				got++
			}
		}
		if got >= n && e.Hand > last {
			last = e.Hand
		}
	}
	return last
}

// auditHands audits the entries of hands 1..n taken so far (those of
// hands after n left out) and returns the verdict of every hand it holds,
// each with whether the game is over after it.
func (w *Watch) auditHands(n uint32) map[uint32]handDone {
	var recs []protocol.Record
	for _, r := range w.Records() {
		o, err := protocol.Open(r.Envelope)
		if err == nil && o.Entry.Hand <= n {
			r.Index = len(recs) + 1
			recs = append(recs, r)
		}
	}
	t := protocol.AuditTranscript(recs)
	out := map[uint32]handDone{}
	for _, h := range t.Hands {
		if h.Hand <= 0 || h.Hand > int(n) {
			continue
		}
		v := &HandVerdict{Hand: h.Hand, Round: game.RoundName(h.Deal.Round), Honba: h.Deal.Honba, Audit: h, Result: "no result"}
		if h.Seats != nil {
			v.Result = verdict.DescribeResult(h.Result, verdict.Names{Seats: h.Seats, Nicks: t.Nicks}.Seat(h.Oya))
		}
		done := h.Hand == int(n) && t.Over || t.HandsWanted > 0 && h.Hand >= t.HandsWanted || !h.OK()
		out[uint32(h.Hand)] = handDone{v: v, done: done}
	}
	return out
}

// redialEvery is how often Keep checks its peers' connections.
const redialEvery = 2 * time.Second

// Keep dials peers (the host from the link, other spectators) in the
// background until ctx ends, and again whenever the connection to one is
// gone. (A player's node joins the topic only when its game starts;
// gossipsub learns it then from identify's push of its protocols.) Errors
// are logged.
func (w *Watch) Keep(ctx context.Context, h host.Host, peers []peer.AddrInfo) {
	for _, p := range peers {
		go func() {
			for {
				if h.Network().Connectedness(p.ID) != network.Connected {
					cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
					if err := h.Connect(cctx, p); err != nil {
						w.s.opt.Logger.Debug("spectators: peer not reached", "peer", p.ID, "err", err)
					}
					cancel()
				}
				select {
				case <-ctx.Done():
					return
				case <-time.After(redialEvery):
				}
			}
		}()
	}
}
