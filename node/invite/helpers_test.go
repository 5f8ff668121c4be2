package invite

import "crypto/ed25519"

// ed25519Key returns the libp2p (and crypto/ed25519) private key bytes,
// seed ‖ public key, of seed.
func ed25519Key(seed [32]byte) []byte {
	return ed25519.NewKeyFromSeed(seed[:])
}
