package game

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mentalmj/mentalmj/wall"
)

// ActionType is the kind of a player action.
type ActionType int

// The player actions. The tsumo draw itself is not an action: the driver
// makes it with Kyoku.Draw.
const (
	// Discard (dahai) of Action.Tile, declaring riichi if Action.Riichi.
	Discard ActionType = iota + 1
	// Chi calls the discard with the two hand tiles Action.Tiles.
	Chi
	// Pon calls the discard with the two hand tiles Action.Tiles.
	Pon
	// Daiminkan calls the discard with the three hand tiles Action.Tiles.
	Daiminkan
	// Ankan declares a concealed kan of the four hand tiles Action.Tiles.
	Ankan
	// Kakan adds the hand tile Action.Tile to the player's pon.
	Kakan
	// TsumoAgari declares a self-drawn win on the tile just drawn.
	TsumoAgari
	// Ron wins on the discard (or, as chankan, the kan tile) on offer.
	Ron
	// KyuushuKyuuhai declares the abortive draw with nine or more kinds of
	// terminals and honours on the first draw.
	KyuushuKyuuhai
	// Pass declines every call and ron on the tile on offer.
	Pass
	// Tenpai declares tenpai at an exhaustive draw (the hand must have been
	// revealed). Only needed when the engine cannot see the hand.
	Tenpai
	// Noten declares noten at an exhaustive draw, keeping the hand hidden;
	// the claim is checked when the hand is revealed (see Recheck).
	Noten
	// Kita sets the north tile Action.Tile aside as nukidora (sanma only,
	// on the own turn; mjlog <N> with meld bit 0x20): it counts as one
	// dora for the player, may be ronned like a discard, and is replaced by
	// a rinshan draw.
	Kita
)

var actionNames = map[ActionType]string{
	Discard: "discard", Chi: "chi", Pon: "pon", Daiminkan: "daiminkan",
	Ankan: "ankan", Kakan: "kakan", TsumoAgari: "tsumo", Ron: "ron",
	KyuushuKyuuhai: "kyuushu kyuuhai", Pass: "pass", Tenpai: "tenpai",
	Noten: "noten", Kita: "kita",
}

// String returns the action's name ("discard", "pon", "tsumo", …) or
// "action(<n>)".
func (t ActionType) String() string {
	if s, ok := actionNames[t]; ok {
		return s
	}
	return fmt.Sprintf("action(%d)", int(t))
}

// Action is one player action.
type Action struct {
	// Type is the action kind.
	Type ActionType
	// Seat is the acting player.
	Seat Seat
	// Tile is the discarded tile (Discard) or the added tile (Kakan). For
	// Chi, Pon, Daiminkan and Ron the caller need not set it: Apply and
	// LegalActions fill in the tile on offer. Ignored for other types.
	Tile wall.Tile
	// Tiles are the tiles taken from the hand: 2 for Chi and Pon, 3 for
	// Daiminkan, 4 for Ankan.
	Tiles []wall.Tile
	// Riichi declares riichi with this discard (Discard only).
	Riichi bool
}

// String writes the action in a short human form: "discard 5p",
// "discard 3m riichi", "pon 5p (0p5p)", "chi 3m (4m5m)", "ankan 1z",
// "kakan 5p", "ron", "tsumo", "pass"; red fives named as Tenhou's
// (wall.TenhouReds).
func (a Action) String() string { return a.Format(wall.TenhouReds) }

// Format writes the action as String does, naming its tiles at a table
// playing the red fives reds (Rules.Hand.Reds): under no red fives a pon
// of 5p is "pon 5p (5p5p)" whatever the ids.
func (a Action) Format(reds wall.Reds) string {
	var b strings.Builder
	b.WriteString(a.Type.String())
	switch a.Type {
	case Discard, Kakan:
		b.WriteString(" " + reds.Name(a.Tile))
		if a.Riichi {
			b.WriteString(" riichi")
		}
	case Chi, Pon, Daiminkan:
		if a.Tile.Valid() {
			b.WriteString(" " + reds.Name(a.Tile))
		}
		b.WriteString(" (")
		for _, t := range a.Tiles {
			b.WriteString(reds.Name(t))
		}
		b.WriteString(")")
	case Ankan:
		if len(a.Tiles) > 0 {
			b.WriteString(" " + a.Tiles[0].Kind().String())
		}
	}
	return b.String()
}

// ErrIllegal is wrapped by every *IllegalError: errors.Is(err, ErrIllegal)
// tells a rule violation apart from a misuse of the API.
var ErrIllegal = errors.New("illegal action")

// IllegalError is the error Apply returns for an action the rules forbid
// in the current state. Its message names the player, the action and the
// reason: "seat 2 (West): pon 5p (5p5p): riichi declared".
type IllegalError struct {
	// Seat is the acting player and Wind its seat-wind name.
	Seat Seat
	Wind string
	// Action is the rejected action.
	Action Action
	// Reason says which rule forbids it.
	Reason string
	// Reds are the table's red fives (Rules.Hand.Reds), naming the
	// action's tiles in Error (none: every five plain).
	Reds wall.Reds
}

// Error implements error.
func (e *IllegalError) Error() string {
	return fmt.Sprintf("seat %d (%s): %s: %s", int(e.Seat), e.Wind, e.Action.Format(e.Reds), e.Reason)
}

// Unwrap returns ErrIllegal.
func (e *IllegalError) Unwrap() error { return ErrIllegal }
