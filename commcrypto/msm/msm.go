// Package msm computes multi-scalar multiplications Σ s_i·P_i in
// ristretto255 (RFC 9496) with the bucket method of Pippenger ("On the
// evaluation of powers and monomials", SIAM J. Computing 9(2), 1980), in
// the form given by Bernstein, Doumen, Lange and Oosterwijk ("Faster batch
// forgery identification", INDOCRYPT 2012, section 4) with signed digits.
//
// # Model
//
// Every scalar (an integer mod ℓ < 2^253) is recoded into signed base-2^c
// digits d_w in [−2^(c−1), 2^(c−1)]. For each window w, from the most
// significant, the accumulator is doubled c times, every point with a
// non-zero digit is added to (or, for a negative digit, subtracted from)
// bucket |d_w|, and the buckets are summed with weights 1..2^(c−1) by a
// running sum (2·2^(c−1) additions). The cost is about
// (⌈253/c⌉+1)·(n + 2^c) point additions for n points, against n full
// scalar multiplications (≈ 255 doublings and ≈ 50 additions each) for the
// naive sum; c is chosen per call from n.
//
// From 64 points on, the windows are split into contiguous ranges computed
// by GOMAXPROCS goroutines and recombined by doubling (Horner).
//
// The package uses only circl's public group operations (Add, Dbl, Neg,
// Set of github.com/cloudflare/circl/group, ristretto255); it performs no
// curve or field arithmetic of its own.
//
// # Timing
//
// MultiScalarMult is variable-time in the scalars: the digits choose the
// buckets. Use it only to verify proofs, where every scalar is public (a
// proof's responses and the verifier's challenges and batching weights),
// never with a secret key.
package msm

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"

	"github.com/cloudflare/circl/group"
)

// scalarBits bounds the bit length of a canonical ristretto255 scalar:
// ℓ = 2^252 + 27742317777372353535851937790883648493 < 2^253.
const scalarBits = 253

var g = group.Ristretto255

// MultiScalarMult returns Σ scalars[i]·points[i], a new ristretto255
// element (the identity for empty inputs).
//
// scalars and points must have equal lengths and hold ristretto255 values
// of circl's group.Ristretto255; neither slice nor its values are
// modified. It returns an error if the lengths differ. It is
// variable-time in the scalars (see the package doc): public scalars only.
func MultiScalarMult(scalars []group.Scalar, points []group.Element) (group.Element, error) {
	if len(scalars) != len(points) {
		return nil, fmt.Errorf("msm: %d scalars for %d points", len(scalars), len(points))
	}
	n := len(points)
	if n == 0 {
		return g.Identity(), nil
	}
	return multiScalarMultWindow(scalars, points, windowBits(n)), nil
}

// multiScalarMultWindow is MultiScalarMult with window width c (1..15) on
// equal-length, non-empty inputs.
func multiScalarMultWindow(scalars []group.Scalar, points []group.Element, c int) group.Element {
	n := len(points)
	digits := make([][]int16, n)
	for i, s := range scalars {
		b, err := s.MarshalBinary()
		if err != nil || len(b) != 32 {
			// circl's ristretto255 scalars always encode to 32 bytes.
			panic(fmt.Sprintf("msm: scalar %d does not encode: %v", i, err))
		}
		digits[i] = signedDigits(b, c)
	}
	windows := len(digits[0])
	workers := min(runtime.GOMAXPROCS(0), windows)
	if n < parallelMin || workers < 2 {
		return windowRange(points, digits, c, 0, windows)
	}
	// Split the windows into contiguous ranges, one per goroutine, and
	// recombine: Σ_r 2^(c·lo_r)·S_r by Horner from the top range.
	bounds := make([]int, workers+1)
	for k := range bounds {
		bounds[k] = k * windows / workers
	}
	parts := make([]group.Element, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() { parts[k] = windowRange(points, digits, c, bounds[k], bounds[k+1]) })
	}
	wg.Wait()
	acc := parts[workers-1]
	for k := workers - 2; k >= 0; k-- {
		for range c * (bounds[k+1] - bounds[k]) {
			acc.Dbl(acc)
		}
		acc.Add(acc, parts[k])
	}
	return acc
}

// parallelMin is the number of points from which MultiScalarMult splits
// its windows over GOMAXPROCS goroutines.
const parallelMin = 64

// windowRange returns Σ_{w ∈ [lo, hi)} 2^(c·(w−lo))·S_w, S_w the sum over
// the points of digit w times the point (the bucket method on those
// windows only).
func windowRange(points []group.Element, digits [][]int16, c, lo, hi int) group.Element {
	half := 1 << (c - 1)
	buckets := make([]group.Element, half)
	for i := range buckets {
		buckets[i] = g.Identity()
	}
	used := make([]bool, half)
	neg := g.NewElement()
	acc := g.Identity()
	running := g.NewElement()
	sum := g.NewElement()
	for w := hi - 1; w >= lo; w-- {
		if w != hi-1 {
			for range c {
				acc.Dbl(acc)
			}
		}
		clear(used)
		for i, p := range points {
			d := int(digits[i][w])
			switch {
			case d > 0:
				addTo(buckets, used, d-1, p)
			case d < 0:
				neg.Neg(p)
				addTo(buckets, used, -d-1, neg)
			}
		}
		// Σ_b (b+1)·bucket[b] by the running sum from the top bucket.
		runningSet, sumSet := false, false
		for b := half - 1; b >= 0; b-- {
			if used[b] {
				if runningSet {
					running.Add(running, buckets[b])
				} else {
					running.Set(buckets[b])
					runningSet = true
				}
			}
			if runningSet {
				if sumSet {
					sum.Add(sum, running)
				} else {
					sum.Set(running)
					sumSet = true
				}
			}
		}
		if sumSet {
			acc.Add(acc, sum)
		}
	}
	return acc
}

// addTo adds p to bucket b, setting it on first use in a window (so no
// addition with the identity is spent).
func addTo(buckets []group.Element, used []bool, b int, p group.Element) {
	if used[b] {
		buckets[b].Add(buckets[b], p)
		return
	}
	buckets[b].Set(p)
	used[b] = true
}

// windowBits returns the window width c minimising the estimated number of
// additions (⌈253/c⌉+1)·(n + 2^c) for n points.
func windowBits(n int) int {
	best, bestCost := 1, -1
	for c := 1; c <= 15; c++ {
		cost := ((scalarBits+c-1)/c + 1) * (n + (1 << c))
		if bestCost < 0 || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	return best
}

// signedDigits recodes the little-endian 32-byte scalar b (< 2^253) into
// ⌈253/c⌉+1 signed digits of c bits, least significant first, each in
// [−2^(c−1), 2^(c−1)], with Σ d_w·2^(c·w) equal to the scalar.
func signedDigits(b []byte, c int) []int16 {
	windows := (scalarBits+c-1)/c + 1
	var limb [5]uint64 // little-endian 64-bit limbs, and a zero limb
	for k := range 4 {
		limb[k] = binary.LittleEndian.Uint64(b[8*k:])
	}
	mask := uint64(1)<<c - 1
	out := make([]int16, windows)
	carry := 0
	for w := range windows {
		bit := w * c
		var v uint64
		if bit < 256 {
			word, shift := bit/64, uint(bit%64)
			v = limb[word] >> shift
			if shift != 0 {
				v |= limb[word+1] << (64 - shift)
			}
		}
		d := int(v&mask) + carry
		carry = 0
		if d > 1<<(c-1) {
			d -= 1 << c
			carry = 1
		}
		out[w] = int16(d)
	}
	return out
}
