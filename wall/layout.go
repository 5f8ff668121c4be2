package wall

import "fmt"

// Layout gives the meaning of each yama index for one wall variant, as
// verified in docs/wall-layout.md §5 (modern seeds) and §6 (2009 hex seeds).
// Seats s are counted from the dealer (oya): s = 0 is the dealer, then
// shimocha, toimen, kamicha.
type Layout struct {
	// Players is 4 or 3.
	Players int
	// Size is the number of tiles in the wall: 136 (4 players) or 108.
	Size int
	// Legacy2009 selects the dead-wall orientation of the 2009 hex-seed logs
	// (docs/wall-layout.md §6): dora indicator yama[4], ura yama[5], rinshan
	// yama[0], yama[1], ….
	Legacy2009 bool
}

// FourPlayer is the four-player layout (N = 136, docs/wall-layout.md §5).
var FourPlayer = Layout{Players: 4, Size: 136}

// ThreePlayer is the three-player layout (N = 108, docs/wall-layout.md §5).
var ThreePlayer = Layout{Players: 3, Size: 108}

// HaipaiSize is the number of tiles in a starting hand before the dealer's
// first draw.
const HaipaiSize = 13

// DeadWallSize is the number of tiles kept out of the live wall.
const DeadWallSize = 14

// HaipaiIndex returns the yama index of the n-th tile (n = 0..12) dealt to
// seat s (0..Players-1, counted from the dealer), in Tenhou's deal order:
// tiles 0..11 come in three blocks of four from yama[Size-1] downwards
// (Size-1 - 4(P·b + s) - k for tile 4b+k), tile 12 is Size-1 - 12P - s.
// It panics if s or n is out of range (a programmer error).
func (l Layout) HaipaiIndex(s, n int) int {
	if s < 0 || s >= l.Players || n < 0 || n >= HaipaiSize {
		panic(fmt.Sprintf("wall: HaipaiIndex(%d, %d) out of range", s, n))
	}
	if n == 12 {
		return l.Size - 1 - 12*l.Players - s
	}
	b, k := n/4, n%4
	return l.Size - 1 - 4*(l.Players*b+s) - k
}

// Haipai returns the 13 yama indices dealt to seat s (counted from the
// dealer) in deal order, as they are listed in Tenhou's INIT hai0..hai3.
func (l Layout) Haipai(s int) []int {
	out := make([]int, HaipaiSize)
	for n := range out {
		out[n] = l.HaipaiIndex(s, n)
	}
	return out
}

// LiveDraws returns the number of live-wall draws in a kyoku with no kan:
// Size - 14 - 13·Players (70 for four players, 55 for three). Each rinshan
// draw shortens the live wall by one (docs/wall-layout.md §5, "Wall end").
func (l Layout) LiveDraws() int { return l.Size - DeadWallSize - HaipaiSize*l.Players }

// LiveDrawIndex returns the yama index of the d-th live draw of a kyoku
// (d = 0, 1, … over all players in draw order; d = 0 is the dealer's first
// tsumo): Size-1 - 13·Players - d, so 83, 82, … for four players. It returns
// -1 if d is negative or past the live wall when rinshan draws have been made
// (d ≥ LiveDraws() - rinshan).
func (l Layout) LiveDrawIndex(d, rinshan int) int {
	if d < 0 || d >= l.LiveDraws()-rinshan {
		return -1
	}
	return l.Size - 1 - HaipaiSize*l.Players - d
}

// RinshanIndex returns the yama index of the k-th replacement draw of a
// kyoku (k = 0, 1, …): 1, 0, 3, 2 for four players, 1, 0, 3, 2, 5, 4, 7, 6
// for three; 0, 1, 2, 3 in the 2009 layout (§6, only the first entry
// observed). It returns -1 for k out of range (4 kans for four players, 8
// replacement draws with kita for three).
func (l Layout) RinshanIndex(k int) int {
	max := 4
	if l.Players == 3 {
		max = 8
	}
	if k < 0 || k >= max {
		return -1
	}
	if l.Legacy2009 {
		return k
	}
	return k ^ 1
}

// DoraIndicatorIndex returns the yama index of the k-th dora indicator
// (k = 0 the initial indicator, k = 1..4 the kan-dora indicators): 5 + 2k
// for four players, 9 + 2k for three, 4 + 2k in the 2009 layout. It returns
// -1 for k outside 0..4.
func (l Layout) DoraIndicatorIndex(k int) int {
	if k < 0 || k > 4 {
		return -1
	}
	return l.deadBase() + 1 + 2*k - l.legacyShift()
}

// UraIndicatorIndex returns the yama index of the k-th ura-dora indicator
// (same order as the dora indicators): 4 + 2k for four players, 8 + 2k for
// three, 5 + 2k in the 2009 layout. It returns -1 for k outside 0..4.
func (l Layout) UraIndicatorIndex(k int) int {
	if k < 0 || k > 4 {
		return -1
	}
	return l.deadBase() + 2*k + l.legacyShift()
}

// HaiteiIndex returns the yama index of the last live tile of a kyoku in
// which rinshan replacement draws have been made: yama[14 + rinshan].
func (l Layout) HaiteiIndex(rinshan int) int { return DeadWallSize + rinshan }

func (l Layout) deadBase() int {
	if l.Players == 3 {
		return 8
	}
	return 4
}

func (l Layout) legacyShift() int {
	if l.Legacy2009 {
		return 1
	}
	return 0
}

// Set returns the tile ids of a full set for the layout in ascending order:
// 0..135 for four players; for three players [0,1,2,3] followed by 32..135
// (2m–8m removed), docs/wall-layout.md §3.
func (l Layout) Set() []Tile {
	out := make([]Tile, 0, l.Size)
	for t := Tile(0); t < NumTiles; t++ {
		if l.Players == 3 && t >= 4 && t < 32 {
			continue
		}
		out = append(out, t)
	}
	return out
}

// CheckPermutation returns nil if yama holds every tile of the layout's set
// exactly once, and otherwise an error naming the first index that holds a
// tile outside the set or a repeated tile, or the length mismatch.
func (l Layout) CheckPermutation(yama []Tile) error {
	if len(yama) != l.Size {
		return fmt.Errorf("wall has %d tiles, want %d", len(yama), l.Size)
	}
	in := make([]bool, NumTiles)
	for _, t := range l.Set() {
		in[t] = true
	}
	seen := make([]int, NumTiles)
	for i, t := range yama {
		if !t.Valid() || !in[t] {
			return fmt.Errorf("yama[%d] = %d is not a tile of the %d-player set", i, int(t), l.Players)
		}
		if seen[t] != 0 {
			return fmt.Errorf("yama[%d] = %s (id %d) repeats yama[%d]", i, t, int(t), seen[t]-1)
		}
		seen[t] = i + 1
	}
	return nil
}
