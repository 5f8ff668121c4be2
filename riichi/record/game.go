package record

import (
	"slices"

	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi/game"
	houserules "github.com/mentalmj/mentalmj/riichi/rules"
)

// Tenhou's <GO type=> rule bits (docs/wall-layout.md §7, mjlog.GoRule).
const (
	goVsHuman  = 0x01 // a table of players, not Tenhou's practice against computers
	goNoAka    = 0x02 // no red fives
	goNoKuitan = 0x04 // no open tanyao
	goHanchan  = 0x08 // east-south game
	goSanma    = 0x10 // three players
)

// Game assembles a whole four-player game as Tenhou writes it:
//
//   - GO type= the rule bits of rules (0x01 a table of players, 0x02 without
//     red fives, 0x04 without open tanyao, 0x08 hanchan; the three-player,
//     fast and lobby-level bits are never set) and lobby="0", with the
//     house rules the bits cannot say in the attribute rules.RecordAttr
//     (absent under Tenhou's rules);
//   - UN with names[0..3] (seat order; mjlog.Write %-encodes them), dan 0
//     (新人), rate 1500.00 (Tenhou's starting rating) and sx "M" for every
//     seat, since a mental game has no ranking;
//   - TAIKYOKU oya="0" (seat 0 is the first dealer, as in game.Match);
//   - rounds, in play order, as returned by Kyoku.Round;
//   - owari= on the last AGARI or RYUUKYOKU of the last round: st.Scores
//     in 100s and st.Points (tenths) as points with one decimal, seat by
//     seat (game.Standings, Tenhou's final-result convention).
//
// No SHUFFLE tag is written: the wall did not come from Tenhou's
// generator. rounds is not modified (the owari goes on a copy of the last
// round's events). With no rounds, or a last round without a result, the
// game has no owari (Game.Owari nil).
func Game(names [4]string, rules game.Rules, rounds []mjlog.Round, st game.Standings) *mjlog.Game {
	g := &mjlog.Game{
		Version: "2.3",
		Go:      mjlog.GoRule{Type: goType(rules)},
		Oya:     0,
		Rounds:  slices.Clone(rounds),
	}
	// House rules the type bits cannot say go into the record's own
	// attribute (none under Tenhou's rules).
	if v := houserules.RecordValue(rules); v != "" {
		g.Go.Extra = []mjlog.Attr{{Name: houserules.RecordAttr, Value: v}}
	}
	for _, n := range names {
		g.Players = append(g.Players, mjlog.Player{Name: n, Dan: 0, Rate: 1500, Sex: "M"})
	}
	if len(g.Rounds) == 0 {
		return g
	}
	last := &g.Rounds[len(g.Rounds)-1]
	o := &mjlog.Owari{}
	for s := range 4 {
		o.Scores = append(o.Scores, st.Scores[s]/100)
		o.Points = append(o.Points, float64(st.Points[s])/10)
	}
	for i := len(last.Events) - 1; i >= 0; i-- {
		switch e := last.Events[i].(type) {
		case mjlog.Agari:
			e.Owari = o
			last.Events = slices.Clone(last.Events)
			last.Events[i] = e
		case mjlog.Ryuukyoku:
			e.Owari = o
			last.Events = slices.Clone(last.Events)
			last.Events[i] = e
		default:
			continue
		}
		g.Owari = o
		break
	}
	return g
}

// goType returns the <GO type=> bits of rules.
func goType(rules game.Rules) int {
	t := goVsHuman
	if !rules.Hand.Aka {
		t |= goNoAka
	}
	if !rules.Hand.Kuitan {
		t |= goNoKuitan
	}
	if rules.Hanchan {
		t |= goHanchan
	}
	if rules.Players == 3 {
		t |= goSanma
	}
	return t
}
