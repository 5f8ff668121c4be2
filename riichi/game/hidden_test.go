package game

import (
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// hiddenDeal deals real[0] openly and seats 1-3 face down (Unknown).
func hiddenDeal(t *testing.T, h *harness, real [4][]wall.Tile, dora string) {
	t.Helper()
	d := Deal{Scores: [4]int{25000, 25000, 25000, 25000}, DoraIndicator: h.tile(dora)}
	d.Haipai[0] = real[0]
	for s := 1; s < 4; s++ {
		d.Haipai[s] = slices.Repeat([]wall.Tile{Unknown}, 13)
	}
	k, err := NewKyoku(TenhouRules(true, true, true), d)
	if err != nil {
		t.Fatal(err)
	}
	h.k = k
}

// revealHand reveals seat s's haipai positions (wall.Layout, deal order)
// as real.
func revealHand(t *testing.T, h *harness, s Seat, real []wall.Tile) {
	t.Helper()
	for i, p := range wall.FourPlayer.Haipai(h.k.Oya().Relative(s)) {
		if err := h.k.Reveal(p, real[i]); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHiddenRiichiDeferred(t *testing.T) {
	for _, tc := range []struct {
		hand   string
		tenpai bool
	}{{"123m456p789s1122z", true}, {"123m456p789s1357z", false}} {
		h := &harness{t: t}
		real := [4][]wall.Tile{h.ids(fill0), h.ids(tc.hand), h.ids(fill2), h.ids(fill3b)}
		hiddenDeal(t, h, real, "9s")
		h.draw("9m")
		h.discard(0, "9m")
		if got := h.k.Awaiting(); !slices.Equal(got, []Seat{1, 2, 3}) {
			t.Fatalf("awaiting %v, want every hidden seat [1 2 3]", got)
		}
		h.pass()
		pos, err := h.k.Draw(Unknown)
		if err != nil {
			t.Fatal(err)
		}
		t1 := h.tile("8m")
		h.deny(Action{Type: Discard, Seat: 1, Tile: t1, Riichi: true}, "not in the hand (or not revealed)")
		if err := h.k.Reveal(pos, t1); err != nil {
			t.Fatal(err)
		}
		h.do(Action{Type: Discard, Seat: 1, Tile: t1, Riichi: true})
		if h.k.PendingChecks() != 1 {
			t.Fatalf("%d pending checks, want the riichi tenpai check", h.k.PendingChecks())
		}
		h.pass()
		if err := h.k.Recheck(); err != nil || h.k.PendingChecks() != 1 {
			t.Fatalf("recheck before the reveal: %v, %d pending; want nil, 1", err, h.k.PendingChecks())
		}
		revealHand(t, h, 1, real[1])
		err = h.k.Recheck()
		if tc.tenpai && err != nil {
			t.Errorf("%s: tenpai riichi flagged: %v", tc.hand, err)
		}
		if !tc.tenpai && (err == nil || !strings.Contains(err.Error(), "seat 1 (South): riichi with discard 1 on a hand that is not tenpai")) {
			t.Errorf("%s: noten riichi: recheck error %v", tc.hand, err)
		}
		if h.k.PendingChecks() != 0 {
			t.Errorf("%d checks still pending", h.k.PendingChecks())
		}
	}
}

func TestHiddenNotenClaim(t *testing.T) {
	h := &harness{t: t}
	real := [4][]wall.Tile{
		h.ids("258m258p258s1357z"), // noten, seen by the engine
		h.ids("234m456p789s1122z"), // tenpai, will claim noten
		h.ids("345m345p345s5566z"), // tenpai, will show it
		h.ids("369m369p369s4477z"), // noten
	}
	hiddenDeal(t, h, real, "9m")
	for i := 0; i < 70 && h.k.Phase() == PhaseDraw; i++ {
		seat := h.k.Turn()
		var tl wall.Tile
		for id := wall.Tile(0); id < wall.NumTiles; id++ {
			if !h.used[id] && !id.IsRed() {
				tl = id
				h.used[id] = true
				break
			}
		}
		pos, err := h.k.Draw(Unknown)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.k.Reveal(pos, tl); err != nil {
			t.Fatal(err)
		}
		h.do(Action{Type: Discard, Seat: seat, Tile: tl})
		h.pass()
	}
	h.phase(PhaseDeclare)
	if got := h.k.Awaiting(); !slices.Equal(got, []Seat{1, 2, 3}) {
		t.Fatalf("awaiting declarations %v, want [1 2 3]", got)
	}
	h.do(Action{Type: Noten, Seat: 1})
	h.deny(Action{Type: Tenpai, Seat: 2}, "hand not revealed")
	revealHand(t, h, 2, real[2])
	h.do(Action{Type: Tenpai, Seat: 2})
	h.do(Action{Type: Noten, Seat: 3})
	res := h.k.Result()
	if res == nil || res.Tenpai != [4]bool{false, false, true, false} || res.Deltas != [4]int{-1000, -1000, 3000, -1000} {
		t.Fatalf("result %+v, want seat 2 alone tenpai", res)
	}
	revealHand(t, h, 1, real[1])
	revealHand(t, h, 3, real[3])
	err := h.k.Recheck()
	if err == nil || !strings.Contains(err.Error(), "seat 1 (South): declared noten") || strings.Contains(err.Error(), "seat 3") {
		t.Fatalf("recheck: %v, want seat 1's false noten claim only", err)
	}
}

func TestHiddenRiichiAnkanDeferred(t *testing.T) {
	// Seat 1 (face down) is in riichi on 1112m456p789s555z (waits 2m, 3m)
	// and declares an ankan of 1m, which leaves only 2m: legal as far as
	// the engine can see, flagged once the hand is revealed.
	h := &harness{t: t}
	real := [4][]wall.Tile{h.ids(fill0), h.ids("1112m456p789s555z"), h.ids(ankanOthers[1]), h.ids(ankanOthers[2])}
	hiddenDeal(t, h, real, "9p")
	h.fillTurn("1m2m3m")
	h.draw("9m")
	h.riichi(1, "9m")
	h.pass()
	h.fillTurn("1m2m3m")
	h.fillTurn("1m2m3m")
	h.fillTurn("1m2m3m")
	h.draw("1m")
	_, pos := h.k.Hand(1)
	for i, tl := range real[1] {
		if tl.Kind() == 0 {
			if err := h.k.Reveal(pos[i], tl); err != nil {
				t.Fatal(err)
			}
		}
	}
	h.do(Action{Type: Ankan, Seat: 1, Tiles: h.heldN(1, "1m1m1m1m")})
	if h.k.PendingChecks() != 2 {
		t.Fatalf("%d pending checks, want riichi tenpai and riichi ankan", h.k.PendingChecks())
	}
	revealHand(t, h, 1, real[1])
	err := h.k.Recheck()
	if err == nil || !strings.Contains(err.Error(), "ankan of 1m in riichi changed the waits") || strings.Contains(err.Error(), "not tenpai") {
		t.Fatalf("recheck: %v, want only the ankan flagged", err)
	}
}
