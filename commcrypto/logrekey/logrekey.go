package logrekey

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/internal/fold"
	"github.com/mentalmj/mentalmj/commcrypto/msm"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// Domain is the transcript domain and the prefix of every
// domain-separation tag of this argument.
const Domain = "mentalmj/v1/logrekey"

// MaxN bounds the number of positions a proof may claim.
const MaxN = 1024

// MaxRounds caps the halving rounds.
const MaxRounds = 4

const size = 32

var g = group.Ristretto255

// Errors returned (wrapped) by Decode, Prove and Verify; test with
// errors.Is.
var (
	// ErrEncoding: wrong length, a non-canonical element or scalar, or
	// the identity.
	ErrEncoding = errors.New("logrekey: malformed proof")
	// ErrStatement: mismatched lengths, unset values, N out of range.
	ErrStatement = errors.New("logrekey: malformed statement")
	// ErrInvalid: the proof does not verify for this statement and
	// context.
	ErrInvalid = errors.New("logrekey: proof does not verify")
)

// Shape returns the number of rounds r (the trailing zero bits of N, at
// most MaxRounds) and the final length f = N/2^r for N positions.
func Shape(bigN int) (r, f int) {
	f = bigN
	for r < MaxRounds && f%2 == 0 && f > 0 {
		f /= 2
		r++
	}
	return r, f
}

// Size returns the encoded length in bytes of a proof for N positions:
// 32·(1 + 2r + f) with (r, f) = Shape(N); 768 for N = 136, 1 024 for
// N = 108.
func Size(bigN int) int {
	r, f := Shape(bigN)
	return size * (1 + 2*r + f)
}

// Proof is the argument for N positions: B, the cross terms L_j, R_j of
// r rounds and the f final scalars x.
type Proof struct {
	b    group.Element
	l, r []group.Element
	x    []group.Scalar
}

// Bytes returns the encoding B ‖ (L_j ‖ R_j)_{j<r} ‖ x_0..x_{f−1}:
// canonical RFC 9496 elements, 32-byte little-endian canonical scalars.
func (pr *Proof) Bytes() []byte {
	es := []group.Element{pr.b}
	for j := range pr.l {
		es = append(es, pr.l[j], pr.r[j])
	}
	return append(fold.Encode(es...), fold.EncodeScalars(pr.x...)...)
}

// Decode parses a proof for N positions (1 ≤ N ≤ MaxN) strictly: exactly
// Size(N) bytes, canonical elements other than the identity, canonical
// scalars. Errors wrap ErrEncoding (naming the value and its byte
// offset) or ErrStatement.
func Decode(b []byte, bigN int) (*Proof, error) {
	if bigN < 1 || bigN > MaxN {
		return nil, fmt.Errorf("%w: N=%d", ErrStatement, bigN)
	}
	if len(b) != Size(bigN) {
		return nil, fmt.Errorf("%w: %d bytes, want %d for N=%d", ErrEncoding, len(b), Size(bigN), bigN)
	}
	r, f := Shape(bigN)
	es := make([]group.Element, 1+2*r)
	for i := range es {
		e := g.NewElement()
		if err := e.UnmarshalBinary(b[i*size : (i+1)*size]); err != nil {
			return nil, fmt.Errorf("%w: value %d at byte %d is not a canonical ristretto255 encoding", ErrEncoding, i, i*size)
		}
		if e.IsIdentity() {
			return nil, fmt.Errorf("%w: value %d at byte %d is the identity", ErrEncoding, i, i*size)
		}
		es[i] = e
	}
	pr := &Proof{b: es[0], l: make([]group.Element, r), r: make([]group.Element, r), x: make([]group.Scalar, f)}
	for j := range r {
		pr.l[j], pr.r[j] = es[1+2*j], es[2+2*j]
	}
	for q := range f {
		i := len(es) + q
		s := g.NewScalar()
		if err := s.UnmarshalBinary(b[i*size : (i+1)*size]); err != nil {
			return nil, fmt.Errorf("%w: value %d at byte %d is not a canonical scalar (≥ ℓ)", ErrEncoding, i, i*size)
		}
		pr.x[q] = s
	}
	return pr, nil
}

// statement is a decoded statement with its batching weights.
type statement struct {
	K        group.Element
	C, Cp, R []group.Element
	// in, out, commits and key are the statement as given: their
	// canonical encodings key the terms a batch merges (msm.Terms).
	in, out, commits []commcrypto.Element
	key              commcrypto.Element
	rho, rhoP        []group.Scalar
	t                *transcript.Transcript
	bigN, rounds, f  int
}

// open checks the statement's shape, decodes it and starts the
// transcript (SPEC.md §13.1) up to the weights ρ, ρ'.
func open(ctx transcript.Context, K commcrypto.Element, in, out, commits []commcrypto.Element) (*statement, error) {
	bigN := len(in)
	if bigN < 1 || bigN > MaxN || len(out) != bigN || len(commits) != bigN || K.IsZero() {
		return nil, fmt.Errorf("%w: %d inputs, %d outputs, %d commitments", ErrStatement, len(in), len(out), len(commits))
	}
	st := &statement{bigN: bigN, K: K.Point(), in: in, out: out, commits: commits, key: K}
	st.rounds, st.f = Shape(bigN)
	var i int
	var ok bool
	for _, v := range []struct {
		dst *[]group.Element
		es  []commcrypto.Element
	}{{&st.C, in}, {&st.Cp, out}, {&st.R, commits}} {
		if *v.dst, i, ok = fold.Points(v.es); !ok {
			return nil, fmt.Errorf("%w: element %d unset", ErrStatement, i)
		}
	}
	t := transcript.New(Domain, ctx)
	t.AppendUint("n", uint64(bigN))
	t.Append("key", K.Bytes())
	t.Append("input", commcrypto.EncodeElements(in))
	t.Append("output", commcrypto.EncodeElements(out))
	t.Append("commitments", commcrypto.EncodeElements(commits))
	w := t.Challenges("rho", 2*bigN)
	st.rho, st.rhoP, st.t = w[:bigN], w[bigN:], t
	return st, nil
}

// Prove returns the argument that out[i] = s[i]·in[i] and
// commits[i] = s[i]·K for every i. rand supplies N nonces (64 bytes
// each). Prove does not check the statement: wrong values yield a proof
// that Verify rejects. Errors: ErrStatement for mismatched lengths or
// unset values, a wrapped read error from rand, ErrInvalid for a zero
// challenge (probability 2^−252).
func Prove(ctx transcript.Context, K commcrypto.Element, in, out, commits []commcrypto.Element, s []commcrypto.Scalar, rnd io.Reader) (*Proof, error) {
	st, err := open(ctx, K, in, out, commits)
	if err != nil {
		return nil, err
	}
	if len(s) != st.bigN {
		return nil, fmt.Errorf("%w: %d factors for %d positions", ErrStatement, len(s), st.bigN)
	}
	x := make([]group.Scalar, st.bigN)
	for i, si := range s {
		if si.IsZero() {
			return nil, fmt.Errorf("%w: factor %d unset or zero", ErrStatement, i)
		}
		x[i] = si.GroupScalar()
	}
	return prove(st, x, rnd)
}

// prove is Prove's argument for the witness x (N scalars, modified in
// place) on the opened statement st.
func prove(st *statement, x []group.Scalar, rnd io.Reader) (*Proof, error) {
	r, err := fold.Nonces(rnd, st.bigN, Domain+"/nonce")
	if err != nil {
		return nil, fmt.Errorf("logrekey: %w", err)
	}
	// B = <r, U> with U_i = ρ_i·C_i + ρ'_i·K.
	var sb fold.Sum
	for i := range st.bigN {
		sb.Add(fold.Mul(r[i], st.rho[i]), st.C[i])
	}
	sb.Add(fold.Inner(r, st.rhoP), st.K)
	pr := &Proof{b: sb.Eval(), l: make([]group.Element, st.rounds), r: make([]group.Element, st.rounds)}
	t := st.t
	t.Append("blind", fold.Encode(pr.b))
	mu := t.Challenge("mu")
	for i := range x {
		x[i] = fold.Add(r[i], fold.Mul(mu, x[i]))
	}
	// Rounds on the original bases: weights wC_k = w_k·ρ_k on C_k and
	// the K part Σ_k v_j·w_k·ρ'_k.
	w := fold.Ones(st.bigN)
	for j, m := 0, st.bigN; j < st.rounds; j, m = j+1, m/2 {
		h := m / 2
		kPart := func(onHi bool) group.Scalar {
			acc := g.NewScalar()
			for k := range st.bigN {
				q := k % m
				if (q >= h) != onHi {
					continue
				}
				p := q + h
				if onHi {
					p = q - h
				}
				acc.Add(acc, fold.Mul(x[p], fold.Mul(w[k], st.rhoP[k])))
			}
			return acc
		}
		wc := make([]group.Scalar, st.bigN)
		for k := range wc {
			wc[k] = fold.Mul(w[k], st.rho[k])
		}
		parts := make([]group.Element, 2)
		commcrypto.Parallel(2, func(i int) {
			parts[i] = fold.Cross(st.C, wc, x, m, i == 0, kPart(i == 0), st.K)
		})
		pr.l[j], pr.r[j] = parts[0], parts[1]
		t.Append("round", fold.Encode(parts...))
		delta := t.Challenge("delta")
		if delta.IsZero() {
			return nil, fmt.Errorf("%w: zero challenge", ErrInvalid)
		}
		x = fold.Halve(x[:m], fold.Inv(delta))
		fold.Reweight(w, m, delta)
	}
	pr.x = x
	if pr.b.IsIdentity() {
		return nil, fmt.Errorf("%w: B is the identity (probability 2^−252)", ErrInvalid)
	}
	return pr, nil
}

// combination returns the scalars and points whose sum is the identity
// iff the proof verifies (SPEC.md §13.1), with each point's key for a
// batch (msm.Terms: the statement's elements keyed by their encodings,
// the proof's by zero):
//
//	B + μ·P + Σ_j (δ_j·L_j + δ_j⁻¹·R_j) − Σ_k x_{k mod f}·t_k·U_k
func combination(st *statement, pr *Proof) ([]group.Scalar, []group.Element, [][32]byte, error) {
	if pr == nil || len(pr.l) != st.rounds || len(pr.r) != st.rounds || len(pr.x) != st.f || pr.b == nil {
		return nil, nil, nil, fmt.Errorf("%w: proof of another shape", ErrStatement)
	}
	t := st.t
	t.Append("blind", fold.Encode(pr.b))
	mu := t.Challenge("mu")
	del, delInv := make([]group.Scalar, st.rounds), make([]group.Scalar, st.rounds)
	for j := range st.rounds {
		if pr.l[j] == nil || pr.r[j] == nil {
			return nil, nil, nil, fmt.Errorf("%w: proof of another shape", ErrStatement)
		}
		t.Append("round", fold.Encode(pr.l[j], pr.r[j]))
		del[j] = t.Challenge("delta")
		if del[j].IsZero() {
			return nil, nil, nil, fmt.Errorf("%w: zero challenge", ErrInvalid)
		}
		delInv[j] = fold.Inv(del[j])
	}
	tw := fold.Weights(del)
	n := st.bigN
	ss := make([]group.Scalar, 0, 3*n+2*st.rounds+2)
	ps := make([]group.Element, 0, cap(ss))
	keys := make([][32]byte, 0, cap(ss))
	addKeyed := func(key [32]byte, s group.Scalar, e group.Element) {
		ss = append(ss, s)
		ps = append(ps, e)
		keys = append(keys, key)
	}
	add := func(s group.Scalar, e group.Element) { addKeyed([32]byte{}, s, e) }
	add(fold.Uint(1), pr.b)
	for j := range st.rounds {
		add(del[j], pr.l[j])
		add(delInv[j], pr.r[j])
	}
	kc := g.NewScalar()
	for k := range n {
		xt := fold.Mul(pr.x[k%st.f], tw[k/st.f])
		addKeyed(st.out[k].Key(), fold.Mul(mu, st.rho[k]), st.Cp[k])
		addKeyed(st.commits[k].Key(), fold.Mul(mu, st.rhoP[k]), st.R[k])
		addKeyed(st.in[k].Key(), fold.Neg(fold.Mul(xt, st.rho[k])), st.C[k])
		kc.Add(kc, fold.Mul(xt, st.rhoP[k]))
	}
	addKeyed(st.key.Key(), fold.Neg(kc), st.K)
	return ss, ps, keys, nil
}

// Verify checks the proof that out[i] = s_i·in[i] and
// commits[i] = s_i·K for every i, for the context ctx: one multi-scalar
// multiplication of 3N + 2r + 2 points. It returns nil or an error
// wrapping ErrStatement or ErrInvalid.
func Verify(ctx transcript.Context, K commcrypto.Element, in, out, commits []commcrypto.Element, pr *Proof) error {
	st, err := open(ctx, K, in, out, commits)
	if err != nil {
		return err
	}
	ss, ps, _, err := combination(st, pr)
	if err != nil {
		return err
	}
	e, err := msm.MultiScalarMult(ss, ps)
	if err != nil || !e.IsIdentity() {
		return fmt.Errorf("%w", ErrInvalid)
	}
	return nil
}

// Batch verifies several proofs with one multi-scalar multiplication,
// each proof's combination multiplied by an independent random weight of
// the verifier (Bellare, Garay, Rabin, EUROCRYPT 1998), the statements'
// shared elements merged (msm.Terms: a pass's output wall is the next
// pass's input); when the sum fails, Failed checks each proof alone so
// that exactly the false ones are named.
type Batch struct {
	rand  io.Reader
	terms msm.Terms
	own   []proofTerms // each proof's unweighted combination
}

type proofTerms struct {
	ss []group.Scalar
	ps []group.Element
}

// NewBatch returns an empty batch; rand supplies the weights
// (crypto/rand.Reader if nil).
func NewBatch(rnd io.Reader) *Batch {
	if rnd == nil {
		rnd = rand.Reader
	}
	return &Batch{rand: rnd}
}

// Add adds a proof and returns its index; a malformed statement or proof
// shape (ErrStatement) or a zero challenge (ErrInvalid) is returned at
// once and nothing is added.
func (b *Batch) Add(ctx transcript.Context, K commcrypto.Element, in, out, commits []commcrypto.Element, pr *Proof) (int, error) {
	st, err := open(ctx, K, in, out, commits)
	if err != nil {
		return -1, err
	}
	ss, ps, keys, err := combination(st, pr)
	if err != nil {
		return -1, err
	}
	w, err := fold.Nonces(b.rand, 1, Domain+"/batch")
	if err != nil {
		return -1, fmt.Errorf("logrekey: %w", err)
	}
	for i := range ss {
		b.terms.AddKeyed(keys[i], fold.Mul(ss[i], w[0]), ps[i])
	}
	b.own = append(b.own, proofTerms{ss, ps})
	return len(b.own) - 1, nil
}

// Len returns the number of proofs added.
func (b *Batch) Len() int { return len(b.own) }

// AddTo adds the batch's weighted sum to t, so that the proofs of
// several arguments are checked with one multi-scalar multiplication:
// all the batch's proofs verify (up to the soundness error) iff the sum
// of everything added to t is the identity. It does not change the
// batch.
func (b *Batch) AddTo(t *msm.Terms) { t.Merge(&b.terms) }

// Failed returns the indices of the proofs that do not verify (nil when
// the batch holds, after one multi-scalar multiplication).
func (b *Batch) Failed() []int {
	if len(b.own) == 0 || b.terms.Sum().IsIdentity() {
		return nil
	}
	var bad []int
	for i, o := range b.own {
		e, err := msm.MultiScalarMult(o.ss, o.ps)
		if err != nil || !e.IsIdentity() {
			bad = append(bad, i)
		}
	}
	return bad
}
