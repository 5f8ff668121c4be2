package protocol

import (
	"context"
	"fmt"

	"github.com/mentalmj/mentalmj/riichi/game"
)

// Player chooses a seated player's actions. Act is called whenever the
// kyoku waits for seat: on its turn (dahai, riichi, kan, tsumo agari,
// kyuushu kyuuhai), when a tile is on offer (pass, chi, pon, daiminkan,
// ron) and at an exhaustive draw (tenpai or noten). view is a private copy
// of the kyoku in which the player's own tiles are revealed and everyone
// else's are hidden; the action must be one of view.LegalActions(seat) —
// the protocol checks it before anything is sent. An error aborts the
// hand (a human quitting, say).
type Player interface {
	Act(ctx context.Context, view *game.Kyoku, seat game.Seat) (game.Action, error)
}

// Attended is a Player whose decisions are shown on a screen that can go
// away: a browser table page (package ui/web), closed or cut off mid-game.
// While the screen is away, the player's decision clock (Config.Clock)
// stands still: no time is charged to it, and the node does not act for
// the player when the clock would have run out. The node still acts for
// it when Config.DecisionTimeout passes, which is shorter than the other
// players' wait for any silent player (Config.TurnTimeout), so an absent
// screen holds the table no longer than a silent player does, and never
// makes the others name this one. A Player that is not Attended is taken
// as always seen (the terminal, a bot).
type Attended interface {
	Player
	// Away reports whether the player's screen is away now, and returns
	// a channel that is closed at the next change (away or back).
	Away() (away bool, changed <-chan struct{})
}

// PlayerFunc adapts a function to the Player interface.
type PlayerFunc func(ctx context.Context, view *game.Kyoku, seat game.Seat) (game.Action, error)

// Act calls f.
func (f PlayerFunc) Act(ctx context.Context, view *game.Kyoku, seat game.Seat) (game.Action, error) {
	return f(ctx, view, seat)
}

// Tsumogiri is the simplest automatic Player: it discards the tile it just
// drew, passes on every tile on offer and declares noten at an exhaustive
// draw unless its hand is tenpai.
type Tsumogiri struct{}

// Act returns the action described on Tsumogiri; it returns an error only
// if none of those is legal.
func (Tsumogiri) Act(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
	legal := v.LegalActions(s)
	tiles, _ := v.Hand(s)
	for _, want := range []game.ActionType{game.Discard, game.Pass, game.Tenpai, game.Noten} {
		for _, a := range legal {
			if a.Type != want || a.Riichi {
				continue
			}
			if want == game.Discard && len(tiles) > 0 && a.Tile != tiles[len(tiles)-1] {
				continue
			}
			return a, nil
		}
	}
	for _, a := range legal {
		if a.Type == game.Discard && !a.Riichi {
			return a, nil
		}
	}
	return game.Action{}, fmt.Errorf("tsumogiri: no dahai, pass or declaration among %d legal actions", len(legal))
}
