package tablerun

import (
	"context"

	"github.com/mentalmj/mentalmj/player/bot"
	"github.com/mentalmj/mentalmj/riichi/game"
)

// botPlayer plays with package player/bot's rule-based policy.
type botPlayer struct{ b *bot.Bot }

// Act returns the bot's choice among view's legal actions for seat.
func (p botPlayer) Act(_ context.Context, v *game.Kyoku, s game.Seat) (game.Action, error) {
	return p.b.Choose(v, s)
}
