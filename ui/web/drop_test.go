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

// dropTable is a table of three bots and the page's player, with the page
// open in headless Chromium, for the tests of a page that drops.
type dropTable struct {
	t    *testing.T
	ctx  context.Context
	bctx context.Context
	bt   *botTable
}

// openDropTable starts a 4-hand table whose page player has decision
// time per decision, and opens its page.
func openDropTable(t *testing.T, ctx context.Context, decision time.Duration) *dropTable {
	t.Helper()
	dt := &dropTable{t: t, ctx: ctx, bctx: newBrowser(t, ctx), bt: startTable(t, ctx, 4, decision, 0)}
	if err := chromedp.Do(dt.bctx, chromedp.Navigate(dt.bt.srv.URL())); err != nil {
		t.Fatal(err)
	}
	return dt
}

// shot saves a screenshot of the page as name in the test's artifact
// directory and in $MENTALMJ_SCREENSHOTS when set.
func (dt *dropTable) shot(name string) {
	t := dt.t
	png, err := chromedp.Run(dt.bctx, chromedp.CaptureScreenshot())
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
// one that asks for a discard (a playable hand tile), taking the others
// through the page.
func (dt *dropTable) nextDecision(last int, discard bool) *screen.Decision {
	t, bt := dt.t, dt.bt
	t.Helper()
	for {
		select {
		case <-bt.done:
			bt.mu.Lock()
			err := bt.err
			bt.mu.Unlock()
			t.Fatalf("the game ended (%v) before a decision after %d", err, last)
		case <-dt.ctx.Done():
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
		// Not a discard: take it through the page once the page shows
		// it, and wait on. Under load the page can lag the node's model;
		// a click on a page that has not drawn the decision takes
		// nothing, and the node then acts on the clock (seen in a -short
		// run beside protocol's tests: "acted on the clock 1 times").
		dt.waitPage(`Number(document.body.dataset.seq) >= `+strconv.Itoa(s.Seq), "drew decision "+strconv.Itoa(d.ID))
		did, err := chromedp.Run(dt.bctx, chromedp.Evaluate[string](playStep))
		if err != nil {
			t.Fatal(err)
		}
		if did != "" {
			last = d.ID
		}
	}
}

// waitPage waits until the page's script cond is true; what says what
// the page failed to do when the test's time runs out.
func (dt *dropTable) waitPage(cond string, what string) {
	t := dt.t
	t.Helper()
	for {
		ok, err := chromedp.Run(dt.bctx, chromedp.Evaluate[bool](cond))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			return
		}
		select {
		case <-dt.ctx.Done():
			t.Fatalf("the page never %s", what)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// timeouts counts the feed's "time ran out" lines: the decisions the
// node took on the clock.
func (dt *dropTable) timeouts() int {
	n := 0
	for _, e := range dt.bt.model.Snapshot().Feed {
		if e.Msg != nil && e.Msg.Key == "info.time_ran_out" {
			n++
		}
	}
	return n
}

// TestBrowserPageDrops drops the table page's connection mid-hand, as a
// player's lost connection does, in headless Chromium against three bots:
// the server closes the WebSocket while a discard is asked, and the player
// clicks a tile before the page has reconnected. The page sends the click
// once it is back, and the node discards exactly that tile, well before
// the decision's time runs out (with the old page the click was dropped
// and the node discarded on the clock). TestBrowserPageAway leaves the
// tab instead.
func TestBrowserPageDrops(t *testing.T) {
	// It runs beside the other browser tests, so its decisions are long
	// enough that a click crossing a dropped connection arrives in time
	// on a loaded machine (6 s decisions timed out so in a fresh-clone CI
	// run). The test ends with the click, not the clock.
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const decision = 12 * time.Second
	dt := openDropTable(t, ctx, decision)
	bt, bctx := dt.bt, dt.bctx

	d := dt.nextDecision(0, true)
	dt.waitPage(`!!document.querySelector("#hand button.playable")`, "showed a playable tile")
	at := bt.model.Snapshot()
	before := len(at.Seats[at.Self].River)
	asked := time.Now()
	bt.srv.dropPages()
	// The page reconnects 1 s after a drop; on a loaded machine a poll
	// for the drop and a click sent after it can straddle that second, so
	// one script in the page waits for the drop and clicks at once, and
	// reads whether the page holds the click.
	type click struct {
		Tile    int    `json:"tile"`
		Pending string `json:"pending"`
	}
	clicked, err := chromedp.Run(bctx, chromedp.Evaluate[click](`new Promise((resolve) => {
  const tryClick = () => {
    if (document.body.dataset.state !== "disconnected") { setTimeout(tryClick, 1); return; }
    const b = document.querySelector("#hand button.drawn.playable") || document.querySelector("#hand button.playable");
    b.click();
    resolve({tile: Number(b.dataset.tile), pending: String(document.body.dataset.pending || "")});
  };
  tryClick();
})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	tile := clicked.Tile
	dt.shot("disconnected.png")
	if clicked.Pending != "1" {
		t.Errorf("the click while disconnected is not held by the page (pending %q)", clicked.Pending)
	}
	for {
		s := bt.model.Snapshot()
		if r := s.Seats[s.Self].River; s.Hand == at.Hand && len(r) > before {
			if r[before].Tile/4 != tile/4 {
				t.Fatalf("clicked %s while disconnected, the node discarded %s", s.TileName(tile), s.TileName(r[before].Tile))
			}
			break
		}
		if s.Hand != at.Hand {
			// The discard ended the hand (a bot's ron on it), and the next
			// hand's river started afresh: answered, its tile unchecked.
			t.Logf("decision %d: the discard ended hand %d; its tile is not checked", d.ID, at.Hand)
			break
		}
		if time.Since(asked) > decision {
			t.Fatalf("decision %d: the click made while disconnected never reached the node (the decision timed out)", d.ID)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := dt.timeouts(); n != 0 {
		t.Fatalf("the node acted on the clock %d times; the click should have decided", n)
	}
	t.Logf("a click while disconnected reached the node %s after the decision was asked", time.Since(asked).Round(time.Millisecond))
}

// TestBrowserPageAway leaves the table page during a decision (the tab
// goes to about:blank, as a closed tab does), in headless Chromium against
// three bots: the clock is not held for the page, the node acts for the
// player when the decision time runs out, and the page opened again at
// the same address shows the feed line saying what the node chose and, at
// the next decision, the whole current table (hand, rivers, scores, tiles
// left, names); that decision is taken through the reopened page, not on
// the clock.
func TestBrowserPageAway(t *testing.T) {
	// The test waits out one whole decision, so decisions are short; the
	// reopened page's answer is checked by what decided it (the page, not
	// the clock), which a loaded machine does not change.
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const decision = 6 * time.Second
	dt := openDropTable(t, ctx, decision)
	bt, bctx := dt.bt, dt.bctx

	// 1. The tab leaves the table during a decision: the node acts on the
	// clock, and the page opened again shows the whole table.
	for bt.srv.Pages() == 0 {
		select {
		case <-ctx.Done():
			t.Fatal("the page never connected")
		case <-time.After(5 * time.Millisecond):
		}
	}
	d := dt.nextDecision(0, false)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	left := time.Now()
	for dt.timeouts() == 0 {
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
	dt.waitPage(`Number(document.body.dataset.seq) >= `+strconv.Itoa(seq), "drew the current snapshot after reopening")
	feed, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#feed").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(feed, "time ran out") {
		t.Errorf("the reopened page's feed does not say what the node chose on the clock:\n%s", feed)
	}
	dt.shot("reopened.png")

	// 2. The next decision is taken through the reopened page.
	d = dt.nextDecision(d.ID, false)
	// The game waits on this decision: the reopened page must show the
	// node's whole view of the kyoku.
	seq = bt.model.Snapshot().Seq
	dt.waitPage(`Number(document.body.dataset.seq) >= `+strconv.Itoa(seq), "drew the next decision")
	ps, err := chromedp.Run(bctx, chromedp.Evaluate[pageState](readPage))
	if err != nil {
		t.Fatal(err)
	}
	checkTable(t, ps, bt.observation())
	dt.waitPage(`!!document.querySelector("#actions button, #hand button.playable")`, "showed the next decision")
	clocked := dt.timeouts()
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
	if n := dt.timeouts(); n != clocked {
		t.Errorf("decision %d was taken on the clock though the reopened page answered it", d.ID)
	}
}

func TestWatchPages(t *testing.T) {
	t.Parallel()
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
