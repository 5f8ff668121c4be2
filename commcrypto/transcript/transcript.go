// Package transcript is the Fiat–Shamir transcript of mentalmj's
// zero-knowledge proofs (Fiat and Shamir, "How to Prove Yourself", CRYPTO
// 1986; the "strong" form of Bernhard, Pereira and Warinschi, "How not to
// prove yourself", ASIACRYPT 2012, section 3: every statement element is
// hashed, not only the prover's commitments).
//
// # Model
//
// A Transcript is a running SHA-512 hash (FIPS 180-4, Go's crypto/sha512)
// of labelled, length-prefixed messages: each Append writes
// len(label) ‖ label ‖ len(data) ‖ data with 8-byte big-endian lengths, so
// no two different sequences of appends hash the same bytes. A challenge
// is derived from the digest so far with circl's
// group.Ristretto255.HashToScalar, the ristretto255 HashToScalar of
// RFC 9497 §4.1: expand_message_xmd (RFC 9380 §5.3.1) with SHA-512 to 64
// bytes, read as a little-endian integer and reduced mod ℓ — not RFC 9380
// hash_to_field, which reads the bytes big-endian. Its domain-separation
// tag names the proof and the challenge; the challenge is then appended,
// so later challenges depend on it.
//
// Every proof starts its transcript with Bind, which writes the Context:
// protocol version, game id, hand number, pass index and the prover's peer
// ID. A proof made for one game, hand, pass or player therefore does not
// verify for another (replay), whatever its elements.
package transcript

import (
	"crypto/sha512"
	"encoding/binary"
	"hash"

	"github.com/cloudflare/circl/group"
)

// Context is what every proof is bound to: who proves what, where.
type Context struct {
	// Version is the protocol version string (protocol.Version).
	Version string
	// GameID is the 32-byte game id (SHA-256 over table, version, peers
	// and Hello nonces).
	GameID []byte
	// Hand is the 1-based hand number.
	Hand uint32
	// Pass is the pass index: the prover's seat 0..3 in the pass order.
	Pass uint32
	// Prover is the prover's libp2p peer ID in binary form.
	Prover []byte
}

// Transcript is a Fiat–Shamir transcript (see the package doc). The zero
// value is not usable; build one with New.
type Transcript struct {
	h      hash.Hash
	domain string
}

// New returns a transcript for the proof named domain (for example
// "mentalmj/v1/shuffleproof"), bound to ctx. The domain is also the prefix
// of every challenge's domain-separation tag.
func New(domain string, ctx Context) *Transcript {
	t := &Transcript{h: sha512.New(), domain: domain}
	t.Append("domain", []byte(domain))
	t.Append("version", []byte(ctx.Version))
	t.Append("game", ctx.GameID)
	t.AppendUint("hand", uint64(ctx.Hand))
	t.AppendUint("pass", uint64(ctx.Pass))
	t.Append("prover", ctx.Prover)
	return t
}

// Append writes one labelled message: 8-byte big-endian len(label), label,
// 8-byte big-endian len(data), data.
func (t *Transcript) Append(label string, data []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(label)))
	t.h.Write(n[:])
	t.h.Write([]byte(label))
	binary.BigEndian.PutUint64(n[:], uint64(len(data)))
	t.h.Write(n[:])
	t.h.Write(data)
}

// AppendUint writes v as an 8-byte big-endian message under label.
func (t *Transcript) AppendUint(label string, v uint64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	t.Append(label, b[:])
}

// Challenge returns a scalar mod ℓ derived from everything appended so far
// (RFC 9497 §4.1 HashToScalar of the SHA-512 digest ‖ 4-byte big-endian 0,
// DST domain + "/" + label; see the package doc) and appends it under
// label.
func (t *Transcript) Challenge(label string) group.Scalar {
	return t.Challenges(label, 1)[0]
}

// Challenges returns n scalars mod ℓ derived from everything appended so
// far, the i-th the RFC 9497 §4.1 HashToScalar (little-endian reduction
// of 64 expand_message_xmd SHA-512 bytes) of digest ‖ 4-byte big-endian i
// with DST domain + "/" + label, and appends their 32-byte encodings
// under label. n must be ≥ 1.
func (t *Transcript) Challenges(label string, n int) []group.Scalar {
	digest := t.h.Sum(nil)
	dst := []byte(t.domain + "/" + label)
	out := make([]group.Scalar, n)
	msg := make([]byte, len(digest)+4)
	copy(msg, digest)
	all := make([]byte, 0, 32*n)
	for i := range out {
		binary.BigEndian.PutUint32(msg[len(digest):], uint32(i))
		out[i] = group.Ristretto255.HashToScalar(msg, dst)
		b, _ := out[i].MarshalBinary()
		all = append(all, b...)
	}
	t.Append(label, all)
	return out
}
