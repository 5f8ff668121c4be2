package terminal

import (
	"context"
	"time"
)

// HoldResult holds the next deal while the player reads the hand's
// result just printed: until Enter, hold, or ctx's end. It prints one
// line saying so. A line typed before the call is not an Enter for it.
func (t *Table) HoldResult(ctx context.Context, hold time.Duration) {
	if hold <= 0 {
		return
	}
	key := "term.next_hand"
	if t.model.Snapshot().LastHand {
		key = "term.standings_next" // the game's last hand: no next one
	}
	t.printf("%s\n", t.lang.T(key, int((hold+time.Second-1)/time.Second)))
	hctx, cancel := context.WithTimeout(ctx, hold)
	defer cancel()
	t.lines.Next(hctx, time.Now(), nil) // a line, the hold's end or the input's end
}
