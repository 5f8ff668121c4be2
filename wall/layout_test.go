package wall

import (
	"reflect"
	"testing"
)

// The expected indices below are transcribed from docs/wall-layout.md §5 and §8
// (verified there against real Tenhou logs), not from this package's output.
func TestFourPlayerLayout(t *testing.T) {
	l := FourPlayer
	if got, want := l.Haipai(0), []int{135, 134, 133, 132, 119, 118, 117, 116, 103, 102, 101, 100, 87}; !reflect.DeepEqual(got, want) {
		t.Errorf("oya haipai = %v, want %v", got, want)
	}
	for s, want := range []int{87, 86, 85, 84} {
		if got := l.HaipaiIndex(s, 12); got != want {
			t.Errorf("seat %d 13th tile at %d, want %d", s, got, want)
		}
	}
	if got := l.HaipaiIndex(1, 0); got != 131 {
		t.Errorf("shimocha first tile at %d, want 131", got)
	}
	if got := l.LiveDrawIndex(0, 0); got != 83 {
		t.Errorf("first live draw at %d, want 83", got)
	}
	if got := l.LiveDraws(); got != 70 {
		t.Errorf("live draws = %d, want 70", got)
	}
	if got := l.LiveDrawIndex(69, 0); got != 14 {
		t.Errorf("last live draw at %d, want 14 (haitei)", got)
	}
	if got := l.LiveDrawIndex(69, 1); got != -1 {
		t.Errorf("70th draw after one kan at %d, want -1", got)
	}
	for k, want := range []int{1, 0, 3, 2, -1} {
		if got := l.RinshanIndex(k); got != want {
			t.Errorf("rinshan %d at %d, want %d", k, got, want)
		}
	}
	for k, want := range []int{5, 7, 9, 11, 13} {
		if got := l.DoraIndicatorIndex(k); got != want {
			t.Errorf("dora indicator %d at %d, want %d", k, got, want)
		}
	}
	for k, want := range []int{4, 6, 8, 10, 12} {
		if got := l.UraIndicatorIndex(k); got != want {
			t.Errorf("ura indicator %d at %d, want %d", k, got, want)
		}
	}
	if got := l.HaiteiIndex(2); got != 16 {
		t.Errorf("haitei after 2 rinshan at %d, want 16", got)
	}
}

func TestThreePlayerLayout(t *testing.T) {
	l := ThreePlayer
	if got, want := l.Haipai(0), []int{107, 106, 105, 104, 95, 94, 93, 92, 83, 82, 81, 80, 71}; !reflect.DeepEqual(got, want) {
		t.Errorf("oya haipai = %v, want %v", got, want)
	}
	if got := l.HaipaiIndex(2, 12); got != 69 {
		t.Errorf("seat 2 13th tile at %d, want 69", got)
	}
	if got := l.LiveDrawIndex(0, 0); got != 68 {
		t.Errorf("first live draw at %d, want 68", got)
	}
	if got := l.LiveDraws(); got != 55 {
		t.Errorf("live draws = %d, want 55", got)
	}
	for k, want := range []int{1, 0, 3, 2, 5, 4, 7, 6, -1} {
		if got := l.RinshanIndex(k); got != want {
			t.Errorf("rinshan %d at %d, want %d", k, got, want)
		}
	}
	if got := l.DoraIndicatorIndex(0); got != 9 {
		t.Errorf("dora indicator at %d, want 9", got)
	}
	if got := l.UraIndicatorIndex(1); got != 10 {
		t.Errorf("second ura indicator at %d, want 10", got)
	}
	set := l.Set()
	if len(set) != 108 || set[3] != 3 || set[4] != 32 {
		t.Errorf("3p set starts %v (len %d), want 0,1,2,3,32,…", set[:6], len(set))
	}
}

func TestLegacy2009Layout(t *testing.T) {
	l := Layout{Players: 4, Size: 136, Legacy2009: true}
	if got := l.DoraIndicatorIndex(0); got != 4 {
		t.Errorf("2009 dora indicator at %d, want 4", got)
	}
	if got := l.UraIndicatorIndex(0); got != 5 {
		t.Errorf("2009 ura indicator at %d, want 5", got)
	}
	if got := l.DoraIndicatorIndex(1); got != 6 {
		t.Errorf("2009 first kan dora at %d, want 6", got)
	}
	if got := l.RinshanIndex(0); got != 0 {
		t.Errorf("2009 first rinshan at %d, want 0", got)
	}
}

// Every yama index is used by exactly one role in a four-player kyoku with
// four kans: this is a second, independent check of the formulas above.
func TestFourPlayerIndicesPartitionWall(t *testing.T) {
	l := FourPlayer
	owner := make(map[int]string)
	claim := func(i int, who string) {
		if i < 0 || i >= l.Size {
			t.Fatalf("%s: index %d out of range", who, i)
		}
		if prev, ok := owner[i]; ok {
			t.Fatalf("index %d used by both %s and %s", i, prev, who)
		}
		owner[i] = who
	}
	for s := 0; s < 4; s++ {
		for _, i := range l.Haipai(s) {
			claim(i, "haipai")
		}
	}
	for d := 0; d < l.LiveDraws()-4; d++ {
		claim(l.LiveDrawIndex(d, 4), "live")
	}
	for k := 0; k < 4; k++ {
		claim(l.RinshanIndex(k), "rinshan")
		claim(l.HaiteiIndex(0)+k, "tail of the live wall given up to rinshan")
	}
	for k := 0; k < 5; k++ {
		claim(l.DoraIndicatorIndex(k), "dora")
		claim(l.UraIndicatorIndex(k), "ura")
	}
	if len(owner) != l.Size {
		t.Fatalf("%d of %d indices have a role", len(owner), l.Size)
	}
}

func TestCheckPermutation(t *testing.T) {
	yama := FourPlayer.Set()
	if err := FourPlayer.CheckPermutation(yama); err != nil {
		t.Fatalf("identity permutation rejected: %v", err)
	}
	yama[7] = yama[3]
	if err := FourPlayer.CheckPermutation(yama); err == nil {
		t.Fatal("duplicated tile accepted")
	}
	if err := FourPlayer.CheckPermutation(yama[:135]); err == nil {
		t.Fatal("short wall accepted")
	}
	three := ThreePlayer.Set()
	three[5] = 10 // 3m is not in the three-player set
	if err := ThreePlayer.CheckPermutation(three); err == nil {
		t.Fatal("3m accepted in a three-player wall")
	}
}
