package web

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// TestBrowserPageDrops drops the table page mid-hand, as a player's lost
// connection, closed tab or reload does, in headless Chromium against
// three bots, and checks what the player gets back:
//
//   - The connection drops (the server closes the WebSocket) while a
//     discard is asked, and the player clicks a tile before the page has
//     reconnected: the page sends the click once it is back, and the node
//     discards exactly that tile, well before the decision's time runs out
//     (with the old page the click was dropped and the node discarded on
//     the clock).
//   - The tab leaves the table during a decision (about:blank): the clock
//     is not held for it, the node acts for the player when the decision
//     time runs out, and the page opened again at the same address shows
//     the feed line saying what the node chose and, at the next decision,
//     the whole current table (hand, rivers, scores, tiles left, names);
//     that decision is taken through the reopened page.
func TestBrowserPageDrops(t *testing.T) {
	// It runs beside the other browser tests, so its decisions are long
	// enough that a click crossing a dropped connection arrives in time
	// on a loaded machine (6 s decisions timed out so in a fresh-clone CI
	// run); the clock's own expiry in step 2 waits out one whole decision.
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx := newBrowser(t, ctx)
	const decision = 12 * time.Second
	bt := startTable(t, ctx, 4, decision, 0)
	if err := chromedp.Do(bctx, chromedp.Navigate(bt.srv.URL())); err != nil {
		t.Fatal(err)
	}
	shot := func(name string) {
		png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Errorf("screenshot: %v", err)
			return
		}
		dirs := []string{t.ArtifactDir()}
		if d := os.Getenv("MENTALMJ_SCREENSHOTS"); d != "" {
			dirs = append(dirs, d)
		}
		for _, d := range dirs {
			if err := os.WriteFile(filepath.Join(d, name), png, 0o644); err != nil {
				t.Errorf("screenshot: %v", err)
			}
		}
	}
	// nextDecision waits for a decision newer than last; with discard, for
	// one that asks for a discard (a playable hand tile).
	nextDecision := func(last int, discard bool) *screen.Decision {
		t.Helper()
		for {
			select {
			case <-bt.done:
				bt.mu.Lock()
				err := bt.err
				bt.mu.Unlock()
				t.Fatalf("the game ended (%v) before a decision after %d", err, last)
			case <-ctx.Done():
				t.Fatalf("no decision after %d", last)
			case <-time.After(5 * time.Millisecond):
			}
			s := bt.model.Snapshot()
			d := s.Decision
			if d == nil || d.ID <= last {
				continue
			}
			if !discard {
				return d
			}
			for _, o := range d.Options {
				if o.Kind == "discard" {
					return d
				}
			}
			// Not a discard: pass it through the page and wait on.
			if _, err := chromedp.Run(bctx, chromedp.Evaluate[string](playStep)); err != nil {
				t.Fatal(err)
			}
			last = d.ID
		}
	}
	waitPage := func(cond string, what string) {
		t.Helper()
		for {
			ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](cond))
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				return
			}
			select {
			case <-ctx.Done():
				t.Fatalf("the page never %s", what)
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	timeouts := func() int {
		n := 0
		for _, e := range bt.model.Snapshot().Feed {
			if e.Msg != nil && e.Msg.Key == "info.time_ran_out" {
				n++
			}
		}
		return n
	}

	// 1. The connection drops during a discard; the click made while the
	// page is disconnected reaches the node once it is back.
	d := nextDecision(0, true)
	waitPage(`!!document.querySelector("#hand button.playable")`, "showed a playable tile")
	before := len(bt.model.Snapshot().Seats[bt.model.Snapshot().Self].River)
	asked := time.Now()
	bt.srv.dropPages()
	waitPage(`document.body.dataset.state === "disconnected"`, "saw its connection drop")
	tile, err := chromedp.Run(bctx, chromedp.Evaluate[int](`(() => {
  const b = document.querySelector("#hand button.drawn.playable") || document.querySelector("#hand button.playable");
  b.click();
  return Number(b.dataset.tile);
})()`))
	if err != nil {
		t.Fatal(err)
	}
	shot("disconnected.png")
	if p, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.dataset.pending || ""`)); p != "1" {
		t.Errorf("the click while disconnected is not held by the page (pending %q)", p)
	}
	for {
		s := bt.model.Snapshot()
		if r := s.Seats[s.Self].River; len(r) > before {
			if r[before].Tile/4 != tile/4 {
				t.Fatalf("clicked %s while disconnected, the node discarded %s", s.TileName(tile), s.TileName(r[before].Tile))
			}
			break
		}
		if time.Since(asked) > decision {
			t.Fatalf("decision %d: the click made while disconnected never reached the node (the decision timed out)", d.ID)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := timeouts(); n != 0 {
		t.Fatalf("the node acted on the clock %d times; the click should have decided", n)
	}
	t.Logf("a click while disconnected reached the node %s after the decision was asked", time.Since(asked).Round(time.Millisecond))

	// 2. The tab leaves the table during a decision: the node acts on the
	// clock, and the page opened again shows the whole table.
	d = nextDecision(d.ID, false)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	left := time.Now()
	for timeouts() == 0 {
		if time.Since(left) > decision+10*time.Second {
			t.Fatalf("decision %d: the node never acted on the clock for the gone page", d.ID)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := bt.srv.Pages(); n != 0 {
		t.Errorf("%d pages connected while the tab is away", n)
	}
	if err := chromedp.Do(bctx, chromedp.Navigate(bt.srv.URL())); err != nil {
		t.Fatal(err)
	}
	seq := bt.model.Snapshot().Seq
	waitPage(`Number(document.body.dataset.seq) >= `+strconv.Itoa(seq), "drew the current snapshot after reopening")
	feed, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#feed").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(feed, "time ran out") {
		t.Errorf("the reopened page's feed does not say what the node chose on the clock:\n%s", feed)
	}
	shot("reopened.png")

	// 3. The next decision is taken through the reopened page.
	d = nextDecision(d.ID, false)
	asked = time.Now()
	// The game waits on this decision: the reopened page must show the
	// node's whole view of the kyoku.
	seq = bt.model.Snapshot().Seq
	waitPage(`Number(document.body.dataset.seq) >= `+strconv.Itoa(seq), "drew the next decision")
	ps, err := chromedp.Run(bctx, chromedp.Evaluate[pageState](readPage))
	if err != nil {
		t.Fatal(err)
	}
	checkTable(t, ps, bt.observation())
	waitPage(`!!document.querySelector("#actions button, #hand button.playable")`, "showed the next decision")
	if did, err := chromedp.Run(bctx, chromedp.Evaluate[string](playStep)); err != nil || did == "" {
		t.Fatalf("decision %d on the reopened page: %q, %v", d.ID, did, err)
	}
	for {
		s := bt.model.Snapshot()
		if s.Decision == nil || s.Decision.ID != d.ID {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if time.Since(asked) >= decision {
		t.Errorf("decision %d timed out though the reopened page answered it", d.ID)
	}
}

// TestWatchPages: the node hears when its player's table has gone and when
// it is back. A page that leaves and comes back within the quiet time (a
// reload) says nothing; one away longer is said gone once, and back when a
// page connects again; one that was never opened is said gone too.
func TestWatchPages(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := Listen(Config{Model: screen.NewModel(nil)})
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ctx)
	const quiet = 300 * time.Millisecond
	said := make(chan string, 10)
	go s.WatchPages(ctx, quiet, func() { said <- "gone" }, func() { said <- "back" })
	expect := func(want string, within time.Duration) {
		t.Helper()
		select {
		case got := <-said:
			if got != want {
				t.Fatalf("WatchPages said %q, want %q", got, want)
			}
		case <-time.After(within):
			if want != "" {
				t.Fatalf("WatchPages said nothing in %s, want %q", within, want)
			}
		}
	}
	expect("gone", 5*time.Second) // never opened
	c := dial(t, ctx, s)
	expect("back", 5*time.Second)
	// A reload: the page leaves and a new one connects at once.
	c.CloseNow()
	c = dial(t, ctx, s)
	expect("", 3*quiet)
	if n := s.Pages(); n != 1 {
		t.Errorf("Pages = %d with one page connected", n)
	}
	// A closed tab: gone once, after the quiet time.
	start := time.Now()
	c.CloseNow()
	expect("gone", 5*time.Second)
	if d := time.Since(start); d < quiet {
		t.Errorf("said gone %s after the page left, before the quiet time %s", d, quiet)
	}
	expect("", 3*quiet)
	dial(t, ctx, s)
	expect("back", 5*time.Second)
}

// The Player is away (protocol.Attended: the protocol stands its clock
// still) exactly while no page is connected, and its change channel
// closes when a page connects or leaves. A Player served by no Server is
// never away. Once the node has acted for it on a decision while no page
// was there, it is no longer away (the clock runs, a closed tab holds
// the table up once) until a page connects again.
func TestPlayerAwayFollowsPages(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if away, _ := NewPlayer(screen.NewModel(nil)).Away(); away {
		t.Error("a Player with no server is away")
	}
	p := NewPlayer(screen.NewModel(nil))
	s, err := Listen(Config{Model: screen.NewModel(nil), Player: p})
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ctx)
	var _ protocol.Attended = p
	away, changed := p.Away()
	if !away {
		t.Fatal("away = false before any page connected")
	}
	waitChange := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("no change when %s", what)
		}
	}
	c := dial(t, ctx, s)
	waitChange("a page connected")
	if away, changed = p.Away(); away {
		t.Fatal("away with a page connected")
	}
	c.CloseNow()
	waitChange("the page left")
	for away, changed = p.Away(); !away; away, changed = p.Away() {
		// pages are unregistered when the server sees the close
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatal("still not away after the page left")
		}
	}
}

// TestAbsentAfterActingForThePlayer: a decision that ends on its deadline
// while no page is connected makes the Player absent (not away) until a
// page connects; a page that then leaves makes it away again.
func TestAbsentAfterActingForThePlayer(t *testing.T) {
	s, m, p := startServer(t)
	if away, _ := p.Away(); !away {
		t.Fatal("not away before any page connected")
	}
	dctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.Act(dctx, discardKyoku(m), 0); err == nil {
		t.Fatal("Act returned no error after its deadline")
	}
	if away, _ := p.Away(); away {
		t.Fatal("still away after the node acted for the player with no page: every decision would hold the table up")
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel2()
	c := dial(t, ctx, s)
	for s.Pages() == 0 && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	if away, _ := p.Away(); away {
		t.Fatal("away with a page connected")
	}
	c.CloseNow()
	for {
		if away, changed := p.Away(); away {
			break
		} else {
			select {
			case <-changed:
			case <-ctx.Done():
				t.Fatal("not away after the page that came back left: the absence was not cleared")
			}
		}
	}
}
