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

	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// TestBrowserJapanese plays a hand on a page asked to speak Japanese
// (--lang ja) and checks that the table says what Tenhou says: the round
// as 東N局, the buttons ツモ/ロン/立直/ポン/チー/カン/スキップ, the result as
// 符・飜・点 or 流局, the winds as 東南西北; that no message fell back to
// English (I18n.missing), no raw key (‹…›) shows, and the feed's plays
// read in Japanese (打, no "discards").
func TestBrowserJapanese(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bctx := newBrowser(t, ctx)
	bt := startTable(t, ctx, 1, time.Minute, 30*time.Second, "ja")
	if err := chromedp.Do(bctx, chromedp.Navigate(bt.srv.URL())); err != nil {
		t.Fatal(err)
	}
	buttons, hints := map[string]bool{}, map[string]bool{}
	status := "" // a status line seen, for the log
	var round string
	last := 0
	for {
		snap := bt.model.Snapshot()
		if len(snap.Hands) > 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the hand did not end in time")
		case <-time.After(10 * time.Millisecond):
		}
		if snap.Decision == nil || snap.Decision.ID <= last {
			continue
		}
		for {
			seq, _ := chromedp.Run(bctx, chromedp.Evaluate[int](`Number(document.body.dataset.seq)`))
			if seq >= snap.Seq {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		bs, err := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#actions button")].map((b) => b.firstChild.textContent.trim())`))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			buttons[b] = true
		}
		if h, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`(document.querySelector("#actions .hint") || {}).textContent || ""`)); h != "" {
			hints[h] = true
		}
		round, _ = chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#round").textContent`))
		if st, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#status").textContent`)); strings.Contains(st, "waiting for") {
			t.Errorf("the status line is in English: %q", st)
		} else if status == "" && strings.Contains(st, "待っています") {
			status = st
		}
		if did, err := chromedp.Run(bctx, chromedp.Evaluate[string](playStep)); err != nil || did == "" {
			t.Fatalf("decision %d: %q %v", snap.Decision.ID, did, err)
		}
		last = snap.Decision.ID
	}
	if err := chromedp.Do(bctx, chromedp.WaitVisible("#overlay.result #endhand")); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#endhand").innerText`))
	if err != nil {
		t.Fatal(err)
	}
	// The game's only hand: the screen says the standings follow, not a
	// next hand.
	closeLine, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`(document.querySelector("#resultclose") || {}).textContent || ""`))
	if !strings.Contains(closeLine, "最終局") || strings.Contains(closeLine, "次局") {
		t.Errorf("the last hand's result screen says %q, want the standings to follow (最終局…), no next hand", closeLine)
	}
	body, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.innerText`))
	missing, _ := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...I18n.missing]`))
	lang, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.documentElement.lang`))
	if d := os.Getenv("MENTALMJ_SCREENSHOTS"); d != "" {
		for _, sz := range Sizes {
			chromedp.Do(bctx, chromedp.EmulateViewport(sz[0], sz[1]))
			time.Sleep(150 * time.Millisecond)
			if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
				os.WriteFile(filepath.Join(d, "result-ja-"+itoa(sz[0])+".png"), png, 0o644)
			}
		}
	}
	feed, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#feed").innerText`))
	if !strings.Contains(feed, "打") || strings.Contains(feed, " discards ") || strings.Contains(feed, "shuffling") {
		t.Errorf("the feed is not in Japanese:\n%s", feed)
	}
	// The result and audit lines are the node's messages said in Japanese
	// (和了 or 流局; 牌山検証済み), no English message of theirs left.
	ja, _ := i18n.Load("ja")
	if !strings.Contains(feed, "第1局 牌山検証済み") || !(strings.Contains(feed, "和了") || strings.Contains(feed, "流局")) {
		t.Errorf("the feed lacks the Japanese result or audit line:\n%s", feed)
	}
	if left := ja.EnglishLeft(feed+"\n"+res, "feed.", "audit.", "info.", "result."); len(left) > 0 {
		t.Errorf("English left in the feed or the result screen: %v\n%s\n%s", left, feed, res)
	}
	links := japaneseLinks(t, bctx, bt)
	bt.model.Dismiss(1)
	if lang != "ja" {
		t.Errorf("the page's language is %q, want ja", lang)
	}
	if len(missing) > 0 {
		t.Errorf("messages fell back to English: %v", missing)
	}
	if strings.Contains(body+links, "‹") {
		t.Errorf("a raw message key shows: %s", body)
	}
	if !strings.HasPrefix(round, "東") || !strings.HasSuffix(round, "局") {
		t.Errorf("the round reads %q, want 東N局", round)
	}
	for b := range buttons {
		if !strings.Contains("ツモ ロン 立直 ポン チー カン 九種九牌 聴牌 ノーテン スキップ", b) {
			t.Errorf("a button reads %q, not a Tenhou word", b)
		}
	}
	if len(hints) == 0 {
		t.Error("no discard hint was seen")
	}
	for h := range hints {
		if h != "打牌する牌を選んでください" && h != "立直宣言牌を選んでください" {
			t.Errorf("the discard hint reads %q", h)
		}
	}
	if !(strings.Contains(res, "符") && strings.Contains(res, "飜") && strings.Contains(res, "点")) && !strings.Contains(res, "流局") {
		t.Errorf("the result screen has neither 符・飜・点 nor 流局:\n%s", res)
	}
	t.Logf("status %q", status)
	t.Logf("round %s, buttons %v (a hand without a call offer shows none), result:\n%s", round, buttons, res)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// japaneseLinks shows the three kinds of link at the other seats (direct
// over QUIC and IPv6 after a hole punch; relayed, their NAT giving a new
// port per destination; not connected), as the node's path events set
// them, and the result screen's download links; it checks that every one
// reads in Japanese, with no English of node.Path.String left, and
// returns the texts.
func japaneseLinks(t *testing.T, bctx context.Context, bt *botTable) string {
	t.Helper()
	relay := bt.ids[3].String()
	bt.model.SetLink(bt.ids[1], screen.Link{State: screen.LinkDirect, Transport: "QUIC", Family: "IPv6", How: "hole punched", Text: "direct (QUIC, IPv6, hole punched)"})
	bt.model.SetLink(bt.ids[2], screen.Link{State: screen.LinkRelayed, Transport: "TCP", Relay: relay, Why: "their NAT gives a new port for every destination, so hole punching cannot work", Text: "relayed via …: their NAT gives a new port for every destination, so hole punching cannot work"})
	bt.model.SetLink(bt.ids[3], screen.Link{State: screen.LinkNone, Text: "not connected"})
	var texts []string
	deadline := time.Now().Add(10 * time.Second)
	for len(texts) < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		texts, _ = chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".seat .link")].map((e) => e.textContent.trim())`))
	}
	downloads, _ := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".links a")].map((e) => e.textContent)`))
	if d := os.Getenv("MENTALMJ_SCREENSHOTS"); d != "" {
		if png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile(filepath.Join(d, "links-ja.png"), png, 0o644)
		}
	}
	all := strings.Join(append(texts, downloads...), "\n")
	want := []string{"直接接続 (QUIC, IPv6, ホールパンチ成功)", relay[:6] + "…" + relay[len(relay)-4:] + " 経由の中継：相手のNAT", "未接続"}
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no seat link reads %q; the links read:\n%s", w, all)
		}
	}
	for _, en := range []string{"direct", "relayed", "not connected", "hole punch", "transcript"} {
		if strings.Contains(strings.ReplaceAll(all, "(transcript)", ""), en) {
			t.Errorf("English %q left in the links:\n%s", en, all)
		}
	}
	if !strings.Contains(all, "対局記録") {
		t.Errorf("the download links are not in Japanese: %q", downloads)
	}
	// A pair relayed by a third player of the table.
	bt.model.SetLink(bt.ids[2], screen.Link{State: screen.LinkRelayed, Transport: "TCP", Relay: relay, RelayPlayer: true, Text: "relayed via … (a player)"})
	var player string
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(player, "（プレイヤー）経由の中継") && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		texts, _ = chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".seat .link")].map((e) => e.textContent.trim())`))
		player = strings.Join(texts, "\n")
	}
	if !strings.Contains(player, "（プレイヤー）経由の中継") {
		t.Errorf("a link relayed by a player does not say so in Japanese:\n%s", player)
	}
	return all
}
