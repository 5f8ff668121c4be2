package commcrypto

import (
	"crypto/sha512"
	"encoding/binary"
	"fmt"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto/msm"
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
// whether r·G == R (one fixed-base scalar multiplication and circl's
// constant-time ristretto255 equality, RFC 9496 §4.3.3: four field
// multiplications, where encoding r·G to compare bytes would cost an
// inverse square root).
//
// It returns nil if so, and otherwise an error wrapping ErrCommitment; an
// unset r or R also yields ErrCommitment rather than a panic, so the result
// of decoding peer data can be passed in directly.
func CheckCommitment(r Scalar, R Element) error {
	if r.IsZero() || R.IsZero() {
		return fmt.Errorf("%w: unset key or commitment", ErrCommitment)
	}
	if !g.NewElement().MulGen(r.s).IsEqual(R.p) {
		return fmt.Errorf("%w: commitment %s", ErrCommitment, R)
	}
	return nil
}

// CheckCommitments reports whether rs[i] opens Rs[i] (rs[i]·G == Rs[i])
// for every i, as CheckCommitment does one by one, but with one batch
// check: (Σ ρ_i·r_i)·G == Σ ρ_i·R_i, the weights ρ_i derived by SHA-512
// from every r_i and R_i (ρ_i is the RFC 9497 §4.1 HashToScalar of the
// digest ‖ 4-byte big-endian i: 64 expand_message_xmd SHA-512 bytes read
// little-endian and reduced mod ℓ, DST "mentalmj/v1/commitments/batch"),
// computed with one fixed-base multiplication and one multi-scalar
// multiplication (commcrypto/msm). A
// wrong key passes the batch with probability ≤ 1/ℓ per attempt
// (Bellare, Garay and Rabin, "Fast Batch Verification for Modular
// Exponentiation and Digital Signatures", EUROCRYPT 1998, §3.2, the
// small-exponents test with full-size weights). If the batch fails, the
// keys are checked one by one to name the first failure.
//
// rs and Rs must have equal lengths. It returns nil if every key opens its
// commitment; otherwise an error wrapping ErrCommitment that names the
// first failing index. Unset values fail like CheckCommitment's.
func CheckCommitments(rs []Scalar, Rs []Element) error {
	if len(rs) != len(Rs) {
		return fmt.Errorf("%w: %d keys for %d commitments", ErrCommitment, len(rs), len(Rs))
	}
	if len(rs) == 0 {
		return nil
	}
	oneByOne := func() error {
		for i := range rs {
			if err := CheckCommitment(rs[i], Rs[i]); err != nil {
				return fmt.Errorf("index %d: %w", i, err)
			}
		}
		return nil
	}
	h := sha512.New()
	for i := range rs {
		if rs[i].IsZero() || Rs[i].IsZero() {
			return oneByOne()
		}
		h.Write(rs[i].Bytes())
		h.Write(Rs[i].enc[:])
	}
	digest := h.Sum(nil)
	dst := []byte("mentalmj/v1/commitments/batch")
	weights := make([]group.Scalar, len(rs))
	points := make([]group.Element, len(rs))
	sum := g.NewScalar()
	msg := make([]byte, len(digest)+4)
	copy(msg, digest)
	for i := range rs {
		binary.BigEndian.PutUint32(msg[len(digest):], uint32(i))
		weights[i] = g.HashToScalar(msg, dst)
		sum.Add(sum, g.NewScalar().Mul(weights[i], rs[i].s))
		points[i] = Rs[i].p
	}
	rhs, err := msm.MultiScalarMult(weights, points)
	if err != nil || !g.NewElement().MulGen(sum).IsEqual(rhs) {
		return oneByOne()
	}
	return nil
}
