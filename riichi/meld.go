package riichi

import (
	"fmt"

	"github.com/mentalmj/mentalmj/wall"
)

// MeldType is the kind of a call (naki): the one meld type of the rules
// engine and of every record format (record/mjlog's <N m=>, tenhou.net/6,
// mjai). Its numeric values are nowhere encoded (mjlog's m= bits,
// tenhou.net/6's call strings and mjai's event types are written by
// switching on it, and the wire carries game actions, not melds); the zero
// value is no type, so a Meld whose Type was never set fails Validate.
type MeldType int

// The meld types. Kita is a record's call only: the rules engine keeps a
// seat's norths set aside apart (game.Kyoku.Nukidora), so a hand's Meld is
// never a kita and Validate refuses one.
const (
	// Chi is a sequence called from kamicha's discard.
	Chi MeldType = iota + 1
	// Pon is a triplet called from any opponent's discard.
	Pon
	// Daiminkan is an open quad called from an opponent's discard.
	Daiminkan
	// Ankan is a concealed quad declared from the own hand (keeps the hand
	// closed).
	Ankan
	// Kakan is an added quad: a fourth tile added to an own pon.
	Kakan
	// Kita is a north set aside as nukidora in three-player mahjong (sanma),
	// Tenhou's <N> with m&0x20 (tenhou.net/img/tehai.js).
	Kita
)

// String returns the Japanese name: "chi", "pon", "daiminkan", "ankan",
// "kakan", "kita", or "meldtype(<n>)" for an unknown value.
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
	case Kita:
		return "kita"
	}
	return fmt.Sprintf("meldtype(%d)", int(t))
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

// Open reports whether the meld opens the hand (every type except Ankan
// and Kita).
func (m Meld) Open() bool { return m.Type != Ankan && m.Type != Kita }

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

// Validate checks the meld's shape: Chi is three consecutive kinds of one
// number suit, Pon three of one kind, the kans four of one kind; tile ids
// are valid; Called is one of Tiles (Ankan: -1); From is 1..3 (Chi: 3;
// Ankan: 0). It returns an error naming the meld and the rule broken.
func (m Meld) Validate() error {
	bad := func(why string) error {
		return fmt.Errorf("riichi: %v meld %v: %s", m.Type, m.Tiles, why)
	}
	want := 3
	if m.IsKan() {
		want = 4
	}
	if m.Type == Kita {
		return bad("a kita is no meld of the hand (the engine counts nukidora apart)")
	}
	if m.Type < Chi || m.Type > Kakan {
		return bad("unknown meld type")
	}
	if len(m.Tiles) != want {
		return bad(fmt.Sprintf("has %d tiles, want %d", len(m.Tiles), want))
	}
	for _, t := range m.Tiles {
		if !t.Valid() {
			return bad(fmt.Sprintf("invalid tile id %d", int(t)))
		}
	}
	k := m.Kind()
	if m.Type == Chi {
		if k.IsHonor() || k.Number() > 7 {
			return bad("not a sequence")
		}
		var seen [3]bool
		for _, t := range m.Tiles {
			d := int(t.Kind() - k)
			if d < 0 || d > 2 || seen[d] {
				return bad("not a sequence")
			}
			seen[d] = true
		}
	} else {
		for _, t := range m.Tiles {
			if t.Kind() != k {
				return bad("tiles of different kinds")
			}
		}
	}
	if m.Type == Ankan {
		if m.From != 0 {
			return bad("ankan must have From 0")
		}
		return nil
	}
	if m.From < 1 || m.From > 3 || (m.Type == Chi && m.From != 3) {
		return bad(fmt.Sprintf("From %d out of range", m.From))
	}
	found := false
	for _, t := range m.Tiles {
		if t == m.Called {
			found = true
		}
	}
	if !found {
		return bad(fmt.Sprintf("called tile %d not among the tiles", int(m.Called)))
	}
	return nil
}
