package commcrypto

import (
	"runtime"
	"sync"
)

// Parallel calls f(0), …, f(n−1) spread over GOMAXPROCS goroutines (at
// most n) and returns when every call has returned; n ≤ 0 calls nothing.
// The calls must write disjoint data. The group operations of a pass — a
// scalar multiplication (≈ 45 µs) or a strict decode (≈ 5 µs) per element —
// are on the critical path of a hand's setup while the other players wait,
// so the passes, their proofs and DecodeElements spread them over the
// cores with it.
func Parallel(n int, f func(i int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				f(i)
			}
		})
	}
	wg.Wait()
}
