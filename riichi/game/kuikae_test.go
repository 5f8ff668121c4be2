package game

import "testing"

// Filler hands with no call or ron on the tiles the scenarios use.
const (
	fill0 = "258m258p258s1234z"
	fill2 = "147m147p147s1234z"
	fill3 = "369m369p369s5677z"
)

func TestKuikaeChi(t *testing.T) {
	h := newHarness(t, [4]string{fill0, "3456m258p258s567z", fill2, fill3}, "9s", nil)
	h.draw("3m")
	h.discard(0, "3m")
	if got := h.k.Awaiting(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("awaiting %v, want [1] (only seat 1 can chi)", got)
	}
	h.do(Action{Type: Chi, Seat: 1, Tiles: h.heldN(1, "4m5m")})
	h.phase(PhaseTurn)
	h.deny(Action{Type: Discard, Seat: 1, Tile: h.held(1, "3m")}, "kuikae")
	h.deny(Action{Type: Discard, Seat: 1, Tile: h.held(1, "6m")}, "kuikae")
	for _, a := range h.k.LegalActions(1) {
		if k := a.Tile.Kind().String(); a.Type == Discard && (k == "3m" || k == "6m") {
			t.Errorf("LegalActions lists %v", a)
		}
	}
	h.deny(Action{Type: Ankan, Seat: 1, Tiles: h.heldN(1, "2p")}, "right after a chi or pon")
	h.discard(1, "2p")
	h.phase(PhaseDraw)
}

func TestKuikaeChiKanchan(t *testing.T) {
	// 4m with 3m5m (kanchan): only 4m itself is forbidden.
	h := newHarness(t, [4]string{fill0, "3456m258p258s567z", fill2, fill3}, "9s", nil)
	h.draw("4m")
	h.discard(0, "4m")
	h.do(Action{Type: Chi, Seat: 1, Tiles: h.heldN(1, "3m5m")})
	h.deny(Action{Type: Discard, Seat: 1, Tile: h.held(1, "4m")}, "kuikae")
	h.discard(1, "6m")
}

func TestKuikaePon(t *testing.T) {
	h := newHarness(t, [4]string{fill0, "3456m258p258s567z", "147m147p14777s12z", fill3}, "9s", nil)
	h.draw("7s")
	h.discard(0, "7s")
	if !h.has(2, Pon) || !h.has(2, Daiminkan) {
		t.Fatalf("seat 2 should be offered pon and daiminkan: %v", h.k.LegalActions(2))
	}
	h.do(Action{Type: Pon, Seat: 2, Tiles: h.heldN(2, "7s7s")})
	h.phase(PhaseTurn)
	if h.k.Turn() != 2 {
		t.Fatalf("turn %d after the pon, want 2 (seat 1 is skipped)", h.k.Turn())
	}
	h.deny(Action{Type: Discard, Seat: 2, Tile: h.held(2, "7s")}, "kuikae")
	h.discard(2, "1z")
}

func TestCallPriority(t *testing.T) {
	// Seat 1 wants to chi 7s, seat 2 to pon it: the pon wins whatever the
	// order of the answers.
	h := newHarness(t, [4]string{fill0, "3456m258p258s568s", "147m147p14777s12z", fill3}, "9s", nil)
	h.draw("7s")
	h.discard(0, "7s")
	h.do(Action{Type: Chi, Seat: 1, Tiles: h.heldN(1, "5s6s")})
	h.do(Action{Type: Pon, Seat: 2, Tiles: h.heldN(2, "7s7s")})
	if h.k.Turn() != 2 || len(h.k.Melds(1)) != 0 || len(h.k.Melds(2)) != 1 {
		t.Fatalf("turn %d, melds %v / %v: want seat 2's pon to win over seat 1's chi", h.k.Turn(), h.k.Melds(1), h.k.Melds(2))
	}
}
