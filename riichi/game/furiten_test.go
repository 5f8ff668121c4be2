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
	if h.k.FuritenKinds(1)&(1<<0) != 0 {
		t.Fatal("FuritenKinds marks 1m before seat 1 passed it")
	}
	h.do(Action{Type: Pass, Seat: 1})
	h.pass()
	// The public furiten mask (what the table shows) has 1m now.
	if h.k.FuritenKinds(1)&(1<<0) == 0 {
		t.Fatal("FuritenKinds does not mark 1m after seat 1 passed it")
	}
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

// Seat 0 (dealer) holds three 1m and a 4m: it draws the fourth 1m, declares
// an ankan and later lets a 4m go. On Tenhou another player's ankan of a
// winning tile is not a tile passed, so seat 1 (waiting on 1m-4m) is not
// furiten for it.
const ankanDealer = "111m4m58p258s1234z"

// ankanSeat2 holds no 1m or 4m, so the walls of these tests have them free.
const ankanSeat2 = "69m2589p147s1234z"

func TestFuritenNotFromAnkanTemporary(t *testing.T) {
	h := newHarness(t, [4]string{ankanDealer, "23m456p456s11z777z", ankanSeat2, fill3b}, "9s", nil)
	h.fillTurn("1m4m")
	h.fillTurn("1m4m") // seat 1's last own discard is before the ankan
	h.fillTurn("1m4m")
	h.fillTurn("1m4m")
	h.draw("1m")
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "1m1m1m1m")})
	h.revealDora()
	h.phase(PhaseDraw) // nobody may rob an ankan without kokushi
	h.drawWhere(func(k wall.Kind) bool { return k != 0 && k != 3 })
	h.discard(0, "4m")
	if !h.has(1, Ron) {
		t.Fatalf("seat 1 should be offered ron on 4m after the 1m ankan: %v", h.k.LegalActions(1))
	}
	h.do(Action{Type: Ron, Seat: 1})
	h.pass()
	res := h.k.Result()
	if res == nil || res.End != EndAgari || len(res.Wins) != 1 || res.Wins[0].Seat != 1 {
		t.Fatalf("result %+v, want seat 1's ron", res)
	}
}

func TestFuritenNotFromAnkanRiichi(t *testing.T) {
	h := newHarness(t, [4]string{ankanDealer, "23m456p456s11z777z", ankanSeat2, fill3b}, "9s", nil)
	h.fillTurn("1m4m")
	h.draw("9m")
	h.riichi(1, "9m")
	h.pass()
	h.fillTurn("1m4m")
	h.fillTurn("1m4m")
	h.draw("1m")
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "1m1m1m1m")})
	h.revealDora()
	h.drawWhere(func(k wall.Kind) bool { return k != 0 && k != 3 })
	h.tsumogiri(0)
	h.pass()
	h.fillTurn("1m4m") // seat 1's own discard: only riichi furiten could remain
	h.draw("4m")
	h.discard(2, "4m")
	if !h.has(1, Ron) {
		t.Fatalf("seat 1 in riichi should be offered ron on 4m after the 1m ankan: %v", h.k.LegalActions(1))
	}
	h.revealUra()
	h.do(Action{Type: Ron, Seat: 1})
	h.pass()
	res := h.k.Result()
	if res == nil || res.End != EndAgari || len(res.Wins) != 1 || res.Wins[0].Seat != 1 {
		t.Fatalf("result %+v, want seat 1's ron", res)
	}
}

// A kakan tile that is not robbed is a pass (Tenhou): the waiting seat is
// then temporarily furiten on its other wait.
func TestFuritenFromKakan(t *testing.T) {
	h := newHarness(t, [4]string{"11m4m58p258s12346z", "23m456p456s11z777z", ankanSeat2, fill3b}, "9s", nil)
	h.fillTurn("1m4m")
	h.fillTurn("1m4m")
	h.fillTurn("1m4m")
	h.draw("1m")
	h.discard(3, "1m")
	if !h.has(1, Ron) {
		t.Fatal("seat 1 should be offered ron on 1m")
	}
	h.do(Action{Type: Pass, Seat: 1})
	h.do(Action{Type: Pon, Seat: 0, Tiles: h.heldN(0, "1m1m")})
	h.pass()
	h.discard(0, "6z")
	h.pass()
	h.fillTurn("1m4m") // seat 1's own discard ends the furiten of the pass
	h.fillTurn("1m4m")
	h.fillTurn("1m4m")
	h.draw("1m")
	h.do(Action{Type: Kakan, Seat: 0, Tile: h.held(0, "1m")})
	h.do(Action{Type: Pass, Seat: 1})
	h.drawWhere(func(k wall.Kind) bool { return k != 0 && k != 3 })
	h.discard(0, "4m")
	h.deny(Action{Type: Ron, Seat: 1}, "furiten")
}

// revealDora reveals the turned dora indicators not yet known with free
// honour tiles.
func (h *harness) revealDora() {
	h.t.Helper()
	dora, _ := h.k.DoraPositions()
	for _, pos := range dora {
		if h.k.Tile(pos) != Unknown {
			continue
		}
		for id := wall.Tile(wall.NumTiles - 1); id >= 0; id-- {
			if !h.used[id] {
				h.used[id] = true
				if err := h.k.Reveal(pos, id); err != nil {
					h.t.Fatal(err)
				}
				break
			}
		}
	}
}
