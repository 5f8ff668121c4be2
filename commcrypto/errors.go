package commcrypto

import "errors"

// Sentinel errors. Functions wrap them with details (fmt.Errorf with %w);
// test for them with errors.Is.
var (
	// ErrElementLength is returned by DecodeElement and DecodeElements when
	// the input is not exactly ElementSize bytes (per element).
	ErrElementLength = errors.New("commcrypto: element encoding must be 32 bytes")

	// ErrElementEncoding is returned by DecodeElement and DecodeElements when
	// the 32 bytes are not the canonical ristretto255 encoding of a group
	// element (RFC 9496 section 4.3.1: s ≥ p, s negative, non-square, negative
	// x·y, or y = 0).
	ErrElementEncoding = errors.New("commcrypto: not a canonical ristretto255 encoding")

	// ErrIdentity is returned by DecodeElement and DecodeElements for the
	// encoding of the identity element (32 zero bytes). The identity is a
	// fixed point of every lock (k·O = O), so it can never be a valid tile or
	// ciphertext.
	ErrIdentity = errors.New("commcrypto: identity element")

	// ErrScalarLength is returned by DecodeScalar when the input is not
	// exactly ScalarSize bytes.
	ErrScalarLength = errors.New("commcrypto: scalar encoding must be 32 bytes")

	// ErrScalarEncoding is returned by DecodeScalar when the little-endian
	// integer is not reduced, i.e. is ≥ the group order ℓ (RFC 9496 section
	// 4.4 canonical scalar encoding).
	ErrScalarEncoding = errors.New("commcrypto: scalar is not canonical (≥ group order)")

	// ErrZeroScalar is returned by DecodeScalar for the scalar 0, which is
	// not a key (it would map every element to the identity and has no
	// inverse).
	ErrZeroScalar = errors.New("commcrypto: zero scalar")

	// ErrRandomSource is returned by NewKey and Permutation when the random
	// source is nil, fails to deliver bytes, or (for NewKey) keeps delivering
	// bytes that are rejected (a stuck or broken source).
	ErrRandomSource = errors.New("commcrypto: random source failed")

	// ErrCommitment is returned by CheckCommitment when r·G differs from the
	// commitment R (or either argument is unset).
	ErrCommitment = errors.New("commcrypto: key does not match its commitment")
)
