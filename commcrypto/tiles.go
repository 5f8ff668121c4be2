package commcrypto

import "fmt"

// TileDST is the domain-separation tag for tile points: the DST argument of
// RFC 9380 hash_to_curve (section 3.1) used by NewTileTable. Changing it
// changes every tile point, so it carries the protocol version.
const TileDST = "mentalmj/v1/tile"

// NumTiles is the number of tiles in a mahjong set, and of tile points:
// Tenhou tile ids run from 0 to 135 (id/4 is the tile kind, id%4 the copy).
const NumTiles = 136

// TileTable holds the public plaintext points T_0..T_135 of the 136 tiles
// and the reverse map from a point's encoding to its Tenhou tile id. A table
// is immutable once built and safe for concurrent use; every table holds the
// same points.
type TileTable struct {
	points [NumTiles]Element
	ids    map[[ElementSize]byte]int
}

// tileMessage returns the hash_to_curve message for tile id: the id as a
// 2-byte big-endian unsigned integer (I2OSP(id, 2) in RFC 8017 / RFC 9380
// notation).
func tileMessage(id int) []byte {
	return []byte{byte(id >> 8), byte(id)}
}

// tilePoint returns T_id = hash_to_ristretto255(I2OSP(id, 2), TileDST).
func tilePoint(id int) Element {
	return newElement(g.HashToElement(tileMessage(id), []byte(TileDST)))
}

// NewTileTable computes the 136 tile points and returns a new table.
//
// Tile id (0 ≤ id < 136) is the point
//
//	T_id = hash_to_ristretto255(msg = I2OSP(id, 2), DST = TileDST)
//
// where I2OSP(id, 2) is the 2-byte big-endian id (tile 0 is 00 00, tile 135
// is 00 87) and DST is the 16 ASCII bytes "mentalmj/v1/tile".
// hash_to_ristretto255 is RFC 9380 appendix B, suite
// ristretto255_XMD:SHA-512_R255MAP_RO_: expand_message_xmd with SHA-512 to
// 64 bytes (RFC 9380 section 5.3.1), then the RFC 9496 section 4.3.4 one-way
// map on each 32-byte half, the two points added. This is circl's
// group.Ristretto255.HashToElement. Nobody knows discrete logarithms
// between the points (never id·G; see the package documentation).
//
// It costs 136 hash-to-group evaluations (a few milliseconds) and panics only if
// two points collide or one is the identity, which happens with probability
// ≈ 2^-238 and is excluded by the package tests.
func NewTileTable() *TileTable {
	t := &TileTable{ids: make(map[[ElementSize]byte]int, NumTiles)}
	for id := range NumTiles {
		p := tilePoint(id)
		k := p.Key()
		if _, dup := t.ids[k]; dup || p.p.IsIdentity() {
			panic(fmt.Sprintf("commcrypto: tile point %d is the identity or repeats", id))
		}
		t.points[id] = p
		t.ids[k] = id
	}
	return t
}

// Point returns T_id, the plaintext point of Tenhou tile id. It panics if id
// is outside [0, NumTiles), which is a programmer error: ids from peers must
// be range-checked first, and ids recovered by Lookup are always in range.
func (t *TileTable) Point(id int) Element {
	if id < 0 || id >= NumTiles {
		panic(fmt.Sprintf("commcrypto: tile id %d out of range [0,%d)", id, NumTiles))
	}
	return t.points[id]
}

// Points returns a new slice of the NumTiles (136) tile points, index = Tenhou
// tile id: the unshuffled deck the first shuffle pass starts from.
func (t *TileTable) Points() []Element {
	out := make([]Element, NumTiles)
	copy(out, t.points[:])
	return out
}

// Lookup returns the tile id whose point is m, and ok = true; or 0, false
// if m is not a tile point (for example a wrong or incompletely decrypted
// ciphertext, or the unset Element{}). It does no curve arithmetic (a map
// lookup on the cached encoding).
func (t *TileTable) Lookup(m Element) (id int, ok bool) {
	if m.IsZero() {
		return 0, false
	}
	id, ok = t.ids[m.enc]
	return id, ok
}
