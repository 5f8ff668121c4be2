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

// Set is one concealed set of a decomposition: a sequence First, First+1,
// First+2 (Shuntsu), or three of First (Koutsu).
type Set struct {
	Type  SetType
	First wall.Kind
}

// Has reports whether the set contains kind k.
func (s Set) Has(k wall.Kind) bool {
	if s.Type == Koutsu {
		return k == s.First
	}
	return k >= s.First && k <= s.First+2
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
	// Pair is the pair's kind (Standard; for Kokushi the doubled kind), or
	// -1 for Chiitoitsu.
	Pair wall.Kind
	// Sets are the concealed sets in order of First, triplets before
	// sequences of the same First (Standard only; declared melds are not
	// included).
	Sets []Set
	// Pairs are the seven pair kinds in kind order (Chiitoitsu only).
	Pairs []wall.Kind
}

// Decompositions returns every distinct decomposition of the concealed part
// c (14-3*melds tiles) of a hand with melds declared melds (0..4): all
// Standard readings in order of pair kind, then the Chiitoitsu reading
// (seven distinct pairs, melds == 0) and the Kokushi reading (melds == 0).
// It returns nil when c is not complete or the sizes do not match.
func Decompositions(c Counts, melds int) []Decomposition {
	if melds < 0 || melds > 4 || c.Total() != 14-3*melds {
		return nil
	}
	for _, v := range c {
		if v < 0 || v > 4 {
			return nil
		}
	}
	var out []Decomposition
	sets := make([]Set, 0, 4)
	for p := wall.Kind(0); p < wall.NumKinds; p++ {
		if c[p] < 2 {
			continue
		}
		c[p] -= 2
		decomposeSets(&c, 0, -1, sets, func(s []Set) {
			out = append(out, Decomposition{Form: Standard, Pair: p, Sets: append([]Set(nil), s...)})
		})
		c[p] += 2
	}
	if melds == 0 {
		if ShantenChiitoi(&c) == -1 {
			d := Decomposition{Form: Chiitoitsu, Pair: -1}
			for k := wall.Kind(0); k < wall.NumKinds; k++ {
				if c[k] == 2 {
					d.Pairs = append(d.Pairs, k)
				}
			}
			out = append(out, d)
		}
		if ShantenKokushi(&c) == -1 {
			d := Decomposition{Form: Kokushi, Pair: -1}
			for _, k := range yaochuu {
				if c[k] == 2 {
					d.Pair = k
				}
			}
			out = append(out, d)
		}
	}
	return out
}

// decomposeSets splits c (from kind `from` on; lower kinds are empty) into
// sets entirely, calling emit for each way; c is restored on return. Sets
// are taken in order of First, a triplet before the sequences of the same
// First: noTriplet is the kind whose triplet may no longer be taken
// because a sequence starting there already was (-1 none), so that four of
// a kind read as a triplet and a sequence is emitted once.
func decomposeSets(c *Counts, from, noTriplet wall.Kind, sets []Set, emit func([]Set)) {
	i := from
	for i < wall.NumKinds && c[i] == 0 {
		i++
	}
	if i == wall.NumKinds {
		emit(sets)
		return
	}
	if c[i] >= 3 && i != noTriplet {
		c[i] -= 3
		decomposeSets(c, i, -1, append(sets, Set{Type: Koutsu, First: i}), emit)
		c[i] += 3
	}
	if !i.IsHonor() && i.Number() <= 7 && c[i+1] > 0 && c[i+2] > 0 {
		c[i]--
		c[i+1]--
		c[i+2]--
		decomposeSets(c, i, i, append(sets, Set{Type: Shuntsu, First: i}), emit)
		c[i]++
		c[i+1]++
		c[i+2]++
	}
}
