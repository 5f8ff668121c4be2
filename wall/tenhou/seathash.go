package tenhou

import (
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"sort"
)

// SeatString returns Tenhou's seat-permutation string for a game: the
// players are numbered 0..P-1 by sorting their decoded names in Unicode
// code-point order (Go's byte order on UTF-8), and the string lists, for
// East, South, West and North at the start of the game (seats 0..3), the
// number of the player sitting there; in three-player games the empty North
// seat is written "3". Equal names keep seat order. names holds the names
// by seat, 3 or 4 of them (mjlog.Game.Players[i].Name).
//
// This follows docs/wall-layout.md §9 and is NOT confirmed: no published
// (seed, seat order, hash) triple has been found to check it. It returns an
// error for another number of names.
func SeatString(names []string) (string, error) {
	p := len(names)
	if p != 3 && p != 4 {
		return "", fmt.Errorf("seat string needs 3 or 4 player names, got %d", p)
	}
	order := make([]int, p) // order[k] = seat of the k-th name in sort order
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return names[order[a]] < names[order[b]] })
	seat := []byte("3333")
	for k, s := range order {
		seat[s] = byte('0' + k)
	}
	return string(seat), nil
}

// SeatHashMessage returns the message Tenhou is believed to hash before a
// game (tenhou.net/stat/rand: "4 (seat permutation) + 624*8 (seed) = 4996
// bytes"): the 4-character seat string followed by the lowercase hex of the
// 2496 decoded seed bytes in their original order. Hexing the bytes in order
// is the seed read as one big-endian integer written with all 4992 digits:
// leading zero bytes are kept as "00" (a plain numeric print would drop them
// and give fewer than 4996 bytes), and no word is byte-swapped (printing the
// 624 little-endian key words as %08x would reverse each group of 4 bytes).
//
// The construction is docs/wall-layout.md §9's first candidate, NOT confirmed
// against any published hash. It returns an error for a seat string that is
// not a permutation of "0123" and for a seed without decoded bytes (the
// 2009 hex seeds).
func SeatHashMessage(seat string, seed Seed) ([]byte, error) {
	if err := checkSeatString(seat); err != nil {
		return nil, err
	}
	if seed.Variant != Base64 || len(seed.Bytes) != SeedBytes {
		return nil, fmt.Errorf("seat hash needs a %s seed of %d bytes, have %s with %d bytes", PrefixBase64, SeedBytes, seed.Variant, len(seed.Bytes))
	}
	msg := make([]byte, len(seat)+hex.EncodedLen(len(seed.Bytes)))
	copy(msg, seat)
	hex.Encode(msg[len(seat):], seed.Bytes)
	return msg, nil
}

// SeatHash returns the lowercase hex SHA-512 (128 characters) of
// SeatHashMessage(seat, seed), the value to compare with Tenhou's published
// pre-game list. The construction is an unconfirmed hypothesis (see
// SeatHashMessage); errors are SeatHashMessage's.
func SeatHash(seat string, seed Seed) (string, error) {
	msg, err := SeatHashMessage(seat, seed)
	if err != nil {
		return "", err
	}
	sum := sha512.Sum512(msg)
	return hex.EncodeToString(sum[:]), nil
}

func checkSeatString(seat string) error {
	if len(seat) != 4 {
		return fmt.Errorf("seat string %q: want 4 digits", seat)
	}
	var seen [4]bool
	for i := range 4 {
		d := int(seat[i]) - '0'
		if d < 0 || d > 3 || seen[d] {
			return fmt.Errorf("seat string %q: want a permutation of 0123", seat)
		}
		seen[d] = true
	}
	return nil
}
