package wall

// Reds is the set of tile ids a table plays as red fives (aka dora). A red
// five can only be one of the twelve five tiles, ids 16..19 (5m), 52..55
// (5p) and 88..91 (5s); the zero Reds plays none. The table's rules decide
// the set (riichi.Rules.Reds); TenhouReds is Tenhou's.
//
// Naming a tile through a Reds, rather than Tile.String, names a red five
// 0m/0p/0s only when the table plays it red: under no red fives id 16 is a
// plain 5m, and with four red fives the second red 5p, id 53, is 0p too.
type Reds uint16

// TenhouReds is Tenhou's three red fives, one per suit: ids 16, 52 and 88
// (the first id of each five), the fives Tile.String names 0m, 0p, 0s and
// an mjlog's GO type aka bit turns on.
var TenhouReds = RedsOf(RedMan, RedPin, RedSou)

// redBit returns the bit of t in a Reds, and false when t is not a five.
func redBit(t Tile) (Reds, bool) {
	var suit int
	switch t.Kind() {
	case 4:
		suit = 0
	case 13:
		suit = 1
	case 22:
		suit = 2
	default:
		return 0, false
	}
	if !t.Valid() {
		return 0, false
	}
	return 1 << (4*suit + int(t%4)), true
}

// RedsOf returns the set of the given tile ids; ids that are not fives
// (anything but 16..19, 52..55, 88..91) are left out, since no such tile
// can be a red five.
func RedsOf(ts ...Tile) Reds {
	var r Reds
	for _, t := range ts {
		if b, ok := redBit(t); ok {
			r |= b
		}
	}
	return r
}

// Has reports whether t is a red five in r.
func (r Reds) Has(t Tile) bool {
	b, ok := redBit(t)
	return ok && r&b != 0
}

// Len returns the number of red fives in r, 0..12.
func (r Reds) Len() int {
	n := 0
	for x := r; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// Tiles returns the ids in r in increasing order (empty, never nil, for
// none).
func (r Reds) Tiles() []Tile {
	out := []Tile{}
	for _, base := range []Tile{RedMan, RedPin, RedSou} {
		for t := base; t < base+4; t++ {
			if r.Has(t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// Name returns t's name in the standard notation at a table playing the
// red fives r: "0m", "0p" or "0s" for a red five of r, else the kind's
// name "1m".."9s", "1z".."7z" (a five not in r is "5m", "5p", "5s"); an
// invalid id prints as "?<id>", as Tile.String does.
func (r Reds) Name(t Tile) string {
	switch {
	case !t.Valid():
		return t.String()
	case r.Has(t):
		return "0" + string(t.Kind().Suit())
	}
	return t.Kind().String()
}
