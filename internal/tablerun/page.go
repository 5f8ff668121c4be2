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

// watchPage says on the node's screen, while the game is played, when the
// player's table page has gone (closed, or its connection lost, for
// pageNote: a reload says nothing) and when it is back. While no page is
// connected the player's clock stands still (protocol.Attended): the node
// plays for the player only when a decision has waited its decision
// timeout, just short of the others' wait for any silent player; the
// screen says that and where the table is. It returns at once for a seat
// without a browser table; the watch ends with ctx.
func (p *playing) watchPage(ctx context.Context) {
	if p.front.srv == nil || !p.human() {
		return
	}
	srv := p.front.srv
	go srv.WatchPages(ctx, pageNote, func() {
		fmt.Fprintf(p.screen, "no table page is open: your clock stands still, and the node plays for you (tsumogiri, pass) only when a decision has waited as long as the table waits for a silent player; open the table again at %s\n", srv.URL())
	}, func() {
		fmt.Fprintf(p.screen, "the table page is open again: your clock runs from where it stopped\n")
	})
}
