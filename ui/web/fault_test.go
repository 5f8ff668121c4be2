package web

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/ui/screen"
)

// TestBrowserFaultInJapanese forces a game's end on a page asked to speak
// Japanese: a hand's audit that blames a player for a shuffle pass that
// fails its proof, then the game stopping on a player's silence. In
// headless Chromium, the status line and the feed say them in Japanese
// from their kinds (洗牌（シャッフル）の不正, 応答なし: 打牌を90秒待ちました),
// the protocol's English reason only inside （）, and no English word
// else but the peer IDs; no raw key shows and no message fell back to
// English. The page is saved as fault-ja-WIDTH.png at each of Sizes in
// the test's artifact directory (and MENTALMJ_SCREENSHOTS, if set).
func TestBrowserFaultInJapanese(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bctx := newBrowser(t, ctx)
	var ids []peer.ID
	for range 4 {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, _ := peer.IDFromPrivateKey(k)
		ids = append(ids, id)
	}
	model := screen.NewModel(nil)
	srv, err := Listen(Config{Model: model, Lang: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ctx)
	model.Observe(protocol.Observation{Hand: 2, Stage: "shuffle", Seat: 0, Seats: ids, Nicks: []string{"alice", "bob", "carol", "dave"}})
	blame := protocol.Blame{Peer: ids[3], Hand: 1, Kind: protocol.BlameShuffle, Reason: "shuffle pass 3 (seq 5) fails its proof",
		Evidence: []protocol.Evidence{{Sender: ids[3], Hand: 1, Seq: 5, Kind: "shuffle pass"}}}
	model.HandDone(protocol.HandResult{Number: 1, Seats: ids, Blame: []protocol.Blame{blame}})
	model.Finish(nil, &protocol.FaultError{Fault: protocol.Fault{Peer: ids[1], Hand: 2, Kind: protocol.FaultSilence, Want: "turn", Wait: 90 * time.Second,
		Reason: "silent for 1m30s while we waited for its turn"}})
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL())); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx, chromedp.WaitVisible("#feed li")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the last render
	status, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#status").textContent`))
	feed, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#feed").innerText`))
	body, _ := chromedp.Run(bctx, chromedp.Evaluate[string](`document.body.innerText`))
	missing, _ := chromedp.Run(bctx, chromedp.Evaluate[[]string](`[...I18n.missing]`))
	for _, sz := range Sizes {
		chromedp.Do(bctx, chromedp.EmulateViewport(sz[0], sz[1]))
		time.Sleep(150 * time.Millisecond)
		png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		if err != nil {
			continue
		}
		for _, d := range []string{t.ArtifactDir(), os.Getenv("MENTALMJ_SCREENSHOTS")} {
			if d != "" {
				os.WriteFile(filepath.Join(d, "fault-ja-"+itoa(sz[0])+".png"), png, 0o644)
			}
		}
	}
	t.Logf("status: %s\nfeed:\n%s", status, feed)
	if want := "中断（第2局）: bob (南) " + ids[1].String() + ": 応答なし: 打牌を90秒待ちました"; !strings.HasSuffix(status, want) {
		t.Errorf("status %q, want it to end %q", status, want)
	}
	for _, want := range []string{"監査失敗・不正を証明：第1局: dave (北): 洗牌（シャッフル）の不正（shuffle pass 3 (seq 5) fails its proof）", "応答なし: 打牌を90秒待ちました"} {
		if !strings.Contains(feed, want) {
			t.Errorf("the feed lacks %q:\n%s", want, feed)
		}
	}
	rest := strings.ReplaceAll(feed+"\n"+status, "shuffle pass 3 (seq 5) fails its proof", "")
	for _, id := range ids {
		rest = strings.ReplaceAll(rest, id.String(), "")
	}
	rest = regexp.MustCompile(`alice|bob|carol|dave`).ReplaceAllString(rest, "")
	if left := regexp.MustCompile(`[A-Za-z]{3,}`).FindAllString(rest, -1); len(left) > 0 {
		t.Errorf("English left on the page: %v\n%s", left, rest)
	}
	if strings.Contains(body, "‹") || len(missing) > 0 {
		t.Errorf("a raw key shows or a message fell back to English (%v):\n%s", missing, body)
	}
}
