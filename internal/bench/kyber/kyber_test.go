// Package kyber_test measures, in one run, kyber's Neff shuffle of 136
// ElGamal pairs (go.dedis.ch/kyber/v4/shuffle, the ACM CCS 2001 argument
// over edwards25519) against mentalmj's shuffle argument
// (commcrypto/shuffleproof, Terelius–Wikström for D' = π(k·D) over
// ristretto255) for a 136-tile pass. It is a module of its own so that the
// product's go.mod never depends on kyber.
//
// The Go module proxy refuses go.dedis.ch modules (403), so the module
// cannot be resolved from the proxy: point go.dedis.ch/kyber/v4 and
// go.dedis.ch/fixbuf at local checkouts of their GitHub repositories
// (github.com/dedis/kyber at v4.0.2, github.com/dedis/fixbuf) with a
// -modfile, as README.md here shows.
package kyber_test

import (
	"crypto/rand"
	"testing"

	"go.dedis.ch/kyber/v4"
	"go.dedis.ch/kyber/v4/group/edwards25519"
	"go.dedis.ch/kyber/v4/proof"
	"go.dedis.ch/kyber/v4/shuffle"
	"go.dedis.ch/kyber/v4/xof/blake2xb"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/shuffleproof"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

const n = 136

// elGamal returns n ElGamal encryptions (X, Y) of random points under the
// key H, as kyber's own shuffle test builds them.
func elGamal(suite *edwards25519.SuiteEd25519) (H kyber.Point, X, Y []kyber.Point) {
	rnd := suite.RandomStream()
	H = suite.Point().Mul(suite.Scalar().Pick(rnd), nil)
	X, Y = make([]kyber.Point, n), make([]kyber.Point, n)
	for i := range n {
		m := suite.Point().Mul(suite.Scalar().Pick(rnd), nil)
		r := suite.Scalar().Pick(rnd)
		X[i] = suite.Point().Mul(r, nil)
		Y[i] = suite.Point().Mul(r, H)
		Y[i].Add(Y[i], m)
	}
	return H, X, Y
}

func TestKyberNeffRejectsASwap(t *testing.T) {
	suite := edwards25519.NewBlakeSHA256Ed25519WithRand(blake2xb.New(nil))
	H, X, Y := elGamal(suite)
	Xb, Yb, prover := shuffle.Shuffle(suite, nil, H, X, Y, suite.RandomStream())
	prf, err := proof.HashProve(suite, "PairShuffle", prover)
	if err != nil {
		t.Fatal(err)
	}
	if err := proof.HashVerify(suite, "PairShuffle", shuffle.Verifier(suite, nil, H, X, Y, Xb, Yb), prf); err != nil {
		t.Fatalf("honest kyber shuffle rejected: %v", err)
	}
	Xb[0], Xb[1] = Xb[1], Xb[0]
	if proof.HashVerify(suite, "PairShuffle", shuffle.Verifier(suite, nil, H, X, Y, Xb, Yb), prf) == nil {
		t.Fatal("kyber accepted a swapped shuffle")
	}
}

func BenchmarkKyberNeff136(b *testing.B) {
	suite := edwards25519.NewBlakeSHA256Ed25519WithRand(blake2xb.New(nil))
	H, X, Y := elGamal(suite)
	Xb, Yb, prover := shuffle.Shuffle(suite, nil, H, X, Y, suite.RandomStream())
	prf, err := proof.HashProve(suite, "PairShuffle", prover)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("prove", func(b *testing.B) {
		for b.Loop() {
			_, _, p := shuffle.Shuffle(suite, nil, H, X, Y, suite.RandomStream())
			if _, err := proof.HashProve(suite, "PairShuffle", p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			if err := proof.HashVerify(suite, "PairShuffle", shuffle.Verifier(suite, nil, H, X, Y, Xb, Yb), prf); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(prf)), "proof-bytes")
	})
}

func BenchmarkMentalmj136(b *testing.B) {
	tiles := commcrypto.NewTileTable().Points()
	k, _ := commcrypto.NewKey(rand.Reader)
	perm, _ := commcrypto.Permutation(rand.Reader, n)
	locked := commcrypto.LockAll(k, tiles)
	out := make([]commcrypto.Element, n)
	for i, j := range perm {
		out[i] = locked[j]
	}
	params := shuffleproof.NewParams(n)
	ctx := transcript.Context{Version: "bench", GameID: make([]byte, 32), Hand: 1, Prover: []byte("bench")}
	pr, err := shuffleproof.Prove(params, ctx, tiles, out, k, perm, rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	enc := pr.Bytes()
	K := commcrypto.Commit(k)
	b.Run("prove", func(b *testing.B) {
		for b.Loop() {
			if _, err := shuffleproof.Prove(params, ctx, tiles, out, k, perm, rand.Reader); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			p, err := shuffleproof.Decode(enc, n)
			if err != nil {
				b.Fatal(err)
			}
			if err := shuffleproof.Verify(params, ctx, tiles, out, K, p); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(enc)), "proof-bytes")
	})
}
