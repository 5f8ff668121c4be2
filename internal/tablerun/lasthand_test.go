package tablerun

import (
	"testing"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// TestIsLastHand checks the hand after which the result screen says the
// standings follow, against Tenhou's match rules: a hanchan's East 1 is
// never the last; South 4 (round 7) ended by a non-dealer's win is; a
// player below 0 ends the match at once (tobi, even in East 1); and with
// --hands 2 the second hand is the last whatever the round.
func TestIsLastHand(t *testing.T) {
	rules := game.TenhouRules(true, true, true)
	hand := func(round int, oya game.Seat, scores [4]int, renchan bool) protocol.HandResult {
		return protocol.HandResult{
			Start:  game.Deal{Round: round, Oya: oya, Scores: [4]int{25000, 25000, 25000, 25000}},
			Result: &game.Result{End: game.EndAgari, Scores: scores, Renchan: renchan},
		}
	}
	cases := []struct {
		name          string
		hands, played int
		r             protocol.HandResult
		want          bool
	}{
		{"East 1, a non-dealer's win", 0, 1, hand(0, 0, [4]int{23000, 29000, 24000, 24000}, false), false},
		{"South 4, a non-dealer's win", 0, 8, hand(7, 3, [4]int{23000, 33000, 24000, 20000}, false), true},
		{"East 1, a player below 0", 0, 1, hand(0, 0, [4]int{-100, 51100, 24000, 25000}, false), true},
		{"--hands 2, the second", 2, 2, hand(1, 1, [4]int{23000, 29000, 24000, 24000}, false), true},
		{"--hands 2, the first", 2, 1, hand(0, 0, [4]int{23000, 29000, 24000, 24000}, false), false},
		{"no result (an aborted hand)", 0, 1, protocol.HandResult{}, true},
	}
	for _, c := range cases {
		if got := isLastHand(rules, c.hands, c.played, c.r); got != c.want {
			t.Errorf("%s: isLastHand = %v, want %v", c.name, got, c.want)
		}
	}
}
