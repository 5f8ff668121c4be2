package rekeyproof

import (
	"crypto/sha512"
	"encoding/binary"
	"hash"
	"testing"

	"github.com/cloudflare/circl/group"
)

// specTranscript is the Fiat–Shamir transcript of SPEC.md §11, written
// again from the text on crypto/sha512 and circl's public HashToScalar.
type specTranscript struct {
	h      hash.Hash
	domain string
}

func (t *specTranscript) add(label string, data []byte) {
	t.h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(label))))
	t.h.Write([]byte(label))
	t.h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(data))))
	t.h.Write(data)
}

func (t *specTranscript) addUint(label string, v uint64) {
	t.add(label, binary.BigEndian.AppendUint64(nil, v))
}

func (t *specTranscript) challenges(label string, m int) []group.Scalar {
	d := t.h.Sum(nil)
	var all []byte
	out := make([]group.Scalar, m)
	for i := range out {
		out[i] = group.Ristretto255.HashToScalar(binary.BigEndian.AppendUint32(append([]byte{}, d...), uint32(i)), []byte(t.domain+"/"+label))
		b, _ := out[i].MarshalBinary()
		all = append(all, b...)
	}
	t.add(label, all)
	return out
}

// TestVectorsSpecEquations checks every vector of testdata/vectors.txt
// with a second verifier written from SPEC.md §13: the transcript, then
// the n + 1 equations one by one (no batching), on circl's public group
// operations. It must agree with Verify on every vector that decodes.
func TestVectorsSpecEquations(t *testing.T) {
	g := group.Ristretto255
	accepted := 0
	for _, v := range readVectorFile(t) {
		n := v.n
		if len(v.proof) != Size(n) {
			continue // rejected by length alone (SPEC.md §13)
		}
		elem := func(b []byte) (group.Element, bool) {
			e := g.NewElement()
			return e, e.UnmarshalBinary(b) == nil && !e.IsIdentity()
		}
		elems := func(b []byte) ([]group.Element, bool) {
			out := make([]group.Element, len(b)/32)
			for i := range out {
				var ok bool
				if out[i], ok = elem(b[32*i : 32*i+32]); !ok {
					return nil, false
				}
			}
			return out, true
		}
		C, ok1 := elems(v.in)
		Cp, ok2 := elems(v.out)
		R, ok3 := elems(v.commit)
		K, ok4 := elem(v.key)
		A, ok5 := elems(v.proof[:32*n])
		B, ok6 := elem(v.proof[32*n : 32*n+32])
		if !(ok1 && ok2 && ok3 && ok4) {
			t.Fatalf("%s: statement does not decode", v.name)
		}
		if !ok5 || !ok6 {
			if v.expect != "reject-encoding" {
				t.Errorf("%s: a proof element does not decode, but the vector expects %s", v.name, v.expect)
			}
			continue
		}
		z := make([]group.Scalar, n)
		zok := true
		for i := range z {
			z[i] = g.NewScalar()
			zok = zok && z[i].UnmarshalBinary(v.proof[32*(n+1+i):32*(n+2+i)]) == nil
		}
		if !zok {
			if v.expect != "reject-encoding" {
				t.Errorf("%s: a response is not canonical, but the vector expects %s", v.name, v.expect)
			}
			continue
		}
		tr := &specTranscript{h: sha512.New(), domain: "mentalmj/v1/rekeyproof"}
		tr.add("domain", []byte("mentalmj/v1/rekeyproof"))
		tr.add("version", []byte(v.ctx.Version))
		tr.add("game", v.ctx.GameID)
		tr.addUint("hand", uint64(v.ctx.Hand))
		tr.addUint("pass", uint64(v.ctx.Pass))
		tr.add("prover", v.ctx.Prover)
		tr.addUint("n", uint64(n))
		tr.add("key", v.key)
		tr.add("input", v.in)
		tr.add("output", v.out)
		tr.add("commitments", v.commit)
		tr.add("a", v.proof[:32*n])
		beta := tr.challenges("beta", n)
		tr.add("b", v.proof[32*n:32*n+32])
		e := tr.challenges("e", 1)[0]

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

		want := v.expect == "accept"
		if ok != want {
			t.Errorf("%s: SPEC.md equations say %v, vector expects %s", v.name, ok, v.expect)
		}
		if ok {
			accepted++
		}
	}
	if accepted < 2 {
		t.Fatalf("only %d vectors accepted by the SPEC.md equations", accepted)
	}
}
