package majsoul

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Commitment returns SHA-256(wallCode ∥ salt), the per-kyoku digest the
// client shows (docs/wall-layout.md §10): the two strings concatenated with no
// separator, hashed as bytes.
func Commitment(wallCode, salt string) [32]byte {
	h := sha256.New()
	h.Write([]byte(wallCode))
	h.Write([]byte(salt))
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// SaltHash returns SHA-256(salt), the salt digest shown next to the
// commitment.
func SaltHash(salt string) [32]byte { return sha256.Sum256([]byte(salt)) }

// ErrMismatch is wrapped by Verify and VerifySalt when a recomputed digest
// differs from the published one.
var ErrMismatch = errors.New("digest mismatch")

// Verify checks a revealed wall code and salt against the published
// commitment SHA-256(wallCode ∥ salt). It returns a *SyntaxError if the
// wall code does not parse (the digest is not computed then), an error
// wrapping ErrMismatch naming both digests if they differ, else nil. The
// comparison is constant-time.
func Verify(wallCode, salt string, commitment [32]byte) error {
	if _, err := ParseWall(wallCode); err != nil {
		return err
	}
	got := Commitment(wallCode, salt)
	if subtle.ConstantTimeCompare(got[:], commitment[:]) != 1 {
		return fmt.Errorf("SHA-256(wall ∥ salt) = %x, published %x: %w", got, commitment, ErrMismatch)
	}
	return nil
}

// VerifySalt checks a revealed salt against the published SHA-256(salt);
// it returns an error wrapping ErrMismatch if they differ.
func VerifySalt(salt string, saltHash [32]byte) error {
	got := SaltHash(salt)
	if subtle.ConstantTimeCompare(got[:], saltHash[:]) != 1 {
		return fmt.Errorf("SHA-256(salt) = %x, published %x: %w", got, saltHash, ErrMismatch)
	}
	return nil
}

// ParseDigest decodes a SHA-256 digest written as 64 hex digits (either
// case, surrounding spaces ignored). It returns an error for another
// length or a non-hex character.
func ParseDigest(s string) ([32]byte, error) {
	var out [32]byte
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return out, fmt.Errorf("digest %q: %w", s, err)
	}
	if len(b) != 32 {
		return out, fmt.Errorf("digest %q: %d bytes, want 32 (64 hex digits)", s, len(b))
	}
	copy(out[:], b)
	return out, nil
}
