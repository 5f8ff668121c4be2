package game

import (
	"slices"
	"testing"
)

func TestDoubleRon(t *testing.T) {
	// Seats 1 (haku) and 3 (hatsu) both wait on 1m-4m; 1 honba and 1
	// riichi stick on the table go to seat 1, the first after the
	// discarder (atamahane).
	hands := [4]string{fill0, "23m456p456s11z555z", "147m147p147s3467z", "23m678p678s22z666z"}
	h := newHarness(t, hands, "9s", func(d *Deal) { d.Honba, d.Kyotaku = 1, 1 })
	h.draw("1m")
	h.discard(0, "1m")
	if got := h.k.Awaiting(); !slices.Equal(got, []Seat{1, 3}) {
		t.Fatalf("awaiting %v, want [1 3]", got)
	}
	h.do(Action{Type: Ron, Seat: 3})
	if h.k.Result() != nil {
		t.Fatal("resolved before seat 1 answered")
	}
	h.do(Action{Type: Ron, Seat: 1})
	res := h.k.Result()
	if res == nil || len(res.Wins) != 2 || res.Wins[0].Seat != 1 || res.Wins[1].Seat != 3 {
		t.Fatalf("result %+v, want wins by seat 1 then seat 3", res)
	}
	// Each hand: yakuhai 1 han 40 fu = 1300; seat 1 adds 300 honba and
	// the 1000 stick.
	if d := res.Wins[0].Deltas; d != [4]int{-1600, 2600, 0, 0} {
		t.Errorf("first win deltas %v, want [-1600 2600 0 0]", d)
	}
	if d := res.Wins[1].Deltas; d != [4]int{-1300, 0, 0, 1300} {
		t.Errorf("second win deltas %v, want [-1300 0 0 1300]", d)
	}
	if res.Wins[1].Before != [4]int{23400, 27600, 25000, 25000} {
		t.Errorf("second win paid from %v, want the scores after the first", res.Wins[1].Before)
	}
	if res.Renchan || res.Kyotaku != 0 {
		t.Errorf("renchan %v kyotaku %d, want false 0", res.Renchan, res.Kyotaku)
	}
}

func TestSanchahou(t *testing.T) {
	hands := [4]string{"369m369p369s4444z", "23m456p456s11z555z", "23m789p789s22z666z", "23m123p123s33z777z"}
	h := newHarness(t, hands, "9s", nil)
	h.draw("1m")
	h.discard(0, "1m")
	for _, s := range []Seat{1, 2, 3} {
		h.do(Action{Type: Ron, Seat: s})
	}
	res := h.k.Result()
	if res == nil || res.End != EndAbortive || res.Abort != AbortSanchahou || res.Deltas != [4]int{} || !res.Renchan {
		t.Fatalf("result %+v, want sanchahou (ron3): no payment, renchan", res)
	}
}

// paoHands: seat 1 holds pairs of the three dragons; seats 0, 2, 3 will
// discard one of each.
var paoHands = [4]string{fill0, "55z66z77z123m45p99p", fill2, "369m369p369s2468s"}

// paoSetup plays seat 1's three dragon pons, the last (chun) from seat 3,
// leaving seat 1 with 123m + 4p (tanki on 4p).
func paoSetup(t *testing.T) *harness {
	return paoSetupRules(t, TenhouRules(true, true, true))
}

func paoSetupRules(t *testing.T, r Rules) *harness {
	h := newHarnessRules(t, r, paoHands, "9m", nil)
	h.draw("5z")
	h.discard(0, "5z")
	h.do(Action{Type: Pon, Seat: 1, Tiles: h.heldN(1, "5z5z")})
	h.pass()
	h.discard(1, "9p")
	h.pass()
	h.draw("6z")
	h.discard(2, "6z")
	h.do(Action{Type: Pon, Seat: 1, Tiles: h.heldN(1, "6z6z")})
	h.discard(1, "9p")
	h.pass()
	h.fillTurn("3p4p6p7z") // seat 2
	h.draw("7z")
	h.discard(3, "7z")
	h.do(Action{Type: Pon, Seat: 1, Tiles: h.heldN(1, "7z7z")})
	h.discard(1, "5p")
	h.pass()
	return h
}

func TestPaoTsumo(t *testing.T) {
	h := paoSetup(t)
	h.fillTurn("4p")
	h.fillTurn("4p")
	h.fillTurn("4p")
	h.draw("4p")
	h.do(Action{Type: TsumoAgari, Seat: 1})
	res := h.k.Result()
	if res == nil || len(res.Wins) != 1 {
		t.Fatalf("result %+v, want one win", res)
	}
	w := res.Wins[0]
	if w.Pao != 3 || !slices.Equal(w.Value.Yakuman, []int{39}) {
		t.Fatalf("pao %d yakuman %v, want pao seat 3 and daisangen [39]", w.Pao, w.Value.Yakuman)
	}
	// Sekinin barai: the liable seat pays the whole non-dealer yakuman.
	if res.Deltas != [4]int{0, 32000, 0, -32000} {
		t.Errorf("deltas %v, want [0 32000 0 -32000]", res.Deltas)
	}
}

func TestPaoRonSplit(t *testing.T) {
	h := paoSetup(t)
	h.draw("4p")
	h.discard(2, "4p")
	h.do(Action{Type: Ron, Seat: 1})
	res := h.k.Result()
	if res == nil || len(res.Wins) != 1 || res.Wins[0].Pao != 3 {
		t.Fatalf("result %+v, want one win with pao seat 3", res)
	}
	// A ron by a third player: discarder and liable seat pay half each.
	if res.Deltas != [4]int{0, 32000, -16000, -16000} {
		t.Errorf("deltas %v, want [0 32000 -16000 -16000]", res.Deltas)
	}
}
