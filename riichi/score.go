package riichi

import (
	"errors"

	"github.com/mentalmj/mentalmj/wall"
)

// ErrNotComplete is wrapped by Score when the hand is not a complete hand
// (or has the wrong number of tiles).
var ErrNotComplete = errors.New("riichi: hand is not complete")

// ErrNoYaku is wrapped by Score when the complete hand has no yaku (dora
// alone do not count).
var ErrNoYaku = errors.New("riichi: hand has no yaku")

// Rules selects rule options. Tenhou ari-ari is Rules{Aka: true, Kuitan:
// true}.
type Rules struct {
	// Aka counts red fives (ids 16, 52, 88) as aka dora (yaku 54).
	Aka bool
	// Kuitan allows tanyao in open hands.
	Kuitan bool
}

// TenhouRules is Tenhou's four-player ari-ari ruleset.
var TenhouRules = Rules{Aka: true, Kuitan: true}

// WinContext is everything Score needs about one agari.
type WinContext struct {
	// Hand is the concealed part INCLUDING the winning tile: 14 - 3*len(Melds)
	// tiles.
	Hand []wall.Tile
	// Melds are the declared melds (at most 4).
	Melds []Meld
	// WinTile is the winning tile (must be in Hand).
	WinTile wall.Tile
	// Tsumo is true for a self-drawn win, false for ron.
	Tsumo bool
	// SeatWind and RoundWind are wind kinds, 27 East .. 30 North. The winner
	// is the dealer (oya) when SeatWind == 27.
	SeatWind, RoundWind wall.Kind
	// Situational yaku. DoubleRiichi implies riichi (set Riichi too or not;
	// either works). Tenhou / Chiihou are the dealer's / a non-dealer's
	// first-draw tsumo wins.
	Riichi, DoubleRiichi, Ippatsu, Haitei, Houtei, Rinshan, Chankan, Tenhou, Chiihou bool
	// DoraIndicators are the revealed dora indicators (kan dora included);
	// UraIndicators are counted only with riichi.
	DoraIndicators, UraIndicators []wall.Tile
	// Honba is the number of honba sticks; RiichiSticks the number of riichi
	// deposits on the table (reported back unchanged: Payment excludes them).
	Honba, RiichiSticks int
	// Rules are the rule options (TenhouRules for Tenhou).
	Rules Rules
}

// WinResult is the value of one agari, as Tenhou records it in <AGARI>.
type WinResult struct {
	// Yaku are the non-yakuman yaku in Tenhou's yaka= order, dora included.
	Yaku []Yaku
	// Yakuman are Tenhou yakuman ids (yakuman= attribute); empty if none.
	Yakuman []int
	// Han is the total han (yakuman: 13 per yakuman), Fu the fu.
	Han, Fu int
	// Limit is Tenhou's ten= third field: 0 none, 1 mangan, 2 haneman,
	// 3 baiman, 4 sanbaiman, 5 yakuman.
	Limit int
	// Points is Tenhou's ten= second field: the hand's total value without
	// honba and riichi sticks.
	Points int
	// Pay is who pays what, honba included.
	Pay Payment
}

// Score evaluates a win. It returns an error wrapping ErrNotComplete if
// the hand is malformed or not a complete hand, or ErrNoYaku if it has no
// yaku.
func Score(ctx WinContext) (WinResult, error) {
	return WinResult{}, errors.New("riichi: Score not implemented")
}
