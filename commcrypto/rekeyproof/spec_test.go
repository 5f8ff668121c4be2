package rekeyproof

import (
	"testing"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto/internal/spectranscript"
)

// TestVectorsSpecEquations checks every vector of testdata/vectors.txt
// with a second verifier written from SPEC.md §13: the transcript, then
// the n + 1 equations one by one (no batching), on circl's public group
// operations. It must agree with Verify on every vector that decodes.
func TestVectorsSpecEquations(t *testing.T) {
	g := group.Ristretto255
	accepted := 0
	for _, v := range readVectorFile(t) {
		n := v.N
		if len(v.Proof) != Size(n) {
			continue // rejected by length alone (SPEC.md §13)
		}
		C, ok1 := spectranscript.Elements(v.Input)
		Cp, ok2 := spectranscript.Elements(v.Output)
		R, ok3 := spectranscript.Elements(v.Commitments)
		K, ok4 := spectranscript.Element(v.Key)
		A, ok5 := spectranscript.Elements(v.Proof[:32*n])
		B, ok6 := spectranscript.Element(v.Proof[32*n : 32*n+32])
		if !(ok1 && ok2 && ok3 && ok4) {
			t.Fatalf("%s: statement does not decode", v.Name)
		}
		if !ok5 || !ok6 {
			if v.Expect != "reject-encoding" {
				t.Errorf("%s: a proof element does not decode, but the vector expects %s", v.Name, v.Expect)
			}
			continue
		}
		z := make([]group.Scalar, n)
		zok := true
		for i := range z {
			z[i] = g.NewScalar()
			zok = zok && z[i].UnmarshalBinary(v.Proof[32*(n+1+i):32*(n+2+i)]) == nil
		}
		if !zok {
			if v.Expect != "reject-encoding" {
				t.Errorf("%s: a response is not canonical, but the vector expects %s", v.Name, v.Expect)
			}
			continue
		}
		tr := spectranscript.New("mentalmj/v1/rekeyproof")
		tr.Add("domain", []byte("mentalmj/v1/rekeyproof"))
		tr.Add("version", []byte(v.Ctx.Version))
		tr.Add("game", v.Ctx.GameID)
		tr.AddUint("hand", uint64(v.Ctx.Hand))
		tr.AddUint("pass", uint64(v.Ctx.Pass))
		tr.Add("prover", v.Ctx.Prover)
		tr.AddUint("n", uint64(n))
		tr.Add("key", v.Key)
		tr.Add("input", v.Input)
		tr.Add("output", v.Output)
		tr.Add("commitments", v.Commitments)
		tr.Add("a", v.Proof[:32*n])
		beta := tr.Challenges("beta", n)
		tr.Add("b", v.Proof[32*n:32*n+32])
		e := tr.Challenges("e", 1)[0]

		ok := true
		bz, bR := g.NewScalar(), g.Identity()
		for i := range n {
			// z_i·C_i = A_i + e·C'_i
			lhs := g.NewElement().Mul(C[i], z[i])
			rhs := g.NewElement().Mul(Cp[i], e)
			rhs.Add(rhs, A[i])
			ok = ok && lhs.IsEqual(rhs)
			bz.Add(bz, g.NewScalar().Mul(beta[i], z[i]))
			bR.Add(bR, g.NewElement().Mul(R[i], beta[i]))
		}
		// (Σ β_i z_i)·K = B + e·Σ β_i R_i
		rhs := g.NewElement().Mul(bR, e)
		rhs.Add(rhs, B)
		ok = ok && g.NewElement().Mul(K, bz).IsEqual(rhs)

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
