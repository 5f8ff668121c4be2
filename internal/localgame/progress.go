package localgame

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// agree reports whether the four reports of a hand all passed their audit
// and agree on the wall, dice and dealer.
func agree(rs []progress.Hand) bool {
	for _, r := range rs {
		if !r.AuditOK || r.Yama == nil || !slices.Equal(r.Yama, rs[0].Yama) || r.Dice != rs[0].Dice || r.OyaSeat != rs[0].OyaSeat || r.Result != rs[0].Result || r.Scores != rs[0].Scores {
			return false
		}
	}
	return true
}

// WriteHand writes local's line for one hand to w from the reports rs of
// the nodes that reported it (rs[0] names it; the time is the slowest
// node's, in ms): round, dealer, dice, dora indicator (named under rs[0]'s
// red fives), result, scores by seat, events and whether the audits
// agree, or that the hand did not finish. nameOf (peer id → name) may be
// nil. Write errors are ignored, as for a terminal.
func WriteHand(w io.Writer, rs []progress.Hand, nameOf map[string]string) {
	r := rs[0]
	if !slices.ContainsFunc(rs, func(x progress.Hand) bool { return x.Yama != nil }) && r.Events == 0 {
		fmt.Fprintf(w, "hand %d (%s, honba %d): did not finish (see the verdicts below)\n", r.Hand, game.RoundName(r.Round), r.Honba)
		return
	}
	status := fmt.Sprintf("ok (%d of %d audits agree)", len(rs), len(rs))
	if !agree(rs) {
		status = "FAILED or audits disagree"
	}
	var slowest float64
	for _, x := range rs {
		slowest = max(slowest, x.DurationMs)
	}
	var scores []string
	for s, v := range r.Scores[:len(rs)] {
		scores = append(scores, fmt.Sprintf("%s %d", seatName(r.Nicks, s, r.OyaSeat), v))
	}
	fmt.Fprintf(w, "hand %d (%s, honba %d): dealer %s, dice %d+%d, dora indicator %s: %s; scores %s; %d events, audit %s, setup %.0f ms, %.0f ms\n",
		r.Hand, game.RoundName(r.Round), r.Honba, seatName(r.Nicks, r.OyaSeat, r.OyaSeat), r.Dice[0]+1, r.Dice[1]+1, verdict.TileName(r.DoraIndicator, wall.RedsOf(r.Red...)),
		r.Result, strings.Join(scores, ", "), r.Events, status, r.SetupMs, slowest)
}

// seatName names seat s as verdict.Names.Short does, "player-1 (South,
// seat 1)", from the nicknames in seat order (three in sanma: the winds
// then go East, South, West from the dealer) and the dealer's seat oya.
func seatName(nicks []string, s, oya int) string {
	nick := fmt.Sprintf("seat %d", s)
	if s >= 0 && s < len(nicks) && nicks[s] != "" {
		nick = nicks[s]
	}
	n := 4
	if len(nicks) == 3 {
		n = 3
	}
	return fmt.Sprintf("%s (%s, seat %d)", nick, [4]string{"East", "South", "West", "North"}[((s-oya)%n+n)%n], s)
}

// printStandings prints the standings of the n players once, after
// checking the nodes agree on them: the final ones of a finished match,
// or after the hands played (--hands); each player with the seat wind
// of the last hand, whose dealer sat at oya (-1: unknown, no wind).
func printStandings(w io.Writer, st []progress.Standings, seating []string, n, oya int) {
	for _, s := range st[1:] {
		if s.Scores != st[0].Scores || s.Order != st[0].Order || s.Points != st[0].Points {
			fmt.Fprintln(w, "the nodes disagree on the final standings")
			return
		}
	}
	if st[0].MatchOver {
		fmt.Fprintln(w, "final standings (points with uma):")
	} else {
		fmt.Fprintln(w, "standings after the hands played (points with uma, as if the match ended there):")
	}
	for rank, seat := range st[0].Order[:n] {
		name := fmt.Sprintf("seat %d", seat)
		switch {
		case oya >= 0 && len(seating) >= n:
			name = seatName(seating[:n], int(seat), oya)
		case int(seat) < len(seating):
			name = fmt.Sprintf("%s (seat %d)", seating[seat], seat)
		}
		fmt.Fprintf(w, "  %d. %s: %d points (%+.1f)\n", rank+1, name, st[0].Scores[seat], float64(st[0].Points[seat])/10)
	}
}

func nameOrID(nameOf map[string]string, id string) string {
	if n, ok := nameOf[id]; ok {
		return n
	}
	return id
}

// localVerdicts gathers the four nodes' blames and faults, so that each is
// reported once with the nodes that report it.
type localVerdicts struct {
	keys      []string
	line      map[string]string
	reporters map[string][]string
}

// add takes in a verdict the node named reporter reports: event "blame"
// or "fault" (of kind) of hand, naming peer and, as the reporter names it,
// player.
func (v *localVerdicts) add(event string, hand int, peer, player, kind, reporter string) {
	key := fmt.Sprintf("%s %d %s %s", event, hand, peer, kind)
	if v.line == nil {
		v.line, v.reporters = map[string]string{}, map[string][]string{}
	}
	if _, ok := v.line[key]; !ok {
		v.keys = append(v.keys, key)
		what := "cheating proven"
		if event == "fault" {
			what = kind + " (a fault: it proves nothing about intent)"
		}
		v.line[key] = fmt.Sprintf("%s hand %d: %s %s: %s", strings.ToUpper(event), hand, player, peer, what)
	}
	v.reporters[key] = append(v.reporters[key], reporter)
}

func (v *localVerdicts) summary(w io.Writer) {
	for _, k := range v.keys {
		fmt.Fprintf(w, "verdict: %s; reported by %s\n", v.line[k], strings.Join(v.reporters[k], ", "))
	}
}
