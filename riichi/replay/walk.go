package replay

import (
	"fmt"

	"github.com/mentalmj/mentalmj/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// Step is the engine's state after one event of a log replayed by Walk.
type Step struct {
	// Round is the kyoku's index in mjlog.Game.Rounds; Event is 0 just
	// after its INIT (the haipai dealt), else i+1 after Round.Events[i]
	// was applied (an AGARI group of a double ron counts as its last
	// event: the steps of one kyoku may skip numbers).
	Round, Event int
	// Kyoku is the kyoku after the event, with every tile the log shows.
	// It belongs to the replay and changes with the next event: Clone it
	// to keep it.
	Kyoku *game.Kyoku
	// Match is the match being replayed; after the last step of a kyoku
	// that ended, Match.End has not yet been applied.
	Match *game.Match
}

// Walk replays g as Game does, checks and all, and calls visit with the
// engine's state after each kyoku's deal and after each of its events
// the engine accepted. A kyoku the engine abandons (a mismatch that
// leaves it without a legal state) gets no more steps; Result says why.
// It returns Game's Result and the match standings after the last kyoku
// replayed (game.Standings, nil when no kyoku was).
func Walk(g *mjlog.Game, visit func(Step)) (res Result, st *game.Standings) {
	res.Checks = map[string]int{}
	if g == nil {
		return res, nil
	}
	if reason := unsupportedRules(g.Go); reason != "" {
		res.Skipped = append(res.Skipped, Skipped{File: g.File, Reason: reason})
		return res, nil
	}
	r := &runner{g: g, res: &res, custom: g.Go.Lobby != 0, visit: visit}
	defer func() {
		if v := recover(); v != nil {
			r.mismatch("(engine)", "no panic", fmt.Sprintf("panic: %v", v))
		}
		if r.match != nil && len(g.Rounds) > 0 {
			s := r.match.Standings()
			st = &s
		}
	}()
	r.run()
	return res, st
}

// step reports the state after event number ev of the current kyoku to
// Walk's callback, unless the kyoku was abandoned.
func (r *runner) step(ev int) {
	if r.visit != nil && r.k != nil {
		r.visit(Step{Round: r.ri, Event: ev, Kyoku: r.k, Match: r.match})
	}
}
