package riichi

import "github.com/mentalmj/mentalmj/wall"

// SetType distinguishes the two kinds of complete set in a decomposition.
type SetType int

// The set types of a decomposition.
const (
	// Shuntsu is a sequence of three consecutive kinds of one suit.
	Shuntsu SetType = iota
	// Koutsu is a triplet (three of one kind).
	Koutsu
)

// Set is one set of a decomposition: a sequence starting at First, or a
// triplet of First.
type Set struct {
	Type  SetType
	First wall.Kind
}

// Form is the shape of a complete hand.
type Form int

// The three complete forms.
const (
	// Standard is four sets and a pair (sets include declared melds).
	Standard Form = iota
	// Chiitoitsu is seven distinct pairs.
	Chiitoitsu
	// Kokushi is kokushi musou (thirteen orphans).
	Kokushi
)

// Decomposition is one way of reading a complete concealed part.
type Decomposition struct {
	// Form is the hand shape.
	Form Form
	// Pair is the pair's kind (Standard), or -1.
	Pair wall.Kind
	// Sets are the concealed sets in kind order (Standard only; declared
	// melds are not included).
	Sets []Set
	// Pairs are the seven pair kinds (Chiitoitsu only), in kind order.
	Pairs []wall.Kind
}

// Decompositions returns every distinct decomposition of the concealed part
// c (14-3*melds tiles) of a hand with melds declared melds: all
// Standard readings, plus the Chiitoitsu and Kokushi readings when
// melds == 0 and they apply. It returns nil when c is not complete.
func Decompositions(c Counts, melds int) []Decomposition { return nil }
