package web

import (
	"context"
	"errors"
	"fmt"
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
}

type choice struct{ decision, option int }

// NewPlayer returns a Player showing its decisions on model.
func NewPlayer(model *screen.Model) *Player {
	return &Player{model: model, choices: make(chan choice, 16)}
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
// context's deadline as its countdown, and returns the option the page
// chooses. A choice for another decision or outside the options gets a
// notice and is ignored. When ctx ends first (the decision timeout), Act
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
	for {
		select {
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
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				p.model.DecidedMsg(d.ID, i18n.M("info.time_ran_out", time.Now().Format("15:04:05"), screen.ActionMsg(def, view.Rules().Hand.Reds())))
			} else {
				p.model.DecidedMsg(d.ID, i18n.M("info.cancelled"))
			}
			return game.Action{}, ctx.Err()
		}
	}
}
