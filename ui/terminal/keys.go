package terminal

import (
	"slices"

	"github.com/mentalmj/mentalmj/ui/screen"
)

// Keys numbers the player's concealed tiles for the keyboard: a tile id
// (0..135, wall.Tile) to the number typed to discard it. The numbers are
// stable, as on Tenhou's keyboard: a tile keeps its number for as long as
// it stays in the hand, and the drawn tile takes the lowest free number
// (the one the last discard freed; 14 after a fresh deal) and keeps it
// once kept. 0 is also the drawn tile, as a fixed key for tsumogiri
// (ParseKeys). A fresh hand (a new deal) is numbered 1..13 in sorted
// order, so every number is at most the number of concealed tiles.
type Keys map[int]int

// next numbers the hand of s keeping k's numbers for the tiles still in
// it (k nil: a fresh numbering).
func (k Keys) next(s screen.Snapshot) Keys {
	out := Keys{}
	used := map[int]bool{}
	hand := s.MyHand
	if s.Drawn >= 0 {
		hand = append(slices.Clone(hand), s.Drawn)
	}
	for _, t := range hand {
		if n, ok := k[t]; ok && n > 0 && !used[n] && out[t] == 0 {
			out[t], used[n] = n, true
		}
	}
	free := 1
	for _, t := range hand {
		if _, ok := out[t]; ok {
			continue
		}
		for used[free] {
			free++
		}
		out[t], used[free] = free, true
	}
	return out
}

// tile returns the tile of s numbered n (0: the drawn tile), or -1 and
// false.
func (k Keys) tile(s screen.Snapshot, n int) (int, bool) {
	if n == 0 {
		return s.Drawn, s.Drawn >= 0
	}
	for t, m := range k {
		if m == n {
			return t, true
		}
	}
	return -1, false
}

// max is the highest number in use.
func (k Keys) max() int {
	m := 0
	for _, n := range k {
		m = max(m, n)
	}
	return m
}

// keyed is one tile of the displayed hand with its number.
type keyed struct{ tile, n int }

// keyedHand is the displayed hand: sorted, the drawn tile last, each with
// its number in k (k nil: numbered afresh).
func keyedHand(s screen.Snapshot, k Keys) []keyed {
	if k == nil {
		k = Keys(nil).next(s)
	}
	var out []keyed
	for _, t := range s.MyHand {
		out = append(out, keyed{t, k[t]})
	}
	if s.Drawn >= 0 && !slices.Contains(s.MyHand, s.Drawn) {
		out = append(out, keyed{s.Drawn, k[s.Drawn]})
	}
	return out
}
