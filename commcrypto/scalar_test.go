package commcrypto

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestNewKey(t *testing.T) {
	const n = 400
	seen := map[string]bool{}
	var ones [252]int // how often each bit below 2^252 is set
	for range n {
		k := mustKey(t)
		b := k.Bytes()
		if len(b) != ScalarSize {
			t.Fatalf("len = %d", len(b))
		}
		if k.IsZero() || bytes.Equal(b, make([]byte, ScalarSize)) {
			t.Fatal("zero key")
		}
		if _, err := DecodeScalar(b); err != nil {
			t.Fatalf("NewKey produced a non-canonical key: %v", err)
		}
		if seen[string(b)] {
			t.Fatal("repeated key")
		}
		seen[string(b)] = true
		for i := range ones {
			ones[i] += int(b[i/8]>>(i%8)) & 1
		}
	}
	// Uniform on [1, ℓ) with ℓ ≈ 2^252: every bit below 252 is set with
	// probability ≈ 1/2. Binomial(400, 1/2) has σ = 10; allow ±10σ.
	for i, c := range ones {
		if c < n/2-100 || c > n/2+100 {
			t.Errorf("bit %d set in %d of %d keys", i, c, n)
		}
	}
}

// scripted is a reader that returns the given chunks in order, then EOF.
type scripted struct{ chunks [][]byte }

func (s *scripted) Read(p []byte) (int, error) {
	if len(s.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, s.chunks[0])
	s.chunks[0] = s.chunks[0][n:]
	if len(s.chunks[0]) == 0 {
		s.chunks = s.chunks[1:]
	}
	return n, nil
}

func TestNewKeyRejectionSampling(t *testing.T) {
	ell := mustHex(t, "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	seven := make([]byte, 32)
	seven[0] = 7
	topBits := bytes.Clone(seven)
	topBits[31] = 0xe0 // masked away: 7 + 7·2^253 reads as 7
	cases := []struct {
		name   string
		chunks [][]byte
		want   []byte
	}{
		{"accept first", [][]byte{seven}, seven},
		{"reject ℓ", [][]byte{ell, seven}, seven},
		{"reject zero", [][]byte{make([]byte, 32), seven}, seven},
		{"mask top bits", [][]byte{topBits}, seven},
		{"short reads", [][]byte{seven[:5], seven[5:]}, seven},
	}
	for _, c := range cases {
		k, err := NewKey(&scripted{chunks: c.chunks})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !bytes.Equal(k.Bytes(), c.want) {
			t.Errorf("%s: got %x, want %x", c.name, k.Bytes(), c.want)
		}
	}
}

func TestNewKeyErrors(t *testing.T) {
	if _, err := NewKey(nil); !errors.Is(err, ErrRandomSource) {
		t.Errorf("nil reader: %v", err)
	}
	if _, err := NewKey(&scripted{}); !errors.Is(err, ErrRandomSource) {
		t.Errorf("empty reader: %v", err)
	}
	if _, err := NewKey(&scripted{chunks: [][]byte{make([]byte, 20)}}); !errors.Is(err, ErrRandomSource) {
		t.Errorf("short reader: %v", err)
	}
	// A stuck source of 0xff bytes: every candidate is 2^253 − 1 ≥ ℓ.
	if _, err := NewKey(bytes.NewReader(bytes.Repeat([]byte{0xff}, 32*maxRejections+32))); !errors.Is(err, ErrRandomSource) {
		t.Errorf("stuck reader: %v", err)
	}
	// A stuck source of zeros.
	if _, err := NewKey(bytes.NewReader(make([]byte, 32*maxRejections))); !errors.Is(err, ErrRandomSource) {
		t.Errorf("zero reader: %v", err)
	}
}

func TestDecodeScalarErrors(t *testing.T) {
	one := smallScalar(t, 1).Bytes()
	for _, n := range []int{0, 31, 33, 64} {
		b := make([]byte, n)
		copy(b, one)
		if _, err := DecodeScalar(b); !errors.Is(err, ErrScalarLength) {
			t.Errorf("%d bytes: %v", n, err)
		}
	}
	if _, err := DecodeScalar(make([]byte, 32)); !errors.Is(err, ErrZeroScalar) {
		t.Errorf("zero: %v", err)
	}
	if _, err := DecodeScalar(bytes.Repeat([]byte{0xff}, 32)); !errors.Is(err, ErrScalarEncoding) {
		t.Errorf("2^256−1: %v", err)
	}
}

func TestScalarArithmetic(t *testing.T) {
	one := ProductOf()
	if !one.Equal(smallScalar(t, 1)) {
		t.Fatal("ProductOf() != 1")
	}
	a, b, c := mustKey(t), mustKey(t), mustKey(t)
	if !a.Mul(a.Inverse()).Equal(one) {
		t.Error("a·a⁻¹ != 1")
	}
	if !a.Inverse().Inverse().Equal(a) {
		t.Error("(a⁻¹)⁻¹ != a")
	}
	if !a.Mul(b).Equal(b.Mul(a)) {
		t.Error("ab != ba")
	}
	if !ProductOf(a, b, c).Equal(a.Mul(b).Mul(c)) || !ProductOf(c, a, b).Equal(ProductOf(a, b, c)) {
		t.Error("ProductOf wrong")
	}
	if !ProductOf(a).Equal(a) {
		t.Error("ProductOf(a) != a")
	}
	if a.Equal(b) || a.Equal(Scalar{}) || !(Scalar{}).Equal(Scalar{}) {
		t.Error("Equal wrong")
	}
	// Known answer: 2⁻¹ = (ℓ+1)/2.
	half := mustDecodeScalar(t, "f7e97a2e8d31092c6bce7b51ef7c6f0a00000000000000000000000000000008")
	if !smallScalar(t, 2).Inverse().Equal(half) {
		t.Errorf("2⁻¹ = %x", smallScalar(t, 2).Inverse().Bytes())
	}
	if (Scalar{}).Bytes() != nil {
		t.Error("unset Bytes != nil")
	}
	mustPanic(t, "Inverse(unset)", func() { Scalar{}.Inverse() })
	mustPanic(t, "Mul(unset)", func() { a.Mul(Scalar{}) })
	mustPanic(t, "ProductOf(unset)", func() { ProductOf(a, Scalar{}) })
}

// Keys never reach logs through fmt.
func TestScalarRedacted(t *testing.T) {
	k := mustKey(t)
	secret := hex.EncodeToString(k.Bytes())
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
		out := fmt.Sprintf(verb, k)
		if strings.Contains(out, secret) || strings.Contains(out, secret[:16]) {
			t.Errorf("%s printed the key: %s", verb, out)
		}
		out = fmt.Sprintf(verb, []Scalar{k})
		if strings.Contains(out, secret[:16]) {
			t.Errorf("%s of slice printed the key: %s", verb, out)
		}
	}
}

func FuzzDecodeScalar(f *testing.F) {
	f.Add(make([]byte, 32))
	f.Add(bytes.Repeat([]byte{0xff}, 32))
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeScalar(b)
		if err != nil {
			return
		}
		if !bytes.Equal(s.Bytes(), b) {
			t.Fatalf("accepted %x, re-encodes as %x", b, s.Bytes())
		}
		if !s.Mul(s.Inverse()).Equal(ProductOf()) {
			t.Fatal("accepted a non-invertible scalar")
		}
	})
}
