package shuffleproof

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	ristretto "github.com/bwesterb/go-ristretto"
	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/msm"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// Domain is the transcript domain and the prefix of every
// domain-separation tag of this argument.
const Domain = "mentalmj/v1/shuffleproof"

// MaxN bounds the deck length a proof may claim, so that a decoder never
// allocates for a length taken from untrusted input beyond this.
const MaxN = 1024

const size = 32 // bytes of an encoded element or scalar

var g = group.Ristretto255

// Errors returned (wrapped) by Decode and Verify; test with errors.Is.
var (
	// ErrEncoding: the proof bytes have the wrong length or hold a
	// non-canonical element or scalar, or the identity.
	ErrEncoding = errors.New("shuffleproof: malformed proof")
	// ErrStatement: the statement is malformed (decks of different or
	// unsupported lengths, unset elements, params for another length).
	ErrStatement = errors.New("shuffleproof: malformed statement")
	// ErrInvalid: the proof does not verify for this statement and
	// context.
	ErrInvalid = errors.New("shuffleproof: proof does not verify")
)

// Params are the independent generators H, H_1..H_n of the permutation
// commitments, for decks of n elements: H_i is RFC 9380
// hash_to_ristretto255 of the 4-byte big-endian i (H is i = 0) with DST
// "mentalmj/v1/shuffleproof/generator". Params are immutable; build them
// once per deck length with NewParams and share them.
type Params struct {
	n  int
	h  group.Element
	hs []group.Element
	// hTable is go-ristretto's precomputed table of multiples of H, for
	// the prover's constant-time multiples of H (≈ 16 µs each against
	// ≈ 60 µs for a variable-base multiplication).
	hTable *ristretto.ScalarMultTable
}

// NewParams returns the generators for decks of n elements, 1 ≤ n ≤ MaxN,
// and the prover's table of multiples of H (about 20 µs of CPU per
// generator and 1.6 ms for the table, spread over the cores). It panics
// on another n (programmer error).
func NewParams(n int) *Params {
	if n < 1 || n > MaxN {
		panic(fmt.Sprintf("shuffleproof: NewParams(%d): n out of range", n))
	}
	dst := []byte(Domain + "/generator")
	gen := func(i int) group.Element {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], uint32(i))
		return g.HashToElement(b[:], dst)
	}
	p := &Params{n: n, hs: make([]group.Element, n)}
	commcrypto.Parallel(n+1, func(i int) {
		if i == n {
			p.h = gen(0)
			p.hTable = new(ristretto.ScalarMultTable)
			p.hTable.Compute(toRistretto(p.h))
			return
		}
		p.hs[i] = gen(i + 1)
	})
	return p
}

// N returns the deck length the params are for.
func (p *Params) N() int { return p.n }

// Proof is a shuffle argument for decks of n elements (see the package
// doc for the names).
type Proof struct {
	c, cHat, tHat      []group.Element // n each
	t1, t2, t3, t4, t5 group.Element
	s1, s2, s3, s4     group.Scalar
	sHat, sPrime       []group.Scalar // n each
	// enc is the encoding (see Bytes); the transcript hashes its parts,
	// so no element is encoded twice.
	enc []byte
}

// Size returns the encoded length in bytes of a proof for decks of n
// elements: 32·(5n + 9).
func Size(n int) int { return size * (5*n + 9) }

// Prove returns the argument that out is a shuffle pass of in under key k
// and permutation perm: out[i] = k·in[perm[i]] for i in 0..n−1, with
// n = len(in) = p.N() and K = Commit(k). rand supplies the prover's nonces
// (crypto/rand.Reader in production; 64 bytes per nonce, 4n + 4 nonces).
//
// Prove does not check the statement: a wrong out, k or perm yields a
// proof that Verify rejects. Errors: ErrStatement for mismatched lengths,
// a perm that is not a permutation of 0..n−1, or unset values; a wrapped
// read error from rand.
func Prove(p *Params, ctx transcript.Context, in, out []commcrypto.Element, k commcrypto.Scalar, perm []int, rand io.Reader) (*Proof, error) {
	n := p.n
	if len(in) != n || len(out) != n || len(perm) != n || k.IsZero() {
		return nil, fmt.Errorf("%w: n=%d, %d inputs, %d outputs, %d permutation entries", ErrStatement, n, len(in), len(out), len(perm))
	}
	seen := make([]bool, n)
	for _, j := range perm {
		if j < 0 || j >= n || seen[j] {
			return nil, fmt.Errorf("%w: not a permutation of 0..%d", ErrStatement, n-1)
		}
		seen[j] = true
	}
	D, err := points(in)
	if err != nil {
		return nil, err
	}
	Dp, err := points(out)
	if err != nil {
		return nil, err
	}
	K := commcrypto.Commit(k)
	ks := k.GroupScalar()
	// Every nonce in one read, in the order they are used (r, r̂, ω_1..4,
	// then ω̂_i, ω'_i by turns), reduced in parallel.
	nonce, err := nonces(rand, 4*n+4)
	if err != nil {
		return nil, err
	}

	t := start(ctx, in, out, K)
	pr := &Proof{c: make([]group.Element, n), cHat: make([]group.Element, n), tHat: make([]group.Element, n),
		sHat: make([]group.Scalar, n), sPrime: make([]group.Scalar, n)}
	// The encoding (see Size), filled in place as the values are made.
	enc := make([]byte, Size(n))
	at := func(k int) []byte { return enc[k*size : (k+1)*size] }
	cHatAt, tsAt, tHatAt := n, 2*n, 2*n+5 // offsets in values

	// 1. Permutation commitment: c_{ψ(i)} = r_{ψ(i)}·G + H_i.
	r := make([]group.Scalar, n)
	for i := range n {
		r[perm[i]] = nonce[i]
	}
	commcrypto.Parallel(n, func(i int) {
		j := perm[i]
		pr.c[j] = g.NewElement().MulGen(r[j])
		pr.c[j].Add(pr.c[j], p.hs[i])
		putElem(at(j), pr.c[j])
	})
	t.Append("c", enc[:n*size])
	u := t.Challenges("u", n)
	uP := make([]group.Scalar, n)
	for i := range n {
		uP[i] = u[perm[i]]
	}

	// 2. Commitment chain ĉ_i = r̂_i·G + u'_i·ĉ_{i−1}, ĉ_0 = H. Unrolled,
	// ĉ_i = a_i·G + b_i·H with a_i = r̂_i + u'_i·a_{i−1}, a_0 = 0 for ĉ_0,
	// and b_i = Π_{q≤i} u'_q, so the n elements are computed
	// independently (in parallel) from scalars.
	rHat := nonce[n : 2*n]
	a := make([]group.Scalar, n+1) // a[i+1] for ĉ_{i+1} (0-based ĉ[i]); a[0] for ĉ_0 = H
	b := make([]group.Scalar, n+1)
	a[0], b[0] = g.NewScalar(), g.NewScalar().SetUint64(1)
	for i := range n {
		a[i+1] = g.NewScalar().Mul(uP[i], a[i])
		a[i+1].Add(a[i+1], rHat[i])
		b[i+1] = g.NewScalar().Mul(uP[i], b[i])
	}
	// r̄ = Σ r_j, r̂ = Σ r̂_i·v_i with v_n = 1, v_{i−1} = u'_i·v_i,
	// r̃ = Σ r_j·u_j.
	rBar, rTilde, rHatSum := g.NewScalar(), g.NewScalar(), g.NewScalar()
	v := g.NewScalar().SetUint64(1)
	tmp := g.NewScalar()
	for i := n - 1; i >= 0; i-- {
		rHatSum.Add(rHatSum, tmp.Mul(rHat[i], v))
		v.Mul(v, uP[i])
	}
	for j := range n {
		rBar.Add(rBar, r[j])
		rTilde.Add(rTilde, tmp.Mul(r[j], u[j]))
	}

	// 3. First messages.
	w := nonce[2*n : 2*n+4]
	wHat := make([]group.Scalar, n)
	wP := make([]group.Scalar, n)
	for i := range n {
		wHat[i], wP[i] = nonce[2*n+4+2*i], nonce[2*n+5+2*i]
	}
	pr.t1 = g.NewElement().MulGen(w[0])
	pr.t2 = g.NewElement().MulGen(w[1])
	pr.t5 = g.NewElement().MulGen(w[3])
	// t_3 = ω_3·G + Σ ω'_i·H_i and t_4 = Σ ω'_i·D'_i − ω_4·Σ u_j·D_j,
	// ĉ_i = b_i·H + a_i·G and
	// t̂_i = ω̂_i·G + ω'_i·ĉ_{i−1} = (ω̂_i + ω'_i·a_{i−1})·G + (ω'_i·b_{i−1})·H
	// (the multiples of H from its precomputed table), all in parallel.
	// The nonces ω'_i are secret, so their sums use circl's constant-time
	// scalar multiplication term by term: the bucket multi-scalar
	// multiplication's running time depends on its scalars and serves
	// only the public Σ u_j·D_j here.
	var msmErr error
	var A group.Element
	t3Terms := make([]group.Element, n)
	t4Terms := make([]group.Element, n)
	commcrypto.Parallel(4*n+1, func(i int) {
		switch {
		case i == 4*n:
			A, msmErr = msm.MultiScalarMult(u, D)
		case i >= 3*n:
			t4Terms[i-3*n] = g.NewElement().Mul(Dp[i-3*n], wP[i-3*n])
		case i >= 2*n:
			t3Terms[i-2*n] = g.NewElement().Mul(p.hs[i-2*n], wP[i-2*n])
		case i < n:
			pr.cHat[i] = p.mulHG(at(cHatAt+i), b[i+1], a[i+1])
		default:
			i -= n
			x := g.NewScalar().Mul(wP[i], a[i])
			x.Add(x, wHat[i])
			pr.tHat[i] = p.mulHG(at(tHatAt+i), g.NewScalar().Mul(wP[i], b[i]), x)
		}
	})
	if msmErr != nil {
		return nil, msmErr
	}
	t3, t4 := g.Identity(), g.Identity()
	for i := range n {
		t3.Add(t3, t3Terms[i])
		t4.Add(t4, t4Terms[i])
	}
	pr.t3 = t3.Add(t3, g.NewElement().MulGen(w[2]))
	pr.t4 = t4.Add(t4, g.NewElement().Mul(A, g.NewScalar().Neg(w[3])))
	for k, e := range []group.Element{pr.t1, pr.t2, pr.t3, pr.t4, pr.t5} {
		putElem(at(tsAt+k), e)
	}
	pr.enc = enc
	appendFirst(t, pr)
	c := t.Challenge("c")

	// 4. Responses s = ω + c·witness.
	resp := func(w, x group.Scalar) group.Scalar {
		s := g.NewScalar().Mul(c, x)
		return s.Add(s, w)
	}
	pr.s1 = resp(w[0], rBar)
	pr.s2 = resp(w[1], rHatSum)
	pr.s3 = resp(w[2], rTilde)
	pr.s4 = resp(w[3], ks)
	for i := range n {
		pr.sHat[i] = resp(wHat[i], rHat[i])
		pr.sPrime[i] = resp(wP[i], uP[i])
	}
	sAt := 3*n + 5
	for k, x := range []group.Scalar{pr.s1, pr.s2, pr.s3, pr.s4} {
		putScalar(at(sAt+k), x)
	}
	for i := range n {
		putScalar(at(sAt+4+i), pr.sHat[i])
		putScalar(at(sAt+4+n+i), pr.sPrime[i])
	}
	return pr, nil
}

// Verify checks the proof that out is a shuffle pass of in under the key
// committed in K (see the package doc), for the context ctx.
//
// in and out must hold p.N() set elements each. It returns nil if the
// proof verifies; otherwise an error wrapping ErrStatement or ErrInvalid.
// The cost is one multi-scalar multiplication of 6n + 8 points plus
// hashing.
func Verify(p *Params, ctx transcript.Context, in, out []commcrypto.Element, K commcrypto.Element, pr *Proof) error {
	n := p.n
	if len(in) != n || len(out) != n || K.IsZero() || pr == nil || !pr.shaped(n) {
		return fmt.Errorf("%w: n=%d, %d inputs, %d outputs", ErrStatement, n, len(in), len(out))
	}
	D, err := points(in)
	if err != nil {
		return err
	}
	Dp, err := points(out)
	if err != nil {
		return err
	}
	t := start(ctx, in, out, K)
	t.Append("c", pr.enc[:n*size])
	u := t.Challenges("u", n)
	appendFirst(t, pr)
	c := t.Challenge("c")
	appendResponses(t, pr)
	beta := t.Challenges("batch", n+5)
	b1, b2, b3, b4, b5, b6 := beta[0], beta[1], beta[2], beta[3], beta[4], beta[5:]

	prodU := g.NewScalar().SetUint64(1)
	for _, x := range u {
		prodU.Mul(prodU, x)
	}
	mul := func(xs ...group.Scalar) group.Scalar {
		s := g.NewScalar().SetUint64(1)
		for _, x := range xs {
			s.Mul(s, x)
		}
		return s
	}
	neg := func(x group.Scalar) group.Scalar { return g.NewScalar().Neg(x) }

	ss := make([]group.Scalar, 0, 6*n+8)
	ps := make([]group.Element, 0, 6*n+8)
	add := func(s group.Scalar, e group.Element) {
		ss = append(ss, s)
		ps = append(ps, e)
	}
	// G: β1 s1 + β2 s2 + β3 s3 + β5 s4 + Σ β6_i ŝ_i
	gc := g.NewScalar().Add(mul(b1, pr.s1), mul(b2, pr.s2))
	gc.Add(gc, mul(b3, pr.s3))
	gc.Add(gc, mul(b5, pr.s4))
	for i := range n {
		gc.Add(gc, mul(b6[i], pr.sHat[i]))
	}
	add(gc, g.Generator())
	// H (= ĉ_0): β2·c·Π u + β6_1·s'_1
	hc := mul(b2, c, prodU)
	hc.Add(hc, mul(b6[0], pr.sPrime[0]))
	add(hc, p.h)
	b1c := mul(b1, c)
	b3c := mul(b3, c)
	for i := range n {
		// H_i: β1·c + β3·s'_i
		add(g.NewScalar().Add(b1c, mul(b3, pr.sPrime[i])), p.hs[i])
		// c_i: −β1·c − β3·c·u_i
		x := g.NewScalar().Add(b1c, mul(b3c, u[i]))
		add(neg(x), pr.c[i])
		// ĉ_i: −β6_i·c + β6_{i+1}·s'_{i+1}; ĉ_n: −β2·c − β6_n·c
		var y group.Scalar
		if i < n-1 {
			y = g.NewScalar().Sub(mul(b6[i+1], pr.sPrime[i+1]), mul(b6[i], c))
		} else {
			y = neg(g.NewScalar().Add(mul(b2, c), mul(b6[i], c)))
		}
		add(y, pr.cHat[i])
		// t̂_i: −β6_i
		add(neg(b6[i]), pr.tHat[i])
		// D'_i: β4·s'_i; D_i: −β4·s4·u_i
		add(mul(b4, pr.sPrime[i]), Dp[i])
		add(neg(mul(b4, pr.s4, u[i])), D[i])
	}
	add(neg(b1), pr.t1)
	add(neg(b2), pr.t2)
	add(neg(b3), pr.t3)
	add(neg(b4), pr.t4)
	add(neg(b5), pr.t5)
	add(neg(mul(b5, c)), K.Point())
	sum, err := msm.MultiScalarMult(ss, ps)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrStatement, err)
	}
	if !sum.IsIdentity() {
		return ErrInvalid
	}
	return nil
}

// shaped reports whether every part of pr is present for decks of n.
func (pr *Proof) shaped(n int) bool {
	if len(pr.enc) != Size(n) {
		return false
	}
	for _, l := range []int{len(pr.c), len(pr.cHat), len(pr.tHat), len(pr.sHat), len(pr.sPrime)} {
		if l != n {
			return false
		}
	}
	for _, e := range []group.Element{pr.t1, pr.t2, pr.t3, pr.t4, pr.t5} {
		if e == nil {
			return false
		}
	}
	for _, s := range []group.Scalar{pr.s1, pr.s2, pr.s3, pr.s4} {
		if s == nil {
			return false
		}
	}
	return true
}

// start opens the transcript over the statement.
func start(ctx transcript.Context, in, out []commcrypto.Element, K commcrypto.Element) *transcript.Transcript {
	t := transcript.New(Domain, ctx)
	t.AppendUint("n", uint64(len(in)))
	t.Append("input", commcrypto.EncodeElements(in))
	t.Append("output", commcrypto.EncodeElements(out))
	t.Append("key", K.Bytes())
	return t
}

// appendFirst hashes the first messages ĉ, t_1..t_5, t̂ (encoded after
// the n permutation commitments).
func appendFirst(t *transcript.Transcript, pr *Proof) {
	n := len(pr.c)
	t.Append("first", pr.enc[n*size:(3*n+5)*size])
}

// appendResponses hashes the responses (the rest of the encoding).
func appendResponses(t *transcript.Transcript, pr *Proof) {
	n := len(pr.c)
	t.Append("responses", pr.enc[(3*n+5)*size:])
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
// HashToScalar of 64 bytes from rand (expand_message_xmd with SHA-512 to
// 64 bytes, read little-endian and reduced mod ℓ; DST Domain + "/nonce").
// The bytes are read at once, in order, and cleared afterwards; the
// reductions are spread over the cores.
func nonces(rand io.Reader, count int) ([]group.Scalar, error) {
	if rand == nil {
		return nil, errors.New("shuffleproof: nil random source")
	}
	dst := []byte(Domain + "/nonce")
	buf := make([]byte, 64*count)
	defer clear(buf)
	if _, err := io.ReadFull(rand, buf); err != nil {
		return nil, fmt.Errorf("shuffleproof: random source: %w", err)
	}
	out := make([]group.Scalar, count)
	commcrypto.Parallel(count, func(i int) { out[i] = g.HashToScalar(buf[64*i:64*(i+1)], dst) })
	return out, nil
}
