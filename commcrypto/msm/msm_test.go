package msm

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/cloudflare/circl/group"
)

// inputs returns n hashed points and n scalars derived from seed, with the
// first scalars set to edge values (0, 1, ℓ−1, 2^252 region) to exercise
// the signed-digit carries.
func inputs(t testing.TB, n int, seed string) ([]group.Scalar, []group.Element) {
	t.Helper()
	ss := make([]group.Scalar, n)
	ps := make([]group.Element, n)
	for i := range n {
		var idx [8]byte
		binary.LittleEndian.PutUint64(idx[:], uint64(i))
		ps[i] = g.HashToElement(append([]byte(seed), idx[:]...), []byte("mentalmj/test/msm/point"))
		ss[i] = g.HashToScalar(append([]byte(seed), idx[:]...), []byte("mentalmj/test/msm/scalar"))
	}
	if n > 0 {
		ss[0] = g.NewScalar() // 0
	}
	if n > 1 {
		ss[1] = g.NewScalar().SetUint64(1)
	}
	if n > 2 {
		ss[2] = g.NewScalar().Neg(g.NewScalar().SetUint64(1)) // ℓ − 1
	}
	if n > 3 {
		// All-ones low bytes: maximal digits in every window.
		h := sha256.Sum256([]byte(seed))
		h[31] = 0x0f
		for k := range 31 {
			h[k] = 0xff
		}
		s := g.NewScalar()
		if err := s.UnmarshalBinary(h[:]); err != nil {
			t.Fatal(err)
		}
		ss[3] = s
	}
	if n > 4 {
		ps[4] = ps[3].Copy() // a repeated point
	}
	return ss, ps
}

// naive is the second code path: n separate constant-time scalar
// multiplications of circl, summed.
func naive(ss []group.Scalar, ps []group.Element) group.Element {
	acc := g.Identity()
	for i := range ps {
		acc.Add(acc, g.NewElement().Mul(ps[i], ss[i]))
	}
	return acc
}

func TestMultiScalarMultMatchesNaiveSum(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 5, 17, 64, 136, 300, 700} {
		ss, ps := inputs(t, n, fmt.Sprint("n", n))
		got, err := MultiScalarMult(ss, ps)
		if err != nil {
			t.Fatal(err)
		}
		if want := naive(ss, ps); !got.IsEqual(want) {
			t.Errorf("n=%d: MSM differs from the naive sum", n)
		}
	}
}

func TestMultiScalarMultEveryWindow(t *testing.T) {
	// Every window width, on the same inputs, against the naive sum.
	ss, ps := inputs(t, 40, "windows")
	want := naive(ss, ps)
	for c := 1; c <= 12; c++ {
		if got := multiScalarMultWindow(ss, ps, c); !got.IsEqual(want) {
			t.Errorf("c=%d: MSM differs from the naive sum", c)
		}
	}
}

func TestMultiScalarMultCancels(t *testing.T) {
	// s·P + (−s)·P = O: a deliberate cancellation must give the identity.
	ss, ps := inputs(t, 10, "cancel")
	ss = append(ss, g.NewScalar().Neg(ss[7]))
	ps = append(ps, ps[7].Copy())
	got, err := MultiScalarMult(ss, ps)
	if err != nil {
		t.Fatal(err)
	}
	want := naive(ss[:7], ps[:7])
	want.Add(want, naive(ss[8:10], ps[8:10]))
	if !got.IsEqual(want) {
		t.Error("cancelling pair not cancelled")
	}
}

func TestMultiScalarMultLengthMismatch(t *testing.T) {
	ss, ps := inputs(t, 3, "len")
	if _, err := MultiScalarMult(ss[:2], ps); err == nil {
		t.Error("want an error for 2 scalars and 3 points")
	}
}

func TestSignedDigits(t *testing.T) {
	ss, _ := inputs(t, 8, "digits")
	for c := 1; c <= 12; c++ {
		for i, s := range ss {
			b, _ := s.MarshalBinary()
			d := signedDigits(b, c)
			// Σ d_w·2^(c·w) recomputed in the scalar field.
			acc := g.NewScalar()
			base := g.NewScalar().SetUint64(1 << c)
			for w := len(d) - 1; w >= 0; w-- {
				acc.Mul(acc, base)
				v := g.NewScalar().SetUint64(uint64(abs(int(d[w]))))
				if d[w] < 0 {
					v.Neg(v)
				}
				acc.Add(acc, v)
				if abs(int(d[w])) > 1<<(c-1) {
					t.Fatalf("c=%d scalar %d: digit %d out of range", c, i, d[w])
				}
			}
			if !acc.IsEqual(s) {
				t.Errorf("c=%d scalar %d: digits do not recompose", c, i)
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func BenchmarkMultiScalarMult(b *testing.B) {
	for _, n := range []int{136, 409, 681, 820} {
		ss, ps := inputs(b, n, "bench")
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := MultiScalarMult(ss, ps); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkNaive136(b *testing.B) {
	ss, ps := inputs(b, 136, "bench")
	for b.Loop() {
		naive(ss, ps)
	}
}

// The split over goroutines against the single-range computation and the
// naive sum, for sizes around the threshold and every GOMAXPROCS split.
func TestMultiScalarMultParallelSplit(t *testing.T) {
	for _, n := range []int{parallelMin - 1, parallelMin, 200} {
		ss, ps := inputs(t, n, fmt.Sprint("split", n))
		want := naive(ss, ps)
		for c := 3; c <= 9; c++ {
			digits := make([][]int16, n)
			for i, s := range ss {
				b, _ := s.MarshalBinary()
				digits[i] = signedDigits(b, c)
			}
			if got := windowRange(ps, digits, c, 0, len(digits[0])); !got.IsEqual(want) {
				t.Errorf("n=%d c=%d: single range differs from the naive sum", n, c)
			}
			if got := multiScalarMultWindow(ss, ps, c); !got.IsEqual(want) {
				t.Errorf("n=%d c=%d: split differs from the naive sum", n, c)
			}
		}
	}
}

// The table's sums against the naive sum (the second code path), with
// repeated and permuted indices and the edge scalars of inputs.
func TestTableMatchesNaiveSum(t *testing.T) {
	ss, ps := inputs(t, 40, "table")
	tab := NewTable(ps)
	for _, n := range []int{0, 1, 5, 40} {
		idx := make([]int, n)
		sub := make([]group.Element, n)
		for i := range idx {
			idx[i] = (7 * i) % len(ps)
			sub[i] = ps[idx[i]]
		}
		got, err := tab.MultiScalarMult(idx, ss[:n])
		if err != nil {
			t.Fatal(err)
		}
		if !got.IsEqual(naive(ss[:n], sub)) {
			t.Errorf("n=%d: table sum differs from the naive sum", n)
		}
	}
	if _, err := tab.MultiScalarMult([]int{40}, ss[:1]); err == nil {
		t.Error("an index out of range is accepted")
	}
	if _, err := tab.MultiScalarMult([]int{0, 1}, ss[:1]); err == nil {
		t.Error("slices of different lengths are accepted")
	}
}

func BenchmarkTable72(b *testing.B) {
	ss, ps := inputs(b, 144, "bench")
	tab := NewTable(ps)
	idx := make([]int, 72)
	for i := range idx {
		idx[i] = 2 * i
	}
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			if _, err := tab.MultiScalarMult(idx, ss[:72]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bucket", func(b *testing.B) {
		sub := make([]group.Element, 72)
		for i := range sub {
			sub[i] = ps[idx[i]]
		}
		for b.Loop() {
			if _, err := MultiScalarMult(ss[:72], sub); err != nil {
				b.Fatal(err)
			}
		}
	})
}
