package shuffleproof

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
	return transcript.Context{Version: "test/1", GameID: bytes.Repeat([]byte{7}, 32), Hand: 3, Pass: 1, Prover: []byte("prover-peer-id")}
}

// pass makes an honest shuffle pass of the first n tile points:
// out[i] = k·in[perm[i]].
type pass struct {
	in, out []commcrypto.Element
	k       commcrypto.Scalar
	K       commcrypto.Element
	perm    []int
}

func honest(t testing.TB, n int) pass {
	t.Helper()
	in := tiles.Points()[:n]
	k, err := commcrypto.NewKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	perm, err := commcrypto.Permutation(rand.Reader, n)
	if err != nil {
		t.Fatal(err)
	}
	locked := commcrypto.LockAll(k, in)
	out := make([]commcrypto.Element, n)
	for i, j := range perm {
		out[i] = locked[j]
	}
	return pass{in: in, out: out, k: k, K: commcrypto.Commit(k), perm: perm}
}

func prove(t testing.TB, p *Params, ps pass) *Proof {
	t.Helper()
	pr, err := Prove(p, testCtx(), ps.in, ps.out, ps.k, ps.perm, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

func TestCompleteness(t *testing.T) {
	for _, n := range []int{1, 2, 5, 136} {
		p := NewParams(n)
		ps := honest(t, n)
		pr := prove(t, p, ps)
		if err := Verify(p, testCtx(), ps.in, ps.out, ps.K, pr); err != nil {
			t.Fatalf("n=%d: honest pass rejected: %v", n, err)
		}
		// The encoding round-trips and the decoded proof verifies.
		b := pr.Bytes()
		if len(b) != Size(n) {
			t.Fatalf("n=%d: %d bytes, want %d", n, len(b), Size(n))
		}
		back, err := Decode(b, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(p, testCtx(), ps.in, ps.out, ps.K, back); err != nil {
			t.Fatalf("n=%d: decoded proof rejected: %v", n, err)
		}
	}
}

func mustReject(t *testing.T, name string, err error) {
	t.Helper()
	if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrStatement) {
		t.Errorf("%s: err = %v, want a rejection", name, err)
	}
}

// Each cheat is proved by a prover that tries its best with the honest
// witness (Prove does not check the statement), and must not verify.
func TestSoundness(t *testing.T) {
	const n = 16
	p := NewParams(n)
	ctx := testCtx()
	cheat := func(name string, mutate func(ps *pass)) {
		ps := honest(t, n)
		mutate(&ps)
		pr, err := Prove(p, ctx, ps.in, ps.out, ps.k, ps.perm, rand.Reader)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mustReject(t, name, Verify(p, ctx, ps.in, ps.out, ps.K, pr))
	}
	cheat("drop one element (replaced by a copy of another)", func(ps *pass) {
		ps.out[3] = ps.out[4]
	})
	cheat("duplicate one element", func(ps *pass) {
		ps.out[0] = ps.out[n-1]
	})
	cheat("replace one element by a fresh tile", func(ps *pass) {
		ps.out[5] = commcrypto.Lock(ps.k, tiles.Points()[n+10])
	})
	cheat("one element under a second key", func(ps *pass) {
		k2, _ := commcrypto.NewKey(rand.Reader)
		ps.out[7] = commcrypto.Lock(k2, ps.in[ps.perm[7]])
	})
	cheat("two keys, half each", func(ps *pass) {
		k2, _ := commcrypto.NewKey(rand.Reader)
		for i := 0; i < n/2; i++ {
			ps.out[i] = commcrypto.Lock(k2, ps.in[ps.perm[i]])
		}
	})
	cheat("one element off (the element doubled)", func(ps *pass) {
		two := commcrypto.ProductOf(ps.k, scalar(t, 2))
		ps.out[9] = commcrypto.Lock(two, ps.in[ps.perm[9]])
	})
	cheat("key commitment of another key", func(ps *pass) {
		k2, _ := commcrypto.NewKey(rand.Reader)
		ps.K = commcrypto.Commit(k2)
	})
	cheat("claimed permutation differs from the one applied", func(ps *pass) {
		ps.perm[0], ps.perm[1] = ps.perm[1], ps.perm[0]
	})
	// The honest proof of one pass for another statement.
	ps := honest(t, n)
	pr := prove(t, p, ps)
	other := honest(t, n)
	mustReject(t, "proof of another pass", Verify(p, ctx, other.in, other.out, other.K, pr))
	swapped := append([]commcrypto.Element(nil), ps.out...)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	mustReject(t, "output reordered after proving", Verify(p, ctx, ps.in, swapped, ps.K, pr))
}

func TestReplayOtherContext(t *testing.T) {
	const n = 8
	p := NewParams(n)
	ps := honest(t, n)
	pr := prove(t, p, ps)
	for name, mod := range map[string]func(*transcript.Context){
		"another hand":    func(c *transcript.Context) { c.Hand++ },
		"another player":  func(c *transcript.Context) { c.Prover = []byte("other-peer") },
		"another pass":    func(c *transcript.Context) { c.Pass++ },
		"another game":    func(c *transcript.Context) { c.GameID = bytes.Repeat([]byte{8}, 32) },
		"another version": func(c *transcript.Context) { c.Version = "test/2" },
	} {
		c := testCtx()
		mod(&c)
		mustReject(t, name, Verify(p, c, ps.in, ps.out, ps.K, pr))
	}
}

// Flipping any one bit of the encoding must make the proof fail to decode
// or fail to verify.
func TestFlippedBytes(t *testing.T) {
	const n = 4
	p := NewParams(n)
	ps := honest(t, n)
	b := prove(t, p, ps).Bytes()
	for off := 0; off < len(b); off++ {
		for _, bit := range []byte{0x01, 0x80} {
			c := bytes.Clone(b)
			c[off] ^= bit
			pr, err := Decode(c, n)
			if err != nil {
				if !errors.Is(err, ErrEncoding) {
					t.Fatalf("byte %d: decode err %v, want ErrEncoding", off, err)
				}
				continue
			}
			if Verify(p, testCtx(), ps.in, ps.out, ps.K, pr) == nil {
				t.Fatalf("byte %d bit %#x flipped: proof still verifies", off, bit)
			}
		}
	}
}

func TestDecodeStrict(t *testing.T) {
	const n = 3
	p := NewParams(n)
	ps := honest(t, n)
	b := prove(t, p, ps).Bytes()
	for _, l := range []int{0, 1, len(b) - 1, len(b) + 1, len(b) + 32, 2 * len(b)} {
		c := make([]byte, l)
		copy(c, b)
		if _, err := Decode(c, n); !errors.Is(err, ErrEncoding) {
			t.Errorf("length %d: err = %v, want ErrEncoding", l, err)
		}
	}
	for _, n := range []int{0, -1, MaxN + 1} {
		if _, err := Decode(b, n); !errors.Is(err, ErrEncoding) {
			t.Errorf("n=%d: err = %v, want ErrEncoding", n, err)
		}
	}
	// The identity as an element.
	c := bytes.Clone(b)
	clear(c[:32])
	if _, err := Decode(c, n); !errors.Is(err, ErrEncoding) {
		t.Errorf("identity element: err = %v", err)
	}
	// ℓ as the last scalar (non-canonical).
	c = bytes.Clone(b)
	copy(c[len(c)-32:], orderLE)
	if _, err := Decode(c, n); !errors.Is(err, ErrEncoding) {
		t.Errorf("scalar ℓ: err = %v", err)
	}
	// A non-canonical field element (all 0xff) as an element.
	c = bytes.Clone(b)
	copy(c[32:64], bytes.Repeat([]byte{0xff}, 32))
	if _, err := Decode(c, n); !errors.Is(err, ErrEncoding) {
		t.Errorf("non-canonical element: err = %v", err)
	}
}

func TestVerifyMalformedStatement(t *testing.T) {
	const n = 4
	p := NewParams(n)
	ps := honest(t, n)
	pr := prove(t, p, ps)
	if err := Verify(p, testCtx(), ps.in[:3], ps.out, ps.K, pr); !errors.Is(err, ErrStatement) {
		t.Errorf("short input: %v", err)
	}
	if err := Verify(p, testCtx(), ps.in, ps.out, ps.K, &Proof{}); !errors.Is(err, ErrStatement) {
		t.Errorf("empty proof: %v", err)
	}
	if err := Verify(NewParams(5), testCtx(), ps.in, ps.out, ps.K, pr); !errors.Is(err, ErrStatement) {
		t.Errorf("params for another n: %v", err)
	}
}

// orderLE is ℓ = 2^252 + 27742317777372353535851937790883648493
// little-endian (RFC 9496 section 4.4), the smallest non-canonical scalar.
var orderLE = []byte{
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
}

func scalar(t testing.TB, v byte) commcrypto.Scalar {
	b := make([]byte, 32)
	b[0] = v
	s, err := commcrypto.DecodeScalar(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func FuzzDecode(f *testing.F) {
	const n = 2
	p := NewParams(n)
	ps := honest(f, n)
	f.Add(prove(f, p, ps).Bytes(), uint16(n))
	f.Add([]byte{}, uint16(0))
	f.Add(make([]byte, Size(n)), uint16(n))
	f.Fuzz(func(t *testing.T, b []byte, m uint16) {
		pr, err := Decode(b, int(m))
		if err != nil {
			if !errors.Is(err, ErrEncoding) {
				t.Fatalf("error %v does not wrap ErrEncoding", err)
			}
			return
		}
		if !bytes.Equal(pr.Bytes(), b) {
			t.Fatal("decoded proof does not re-encode to its bytes")
		}
		if int(m) == n {
			_ = Verify(p, testCtx(), ps.in, ps.out, ps.K, pr) // must not panic
		}
	})
}

func BenchmarkProve136(b *testing.B) { benchProve(b, 136) }
func BenchmarkProve108(b *testing.B) { benchProve(b, 108) }

// benchProve reports the proof's size as "proof-bytes" beside the time.
func benchProve(b *testing.B, n int) {
	p := NewParams(n)
	ps := honest(b, n)
	var pr *Proof
	for b.Loop() {
		pr = prove(b, p, ps)
	}
	b.ReportMetric(float64(len(pr.Bytes())), "proof-bytes")
}

func BenchmarkVerify108(b *testing.B) {
	p := NewParams(108)
	ps := honest(b, 108)
	pr := prove(b, p, ps)
	for b.Loop() {
		if err := Verify(p, testCtx(), ps.in, ps.out, ps.K, pr); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify136(b *testing.B) {
	p := NewParams(136)
	ps := honest(b, 136)
	pr := prove(b, p, ps)
	for b.Loop() {
		if err := Verify(p, testCtx(), ps.in, ps.out, ps.K, pr); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeVerify136 adds strict decoding of the proof bytes, as a
// node does on receiving a pass.
func BenchmarkDecodeVerify136(b *testing.B) {
	p := NewParams(136)
	ps := honest(b, 136)
	enc := prove(b, p, ps).Bytes()
	for b.Loop() {
		pr, err := Decode(enc, 136)
		if err != nil {
			b.Fatal(err)
		}
		if err := Verify(p, testCtx(), ps.in, ps.out, ps.K, pr); err != nil {
			b.Fatal(err)
		}
	}
}
