package protocol

import (
	"context"
	"errors"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// recvReplayed takes from's next entry of hand from the transcript being
// replayed (a resume), the prepared passes replayed first. It returns done
// with that entry or an error, or not done when the replay holds no more
// of from's entries (the wait goes on over the network). An entry the
// replay holds twice is skipped, as arrived says.
func (g *Game) recvReplayed(ctx context.Context, from peer.ID, hand uint32) (o *Opened, done bool, err error) {
	for g.replay != nil {
		if err := g.replayPrepared(ctx); err != nil {
			return nil, true, err
		}
		if g.replay == nil {
			break
		}
		env, ok := g.replay.next(from)
		if !ok {
			break
		}
		o, skip, err := g.arrived(from, hand, env)
		if !skip || err != nil {
			return o, true, err
		}
	}
	return nil, false, nil
}

// recvWait is one recvWithin's wait over the network for from's entry of
// hand, of kind want, within the budget b.
type recvWait struct {
	g    *Game
	from peer.ID
	hand uint32
	want string
	b    *budget
	box  *mailbox // from's
	// last is when the budget was last run down.
	last time.Time
	// Once the wait is long, the others hear that we are kept waiting
	// (waiting.go): nextNotice is when, in time waited, the next notice
	// is due; noticed, that one went out, so an all-clear follows when
	// the wait ends.
	nextNotice time.Duration
	noticed    bool
}

// round is one turn of the wait: it takes an entry that is there, or
// fails if from's connection ended for good, runs the budget down, and
// then blocks until an entry arrives, a prepared pass is made (and sent),
// a connection changes or the wait is due to look again. It returns done
// with the entry or the error that ends the wait.
func (w *recvWait) round(ctx context.Context) (o *Opened, done bool, err error) {
	g := w.g
	ready, err := g.idle(ctx)
	if err != nil {
		return nil, true, err
	}
	if g.paused {
		if down, _ := g.links.down(g.others); len(down) == 0 {
			g.playOn()
		}
	}
	changed := g.links.watch()
	if env, ok := poll(w.box.in); ok {
		return w.take(env)
	}
	if _, final := w.box.state(); final != nil {
		if env, ok := poll(w.box.in); ok { // read before it left
			return w.take(env)
		}
		return nil, true, g.recvFault(ctx, w.from, w.hand, w.want, final)
	}
	wait, err := w.account(ctx)
	if err != nil {
		return nil, true, err
	}
	return w.block(ctx, wait, ready, changed)
}

// poll receives from in if a value is there, without waiting.
func poll(in <-chan []byte) ([]byte, bool) {
	select {
	case env := <-in:
		return env, true
	default:
		return nil, false
	}
}

// take checks env, an entry taken from from's mailbox. It returns done
// with the entry or its error, or not done for an entry to skip: one this
// player already holds, sent again after a reconnection, or one that came
// before its sender's Hello (errEarly).
func (w *recvWait) take(env []byte) (o *Opened, done bool, err error) {
	env = w.box.taken(env)
	o, skip, err := w.g.arrived(w.from, w.hand, env)
	if skip && err == nil || errors.Is(err, errDuplicate) || errors.Is(err, errEarly) {
		return nil, false, nil
	}
	return o, true, err
}

// account runs the budget down by the time since the last round while
// every peer is connected, and returns how long to block now. On the way
// it fails for a peer whose connection is down beyond the reconnection
// grace, tells the others when we are kept waiting long, shows the pause
// (or its end), and, once the budget has run out, gives from lateAbort
// more before naming it silent.
func (w *recvWait) account(ctx context.Context) (time.Duration, error) {
	g, b := w.g, w.b
	now := time.Now()
	down, since := g.links.down(g.others)
	if len(down) == 0 {
		b.left -= now.Sub(w.last)
	}
	w.last = now
	for i, p := range down {
		if now.Sub(since[i]) >= g.links.grace {
			if err := g.leftAbort(p, w.hand); err != nil {
				return 0, err
			}
			fe := faultf(p, w.hand, FaultConnection, nil, "connection lost, and it did not come back within %s while we waited for %s's %s", g.links.grace, w.from, w.want)
			fe.Wait = g.links.grace // how long it had to come back
			return 0, fe
		}
	}
	if waited := b.total - b.left; waited >= w.nextNotice && !b.grace && len(down) == 0 {
		g.sendWaiting(ctx, w.hand, w.from, w.want, waited, noticeValid(b.total))
		w.noticed = true
		w.nextNotice = waited + noticeAfter(b.total)
	}
	wait := b.left
	if !b.grace {
		wait = min(wait, w.nextNotice-(b.total-b.left))
	}
	if len(down) > 0 {
		g.paused = true
		g.observePause(Pause{Peer: down[0], Nick: g.nicks[down[0]], Left: g.links.grace - now.Sub(since[0])})
		wait = time.Second
	} else if g.paused {
		g.playOn()
	}
	if b.left <= 0 && !b.grace {
		// Before naming from silent, give it a moment more: if it was
		// itself kept waiting by another player, its Abort naming
		// that player is on its way (its wait began before ours).
		b.grace, b.left, wait = true, lateAbort(b.total), lateAbort(b.total)
	}
	if b.left <= 0 {
		return 0, g.silenceAt(w.from, w.hand, w.want, b.total)
	}
	return max(wait, time.Millisecond), nil
}

// block waits up to wait for an entry from from (taken as take does), a
// prepared pass of this player's (sent at once, while the table waits for
// a move), a change of the connections (changed) or the end of ctx (a
// fault, or ctx's error).
func (w *recvWait) block(ctx context.Context, wait time.Duration, ready <-chan madePass, changed <-chan struct{}) (o *Opened, done bool, err error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case env := <-w.box.in:
		timer.Stop()
		return w.take(env)
	case m := <-ready:
		timer.Stop()
		if err := w.g.next.sendPass(ctx, m); err != nil {
			return nil, true, err
		}
	case <-changed:
	case <-timer.C:
	case <-ctx.Done():
		return nil, true, w.g.recvFault(ctx, w.from, w.hand, w.want, ctx.Err())
	}
	return nil, false, nil
}

// allClear tells the others the wait is over, if they were told we are
// kept waiting.
func (w *recvWait) allClear(ctx context.Context) {
	if w.noticed {
		w.g.sendWaiting(context.WithoutCancel(ctx), w.hand, "", w.want, w.b.total-w.b.left, noticeValid(w.b.total))
	}
}

// playOn ends the table's pause and shows it.
func (g *Game) playOn() {
	g.paused = false
	g.observePause(Pause{})
}

// leftAbort reads what peer p, whose connection is down past the grace,
// left in its mailbox (at most maxDrain entries, without waiting) and
// returns the *AbortError of an Abort among them, nil if there is none.
// A peer that gave up on a third player and then went away (its node
// shut down, its goodbye lost) is named by its Abort's claim, as
// sendFault does, not as a lost connection: this player was waiting for
// someone else and never read p's mailbox in the meantime.
func (g *Game) leftAbort(p peer.ID, hand uint32) error {
	box := g.links.boxes[p]
	for range maxDrain {
		env, ok := poll(box.in)
		if !ok {
			return nil
		}
		o, skip, err := g.arrived(p, hand, box.taken(env))
		switch {
		case errors.Is(err, errDuplicate) || errors.Is(err, errEarly) || skip && err == nil:
			continue
		case err != nil:
			return nil
		case o.Entry.GetAbort() != nil:
			return abortError(o, g.cfg.Peers)
		}
	}
	return nil
}
