package protocol

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// screenPlayer is an Attended Tsumogiri player whose screen is away for
// the first awayFor of each of its first decisions (all of them when
// awayFor is negative: the screen never comes back). It records, per
// decision, how long Act ran and why its context ended.
type screenPlayer struct {
	awayFor   time.Duration
	decisions int // how many decisions start away

	mu      sync.Mutex
	away    bool
	changed chan struct{}
	n       atomic.Int32
	waited  []time.Duration // Act's time for the decisions that were away
	causes  []error
}

func newScreenPlayer(awayFor time.Duration, decisions int) *screenPlayer {
	return &screenPlayer{awayFor: awayFor, decisions: decisions, changed: make(chan struct{})}
}

func (p *screenPlayer) Away() (bool, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.away, p.changed
}

func (p *screenPlayer) setAway(away bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.away = away
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *screenPlayer) Act(ctx context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
	if int(p.n.Add(1)) > p.decisions {
		return Tsumogiri{}.Act(ctx, v, s)
	}
	start := time.Now()
	p.setAway(true)
	var err error
	if p.awayFor >= 0 {
		select {
		case <-time.After(p.awayFor):
			p.setAway(false)
		case <-ctx.Done():
			err = context.Cause(ctx)
		}
	} else {
		<-ctx.Done()
		err = context.Cause(ctx)
	}
	p.mu.Lock()
	p.waited = append(p.waited, time.Since(start))
	p.causes = append(p.causes, err)
	p.mu.Unlock()
	if err != nil {
		return game.Action{}, err
	}
	return Tsumogiri{}.Act(ctx, v, s)
}

// A decision whose screen is away does not run the clock (issue 26: a
// clock runs only when a decision is on a screen the player can see).
// With a 100 ms + 100 ms clock, a player away for 400 ms at each of its
// first three decisions, then back at once, is never acted for: the clock
// stood still while it was away. The same player that is not Attended
// (the control) is acted for, as TestClockActsForPlayer shows. A screen
// that never comes back is acted for only when the decision timeout
// passes, not when the clock would have run out, and no other player
// names it silent.
func TestClockStandsStillWhileAway(t *testing.T) {
	t.Parallel()
	tc := timecontrol.Control{Base: 100 * time.Millisecond, Bank: 100 * time.Millisecond}
	play := func(t *testing.T, p Player, decisionTimeout time.Duration) []outcome {
		tb := newTable(t)
		return tb.play(t, 1, func(i int, c *Config) {
			c.Time = tc
			c.TurnTimeout = tc.Wait(10*time.Second, 0)
			if i == 0 {
				c.Clock, c.Player, c.DecisionTimeout = timecontrol.NewClock(tc), p, decisionTimeout
			}
		})
	}
	t.Run("back before the decision timeout", func(t *testing.T) {
		t.Parallel()
		p := newScreenPlayer(400*time.Millisecond, 3)
		for i, o := range play(t, p, 5*time.Second) {
			if o.err != nil || len(o.results) != 1 {
				t.Fatalf("player %d: %v", i, o.err)
			}
			if to := o.results[0].TimedOut; len(to) != 0 {
				t.Errorf("player %d: timed out %v, want no one: the clock ran while the screen was away", i, to)
			}
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.causes) != 3 {
			t.Fatalf("%d decisions started away, want 3", len(p.causes))
		}
		for k, err := range p.causes {
			if err != nil {
				t.Errorf("decision %d: ended by %v while the screen was away", k+1, err)
			}
		}
	})
	t.Run("never back", func(t *testing.T) {
		t.Parallel()
		// Act starts a moment after the decision's contexts are made, so
		// it sees a little less than the decision timeout; anything over
		// 600 ms is three times the clock's 200 ms.
		const decisionTimeout, clockWouldEnd = time.Second, 600 * time.Millisecond
		p := newScreenPlayer(-1, 2)
		tb := play(t, p, decisionTimeout)
		for i, o := range tb {
			if o.err != nil || len(o.results) != 1 {
				t.Fatalf("player %d: %v (an absent screen must not stop the table)", i, o.err)
			}
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.waited) != 2 {
			t.Fatalf("%d decisions away, want 2", len(p.waited))
		}
		for k, w := range p.waited {
			if w < clockWouldEnd {
				t.Errorf("decision %d: acted for after %v, long before the decision timeout %v: the clock (200 ms) ran while away", k+1, w, decisionTimeout)
			}
		}
	})
}
