package wall

import (
	"fmt"
)

// Tile is a Tenhou tile id, 0..135 (0..135 with ids 4..31 unused in
// three-player games). Tile/4 is its Kind. See docs/wall-layout.md §7.
type Tile int

// Kind is one of the 34 tile kinds: 0..8 = 1m..9m, 9..17 = 1p..9p,
// 18..26 = 1s..9s, 27..33 = 1z..7z (East, South, West, North, haku, hatsu,
// chun).
type Kind int

const (
	// NumTiles is the number of tiles in a four-player set (Tenhou ids 0..135).
	NumTiles = 136
	// NumKinds is the number of distinct tile kinds.
	NumKinds = 34
	// RedMan is the Tenhou id of the red five of characters (0m) when red
	// fives are played (docs/wall-layout.md §7).
	RedMan Tile = 16
	// RedPin is the Tenhou id of the red five of dots (0p).
	RedPin Tile = 52
	// RedSou is the Tenhou id of the red five of bamboo (0s).
	RedSou Tile = 88
)

// Valid reports whether t is a Tenhou tile id in 0..135.
func (t Tile) Valid() bool { return t >= 0 && t < NumTiles }

// Kind returns t/4, the tile's kind (0..33).
func (t Tile) Kind() Kind { return Kind(t / 4) }

// IsRed reports whether t is one of the red fives 16, 52, 88.
func (t Tile) IsRed() bool { return t == RedMan || t == RedPin || t == RedSou }

// String returns the tile's name in the standard notation: "1m".."9m",
// "1p".."9p", "1s".."9s", "1z".."7z", and "0m", "0p", "0s" for the red
// fives. An invalid id prints as "?<id>".
func (t Tile) String() string {
	if !t.Valid() {
		return fmt.Sprintf("?%d", int(t))
	}
	if t.IsRed() {
		return "0" + string(t.Kind().Suit())
	}
	return t.Kind().String()
}

// Valid reports whether k is a kind in 0..33.
func (k Kind) Valid() bool { return k >= 0 && k < NumKinds }

// Suit returns the suit letter of k: 'm', 'p', 's' or 'z' (honours).
func (k Kind) Suit() byte { return "mpsz"[k/9] }

// Number returns the rank of k within its suit: 1..9 for m/p/s, 1..7 for z.
func (k Kind) Number() int { return int(k%9) + 1 }

// IsHonor reports whether k is a wind or dragon (27..33).
func (k Kind) IsHonor() bool { return k >= 27 }

// IsTerminal reports whether k is a 1 or 9 of a suit.
func (k Kind) IsTerminal() bool { return !k.IsHonor() && (k%9 == 0 || k%9 == 8) }

// String returns k in the standard notation, e.g. "5p" or "7z"; an invalid
// kind prints as "?<k>".
func (k Kind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("?%d", int(k))
	}
	return fmt.Sprintf("%d%c", k.Number(), k.Suit())
}

// ParseTileName parses one tile name ("1m".."9m", "1p".."9p", "1s".."9s",
// "1z".."7z", "0m"/"0p"/"0s" for red fives) and returns its kind and whether
// it names a red five. It returns an error naming the input when the name is
// not two characters of that form.
func ParseTileName(name string) (k Kind, red bool, err error) {
	if len(name) != 2 {
		return 0, false, fmt.Errorf("tile name %q: want two characters like 5m or 0p", name)
	}
	n := int(name[0] - '0')
	var base int
	switch name[1] {
	case 'm':
		base = 0
	case 'p':
		base = 9
	case 's':
		base = 18
	case 'z':
		if n < 1 || n > 7 {
			return 0, false, fmt.Errorf("tile name %q: honours are 1z..7z", name)
		}
		return Kind(27 + n - 1), false, nil
	default:
		return 0, false, fmt.Errorf("tile name %q: suit must be m, p, s or z", name)
	}
	if n < 0 || n > 9 {
		return 0, false, fmt.Errorf("tile name %q: rank must be 0..9", name)
	}
	if n == 0 {
		return Kind(base + 4), true, nil
	}
	return Kind(base + n - 1), false, nil
}
