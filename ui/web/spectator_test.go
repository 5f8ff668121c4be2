package web

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mentalmj/mentalmj/internal/watchfixture"
	"github.com/mentalmj/mentalmj/protocol/pb"
	"github.com/mentalmj/mentalmj/ui/screen"
	"github.com/mentalmj/mentalmj/ui/spectator"
)

// spectatedSeat is one seat's concealed hand as a spectator's page draws
// it (.openhand.spectated).
type spectatedSeat struct {
	Seat  int    `json:"seat"`
	Count int    `json:"count"`
	Backs int    `json:"backs"`
	Tiles string `json:"tiles"` // the faces drawn, Tenhou ids
	Faces int    `json:"faces"` // tile faces in the DOM (an svg.tile of an id ≥ 0)
}

type spectatorPage struct {
	Error   string          `json:"error"`
	Seq     int             `json:"seq"`
	Seats   []spectatedSeat `json:"seats"`
	Banner  string          `json:"banner"`
	Buttons int             `json:"buttons"` // decision buttons shown
	Missing []string        `json:"missing"` // messages the page's language lacks
}

const readSpectator = `(() => ({
  error: document.body.dataset.error || "",
  seq: Number(document.body.dataset.seq),
  seats: [...document.querySelectorAll(".openhand.spectated")].map((e) => ({
    seat: Number(e.dataset.seat), count: Number(e.dataset.count), backs: Number(e.dataset.backs), tiles: e.dataset.tiles,
    faces: e.querySelectorAll('svg.tile:not([data-tile="-1"])').length,
  })),
  banner: document.querySelector("#banner").hidden ? "" : document.querySelector("#banner").textContent,
  buttons: [...document.querySelectorAll("#actions button, #variants button, #hand button")].filter((b) => b.offsetParent !== null).length,
  missing: [...I18n.missing],
}))()`

// TestBrowserSpectator feeds a spectator's table (package ui/spectator)
// the entries a host published for two hands of bots, one at a time, and
// after each reads the page: while a hand is played every seat's
// concealed hand is drawn as backs only, as many as the seat holds, and
// never a face; after each hand's key reveal and audit every hand is face
// up and the banner gives the hand's verdict; there is never a decision
// button. Mid-hand and after the reveal the page must fit 390, 1024 and
// 1280 px windows with no horizontal scrolling (checkSizes), and a
// Japanese page must lack no message. Screenshots go to the test's
// artifact directory and $MENTALMJ_SCREENSHOTS when set.
func TestBrowserSpectator(t *testing.T) {
	t.Parallel()
	// -short reads the page at every fourth entry of play (and at every
	// reveal), as TestBrowserSpectatorSanma does; the full run at each.
	stride, minChecked := 1, 40
	if testing.Short() {
		stride, minChecked = 4, 10
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bctx := newBrowser(t, ctx)
	g, err := watchfixture.Play(ctx, 4, 2)
	if err != nil {
		t.Fatal(err)
	}
	tb := spectator.New(nil)
	srv, err := Listen(Config{Model: tb.Model(), Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ctx)
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL())); err != nil {
		t.Fatal(err)
	}
	shots := []string{t.ArtifactDir()}
	if d := os.Getenv("MENTALMJ_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		shots = append(shots, d)
	}
	shot := func(name string) {
		png, err := chromedp.Run(bctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Errorf("screenshot: %v", err)
			return
		}
		for _, d := range shots {
			if err := os.WriteFile(filepath.Join(d, name), png, 0o644); err != nil {
				t.Error(err)
			}
		}
	}
	read := func() spectatorPage {
		want := tb.Model().Snapshot().Seq
		for {
			p, err := chromedp.Run(bctx, chromedp.Evaluate[spectatorPage](readSpectator))
			if err != nil {
				t.Fatalf("reading the page: %v", err)
			}
			if p.Error != "" {
				t.Fatalf("script error on the page: %s", p.Error)
			}
			if p.Seq >= want {
				return p
			}
			select {
			case <-ctx.Done():
				t.Fatalf("the page did not draw snapshot %d (it shows %d)", want, p.Seq)
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	f := watchfixture.NewFeeder(g, tb)
	shown, checked, discards, midShot := false, 0, 0, false
	var audited []int
	for !f.Done() {
		e := g.Entries[f.Fed()].Entry
		if e.GetNonceCommit() != nil {
			shown, discards = false, 0
		}
		if k := e.GetTurn().GetKind(); e.GetCall().GetKind() == pb.AnswerKind_ANSWER_RON && e.GetCall() != nil || e.GetDeclare() != nil || k == pb.TurnKind_TURN_TSUMO || k == pb.TurnKind_TURN_KYUUSHU {
			shown = true
		}
		if e.GetTurn() != nil && e.GetTurn().Kind == pb.TurnKind_TURN_DAHAI {
			discards++
		}
		hand, err := f.Step()
		if err != nil {
			t.Fatal(err)
		}
		s := tb.Model().Snapshot()
		if s.State != screen.StatePlaying && hand == 0 || hand == 0 && f.Fed()%stride != 0 {
			continue
		}
		p := read()
		if p.Buttons > 0 {
			t.Fatalf("the spectator's page shows %d decision buttons", p.Buttons)
		}
		if !strings.Contains(p.Banner, "Spectator view") {
			t.Fatalf("no spectator banner: %q", p.Banner)
		}
		if hand > 0 {
			audited = append(audited, hand)
			if len(p.Seats) != 4 {
				t.Fatalf("after hand %d's reveal the page draws %d concealed hands", hand, len(p.Seats))
			}
			for _, x := range p.Seats {
				if x.Backs != 0 || x.Faces != x.Count || x.Count != s.Seats[x.Seat].Concealed {
					t.Errorf("after hand %d's reveal seat %d shows %d backs and %d faces of %d tiles (it holds %d)", hand, x.Seat, x.Backs, x.Faces, x.Count, s.Seats[x.Seat].Concealed)
				}
			}
			if want := "hand " + string(rune('0'+hand)) + " ✔"; !strings.Contains(p.Banner, want) {
				t.Errorf("the banner after hand %d lacks %q: %q", hand, want, p.Banner)
			}
			if hand == 1 {
				checkSizes(t, bctx, "spectator-reveal", shot)
				if err := chromedp.Do(bctx, chromedp.KeyEvent("\x1b")); err != nil { // Esc: close the result
					t.Fatal(err)
				}
				time.Sleep(100 * time.Millisecond)
				shot("spectator-reveal-table-1280.png")
				chromedp.Do(bctx, chromedp.EmulateViewport(390, 844))
				time.Sleep(150 * time.Millisecond)
				shot("spectator-reveal-table-390.png")
				chromedp.Do(bctx, chromedp.EmulateViewport(1280, 800))
			}
			continue
		}
		if shown || s.Players != 4 {
			continue
		}
		checked++
		if len(p.Seats) != 4 {
			t.Fatalf("during play the page draws %d concealed hands", len(p.Seats))
		}
		for _, x := range p.Seats {
			if x.Backs != x.Count || x.Faces != 0 || x.Tiles != "" || x.Count != s.Seats[x.Seat].Concealed {
				t.Fatalf("during play seat %d shows %d backs, %d faces (%q) of %d tiles; it holds %d", x.Seat, x.Backs, x.Faces, x.Tiles, x.Count, s.Seats[x.Seat].Concealed)
			}
		}
		if discards >= 14 && !midShot {
			midShot = true
			checkSizes(t, bctx, "spectator-mid", shot)
		}
	}
	if len(audited) != 2 || checked < minChecked || !midShot {
		t.Fatalf("hands audited %v, %d states of play checked, mid-hand shot %v", audited, checked, midShot)
	}
	// The same table in Japanese.
	ja, err := Listen(Config{Model: tb.Model(), Lang: "ja"})
	if err != nil {
		t.Fatal(err)
	}
	go ja.Serve(ctx)
	if err := chromedp.Do(bctx, chromedp.Navigate(ja.URL())); err != nil {
		t.Fatal(err)
	}
	p := read()
	if !strings.Contains(p.Banner, "観戦") || len(p.Missing) > 0 {
		t.Errorf("the Japanese spectator page: banner %q, messages missing %v", p.Banner, p.Missing)
	}
	shot("spectator-ja-1280.png")
}

// TestBrowserSpectatorSanma feeds a spectator's page a hand of three
// players: three concealed hands drawn (seat 3's place stays empty),
// backs only while the hand is played (checked at every other entry, at
// least four times), faces after the reveal, and the page fits 390, 1024
// and 1280 px.
func TestBrowserSpectatorSanma(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bctx := newBrowser(t, ctx)
	g, err := watchfixture.Play(ctx, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	tb := spectator.New(nil)
	srv, err := Listen(Config{Model: tb.Model(), Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ctx)
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.URL())); err != nil {
		t.Fatal(err)
	}
	read := func() spectatorPage {
		want := tb.Model().Snapshot().Seq
		for {
			p, err := chromedp.Run(bctx, chromedp.Evaluate[spectatorPage](readSpectator))
			if err != nil || p.Error != "" {
				t.Fatalf("reading the page: %v %s", err, p.Error)
			}
			if p.Seq >= want {
				return p
			}
			select {
			case <-ctx.Done():
				t.Fatal("the page did not draw the snapshot")
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	f := watchfixture.NewFeeder(g, tb)
	checked, revealed, shown := 0, false, false
	for !f.Done() {
		e := g.Entries[f.Fed()].Entry
		if k := e.GetTurn().GetKind(); e.GetCall().GetKind() == pb.AnswerKind_ANSWER_RON && e.GetCall() != nil || e.GetDeclare() != nil || k == pb.TurnKind_TURN_TSUMO || k == pb.TurnKind_TURN_KYUUSHU {
			shown = true
		}
		hand, err := f.Step()
		if err != nil {
			t.Fatal(err)
		}
		s := tb.Model().Snapshot()
		switch {
		case hand > 0:
			p := read()
			if len(p.Seats) != 3 {
				t.Fatalf("after the reveal the page draws %d concealed hands, want 3", len(p.Seats))
			}
			for _, x := range p.Seats {
				if x.Backs != 0 || x.Faces != x.Count {
					t.Errorf("after the reveal seat %d shows %d backs, %d faces of %d", x.Seat, x.Backs, x.Faces, x.Count)
				}
			}
			revealed = true
		case s.State == screen.StatePlaying && !shown && s.Players == 3 && f.Fed()%2 == 0:
			p := read()
			checked++
			if len(p.Seats) != 3 {
				t.Fatalf("during play the page draws %d concealed hands, want 3", len(p.Seats))
			}
			for _, x := range p.Seats {
				if x.Backs != x.Count || x.Faces != 0 {
					t.Fatalf("during play seat %d shows %d faces", x.Seat, x.Faces)
				}
			}
			if checked == 4 {
				checkSizes(t, bctx, "spectator-sanma", func(string) {})
			}
		}
	}
	if !revealed || checked < 4 {
		t.Fatalf("revealed %v, %d states of play checked", revealed, checked)
	}
}
