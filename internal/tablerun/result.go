package tablerun

import (
	"context"
	"fmt"
	"time"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// ResultHold is how long at most a human's node holds the next deal while
// its player reads a hand's result (the page's result screen, the
// terminal's summary), unless the player dismisses it sooner; Tenhou's
// "5+10+10" gives the same ten seconds to its result screen
// (package riichi/timecontrol cites it). resultHold keeps the hold within a
// third of the table's wait for an automatic step, so that the other
// nodes, waiting for this node's first entry of the next hand, never
// take the hold for silence (SPEC.md §9).
const ResultHold = 10 * time.Second

// resultHold returns the hold for a node whose wait for an automatic step
// is timeout (0: protocol.DefaultTimeout).
func resultHold(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		timeout = protocol.DefaultTimeout
	}
	return min(ResultHold, timeout/3)
}

// holdResult holds the next deal while a human player reads the result
// of the hand just shown (nothing for a bot's or mjai bot's seat, or a
// tsumogiri seat): until dismissed on the page or the terminal, or the
// hold has passed, or ctx ends.
func (f *frontend) holdResult(ctx context.Context, hold time.Duration) {
	if f.player == nil {
		return
	}
	if f.term != nil {
		f.term.HoldResult(ctx, hold)
		return
	}
	f.model.WaitResult(ctx, hold)
}

// lastHand reports whether r, the hand just recorded, is the game's last:
// the set number of hands (--hands N) is played, the hand ended without a
// result or with a blame (the game stops), or the match is over after it
// (game.Match.End from the state the hand started from, r.Start, as the
// protocol's own match does after the hand).
func (p *playing) lastHand(r protocol.HandResult) bool {
	return isLastHand(p.g.Rules(), p.Play.Hands, len(p.results), r)
}

// isLastHand is lastHand for a game under rules of hands hands (0: a
// whole match) of which played are done, r the last of them.
func isLastHand(rules game.Rules, hands, played int, r protocol.HandResult) bool {
	if hands > 0 && played >= hands {
		return true
	}
	if r.Result == nil || len(r.Blame) > 0 {
		return true
	}
	m := game.NewMatch(rules)
	m.Resync(r.Start)
	if err := m.End(r.Result); err != nil {
		return true
	}
	return m.Over()
}

// reportStandings reports the standings st at the end of the game: the
// final standings of a finished match, or, for a game of a fixed number
// of hands (--hands N), the standings after those hands. Players are
// named with the seat wind of the last hand played.
func (p *playing) reportStandings(st game.Standings, matchOver bool) {
	oya := -1
	if n := len(p.results); n > 0 {
		oya = p.results[n-1].Oya
	}
	name := verdict.Names{Seats: p.g.Seats(), Nicks: p.g.Nicks()}.Seat(oya)
	title := "final standings (points with uma)"
	if !matchOver {
		title = fmt.Sprintf("standings after %d hands (points with uma, as if the match ended here)", len(p.results))
	}
	p.Out.Event(progress.Standings{Order: st.Order, Scores: st.Scores, Points: st.Points, MatchOver: matchOver},
		"%s:\n%s", title, verdict.FormatStandingsOf(st, p.g.Players(), name))
}
