package web

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mentalmj/mentalmj/riichi/timecontrol"
)

// TestBrowserClockStandsStillWhilePageAway plays with a 1 s + 4 s clock in
// headless Chromium against three bots. At a decision the tab leaves the
// table for 7 s, longer than the whole clock: the node does not act for
// the player (the clock stood still while no page was connected; with the
// clock running it would have acted after 5 s). The page opened again
// shows the same decision, its countdown restarted where the clock
// stopped (no more than the 5 s the clock had), and the player's click
// decides it.
func TestBrowserClockStandsStillWhilePageAway(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: mostly a 7 s wait; protocol's TestClockStandsStillWhileAway and this package's TestAbsentAfterActingForThePlayer test the parts")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx := newBrowser(t, ctx)
	tc := timecontrol.Control{Base: time.Second, Bank: 4 * time.Second}
	const decisionTimeout, away = 30 * time.Second, 7 * time.Second
	bt := startTableWith(t, ctx, 1, decisionTimeout, 0, "", tc)
	if err := chromedp.Do(bctx, chromedp.Navigate(bt.srv.URL())); err != nil {
		t.Fatal(err)
	}
	var id int
	for id == 0 {
		select {
		case <-bt.done:
			t.Fatal("the hand ended before the player's first decision")
		case <-ctx.Done():
			t.Fatal("no decision")
		case <-time.After(10 * time.Millisecond):
		}
		if d := bt.model.Snapshot().Decision; d != nil {
			id = d.ID
		}
	}
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(away)
	s := bt.model.Snapshot()
	if s.Decision == nil || s.Decision.ID != id {
		t.Fatalf("after %s with no page the decision %d is gone (now %+v): the node acted on a clock that should have stood still", away, id, s.Decision)
	}
	for _, e := range s.Feed {
		if e.Msg != nil && e.Msg.Key == "info.time_ran_out" {
			t.Fatalf("the node acted on the clock while no page was connected: %v", e.Msg)
		}
	}
	back := time.Now()
	if err := chromedp.Do(bctx, chromedp.Navigate(bt.srv.URL())); err != nil {
		t.Fatal(err)
	}
	for {
		ok, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.querySelector("#actions button, #hand button.playable")`))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the reopened page never showed the open decision")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The clock went on when the page connected again, between back and
	// shown; from then it had at most its 5 s (a loaded machine may take
	// a while to reopen the page, which is not the clock's).
	shown := time.Now()
	if d := bt.model.Snapshot().Decision; d == nil || d.ID != id {
		t.Fatalf("the decision changed while the page reopened: %+v", d)
	} else if deadline := time.UnixMilli(d.Deadline); deadline.After(shown.Add(5*time.Second+100*time.Millisecond)) || !deadline.After(back) {
		t.Errorf("countdown after the page came back: %s left when the page was opened again (%s later it showed the decision), want at most the clock's 5 s from its return", deadline.Sub(back).Round(time.Millisecond), shown.Sub(back).Round(time.Millisecond))
	}
	if d := os.Getenv("MENTALMJ_SCREENSHOTS"); d != "" {
		if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile(filepath.Join(d, "clock-back-"+strconv.Itoa(id)+".png"), png, 0o644)
		}
	}
	if did, err := chromedp.Run(bctx, chromedp.Evaluate[string](playStep)); err != nil || did == "" {
		t.Fatalf("decision %d on the reopened page: %q, %v", id, did, err)
	}
	for {
		d := bt.model.Snapshot().Decision
		if d == nil || d.ID != id {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the click never decided")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, e := range bt.model.Snapshot().Feed {
		if e.Msg != nil && e.Msg.Key == "info.time_ran_out" {
			t.Errorf("decision %d was taken on the clock, not by the click on the reopened page", id)
		}
	}
}
