package majsoul

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mentalmj/mentalmj/wall"
)

// Tile is one tile of a wall code: its kind and whether it is a red five.
type Tile struct {
	Kind wall.Kind
	Red  bool
}

// String returns the two-character wall-code name of t, e.g. "5p", "0s"
// for a red five, "7z" for chun.
func (t Tile) String() string {
	if t.Red {
		return "0" + string(t.Kind.Suit())
	}
	return t.Kind.String()
}

// SyntaxError reports a malformed wall code. Offset is the 0-based byte
// offset of the bad character and Tile the 0-based index of the tile it
// belongs to.
type SyntaxError struct {
	Offset int
	Tile   int
	Msg    string
}

// Error returns e.g. `wall code offset 37 (tile 18 "5x"): suit must be
// m, p, s or z`.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("wall code offset %d (tile %d): %s", e.Offset, e.Tile, e.Msg)
}

// ParseWall parses a wall code (2 characters per tile, see the package
// doc) into its tiles in order. It returns a *SyntaxError pointing at the
// first bad character: an odd length, a rank that is not a digit, a suit
// other than m/p/s/z, an honour outside 1z..7z, or a red 0z. It does not
// check the tile counts; see CheckSet.
func ParseWall(code string) ([]Tile, error) {
	if code == "" {
		return nil, &SyntaxError{Msg: "empty"}
	}
	tiles := make([]Tile, 0, len(code)/2)
	for i := 0; i < len(code); i += 2 {
		n := i / 2
		if i+1 >= len(code) {
			return nil, &SyntaxError{Offset: i, Tile: n, Msg: fmt.Sprintf("odd length %d: tile %q lacks its suit", len(code), code[i:])}
		}
		pair := code[i : i+2]
		k, red, err := wall.ParseTileName(pair)
		if err != nil {
			off := i
			if pair[0] >= '0' && pair[0] <= '9' && !strings.ContainsRune("mpsz", rune(pair[1])) {
				off = i + 1 // the rank is fine, the suit is at fault
			}
			return nil, &SyntaxError{Offset: off, Tile: n, Msg: err.Error()}
		}
		tiles = append(tiles, Tile{Kind: k, Red: red})
	}
	return tiles, nil
}

// FormatWall returns the wall code of tiles, the inverse of ParseWall. It
// returns an error naming the index of a tile with an invalid kind or a
// red flag on a kind other than a five of m/p/s.
func FormatWall(tiles []Tile) (string, error) {
	var b strings.Builder
	b.Grow(2 * len(tiles))
	for i, t := range tiles {
		if !t.Kind.Valid() {
			return "", fmt.Errorf("wall tile %d: invalid kind %d", i, int(t.Kind))
		}
		if t.Red && (t.Kind.IsHonor() || t.Kind.Number() != 5) {
			return "", fmt.Errorf("wall tile %d: red flag on %v", i, t.Kind)
		}
		b.WriteString(t.String())
	}
	return b.String(), nil
}

// ErrSet is wrapped by CheckSet errors.
var ErrSet = errors.New("not a legal tile set")

// CheckSet checks that tiles form a complete set: 136 tiles with four of
// each of the 34 kinds (four-player), or 108 tiles with four of each kind
// except 2m..8m, which are absent (three-player). Red fives count as their
// kind. It returns an error wrapping ErrSet naming the first kind with the
// wrong count.
func CheckSet(tiles []Tile) error {
	var count [wall.NumKinds]int
	for _, t := range tiles {
		if !t.Kind.Valid() {
			return fmt.Errorf("invalid kind %d: %w", int(t.Kind), ErrSet)
		}
		count[t.Kind]++
	}
	var three bool
	switch len(tiles) {
	case 136:
	case 108:
		three = true
	default:
		return fmt.Errorf("%d tiles, want 136 (4 players) or 108 (3 players): %w", len(tiles), ErrSet)
	}
	for k := range wall.Kind(wall.NumKinds) {
		want := 4
		if three && k >= 1 && k <= 7 {
			want = 0
		}
		if count[k] != want {
			return fmt.Errorf("%d × %v, want %d: %w", count[k], k, want, ErrSet)
		}
	}
	return nil
}
