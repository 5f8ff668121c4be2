package commcrypto

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Permutation returns a uniformly random permutation of 0..n-1 drawn from
// rand (callers pass crypto/rand.Reader), for the permutation π_j of a
// shuffle pass: the shuffled deck is out[i] = locked[perm[i]].
//
// It is the Fisher–Yates shuffle (Durstenfeld's form, Knuth TAOCP vol. 2
// algorithm 3.4.2P) with each index drawn by rejection sampling from 64-bit
// words, so there is no modulo bias.
//
// Errors: ErrRandomSource (wrapped) if rand is nil, a read fails, a stuck
// source keeps producing rejected words, or n < 0.
func Permutation(rand io.Reader, n int) ([]int, error) {
	if rand == nil {
		return nil, fmt.Errorf("%w: nil reader", ErrRandomSource)
	}
	if n < 0 {
		return nil, fmt.Errorf("%w: negative length %d", ErrRandomSource, n)
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var buf [8]byte
	for i := n - 1; i > 0; i-- {
		// Draw j uniformly from [0, i]. bound = i+1; reject words in the
		// final partial block [limit, 2^64).
		bound := uint64(i) + 1
		limit := -bound % bound // (2^64 - bound) mod bound = 2^64 mod bound
		var j uint64
		for try := 0; ; try++ {
			if try == maxRejections {
				return nil, fmt.Errorf("%w: %d draws rejected", ErrRandomSource, try)
			}
			if _, err := io.ReadFull(rand, buf[:]); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrRandomSource, err)
			}
			v := binary.LittleEndian.Uint64(buf[:])
			if v >= limit {
				j = v % bound
				break
			}
		}
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm, nil
}
