package commcrypto

// Lock returns k·M, the SRA / Pohlig–Hellman encryption of M under key k
// (Pohlig–Hellman 1978; Shamir–Rivest–Adleman, "Mental Poker", 1979),
// computed with circl's ristretto255 scalar multiplication (RFC 9496).
// Locks commute: Lock(a, Lock(b, M)) equals Lock(b, Lock(a, M)). The result
// is never the identity (k ≠ 0 and M ≠ O in a group of prime order).
// It panics if k or m is unset (programmer error).
func Lock(k Scalar, m Element) Element {
	mustScalar(k, "Lock")
	mustElement(m, "Lock")
	return newElement(g.NewElement().Mul(m.p, k.s))
}

// Unlock returns k⁻¹·M, removing the lock k from M (Pohlig–Hellman
// decryption): Unlock(k, Lock(k, M)) equals M, whatever other locks M
// carries. It costs one inversion and one scalar multiplication; to remove
// several locks at once use Decrypt. It panics if k or m is unset
// (programmer error).
func Unlock(k Scalar, m Element) Element {
	return Lock(k.Inverse(), m)
}

// LockAll returns a new slice holding k·M for each M in ms, in the same
// order (one shuffle pass without the permutation; see Permutation). ms is
// not modified. It panics if k or an element is unset (programmer error).
func LockAll(k Scalar, ms []Element) []Element {
	mustScalar(k, "LockAll")
	out := make([]Element, len(ms))
	for i, m := range ms {
		mustElement(m, "LockAll")
		out[i] = newElement(g.NewElement().Mul(m.p, k.s))
	}
	return out
}

// RekeyFactor returns r·k⁻¹ mod ℓ. Multiplying a ciphertext locked with the
// global key k by this factor replaces k with the position key r in one
// scalar multiplication: (r·k⁻¹)·(k·X) = r·X. Each call inverts k; when
// rekeying many positions under the same k use RekeyFactors, which inverts
// once. It panics if r or k is unset (programmer error).
func RekeyFactor(r, k Scalar) Scalar {
	return r.Mul(k.Inverse())
}

// RekeyFactors returns a new slice holding RekeyFactor(rs[i], k) for every
// i, computing k⁻¹ only once. It panics if k or an element of rs is unset
// (programmer error).
func RekeyFactors(rs []Scalar, k Scalar) []Scalar {
	kInv := k.Inverse()
	out := make([]Scalar, len(rs))
	for i, r := range rs {
		out[i] = r.Mul(kInv)
	}
	return out
}

// Decrypt returns (Π keys)⁻¹·c: c with all the given locks removed, in any
// order, using one inversion and one scalar multiplication (Pohlig–Hellman
// decryption of a product key). With no keys it returns c unchanged. The
// result is typically looked up in a TileTable. It panics if c or a key is
// unset (programmer error).
func Decrypt(c Element, keys ...Scalar) Element {
	mustElement(c, "Decrypt")
	if len(keys) == 0 {
		return c
	}
	return Lock(ProductOf(keys...).Inverse(), c)
}
