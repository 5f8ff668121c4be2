package logrekey

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"testing"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/internal/fold"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

var tiles = commcrypto.NewTileTable()

func testCtx() transcript.Context {
	return transcript.Context{Version: "test/1", GameID: bytes.Repeat([]byte{7}, 32), Hand: 3, Pass: 2, Prover: []byte("prover-peer-id")}
}

// rekey is an honest rekey pass of N positions of a wall locked under k:
// out[i] = (r_i·k⁻¹)·in[i], commits[i] = r_i·G.
type rekey struct {
	K            commcrypto.Element
	s            []commcrypto.Scalar
	in, out, com []commcrypto.Element
}

func honest(t testing.TB, n int) rekey {
	t.Helper()
	k, err := commcrypto.NewKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rk := rekey{K: commcrypto.Commit(k), in: commcrypto.LockAll(k, tiles.Points()[:n])}
	var rs []commcrypto.Scalar
	for range n {
		r, err := commcrypto.NewKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
		rk.com = append(rk.com, commcrypto.Commit(r))
	}
	rk.s = commcrypto.RekeyFactors(rs, k)
	for i := range n {
		rk.out = append(rk.out, commcrypto.Lock(rk.s[i], rk.in[i]))
	}
	return rk
}

func (rk rekey) prove(t testing.TB) *Proof {
	t.Helper()
	pr, err := Prove(testCtx(), rk.K, rk.in, rk.out, rk.com, rk.s, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func (rk rekey) verify(ctx transcript.Context, pr *Proof) error {
	return Verify(ctx, rk.K, rk.in, rk.out, rk.com, pr)
}

func TestProveVerify(t *testing.T) {
	for _, n := range []int{1, 2, 3, 8, 17, 32, 48, 108, 136} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			rk := honest(t, n)
			pr := rk.prove(t)
			if err := rk.verify(testCtx(), pr); err != nil {
				t.Fatalf("honest: %v", err)
			}
			enc := pr.Bytes()
			if len(enc) != Size(n) {
				t.Fatalf("%d bytes, Size %d", len(enc), Size(n))
			}
			dec, err := Decode(enc, n)
			if err != nil {
				t.Fatal(err)
			}
			if err := rk.verify(testCtx(), dec); err != nil {
				t.Fatalf("decoded: %v", err)
			}
			if !bytes.Equal(dec.Bytes(), enc) {
				t.Fatal("re-encoding differs")
			}
		})
	}
}

func TestSizes(t *testing.T) {
	for _, c := range []struct{ n, r, f, bytes int }{{136, 3, 17, 768}, {108, 2, 27, 1024}, {1, 0, 1, 64}, {48, 4, 3, 384}, {64, 4, 4, 416}} {
		r, f := Shape(c.n)
		if r != c.r || f != c.f || Size(c.n) != c.bytes {
			t.Errorf("N=%d: r=%d f=%d size=%d, want %d %d %d", c.n, r, f, Size(c.n), c.r, c.f, c.bytes)
		}
	}
}

// The cheats: the honest prover on a false statement yields a proof that
// Verify rejects. "swap" exchanges two positions' outputs, the attack a
// single weight vector would let through (see the package doc).
func TestFalseStatementsRejected(t *testing.T) {
	for name, f := range map[string]func(rk *rekey){
		"swap": func(rk *rekey) { rk.out[3], rk.out[5] = rk.out[5], rk.out[3] },
		"swap with factors": func(rk *rekey) {
			rk.out[3], rk.out[5] = commcrypto.Lock(rk.s[3], rk.in[5]), commcrypto.Lock(rk.s[5], rk.in[3])
		},
		"wrong commitment": func(rk *rekey) {
			r, _ := commcrypto.NewKey(rand.Reader)
			rk.com[2] = commcrypto.Commit(r)
		},
		"output off": func(rk *rekey) { rk.out[7] = commcrypto.Lock(rk.s[7], rk.out[7]) },
		"another tile": func(rk *rekey) {
			rk.out[0] = commcrypto.Lock(rk.s[0], tiles.Point(100))
		},
		"wrong key": func(rk *rekey) {
			k, _ := commcrypto.NewKey(rand.Reader)
			rk.K = commcrypto.Commit(k)
		},
	} {
		rk := honest(t, 16)
		f(&rk)
		pr, err := Prove(testCtx(), rk.K, rk.in, rk.out, rk.com, rk.s, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if err := rk.verify(testCtx(), pr); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
}

// TestAdaptiveSwapRejected: a prover that swaps two positions' outputs
// and picks its witness after seeing the weights, x_a = ρ_b·s_b/ρ_a and
// x_b = ρ_a·s_a/ρ_b, satisfies the C part of <x, U> = P; with one weight
// vector (ρ' = ρ) it would satisfy the K part too. The independent ρ'
// makes it fail.
func TestAdaptiveSwapRejected(t *testing.T) {
	rk := honest(t, 16)
	const a, b = 3, 5
	rk.out[a], rk.out[b] = commcrypto.Lock(rk.s[a], rk.in[b]), commcrypto.Lock(rk.s[b], rk.in[a])
	st, err := open(testCtx(), rk.K, rk.in, rk.out, rk.com)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]group.Scalar, 16)
	for i := range x {
		x[i] = rk.s[i].GroupScalar()
	}
	x[a] = fold.Mul(fold.Mul(st.rho[b], rk.s[b].GroupScalar()), fold.Inv(st.rho[a]))
	x[b] = fold.Mul(fold.Mul(st.rho[a], rk.s[a].GroupScalar()), fold.Inv(st.rho[b]))
	pr, err := prove(st, x, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if err := rk.verify(testCtx(), pr); !errors.Is(err, ErrInvalid) {
		t.Fatalf("adaptive swap: %v, want ErrInvalid", err)
	}
}

func TestBinding(t *testing.T) {
	rk := honest(t, 16)
	pr := rk.prove(t)
	for name, f := range map[string]func(c *transcript.Context){
		"hand":    func(c *transcript.Context) { c.Hand++ },
		"pass":    func(c *transcript.Context) { c.Pass++ },
		"prover":  func(c *transcript.Context) { c.Prover = []byte("x") },
		"game":    func(c *transcript.Context) { c.GameID = bytes.Repeat([]byte{8}, 32) },
		"version": func(c *transcript.Context) { c.Version = "test/2" },
	} {
		c := testCtx()
		f(&c)
		if err := rk.verify(c, pr); !errors.Is(err, ErrInvalid) {
			t.Errorf("another %s: %v", name, err)
		}
	}
}

func TestEveryValueTampered(t *testing.T) {
	rk := honest(t, 24) // r = 3, f = 3
	enc := rk.prove(t).Bytes()
	for i := 0; i < len(enc)/size; i++ {
		bad := bytes.Clone(enc)
		bad[i*size] ^= 0x04
		dec, err := Decode(bad, 24)
		if err != nil {
			if !errors.Is(err, ErrEncoding) {
				t.Errorf("value %d: %v", i, err)
			}
			continue
		}
		if err := rk.verify(testCtx(), dec); !errors.Is(err, ErrInvalid) {
			t.Errorf("value %d tampered: %v", i, err)
		}
	}
}

func TestDecodeStrict(t *testing.T) {
	rk := honest(t, 8)
	enc := rk.prove(t).Bytes()
	for _, l := range []int{0, len(enc) - 1, len(enc) + 1, len(enc) + 32} {
		b := make([]byte, l)
		copy(b, enc)
		if _, err := Decode(b, 8); !errors.Is(err, ErrEncoding) {
			t.Errorf("length %d: %v", l, err)
		}
	}
	orderLE := []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	for name, f := range map[string]func(b []byte){
		"identity":      func(b []byte) { clear(b[:32]) },
		"non-canonical": func(b []byte) { copy(b[32:64], bytes.Repeat([]byte{0xff}, 32)) },
		"scalar ℓ":      func(b []byte) { copy(b[len(b)-32:], orderLE) },
	} {
		b := bytes.Clone(enc)
		f(b)
		if _, err := Decode(b, 8); !errors.Is(err, ErrEncoding) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestBatch(t *testing.T) {
	b := NewBatch(nil)
	for i := range 4 {
		rk := honest(t, 16)
		if i == 1 {
			rk.out[3], rk.out[5] = rk.out[5], rk.out[3]
		}
		pr, err := Prove(testCtx(), rk.K, rk.in, rk.out, rk.com, rk.s, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Add(testCtx(), rk.K, rk.in, rk.out, rk.com, pr); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Failed(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("Failed() = %v, want [1]", got)
	}
	good := NewBatch(nil)
	for range 3 {
		rk := honest(t, 16)
		if _, err := good.Add(testCtx(), rk.K, rk.in, rk.out, rk.com, rk.prove(t)); err != nil {
			t.Fatal(err)
		}
	}
	if got := good.Failed(); got != nil {
		t.Fatalf("honest batch: %v", got)
	}
}

func FuzzDecode(f *testing.F) {
	rk := honest(f, 8)
	f.Add(rk.prove(f).Bytes(), 8)
	f.Add([]byte{}, 0)
	f.Add(make([]byte, Size(136)), 136)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		pr, err := Decode(b, n)
		if err != nil {
			if !errors.Is(err, ErrEncoding) && !errors.Is(err, ErrStatement) {
				t.Fatalf("Decode: %v", err)
			}
			return
		}
		if !bytes.Equal(pr.Bytes(), b) {
			t.Fatal("re-encoding differs")
		}
		if n == 8 {
			if err := rk.verify(testCtx(), pr); err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("Verify: %v", err)
			}
		}
	})
}

func BenchmarkProve136(b *testing.B)  { benchProve(b, 136) }
func BenchmarkProve108(b *testing.B)  { benchProve(b, 108) }
func BenchmarkVerify136(b *testing.B) { benchVerify(b, 136) }
func BenchmarkVerify108(b *testing.B) { benchVerify(b, 108) }

func benchProve(b *testing.B, n int) {
	rk := honest(b, n)
	var pr *Proof
	for b.Loop() {
		pr = rk.prove(b)
	}
	b.ReportMetric(float64(len(pr.Bytes())), "proof-bytes")
}

func benchVerify(b *testing.B, n int) {
	rk := honest(b, n)
	pr := rk.prove(b)
	for b.Loop() {
		if err := rk.verify(testCtx(), pr); err != nil {
			b.Fatal(err)
		}
	}
}
