package logshuffle

import (
	"errors"
	"fmt"

	"github.com/cloudflare/circl/group"
)

// Errors returned (wrapped) by Decode, Prove and Verify; test with
// errors.Is.
var (
	// ErrEncoding: the proof bytes have the wrong length or hold a
	// non-canonical element or scalar, or the identity.
	ErrEncoding = errors.New("logshuffle: malformed proof")
	// ErrStatement: the statement is malformed (decks of different or
	// unsupported lengths, unset elements, params for another length).
	ErrStatement = errors.New("logshuffle: malformed statement")
	// ErrInvalid: the proof does not verify for this statement and
	// context.
	ErrInvalid = errors.New("logshuffle: proof does not verify")
)

// Proof is a shuffle argument for decks of N elements with r = log2 n
// rounds per inner-product argument (see the package doc for the names).
type Proof struct {
	// Shuffle (Curdleproofs "Protocol", steps 1–3).
	m, a, t1, t2 group.Element
	// Grand product (Curdleproofs GrandProduct, step 2).
	c  group.Element
	rp group.Scalar
	// DL inner product of the grand product (Curdleproofs DLInner).
	bc, bd         group.Element
	lc, rc, ld, rd []group.Element // r each
	cf, df         []group.Scalar  // f each
	// Same scalar (Curdleproofs SameScalar, with K = k·G for com_U).
	a1, a2, ka group.Element
	zk, zt     group.Scalar
	// Same multiscalar (Curdleproofs SameMultiScalar).
	ba, bt         group.Element
	la, ra, lt, rt []group.Element // r each
	xf             []group.Scalar  // f
}

// value is one encoded 32-byte value of the layout: an element or a
// scalar.
type value struct {
	e *group.Element
	s *group.Scalar
}

// layout returns pointers to the proof's values in encoding order:
//
//	M ‖ A ‖ T_1 ‖ T_2 ‖ C ‖ r_p ‖ B_C ‖ B_D ‖ (L_C,j ‖ R_C,j ‖ L_D,j ‖ R_D,j) for j = 0..r−1 ‖
//	c_0..c_{f−1} ‖ d_0..d_{f−1} ‖ A_1 ‖ A_2 ‖ K_A ‖ z_k ‖ z_t ‖ B_A ‖ B_T ‖
//	(L_A,j ‖ R_A,j ‖ L_T,j ‖ R_T,j) for j = 0..r−1 ‖ x_0..x_{f−1}
//
// allocating the slices for r rounds and final length f if they are nil.
func (pr *Proof) layout(r, f int) []value {
	if pr.lc == nil {
		for _, s := range []*[]group.Element{&pr.lc, &pr.rc, &pr.ld, &pr.rd, &pr.la, &pr.ra, &pr.lt, &pr.rt} {
			*s = make([]group.Element, r)
		}
		pr.cf, pr.df, pr.xf = make([]group.Scalar, f), make([]group.Scalar, f), make([]group.Scalar, f)
	}
	el := func(e *group.Element) value { return value{e: e} }
	sc := func(s *group.Scalar) value { return value{s: s} }
	v := []value{el(&pr.m), el(&pr.a), el(&pr.t1), el(&pr.t2), el(&pr.c), sc(&pr.rp), el(&pr.bc), el(&pr.bd)}
	for j := range r {
		v = append(v, el(&pr.lc[j]), el(&pr.rc[j]), el(&pr.ld[j]), el(&pr.rd[j]))
	}
	for q := range f {
		v = append(v, sc(&pr.cf[q]))
	}
	for q := range f {
		v = append(v, sc(&pr.df[q]))
	}
	v = append(v, el(&pr.a1), el(&pr.a2), el(&pr.ka), sc(&pr.zk), sc(&pr.zt), el(&pr.ba), el(&pr.bt))
	for j := range r {
		v = append(v, el(&pr.la[j]), el(&pr.ra[j]), el(&pr.lt[j]), el(&pr.rt[j]))
	}
	for q := range f {
		v = append(v, sc(&pr.xf[q]))
	}
	return v
}

// Bytes returns the proof's encoding: Size(N) bytes, the values of the
// layout (see Proof.layout and the package doc) in order, elements in the
// canonical RFC 9496 §4.3.2 encoding, scalars 32-byte little-endian
// canonical.
func (pr *Proof) Bytes() []byte {
	vs := pr.layout(len(pr.lc), len(pr.cf))
	out := make([]byte, 0, size*len(vs))
	for _, v := range vs {
		var b []byte
		var err error
		if v.e != nil {
			b, err = (*v.e).MarshalBinary()
		} else {
			b, err = (*v.s).MarshalBinary()
		}
		if err != nil || len(b) != size {
			panic(fmt.Sprintf("logshuffle: encoding failed: %v", err)) // cannot happen with circl
		}
		out = append(out, b...)
	}
	return out
}

// Decode parses a proof for decks of N elements. It accepts exactly
// Size(N) bytes; every element must be a canonical RFC 9496 encoding
// other than the identity and every scalar canonical (< ℓ). Errors wrap
// ErrEncoding and name the value and its byte offset; ErrStatement for an
// N out of 1..MaxN.
func Decode(b []byte, bigN int) (*Proof, error) {
	if bigN < 1 || bigN > MaxN {
		return nil, fmt.Errorf("%w: N=%d", ErrStatement, bigN)
	}
	if len(b) != Size(bigN) {
		return nil, fmt.Errorf("%w: %d bytes, want %d for N=%d", ErrEncoding, len(b), Size(bigN), bigN)
	}
	pr := &Proof{}
	for i, v := range pr.layout(Rounds, VectorLength(bigN)>>Rounds) {
		chunk := b[i*size : (i+1)*size]
		if v.e != nil {
			e := g.NewElement()
			if err := e.UnmarshalBinary(chunk); err != nil {
				return nil, fmt.Errorf("%w: value %d at byte %d is not a canonical ristretto255 encoding", ErrEncoding, i, i*size)
			}
			if e.IsIdentity() {
				return nil, fmt.Errorf("%w: value %d at byte %d is the identity", ErrEncoding, i, i*size)
			}
			*v.e = e
			continue
		}
		s := g.NewScalar()
		if err := s.UnmarshalBinary(chunk); err != nil {
			return nil, fmt.Errorf("%w: value %d at byte %d is not a canonical scalar (≥ ℓ)", ErrEncoding, i, i*size)
		}
		*v.s = s
	}
	return pr, nil
}

// shaped reports whether pr is a complete proof with r rounds and final
// length f.
func (pr *Proof) shaped(r, f int) bool {
	if pr == nil || len(pr.lc) != r || len(pr.cf) != f {
		return false
	}
	for _, v := range pr.layout(r, f) {
		if (v.e != nil && *v.e == nil) || (v.s != nil && *v.s == nil) {
			return false
		}
	}
	return true
}
