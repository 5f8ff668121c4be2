package sapikachu

import (
	"fmt"

	"github.com/mentalmj/mentalmj/wall"
)

// uniform returns a value uniform in 0..n-1 (1 <= n <= 2^bits) from words
// uniform in 0..2^bits-1, by rejection: words w >= 2^bits − (2^bits mod n)
// are discarded, then w mod n is returned. The production path uses
// bits = 32; tests use small widths where the distribution can be counted
// exactly.
func uniform(n uint64, bits uint, next func() (uint32, error)) (uint64, error) {
	space := uint64(1) << bits
	limit := space - space%n
	for {
		w, err := next()
		if err != nil {
			return 0, err
		}
		if uint64(w) < limit {
			return uint64(w) % n, nil
		}
	}
}

// fisherYates shuffles yama in place from the top: for i = len-1 down to
// 1, swap yama[i] with yama[j], j uniform in 0..i.
func fisherYates(yama []wall.Tile, bits uint, next func() (uint32, error)) error {
	for i := len(yama) - 1; i >= 1; i-- {
		j, err := uniform(uint64(i+1), bits, next)
		if err != nil {
			return err
		}
		yama[i], yama[j] = yama[j], yama[i]
	}
	return nil
}

// Shuffle returns the yama (136 Tenhou tile ids, index meaning as in
// docs/wall-layout.md §5) that the seed and GS determine: Fisher–Yates over
// 0..135 driven by ChaCha20(seed) ⊕ GS as the package doc fixes. It returns
// an error wrapping ErrInput if gs is not GSSize bytes.
func Shuffle(seed [SeedSize]byte, gs []byte) ([]wall.Tile, error) {
	if len(gs) != GSSize {
		return nil, fmt.Errorf("gs: %d bytes, want %d: %w", len(gs), GSSize, ErrInput)
	}
	s, err := newStream(&seed, gs)
	if err != nil {
		return nil, err
	}
	yama := make([]wall.Tile, wall.NumTiles)
	for i := range yama {
		yama[i] = wall.Tile(i)
	}
	if err := fisherYates(yama, 32, s.word); err != nil {
		return nil, err
	}
	return yama, nil
}
