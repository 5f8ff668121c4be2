package statspage

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mentalmj/mentalmj/internal/headless"
	"github.com/mentalmj/mentalmj/stats"
	"github.com/mentalmj/mentalmj/ui/web"
)

// pageStats is what TestPageInBrowser reads of the statistics page.
type pageStats struct {
	Charts   int     `json:"charts"`
	Cards    int     `json:"cards"`
	CardBg   string  `json:"cardBg"`
	MaxWidth float64 `json:"maxWidth"`
}

// TestPageInBrowser serves the statistics page of the hand-written stats
// set with web.ListenPage, as "mentalmj stats --ui" does, and opens it in headless Chromium: the style sheet
// must load under the page's Content-Security-Policy with the token
// cookie (the cards get its white background), every player of the set
// gets its two SVG charts, and a player with placements has bars with a
// width.
func TestPageInBrowser(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	set, _, err := stats.Load(ctx, []string{filepath.Join("..", "..", "stats", "testdata", "hand", "a.xml"),
		filepath.Join("..", "..", "stats", "testdata", "hand", "2020010100gm-00b9-0000-0000hand.xml")}, stats.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	page, err := web.ListenPage(Handler(set.Report(""), ""), 0)
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go page.Serve(sctx)
	bctx := headless.New(t, ctx)
	if err := chromedp.Do(bctx, chromedp.Navigate(page.URL())); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.WaitVisible(".card")); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(bctx, chromedp.Evaluate[pageStats](`(() => ({
		charts: document.querySelectorAll("svg[data-chart]").length,
		cards: document.querySelectorAll(".card").length,
		cardBg: getComputedStyle(document.querySelector(".card")).backgroundColor,
		maxWidth: Math.max(...[...document.querySelectorAll("svg[data-chart=placements] rect.bar")].map((r) => r.getBBox().width)),
	}))()`))
	if err != nil {
		t.Fatal(err)
	}
	// a.xml: A B C D; the sanma record: X Y Z.
	if got.Cards != 7 || got.Charts != 14 || got.CardBg != "rgb(255, 255, 255)" || got.MaxWidth <= 0 {
		t.Errorf("page: %+v; want 7 cards, 14 charts, the style sheet applied and drawn bars", got)
	}
}
