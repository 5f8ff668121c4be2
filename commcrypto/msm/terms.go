package msm

import (
	"github.com/cloudflare/circl/group"
)

// Terms is a linear combination Σ s_i·P_i of ristretto255 elements built
// term by term and evaluated with one MultiScalarMult: the sum a batch
// verifier checks against the identity (Bellare, Garay and Rabin, "Fast
// batch verification for modular exponentiation and digital signatures",
// EUROCRYPT 1998: each proof's equation times a random weight, all
// summed).
//
// A term added with a key — the point's canonical 32-byte encoding
// (RFC 9496 §4.3.2) — is merged with every other term of the same key,
// their scalars summed, so that a point the batched statements share (one
// pass's output deck is the next pass's input) costs one term of the
// multi-scalar multiplication, not one per statement. The all-zero key
// (the identity's encoding, which no keyed statement element is) marks a
// term that is never merged.
//
// The zero value is an empty combination, ready to use. Terms is not safe
// for concurrent use; it does not modify the scalars or points given to it
// (it copies what it changes).
type Terms struct {
	ss   []group.Scalar
	ps   []group.Element
	keys [][32]byte
	at   map[[32]byte]int // key → index of its term
}

// Add appends the term s·p, never merged with another.
func (t *Terms) Add(s group.Scalar, p group.Element) {
	t.AddKeyed([32]byte{}, s, p)
}

// AddKeyed adds the term s·p where key is p's canonical encoding: when a
// term of the same key is present, s is added to its scalar instead. The
// all-zero key adds an unmerged term (Add).
func (t *Terms) AddKeyed(key [32]byte, s group.Scalar, p group.Element) {
	if key != ([32]byte{}) {
		if i, ok := t.at[key]; ok {
			t.ss[i] = g.NewScalar().Add(t.ss[i], s)
			return
		}
		if t.at == nil {
			t.at = map[[32]byte]int{}
		}
		t.at[key] = len(t.ss)
	}
	t.ss = append(t.ss, s)
	t.ps = append(t.ps, p)
	t.keys = append(t.keys, key)
}

// AddScaled adds w·o term by term (o's keyed terms merging with t's of
// the same key); o is not modified.
func (t *Terms) AddScaled(w group.Scalar, o *Terms) {
	for i := range o.ss {
		t.AddKeyed(o.keys[i], g.NewScalar().Mul(w, o.ss[i]), o.ps[i])
	}
}

// Merge adds o's terms to t (o's keyed terms merging with t's of the
// same key); o is not modified.
func (t *Terms) Merge(o *Terms) {
	for i := range o.ss {
		t.AddKeyed(o.keys[i], o.ss[i], o.ps[i])
	}
}

// Len returns the number of terms: the points of the multi-scalar
// multiplication Sum computes.
func (t *Terms) Len() int { return len(t.ss) }

// Sum returns Σ s_i·P_i over the terms, a new element (the identity for
// none), with one MultiScalarMult: variable-time in the scalars, so for
// public scalars only (proof verification).
func (t *Terms) Sum() group.Element {
	e, err := MultiScalarMult(t.ss, t.ps)
	if err != nil {
		panic(err) // equal lengths by construction
	}
	return e
}
