package commcrypto

import (
	"sync/atomic"
	"testing"
)

// Parallel calls f once for every index and never outside 0..n-1.
func TestParallelCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 136, 1000} {
		calls := make([]atomic.Int32, n)
		Parallel(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n = %d: index %d called %d times", n, i, c)
			}
		}
	}
}
