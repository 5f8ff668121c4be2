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

	// The house rules (package riichi/rules builds them). Every zero value is
	// Tenhou's rule, so TenhouRules, TenhouSanmaRules and literals that
	// leave them out play Tenhou.

	// Kuikae is what may be discarded right after a chi or pon.
	Kuikae Kuikae
	// NoTobi plays on with negative scores; otherwise a score below
	// TobiBelow points ends the match (Tenhou: below 0).
	NoTobi    bool
	TobiBelow int
	// Ron is the multiple-ron rule (Tenhou: RonDouble).
	Ron MultiRon
	// NoKyuushu, NoSuufon, NoSuucha, NoSuukaikan and NoSanchahou switch
	// the abortive draws off: kyuushu kyuuhai is no legal action, four
	// same winds, four riichi and four kans play on, and three rons
	// (RonDouble) pay the two nearest the discarder.
	NoKyuushu, NoSuufon, NoSuucha, NoSuukaikan, NoSanchahou bool
	// NoNagashi plays no nagashi mangan (tenpai payments only).
	NoNagashi bool
	// RenchanAgari keeps the deal only on a dealer win (and abortive
	// draws): a tenpai dealer passes the deal at an exhaustive draw.
	RenchanAgari bool
	// NoAgariYame and NoTenpaiYame play on at the last hand when the
	// dealer, first with at least the target, wins or is tenpai.
	NoAgariYame, NoTenpaiYame bool
	// NoPao pays daisangen and daisuushii without liability.
	NoPao bool
	// NoWest ends the match after the regular last hand; otherwise the
	// extension round is played when nobody has WestTarget (0: Return)
	// and ends as soon as someone has it.
	NoWest     bool
	WestTarget int
	// RiichiNoDraw allows riichi with fewer tiles left in the live wall
	// than players (no own draw left).
	RiichiNoDraw bool
	// Ura dora, kan dora and kan ura are Hand.NoUra, Hand.NoKanDora and
	// Hand.NoKanUra: the engine turns (DoraIndicators, DoraPositions,
	// DoraPending) only the indicators those rules count.
}

// Kuikae is what a player may discard right after a chi or pon.
type Kuikae int

// The kuikae rules, strictest first (@kobalab/majiang-core's
// '喰い替え許可レベル' 0, 1, 2).
const (
	// KuikaeForbidden forbids the called kind and, after a chi, the kind
	// at the other end of the sequence (Tenhou).
	KuikaeForbidden Kuikae = iota
	// KuikaeSuji forbids only the called kind.
	KuikaeSuji
	// KuikaeAllowed allows any discard.
	KuikaeAllowed
)

// MultiRon is what happens when several players ron one discard.
type MultiRon int

// The multiple-ron rules.
const (
	// RonDouble pays two rons; three rons abort (sanchahou) unless
	// NoSanchahou, then the two nearest the discarder are paid (Tenhou).
	RonDouble MultiRon = iota
	// RonAtamahane pays only the ron nearest the discarder (head bump).
	RonAtamahane
	// RonTriple pays every ron.
	RonTriple
)

// target returns the score that ends the match at the last hand and the
// extension round: WestTarget, or Return when 0.
func (r Rules) target() int {
	if r.WestTarget > 0 {
		return r.WestTarget
	}
	return r.Return
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
