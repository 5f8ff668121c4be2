package logshuffle

import (
	"crypto/rand"
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/msm"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// combination is a linear combination of group elements that is the
// identity iff a proof verifies (up to the soundness error): coefficients
// of the fixed generators G_0..G_{ℓ−1}, H_0..H_3, G_T, H and the base G
// (in gen, that order), then the statement's and the proof's elements.
//
// keys[i] is the canonical encoding of ps[i] for the statement's elements
// (the decks and K), which a batch merges across proofs (msm.Terms), and
// zero for the proof's own elements.
type combination struct {
	gen  []group.Scalar
	ss   []group.Scalar
	ps   []group.Element
	keys [][32]byte
}

func (c *combination) add(s group.Scalar, e group.Element) {
	c.addKeyed([32]byte{}, s, e)
}

func (c *combination) addKeyed(key [32]byte, s group.Scalar, e group.Element) {
	c.ss = append(c.ss, s)
	c.ps = append(c.ps, e)
	c.keys = append(c.keys, key)
}

// isIdentity evaluates the combination: the fixed generators' part on
// the precomputed table (msm.Table), the rest with one multi-scalar
// multiplication (commcrypto/msm).
func (c *combination) isIdentity(p *Params) bool {
	fixed := p.tableSum(p.genIndex(), c.gen)
	e, err := msm.MultiScalarMult(c.ss, c.ps)
	return err == nil && e.Add(e, fixed).IsIdentity()
}

// Verify checks the proof that out is a shuffle pass of in under the key
// committed in K (see the package doc), for the context ctx.
//
// in and out must hold p.N() set elements each, K must be set. It
// returns nil if the proof verifies; otherwise an error wrapping
// ErrStatement or ErrInvalid. The cost is one multi-scalar
// multiplication of n + 2N + 8·log2(n) + 21 points plus hashing.
func Verify(p *Params, ctx transcript.Context, in, out []commcrypto.Element, K commcrypto.Element, pr *Proof) error {
	c, err := p.combine(ctx, in, out, K, pr)
	if err != nil {
		return err
	}
	if !c.isIdentity(p) {
		return fmt.Errorf("%w", ErrInvalid)
	}
	return nil
}

// combine derives the challenges of pr from its transcript and returns
// the random linear combination of the seven verification equations
// (SPEC.md §12, "Verification").
func (p *Params) combine(ctx transcript.Context, in, out []commcrypto.Element, K commcrypto.Element, pr *Proof) (*combination, error) {
	bigN, n, ell := p.bigN, p.n, p.ell
	if len(in) != bigN || len(out) != bigN || K.IsZero() || !pr.shaped(p.rounds, p.f) {
		return nil, fmt.Errorf("%w: N=%d, %d inputs, %d outputs", ErrStatement, bigN, len(in), len(out))
	}
	D, err := points(in)
	if err != nil {
		return nil, err
	}
	Dp, err := points(out)
	if err != nil {
		return nil, err
	}
	Kp := K.Point()

	// Challenges, in transcript order.
	t := start(ctx, in, out, K)
	t.Append("m", encode(pr.m))
	a := t.Challenges("a", ell)
	t.Append("a", encode(pr.a, pr.t1, pr.t2))
	ch := t.Challenges("perm", 3)
	alpha, beta, kappa := ch[0], ch[1], ch[2]
	t.Append("gprod", append(encode(pr.c), encodeScalars(pr.rp)...))
	theta := t.Challenge("theta")
	thetaInv, err := invertible(theta, "theta")
	if err != nil {
		return nil, err
	}
	t.Append("ipa", encode(pr.bc, pr.bd))
	ch = t.Challenges("ipa", 2)
	rho, tau := ch[0], ch[1]
	gam, gamInv := make([]group.Scalar, p.rounds), make([]group.Scalar, p.rounds)
	for j := range p.rounds {
		t.Append("ipa-round", encode(pr.lc[j], pr.rc[j], pr.ld[j], pr.rd[j]))
		gam[j] = t.Challenge("gamma")
		if gamInv[j], err = invertible(gam[j], "gamma"); err != nil {
			return nil, err
		}
	}
	t.Append("ipa-final", encodeScalars(append(append([]group.Scalar{}, pr.cf...), pr.df...)...))
	t.Append("samescalar", encode(pr.a1, pr.a2, pr.ka))
	eps := t.Challenge("epsilon")
	t.Append("samescalar-z", encodeScalars(pr.zk, pr.zt))
	t.Append("msm", encode(pr.ba, pr.bt))
	mu := t.Challenge("mu")
	del, delInv := make([]group.Scalar, p.rounds), make([]group.Scalar, p.rounds)
	for j := range p.rounds {
		t.Append("msm-round", encode(pr.la[j], pr.ra[j], pr.lt[j], pr.rt[j]))
		del[j] = t.Challenge("delta")
		if delInv[j], err = invertible(del[j], "delta"); err != nil {
			return nil, err
		}
	}
	t.Append("msm-final", encodeScalars(pr.xf...))
	w := t.Challenges("batch", 7)

	// The grand product p = Π (a_i + i·α + β) and the inner product
	// z = p·θ^ℓ + r_p·θ^(ℓ+1) − 1.
	prod := sUint(1)
	for i := range ell {
		prod = sMul(prod, sAdd(sAdd(a[i], sMul(sUint(uint64(i)), alpha)), beta))
	}
	thetaPow := sUint(1)
	for range ell {
		thetaPow = sMul(thetaPow, theta)
	}
	z := sAdd(sMul(prod, thetaPow), sMul(pr.rp, sMul(thetaPow, theta)))
	z = sSub(z, sUint(1))

	// Generator k of the final folded bases of the grand-product
	// argument is weighted s_k (bases G ‖ H) and 1/s_k (bases G' ‖ H')
	// and meets c_{k mod f}, d_{k mod f}; those of the same-multiscalar
	// argument t_k and x_{k mod f}.
	f := p.f
	s, sInvs, tw := foldWeights(gam), foldWeights(gamInv), foldWeights(del)
	cw, dw, xw3, xw4 := make([]group.Scalar, f), make([]group.Scalar, f), make([]group.Scalar, f), make([]group.Scalar, f)
	for q := range f {
		cw[q] = sMul(w[0], pr.cf[q]) // ω1·c_q
		dw[q] = sMul(w[1], pr.df[q]) // ω2·d_q
		xw3[q] = sMul(w[2], pr.xf[q])
		xw4[q] = sMul(w[3], pr.xf[q])
	}
	gSum := sMul(sMul(w[1], rho), sSub(beta, thetaInv))
	hSum := sMul(sMul(w[1], rho), kappa)

	c := &combination{gen: make([]group.Scalar, ell+Blinders+3)}
	thInvPow := sUint(1)
	for k := range n {
		q, u := k%f, k/f
		if k < ell {
			thInvPow = sMul(thInvPow, thetaInv)
		} else if k == ell {
			thInvPow = sMul(thInvPow, thetaInv) // θ^−(ℓ+1) for every H_j
		}
		v := sNeg(sMul(cw[q], s[u]))
		v = sSub(v, sMul(dw[q], sMul(sInvs[u], thInvPow)))
		if k < ell {
			v = sAdd(v, gSum)
		} else {
			v = sAdd(v, hSum)
		}
		if k < n-1 {
			v = sSub(v, sMul(xw3[q], tw[u]))
		}
		c.gen[k] = v
	}
	last := tw[(n-1)/f]
	c.gen[ell+Blinders] = sNeg(sAdd(sMul(xw3[f-1], last), sMul(w[4], pr.zt))) // G_T
	hc := sMul(sMul(w[0], tau), sSub(sMul(sMul(rho, rho), z), inner(pr.cf, pr.df)))
	hc = sSub(hc, sMul(xw4[f-1], last))
	c.gen[ell+Blinders+1] = sSub(hc, sMul(w[5], pr.zt)) // H
	c.gen[ell+Blinders+2] = sNeg(sMul(w[6], pr.zk))     // G

	zk6 := sNeg(sMul(w[5], pr.zk))
	for j := range bigN {
		c.addKeyed(in[j].Key(), sMul(zk6, a[j]), D[j])
		c.addKeyed(out[j].Key(), sNeg(sMul(xw4[j%f], tw[j/f])), Dp[j])
	}
	c.add(sMul(sMul(w[1], rho), alpha), pr.m)
	c.add(sAdd(sMul(w[1], rho), sMul(w[2], mu)), pr.a)
	c.add(sAdd(sMul(w[2], mu), sMul(w[4], eps)), pr.t1)
	c.add(sAdd(sMul(w[3], mu), sMul(w[5], eps)), pr.t2)
	c.add(sMul(w[0], rho), pr.c)
	c.add(w[0], pr.bc)
	c.add(w[1], pr.bd)
	c.add(w[2], pr.ba)
	c.add(w[3], pr.bt)
	for j := range p.rounds {
		c.add(sMul(w[0], gam[j]), pr.lc[j])
		c.add(sMul(w[0], gamInv[j]), pr.rc[j])
		c.add(sMul(w[1], gam[j]), pr.ld[j])
		c.add(sMul(w[1], gamInv[j]), pr.rd[j])
		c.add(sMul(w[2], del[j]), pr.la[j])
		c.add(sMul(w[2], delInv[j]), pr.ra[j])
		c.add(sMul(w[3], del[j]), pr.lt[j])
		c.add(sMul(w[3], delInv[j]), pr.rt[j])
	}
	c.add(w[4], pr.a1)
	c.add(w[5], pr.a2)
	c.add(w[6], pr.ka)
	c.addKeyed(K.Key(), sMul(w[6], eps), Kp)
	return c, nil
}

// Batch verifies several proofs for decks of the same length with one
// multi-scalar multiplication: each proof's linear combination is
// multiplied by an independent random weight drawn by the verifier
// (Bellare, Garay, Rabin, "Fast batch verification for modular
// exponentiation and digital signatures", EUROCRYPT 1998, the small
// exponents test with full-size weights), the generators' coefficients
// are summed, the statements' shared elements merged (msm.Terms: a pass's
// output deck is the next pass's input), and the whole is checked once.
// A false proof survives with probability ≤ 1/ℓ.
type Batch struct {
	p     *Params
	rand  io.Reader
	gen   []group.Scalar // the generators' summed weighted coefficients
	terms msm.Terms      // the statements' and proofs' weighted elements
	items []*combination
}

// NewBatch returns an empty batch for p's deck length. rand supplies the
// verifier's weights (crypto/rand.Reader if nil).
func NewBatch(p *Params, rnd io.Reader) *Batch {
	if rnd == nil {
		rnd = rand.Reader
	}
	return &Batch{p: p, rand: rnd, gen: zeros(p.ell + Blinders + 3)}
}

func zeros(k int) []group.Scalar {
	out := make([]group.Scalar, k)
	for i := range out {
		out[i] = g.NewScalar()
	}
	return out
}

// Add derives pr's challenges and adds its equations to the batch, and
// returns its index. A malformed statement (ErrStatement) or a zero
// challenge (ErrInvalid) is returned at once and nothing is added.
func (b *Batch) Add(ctx transcript.Context, in, out []commcrypto.Element, K commcrypto.Element, pr *Proof) (int, error) {
	c, err := b.p.combine(ctx, in, out, K, pr)
	if err != nil {
		return -1, err
	}
	ws, err := nonces(b.rand, 1)
	if err != nil {
		return -1, err
	}
	w := ws[0]
	b.items = append(b.items, c)
	for i := range b.gen {
		b.gen[i] = sAdd(b.gen[i], sMul(w, c.gen[i]))
	}
	for i := range c.ss {
		b.terms.AddKeyed(c.keys[i], sMul(w, c.ss[i]), c.ps[i])
	}
	return len(b.items) - 1, nil
}

// Len returns the number of proofs added.
func (b *Batch) Len() int { return len(b.items) }

// AddTo adds the batch's weighted sum to t, the generators' part as one
// term (its value on the table), so that the proofs of several arguments
// are checked with one multi-scalar multiplication: all the batch's
// proofs verify (up to the soundness error) iff the sum of everything
// added to t is the identity. It does not change the batch.
func (b *Batch) AddTo(t *msm.Terms) {
	if len(b.items) == 0 {
		return
	}
	t.Add(sUint(1), b.p.tableSum(b.p.genIndex(), b.gen))
	t.Merge(&b.terms)
}

// Failed returns the indices (in the order added) of the proofs that do
// not verify: none after one multi-scalar multiplication if the batch
// holds, else each proof is checked on its own (one multi-scalar
// multiplication each) so that exactly the false ones are named.
func (b *Batch) Failed() []int {
	if len(b.items) == 0 {
		return nil
	}
	var t msm.Terms
	b.AddTo(&t)
	if t.Sum().IsIdentity() {
		return nil
	}
	var bad []int
	for i, c := range b.items {
		if !c.isIdentity(b.p) {
			bad = append(bad, i)
		}
	}
	return bad
}
