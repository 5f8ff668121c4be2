package sapikachu

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
)

// Sizes fixed by this package's encoding of the scheme (see the package doc).
const (
	// GSSize is the length of the global secret GS in bytes (1024 bits).
	GSSize = 128
	// RSize is the length of the per-kyoku server randomness R in bytes.
	RSize = 32
	// SecretSize is the length of each player secret PS_i in bytes.
	SecretSize = 32
	// SeedSize is the length of the seed, a SHA-512 digest, in bytes.
	SeedSize = 64
	// MaxPlayers is the largest number of player secrets accepted.
	MaxPlayers = 4
)

// ErrInput is wrapped by errors about inputs of the wrong shape.
var ErrInput = errors.New("invalid sapikachu input")

// Inputs are the seed materials of one kyoku.
type Inputs struct {
	// T1 is the match start and T2 the kyoku start, Unix time in ms.
	T1, T2 uint64
	// R is the server's per-kyoku randomness, RSize bytes.
	R []byte
	// GS is the published global secret, GSSize bytes.
	GS []byte
	// PlayerSecrets are PS_0..PS_{n-1} in seat order, 1..MaxPlayers of
	// SecretSize bytes each.
	PlayerSecrets [][]byte
}

// Check returns an error wrapping ErrInput naming the first field of in
// with the wrong length or count.
func (in *Inputs) Check() error {
	if len(in.R) != RSize {
		return fmt.Errorf("r: %d bytes, want %d: %w", len(in.R), RSize, ErrInput)
	}
	if len(in.GS) != GSSize {
		return fmt.Errorf("gs: %d bytes, want %d: %w", len(in.GS), GSSize, ErrInput)
	}
	if n := len(in.PlayerSecrets); n < 1 || n > MaxPlayers {
		return fmt.Errorf("player_secrets: %d secrets, want 1..%d: %w", n, MaxPlayers, ErrInput)
	}
	for i, ps := range in.PlayerSecrets {
		if len(ps) != SecretSize {
			return fmt.Errorf("player_secrets[%d]: %d bytes, want %d: %w", i, len(ps), SecretSize, ErrInput)
		}
	}
	return nil
}

// Message returns msg = T1 ∥ T2 ∥ R (8-byte big-endian times, 48 bytes).
func (in *Inputs) Message() []byte {
	msg := make([]byte, 0, 16+len(in.R))
	msg = binary.BigEndian.AppendUint64(msg, in.T1)
	msg = binary.BigEndian.AppendUint64(msg, in.T2)
	return append(msg, in.R...)
}

// Seed returns SHA-512(msg ∥ HMAC-SHA512(GS, msg) ∥ HMAC-SHA512(PS_i, msg)
// for each player i), msg = T1 ∥ T2 ∥ R. It returns an error wrapping
// ErrInput when in fails Check.
func Seed(in *Inputs) ([SeedSize]byte, error) {
	var seed [SeedSize]byte
	if err := in.Check(); err != nil {
		return seed, err
	}
	msg := in.Message()
	h := sha512.New()
	h.Write(msg)
	mac := func(key []byte) {
		m := hmac.New(sha512.New, key)
		m.Write(msg)
		h.Write(m.Sum(nil))
	}
	mac(in.GS)
	for _, ps := range in.PlayerSecrets {
		mac(ps)
	}
	h.Sum(seed[:0])
	return seed, nil
}
