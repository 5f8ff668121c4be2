package replay

import (
	"maps"
	"slices"
)

// Check kinds counted in Result.Checks. Each names one comparison of the
// engine against the log.
const (
	// CheckInit: an INIT's round, honba, riichi sticks, dealer and scores
	// follow from the previous kyoku by the match rules.
	CheckInit = "init"
	// CheckDraw: a tsumo tag is the draw the engine expects (seat, live or
	// rinshan, a tile left in the wall).
	CheckDraw = "draw"
	// CheckDiscard: a dahai (with or without riichi) is legal.
	CheckDiscard = "discard"
	// CheckCall: a chi, pon or kan is legal (priority, kuikae, riichi, …).
	CheckCall = "call"
	// CheckReach: a REACH step 2 matches the engine's accepted riichi and
	// the scores after the deposit.
	CheckReach = "reach"
	// CheckDora: a DORA tag comes when the engine turns a kan-dora
	// indicator (ankan at once, minkan after the replacement discard).
	CheckDora = "dora"
	// CheckAgari: an AGARI is a legal win with the same yaku (id and han),
	// yakuman, fu, points, limit, dora indicators, winning tile and hand.
	CheckAgari = "agari"
	// CheckAgariSc: an AGARI's sc= (scores before and changes) and paoWho.
	CheckAgariSc = "agari-sc"
	// CheckRyuukyoku: a RYUUKYOKU is the draw the engine reaches (kind and
	// the hands shown: tenpai players, or the kyuushu / triple-ron hands).
	CheckRyuukyoku = "ryuukyoku"
	// CheckRyuukyokuSc: a RYUUKYOKU's sc= (scores before and payments).
	CheckRyuukyokuSc = "ryuukyoku-sc"
	// CheckEnd: the match ends exactly where the log ends (owari present
	// on the last kyoku and nowhere else).
	CheckEnd = "end"
	// CheckOwariScores: owari final scores (riichi sticks to the top).
	CheckOwariScores = "owari-scores"
	// CheckOwariPoints: owari game points (uma, oka, rounding).
	CheckOwariPoints = "owari-points"
)

// Mismatch is one difference between a log and the engine.
type Mismatch struct {
	// File is the log's path; Round names the kyoku ("South 2, honba 1,
	// kyoku #7"); Tag the log tag at fault (e.g. "AGARI", "N", "D").
	File  string `json:"file"`
	Round string `json:"round"`
	Tag   string `json:"tag"`
	// Expected is what the log says, Actual what the engine says.
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
}

// Skipped is a log or check not replayed, with the reason.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// Result accumulates the outcome of replaying logs.
type Result struct {
	// Games and Rounds count the four-player games and kyoku replayed;
	// Agari counts the AGARI tags.
	Games  int `json:"games"`
	Rounds int `json:"rounds"`
	Agari  int `json:"agari"`
	// SanmaGames and SanmaRounds count the three-player games and kyoku
	// among Games and Rounds.
	SanmaGames  int `json:"sanma_games"`
	SanmaRounds int `json:"sanma_rounds"`
	// Checks counts the comparisons made, by check kind (Check* names).
	Checks map[string]int `json:"checks"`
	// Mismatches lists every difference found.
	Mismatches []Mismatch `json:"mismatches"`
	// Skipped lists logs that were not replayed at all, with the reason
	// (a rule the engine does not play).
	Skipped []Skipped `json:"skipped"`
	// Unchecked lists checks not made in games that were replayed (their
	// rounds are counted): the end of match and owari of a private lobby
	// or of a log that ends without owari.
	Unchecked []Skipped `json:"unchecked"`
	// Errors lists logs that could not be read or parsed (Files).
	Errors []FileError `json:"errors"`
}

// Merge adds o's counts and lists to r.
func (r *Result) Merge(o Result) {
	r.Games += o.Games
	r.Rounds += o.Rounds
	r.Agari += o.Agari
	r.SanmaGames += o.SanmaGames
	r.SanmaRounds += o.SanmaRounds
	if r.Checks == nil {
		r.Checks = map[string]int{}
	}
	for k, v := range o.Checks {
		r.Checks[k] += v
	}
	r.Mismatches = append(r.Mismatches, o.Mismatches...)
	r.Skipped = append(r.Skipped, o.Skipped...)
	r.Unchecked = append(r.Unchecked, o.Unchecked...)
	r.Errors = append(r.Errors, o.Errors...)
}

// CheckKinds returns the check kinds present in r, sorted.
func (r *Result) CheckKinds() []string {
	return slices.Sorted(maps.Keys(r.Checks))
}
