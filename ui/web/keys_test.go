package web

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserKeysAndSwitches plays two hands through the page with the
// keyboard only: each discard presses the key of a hand tile chosen in
// turn across the whole hand (the 11th to 13th tiles' keys -, = and \
// included; ← then Enter for some), and the node must discard exactly
// that tile. With 鳴きなし (no calls) switched on, the page passes every
// chi/pon/kan offer by itself: the test never answers one.
func TestBrowserKeysAndSwitches(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bctx := newBrowser(t, ctx)
	// Two hands: a bot's early win can end one hand after two of the
	// player's discards (a fresh run failed so), too few to key three.
	bt := startTable(t, ctx, 2, time.Minute, 0)
	if err := chromedp.Do(bctx, chromedp.Navigate(bt.srv.URL()), chromedp.WaitVisible("#switches input[data-switch=nocalls]")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.Click("#switches input[data-switch=nocalls]")); err != nil {
		t.Fatal(err)
	}
	keys := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-", "=", "\\"}
	last, keyed, arrowed, passedByPage := 0, map[int]bool{}, 0, 0
	next := 12 // from the 13th tile down: the keys \, = and - first
	for {
		select {
		case <-bt.done:
			bt.mu.Lock()
			err := bt.err
			bt.mu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("keyed discards at hand positions %v (0-based), %d by ← and Enter; %d call offers passed by the page", slices.Sorted(func(y func(int) bool) {
				for k := range keyed {
					if !y(k) {
						return
					}
				}
			}), arrowed, passedByPage)
			if passedByPage == 0 {
				t.Log("no chi/pon offer came in this hand: the switch was not exercised")
			}
			if len(keyed) < 3 || !(keyed[10] || keyed[11] || keyed[12]) {
				t.Errorf("tile keys used at positions %v: want three or more, among them the 11th to 13th tiles' -, = or \\", keyed)
			}
			return
		case <-ctx.Done():
			t.Fatal("the hand did not end in time")
		case <-time.After(10 * time.Millisecond):
		}
		snap := bt.model.Snapshot()
		d := snap.Decision
		if d == nil || d.ID <= last {
			continue
		}
		kinds := map[string]bool{}
		for _, o := range d.Options {
			kinds[o.Kind] = true
		}
		if !kinds["discard"] {
			onlyCalls := !kinds["ron"] && !kinds["tenpai"] && !kinds["noten"] && !kinds["kyuushu"]
			if onlyCalls {
				// The page must pass by itself.
				deadline := time.Now().Add(5 * time.Second)
				for bt.model.Snapshot().Decision != nil && bt.model.Snapshot().Decision.ID == d.ID {
					if time.Now().After(deadline) {
						t.Fatalf("decision %d (%v) offered only calls and pass, and the page with no calls on did not pass", d.ID, kinds)
					}
					time.Sleep(10 * time.Millisecond)
				}
				passedByPage++
				last = d.ID
				continue
			}
			did, err := chromedp.Run(bctx, chromedp.Evaluate[string](playStep))
			if err != nil || did == "" {
				t.Fatalf("decision %d: %q %v", d.ID, did, err)
			}
			last = d.ID
			continue
		}
		// A discard: find a playable tile at position next (or after),
		// and press its key.
		type tileBtn struct {
			Pos      int  `json:"pos"`
			Tile     int  `json:"tile"`
			Playable bool `json:"playable"`
		}
		for {
			seq, _ := chromedp.Run(bctx, chromedp.Evaluate[int](`Number(document.body.dataset.seq)`))
			if seq >= snap.Seq {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		btns, err := chromedp.Run(bctx, chromedp.Evaluate[[]tileBtn](`[...document.querySelectorAll("#hand button.htile:not(.drawn)")].map((b, i) => ({pos: i, tile: Number(b.dataset.tile), playable: b.classList.contains("playable")}))`))
		if err != nil {
			t.Fatal(err)
		}
		var pick *tileBtn
		for i := range btns {
			b := btns[(next+i)%len(btns)]
			if b.Playable {
				pick = &b
				break
			}
		}
		before := len(snap.Seats[snap.Self].River)
		if pick == nil {
			if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatal(err)
			}
		} else if arrowed < 1 && len(keyed) >= 2 {
			for i := range btns {
				if btns[i].Playable {
					pick = &btns[i] // the first playable tile: where → wraps to
					break
				}
			}
			// ← from no cursor goes to the last playable tile; → then
			// wraps to the first: Enter discards pos 0.
			if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				t.Fatal(err)
			}
			arrowed++
		} else {
			if err := chromedp.Do(bctx, chromedp.KeyEvent(keys[pick.Pos])); err != nil {
				t.Fatal(err)
			}
			keyed[pick.Pos] = true
		}
		next = (next + 12) % 13
		// A lost key never discards (the decision is a minute); 15 s
		// leaves a loaded machine's page and node time to. The discard is
		// seen in the player's river, or, when it ended the hand (a ron,
		// the last tile) and the next hand's river started afresh, by the
		// decision having been answered.
		deadline := time.Now().Add(15 * time.Second)
		for {
			s := bt.model.Snapshot()
			if r := s.Seats[s.Self].River; s.Hand == snap.Hand && len(r) > before {
				if pick != nil && r[before].Tile/4 != pick.Tile/4 {
					t.Fatalf("pressed the key of hand tile %d (%s), the node discarded %s", pick.Pos+1, s.TileName(pick.Tile), s.TileName(r[before].Tile))
				}
				break
			}
			if s.Hand != snap.Hand {
				t.Logf("decision %d: the discard ended hand %d; its tile is not checked", d.ID, snap.Hand)
				break
			}
			if time.Now().After(deadline) {
				page, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`JSON.stringify({seq: document.body.dataset.seq, state: document.body.dataset.state, pending: document.body.dataset.pending, overlay: !document.getElementById("overlay").hidden})`))
				t.Fatalf("decision %d: no discard 15 s after the key (pick %+v); the page: %s; the node's decision now: %+v", d.ID, pick, page, s.Decision)
			}
			time.Sleep(10 * time.Millisecond)
		}
		last = d.ID
	}
}
