package localgame

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/internal/progress"
	"github.com/mentalmj/mentalmj/protocol/verdict"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
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
// nil. Write errors are ignored, as for a terminal. It writes in English;
// Run writes in the language asked for (writeHand).
func WriteHand(w io.Writer, rs []progress.Hand, nameOf map[string]string) {
	writeHand(w, rs, i18n.English())
}

// writeHand is WriteHand in language l: the result is the node's message
// (progress.Hand.ResultMsg) said in l, when the node sent one.
func writeHand(w io.Writer, rs []progress.Hand, l *i18n.Lang) {
	r := rs[0]
	round := l.Round(game.RoundName(r.Round))
	if !slices.ContainsFunc(rs, func(x progress.Hand) bool { return x.Yama != nil }) && r.Events == 0 {
		fmt.Fprintln(w, l.T("local.hand.unfinished", r.Hand, round, r.Honba))
		return
	}
	status := i18n.M("local.hand.ok", len(rs), len(rs))
	if !agree(rs) {
		status = i18n.M("local.hand.failed")
	}
	var slowest float64
	for _, x := range rs {
		slowest = max(slowest, x.DurationMs)
	}
	var scores []any
	for s, v := range r.Scores[:len(rs)] {
		scores = append(scores, i18n.M("local.score", seatMsg(r.Nicks, s, r.OyaSeat), v))
	}
	result := any(r.Result)
	if r.ResultMsg != nil && l.Code != i18n.Reference {
		result = *r.ResultMsg
	}
	fmt.Fprintln(w, l.Say(i18n.M("local.hand", r.Hand, round, r.Honba, seatMsg(r.Nicks, r.OyaSeat, r.OyaSeat), r.Dice[0]+1, r.Dice[1]+1,
		tileWord(verdict.TileName(r.DoraIndicator, wall.RedsOf(r.Red...)), l), result, i18n.List("list.sep", scores...), r.Events, status,
		fmt.Sprintf("%.0f", r.SetupMs), fmt.Sprintf("%.0f", slowest))))
}

// tileWord is a tile's name (verdict.TileName: "5m", "4z") as the
// language writes it: an honour by its face (北 in Japanese, "tile.4z"),
// a suited tile, and every tile in English, as named.
func tileWord(name string, l *i18n.Lang) string {
	if strings.HasSuffix(name, "z") && l.Code != i18n.Reference && l.Has("tile."+name) {
		return l.T("tile." + name)
	}
	return name
}

// seatMsg names seat s as verdict.Names.Short does, "player-1 (South,
// seat 1)", from the nicknames in seat order (three in sanma: the winds
// then go East, South, West from the dealer) and the dealer's seat oya.
func seatMsg(nicks []string, s, oya int) i18n.Msg {
	nick := any(i18n.M("local.seatonly", s))
	if s >= 0 && s < len(nicks) && nicks[s] != "" {
		nick = nicks[s]
	}
	n := 4
	if len(nicks) == 3 {
		n = 3
	}
	return i18n.M("local.seatname", nick, i18n.M("wind."+[4]string{"East", "South", "West", "North"}[((s-oya)%n+n)%n]), s)
}

// printStandings prints the standings of the n players once, in
// language l, after checking the nodes agree on them: the final ones of
// a finished match, or after the hands played (--hands); each player
// with the seat wind of the last hand, whose dealer sat at oya (-1:
// unknown, no wind).
func printStandings(w io.Writer, st []progress.Standings, seating []string, n, oya int, l *i18n.Lang) {
	for _, s := range st[1:] {
		if s.Scores != st[0].Scores || s.Order != st[0].Order || s.Points != st[0].Points {
			fmt.Fprintln(w, l.T("local.standings.disagree"))
			return
		}
	}
	if st[0].MatchOver {
		fmt.Fprintln(w, l.T("local.standings.final"))
	} else {
		fmt.Fprintln(w, l.T("local.standings.partial"))
	}
	for rank, seat := range st[0].Order[:n] {
		name := any(i18n.M("local.seatonly", int(seat)))
		switch {
		case oya >= 0 && len(seating) >= n:
			name = seatMsg(seating[:n], int(seat), oya)
		case int(seat) < len(seating):
			name = i18n.M("local.seatno", seating[seat], int(seat))
		}
		fmt.Fprintln(w, l.Say(i18n.M("local.standing", rank+1, name, st[0].Scores[seat], fmt.Sprintf("%+.1f", float64(st[0].Points[seat])/10))))
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
	line      map[string]i18n.Msg
	reporters map[string][]string
}

// add takes in a verdict the node named reporter reports: event "blame"
// or "fault" (of kind) of hand, naming peer and player (a name or its
// message).
func (v *localVerdicts) add(event string, hand int, peer string, player any, kind, reporter string) {
	key := fmt.Sprintf("%s %d %s %s", event, hand, peer, kind)
	if v.line == nil {
		v.line, v.reporters = map[string]i18n.Msg{}, map[string][]string{}
	}
	if _, ok := v.line[key]; !ok {
		v.keys = append(v.keys, key)
		if event == "fault" {
			v.line[key] = i18n.M("local.verdict.fault", hand, player, peer, faultKind(kind))
		} else {
			v.line[key] = i18n.M("local.verdict.blame", hand, player, peer)
		}
	}
	v.reporters[key] = append(v.reporters[key], reporter)
}

// faultKind is a fault kind (protocol.FaultKind) as a message, or as is
// when the catalogue lacks it.
func faultKind(kind string) any {
	if i18n.English().Has("fault.kind." + kind) {
		return i18n.M("fault.kind." + kind)
	}
	return kind
}

// summary prints each verdict once, in language l, with its reporters.
func (v *localVerdicts) summary(w io.Writer, l *i18n.Lang) {
	for _, k := range v.keys {
		fmt.Fprintln(w, l.Say(i18n.M("local.verdict", v.line[k], strings.Join(v.reporters[k], ", "))))
	}
}
