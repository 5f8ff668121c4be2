package commcrypto

import (
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"
)

// ScalarSize is the length in bytes of an encoded Scalar: the little-endian
// canonical integer in [0, ℓ) of RFC 9496 section 4.4, ℓ the group order.
const ScalarSize = 32

// maxRejections bounds the rejection sampling of NewKey and Permutation.
// A NewKey candidate is accepted with probability ≈ 1/2 (a Permutation word
// with probability > 1 − 2^-56), so a working source exhausts the bound with
// probability ≈ 2^-128 or less.
const maxRejections = 128

// Scalar is a non-zero integer mod ℓ, the prime order of ristretto255
// (RFC 9496): a lock key k, a position key r, a product or inverse of keys.
//
// Scalar is an immutable value, safe to copy and share. The zero value
// Scalar{} is "unset" (IsZero reports true); arithmetic on it panics. Build
// Scalars with NewKey, DecodeScalar, ProductOf, Mul, Inverse or RekeyFactor.
// Keys are secrets: String and GoString never print them.
type Scalar struct {
	s group.Scalar // never mutated after construction; never 0
}

// NewKey returns a uniformly random non-zero scalar in [1, ℓ), to be used as
// an SRA lock key (Shamir–Rivest–Adleman 1979) or a position key.
//
// rand must be a cryptographically secure source; callers pass
// crypto/rand.Reader. NewKey reads 32 bytes at a time, keeps the low 253
// bits and accepts the integer if it is in [1, ℓ) (rejection sampling, so
// the result is exactly uniform; about two reads on average). The buffer is
// wiped afterwards.
//
// Errors: ErrRandomSource (wrapped) if rand is nil, a read fails, or
// maxRejections candidates in a row are rejected.
func NewKey(rand io.Reader) (Scalar, error) {
	if rand == nil {
		return Scalar{}, fmt.Errorf("%w: nil reader", ErrRandomSource)
	}
	var buf [ScalarSize]byte
	defer clear(buf[:])
	s := g.NewScalar()
	for range maxRejections {
		if _, err := io.ReadFull(rand, buf[:]); err != nil {
			return Scalar{}, fmt.Errorf("%w: %v", ErrRandomSource, err)
		}
		buf[ScalarSize-1] &= 0x1f // 253 bits; ℓ > 2^252
		if s.UnmarshalBinary(buf[:]) == nil && !s.IsZero() {
			return Scalar{s: s}, nil
		}
	}
	return Scalar{}, fmt.Errorf("%w: %d candidates rejected", ErrRandomSource, maxRejections)
}

// DecodeScalar decodes a key received from a peer.
//
// b must be exactly ScalarSize (32) bytes: the little-endian encoding of an
// integer in [1, ℓ). RFC 9496 section 4.4 requires canonical (reduced)
// scalar encodings; this function additionally rejects 0, which is never a
// key. The returned Scalar's Bytes are equal to b.
//
// Errors (wrapped; test with errors.Is): ErrScalarLength if len(b) != 32;
// ErrScalarEncoding if the integer is ≥ ℓ; ErrZeroScalar if it is 0.
// Never panics on any b.
func DecodeScalar(b []byte) (Scalar, error) {
	if len(b) != ScalarSize {
		return Scalar{}, fmt.Errorf("%w: got %d bytes", ErrScalarLength, len(b))
	}
	s := g.NewScalar()
	if err := s.UnmarshalBinary(b); err != nil {
		return Scalar{}, ErrScalarEncoding
	}
	if s.IsZero() {
		return Scalar{}, ErrZeroScalar
	}
	return Scalar{s: s}, nil
}

// Bytes returns the canonical little-endian encoding of the scalar,
// ScalarSize (32) bytes (RFC 9496 section 4.4), in a fresh slice; nil for the
// unset Scalar{}. The result is secret if the scalar is a key.
func (s Scalar) Bytes() []byte {
	if s.IsZero() {
		return nil
	}
	b, err := s.s.MarshalBinary()
	if err != nil || len(b) != ScalarSize {
		panic(fmt.Sprintf("commcrypto: scalar encoding failed: %v", err)) // cannot happen with circl
	}
	return b
}

// Inverse returns s⁻¹ mod ℓ, the key that undoes s (Pohlig–Hellman
// decryption exponent). It costs one modular inversion (constant time in
// circl). It panics if s is unset (programmer error).
func (s Scalar) Inverse() Scalar {
	mustScalar(s, "Inverse")
	return Scalar{s: g.NewScalar().Inv(s.s)}
}

// Mul returns s·o mod ℓ, the key equivalent to locking with o then s (or s
// then o). The product of two non-zero scalars mod the prime ℓ is non-zero.
// It panics if s or o is unset (programmer error).
func (s Scalar) Mul(o Scalar) Scalar {
	mustScalar(s, "Mul")
	mustScalar(o, "Mul")
	return Scalar{s: g.NewScalar().Mul(s.s, o.s)}
}

// Equal reports whether s and o are the same integer mod ℓ (constant time
// in circl). Two unset Scalars are equal; an unset Scalar equals no set one.
func (s Scalar) Equal(o Scalar) bool {
	if s.IsZero() || o.IsZero() {
		return s.IsZero() && o.IsZero()
	}
	return s.s.IsEqual(o.s)
}

// IsZero reports whether s is the unset zero value Scalar{}. (No Scalar made
// by this package is the integer 0.)
func (s Scalar) IsZero() bool {
	return s.s == nil
}

// String returns a fixed placeholder, never the scalar, so that keys do not
// leak into logs. Use Bytes to serialize.
func (s Scalar) String() string {
	if s.IsZero() {
		return "commcrypto.Scalar(<unset>)"
	}
	return "commcrypto.Scalar(<redacted>)"
}

// GoString is like String, for %#v.
func (s Scalar) GoString() string { return s.String() }

// ProductOf returns the product of keys mod ℓ: the single key equivalent to
// applying all of them (locks commute, Pohlig–Hellman 1978). It returns the
// scalar 1 when keys is empty. It panics if a key is unset (programmer
// error).
func ProductOf(keys ...Scalar) Scalar {
	acc := g.NewScalar().SetUint64(1)
	for i, k := range keys {
		if k.IsZero() {
			panic(fmt.Sprintf("commcrypto: ProductOf: key %d is unset (programmer error)", i))
		}
		acc.Mul(acc, k.s)
	}
	return Scalar{s: acc}
}

func mustScalar(s Scalar, fn string) {
	if s.IsZero() {
		panic("commcrypto: " + fn + ": unset Scalar (programmer error)")
	}
}
