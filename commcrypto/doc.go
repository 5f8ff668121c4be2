// Package commcrypto is the commutative encryption layer of mentalmj: the
// SRA / Pohlig–Hellman cipher over the ristretto255 group, the public tile
// points it encrypts, and the commitments that let a player check a key it
// is sent.
//
// # Model
//
// The cipher is the exponentiation cipher of Pohlig and Hellman ("An
// Improved Algorithm for Computing Logarithms over GF(p) and Its
// Cryptographic Significance", IEEE Trans. IT-24, 1978), used the way
// Shamir, Rivest and Adleman used it for "Mental Poker" (MIT/LCS/TM-125,
// 1979), written additively in a group of prime order ℓ:
//
//	encrypt  Lock(k, M)   = k·M
//	decrypt  Unlock(k, C) = k⁻¹·C      (k⁻¹ taken mod ℓ)
//
// Keys are uniformly random non-zero scalars mod ℓ (NewKey). Because scalar
// multiplication commutes, a·(b·M) = b·(a·M): any number of players can lock
// the same tile in any order and remove their locks in any order, and a
// player can turn its own lock k into another lock r with the single factor
// r·k⁻¹ (RekeyFactor). A tile locked by several players is opened with the
// product of their keys (Decrypt: one inversion, one multiplication).
//
// # Group
//
// The group is ristretto255 (RFC 9496) as implemented by
// github.com/cloudflare/circl/group (group.Ristretto255); this package
// performs no curve or field arithmetic of its own. ristretto255 has prime
// order ℓ = 2^252 + 27742317777372353535851937790883648493, which is what
// SRA needs. Over Z_p* (the original SRA setting) exponentiation by an odd
// key preserves the Legendre symbol, so a ciphertext reveals whether its
// plaintext is a quadratic residue: Lipton ("How to Cheat at Mental Poker",
// 1981) used this to mark cards. In a group of prime order there is no
// non-trivial subgroup and no such character: every element other than the
// identity generates the whole group, and k·M carries no fixed attribute of
// M. ristretto255 also removes the cofactor 8 of edwards25519, so there is
// no small-subgroup component for a lock to leave unchanged.
//
// # Tile points
//
// The 136 tiles (Tenhou ids 0..135) are encoded as points T_id obtained by
// hashing to the group (RFC 9380 hash_to_ristretto255, suite
// ristretto255_XMD:SHA-512_R255MAP_RO_, with DST TileDST; see NewTileTable).
// Nobody knows a discrete logarithm relating two tile points. Tile points
// must never be id·G (or any other points with known relations): if
// T_b = (b/a)·T_a then, for any key k, k·T_b = (b/a)·(k·T_a), so anyone can
// test whether two ciphertexts hide tiles a and b with one scalar
// multiplication and undo every shuffle. With hashed points, telling which
// tile a ciphertext hides is the decisional Diffie–Hellman problem.
//
// # Commitments
//
// For every position a player's key r is published in advance as R = r·G
// (Commit). When r is later sent or revealed, CheckCommitment verifies it.
// The map r ↦ r·G is a bijection on non-zero scalars, so a player cannot
// open a commitment to a second key.
//
// # Values and input handling
//
// Element and Scalar are immutable values, safe to copy and to share between
// goroutines. Every Element made by this package is a non-identity group
// element and every Scalar is non-zero; the zero values Element{} and
// Scalar{} are "unset" markers (IsZero) and passing them to an arithmetic
// function is a programmer error that panics. Bytes from peers enter only
// through DecodeElement, DecodeElements and DecodeScalar, which are strict
// (exactly one canonical encoding per value, no identity, no zero key) and
// return errors, never panic.
//
// The package has no mutable global state: the tile table is a value built
// by NewTileTable, and randomness is always passed in (crypto/rand.Reader in
// production).
package commcrypto
