package protocol

import (
	"context"

	"github.com/mentalmj/mentalmj/wall"
)

// HandTile is one tile a player holds: its yama position (0..135) and its
// Tenhou tile id.
type HandTile struct {
	Position int
	Tile     wall.Tile
}

// TurnView is what a player sees when it must choose a dahai.
type TurnView struct {
	// Hand is the player's 14 concealed tiles, the drawn tile last.
	Hand []HandTile
	// Seat is the player's seat (0 = first East); Oya is the dealer's seat.
	Seat, Oya int
	// DoraIndicator is the revealed dora indicator (yama[5]).
	DoraIndicator wall.Tile
	// Rivers holds each seat's discards so far, in order.
	Rivers [Players][]wall.Tile
	// LiveLeft is the number of live-wall tiles still to be drawn.
	LiveLeft int
}

// Player chooses dahai. Dahai returns the index into view.Hand of the tile
// to discard, or an error (which aborts the hand) — for example when a
// human player quits.
type Player interface {
	Dahai(ctx context.Context, view TurnView) (int, error)
}

// PlayerFunc adapts a function to the Player interface.
type PlayerFunc func(ctx context.Context, view TurnView) (int, error)

// Dahai calls f.
func (f PlayerFunc) Dahai(ctx context.Context, view TurnView) (int, error) { return f(ctx, view) }

// Tsumogiri is the simplest automatic Player: it always discards the tile
// it just drew (index len(Hand)-1).
type Tsumogiri struct{}

// Dahai returns len(view.Hand)-1, the drawn tile.
func (Tsumogiri) Dahai(_ context.Context, v TurnView) (int, error) { return len(v.Hand) - 1, nil }
