package tablerun

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mentalmj/mentalmj/internal/headless"
)

// TestNoClockBeforeThePage: a person on the browser table (--ui
// --no-open) whose page has not connected keeps the game from starting,
// so no clock runs for a decision nobody can see: awaitPage waits, says
// on screen after pageNote that it waits for the page (with its URL),
// and returns once a headless Chromium opens the page. Without a page
// it waits its whole bound and says the game goes on without it; ctx's
// end stops it with ctx's error. Once the game is on (watchPage), the
// screen says when the page has gone, with its URL, and when it is back.
func TestNoClockBeforeThePage(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for pageNote and starts a browser")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	newPlaying := func(screen *lockedBuffer) (*playing, context.CancelFunc) {
		front, err := newFrontend(true, false, "", strings.NewReader(""), screen, nil)
		if err != nil {
			t.Fatal(err)
		}
		uiCtx, stop := context.WithCancel(ctx)
		go front.srv.Serve(uiCtx)
		return &playing{Table: &Table{UI: true, NoOpen: true}, front: front, screen: screen}, stop
	}

	var screen lockedBuffer
	p, stop := newPlaying(&screen)
	defer stop()
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- p.awaitPage(ctx, time.Minute) }()
	select {
	case err := <-done:
		t.Fatalf("awaitPage returned (%v) before any page connected", err)
	case <-time.After(pageNote + 500*time.Millisecond):
	}
	if out := screen.String(); !strings.Contains(out, "waiting for you to open the table page") || !strings.Contains(out, p.front.srv.URL()) {
		t.Errorf("after %s the screen does not say that the game waits for the page at its URL:\n%s", pageNote, out)
	}
	bctx := headless.New(t, ctx)
	if err := chromedp.Do(bctx, chromedp.Navigate(p.front.srv.URL())); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("awaitPage: %v", err)
		}
		t.Logf("the game waited %s for the page", time.Since(start).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Fatal("awaitPage did not return after the page connected")
	}

	// Mid-game the page is not waited for, but the screen says when it
	// has gone (after pageNote) and where the table is, and when it is
	// back; a page that stays says nothing.
	watch, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	p.watchPage(watch)
	waitScreen := func(want string) {
		t.Helper()
		deadline := time.Now().Add(pageNote + 5*time.Second)
		for !strings.Contains(screen.String(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("the screen never said %q:\n%s", want, screen.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	time.Sleep(pageNote + 500*time.Millisecond)
	if strings.Contains(screen.String(), "no table page is open") {
		t.Fatalf("said the page has gone while it is open:\n%s", screen.String())
	}
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	waitScreen("no table page is open: your clock stands still, and the node plays for you (tsumogiri, pass) only when a decision has waited as long as the table waits for a silent player; open the table again at " + p.front.srv.URL())
	if err := chromedp.Do(bctx, chromedp.Navigate(p.front.srv.URL())); err != nil {
		t.Fatal(err)
	}
	waitScreen("the table page is open again")
	stopWatch()

	// No page at all: the bound, then a note.
	var screen2 lockedBuffer
	p2, stop2 := newPlaying(&screen2)
	defer stop2()
	if err := p2.awaitPage(ctx, 200*time.Millisecond); err != nil {
		t.Fatalf("awaitPage without a page, bound passed: %v", err)
	}
	if !strings.Contains(screen2.String(), "was not opened within 200ms") {
		t.Errorf("no note that the page was not opened:\n%s", screen2.String())
	}
	cctx, ccancel := context.WithCancel(ctx)
	ccancel()
	if err := p2.awaitPage(cctx, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("awaitPage with a cancelled context: %v, want context.Canceled", err)
	}
	// A bot's seat never waits.
	p2.Table.Bot = true
	p2.front.player = nil
	if err := p2.awaitPage(cctx, time.Minute); err != nil {
		t.Errorf("a bot's seat waited for a page: %v", err)
	}
}
