package shuffleproof

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
// with a second verifier written from SPEC.md §12: the generators, the
// transcript, then the N + 5 equations one by one (no batching), on
// circl's public group operations. It must agree with every vector's
// expected outcome.
func TestVectorsSpecEquations(t *testing.T) {
	g := group.Ristretto255
	accepted := 0
	for _, v := range readVectorFile(t) {
		n := v.n
		if len(v.proof) != Size(n) {
			continue // rejected by length alone (SPEC.md §12)
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
		D, ok1 := elems(v.in)
		Dp, ok2 := elems(v.out)
		K, ok3 := elem(v.key)
		if !(ok1 && ok2 && ok3) {
			t.Fatalf("%s: statement does not decode", v.name)
		}
		p := v.proof
		c, okc := elems(p[:32*n])
		cHat, okh := elems(p[32*n : 64*n])
		ts, okt := elems(p[64*n : 64*n+160])
		tHat, okth := elems(p[64*n+160 : 96*n+160])
		ss, oks := scalars(p[96*n+160 : 96*n+288])
		sHat, oksh := scalars(p[96*n+288 : 128*n+288])
		sP, oksp := scalars(p[128*n+288:])
		if !(okc && okh && okt && okth && oks && oksh && oksp) {
			if v.expect != "reject-encoding" {
				t.Errorf("%s: the proof does not decode, but the vector expects %s", v.name, v.expect)
			}
			continue
		}
		H := make([]group.Element, n+1)
		for i := range H {
			H[i] = g.HashToElement(binary.BigEndian.AppendUint32(nil, uint32(i)), []byte("mentalmj/v1/shuffleproof/generator"))
		}
		tr := &specTranscript{h: sha512.New(), domain: "mentalmj/v1/shuffleproof"}
		tr.add("domain", []byte("mentalmj/v1/shuffleproof"))
		tr.add("version", []byte(v.ctx.Version))
		tr.add("game", v.ctx.GameID)
		tr.addUint("hand", uint64(v.ctx.Hand))
		tr.addUint("pass", uint64(v.ctx.Pass))
		tr.add("prover", v.ctx.Prover)
		tr.addUint("n", uint64(n))
		tr.add("input", v.in)
		tr.add("output", v.out)
		tr.add("key", v.key)
		tr.add("c", p[:32*n])
		u := tr.challenges("u", n)
		tr.add("first", p[32*n:96*n+160])
		ch := tr.challenges("c", 1)[0]

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
