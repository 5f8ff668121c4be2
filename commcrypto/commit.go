package commcrypto

import (
	"crypto/subtle"
	"fmt"
)

// Commit returns R = r·G, G the ristretto255 generator (RFC 9496; circl's
// fixed-base multiplication), the public commitment to the position key r.
// Publishing R binds the player to r (r ↦ r·G is injective mod ℓ) and lets
// anyone check r when it is later sent or revealed (CheckCommitment). R is
// never the identity since r ≠ 0. It panics if r is unset (programmer
// error).
func Commit(r Scalar) Element {
	mustScalar(r, "Commit")
	return newElement(g.NewElement().MulGen(r.s))
}

// CheckCommitment reports whether the key r opens the commitment R, i.e.
// whether r·G == R (one fixed-base scalar multiplication and a
// constant-time comparison of encodings).
//
// It returns nil if so, and otherwise an error wrapping ErrCommitment; an
// unset r or R also yields ErrCommitment rather than a panic, so the result
// of decoding peer data can be passed in directly.
func CheckCommitment(r Scalar, R Element) error {
	if r.IsZero() || R.IsZero() {
		return fmt.Errorf("%w: unset key or commitment", ErrCommitment)
	}
	got := Commit(r)
	if subtle.ConstantTimeCompare(got.enc[:], R.enc[:]) != 1 {
		return fmt.Errorf("%w: commitment %s", ErrCommitment, R)
	}
	return nil
}
