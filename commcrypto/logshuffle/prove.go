package logshuffle

import (
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/internal/fold"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

// Prove returns the argument that out is a shuffle pass of in under key k
// and permutation perm: out[i] = k·in[perm[i]] for i in 0..N−1, with
// N = len(in) = p.N() and K = k·G. rand supplies the prover's nonces
// (crypto/rand.Reader in production; 64 bytes per nonce, 3n + 12 nonces).
//
// Prove does not check the statement: a wrong out, k or perm yields a
// proof that Verify rejects. Errors: ErrStatement for mismatched lengths,
// a perm that is not a permutation of 0..N−1, a zero k or unset values;
// a wrapped read error from rand; ErrInvalid if a challenge is zero
// (probability 2^−252).
func Prove(p *Params, ctx transcript.Context, in, out []commcrypto.Element, k commcrypto.Scalar, perm []int, rand io.Reader) (*Proof, error) {
	bigN, n, ell := p.bigN, p.n, p.ell
	if len(in) != bigN || len(out) != bigN || len(perm) != bigN || k.IsZero() {
		return nil, fmt.Errorf("%w: N=%d, %d inputs, %d outputs, %d permutation entries", ErrStatement, bigN, len(in), len(out), len(perm))
	}
	seen := make([]bool, bigN)
	for _, j := range perm {
		if j < 0 || j >= bigN || seen[j] {
			return nil, fmt.Errorf("%w: not a permutation of 0..%d", ErrStatement, bigN-1)
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
	nonce, err := nonces(rand, 3*n+12)
	if err != nil {
		return nil, err
	}
	take := func(c int) []group.Scalar {
		v := nonce[:c]
		nonce = nonce[c:]
		return v
	}
	rM, rA, rT, rC := take(4), take(3), take(1)[0], take(4)
	rk, rt := take(1)[0], take(1)[0]
	rc, rd, rx := take(n), take(n-2), take(n)

	// σ on the ℓ padded positions: perm, then the identity on N..ℓ−1.
	sigma := make([]int, ell)
	for i := range ell {
		sigma[i] = i
		if i < bigN {
			sigma[i] = perm[i]
		}
	}
	pr := &Proof{}
	pr.layout(p.rounds, p.f)
	t := start(ctx, in, out, K)

	// 1. Permutation commitment M = Σ σ(i)·G_i + Σ r_M,j·H_j, then a.
	idx := make([]int, n) // 0..n−1: G_0..G_{ℓ−1}, H_0..H_3 in the table
	for k := range idx {
		idx[k] = k
	}
	mScalars := make([]group.Scalar, n)
	for i := range ell {
		mScalars[i] = sUint(uint64(sigma[i]))
	}
	copy(mScalars[ell:], rM)
	pr.m = p.tableSum(idx, mScalars)
	t.Append("m", encode(pr.m))
	a := t.Challenges("a", ell)

	// 2. A = Σ a_σ(i)·G_i + Σ r_A,j·H_j (j < 3); com_T = (T_1, T_2) =
	// (r_T·G_T, k·R + r_T·H) with R = Σ a_j·D_j.
	x := make([]group.Scalar, ell)
	var sr sum
	for i := range ell {
		x[i] = a[sigma[i]]
	}
	for j := range bigN {
		sr.Add(a[j], D[j])
	}
	pr.a = p.tableSum(idx[:ell+3], append(append([]group.Scalar{}, x...), rA...))
	R := sr.Eval()
	pr.t1 = g.NewElement().Mul(p.gT, rT)
	pr.t2 = g.NewElement().Mul(R, ks)
	pr.t2.Add(pr.t2, g.NewElement().Mul(p.hT, rT))
	t.Append("a", encode(pr.a, pr.t1, pr.t2))
	ch := t.Challenges("perm", 3)
	alpha, beta, kappa := ch[0], ch[1], ch[2]

	// 3. Same permutation and grand product: b = x + α·σ + β·1,
	// r_B = r_A ‖ 0 + α·r_M; c = (1, b_0, b_0·b_1, …); C; r_p.
	b := make([]group.Scalar, ell)
	for i := range ell {
		b[i] = sAdd(sAdd(x[i], sMul(alpha, sUint(uint64(sigma[i])))), beta)
	}
	rB := make([]group.Scalar, Blinders)
	for j := range Blinders {
		rB[j] = sMul(alpha, rM[j])
		if j < 3 {
			rB[j] = sAdd(rB[j], rA[j])
		}
	}
	cv := make([]group.Scalar, n)
	cv[0] = sUint(1)
	for i := 1; i < ell; i++ {
		cv[i] = sMul(cv[i-1], b[i-1])
	}
	copy(cv[ell:], rC)
	pr.c = p.tableSum(idx, cv)
	pr.rp = g.NewScalar()
	for j := range Blinders {
		pr.rp.Add(pr.rp, sMul(sAdd(rB[j], kappa), rC[j]))
	}
	t.Append("gprod", append(encode(pr.c), encodeScalars(pr.rp)...))
	theta := t.Challenge("theta")
	thetaInv, err := invertible(theta, "theta")
	if err != nil {
		return nil, err
	}
	// d_i = θ^(i+1)·b_i − θ^i, r_D = θ^(ℓ+1)·(r_B + κ); the bases of d are
	// G'_i = θ^−(i+1)·G_i and H'_j = θ^−(ℓ+1)·H_j, kept as weights wd.
	dv := make([]group.Scalar, n)
	wc := make([]group.Scalar, n)
	wd := make([]group.Scalar, n)
	pow, powInv := sUint(1), sUint(1) // θ^i, θ^−i
	for i := range ell {
		next := sMul(pow, theta)
		dv[i] = sSub(sMul(next, b[i]), pow)
		pow = next
		powInv = sMul(powInv, thetaInv)
		wd[i] = powInv
	}
	pow = sMul(pow, theta) // θ^(ℓ+1)
	powInv = sMul(powInv, thetaInv)
	for j := range Blinders {
		dv[ell+j] = sMul(pow, sAdd(rB[j], kappa))
		wd[ell+j] = powInv
	}
	for k := range n {
		wc[k] = sUint(1)
	}

	// 4. DL inner product argument on (C, D, z) (Curdleproofs DLInner):
	// blinders with <r_c, d> + <r_d, c> = 0 and <r_c, r_d> = 0.
	rdFull, err := solveBlinders(rc, rd, cv, dv)
	if err != nil {
		return nil, err
	}
	bdScalars := make([]group.Scalar, n)
	for k := range n {
		bdScalars[k] = sMul(rdFull[k], wd[k])
	}
	pr.bc, pr.bd = p.tableSum(idx, rc), p.tableSum(idx, bdScalars)
	t.Append("ipa", encode(pr.bc, pr.bd))
	ch = t.Challenges("ipa", 2)
	rho, tau := ch[0], ch[1]
	for k := range n {
		cv[k] = sAdd(rc[k], sMul(rho, cv[k]))
		dv[k] = sAdd(rdFull[k], sMul(rho, dv[k]))
	}
	for j, m := 0, n; j < p.rounds; j, m = j+1, m/2 {
		h := m / 2
		lcz := sMul(inner(cv[:h], dv[h:m]), tau)
		rcz := sMul(inner(cv[h:m], dv[:h]), tau)
		parts := make([]group.Element, 4)
		commcrypto.Parallel(4, func(q int) {
			w, v, onHi, extra := wc, cv, q == 0, lcz
			switch q {
			case 1:
				extra = rcz
			case 2, 3:
				w, v, onHi, extra = wd, dv, q == 3, nil
			}
			ks, ss := fold.CrossTerms(n, nil, w, v, m, onHi)
			if extra != nil {
				ks, ss = append(ks, p.idxH()), append(ss, extra)
			}
			parts[q] = p.tableSum(ks, ss)
		})
		pr.lc[j], pr.rc[j], pr.ld[j], pr.rd[j] = parts[0], parts[1], parts[2], parts[3]
		t.Append("ipa-round", encode(parts...))
		gamma := t.Challenge("gamma")
		gammaInv, err := invertible(gamma, "gamma")
		if err != nil {
			return nil, err
		}
		cv = foldScalars(cv[:m], gammaInv)
		dv = foldScalars(dv[:m], gamma)
		reweight(wc, m, gamma)
		reweight(wd, m, gammaInv)
	}
	pr.cf, pr.df = cv, dv
	t.Append("ipa-final", encodeScalars(append(append([]group.Scalar{}, pr.cf...), pr.df...)...))

	// 5. Same scalar: (T_1, T_2) and K share k (Curdleproofs SameScalar).
	pr.a1 = g.NewElement().Mul(p.gT, rt)
	pr.a2 = g.NewElement().Mul(R, rk)
	pr.a2.Add(pr.a2, g.NewElement().Mul(p.hT, rt))
	pr.ka = g.NewElement().MulGen(rk)
	t.Append("samescalar", encode(pr.a1, pr.a2, pr.ka))
	eps := t.Challenge("epsilon")
	pr.zk = sAdd(rk, sMul(eps, ks))
	pr.zt = sAdd(rt, sMul(eps, rT))
	t.Append("samescalar-z", encodeScalars(pr.zk, pr.zt))

	// 6. Same multiscalar: A + T_1 = <x', G ‖ H_0..2 ‖ G_T> and
	// T_2 = <x', D' ‖ 0 ‖ H> for x' = x ‖ r_A ‖ r_T (Curdleproofs
	// SameMultiScalar).
	xv := make([]group.Scalar, n)
	copy(xv, x)
	copy(xv[ell:], rA)
	xv[n-1] = rT
	tb := make([]group.Element, n) // T' = D' ‖ identity ‖ H (nil = identity)
	copy(tb, Dp)
	tb[n-1] = p.hT
	var sbt sum
	mIdx := make([]int, n)
	for k := range n {
		mIdx[k] = p.msmIndex(k)
		if tb[k] != nil {
			sbt.Add(rx[k], tb[k])
		}
	}
	pr.ba, pr.bt = p.tableSum(mIdx, rx), sbt.Eval()
	t.Append("msm", encode(pr.ba, pr.bt))
	mu := t.Challenge("mu")
	for k := range n {
		xv[k] = sAdd(rx[k], sMul(mu, xv[k]))
	}
	wm := make([]group.Scalar, n)
	for k := range n {
		wm[k] = sUint(1)
	}
	for j, m := 0, n; j < p.rounds; j, m = j+1, m/2 {
		parts := make([]group.Element, 4)
		commcrypto.Parallel(4, func(q int) {
			switch q {
			case 0, 1:
				ks, ss := fold.CrossTerms(n, nil, wm, xv, m, q == 0)
				for i := range ks {
					ks[i] = p.msmIndex(ks[i])
				}
				parts[q] = p.tableSum(ks, ss)
			case 2:
				parts[2] = cross(tb, wm, xv, m, true, nil, nil)
			default:
				parts[3] = cross(tb, wm, xv, m, false, nil, nil)
			}
		})
		pr.la[j], pr.ra[j], pr.lt[j], pr.rt[j] = parts[0], parts[1], parts[2], parts[3]
		t.Append("msm-round", encode(parts...))
		delta := t.Challenge("delta")
		deltaInv, err := invertible(delta, "delta")
		if err != nil {
			return nil, err
		}
		xv = foldScalars(xv[:m], deltaInv)
		reweight(wm, m, delta)
	}
	pr.xf = xv
	for _, e := range []group.Element{pr.m, pr.a, pr.t1, pr.t2, pr.c, pr.bc, pr.bd, pr.a1, pr.a2, pr.ka, pr.ba, pr.bt} {
		if e.IsIdentity() {
			return nil, fmt.Errorf("%w: a commitment is the identity (probability 2^−252)", ErrInvalid)
		}
	}
	return pr, nil
}

// solveBlinders returns r_d: the n−2 random values rd followed by the two
// values that make <r_c, d> + <r_d, c> = 0 and <r_c, r_d> = 0
// (Curdleproofs DLInner, "Full Zero-Knowledge", step 1), solving the 2×2
// linear system in the last two coordinates.
func solveBlinders(rc, rd, c, d []group.Scalar) ([]group.Scalar, error) {
	n := len(c)
	e1 := sAdd(inner(rc, d), inner(rd, c[:n-2]))
	e2 := inner(rc[:n-2], rd)
	e1, e2 = sNeg(e1), sNeg(e2)
	// [c_{n−2} c_{n−1}; rc_{n−2} rc_{n−1}]·[u; v] = [e1; e2]
	det := sSub(sMul(c[n-2], rc[n-1]), sMul(c[n-1], rc[n-2]))
	if det.IsZero() {
		return nil, fmt.Errorf("%w: singular blinding system (probability 2^−252)", ErrInvalid)
	}
	di := sInv(det)
	u := sMul(sSub(sMul(e1, rc[n-1]), sMul(c[n-1], e2)), di)
	v := sMul(sSub(sMul(c[n-2], e2), sMul(rc[n-2], e1)), di)
	return append(append(append([]group.Scalar{}, rd...), u), v), nil
}
