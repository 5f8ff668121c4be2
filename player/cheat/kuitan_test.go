package cheat

import (
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// tiles parses a hand in the standard notation ("234m56p"), failing t on
// a bad one.
func tiles(t *testing.T, s string) []wall.Tile {
	t.Helper()
	h, err := riichi.ParseHand(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// openKuitan tells the hands kuitanWin declares from those it does not, on
// worked examples: a complete open hand of simples is one; a terminal in
// hand or in a meld, a closed hand, or an incomplete shape is not.
func TestOpenKuitan(t *testing.T) {
	chi := func(s string, typ riichi.MeldType) []game.Meld {
		return []game.Meld{{Meld: riichi.Meld{Type: typ, Tiles: tiles(t, s)}}}
	}
	for _, c := range []struct {
		name  string
		hand  string
		melds []game.Meld
		want  bool
	}{
		{"open all simples", "234m567p345s88s", chi("678s", riichi.Chi), true},
		{"open pon of simples", "234m567p345s88s", chi("555m", riichi.Pon), true},
		{"terminal in hand", "234m567p345s99s", chi("678s", riichi.Chi), false},
		{"terminal in the meld", "234m567p345s88s", chi("789s", riichi.Chi), false},
		{"honor pair", "234m567p345s11z", chi("678s", riichi.Chi), false},
		{"closed hand (ankan only)", "234m567p345s88s", chi("4444m", riichi.Ankan), false},
		{"closed, no melds", "234m567p345s22p888s", nil, false},
		{"not complete", "234m567p345s68s", chi("678s", riichi.Chi), false},
	} {
		if got := openKuitan(tiles(t, c.hand), c.melds); got != c.want {
			t.Errorf("%s: openKuitan(%s) = %v, want %v", c.name, c.hand, got, c.want)
		}
	}
}

// kuitanDiscard throws a terminal or honor first, and otherwise the simple
// that keeps the hand nearest tenpai: from 234m 567p 22p 68s 3s (after one
// call), the 3s is the only tile whose discard leaves it tenpai (on 7s).
func TestKuitanDiscard(t *testing.T) {
	discards := func(h []wall.Tile) []game.Action {
		var a []game.Action
		for _, x := range h {
			a = append(a, game.Action{Type: game.Discard, Tile: x})
		}
		return a
	}
	h := tiles(t, "234m567p22p68s9s")
	if a, ok := kuitanDiscard(h, 1, discards(h)); !ok || a.Tile.Kind() != h[len(h)-1].Kind() {
		t.Errorf("with 9s in hand: discards %v, want the 9s", a.Tile)
	}
	h = tiles(t, "234m567p22p68s3s")
	if a, ok := kuitanDiscard(h, 1, discards(h)); !ok || a.Tile.Kind() != h[len(h)-1].Kind() {
		t.Errorf("all simples: discards %v, want the 3s", a.Tile)
	}
	if _, ok := kuitanDiscard(h, 1, nil); ok {
		t.Error("no legal discard, yet one chosen")
	}
}

// callGains takes a chi that moves the hand toward tenpai and refuses one
// that gains nothing, worked by hand: 234m 567p 22p 46s 8s 9m 1z (closed,
// two from tenpai) is one from tenpai after a chi of 5s with 46s and the
// 1z thrown; 234m 567p 888s 22p 46s (closed, tenpai on 5s) is still only
// tenpai after a chi of 7s with 68s and the 4s thrown.
func TestCallGains(t *testing.T) {
	h := tiles(t, "234m567p22p46s8s9m1z")
	chi := game.Action{Type: game.Chi, Tiles: []wall.Tile{h[8], h[9]}} // 4s 6s
	if !callGains(h, 0, chi) {
		t.Errorf("chi 5s with 46s from %v: not taken, but it gains a step", h)
	}
	h = tiles(t, "234m567p22p46s888s")
	chi = game.Action{Type: game.Chi, Tiles: []wall.Tile{h[9], h[10]}} // 6s 8s, for 7s
	if callGains(h, 0, chi) {
		t.Errorf("chi 7s with 68s from tenpai %v: taken, but it gains nothing", h)
	}
}
