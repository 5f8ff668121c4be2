package riichi

import "github.com/mentalmj/mentalmj/wall"

// MeldType is the kind of a declared meld (naki).
type MeldType int

// The declared meld types.
const (
	// Chi is a sequence called from kamicha's discard.
	Chi MeldType = iota
	// Pon is a triplet called from any opponent's discard.
	Pon
	// Daiminkan is an open quad called from an opponent's discard.
	Daiminkan
	// Ankan is a concealed quad declared from the own hand (keeps the hand
	// closed).
	Ankan
	// Kakan is an added quad: a fourth tile added to an own pon.
	Kakan
)

// String returns the Japanese name: "chi", "pon", "daiminkan", "ankan",
// "kakan", or "meld(<n>)" for an unknown value.
func (t MeldType) String() string {
	switch t {
	case Chi:
		return "chi"
	case Pon:
		return "pon"
	case Daiminkan:
		return "daiminkan"
	case Ankan:
		return "ankan"
	case Kakan:
		return "kakan"
	}
	return "meld(" + itoa(int(t)) + ")"
}

// Meld is one declared meld.
type Meld struct {
	// Type is the meld type.
	Type MeldType
	// Tiles are all tiles of the meld: 3 for Chi/Pon, 4 for the kans
	// (including the called tile).
	Tiles []wall.Tile
	// Called is the tile taken from another player's discard (for Kakan the
	// tile of the original pon call); -1 for Ankan.
	Called wall.Tile
	// From is the seat the called tile came from, relative to the meld's
	// owner: 1 shimocha, 2 toimen, 3 kamicha (always 3 for Chi); 0 for Ankan.
	From int
}

// Open reports whether the meld opens the hand (every type except Ankan).
func (m Meld) Open() bool { return m.Type != Ankan }

// IsKan reports whether the meld is a quad (Daiminkan, Ankan or Kakan).
func (m Meld) IsKan() bool { return m.Type == Daiminkan || m.Type == Ankan || m.Type == Kakan }

// Kind returns the kind of the meld's lowest tile (the first kind of a chi,
// the kind of a pon or kan), or -1 if the meld has no tiles.
func (m Meld) Kind() wall.Kind {
	if len(m.Tiles) == 0 {
		return -1
	}
	k := m.Tiles[0].Kind()
	for _, t := range m.Tiles[1:] {
		if t.Kind() < k {
			k = t.Kind()
		}
	}
	return k
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
