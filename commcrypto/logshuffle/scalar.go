package logshuffle

import (
	"errors"
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/msm"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// Scalar arithmetic mod ℓ on circl scalars, each returning a new scalar.

func sAdd(a, b group.Scalar) group.Scalar { return g.NewScalar().Add(a, b) }
func sSub(a, b group.Scalar) group.Scalar { return g.NewScalar().Sub(a, b) }
func sMul(a, b group.Scalar) group.Scalar { return g.NewScalar().Mul(a, b) }
func sNeg(a group.Scalar) group.Scalar    { return g.NewScalar().Neg(a) }
func sInv(a group.Scalar) group.Scalar    { return g.NewScalar().Inv(a) }
func sUint(v uint64) group.Scalar         { return g.NewScalar().SetUint64(v) }

// inner returns Σ_i a_i·b_i over equal-length vectors.
func inner(a, b []group.Scalar) group.Scalar {
	s := g.NewScalar()
	for i := range a {
		s.Add(s, sMul(a[i], b[i]))
	}
	return s
}

// foldScalars returns v_lo + x·v_hi for v of even length m.
func foldScalars(v []group.Scalar, x group.Scalar) []group.Scalar {
	h := len(v) / 2
	out := make([]group.Scalar, h)
	for i := range h {
		out[i] = sAdd(v[i], sMul(x, v[i+h]))
	}
	return out
}

// sum is a multi-scalar multiplication under construction.
type sum struct {
	ss []group.Scalar
	ps []group.Element
}

func (s *sum) add(x group.Scalar, p group.Element) {
	s.ss = append(s.ss, x)
	s.ps = append(s.ps, p)
}

func (s *sum) eval() group.Element {
	e, err := msm.MultiScalarMult(s.ss, s.ps)
	if err != nil {
		panic(err) // equal lengths by construction
	}
	return e
}

// cross returns Σ v[j]·w[k]·bases[k] over the original indices k whose
// position q = k mod m in the current (length m) vector is in the upper
// half (onHi) or the lower half, with j = q − m/2 or q + m/2 the
// partner position, skipping nil bases (the identity); plus extra if
// non-nil. This is a cross term <v_lo, B_hi> or <v_hi, B_lo> of an
// inner-product round, computed on the original generators with their
// fold weights w instead of folded generators (see the package doc,
// "Prover").
func cross(bases []group.Element, w, v []group.Scalar, m int, onHi bool, extraS group.Scalar, extraP group.Element) group.Element {
	h := m / 2
	var s sum
	for k, b := range bases {
		if b == nil {
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
		s.add(sMul(v[j], w[k]), b)
	}
	if extraP != nil {
		s.add(extraS, extraP)
	}
	return s.eval()
}

// reweight multiplies w[k] by x for every k whose position k mod m is in
// the upper half.
func reweight(w []group.Scalar, m int, x group.Scalar) {
	for k := range w {
		if k%m >= m/2 {
			w[k] = sMul(w[k], x)
		}
	}
}

// points returns copies of the elements as circl group elements, or
// ErrStatement for an unset one.
func points(es []commcrypto.Element) ([]group.Element, error) {
	out := make([]group.Element, len(es))
	for i, e := range es {
		if e.IsZero() {
			return nil, fmt.Errorf("%w: element %d unset", ErrStatement, i)
		}
		out[i] = e.Point()
	}
	return out, nil
}

// nonces returns count uniform scalars mod ℓ, each the RFC 9497 §4.1
// HashToScalar of 64 bytes from rand (DST Domain + "/nonce"), read at
// once and cleared afterwards.
func nonces(rand io.Reader, count int) ([]group.Scalar, error) {
	if rand == nil {
		return nil, errors.New("logshuffle: nil random source")
	}
	dst := []byte(Domain + "/nonce")
	buf := make([]byte, 64*count)
	defer clear(buf)
	if _, err := io.ReadFull(rand, buf); err != nil {
		return nil, fmt.Errorf("logshuffle: random source: %w", err)
	}
	out := make([]group.Scalar, count)
	commcrypto.Parallel(count, func(i int) { out[i] = g.HashToScalar(buf[64*i:64*(i+1)], dst) })
	return out, nil
}

// start opens the transcript of a proof: the context, N, the input and
// output decks and K (SPEC.md §12).
func start(ctx transcript.Context, in, out []commcrypto.Element, K commcrypto.Element) *transcript.Transcript {
	t := transcript.New(Domain, ctx)
	t.AppendUint("n", uint64(len(in)))
	t.Append("input", commcrypto.EncodeElements(in))
	t.Append("output", commcrypto.EncodeElements(out))
	t.Append("key", K.Bytes())
	return t
}

// invertible returns x⁻¹, or ErrInvalid for a zero challenge (probability
// 2^−252 per challenge).
func invertible(x group.Scalar, what string) (group.Scalar, error) {
	if x.IsZero() {
		return nil, fmt.Errorf("%w: challenge %s is zero", ErrInvalid, what)
	}
	return sInv(x), nil
}
