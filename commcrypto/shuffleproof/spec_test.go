package shuffleproof

import (
	"encoding/binary"
	"testing"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto/internal/spectranscript"
)

// TestVectorsSpecEquations checks every vector of testdata/vectors.txt
// with a second verifier written from SPEC.md §12: the generators, the
// transcript, then the N + 5 equations one by one (no batching), on
// circl's public group operations. It must agree with every vector's
// expected outcome.
func TestVectorsSpecEquations(t *testing.T) {
	g := group.Ristretto255
	accepted := 0
	for _, v := range readVectorFile(t) {
		n := v.N
		if len(v.Proof) != Size(n) {
			continue // rejected by length alone (SPEC.md §12)
		}
		scalars := func(b []byte) ([]group.Scalar, bool) {
			out := make([]group.Scalar, len(b)/32)
			for i := range out {
				out[i] = g.NewScalar()
				if out[i].UnmarshalBinary(b[32*i:32*i+32]) != nil {
					return nil, false
				}
			}
			return out, true
		}
		D, ok1 := spectranscript.Elements(v.Input)
		Dp, ok2 := spectranscript.Elements(v.Output)
		K, ok3 := spectranscript.Element(v.Key)
		if !(ok1 && ok2 && ok3) {
			t.Fatalf("%s: statement does not decode", v.Name)
		}
		p := v.Proof
		c, okc := spectranscript.Elements(p[:32*n])
		cHat, okh := spectranscript.Elements(p[32*n : 64*n])
		ts, okt := spectranscript.Elements(p[64*n : 64*n+160])
		tHat, okth := spectranscript.Elements(p[64*n+160 : 96*n+160])
		ss, oks := scalars(p[96*n+160 : 96*n+288])
		sHat, oksh := scalars(p[96*n+288 : 128*n+288])
		sP, oksp := scalars(p[128*n+288:])
		if !(okc && okh && okt && okth && oks && oksh && oksp) {
			if v.Expect != "reject-encoding" {
				t.Errorf("%s: the proof does not decode, but the vector expects %s", v.Name, v.Expect)
			}
			continue
		}
		H := make([]group.Element, n+1)
		for i := range H {
			H[i] = g.HashToElement(binary.BigEndian.AppendUint32(nil, uint32(i)), []byte("mentalmj/v1/shuffleproof/generator"))
		}
		tr := spectranscript.New("mentalmj/v1/shuffleproof")
		tr.Add("domain", []byte("mentalmj/v1/shuffleproof"))
		tr.Add("version", []byte(v.Ctx.Version))
		tr.Add("game", v.Ctx.GameID)
		tr.AddUint("hand", uint64(v.Ctx.Hand))
		tr.AddUint("pass", uint64(v.Ctx.Pass))
		tr.Add("prover", v.Ctx.Prover)
		tr.AddUint("n", uint64(n))
		tr.Add("input", v.Input)
		tr.Add("output", v.Output)
		tr.Add("key", v.Key)
		tr.Add("c", p[:32*n])
		u := tr.Challenges("u", n)
		tr.Add("first", p[32*n:96*n+160])
		ch := tr.Challenges("c", 1)[0]

		mul := func(e group.Element, s group.Scalar) group.Element { return g.NewElement().Mul(e, s) }
		gen := func(s group.Scalar) group.Element { return g.NewElement().MulGen(s) }
		sum := func(es ...group.Element) group.Element {
			acc := g.Identity()
			for _, e := range es {
				acc.Add(acc, e)
			}
			return acc
		}
		neg := func(e group.Element) group.Element { return g.NewElement().Neg(e) }
		sumC, sumH, sumUC, sumSH, sumSD, sumUD := g.Identity(), g.Identity(), g.Identity(), g.Identity(), g.Identity(), g.Identity()
		prodU := g.NewScalar().SetUint64(1)
		for i := range n {
			sumC.Add(sumC, c[i])
			sumH.Add(sumH, H[i+1])
			sumUC.Add(sumUC, mul(c[i], u[i]))
			sumSH.Add(sumSH, mul(H[i+1], sP[i]))
			sumSD.Add(sumSD, mul(Dp[i], sP[i]))
			sumUD.Add(sumUD, mul(D[i], u[i]))
			prodU.Mul(prodU, u[i])
		}
		ok := gen(ss[0]).IsEqual(sum(ts[0], mul(sum(sumC, neg(sumH)), ch))) &&
			gen(ss[1]).IsEqual(sum(ts[1], mul(sum(cHat[n-1], neg(mul(H[0], prodU))), ch))) &&
			sum(gen(ss[2]), sumSH).IsEqual(sum(ts[2], mul(sumUC, ch))) &&
			sum(sumSD, neg(mul(sumUD, ss[3]))).IsEqual(ts[3]) &&
			gen(ss[3]).IsEqual(sum(ts[4], mul(K, ch)))
		prev := H[0]
		for i := range n {
			ok = ok && sum(gen(sHat[i]), mul(prev, sP[i])).IsEqual(sum(tHat[i], mul(cHat[i], ch)))
			prev = cHat[i]
		}
		want := v.Expect == "accept"
		if ok != want {
			t.Errorf("%s: SPEC.md equations say %v, vector expects %s", v.Name, ok, v.Expect)
		}
		if ok {
			accepted++
		}
	}
	if accepted < 2 {
		t.Fatalf("only %d vectors accepted by the SPEC.md equations", accepted)
	}
}
