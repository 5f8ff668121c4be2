package game

import (
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

func TestIllegalActions(t *testing.T) {
	hands := [4]string{fill0, "23m456p456s11z777z", "147m147p147s2234z", fill3b}
	h := newHarness(t, hands, "9s", nil)
	h.deny(Action{Type: Discard, Seat: 0, Tile: h.held(0, "2m")}, "waiting for the draw of seat 0 (East)")
	h.draw("9m")
	h.deny(Action{Type: Discard, Seat: 1, Tile: h.held(1, "2m")}, "not this seat's turn")
	h.deny(Action{Type: Discard, Seat: 0, Tile: h.held(1, "2m")}, "not in the hand")
	h.deny(Action{Type: TsumoAgari, Seat: 0}, "not complete")
	h.deny(Action{Type: Pass, Seat: 0}, "on the own turn only")
	h.deny(Action{Type: Discard, Seat: 7}, "seat outside 0..3")
	h.discard(0, "2z")
	// Seat 2 may pon 2z (so the offer stays open), but not with a 4z.
	err := h.k.Apply(Action{Type: Pon, Seat: 2, Tiles: h.heldN(2, "2z4z")})
	if err == nil || !strings.HasPrefix(err.Error(), "seat 2 (West): pon 2z (2z4z): ") {
		t.Fatalf("error %q, want it to start with %q", err, "seat 2 (West): pon 2z (2z4z): ")
	}
	h.deny(Action{Type: Ron, Seat: 1}, "not complete")
	h.deny(Action{Type: Chi, Seat: 1, Tiles: h.heldN(1, "2m")}, "chi takes 2 hand tiles")
	h.deny(Action{Type: Chi, Seat: 1, Tiles: h.heldN(1, "2m3m")}, "tiles do not form a sequence")
	h.deny(Action{Type: Chi, Seat: 1, Tiles: []wall.Tile{h.held(0, "2m"), h.held(1, "3m")}}, "not in the hand")
	h.deny(Action{Type: Chi, Seat: 3, Tiles: h.heldN(3, "3m6m")}, "chi only from kamicha")
	h.deny(Action{Type: Ron, Seat: 0}, "cannot answer the own tile")
	h.do(Action{Type: Pass, Seat: 2})
	h.deny(Action{Type: Pass, Seat: 2}, "waiting for the draw of seat 1 (South)")
}

func TestIllegalCallsInRiichi(t *testing.T) {
	// Seat 1 is in riichi with two 9p: no pon.
	hands := [4]string{fill0, "23m456p456s99p777z", "147m147p147s2234z", fill3b}
	// Seat 3 plays face down, so it is awaited on every discard and the
	// offer stays open for seat 1's attempt.
	h := newHarness(t, hands, "9s", func(d *Deal) { d.Haipai[3] = slices.Repeat([]wall.Tile{Unknown}, 13) })
	h.fillTurn("9p1m4m")
	h.drawWhere(func(k wall.Kind) bool { return k == 2 || k > 26 && k < 31 })
	tiles, _ := h.k.Hand(1)
	h.do(Action{Type: Discard, Seat: 1, Tile: tiles[len(tiles)-1], Riichi: true})
	h.pass()
	h.draw("9p")
	h.discard(2, "9p")
	h.deny(Action{Type: Pon, Seat: 1, Tiles: h.heldN(1, "9p9p")}, "no calls in riichi")
}

func TestChiOnlyFromKamicha(t *testing.T) {
	h := newHarness(t, [4]string{fill0, "3456m258p258s567z", "3456m147p147s234z", fill3b}, "9s", nil)
	h.draw("3m")
	h.discard(0, "3m")
	h.deny(Action{Type: Chi, Seat: 2, Tiles: h.heldN(2, "4m5m")}, "chi only from kamicha")
}
