package mjai

import (
	"fmt"

	"github.com/mentalmj/mentalmj/wall"
)

// Hidden is the mjai name of a tile the reader may not see.
const Hidden = "?"

var honorNames = [7]string{"E", "S", "W", "N", "P", "F", "C"}

// redNames are the mjai names of the red fives by suit.
var redNames = [3]string{"5mr", "5pr", "5sr"}

// kindNames[k] is the mjai name of kind k.
var kindNames = func() [wall.NumKinds]string {
	var out [wall.NumKinds]string
	for k := range wall.Kind(wall.NumKinds) {
		out[k] = KindName(k)
	}
	return out
}()

// KindName returns the mjai name of a kind: "1m"…"9s", "E"…"C"; "?" for
// an invalid kind.
func KindName(k wall.Kind) string {
	switch {
	case !k.Valid():
		return Hidden
	case k.IsHonor():
		return honorNames[k-27]
	}
	return fmt.Sprintf("%d%c", k.Number(), k.Suit())
}

// Tile returns the mjai name of tile id t at a table playing the red
// fives reds (riichi.Rules.Reds; wall.TenhouReds for a Tenhou log with
// the aka bit): "5mr", "5pr", "5sr" for a red five of reds, else its
// kind's name, so that under no red fives id 52 is "5p" and with four
// red fives id 53 is "5pr" too; "?" for an invalid id (game.Unknown).
func Tile(t wall.Tile, reds wall.Reds) string {
	switch {
	case !t.Valid():
		return Hidden
	case reds.Has(t):
		return redNames[t.Kind()/9] // a five: 5m, 5p or 5s
	}
	return kindNames[t.Kind()]
}

// ParseTile reads an mjai tile name: it returns the kind and whether it is
// a red five. It returns an error for "?" and anything else that is not a
// tile name.
func ParseTile(s string) (wall.Kind, bool, error) {
	for i, h := range honorNames {
		if s == h {
			return wall.Kind(27 + i), false, nil
		}
	}
	red := false
	if len(s) == 3 && s[2] == 'r' && s[0] == '5' {
		red, s = true, s[:2]
	}
	if len(s) != 2 || s[0] < '1' || s[0] > '9' {
		return 0, false, fmt.Errorf("mjai: tile %q: not a tile name", s)
	}
	suit := map[byte]int{'m': 0, 'p': 1, 's': 2}
	n, ok := suit[s[1]]
	if !ok {
		return 0, false, fmt.Errorf("mjai: tile %q: not a tile name", s)
	}
	return wall.Kind(9*n + int(s[0]-'1')), red, nil
}
