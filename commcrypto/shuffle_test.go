package commcrypto

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	mrand "math/rand/v2"
	"testing"
)

func TestPermutationIsPermutation(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 136} {
		p, err := Permutation(rand.Reader, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(p) != n {
			t.Fatalf("len = %d", len(p))
		}
		seen := make([]bool, n)
		for _, v := range p {
			if v < 0 || v >= n || seen[v] {
				t.Fatalf("n=%d: not a permutation: %v", n, p)
			}
			seen[v] = true
		}
	}
}

func TestPermutationErrors(t *testing.T) {
	if _, err := Permutation(nil, 3); !errors.Is(err, ErrRandomSource) {
		t.Errorf("nil: %v", err)
	}
	if _, err := Permutation(rand.Reader, -1); !errors.Is(err, ErrRandomSource) {
		t.Errorf("negative: %v", err)
	}
	if _, err := Permutation(bytes.NewReader(make([]byte, 8)), 3); !errors.Is(err, ErrRandomSource) {
		t.Errorf("short reader: %v", err)
	}
	// For n = 3 the first draw is from [0,3); 2^64 mod 3 = 1, so the word 0
	// is rejected. A source stuck at 0 must fail, not loop forever.
	if _, err := Permutation(bytes.NewReader(make([]byte, 8*(maxRejections+1))), 3); !errors.Is(err, ErrRandomSource) {
		t.Errorf("stuck reader: %v", err)
	}
}

func TestPermutationRejectsBiasedWord(t *testing.T) {
	// n = 3: i = 2 draws j from [0,3): word 0 rejected, word 4 → j = 1;
	// i = 1 draws from [0,2): word 1 → j = 1 (no swap).
	var src []byte
	for _, w := range []uint64{0, 4, 1} {
		src = binary.LittleEndian.AppendUint64(src, w)
	}
	p, err := Permutation(bytes.NewReader(src), 3)
	if err != nil {
		t.Fatal(err)
	}
	// start [0 1 2]; i=2 swap with 1 → [0 2 1]; i=1 swap with 1 → [0 2 1].
	if want := []int{0, 2, 1}; p[0] != want[0] || p[1] != want[1] || p[2] != want[2] {
		t.Fatalf("got %v, want %v", p, want)
	}
}

// All 24 permutations of 4 appear about equally often (a fixed-seed
// ChaCha8 stream, so the test is deterministic; chi-square with 23 degrees
// of freedom, limit 60 ≈ p < 10⁻⁴).
func TestPermutationUniform(t *testing.T) {
	src := mrand.NewChaCha8([32]byte{'m', 'j'})
	const draws = 24000
	counts := map[[4]int]int{}
	for range draws {
		p, err := Permutation(src, 4)
		if err != nil {
			t.Fatal(err)
		}
		counts[[4]int(p)]++
	}
	if len(counts) != 24 {
		t.Fatalf("%d distinct permutations, want 24", len(counts))
	}
	exp := float64(draws) / 24
	chi := 0.0
	for _, c := range counts {
		d := float64(c) - exp
		chi += d * d / exp
	}
	if chi > 60 {
		t.Fatalf("chi-square %.1f > 60: %v", chi, counts)
	}
}
