package logshuffle

import (
	"encoding/binary"
	"testing"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto/internal/spectranscript"
	"github.com/mentalmj/mentalmj/internal/proofvector"
)

// TestVectorsSpecEquations checks every vector of testdata/vectors.txt
// with a second verifier written from SPEC.md §12.1 alone: the sizes, the
// generators, the layout, the §11 transcript (spectranscript), then the
// seven equations one by one, each side summed term by term with circl's
// constant-time scalar multiplication (no multi-scalar multiplication, no
// batching, the folded weights from the bits of u). It must agree with
// every vector's expected outcome.
func TestVectorsSpecEquations(t *testing.T) {
	for _, v := range readVectorFile(t) {
		got := specVerify(t, v)
		if got != v.Expect {
			t.Errorf("%s: spec verifier says %s, want %s", v.Name, got, v.Expect)
		}
	}
}

func specVerify(t *testing.T, v proofvector.Vector) string {
	g := group.Ristretto255
	N := v.N
	n := 16 * ((N + 4 + 15) / 16)
	ell, f := n-4, n/16
	if len(v.Proof) != 32*(47+3*f) {
		return "reject-encoding"
	}
	// Layout.
	off := 0
	bad := false
	el := func() group.Element {
		e, ok := spectranscript.Element(v.Proof[off : off+32])
		bad = bad || !ok
		off += 32
		return e
	}
	sc := func() group.Scalar {
		s := g.NewScalar()
		bad = bad || s.UnmarshalBinary(v.Proof[off:off+32]) != nil
		off += 32
		return s
	}
	raw := func(from int) []byte { return v.Proof[from:off] }
	M, A, T1, T2, C := el(), el(), el(), el(), el()
	rp := sc()
	BC, BD := el(), el()
	var LC, RC, LD, RD, LA, RA, LT, RT [4]group.Element
	var ipaRounds, msmRounds [4][]byte
	for j := range 4 {
		at := off
		LC[j], RC[j], LD[j], RD[j] = el(), el(), el(), el()
		ipaRounds[j] = raw(at)
	}
	at := off
	cs, ds := make([]group.Scalar, f), make([]group.Scalar, f)
	for q := range f {
		cs[q] = sc()
	}
	for q := range f {
		ds[q] = sc()
	}
	ipaFinal := raw(at)
	at = off
	A1, A2, KA := el(), el(), el()
	sameScalar := raw(at)
	at = off
	zk, zt := sc(), sc()
	sameScalarZ := raw(at)
	BA, BT := el(), el()
	for j := range 4 {
		at := off
		LA[j], RA[j], LT[j], RT[j] = el(), el(), el(), el()
		msmRounds[j] = raw(at)
	}
	xs := make([]group.Scalar, f)
	for q := range f {
		xs[q] = sc()
	}
	if bad {
		return "reject-encoding"
	}
	D, ok1 := spectranscript.Elements(v.Input)
	Dp, ok2 := spectranscript.Elements(v.Output)
	K, ok3 := spectranscript.Element(v.Key)
	if !(ok1 && ok2 && ok3) || len(D) != N || len(Dp) != N {
		t.Fatalf("%s: statement does not decode", v.Name)
	}
	enc := func(es ...group.Element) []byte {
		var b []byte
		for _, e := range es {
			x, _ := e.MarshalBinary()
			b = append(b, x...)
		}
		return b
	}
	encS := func(ss ...group.Scalar) []byte {
		var b []byte
		for _, s := range ss {
			x, _ := s.MarshalBinary()
			b = append(b, x...)
		}
		return b
	}

	// Generators.
	dst := []byte("mentalmj/v1/logshuffle/generator")
	Gs := make([]group.Element, ell)
	for i := range Gs {
		Gs[i] = g.HashToElement(binary.BigEndian.AppendUint32([]byte("G"), uint32(i)), dst)
	}
	Hs := make([]group.Element, 4)
	for j := range Hs {
		Hs[j] = g.HashToElement(binary.BigEndian.AppendUint32([]byte("H"), uint32(j)), dst)
	}
	GT := g.HashToElement([]byte("GT"), dst)
	H := g.HashToElement([]byte("HT"), dst)
	Gc := append(append([]group.Element{}, Gs...), Hs...)
	Gm := append(append([]group.Element{}, Gs...), Hs[0], Hs[1], Hs[2], GT)
	Tp := make([]group.Element, n) // nil = identity
	copy(Tp, Dp)
	Tp[n-1] = H

	// Transcript.
	tr := spectranscript.New("mentalmj/v1/logshuffle")
	tr.Add("domain", []byte("mentalmj/v1/logshuffle"))
	tr.Add("version", []byte(v.Ctx.Version))
	tr.Add("game", v.Ctx.GameID)
	tr.AddUint("hand", uint64(v.Ctx.Hand))
	tr.AddUint("pass", uint64(v.Ctx.Pass))
	tr.Add("prover", v.Ctx.Prover)
	tr.AddUint("n", uint64(N))
	tr.Add("input", v.Input)
	tr.Add("output", v.Output)
	tr.Add("key", v.Key)
	tr.Add("m", enc(M))
	a := tr.Challenges("a", ell)
	tr.Add("a", enc(A, T1, T2))
	pc := tr.Challenges("perm", 3)
	alpha, beta, kappa := pc[0], pc[1], pc[2]
	tr.Add("gprod", append(enc(C), encS(rp)...))
	theta := tr.Challenges("theta", 1)[0]
	tr.Add("ipa", enc(BC, BD))
	ic := tr.Challenges("ipa", 2)
	rho, tau := ic[0], ic[1]
	var gam, del [4]group.Scalar
	for j := range 4 {
		tr.Add("ipa-round", ipaRounds[j])
		gam[j] = tr.Challenges("gamma", 1)[0]
	}
	tr.Add("ipa-final", ipaFinal)
	tr.Add("samescalar", sameScalar)
	eps := tr.Challenges("epsilon", 1)[0]
	tr.Add("samescalar-z", sameScalarZ)
	tr.Add("msm", enc(BA, BT))
	mu := tr.Challenges("mu", 1)[0]
	for j := range 4 {
		tr.Add("msm-round", msmRounds[j])
		del[j] = tr.Challenges("delta", 1)[0]
	}
	if theta.IsZero() {
		return "reject-invalid"
	}
	for j := range 4 {
		if gam[j].IsZero() || del[j].IsZero() {
			return "reject-invalid"
		}
	}

	// Scalars.
	S := func(v uint64) group.Scalar { return g.NewScalar().SetUint64(v) }
	mul := func(xs ...group.Scalar) group.Scalar {
		r := S(1)
		for _, x := range xs {
			r = g.NewScalar().Mul(r, x)
		}
		return r
	}
	add := func(x, y group.Scalar) group.Scalar { return g.NewScalar().Add(x, y) }
	sub := func(x, y group.Scalar) group.Scalar { return g.NewScalar().Sub(x, y) }
	inv := func(x group.Scalar) group.Scalar { return g.NewScalar().Inv(x) }
	pow := func(x group.Scalar, e int) group.Scalar {
		r := S(1)
		for range e {
			r = mul(r, x)
		}
		return r
	}
	p := S(1)
	for i := range ell {
		p = mul(p, add(add(a[i], mul(S(uint64(i)), alpha)), beta))
	}
	z := sub(add(mul(p, pow(theta, ell)), mul(rp, pow(theta, ell+1))), S(1))
	weight := func(ch [4]group.Scalar, k int) group.Scalar {
		u := k / f
		w := S(1)
		for j := range 4 {
			if u>>(3-j)&1 == 1 {
				w = mul(w, ch[j])
			}
		}
		return w
	}
	Gp := make([]group.Element, n)
	for k := range n {
		e := k + 1
		if k >= ell {
			e = ell + 1
		}
		Gp[k] = g.NewElement().Mul(Gc[k], inv(pow(theta, e)))
	}

	// Points.
	type term struct {
		s group.Scalar
		e group.Element
	}
	total := func(ts ...term) group.Element {
		acc := g.Identity()
		for _, x := range ts {
			if x.e == nil {
				continue
			}
			acc = g.NewElement().Add(acc, g.NewElement().Mul(x.e, x.s))
		}
		return acc
	}
	sumG, sumH := g.Identity(), g.Identity()
	for _, e := range Gs {
		sumG = g.NewElement().Add(sumG, e)
	}
	for _, e := range Hs {
		sumH = g.NewElement().Add(sumH, e)
	}
	R := g.Identity()
	for j := range N {
		R = g.NewElement().Add(R, g.NewElement().Mul(D[j], a[j]))
	}
	Dbar := total(term{S(1), A}, term{alpha, M}, term{sub(beta, inv(theta)), sumG}, term{kappa, sumH})
	cd := S(0)
	for q := range f {
		cd = add(cd, mul(cs[q], ds[q]))
	}

	// (1)
	l1 := []term{{S(1), BC}, {rho, C}, {mul(rho, rho, z, tau), H}}
	l2 := []term{{S(1), BD}, {rho, Dbar}}
	l3 := []term{{S(1), BA}, {mu, A}, {mu, T1}}
	l4 := []term{{S(1), BT}, {mu, T2}}
	for j := range 4 {
		l1 = append(l1, term{gam[j], LC[j]}, term{inv(gam[j]), RC[j]})
		l2 = append(l2, term{gam[j], LD[j]}, term{inv(gam[j]), RD[j]})
		l3 = append(l3, term{del[j], LA[j]}, term{inv(del[j]), RA[j]})
		l4 = append(l4, term{del[j], LT[j]}, term{inv(del[j]), RT[j]})
	}
	r1 := []term{{mul(cd, tau), H}}
	var r2, r3, r4 []term
	for k := range n {
		q := k % f
		r1 = append(r1, term{mul(cs[q], weight(gam, k)), Gc[k]})
		r2 = append(r2, term{mul(ds[q], inv(weight(gam, k))), Gp[k]})
		r3 = append(r3, term{mul(xs[q], weight(del, k)), Gm[k]})
		r4 = append(r4, term{mul(xs[q], weight(del, k)), Tp[k]})
	}
	eqs := [][2]group.Element{
		{total(l1...), total(r1...)},
		{total(l2...), total(r2...)},
		{total(l3...), total(r3...)},
		{total(l4...), total(r4...)},
		{total(term{S(1), A1}, term{eps, T1}), total(term{zt, GT})},
		{total(term{S(1), A2}, term{eps, T2}), total(term{zk, R}, term{zt, H})},
		{total(term{S(1), KA}, term{eps, K}), g.NewElement().MulGen(zk)},
	}
	for _, e := range eqs {
		if !e[0].IsEqual(e[1]) {
			return "reject-invalid"
		}
	}
	return "accept"
}
