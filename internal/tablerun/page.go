package tablerun

import (
	"context"
	"fmt"
	"time"
)

// pageNote is how long awaitPage waits silently before it says that the
// game waits for the page.
const pageNote = 3 * time.Second

// awaitPage waits, for a person playing on the browser table, until its
// page has connected, so that no clock runs before the player can see
// the table: within wait (0 none), or until ctx ends. After pageNote it
// says on screen what it waits for. The others wait for this node only as
// long as they wait for any silent player (its first entry of the game).
// It returns ctx's error if ctx ends first; when wait passes it says
// that the game goes on without the page and returns nil.
func (p *playing) awaitPage(ctx context.Context, wait time.Duration) error {
	if p.front.srv == nil || !p.human() {
		return nil
	}
	wctx, cancel := context.WithCancel(ctx)
	if wait > 0 {
		wctx, cancel = context.WithTimeout(ctx, wait)
	}
	defer cancel()
	note := time.AfterFunc(pageNote, func() {
		fmt.Fprintf(p.screen, "waiting for you to open the table page before the first deal (no clock runs until then): %s\n", p.front.srv.URL())
	})
	defer note.Stop()
	if err := p.front.srv.WaitPage(wctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		fmt.Fprintf(p.screen, "the table page was not opened within %s; the game goes on without it\n", wait)
	}
	return nil
}
