package mjlog

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// Meld is one decoded <N m=> value.
type Meld struct {
	// Type is the kind of call (riichi.MeldType: the engine's type, which
	// also has Kita).
	Type riichi.MeldType
	// From is Tenhou's m&3: the seat the called tile came from relative to
	// the caller, 0 self (ankan, kita), 1 shimocha, 2 toimen, 3 kamicha
	// (always 3 for chi). For kakan it is the From of the original pon.
	From int
	// Tiles are all tiles of the meld, ascending: 3 for chi and pon, 4 for
	// kans, 1 for kita.
	Tiles []wall.Tile
	// Called is the tile taken from another seat's discard (for kakan, the
	// one taken by the original pon); -1 for ankan and kita.
	Called wall.Tile
	// Added is, for kakan, the tile added to the pon; -1 otherwise.
	Added wall.Tile
	// KanTile is, for ankan, the tile id Tenhou stores in m>>8: one of the
	// four tiles, usually the lowest but sometimes another (it is needed to
	// re-encode the code exactly); -1 for other types.
	KanTile wall.Tile
	// Code is the raw m attribute this meld was decoded from (0 when the
	// meld was built by hand); EncodeMeld ignores it.
	Code int
}

// ErrMeldCode is wrapped by DecodeMeld and EncodeMeld errors for codes or
// melds outside Tenhou's layout.
var ErrMeldCode = errors.New("not a Tenhou meld layout")

// DecodeMeld decodes Tenhou's packed meld code m (0..65535), following the
// bit layout of tenhou.net/img/tehai.js:
//
//	bits 0-1  From (m&3)
//	chi   (bit 2):  bits 3-4, 5-6, 7-8 = id%4 of the three tiles; bit 9 = 0;
//	                bits 10-15 = 3·base + r, base = 7·suit + (rank-1) of the
//	                lowest tile, r = index of the called tile
//	pon   (bit 3):  bits 5-6 = id%4 of the tile not in the pon; bits 7-8 = 0;
//	                bits 9-15 = 3·kind + r, r = index of the called tile
//	kakan (bit 4):  as pon; the added tile is 4·kind + bits 5-6
//	kita  (bit 5):  bits 8-15 = the north tile id
//	kan   (bits 2-5 clear): bits 8-15 = a tile id of the kan (the called one
//	                for daiminkan, From != 0; ankan when From == 0)
//
// It returns an error wrapping ErrMeldCode when m is out of range, has bits
// set outside the layout, or names impossible tiles.
func DecodeMeld(m int) (Meld, error) {
	if m < 0 || m > 0xFFFF {
		return Meld{}, fmt.Errorf("meld code %d: out of range 0..65535: %w", m, ErrMeldCode)
	}
	md := Meld{From: m & 3, Called: -1, Added: -1, KanTile: -1, Code: m}
	switch {
	case m&0x4 != 0:
		md.Type = riichi.Chi
		if md.From != 3 {
			return Meld{}, fmt.Errorf("meld code %d: chi from relative seat %d, want 3 (kamicha): %w", m, md.From, ErrMeldCode)
		}
		if m&0x200 != 0 {
			return Meld{}, fmt.Errorf("meld code %d: chi with bit 9 set: %w", m, ErrMeldCode)
		}
		t := m >> 10
		r, base := t%3, t/3
		if r > 2 || base >= 21 {
			return Meld{}, fmt.Errorf("meld code %d: chi base %d out of range: %w", m, base, ErrMeldCode)
		}
		kind := base/7*9 + base%7
		md.Tiles = make([]wall.Tile, 3)
		for i := range 3 {
			md.Tiles[i] = wall.Tile(4*(kind+i) + (m>>(3+2*i))&3)
		}
		md.Called = md.Tiles[r]
	case m&0x8 != 0 || m&0x10 != 0:
		md.Type = riichi.Pon
		if m&0x8 == 0 {
			md.Type = riichi.Kakan
		} else if m&0x10 != 0 {
			return Meld{}, fmt.Errorf("meld code %d: both pon and kakan bits set: %w", m, ErrMeldCode)
		}
		if md.From == 0 {
			return Meld{}, fmt.Errorf("meld code %d: %v from self: %w", m, md.Type, ErrMeldCode)
		}
		if m&0x180 != 0 {
			return Meld{}, fmt.Errorf("meld code %d: %v with bits 7-8 set: %w", m, md.Type, ErrMeldCode)
		}
		unused := (m >> 5) & 3
		t := m >> 9
		kind, r := t/3, t%3
		if kind >= wall.NumKinds {
			return Meld{}, fmt.Errorf("meld code %d: %v kind %d out of range: %w", m, md.Type, kind, ErrMeldCode)
		}
		var pon []wall.Tile
		for i := range 4 {
			if i != unused {
				pon = append(pon, wall.Tile(4*kind+i))
			}
		}
		md.Called = pon[r]
		if md.Type == riichi.Pon {
			md.Tiles = pon
		} else {
			md.Added = wall.Tile(4*kind + unused)
			md.Tiles = []wall.Tile{wall.Tile(4 * kind), wall.Tile(4*kind + 1), wall.Tile(4*kind + 2), wall.Tile(4*kind + 3)}
		}
	case m&0x20 != 0:
		md.Type = riichi.Kita
		t := wall.Tile(m >> 8)
		if m&0xDF != 0 || t.Kind() != 30 {
			return Meld{}, fmt.Errorf("meld code %d: kita must be north tile id<<8 | 0x20: %w", m, ErrMeldCode)
		}
		md.Tiles = []wall.Tile{t}
	default:
		if m&0xC0 != 0 {
			return Meld{}, fmt.Errorf("meld code %d: kan with bits 6-7 set: %w", m, ErrMeldCode)
		}
		t := wall.Tile(m >> 8)
		if !t.Valid() {
			return Meld{}, fmt.Errorf("meld code %d: kan tile %d out of range: %w", m, int(t), ErrMeldCode)
		}
		k := int(t.Kind())
		md.Tiles = []wall.Tile{wall.Tile(4 * k), wall.Tile(4*k + 1), wall.Tile(4*k + 2), wall.Tile(4*k + 3)}
		if md.From == 0 {
			md.Type = riichi.Ankan
			md.KanTile = t
		} else {
			md.Type = riichi.Daiminkan
			md.Called = t
		}
	}
	return md, nil
}

// EncodeMeld packs md into Tenhou's meld code, the inverse of DecodeMeld
// (md.Code is ignored): DecodeMeld(EncodeMeld(md)) equals md with Code set.
// It returns an error wrapping ErrMeldCode when md is inconsistent: wrong
// number of tiles, tiles not ascending or not forming the meld, Called,
// Added or KanTile not among Tiles, or a From the meld type forbids.
func EncodeMeld(md Meld) (int, error) {
	bad := func(format string, a ...any) (int, error) {
		return 0, fmt.Errorf("encode %v meld %v: %s: %w", md.Type, md.Tiles, fmt.Sprintf(format, a...), ErrMeldCode)
	}
	for _, t := range md.Tiles {
		if !t.Valid() {
			return bad("tile %d out of range", int(t))
		}
	}
	if !slices.IsSorted(md.Tiles) {
		return bad("tiles not ascending")
	}
	if md.From < 0 || md.From > 3 {
		return bad("from %d out of range 0..3", md.From)
	}
	sameKind := func(n int) bool {
		if len(md.Tiles) != n {
			return false
		}
		for i := 1; i < n; i++ {
			if md.Tiles[i].Kind() != md.Tiles[0].Kind() || md.Tiles[i] == md.Tiles[i-1] {
				return false
			}
		}
		return true
	}
	switch md.Type {
	case riichi.Chi:
		if md.From != 3 {
			return bad("chi from %d, want 3", md.From)
		}
		if len(md.Tiles) != 3 {
			return bad("chi needs 3 tiles")
		}
		k := md.Tiles[0].Kind()
		if k.IsHonor() || k%9 > 6 || md.Tiles[1].Kind() != k+1 || md.Tiles[2].Kind() != k+2 {
			return bad("not a sequence")
		}
		r := slices.Index(md.Tiles, md.Called)
		if r < 0 {
			return bad("called tile %d not in meld", int(md.Called))
		}
		base := int(k)/9*7 + int(k)%9
		m := (3*base+r)<<10 | 0x4 | md.From
		for i, t := range md.Tiles {
			m |= (int(t) % 4) << (3 + 2*i)
		}
		return m, nil
	case riichi.Pon, riichi.Kakan:
		if md.From == 0 {
			return bad("%v from self", md.Type)
		}
		var pon []wall.Tile
		var unused int
		if md.Type == riichi.Pon {
			if !sameKind(3) {
				return bad("pon needs 3 distinct tiles of one kind")
			}
			pon = md.Tiles
			unused = 6 - (int(pon[0])%4 + int(pon[1])%4 + int(pon[2])%4)
		} else {
			if !sameKind(4) {
				return bad("kakan needs the 4 tiles of one kind")
			}
			i := slices.Index(md.Tiles, md.Added)
			if i < 0 {
				return bad("added tile %d not in meld", int(md.Added))
			}
			pon = slices.Delete(slices.Clone(md.Tiles), i, i+1)
			unused = int(md.Added) % 4
		}
		r := slices.Index(pon, md.Called)
		if r < 0 {
			return bad("called tile %d not in pon", int(md.Called))
		}
		flag := 0x8
		if md.Type == riichi.Kakan {
			flag = 0x10
		}
		return (3*int(pon[0].Kind())+r)<<9 | unused<<5 | flag | md.From, nil
	case riichi.Daiminkan:
		if md.From == 0 {
			return bad("daiminkan from self")
		}
		if !sameKind(4) {
			return bad("kan needs the 4 tiles of one kind")
		}
		if !slices.Contains(md.Tiles, md.Called) {
			return bad("called tile %d not in meld", int(md.Called))
		}
		return int(md.Called)<<8 | md.From, nil
	case riichi.Ankan:
		if md.From != 0 {
			return bad("ankan from %d, want 0", md.From)
		}
		if !sameKind(4) {
			return bad("kan needs the 4 tiles of one kind")
		}
		if !slices.Contains(md.Tiles, md.KanTile) {
			return bad("kan tile %d not in meld", int(md.KanTile))
		}
		return int(md.KanTile) << 8, nil
	case riichi.Kita:
		if md.From != 0 || len(md.Tiles) != 1 || md.Tiles[0].Kind() != 30 {
			return bad("kita is one north tile from self")
		}
		return int(md.Tiles[0])<<8 | 0x20, nil
	}
	return bad("unknown meld type")
}
