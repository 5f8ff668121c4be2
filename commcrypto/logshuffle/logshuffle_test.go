package logshuffle

import (
	"crypto/rand"
	"errors"
	"fmt"
	"testing"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

var testCtx = transcript.Context{Version: "mentalmj/test", GameID: make([]byte, 32), Hand: 1, Pass: 2, Prover: []byte("prover")}

// pass returns the first N tile points, a shuffle pass of them under a
// fresh key and permutation, and the key and permutation.
func pass(t testing.TB, bigN int) (in, out []commcrypto.Element, k commcrypto.Scalar, perm []int) {
	t.Helper()
	in = commcrypto.NewTileTable().Points()[:bigN]
	k, err := commcrypto.NewKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	perm, err = commcrypto.Permutation(rand.Reader, bigN)
	if err != nil {
		t.Fatal(err)
	}
	out = make([]commcrypto.Element, bigN)
	for i := range out {
		out[i] = commcrypto.Lock(k, in[perm[i]])
	}
	return in, out, k, perm
}

func TestProveVerify(t *testing.T) {
	for _, bigN := range []int{1, 3, 4, 5, 12, 13, 108, 136} {
		t.Run(fmt.Sprint(bigN), func(t *testing.T) {
			p := NewParams(bigN)
			in, out, k, perm := pass(t, bigN)
			pr, err := Prove(p, testCtx, in, out, k, perm, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			K := commcrypto.Commit(k)
			if err := Verify(p, testCtx, in, out, K, pr); err != nil {
				t.Fatalf("honest proof: %v", err)
			}
			enc := pr.Bytes()
			if len(enc) != Size(bigN) {
				t.Fatalf("%d bytes, Size says %d", len(enc), Size(bigN))
			}
			dec, err := Decode(enc, bigN)
			if err != nil {
				t.Fatal(err)
			}
			if err := Verify(p, testCtx, in, out, K, dec); err != nil {
				t.Fatalf("decoded proof: %v", err)
			}
		})
	}
}

func TestSizes(t *testing.T) {
	// 74 values for n = 144 (N = 136, f = 9), 68 for n = 112 (N = 108, f = 7).
	for _, c := range []struct{ bigN, n, bytes int }{{136, 144, 2368}, {108, 112, 2176}, {4, 16, 50 * 32}, {13, 32, 53 * 32}} {
		if got := VectorLength(c.bigN); got != c.n {
			t.Errorf("VectorLength(%d) = %d, want %d", c.bigN, got, c.n)
		}
		if got := Size(c.bigN); got != c.bytes {
			t.Errorf("Size(%d) = %d, want %d", c.bigN, got, c.bytes)
		}
	}
}

// A false statement: the honest prover on a deck that is not k·π(D)
// (one element replaced, a different key, a duplicated element) yields a
// proof that Verify rejects.
func TestFalseStatementsRejected(t *testing.T) {
	const bigN = 12
	p := NewParams(bigN)
	in, out, k, perm := pass(t, bigN)
	K := commcrypto.Commit(k)
	other, _ := commcrypto.NewKey(rand.Reader)
	cases := map[string]func() ([]commcrypto.Element, commcrypto.Scalar, commcrypto.Element){
		"element replaced": func() ([]commcrypto.Element, commcrypto.Scalar, commcrypto.Element) {
			o := append([]commcrypto.Element{}, out...)
			o[3] = commcrypto.Lock(other, in[perm[3]])
			return o, k, K
		},
		"element duplicated": func() ([]commcrypto.Element, commcrypto.Scalar, commcrypto.Element) {
			o := append([]commcrypto.Element{}, out...)
			o[3] = o[4]
			return o, k, K
		},
		"another key committed": func() ([]commcrypto.Element, commcrypto.Scalar, commcrypto.Element) {
			return out, k, commcrypto.Commit(other)
		},
		"deck under another key": func() ([]commcrypto.Element, commcrypto.Scalar, commcrypto.Element) {
			return commcrypto.LockAll(other, out), k, K
		},
	}
	for name, f := range cases {
		o, key, KK := f()
		pr, err := Prove(p, testCtx, in, o, key, perm, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(p, testCtx, in, o, KK, pr); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Verify = %v, want ErrInvalid", name, err)
		}
	}
}

// A proof verifies only for its own context and statement.
func TestBinding(t *testing.T) {
	const bigN = 12
	p := NewParams(bigN)
	in, out, k, perm := pass(t, bigN)
	K := commcrypto.Commit(k)
	pr, err := Prove(p, testCtx, in, out, k, perm, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ctxs := map[string]transcript.Context{}
	c := testCtx
	c.Hand++
	ctxs["hand"] = c
	c = testCtx
	c.Pass++
	ctxs["pass"] = c
	c = testCtx
	c.Prover = []byte("another")
	ctxs["prover"] = c
	c = testCtx
	c.GameID = append([]byte{1}, testCtx.GameID[1:]...)
	ctxs["game"] = c
	c = testCtx
	c.Version = "mentalmj/other"
	ctxs["version"] = c
	for name, c := range ctxs {
		if err := Verify(p, c, in, out, K, pr); !errors.Is(err, ErrInvalid) {
			t.Errorf("another %s: %v, want ErrInvalid", name, err)
		}
	}
	// Another input deck (the tile points reversed).
	rev := make([]commcrypto.Element, bigN)
	for i := range rev {
		rev[i] = in[bigN-1-i]
	}
	if err := Verify(p, testCtx, rev, out, K, pr); !errors.Is(err, ErrInvalid) {
		t.Errorf("another input: %v", err)
	}
}

// Every value of an encoded proof matters: flipping one bit of any
// 32-byte value makes Decode or Verify fail.
func TestEveryValueTampered(t *testing.T) {
	const bigN = 5
	p := NewParams(bigN)
	in, out, k, perm := pass(t, bigN)
	K := commcrypto.Commit(k)
	pr, err := Prove(p, testCtx, in, out, k, perm, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	enc := pr.Bytes()
	for i := 0; i < len(enc)/size; i++ {
		bad := append([]byte{}, enc...)
		bad[i*size] ^= 0x04
		dec, err := Decode(bad, bigN)
		if err != nil {
			if !errors.Is(err, ErrEncoding) {
				t.Errorf("value %d: %v", i, err)
			}
			continue
		}
		if err := Verify(p, testCtx, in, out, K, dec); !errors.Is(err, ErrInvalid) {
			t.Errorf("value %d tampered: Verify = %v", i, err)
		}
	}
}

func TestDecodeStrict(t *testing.T) {
	const bigN = 4
	p := NewParams(bigN)
	in, out, k, perm := pass(t, bigN)
	pr, err := Prove(p, testCtx, in, out, k, perm, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	enc := pr.Bytes()
	for _, l := range []int{0, len(enc) - 1, len(enc) + 1, len(enc) + 32} {
		b := make([]byte, l)
		copy(b, enc)
		if _, err := Decode(b, bigN); !errors.Is(err, ErrEncoding) {
			t.Errorf("length %d: %v", l, err)
		}
	}
	// The identity as M (value 0), a non-canonical element (all 0xff),
	// r_p = ℓ (value 5, non-canonical scalar).
	ell := []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	for name, f := range map[string]func(b []byte){
		"identity": func(b []byte) { clear(b[:32]) },
		"non-canonical": func(b []byte) {
			copy(b[32:64], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
		},
		"scalar ℓ": func(b []byte) { copy(b[5*32:6*32], ell) },
	} {
		b := append([]byte{}, enc...)
		f(b)
		if _, err := Decode(b, bigN); !errors.Is(err, ErrEncoding) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestBatch(t *testing.T) {
	const bigN = 12
	p := NewParams(bigN)
	b := NewBatch(p, nil)
	var bad int
	for i := range 4 {
		in, out, k, perm := pass(t, bigN)
		K := commcrypto.Commit(k)
		if i == 2 {
			other, _ := commcrypto.NewKey(rand.Reader)
			K = commcrypto.Commit(other)
			bad = i
		}
		pr, err := Prove(p, testCtx, in, out, k, perm, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Add(testCtx, in, out, K, pr); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Failed(); len(got) != 1 || got[0] != bad {
		t.Fatalf("Failed() = %v, want [%d]", got, bad)
	}
	good := NewBatch(p, nil)
	for range 3 {
		in, out, k, perm := pass(t, bigN)
		pr, _ := Prove(p, testCtx, in, out, k, perm, rand.Reader)
		if _, err := good.Add(testCtx, in, out, commcrypto.Commit(k), pr); err != nil {
			t.Fatal(err)
		}
	}
	if got := good.Failed(); got != nil {
		t.Fatalf("honest batch: Failed() = %v", got)
	}
}

func BenchmarkProve136(b *testing.B)  { benchProve(b, 136) }
func BenchmarkProve108(b *testing.B)  { benchProve(b, 108) }
func BenchmarkVerify136(b *testing.B) { benchVerify(b, 136) }
func BenchmarkVerify108(b *testing.B) { benchVerify(b, 108) }

func benchProve(b *testing.B, bigN int) {
	p := NewParams(bigN)
	in, out, k, perm := pass(b, bigN)
	var pr *Proof
	for b.Loop() {
		var err error
		if pr, err = Prove(p, testCtx, in, out, k, perm, rand.Reader); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(pr.Bytes())), "proof-bytes")
}

func benchVerify(b *testing.B, bigN int) {
	p := NewParams(bigN)
	in, out, k, perm := pass(b, bigN)
	pr, err := Prove(p, testCtx, in, out, k, perm, rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	K := commcrypto.Commit(k)
	for b.Loop() {
		if err := Verify(p, testCtx, in, out, K, pr); err != nil {
			b.Fatal(err)
		}
	}
}
