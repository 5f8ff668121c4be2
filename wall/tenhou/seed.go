package tenhou

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/wall"
)

// Variant names the form of a Tenhou <SHUFFLE seed=...> value.
type Variant int

const (
	// Base64 is the modern form "mt19937ar-sha512-n288-base64,B64": 2496
	// bytes read as 624 little-endian words (docs/wall-layout.md §1).
	Base64 Variant = iota + 1
	// Hex2009 is the 2009 form "mt19937ar-sha512-n288,HEX,...,HEX": 32 hex
	// words, with the reversed dead wall of docs/wall-layout.md §6.
	Hex2009
)

// String returns the seed prefix of the variant ("mt19937ar-sha512-n288-base64"
// or "mt19937ar-sha512-n288").
func (v Variant) String() string {
	switch v {
	case Base64:
		return PrefixBase64
	case Hex2009:
		return PrefixHex2009
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Seed prefixes as they appear in <SHUFFLE seed="PREFIX,...">.
const (
	// PrefixBase64 introduces a modern seed: one base64 value of 2496 bytes.
	PrefixBase64 = "mt19937ar-sha512-n288-base64"
	// PrefixHex2009 introduces a 2009 seed: 32 comma-separated hex words.
	PrefixHex2009 = "mt19937ar-sha512-n288"
)

const (
	// SeedBytes is the length in bytes of a decoded base64 seed: 624 words
	// of 4 bytes.
	SeedBytes = 4 * KeyWords
	// KeyWords is the init_by_array key length of a base64 seed.
	KeyWords = 624
	// HexKeyWords is the init_by_array key length of a 2009 hex seed.
	HexKeyWords = 32
)

// Seed is a parsed Tenhou shuffle seed: the mt19937ar init_by_array key of
// one game (docs/wall-layout.md §1).
type Seed struct {
	// Variant is the seed form; it selects the dead-wall layout.
	Variant Variant
	// Key is the init_by_array key: 624 words decoded little-endian from
	// Bytes (Base64), or the 32 hex words (Hex2009).
	Key []uint32
	// Bytes holds the 2496 decoded bytes of a Base64 seed in their original
	// order (used by SeatHashMessage); nil for Hex2009.
	Bytes []byte
}

// ParseSeed parses the seed attribute of a Tenhou <SHUFFLE> tag. It accepts
//
//   - "mt19937ar-sha512-n288-base64,B64" where B64 is standard base64 of
//     2496 bytes, read as 624 little-endian uint32 words;
//   - "mt19937ar-sha512-n288,H1,...,H32", 32 comma-separated hex words of
//     up to 8 digits (2009 logs);
//   - a bare B64 value without prefix (as quoted by blog posts).
//
// Surrounding white space is ignored. It returns an error naming the fault:
// an unknown prefix ("unknown shuffle variant"), bad base64, a wrong decoded
// length, a wrong number of hex words or a word that is not hex.
func ParseSeed(s string) (Seed, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Seed{}, fmt.Errorf("empty shuffle seed")
	}
	prefix, rest, hasComma := strings.Cut(s, ",")
	if !hasComma {
		return parseBase64(s)
	}
	switch prefix {
	case PrefixBase64:
		return parseBase64(rest)
	case PrefixHex2009:
		return parseHex(rest)
	}
	return Seed{}, fmt.Errorf("unknown shuffle variant %q (want %s or %s)", prefix, PrefixBase64, PrefixHex2009)
}

func parseBase64(b64 string) (Seed, error) {
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return Seed{}, fmt.Errorf("shuffle seed is not standard base64: %w", err)
	}
	if len(raw) != SeedBytes {
		return Seed{}, fmt.Errorf("shuffle seed decodes to %d bytes, want %d (624 words)", len(raw), SeedBytes)
	}
	key := make([]uint32, KeyWords)
	for i := range key {
		key[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return Seed{Variant: Base64, Key: key, Bytes: raw}, nil
}

func parseHex(list string) (Seed, error) {
	words := strings.Split(list, ",")
	if len(words) != HexKeyWords {
		return Seed{}, fmt.Errorf("hex shuffle seed has %d words, want %d", len(words), HexKeyWords)
	}
	key := make([]uint32, len(words))
	for i, w := range words {
		v, err := strconv.ParseUint(w, 16, 32)
		if err != nil {
			return Seed{}, fmt.Errorf("hex shuffle seed word %d %q: %w", i, w, err)
		}
		key[i] = uint32(v)
	}
	return Seed{Variant: Hex2009, Key: key}, nil
}

// Layout returns the yama layout of a game played with this seed by the
// given number of players (3 or 4): wall.FourPlayer or wall.ThreePlayer, with
// Legacy2009 set for hex seeds (docs/wall-layout.md §5–6). It returns an error for
// any other player count.
func (s Seed) Layout(players int) (wall.Layout, error) {
	var l wall.Layout
	switch players {
	case 4:
		l = wall.FourPlayer
	case 3:
		l = wall.ThreePlayer
	default:
		return wall.Layout{}, fmt.Errorf("%d players: Tenhou walls exist for 3 or 4", players)
	}
	l.Legacy2009 = s.Variant == Hex2009
	return l, nil
}
