package riichi

import (
	"errors"

	"github.com/mentalmj/mentalmj/wall"
)

// ParseHand parses a hand in the standard notation, digits followed by their
// suit letter: "123m456p789s11z222z" ('m' characters, 'p' circles, 's'
// bamboo, 'z' honours 1..7 = East, South, West, North, haku, hatsu, chun;
// '0' before m/p/s is the red five). It returns concrete Tenhou ids: for each
// kind the lowest id not yet used, where a plain 5 never takes the red id
// (16, 52, 88) and a red five always gets it. The error names the 0-based
// byte position of the offending character (digit without suit, unknown
// letter, a fifth copy of a kind, a second red five, 0z/8z/9z).
func ParseHand(s string) ([]wall.Tile, error) {
	return nil, errors.New("riichi: ParseHand not implemented")
}

// FormatHand writes tiles in the standard notation, sorted by kind with
// digits grouped per suit (m, p, s, z order) and red fives written as 0
// (placed where the 5 sorts). Invalid ids are written as "?<id>".
func FormatHand(tiles []wall.Tile) string {
	return ""
}
