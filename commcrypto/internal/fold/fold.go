// Package fold holds the arithmetic shared by the halving
// ("folding") recursions of the logarithmic-size arguments
// commcrypto/logshuffle and commcrypto/logrekey: the inner-product
// recursion of Bootle et al. (EUROCRYPT 2016, §3) and Bulletproofs (Bünz
// et al., IEEE S&P 2018, §3), in which a vector of length m is split into
// its lower and upper halves, the prover sends the cross terms
// L = <v_lo, B_hi>, R = <v_hi, B_lo>, and both sides fold
// v ← v_lo + x⁻¹·v_hi, B ← B_lo + x·B_hi for a challenge x.
//
// Neither side computes a folded base: generator k of the original bases
// lies in the upper half of the round-j vector iff bit r−1−j of k/f is
// set (f the final length), so the final folded generator q is
// Σ_{k mod f = q} S_{k/f}·B_k with the weights of Weights (Bulletproofs
// §3.1), and a prover's cross term is one multi-scalar multiplication over
// the original generators weighted so far (Cross).
//
// Everything here is scalar arithmetic mod ℓ on circl's ristretto255
// scalars and calls of commcrypto/msm; no curve arithmetic.
package fold

import (
	"errors"
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/msm"
)

var g = group.Ristretto255

// Add, Sub, Mul, Neg, Inv and Uint return new scalars mod ℓ.
func Add(a, b group.Scalar) group.Scalar { return g.NewScalar().Add(a, b) }

// Sub returns a − b.
func Sub(a, b group.Scalar) group.Scalar { return g.NewScalar().Sub(a, b) }

// Mul returns a·b.
func Mul(a, b group.Scalar) group.Scalar { return g.NewScalar().Mul(a, b) }

// Neg returns −a.
func Neg(a group.Scalar) group.Scalar { return g.NewScalar().Neg(a) }

// Inv returns a⁻¹ (0 for 0).
func Inv(a group.Scalar) group.Scalar { return g.NewScalar().Inv(a) }

// Uint returns v mod ℓ.
func Uint(v uint64) group.Scalar { return g.NewScalar().SetUint64(v) }

// Inner returns Σ_i a_i·b_i over equal-length vectors.
func Inner(a, b []group.Scalar) group.Scalar {
	s := g.NewScalar()
	for i := range a {
		s.Add(s, Mul(a[i], b[i]))
	}
	return s
}

// Halve returns v_lo + x·v_hi for v of even length.
func Halve(v []group.Scalar, x group.Scalar) []group.Scalar {
	h := len(v) / 2
	out := make([]group.Scalar, h)
	for i := range h {
		out[i] = Add(v[i], Mul(x, v[i+h]))
	}
	return out
}

// Sum is a multi-scalar multiplication under construction.
type Sum struct {
	ss []group.Scalar
	ps []group.Element
}

// Add appends the term x·p.
func (s *Sum) Add(x group.Scalar, p group.Element) {
	s.ss = append(s.ss, x)
	s.ps = append(s.ps, p)
}

// Eval returns Σ x·p over the terms (commcrypto/msm, variable-time in the
// scalars).
func (s *Sum) Eval() group.Element {
	e, err := msm.MultiScalarMult(s.ss, s.ps)
	if err != nil {
		panic(err) // equal lengths by construction
	}
	return e
}

// CrossTerms returns the terms of a cross term over n original
// generators as indices and scalars: for every k < n with present(k)
// (all k if present is nil) whose position q = k mod m lies in the upper
// half (onHi) or the lower half, the index k and the scalar v[j]·w[k],
// j = q − m/2 or q + m/2 the partner position. Cross evaluates them on
// explicit bases; a prover with a precomputed table (msm.Table) of its
// fixed generators evaluates them there.
func CrossTerms(n int, present func(k int) bool, w, v []group.Scalar, m int, onHi bool) ([]int, []group.Scalar) {
	h := m / 2
	ks := make([]int, 0, n/2+1)
	ss := make([]group.Scalar, 0, n/2+1)
	for k := range n {
		if present != nil && !present(k) {
			continue
		}
		q := k % m
		if (q >= h) != onHi {
			continue
		}
		j := q + h
		if onHi {
			j = q - h
		}
		ks = append(ks, k)
		ss = append(ss, Mul(v[j], w[k]))
	}
	return ks, ss
}

// Cross returns Σ v[j]·w[k]·bases[k] (plus extraS·extraP if extraP is
// non-nil) over the original indices k whose position q = k mod m in the
// current vector of length m lies in the upper half (onHi) or the lower
// half, j = q − m/2 or q + m/2 the partner position; nil bases (the
// identity) are skipped. With w the fold weights so far this is the cross
// term <v_lo, B_hi> (onHi) or <v_hi, B_lo> of the round.
func Cross(bases []group.Element, w, v []group.Scalar, m int, onHi bool, extraS group.Scalar, extraP group.Element) group.Element {
	ks, ss := CrossTerms(len(bases), func(k int) bool { return bases[k] != nil }, w, v, m, onHi)
	var s Sum
	for i, k := range ks {
		s.Add(ss[i], bases[k])
	}
	if extraP != nil {
		s.Add(extraS, extraP)
	}
	return s.Eval()
}

// Reweight multiplies w[k] by x for every k whose position k mod m lies
// in the upper half: the fold B ← B_lo + x·B_hi of the bases, kept as
// weights on the original generators.
func Reweight(w []group.Scalar, m int, x group.Scalar) {
	for k := range w {
		if k%m >= m/2 {
			w[k] = Mul(w[k], x)
		}
	}
}

// Ones returns n scalars equal to 1.
func Ones(n int) []group.Scalar {
	out := make([]group.Scalar, n)
	for i := range out {
		out[i] = Uint(1)
	}
	return out
}

// Weights returns, for the challenges x_0..x_{r−1} of r rounds, the 2^r
// weights S_u = Π_j x_j^(bit r−1−j of u): original generator k = q + f·u
// (q < f) enters the final folded generator q with weight S_u, since
// round j (current length m = f·2^(r−j)) takes the upper half,
// k mod m ≥ m/2, which is bit r−1−j of u.
func Weights(x []group.Scalar) []group.Scalar {
	s := []group.Scalar{Uint(1)}
	for _, xj := range x {
		next := make([]group.Scalar, 2*len(s))
		for i, v := range s {
			next[2*i] = v
			next[2*i+1] = Mul(v, xj)
		}
		s = next
	}
	return s
}

// Nonces returns count uniform scalars mod ℓ, each the RFC 9497 §4.1
// HashToScalar of 64 bytes from rand with DST dst, read at once and
// cleared afterwards; the reductions are spread over the cores.
func Nonces(rand io.Reader, count int, dst string) ([]group.Scalar, error) {
	if rand == nil {
		return nil, errors.New("nil random source")
	}
	buf := make([]byte, 64*count)
	defer clear(buf)
	if _, err := io.ReadFull(rand, buf); err != nil {
		return nil, fmt.Errorf("random source: %w", err)
	}
	out := make([]group.Scalar, count)
	commcrypto.Parallel(count, func(i int) { out[i] = g.HashToScalar(buf[64*i:64*(i+1)], []byte(dst)) })
	return out, nil
}

// Encode returns the canonical RFC 9496 encodings of es, concatenated.
func Encode(es ...group.Element) []byte {
	out := make([]byte, 0, 32*len(es))
	for _, e := range es {
		b, err := e.MarshalBinary()
		if err != nil || len(b) != 32 {
			panic(fmt.Sprintf("fold: ristretto255 encoding failed: %v", err)) // cannot happen with circl
		}
		out = append(out, b...)
	}
	return out
}

// EncodeScalars returns the canonical 32-byte encodings of ss,
// concatenated.
func EncodeScalars(ss ...group.Scalar) []byte {
	out := make([]byte, 0, 32*len(ss))
	for _, s := range ss {
		b, err := s.MarshalBinary()
		if err != nil || len(b) != 32 {
			panic(fmt.Sprintf("fold: scalar encoding failed: %v", err)) // cannot happen with circl
		}
		out = append(out, b...)
	}
	return out
}

// Points returns copies of the elements as circl group elements; ok is
// false (with the index) for an unset one.
func Points(es []commcrypto.Element) ([]group.Element, int, bool) {
	out := make([]group.Element, len(es))
	for i, e := range es {
		if e.IsZero() {
			return nil, i, false
		}
		out[i] = e.Point()
	}
	return out, 0, true
}
