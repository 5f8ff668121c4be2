package logrekey

import (
	"testing"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto/internal/spectranscript"
	"github.com/mentalmj/mentalmj/internal/proofvector"
)

// TestVectorsSpecEquation checks every vector with a second verifier
// written from SPEC.md §13.1 alone: r and f from N, the layout, the §11
// transcript (spectranscript), then the one equation with the folded
// bases U computed explicitly round by round (U ← U_lo + δ·U_hi) and
// each side summed term by term with circl's scalar multiplication.
func TestVectorsSpecEquation(t *testing.T) {
	for _, v := range readVectorFile(t) {
		if got := specVerify(t, v); got != v.Expect {
			t.Errorf("%s: spec verifier says %s, want %s", v.Name, got, v.Expect)
		}
	}
}

func specVerify(t *testing.T, v proofvector.Vector) string {
	g := group.Ristretto255
	N := v.N
	r, f := 0, N
	for r < 4 && f%2 == 0 {
		r, f = r+1, f/2
	}
	if len(v.Proof) != 32*(1+2*r+f) {
		return "reject-encoding"
	}
	es, ok := spectranscript.Elements(v.Proof[:32*(1+2*r)])
	if !ok {
		return "reject-encoding"
	}
	xs := make([]group.Scalar, f)
	for q := range f {
		xs[q] = g.NewScalar()
		at := 32 * (1 + 2*r + q)
		if xs[q].UnmarshalBinary(v.Proof[at:at+32]) != nil {
			return "reject-encoding"
		}
	}
	C, ok1 := spectranscript.Elements(v.Input)
	Cp, ok2 := spectranscript.Elements(v.Output)
	R, ok3 := spectranscript.Elements(v.Commitments)
	K, ok4 := spectranscript.Element(v.Key)
	if !(ok1 && ok2 && ok3 && ok4) {
		t.Fatalf("%s: statement does not decode", v.Name)
	}
	tr := spectranscript.New("mentalmj/v1/logrekey")
	tr.Add("domain", []byte("mentalmj/v1/logrekey"))
	tr.Add("version", []byte(v.Ctx.Version))
	tr.Add("game", v.Ctx.GameID)
	tr.AddUint("hand", uint64(v.Ctx.Hand))
	tr.AddUint("pass", uint64(v.Ctx.Pass))
	tr.Add("prover", v.Ctx.Prover)
	tr.AddUint("n", uint64(N))
	tr.Add("key", v.Key)
	tr.Add("input", v.Input)
	tr.Add("output", v.Output)
	tr.Add("commitments", v.Commitments)
	w := tr.Challenges("rho", 2*N)
	rho, rhoP := w[:N], w[N:]
	tr.Add("blind", v.Proof[:32])
	mu := tr.Challenges("mu", 1)[0]
	del := make([]group.Scalar, r)
	for j := range r {
		tr.Add("round", v.Proof[32*(1+2*j):32*(3+2*j)])
		del[j] = tr.Challenges("delta", 1)[0]
		if del[j].IsZero() {
			return "reject-invalid"
		}
	}
	mulAdd := func(acc group.Element, s group.Scalar, e group.Element) group.Element {
		return g.NewElement().Add(acc, g.NewElement().Mul(e, s))
	}
	// U_k, then fold explicitly.
	U := make([]group.Element, N)
	for k := range N {
		U[k] = mulAdd(g.NewElement().Mul(C[k], rho[k]), rhoP[k], K)
	}
	for j := range r {
		h := len(U) / 2
		next := make([]group.Element, h)
		for i := range h {
			next[i] = mulAdd(U[i], del[j], U[i+h])
		}
		U = next
	}
	lhs := es[0]
	for k := range N {
		lhs = mulAdd(lhs, mu, mulAdd(g.NewElement().Mul(Cp[k], rho[k]), rhoP[k], R[k]))
	}
	for j := range r {
		lhs = mulAdd(lhs, del[j], es[1+2*j])
		lhs = mulAdd(lhs, g.NewScalar().Inv(del[j]), es[2+2*j])
	}
	rhs := g.Identity()
	for q := range f {
		rhs = mulAdd(rhs, xs[q], U[q])
	}
	if !lhs.IsEqual(rhs) {
		return "reject-invalid"
	}
	return "accept"
}
