package terminal

import (
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/mentalmj/mentalmj/ui/screen"
)

// shownNumbers reads the numbers the terminal prints before each tile of
// the hand line ("3:2m … + drew 14:East") for the tiles of s, in the
// order handText prints them (sorted, the drawn tile last).
func shownNumbers(t *testing.T, s screen.Snapshot, k Keys) map[int]int {
	t.Helper()
	line := handText(s, k, nil)
	m := regexp.MustCompile(`(\d+):`).FindAllStringSubmatch(line, -1)
	order := slices.Clone(s.MyHand)
	if s.Drawn >= 0 {
		order = append(order, s.Drawn)
	}
	if len(m) != len(order) {
		t.Fatalf("%q: %d numbers for %d tiles", line, len(m), len(order))
	}
	out := map[int]int{}
	for i, g := range m {
		n, _ := strconv.Atoi(g[1])
		out[order[i]] = n
	}
	return out
}

// TestTileNumbersAreStable plays two prompts of one deal on a Table: the
// hand 1m…4p (ids 0, 4, …, 48) with East (id 108) drawn, the player
// discards 2m (id 4, number 2) and keeps East, then draws 1m (id 1). Every
// tile still held must show the number it showed before (places in the
// sorted hand would shift 3m…4p down by one), the kept East its 14, the
// new tile the freed 2; and a number typed names the tile shown with it.
func TestTileNumbersAreStable(t *testing.T) {
	var hand1 []int
	for id := 0; id <= 48; id += 4 {
		hand1 = append(hand1, id)
	}
	s1 := screen.Snapshot{MyHand: hand1, Drawn: 108}
	tb := &Table{}
	k1 := tb.nextKeys(s1)
	tb.keys = k1
	before := shownNumbers(t, s1, k1)
	for i, id := range hand1 {
		if before[id] != i+1 {
			t.Fatalf("fresh deal: tile %d shown as %d, want %d (sorted)", id, before[id], i+1)
		}
	}
	if before[108] != 14 {
		t.Fatalf("fresh deal: the drawn tile shown as %d, want 14", before[108])
	}

	hand2 := append(slices.Clone(hand1[:1]), hand1[2:]...)
	hand2 = append(hand2, 108) // sorted: East after the suits
	s2 := screen.Snapshot{MyHand: hand2, Drawn: 1}
	k2 := tb.nextKeys(s2)
	after := shownNumbers(t, s2, k2)
	for _, id := range hand2 {
		if after[id] != before[id] {
			t.Errorf("tile %d was %d, now %d: numbers must not move", id, before[id], after[id])
		}
	}
	if after[1] != before[4] {
		t.Errorf("the new tile shows %d, want the freed %d", after[1], before[4])
	}
	for id, n := range after {
		if got, ok := k2.tile(s2, n); !ok || got != id {
			t.Errorf("typing %d names tile %d, but %d was shown with it", n, got, id)
		}
	}
	if got, _ := k2.tile(s2, 0); got != 1 {
		t.Errorf("0 names tile %d, want the drawn tile 1", got)
	}

	// A new deal numbers afresh, though it holds tile ids of the last.
	s3 := screen.Snapshot{MyHand: []int{4, 8}, Drawn: -1, Hands: make([]screen.HandSummary, 1)}
	if k3 := tb.nextKeys(s3); k3[4] != 1 || k3[8] != 2 {
		t.Errorf("a new deal kept old numbers: %v", k3)
	}
}
