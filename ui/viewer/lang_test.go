package viewer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mentalmj/mentalmj/internal/headless"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

// TestBrowserJapanese replays the one-hand game of testdata/hand.mjlog.xml
// on a page asked to speak Japanese (--lang ja): the round reads 東N局,
// the feed's plays and result read in Japanese (打, 和了 or 流局), no
// message fell back to English (I18n.missing), no raw key shows, and no
// English message of the feed, result or audit is left.
func TestBrowserJapanese(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b := headless.New(t, ctx)
	rec, err := Load("testdata/hand.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen(rec, 0, nil, "ja")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ctx)
	r := &replayPage{t: t, rec: rec, srv: srv, b: b, name: "ja"}
	r.at(0, 1<<20, AllOpen) // the hand's last step: the result screen
	get := func(js string) string {
		s, err := chromedp.Run(b, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	round := get(`(document.querySelector("#round") || {}).textContent || ""`)
	feed := get(`document.querySelector("#feed").innerText`)
	overlay := get(`document.querySelector("#overlay").innerText`)
	body := get(`document.body.innerText`)
	missing, _ := chromedp.Run(b, chromedp.Evaluate[[]string](`[...I18n.missing]`))
	if lang := get(`document.documentElement.lang`); lang != "ja" {
		t.Errorf("the page's language is %q", lang)
	}
	if !strings.HasPrefix(round, "東") || !strings.HasSuffix(round, "局") {
		t.Errorf("the round reads %q, want 東N局", round)
	}
	if !strings.Contains(feed, "打") || !(strings.Contains(feed+overlay, "和了") || strings.Contains(feed+overlay, "流局")) {
		t.Errorf("the feed is not in Japanese:\n%s\n%s", feed, overlay)
	}
	if len(missing) > 0 || strings.Contains(body, "‹") {
		t.Errorf("messages fell back to English: %v, or a raw key shows", missing)
	}
	ja, _ := i18n.Load("ja")
	if !strings.Contains(overlay, "牌山未検証: この mjlog には SHUFFLE シードがありません") || !strings.Contains(feed, "ツモ ") {
		t.Errorf("the verification or the draws are not in Japanese:\n%s\n%s", feed, overlay)
	}
	if left := ja.EnglishLeft(feed+"\n"+overlay, "feed.", "result.", "audit.", "verify."); len(left) > 0 {
		t.Errorf("English left: %v\n%s\n%s", left, feed, overlay)
	}
	t.Logf("round %s\nfeed:\n%s\nresult:\n%s", round, feed, overlay)
}
