package web

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// Player is a protocol.Player whose choices come from the page: Act shows
// the decision on the table and waits for a click.
type Player struct {
	model   *screen.Model
	choices chan choice
	srv     atomic.Pointer[Server] // the table's server (Listen); nil: always seen
	// absent is set when the node acted for the player on a decision
	// while no page was connected, and cleared when a page is back: the
	// clock then runs even with no page (Away), so that a closed tab
	// costs the table one long wait, not one per decision.
	absent atomic.Bool
}

type choice struct{ decision, option int }

// NewPlayer returns a Player showing its decisions on model.
func NewPlayer(model *screen.Model) *Player {
	return &Player{model: model, choices: make(chan choice, 16)}
}

// attach makes s the server whose pages show p's decisions (Away).
func (p *Player) attach(s *Server) { p.srv.Store(s) }

// Away reports whether no page shows the table now (protocol.Attended:
// the protocol stands the player's clock still meanwhile, so that only
// the decision timeout can end the decision), and returns a channel
// closed at the next change. Once the node has acted for the player on a
// decision while no page was connected, the player is taken as gone, as
// Tenhou takes a disconnected player: Away is false, and the clock runs,
// until a page connects again; so a closed tab holds the table up once,
// not at every decision. A Player not served by a Server is never away.
func (p *Player) Away() (away bool, changed <-chan struct{}) {
	s := p.srv.Load()
	if s == nil {
		return false, nil
	}
	away, changed = s.Away()
	if !away {
		p.absent.Store(false)
	}
	return away && !p.absent.Load(), changed
}

// markAbsent notes that the node acted for the player with no page
// connected (see Away).
func (p *Player) markAbsent() {
	if s := p.srv.Load(); s != nil {
		if away, _ := s.Away(); away {
			p.absent.Store(true)
		}
	}
}

// choose passes a choice from the page to the waiting Act. It never
// blocks: a flood of clicks beyond the buffer is dropped with a notice.
func (p *Player) choose(decision, option int) {
	select {
	case p.choices <- choice{decision, option}:
	default:
		p.model.NoticeMsg(i18n.M("notice.busy"))
	}
}

// Act shows seat's legal actions in view as the current decision, with the
// context's deadline (or the player's clock, if it ends first) as its
// countdown, and returns the option the page chooses. While no page is
// connected the protocol stands the clock still (Away); when a page is
// back the countdown restarts from where it stopped. A choice for another
// decision or outside the options gets a notice and is ignored. When ctx ends first (the decision timeout), Act
// says on the page what the node does instead — protocol.Tsumogiri's
// action — and returns ctx's error; the protocol then acts so.
func (p *Player) Act(ctx context.Context, view *game.Kyoku, seat game.Seat) (game.Action, error) {
	def, _ := protocol.Tsumogiri{}.Act(ctx, view.Clone(), seat)
	deadline, _ := ctx.Deadline()
	d := p.model.Decide(view, seat, deadline, def)
	if len(d.Options) == 0 {
		return game.Action{}, fmt.Errorf("ui: no legal action for seat %d", int(seat))
	}
	if len(d.Options) == 1 {
		// Nothing to choose (a pass on a tile nobody can call, say).
		p.model.Decided(d.ID, "")
		return d.Options[0].Action, nil
	}
	_, changed := p.Away()
	for {
		select {
		case <-changed:
			// A page left or came back: the clock stood still while none
			// was there, so the countdown starts again from where it
			// stopped.
			var away bool
			if away, changed = p.Away(); !away {
				p.model.Recount(d.ID, deadline)
			}
		case c := <-p.choices:
			switch {
			case c.decision != d.ID:
				p.model.NoticeMsg(i18n.M("notice.stale", c.decision))
			case c.option < 0 || c.option >= len(d.Options):
				p.model.NoticeMsg(i18n.M("notice.bad_option", c.option, len(d.Options)))
			default:
				p.model.Decided(d.ID, "")
				return d.Options[c.option].Action, nil
			}
		case <-ctx.Done():
			if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				p.markAbsent()
				p.model.DecidedMsg(d.ID, i18n.M("info.time_ran_out", time.Now().Format("15:04:05"), screen.ActionMsg(def, view.Rules().Hand.Reds())))
			} else {
				p.model.DecidedMsg(d.ID, i18n.M("info.cancelled"))
			}
			return game.Action{}, ctx.Err()
		}
	}
}
