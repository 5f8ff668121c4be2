package replay

import (
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
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
// A player's view of a game (mjlog.ParseView: a private-hands record)
// is replayed too: a tile that a discard, call, win or drawn hand shows
// takes the place of one of its holder's hidden tiles.
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
	r := &runner{g: g, res: &res, custom: g.Go.Lobby != 0, visit: visit, hidden: g.HasHidden()}
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

// showHidden reveals, in a player's view, the tiles the next event evs[0]
// shows from a hand that holds them only as hidden tiles (for an AGARI,
// the whole group of wins that follows). Which hidden tile it was the
// view cannot say; any one of its holder's does for the engine.
func (r *runner) showHidden(evs []mjlog.Event) {
	if !r.hidden || r.k == nil {
		return
	}
	switch e := evs[0].(type) {
	case mjlog.Discard:
		r.show(e.Who, e.Tile)
	case mjlog.Call:
		ts := slices.DeleteFunc(slices.Clone(e.Meld.Tiles), func(t wall.Tile) bool { return t == e.Meld.Called })
		if e.Meld.Type == riichi.Kakan {
			ts = []wall.Tile{e.Meld.Added}
		}
		r.show(e.Who, ts...)
	case mjlog.Agari:
		for _, ev := range evs {
			a, ok := ev.(mjlog.Agari)
			if !ok {
				break
			}
			ts := slices.Clone(a.Hai)
			if a.Who != a.FromWho {
				ts = slices.DeleteFunc(ts, func(t wall.Tile) bool { return t == a.Machi })
			}
			r.show(a.Who, ts...)
		}
	case mjlog.Ryuukyoku:
		for s, h := range e.Hai {
			r.show(s, h...)
		}
	}
}

// show reveals tiles ts in seat s's hand, each in place of a hidden tile
// unless the hand already shows it.
func (r *runner) show(s int, ts ...wall.Tile) {
	tiles, pos := r.k.Hand(game.Seat(s))
	for _, t := range ts {
		if t < 0 || slices.Contains(tiles, t) {
			continue
		}
		// The last hidden tile: the one just drawn, which a riichi hand
		// must discard.
		i := lastIndex(tiles, game.Unknown)
		if i < 0 {
			return
		}
		if r.k.Reveal(pos[i], t) == nil {
			tiles[i] = t
		}
	}
}

// lastIndex returns the index of the last t in ts, -1 if none.
func lastIndex(ts []wall.Tile, t wall.Tile) int {
	for i := len(ts) - 1; i >= 0; i-- {
		if ts[i] == t {
			return i
		}
	}
	return -1
}
