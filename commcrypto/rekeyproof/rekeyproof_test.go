package rekeyproof

import (
	"bytes"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/mentalmj/mentalmj/commcrypto"
	"github.com/mentalmj/mentalmj/commcrypto/transcript"
)

var tiles = commcrypto.NewTileTable()

func testCtx() transcript.Context {
	return transcript.Context{Version: "test/1", GameID: bytes.Repeat([]byte{7}, 32), Hand: 3, Pass: 2, Prover: []byte("prover-peer-id")}
}

// rekey is an honest rekey pass of n positions of a wall locked under k:
// out[i] = (r_i·k⁻¹)·in[i], commits[i] = r_i·G.
type rekey struct {
	k            commcrypto.Scalar
	K            commcrypto.Element
	r, s         []commcrypto.Scalar
	in, out, com []commcrypto.Element
}

func honest(t testing.TB, n int) rekey {
	t.Helper()
	k, err := commcrypto.NewKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rk := rekey{k: k, K: commcrypto.Commit(k), in: commcrypto.LockAll(k, tiles.Points()[:n])}
	for range n {
		r, err := commcrypto.NewKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		rk.r = append(rk.r, r)
		rk.com = append(rk.com, commcrypto.Commit(r))
	}
	rk.s = commcrypto.RekeyFactors(rk.r, k)
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

func TestCompleteness(t *testing.T) {
	for _, n := range []int{1, 2, 9, 136} {
		rk := honest(t, n)
		pr := rk.prove(t)
		if err := rk.verify(testCtx(), pr); err != nil {
			t.Fatalf("n=%d: honest rekey rejected: %v", n, err)
		}
		b := pr.Bytes()
		if len(b) != Size(n) {
			t.Fatalf("n=%d: %d bytes, want %d", n, len(b), Size(n))
		}
		back, err := Decode(b, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := rk.verify(testCtx(), back); err != nil {
			t.Fatalf("n=%d: decoded proof rejected: %v", n, err)
		}
	}
}

func rejected(err error) bool {
	return errors.Is(err, ErrInvalid) || errors.Is(err, ErrStatement)
}

func TestSoundness(t *testing.T) {
	const n = 12
	cases := map[string]func(rk *rekey){
		// The wall at one position rekeyed with another factor; the
		// prover uses that factor (it knows it), the commitment stays.
		"one wrong wall position": func(rk *rekey) {
			x, _ := commcrypto.NewKey(rand.Reader)
			rk.out[4] = commcrypto.Lock(x, rk.in[4])
			rk.s[4] = x
		},
		// The commitment of one position does not match its factor.
		"one wrong commitment": func(rk *rekey) {
			x, _ := commcrypto.NewKey(rand.Reader)
			rk.com[7] = commcrypto.Commit(x)
		},
		// Two positions swapped in the output wall.
		"two positions swapped": func(rk *rekey) {
			rk.out[1], rk.out[2] = rk.out[2], rk.out[1]
		},
		// The rekey of another key: commitments consistent with k' ≠ k.
		"rekey from another key": func(rk *rekey) {
			k2, _ := commcrypto.NewKey(rand.Reader)
			rk.s = commcrypto.RekeyFactors(rk.r, k2)
			for i := range rk.out {
				rk.out[i] = commcrypto.Lock(rk.s[i], rk.in[i])
			}
		},
		// Wrong factor at one position, honest everywhere else.
		"one factor off": func(rk *rekey) {
			rk.s[0] = rk.s[0].Mul(rk.s[0])
		},
	}
	for name, mutate := range cases {
		rk := honest(t, n)
		mutate(&rk)
		pr, err := Prove(testCtx(), rk.K, rk.in, rk.out, rk.com, rk.s, rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		if err := rk.verify(testCtx(), pr); !rejected(err) {
			t.Errorf("%s: err = %v, want a rejection", name, err)
		}
	}
	// An honest proof checked against another player's key commitment.
	rk := honest(t, n)
	pr := rk.prove(t)
	other := honest(t, n)
	if err := Verify(testCtx(), other.K, rk.in, rk.out, rk.com, pr); !rejected(err) {
		t.Errorf("another key commitment: err = %v", err)
	}
}

func TestReplayOtherContext(t *testing.T) {
	rk := honest(t, 5)
	pr := rk.prove(t)
	for name, mod := range map[string]func(*transcript.Context){
		"another hand":   func(c *transcript.Context) { c.Hand++ },
		"another player": func(c *transcript.Context) { c.Prover = []byte("x") },
		"another pass":   func(c *transcript.Context) { c.Pass = 0 },
		"another game":   func(c *transcript.Context) { c.GameID = nil },
	} {
		c := testCtx()
		mod(&c)
		if err := rk.verify(c, pr); !rejected(err) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestFlippedBytes(t *testing.T) {
	rk := honest(t, 3)
	b := rk.prove(t).Bytes()
	for off := range b {
		for _, bit := range []byte{0x01, 0x80} {
			c := bytes.Clone(b)
			c[off] ^= bit
			pr, err := Decode(c, 3)
			if err != nil {
				if !errors.Is(err, ErrEncoding) {
					t.Fatalf("byte %d: %v", off, err)
				}
				continue
			}
			if rk.verify(testCtx(), pr) == nil {
				t.Fatalf("byte %d bit %#x flipped: still verifies", off, bit)
			}
		}
	}
}

func TestDecodeStrict(t *testing.T) {
	rk := honest(t, 2)
	b := rk.prove(t).Bytes()
	for _, l := range []int{0, 31, len(b) - 1, len(b) + 1, 4 * len(b)} {
		if _, err := Decode(make([]byte, l), 2); !errors.Is(err, ErrEncoding) {
			t.Errorf("length %d: %v", l, err)
		}
	}
	for _, n := range []int{0, -3, MaxN + 1} {
		if _, err := Decode(b, n); !errors.Is(err, ErrEncoding) {
			t.Errorf("n=%d: %v", n, err)
		}
	}
	c := bytes.Clone(b)
	clear(c[32:64])
	if _, err := Decode(c, 2); !errors.Is(err, ErrEncoding) {
		t.Errorf("identity: %v", err)
	}
	c = bytes.Clone(b)
	for i := len(c) - 32; i < len(c); i++ {
		c[i] = 0xff
	}
	if _, err := Decode(c, 2); !errors.Is(err, ErrEncoding) {
		t.Errorf("scalar 2^256−1: %v", err)
	}
	if err := rk.verify(testCtx(), &Proof{}); !errors.Is(err, ErrStatement) {
		t.Errorf("empty proof: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	rk := honest(f, 2)
	f.Add(rk.prove(f).Bytes(), uint16(2))
	f.Add([]byte{1, 2, 3}, uint16(0))
	f.Fuzz(func(t *testing.T, b []byte, n uint16) {
		pr, err := Decode(b, int(n))
		if err != nil {
			if !errors.Is(err, ErrEncoding) {
				t.Fatalf("error %v does not wrap ErrEncoding", err)
			}
			return
		}
		if !bytes.Equal(pr.Bytes(), b) {
			t.Fatal("does not re-encode to its bytes")
		}
		if n == 2 {
			_ = rk.verify(testCtx(), pr)
		}
	})
}

func BenchmarkProve136(b *testing.B) { benchProve(b, 136) }
func BenchmarkProve108(b *testing.B) { benchProve(b, 108) }

// benchProve reports the proof's size as "proof-bytes" beside the time.
func benchProve(b *testing.B, n int) {
	rk := honest(b, n)
	var pr *Proof
	for b.Loop() {
		pr = rk.prove(b)
	}
	b.ReportMetric(float64(len(pr.Bytes())), "proof-bytes")
}

func BenchmarkVerify108(b *testing.B) {
	rk := honest(b, 108)
	pr := rk.prove(b)
	for b.Loop() {
		if err := rk.verify(testCtx(), pr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify136(b *testing.B) {
	rk := honest(b, 136)
	pr := rk.prove(b)
	for b.Loop() {
		if err := rk.verify(testCtx(), pr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeVerify136(b *testing.B) {
	rk := honest(b, 136)
	enc := rk.prove(b).Bytes()
	for b.Loop() {
		pr, err := Decode(enc, 136)
		if err != nil {
			b.Fatal(err)
		}
		if err := rk.verify(testCtx(), pr); err != nil {
			b.Fatal(err)
		}
	}
}
