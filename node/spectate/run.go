package spectate

import (
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
)

// Run takes the topic's messages until the game is over (every hand it
// plays audited), a player aborts, or ctx ends, and returns the verdict
// of what it took (verdict.Audit of Records, as `mentalmj audit` gives
// it: Report.ExitCode). onEntry, if not nil, sees each entry as it is
// taken (in order); onHand each hand's verdict after its key reveal.
// Both run on Run's goroutine. The error is only for nothing taken at
// all.
//
// Its steps: gossip's entries are read on a goroutine of their own
// (gossip); the host is asked for what was published before the
// spectator came (the catch-up, SPEC.md §25), and gossip's entries are
// held until it answers (heardEntry, caughtUp); each entry that the
// order makes deliverable is taken (take), its hand audited once every
// player's key reveal is in; a message the validator holds for want of
// the host's Hello sends the spectator to the host at once
// (askForHello); and on every tick of the repair timer, an entry that
// never came, or a topic that has said nothing, sends the spectator to
// the host again (repairTick).
func (w *Watch) Run(ctx context.Context, onEntry func(*protocol.Opened), onHand func(HandVerdict)) (*verdict.Report, error) {
	r := &watchRun{w: w, ctx: ctx, onEntry: onEntry, onHand: onHand, reveals: map[uint32]map[peer.ID]bool{}, waiting: true}
	msgs := w.gossip(ctx)
	r.askHost(0, true)
	repair := time.NewTicker(min(repairEvery, w.every))
	defer repair.Stop()
	for !r.over {
		select {
		case <-repair.C:
			r.repairTick()
		case <-w.s.noHello:
			r.askForHello()
		case p, ok := <-msgs:
			if !ok {
				r.over = true
				continue
			}
			r.heardEntry(p)
		case res := <-r.caught:
			r.caughtUp(res)
		}
	}
	recs := w.Records()
	if len(recs) == 0 {
		return nil, fmt.Errorf("watch: nothing was received on %s from the table's players (is the host's address reachable, and did the game start after the watcher?)", w.link.Topic())
	}
	return verdict.Audit([]verdict.File{{Name: "watched " + w.link.Table, Records: recs}})
}

// watchRun is the state of one Watch.Run.
type watchRun struct {
	w       *Watch
	ctx     context.Context
	onEntry func(*protocol.Opened)
	onHand  func(HandVerdict)

	reveals map[uint32]map[peer.ID]bool // hand → the players whose key reveal was taken
	over    bool                        // the game is over, aborted, or the topic closed
	waiting bool                        // the first catch-up has not answered yet
	held    []*published                // gossip's entries while waiting (at most maxAhead)
	caught  chan catchUpResult          // the catch-up in flight; nil when none is
	asked   time.Time                   // when the host was last asked, or answered
	filled  time.Time                   // when the host last answered with entries (its limit counts from there)
	heard   time.Time                   // when an entry last came, from gossip or the host
	// needHello is set while the validator holds the host's messages for
	// want of its Hello and the host has not been asked for it yet.
	needHello bool
	// gapAt is, at a repair tick, the held-back entry the last tick saw
	// missing plus one (0: none): a gap is repaired once it outlasts a
	// tick, not when gossip merely brought entries out of order.
	gapAt uint64
}

// gossip reads the topic's messages on a goroutine of its own and sends
// their entries (a burst's several) on the channel it returns, closed
// when the subscription or ctx ends.
func (w *Watch) gossip(ctx context.Context) <-chan *published {
	msgs := make(chan *published, 64)
	go func() {
		defer close(msgs)
		for {
			m, err := w.s.sub.Next(ctx)
			if err != nil {
				return
			}
			ps, _ := m.ValidatorData.([]*published)
			for _, p := range ps {
				select {
				case msgs <- p:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return msgs
}

// askHost asks the host, on a goroutine, for what it published from
// index from on (with settle, after a heartbeat: catchUpOnce); its answer
// comes on r.caught.
func (r *watchRun) askHost(from uint64, settle bool) {
	r.asked = time.Now()
	if r.heard.IsZero() {
		r.heard = r.asked
	}
	c := make(chan catchUpResult, 1)
	r.caught = c
	go func() { c <- r.w.catchUpOnce(r.ctx, from, settle) }()
}

// askRetry is the least time between two asks of the host, for its
// Hello or for a gap, when the last one failed or held nothing (the
// host's catch-up not yet up: a spectator that came before the game).
// The host's own limit, counted from its last answer that held entries,
// comes on top (w.every).
const askRetry = 500 * time.Millisecond

// askForHello asks the host from index 0, at once and without waiting
// for a heartbeat, when the validator holds the host's messages for want
// of its Hello (SPEC.md §25): the host published the Hello before its
// mesh held this spectator, and the host gossips to no one, so gossip
// never brings it again; held for playersWait, the messages would then
// be ignored, and with no entry taken the spectator would see no gap. An
// ask in flight, the host's limit (from its last answer that held
// entries) or a failed ask under askRetry ago puts it off to the
// answer or the next repair tick.
func (r *watchRun) askForHello() {
	w := r.w
	if w.s.playersKnown() {
		r.needHello = false
		return
	}
	r.needHello = true
	limited := !r.filled.IsZero() && time.Since(r.filled) <= w.every
	if r.caught != nil || limited || time.Since(r.asked) < askRetry {
		return
	}
	r.needHello = false
	w.s.opt.Logger.Info("spectators: the host's Hello did not come by gossip; asking the host", "host", w.link.Host)
	r.askHost(0, false)
}

// repairTick asks the host again, once its limit allows, when an entry
// that never came holds back the rest (lost, or the last answer was cut
// at the host's bounds) and still does a tick later, from that entry on
// (SPEC.md §25): what fills the gap is taken, the rest is dropped as
// copies. The host's limit counts from its last answer that held entries
// (an empty or failed one does not count), so a gap in the game's first
// entries is repaired within a tick or two, while the host, which stays
// 3 s after its game, still answers (seen in CI: entry 1 lost, the
// spectator waiting 10 s from a failed first ask, the host gone). A
// spectator that has heard nothing for its catch-up interval asks too:
// gossip may not have taken it into the host's mesh (seen under load: a
// spectator of a whole game got no message), and with no entry taken it
// sees no gap to repair.
func (r *watchRun) repairTick() {
	w := r.w
	if r.needHello {
		r.askForHello()
	}
	w.mu.Lock()
	free := !r.waiting && r.caught == nil
	allowed := free && time.Since(r.asked) >= askRetry && (r.filled.IsZero() || time.Since(r.filled) > w.every)
	from, held := w.ord.next, len(w.ord.pending) > 0
	w.mu.Unlock()
	gap := allowed && held && r.gapAt == from+1
	r.gapAt = 0
	if held {
		r.gapAt = from + 1
	}
	deaf := free && time.Since(r.asked) > w.every && time.Since(r.heard) > w.every
	if !gap && !deaf {
		return
	}
	if !gap {
		w.s.opt.Logger.Info("spectators: nothing heard on the topic; asking the host", "from", from, "silent", time.Since(r.heard).Round(time.Second))
	} else {
		w.s.opt.Logger.Info("spectators: an entry never came; asking the host", "from", from)
	}
	r.askHost(from, from == 0)
}

// heardEntry takes an entry gossip brought, or holds it while the first
// catch-up has not answered, unless it is the game's first (this
// spectator came in time).
func (r *watchRun) heardEntry(p *published) {
	r.heard = time.Now()
	if r.waiting && p.index == 0 {
		r.waiting = false
	}
	if r.waiting {
		if len(r.held) < maxAhead {
			r.held = append(r.held, p)
		}
		return
	}
	r.add(p)
}

// caughtUp takes the host's answer. The first answer also marks where
// the host left entries out (the game's start, when the spectator came
// late, and the answer's own skips) and then takes what gossip brought
// meanwhile; a later one is a repair, or too late to be needed.
func (r *watchRun) caughtUp(res catchUpResult) {
	w := r.w
	r.caught = nil
	r.asked = time.Now() // the host's limit counts from its answer
	if len(res.entries) > 0 {
		r.heard, r.filled = r.asked, r.asked
	}
	if r.needHello {
		defer r.askForHello()
	}
	w.mu.Lock()
	w.caughtUp += len(res.entries)
	w.mu.Unlock()
	if !r.waiting {
		for _, p := range res.entries {
			r.add(p)
		}
		return
	}
	r.waiting = false
	if res.err != nil {
		w.s.opt.Logger.Debug("spectators: no catch-up", "err", res.err)
	}
	for _, p := range res.entries {
		w.mu.Lock()
		if p.index > w.ord.next && w.ord.next == 0 || p.index > w.ord.next && res.skips[p.index] {
			w.ord.skip(p.index)
		}
		w.mu.Unlock()
		r.add(p)
	}
	for _, p := range r.held {
		r.add(p)
	}
	r.held = nil
}

// add puts p in the order and takes what that makes deliverable.
func (r *watchRun) add(p *published) {
	r.w.mu.Lock()
	taken := r.w.ord.add(p)
	r.w.mu.Unlock()
	r.take(taken)
}

// take records the entries the order made deliverable, in order, and
// gives each hand's verdict after its last key reveal. The hands whose
// key reveals this batch completes are audited together, once (a late
// spectator's catch-up brings several whole hands at once). An abort, a
// hand the audit does not hold, or the game's last hand ends the run.
func (r *watchRun) take(taken []*published) {
	w := r.w
	w.mu.Lock()
	for _, q := range taken {
		w.records = append(w.records, protocol.Record{Index: len(w.records) + 1, Envelope: q.entry.Envelope})
	}
	w.mu.Unlock()
	var verdicts map[uint32]handDone
	if last := w.lastCompleted(taken, r.reveals); last > 0 {
		verdicts = w.auditHands(last)
	}
	for _, q := range taken {
		if r.onEntry != nil {
			r.onEntry(q.entry)
		}
		e := q.entry.Entry
		if e.GetAbort() != nil && e.Hand > 0 {
			r.over = true
		}
		if e.GetKeyReveal() == nil {
			continue
		}
		if r.reveals[e.Hand] == nil {
			r.reveals[e.Hand] = map[peer.ID]bool{}
		}
		r.reveals[e.Hand][q.entry.Sender] = true
		if len(r.reveals[e.Hand]) < w.playerCount() {
			continue
		}
		d, ok := verdicts[e.Hand]
		if !ok { // hand 0, or a hand the audit does not hold
			r.over = true
			continue
		}
		if r.onHand != nil {
			r.onHand(*d.v)
		}
		r.over = r.over || d.done
	}
}
