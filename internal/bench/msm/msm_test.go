// Package msm_test compares, in one run, the bucket multi-scalar
// multiplication of mentalmj/commcrypto/msm (on circl's public group
// operations) with github.com/gtank/ristretto255's VarTimeMultiScalarMult
// (Straus with wNAF on filippo.io/edwards25519). It lives in its own module
// so that the product's go.mod does not depend on gtank/ristretto255.
package msm_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"filippo.io/edwards25519"
	"github.com/cloudflare/circl/group"
	gtank "github.com/gtank/ristretto255"

	"github.com/mentalmj/mentalmj/commcrypto/msm"
)

func mustScalar(b []byte) *edwards25519.Scalar {
	s, err := edwards25519.NewScalar().SetCanonicalBytes(b)
	if err != nil {
		panic(err)
	}
	return s
}

// inputs returns n points and scalars for circl, the same for gtank, and n
// edwards25519 points and scalars (of the same size, for
// filippo.io/edwards25519's VarTimeMultiScalarMult).
func inputs(n int) ([]group.Scalar, []group.Element, []*gtank.Scalar, []*gtank.Element, []*edwards25519.Scalar, []*edwards25519.Point) {
	g := group.Ristretto255
	cs := make([]group.Scalar, n)
	cp := make([]group.Element, n)
	ts := make([]*gtank.Scalar, n)
	tp := make([]*gtank.Element, n)
	fs := make([]*edwards25519.Scalar, n)
	fp := make([]*edwards25519.Point, n)
	for i := range n {
		var idx [8]byte
		binary.LittleEndian.PutUint64(idx[:], uint64(i))
		cp[i] = g.HashToElement(idx[:], []byte("bench/msm/point"))
		cs[i] = g.HashToScalar(idx[:], []byte("bench/msm/scalar"))
		pb, _ := cp[i].MarshalBinary()
		sb, _ := cs[i].MarshalBinary()
		tp[i], ts[i] = gtank.NewElement(), gtank.NewScalar()
		if err := tp[i].Decode(pb); err != nil {
			panic(err)
		}
		if err := ts[i].Decode(sb); err != nil {
			panic(err)
		}
		var ep edwards25519.Point
		fp[i] = ep.ScalarBaseMult(mustScalar(sb))
		fs[i] = mustScalar(sb)
	}
	return cs, cp, ts, tp, fs, fp
}

// TestSameResult checks that both libraries compute the same sum (and so
// that the benchmarks compare equal work).
func TestSameResult(t *testing.T) {
	cs, cp, ts, tp, _, _ := inputs(136)
	a, err := msm.MultiScalarMult(cs, cp)
	if err != nil {
		t.Fatal(err)
	}
	b := gtank.NewElement().VarTimeMultiScalarMult(ts, tp)
	ab, _ := a.MarshalBinary()
	if string(ab) != string(b.Encode(nil)) {
		t.Fatal("circl bucket MSM and gtank VarTimeMultiScalarMult differ")
	}
}

func BenchmarkMSM(b *testing.B) {
	for _, n := range []int{136, 409, 681, 820} {
		cs, cp, ts, tp, fs, fp := inputs(n)
		b.Run(fmt.Sprintf("circl-pippenger/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := msm.MultiScalarMult(cs, cp); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("gtank-straus/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				gtank.NewElement().VarTimeMultiScalarMult(ts, tp)
			}
		})
		b.Run(fmt.Sprintf("edwards25519-straus/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				new(edwards25519.Point).VarTimeMultiScalarMult(fs, fp)
			}
		})
	}
}
