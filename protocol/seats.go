package protocol

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
)

// NonceSize is the length in bytes of each player's per-hand nonce.
const NonceSize = 32

// nonceCommitment returns SHA-256("mentalmj/v1/nonce" ‖ game ‖ hand ‖
// sender ‖ nonce), the value a player publishes before any nonce is
// revealed.
func nonceCommitment(game []byte, hand uint32, sender peer.ID, nonce []byte) []byte {
	h := sha256.New()
	h.Write([]byte("mentalmj/v1/nonce"))
	writeLP(h, game)
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], hand)
	h.Write(n[:])
	writeLP(h, []byte(sender))
	writeLP(h, nonce)
	return h.Sum(nil)
}

// handSeed combines the four revealed nonces (in ascending peer order)
// into the hand's joint seed. No single player chooses it: every nonce is
// committed before any is revealed.
func handSeed(game []byte, hand uint32, nonces map[peer.ID][]byte) [32]byte {
	h := sha256.New()
	h.Write([]byte("mentalmj/v1/seed"))
	writeLP(h, game)
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], hand)
	h.Write(n[:])
	for _, p := range sortPeers(mapKeys(nonces)) {
		writeLP(h, []byte(p))
		writeLP(h, nonces[p])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// seating orders the peers by SHA-256(seed ‖ "seat" ‖ peer ID): seat 0 is
// the first East (chiicha), then South, West, North. Used with the seed of
// hand 1.
func seating(seed [32]byte, peers []peer.ID) []peer.ID {
	type ranked struct {
		id  peer.ID
		key [32]byte
	}
	rs := make([]ranked, len(peers))
	for i, p := range peers {
		h := sha256.New()
		h.Write(seed[:])
		h.Write([]byte("seat"))
		h.Write([]byte(p))
		rs[i].id = p
		h.Sum(rs[i].key[:0])
	}
	slices.SortFunc(rs, func(a, b ranked) int { return bytes.Compare(a.key[:], b.key[:]) })
	out := make([]peer.ID, len(rs))
	for i, r := range rs {
		out[i] = r.id
	}
	return out
}

// dice returns the two dice of a hand, 0-based (faces d+1) as in Tenhou's
// INIT seed field (docs/wall-layout.md §4): each is a 64-bit word of
// SHA-256(seed ‖ "dice") modulo 6 (bias below 2⁻⁶⁰).
func dice(seed [32]byte) [2]int {
	h := sha256.Sum256(append(seed[:], "dice"...))
	return [2]int{
		int(binary.BigEndian.Uint64(h[0:8]) % 6),
		int(binary.BigEndian.Uint64(h[8:16]) % 6),
	}
}

func mapKeys[V any](m map[peer.ID]V) []peer.ID {
	out := make([]peer.ID, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
