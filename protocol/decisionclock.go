package protocol

import (
	"context"
	"time"
)

// decisionContext returns the context a Player.Act runs under, whose end
// (context.DeadlineExceeded, as context.Cause gives it) makes the node act
// for the player, and the function that releases it. The decision ends
// when Config.DecisionTimeout passes or, sooner, when the time control's
// clock (Config.Clock, started by the caller: clockLimit is what Start
// returned, 0 for no clock) runs out. For an Attended player the clock
// stands still while its screen is away (runClock), so that only
// DecisionTimeout can end the decision then; for any other the decision
// simply ends at the first of the two.
func (g *Game) decisionContext(ctx context.Context, clockLimit time.Duration) (context.Context, context.CancelFunc) {
	at, attended := g.cfg.Player.(Attended)
	if !attended || clockLimit <= 0 {
		limit := g.cfg.DecisionTimeout
		if clockLimit > 0 {
			limit = min(limit, clockLimit)
		}
		return context.WithTimeout(ctx, limit)
	}
	hard, cancelHard := context.WithTimeout(ctx, g.cfg.DecisionTimeout)
	dctx, expire := context.WithCancelCause(hard)
	done := make(chan struct{})
	go func() {
		defer close(done)
		g.runClock(dctx, expire, at)
	}()
	return dctx, func() {
		expire(context.Canceled)
		<-done // no late Pause may touch the next decision's clock
		cancelHard()
	}
}

// runClock ends the decision (expire with context.DeadlineExceeded) when
// Config.Clock runs out, counting only the time the player's screen is
// there: while at is Away the clock is paused (Clock.Pause) and nothing
// runs out. It returns when dctx ends.
func (g *Game) runClock(dctx context.Context, expire context.CancelCauseFunc, at Attended) {
	clock := g.cfg.Clock
	for {
		away, changed := at.Away()
		if away {
			clock.Pause()
			select {
			case <-changed:
				continue
			case <-dctx.Done():
				return
			}
		}
		t := time.NewTimer(clock.Resume())
		select {
		case <-t.C:
			expire(context.DeadlineExceeded)
			return
		case <-changed:
			t.Stop()
		case <-dctx.Done():
			t.Stop()
			return
		}
	}
}
