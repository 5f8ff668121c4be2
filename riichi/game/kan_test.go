package game

import (
	"github.com/mentalmj/mentalmj/wall"
	"slices"
	"testing"
)

func TestChankan(t *testing.T) {
	// Seat 0 pons 5p and adds the fourth; seat 2 waits on 5p (kanchan 46p)
	// and robs the kan. The 2p indicator makes 3p dora (nobody holds one).
	hands := [4]string{"05p234m789m123s99s", fill3b, "46p123m789m456s11z", "147m147p147s1234z"}
	h := newHarness(t, hands, "2p", nil)
	h.fillTurn("5p")
	h.draw("5p")
	h.discard(1, "5p")
	h.do(Action{Type: Pon, Seat: 0, Tiles: h.heldN(0, "0p5p")})
	h.pass() // seat 2 declines its chi
	h.discard(0, "9s")
	h.pass()
	h.fillTurn("5p")
	h.fillTurn("5p") // seat 2's own discard ends its temporary furiten on 5p
	h.fillTurn("5p")
	h.draw("5p")
	h.do(Action{Type: Kakan, Seat: 0, Tile: h.held(0, "5p")})
	if got := h.k.Awaiting(); !slices.Equal(got, []Seat{2}) {
		t.Fatalf("awaiting %v, want [2] (chankan)", got)
	}
	if _, _, _, kan, _ := h.k.Offer(); !kan {
		t.Error("offer is not marked as a kan tile")
	}
	h.deny(Action{Type: Pon, Seat: 2, Tiles: h.heldN(2, "4p6p")}, "only ron")
	h.do(Action{Type: Ron, Seat: 2})
	res := h.k.Result()
	if res == nil || len(res.Wins) != 1 || !res.Wins[0].Chankan {
		t.Fatalf("result %+v, want a chankan win", res)
	}
	found := false
	for _, y := range res.Wins[0].Value.Yaku {
		found = found || y.ID == 3
	}
	if !found {
		t.Errorf("yaku %v lack chankan (3)", res.Wins[0].Value.Yaku)
	}
	// Chankan 1 han, 40 fu (20 + 10 + 2 kanchan + 2 round-wind pair): 1300.
	if d := res.Deltas; d != [4]int{-1300, 0, 1300, 0} {
		t.Errorf("deltas %v, want [-1300 0 1300 0]", d)
	}
	if h.k.DoraPending() != 1 || len(h.k.DoraIndicators()) != 1 {
		t.Errorf("robbed kakan turned its kan-dora: %d shown, %d pending", len(h.k.DoraIndicators()), h.k.DoraPending())
	}
}

var kanOthers = [3]string{"3456m258p258s567z", "369m369p369s4444z", "789m789p789s2356z"}

func TestKanDoraAnkanAtOnce(t *testing.T) {
	h := newHarness(t, [4]string{"1111m258p258s123z", kanOthers[0], kanOthers[1], kanOthers[2]}, "9s", nil)
	h.drawWhere(func(k wall.Kind) bool { return k != 0 })
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "1m1m1m1m")})
	if n := len(h.k.DoraIndicators()); n != 2 {
		t.Fatalf("%d dora indicators after an ankan, want 2 (turned at once)", n)
	}
	s, pos, rinshan, ok := h.k.NextDraw()
	if !ok || s != 0 || !rinshan || pos != 1 {
		t.Fatalf("next draw %d yama[%d] rinshan %v, want seat 0 yama[1] rinshan", s, pos, rinshan)
	}
	if dora, _ := h.k.DoraPositions(); !slices.Equal(dora, []int{5, 7}) {
		t.Errorf("dora positions %v, want [5 7]", dora)
	}
}

func TestKanDoraDaiminkanAfterDiscard(t *testing.T) {
	h := newHarness(t, [4]string{"444s258m258p123z9m", kanOthers[0], kanOthers[1], kanOthers[2]}, "9s", nil)
	h.fillTurn("4s")
	h.draw("4s")
	h.discard(1, "4s")
	h.do(Action{Type: Daiminkan, Seat: 0, Tiles: h.heldN(0, "4s4s4s")})
	h.pass()
	check := func(when string, shown, pending int) {
		t.Helper()
		if a, b := len(h.k.DoraIndicators()), h.k.DoraPending(); a != shown || b != pending {
			t.Fatalf("%s: %d indicators shown, %d pending; want %d, %d", when, a, b, shown, pending)
		}
	}
	check("after the daiminkan", 1, 1)
	h.drawWhere(func(k wall.Kind) bool { return k != 21 })
	check("after the rinshan draw", 1, 1)
	h.discard(0, "9m")
	check("after the discard", 2, 0)
}

func TestKanDoraKakanThenAnkan(t *testing.T) {
	h := newHarness(t, [4]string{"11s444p258m123z9m7p", kanOthers[0], kanOthers[1], kanOthers[2]}, "9s", nil)
	h.fillTurn("1s4p")
	h.draw("1s")
	h.discard(1, "1s")
	h.do(Action{Type: Pon, Seat: 0, Tiles: h.heldN(0, "1s1s")})
	h.pass()
	h.discard(0, "9m")
	h.pass()
	for range 3 {
		h.fillTurn("1s4p")
	}
	h.draw("1s")
	h.do(Action{Type: Kakan, Seat: 0, Tile: h.held(0, "1s")})
	h.pass()
	if a, b := len(h.k.DoraIndicators()), h.k.DoraPending(); a != 1 || b != 1 {
		t.Fatalf("after kakan: %d shown %d pending, want 1, 1", a, b)
	}
	h.draw("4p")
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "4p4p4p4p")})
	if a, b := len(h.k.DoraIndicators()), h.k.DoraPending(); a != 3 || b != 0 {
		t.Fatalf("after the following ankan: %d shown %d pending, want 3, 0", a, b)
	}
}

func TestSuukanSanra(t *testing.T) {
	hands := [4]string{"1111m2222m5p5s567z", "3333m4444m6p6s123z", "789p789s114455z9m", "123p123s667z99m88p"}
	h := newHarness(t, hands, "9s", nil)
	noLowM := func(k wall.Kind) bool { return k > 3 && k < 27 }
	h.drawWhere(noLowM)
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "1m1m1m1m")})
	h.drawWhere(noLowM)
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "2m2m2m2m")})
	h.drawWhere(noLowM)
	h.discard(0, "5p")
	h.pass()
	h.drawWhere(noLowM)
	h.do(Action{Type: Ankan, Seat: 1, Tiles: h.heldN(1, "3m3m3m3m")})
	h.drawWhere(noLowM)
	h.do(Action{Type: Ankan, Seat: 1, Tiles: h.heldN(1, "4m4m4m4m")})
	if h.k.Result() != nil {
		t.Fatal("kyoku ended at the fourth kan; Tenhou aborts after the next discard")
	}
	h.drawWhere(noLowM)
	if has := h.has(1, Ankan) || h.has(1, Kakan); has {
		t.Error("a fifth kan is offered")
	}
	h.discard(1, "6p")
	h.pass()
	res := h.k.Result()
	if res == nil || res.End != EndAbortive || res.Abort != AbortSuukan || !res.Renchan {
		t.Fatalf("result %+v, want suukan sanra (kan4) with renchan", res)
	}
}
