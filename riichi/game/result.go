package game

import (
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// EndKind is how a kyoku ended.
type EndKind int

// The ways a kyoku ends.
const (
	// EndAgari is one win (tsumo or ron) or a double ron.
	EndAgari EndKind = iota + 1
	// EndExhaustive is the exhaustive draw (荒牌平局) with tenpai payments
	// or, if any player qualifies, nagashi mangan payments.
	EndExhaustive
	// EndAbortive is an abortive draw (途中流局); see Abort.
	EndAbortive
)

// Abort is the kind of an abortive draw.
type Abort int

// The abortive draws of Tenhou's rules.
const (
	NoAbort Abort = iota
	// AbortKyuushu is kyuushu kyuuhai (九種九牌), Tenhou code "yao9".
	AbortKyuushu
	// AbortSuucha is suucha riichi (四家立直), "reach4": all four players
	// in riichi, after the fourth riichi deposit is accepted.
	AbortSuucha
	// AbortSanchahou is sanchahou (三家和), "ron3": three players ron the
	// same discard (Tenhou aborts instead of paying a triple ron).
	AbortSanchahou
	// AbortSuukan is suukan sanra (四槓散了), "kan4": four kans by more than
	// one player, after the discard following the fourth kan passes.
	AbortSuukan
	// AbortSuufon is suufon renda (四風連打), "kaze4": the four first
	// discards are the same wind with no call before.
	AbortSuufon
)

var abortCodes = [...]string{"", "yao9", "reach4", "ron3", "kan4", "kaze4"}

// TenhouCode returns the RYUUKYOKU type= code of an abortive draw ("yao9",
// "reach4", "ron3", "kan4", "kaze4"), "" for NoAbort.
func (a Abort) TenhouCode() string {
	if a < 0 || int(a) >= len(abortCodes) {
		return "?"
	}
	return abortCodes[a]
}

// Meld is a declared meld with the absolute seat it was called from.
type Meld struct {
	riichi.Meld
	// FromSeat is the seat whose discard was called (the owner for Ankan;
	// for Kakan the seat of the original pon).
	FromSeat Seat
}

// RiverTile is one discard in a player's river (kawa).
type RiverTile struct {
	// Tile is the discarded tile and Pos its yama position.
	Tile wall.Tile
	Pos  int
	// Tsumogiri is true when the tile discarded was the one just drawn.
	Tsumogiri bool
	// Riichi marks the riichi declaration discard.
	Riichi bool
	// Called is true when another player called the tile.
	Called bool
}

// Win is one agari of a kyoku result.
type Win struct {
	// Seat won; From dealt in (From == Seat for tsumo).
	Seat, From Seat
	// Tsumo and Chankan describe how the tile was won.
	Tsumo, Chankan bool
	// Hand is the concealed hand including WinTile; Melds the declared
	// melds.
	Hand    []wall.Tile
	Melds   []Meld
	WinTile wall.Tile
	// DoraIndicators and UraIndicators are the indicators scored (ura only
	// for a riichi winner, else nil).
	DoraIndicators, UraIndicators []wall.Tile
	// Value is the evaluation by riichi.Score: yaku, han, fu, points.
	// For the second winner of a double ron Value.Pay excludes honba.
	Value riichi.WinResult
	// Pao is the seat liable for daisangen/daisuushii (sekinin barai), or
	// NoSeat.
	Pao Seat
	// Before are the scores just before this win was paid (after riichi
	// deposits and any earlier win of a double ron): mjlog sc= first values.
	Before [4]int
	// Deltas are the score changes of this win, honba and (for the first
	// winner) riichi sticks included: mjlog sc= second values.
	Deltas [4]int
}

// Result is the outcome of a kyoku.
type Result struct {
	// End is how the kyoku ended; Abort the abortive-draw kind.
	End   EndKind
	Abort Abort
	// Wins are the agari in payment order: for a double ron the winner
	// nearest the discarder in turn order first (he takes honba and riichi
	// sticks, Tenhou's atamahane).
	Wins []Win
	// Tenpai marks tenpai players at an exhaustive draw (Tenhou: a wait
	// only on a kind the hand holds all four of is not tenpai).
	Tenpai [4]bool
	// Nagashi marks nagashi mangan players at an exhaustive draw.
	Nagashi [4]bool
	// Before are the scores before the payments (riichi deposits of this
	// kyoku already taken); Deltas the total changes; Scores the scores
	// after.
	Before, Deltas, Scores [4]int
	// Renchan is true when the dealer keeps the deal: dealer win, dealer
	// tenpai at an exhaustive draw, or any abortive draw (Tenhou).
	Renchan bool
	// Honba is the honba count of this kyoku; Kyotaku the riichi sticks
	// left on the table after it (0 after a win).
	Honba, Kyotaku int
}
