package game

import (
	"github.com/mentalmj/mentalmj/wall"
	"slices"
	"testing"
)

var ankanOthers = [3]string{"3456m258p258s667z", "369m369p369s1234z", "789m123p123s2344z"}

func TestRiichiAnkanChangingWaitsRefused(t *testing.T) {
	// 1112m waits on 2m and 3m; after an ankan of 1m only 2m is left.
	h := newHarness(t, [4]string{"1112m456p789s555z", ankanOthers[0], ankanOthers[1], ankanOthers[2]}, "9p", nil)
	h.draw("9m")
	h.riichi(0, "9m")
	h.pass()
	for range 3 {
		h.fillTurn("1m2m3m")
	}
	h.draw("1m")
	if h.has(0, Ankan) {
		t.Error("LegalActions offers an ankan that changes the waits")
	}
	h.deny(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "1m1m1m1m")}, "may not change the waits")
	h.tsumogiri(0)
}

func TestRiichiAnkanKeepingWaits(t *testing.T) {
	h := newHarness(t, [4]string{"123m456p789s555z1s", ankanOthers[0], ankanOthers[1], ankanOthers[2]}, "9p", nil)
	h.draw("9m")
	h.riichi(0, "9m")
	h.pass()
	for range 3 {
		h.fillTurn("1s5z")
	}
	h.draw("5z")
	h.do(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "5z5z5z5z")})
	if !h.k.Riichi(0) || len(h.k.DoraIndicators()) != 2 {
		t.Fatalf("riichi %v, %d dora indicators; want riichi kept and the kan-dora turned", h.k.Riichi(0), len(h.k.DoraIndicators()))
	}
}

func TestRiichiAnkanNeedsDrawnTile(t *testing.T) {
	// Four 4p were in the hand before riichi (wait 3p): in riichi they may
	// not be declared as a kan with another drawn tile.
	h := newHarness(t, [4]string{"4444p2p123m789s11z", ankanOthers[0], ankanOthers[1], ankanOthers[2]}, "9p", nil)
	h.draw("9m")
	h.riichi(0, "9m")
	h.pass()
	for range 3 {
		h.fillTurn("3p")
	}
	h.drawWhere(func(k wall.Kind) bool { return k != 11 })
	h.deny(Action{Type: Ankan, Seat: 0, Tiles: h.heldN(0, "4p4p4p4p")}, "must use the drawn tile")
}

// ippatsuHands: seat 0 will riichi on 1z/2z; seat 3 can pon seat 1's 5z.
var ippatsuHands = [4]string{"123m456p789s1122z", "3456m258p258s567z", fill2, fill3b}

func yakuIDs(w Win) []int {
	var ids []int
	for _, y := range w.Value.Yaku {
		ids = append(ids, y.ID)
	}
	return ids
}

func TestIppatsu(t *testing.T) {
	h := newHarness(t, ippatsuHands, "9p", nil)
	h.fillTurn("1z2z") // seat 0's first discard
	for range 3 {
		h.fillTurn("1z2z")
	}
	t0 := h.drawWhere(func(k wall.Kind) bool { return k < 27 })
	h.do(Action{Type: Discard, Seat: 0, Tile: t0, Riichi: true})
	h.pass()
	for range 3 {
		h.fillTurn("1z2z5z")
	}
	h.draw("1z")
	h.revealUra()
	h.do(Action{Type: TsumoAgari, Seat: 0})
	ids := yakuIDs(h.k.Result().Wins[0])
	if !slices.Contains(ids, 1) || !slices.Contains(ids, 2) || slices.Contains(ids, 21) {
		t.Errorf("yaku %v, want riichi (1) and ippatsu (2), no double riichi", ids)
	}
}

func TestIppatsuBrokenByCall(t *testing.T) {
	h := newHarness(t, ippatsuHands, "9p", nil)
	h.fillTurn("1z2z")
	for range 3 {
		h.fillTurn("1z2z5z")
	}
	t0 := h.drawWhere(func(k wall.Kind) bool { return k < 27 })
	h.do(Action{Type: Discard, Seat: 0, Tile: t0, Riichi: true})
	h.pass()
	h.drawWhere(func(k wall.Kind) bool { return k < 27 })
	h.discard(1, "5z")
	h.do(Action{Type: Pon, Seat: 3, Tiles: h.heldN(3, "5z5z")})
	h.pass()
	h.discard(3, "3m")
	h.pass()
	h.draw("1z")
	h.revealUra()
	h.do(Action{Type: TsumoAgari, Seat: 0})
	if ids := yakuIDs(h.k.Result().Wins[0]); slices.Contains(ids, 2) || !slices.Contains(ids, 1) {
		t.Errorf("yaku %v, want riichi without ippatsu after seat 3's pon", ids)
	}
}

func TestDoubleRiichi(t *testing.T) {
	h := newHarness(t, ippatsuHands, "9p", nil)
	t0 := h.drawWhere(func(k wall.Kind) bool { return k < 27 })
	h.do(Action{Type: Discard, Seat: 0, Tile: t0, Riichi: true})
	h.pass()
	for range 3 {
		h.fillTurn("1z2z5z")
	}
	h.draw("1z")
	h.revealUra()
	h.do(Action{Type: TsumoAgari, Seat: 0})
	if ids := yakuIDs(h.k.Result().Wins[0]); !slices.Contains(ids, 21) || !slices.Contains(ids, 2) {
		t.Errorf("yaku %v, want double riichi (21) and ippatsu (2)", ids)
	}
}
