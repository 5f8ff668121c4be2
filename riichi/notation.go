package riichi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mentalmj/mentalmj/wall"
)

// ParseHand parses a hand in the standard notation, digits followed by their
// suit letter: "123m456p789s11z222z" ('m' characters, 'p' circles, 's'
// bamboo, 'z' honours 1..7 = East, South, West, North, haku, hatsu, chun;
// '0' before m/p/s is the red five). Spaces are ignored. It returns concrete
// Tenhou ids in input order: for each kind the lowest id not yet used, where
// a plain 5 never takes the red id (16, 52, 88) and a red five always gets
// it. The error names the 0-based byte position of the offending character:
// a digit without a following suit letter, an unknown character, a fifth
// copy of a kind, a second red five of a suit, 0z/8z/9z.
func ParseHand(s string) ([]wall.Tile, error) {
	var used [wall.NumTiles]bool
	var out []wall.Tile
	err := ScanHand(s, func(_ int, k wall.Kind, red bool) error {
		t, err := takeTile(&used, k, red)
		out = append(out, t)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ScanHand reads s in the notation of ParseHand and calls fn with the
// byte position, kind and redness ('0') of each tile, in input order,
// without giving tiles ids: callers with their own idea of which copies
// exist (several red fives of a suit, tiles shared with other strings)
// count them themselves. It returns the first error, naming s and the
// 0-based byte position: a digit without a following suit letter, an
// unknown character, 0z/8z/9z, or fn's error (wrapped) at its tile.
func ScanHand(s string, fn func(pos int, k wall.Kind, red bool) error) error {
	var digits [16]int // byte positions of pending digits (more spill over)
	pending := digits[:0]
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= '0' && ch <= '9':
			pending = append(pending, i)
		case ch == 'm' || ch == 'p' || ch == 's' || ch == 'z':
			if len(pending) == 0 {
				return fmt.Errorf("riichi: hand %q: position %d: suit letter %q without digits", s, i, ch)
			}
			for _, pos := range pending {
				k, red, err := wall.ParseTileName(tileName(s[pos], ch))
				if err == nil {
					err = fn(pos, k, red)
				}
				if err != nil {
					return fmt.Errorf("riichi: hand %q: position %d: %w", s, pos, err)
				}
			}
			pending = pending[:0]
		case ch == ' ':
		default:
			return fmt.Errorf("riichi: hand %q: position %d: unexpected character %q", s, i, ch)
		}
	}
	if len(pending) > 0 {
		return fmt.Errorf("riichi: hand %q: position %d: digit without a suit letter", s, pending[0])
	}
	return nil
}

// takeTile returns the lowest free id of kind k (red: the red id) and
// marks it used.
func takeTile(used *[wall.NumTiles]bool, k wall.Kind, red bool) (wall.Tile, error) {
	if red {
		t := wall.Tile(4 * k)
		if used[t] {
			return 0, fmt.Errorf("second red five 0%c", k.Suit())
		}
		used[t] = true
		return t, nil
	}
	for t := wall.Tile(4 * k); t < wall.Tile(4*k+4); t++ {
		if t.IsRed() || used[t] {
			continue
		}
		used[t] = true
		return t, nil
	}
	return 0, fmt.Errorf("too many copies of %v", k)
}

// tileNames holds every digit+suit pair, so that tileName can slice a
// two-byte name out of it instead of allocating one per tile.
const tileNames = "0m1m2m3m4m5m6m7m8m9m0p1p2p3p4p5p6p7p8p9p0s1s2s3s4s5s6s7s8s9s0z1z2z3z4z5z6z7z8z9z"

// tileName returns the two-character name digit+suit (a slice of
// tileNames when both are in range, else a new string).
func tileName(digit, suit byte) string {
	i := strings.IndexByte("mpsz", suit)
	if digit < '0' || digit > '9' || i < 0 {
		return string([]byte{digit, suit})
	}
	off := 2 * (10*i + int(digit-'0'))
	return tileNames[off : off+2]
}

// FormatHand writes tiles in the standard notation, sorted by kind with
// digits grouped per suit (m, p, s, z order) and a red five written as 0
// just before the plain fives of its suit. Invalid ids are appended as
// "?<id>" after the valid tiles. Red fives are Tenhou's
// (wall.TenhouReds); FormatHandReds names them as a table plays them.
func FormatHand(tiles []wall.Tile) string { return FormatHandReds(tiles, wall.TenhouReds) }

// FormatHandReds writes tiles as FormatHand does at a table playing the
// red fives reds (Rules.Reds): only the ids of reds are written 0, so
// under no red fives 5p0p is 5p5p, and with four red fives ids 52 and 53
// are both 0p.
func FormatHandReds(tiles []wall.Tile, reds wall.Reds) string {
	sorted := slices.Clone(tiles)
	slices.SortFunc(sorted, func(a, b wall.Tile) int {
		if a.Kind() != b.Kind() {
			return int(a.Kind() - b.Kind())
		}
		// Red first among fives, then by id.
		if reds.Has(a) != reds.Has(b) {
			if reds.Has(a) {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	var b strings.Builder
	var bad []wall.Tile
	suit := byte(0)
	for _, t := range sorted {
		if !t.Valid() {
			bad = append(bad, t)
			continue
		}
		s := t.Kind().Suit()
		if suit != 0 && s != suit {
			b.WriteByte(suit)
		}
		suit = s
		if reds.Has(t) {
			b.WriteByte('0')
		} else {
			b.WriteByte(byte('0' + t.Kind().Number()))
		}
	}
	if suit != 0 {
		b.WriteByte(suit)
	}
	for _, t := range bad {
		b.WriteString(t.String())
	}
	return b.String()
}
