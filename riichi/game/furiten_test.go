package game

import (
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// Seat 1 waits on 1m-4m with a chun triplet (a yaku): 23m456p456s11z777z.
var furitenHands = [4]string{fill0, "23m456p456s11z777z", fill2, fill3b}

// faceDown0 deals seat 0 face down: the engine must then await seat 0 on
// every discard, which keeps each offer open for the checks on seat 1.
func faceDown0(d *Deal) { d.Haipai[0] = slices.Repeat([]wall.Tile{Unknown}, 13) }

func TestFuritenOwnDiscard(t *testing.T) {
	h := newHarness(t, furitenHands, "9s", faceDown0)
	h.fillTurn("1m4m")
	h.draw("4m")
	if !h.has(1, TsumoAgari) {
		t.Fatalf("seat 1 should be able to tsumo on 4m: %v", h.k.LegalActions(1))
	}
	h.discard(1, "4m")
	h.pass()
	h.draw("1m")
	h.discard(2, "1m")
	for _, s := range h.k.Awaiting() {
		if s == 1 {
			t.Fatal("seat 1 is furiten on 1m (4m in its river) but is offered the tile")
		}
	}
	h.deny(Action{Type: Ron, Seat: 1}, "furiten")
}

func TestFuritenTemporary(t *testing.T) {
	h := newHarness(t, furitenHands, "9s", faceDown0)
	h.fillTurn("1m4m")
	h.fillTurn("1m4m")
	h.draw("1m")
	h.discard(2, "1m")
	if !h.has(1, Ron) {
		t.Fatalf("seat 1 should be offered ron on 1m: %v", h.k.LegalActions(1))
	}
	h.do(Action{Type: Pass, Seat: 1})
	h.pass()
	h.draw("4m")
	h.discard(3, "4m")
	h.deny(Action{Type: Ron, Seat: 1}, "furiten")
	h.pass()
	h.fillTurn("1m4m") // seat 0
	h.fillTurn("1m4m") // seat 1: its own discard ends the temporary furiten
	h.draw("4m")
	h.discard(2, "4m")
	h.do(Action{Type: Ron, Seat: 1})
	h.pass()
	res := h.k.Result()
	if res == nil || res.End != EndAgari || len(res.Wins) != 1 {
		t.Fatalf("result %+v, want one win", res)
	}
	// Chun 1 han, 40 fu (20 + 10 closed ron + 8 honour ankou + 2 round-wind
	// pair) = 1300 for a non-dealer.
	if d := res.Deltas; d != [4]int{0, 1300, -1300, 0} {
		t.Errorf("deltas %v, want [0 1300 -1300 0]", d)
	}
}

func TestFuritenRiichi(t *testing.T) {
	h := newHarness(t, furitenHands, "9s", faceDown0)
	h.fillTurn("1m4m")
	h.draw("9m")
	h.riichi(1, "9m")
	h.pass()
	h.draw("1m")
	h.discard(2, "1m")
	h.do(Action{Type: Pass, Seat: 1})
	h.pass()
	h.fillTurn("1m4m") // seat 3
	h.fillTurn("1m4m") // seat 0
	h.fillTurn("1m4m") // seat 1 (tsumogiri in riichi)
	h.draw("4m")
	h.discard(2, "4m")
	h.deny(Action{Type: Ron, Seat: 1}, "furiten")
}
