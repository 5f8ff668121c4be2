package logshuffle

import (
	"bytes"
	"crypto/rand"
	"errors"
	"testing"

	"github.com/mentalmj/mentalmj/commcrypto"
)

// FuzzDecode: Decode never panics; it either fails with ErrEncoding or
// ErrStatement, or returns a proof whose encoding is the input, and
// Verify on it never panics.
func FuzzDecode(f *testing.F) {
	const bigN = 4
	p := NewParams(bigN)
	in, out, k, perm := pass(f, bigN)
	K := commcrypto.Commit(k)
	pr, err := Prove(p, testCtx, in, out, k, perm, rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(pr.Bytes(), bigN)
	f.Add(pr.Bytes()[:100], bigN)
	f.Add([]byte{}, 0)
	f.Add(make([]byte, Size(136)), 136)
	f.Fuzz(func(t *testing.T, b []byte, n int) {
		dec, err := Decode(b, n)
		if err != nil {
			if !errors.Is(err, ErrEncoding) && !errors.Is(err, ErrStatement) {
				t.Fatalf("Decode error %v wraps neither ErrEncoding nor ErrStatement", err)
			}
			return
		}
		if !bytes.Equal(dec.Bytes(), b) {
			t.Fatal("re-encoding differs")
		}
		if n == bigN {
			if err := Verify(p, testCtx, in, out, K, dec); err != nil && !errors.Is(err, ErrInvalid) {
				t.Fatalf("Verify: %v", err)
			}
		}
	})
}
