package game

import "github.com/mentalmj/mentalmj/riichi"

// Rounding selects how final game points (uma/oka) are computed from the
// final scores.
type Rounding int

const (
	// PointsExact computes (score - Return)/1000 + uma exactly, in tenths
	// of a point (Tenhou from about 2021; owari values like 61.8).
	PointsExact Rounding = iota
	// PointsRounded first rounds the score to thousands, halves away from
	// zero (31500 → 32, 25500 → 26, -4500 → -5), then subtracts
	// Return/1000 and adds uma (Tenhou logs up to 2020, owari values like
	// 45.0; the rule was read off the 900 rounded owari values of the
	// shared logs).
	PointsRounded
)

// Rules are the match rules. TenhouRules returns Tenhou's four-player
// ranked rules.
type Rules struct {
	// Hand are the hand-evaluation options (red fives, open tanyao).
	Hand riichi.Rules
	// Hanchan selects an east-south game (半荘); false is east only (東風).
	Hanchan bool
	// Start is the starting score of every player (25000 on Tenhou).
	Start int
	// Return is the return score (返し, 30000 on Tenhou): the score a player
	// needs to end the match at the regular end, and the base of the final
	// points (the difference Return - Start per player is the oka, paid to
	// the top).
	Return int
	// Uma is the placement bonus in thousands of points for ranks 1..4
	// (Tenhou: 20, 10, -10, -20). The top's final points are the negated
	// sum of the others', so oka and rounding remainders go to the top.
	Uma [4]int
	// Rounding selects the point rounding of the final standings.
	Rounding Rounding
	// Players is 4 (also when 0) or 3 for sanma (TenhouSanmaRules): seats
	// 0..2, the 108-tile wall (wall.ThreePlayer), no chi, kita
	// (nukidora) with its rinshan draw, three-player payments (Hand.Sanma
	// must be set too), no suufon renda or suucha riichi, East 1-3 then
	// South 1-3 (round indices skip 3, 7, 11).
	Players int
}

// TenhouSanmaRules returns Tenhou's three-player ranked rules: 35000
// start, 40000 return, uma 20/0/-20 (oka 15000 to the top), red fives
// (5p, 5s) and open tanyao as given, hanchan or tonpuusen; the values were
// read off the owari and AGARI sc= of the 100 shared three-player logs.
func TenhouSanmaRules(hanchan, aka, kuitan bool) Rules {
	return Rules{
		Hand:    riichi.Rules{Aka: aka, Kuitan: kuitan, Sanma: true},
		Hanchan: hanchan,
		Start:   35000,
		Return:  40000,
		Uma:     [4]int{20, 0, -20, 0},
		Players: 3,
	}
}

// players returns the number of players, 3 or 4.
func (r Rules) players() int {
	if r.Players == 3 {
		return 3
	}
	return 4
}

// nextRound returns the round index after round: in sanma the fourth
// hand of a wind does not exist (East 3 → South 1).
func (r Rules) nextRound(round int) int {
	round++
	if r.players() == 3 && round%4 == 3 {
		round++
	}
	return round
}

// TenhouRules returns Tenhou's four-player ranked rules (tenhou.net/man):
// 25000 start, 30000 return, uma 20/10/-10/-20 (oka 20 to the top),
// red fives and open tanyao as given, hanchan or tonpuusen, exact points.
func TenhouRules(hanchan, aka, kuitan bool) Rules {
	return Rules{
		Hand:    riichi.Rules{Aka: aka, Kuitan: kuitan},
		Hanchan: hanchan,
		Start:   25000,
		Return:  30000,
		Uma:     [4]int{20, 10, -10, -20},
	}
}

// lastRound is the round index of the regular last hand (all-last):
// South 4 (7) for a hanchan, East 4 (3) for an east-only game.
func (r Rules) lastRound() int {
	last := 3
	if r.Hanchan {
		last = 7
	}
	if r.players() == 3 {
		last-- // South 3 (East 3): no fourth hand in sanma
	}
	return last
}

// maxRound is the last round index of the extension (West 4 = 11 for a
// hanchan, South 4 = 7 for an east-only game): the match ends after it.
func (r Rules) maxRound() int { return r.lastRound() + 4 }
