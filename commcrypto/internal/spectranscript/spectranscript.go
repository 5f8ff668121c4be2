// Package spectranscript is the Fiat–Shamir transcript of SPEC.md §11
// written a second time, from the text alone, on crypto/sha512 and circl's
// public HashToScalar, together with the strict element decoding of
// SPEC.md §2. The proof packages' tests check their test vectors against
// it, so that a vector passes only if the code and the spec agree; the
// product never uses it.
package spectranscript

import (
	"crypto/sha512"
	"encoding/binary"
	"hash"

	"github.com/cloudflare/circl/group"
)

// Transcript is a SPEC.md §11 transcript under a domain (for example
// "mentalmj/v1/rekeyproof").
type Transcript struct {
	h      hash.Hash
	domain string
}

// New returns an empty transcript for domain. It does not add the domain
// itself: callers add it as the spec's first record.
func New(domain string) *Transcript {
	return &Transcript{h: sha512.New(), domain: domain}
}

// Add appends one record: BE64(len(label)) ‖ label ‖ BE64(len(data)) ‖
// data.
func (t *Transcript) Add(label string, data []byte) {
	t.h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(label))))
	t.h.Write([]byte(label))
	t.h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(data))))
	t.h.Write(data)
}

// AddUint appends a record holding BE64(v).
func (t *Transcript) AddUint(label string, v uint64) {
	t.Add(label, binary.BigEndian.AppendUint64(nil, v))
}

// Challenges derives m scalars: the i-th is HashToScalar(d ‖ BE32(i)) with
// domain separation tag DOMAIN "/" label, d the SHA-512 of the records so
// far (RFC 9497 §4.1 hashing, as circl implements it); then it appends
// their 32-byte encodings, concatenated, as a record under label.
func (t *Transcript) Challenges(label string, m int) []group.Scalar {
	d := t.h.Sum(nil)
	var all []byte
	out := make([]group.Scalar, m)
	for i := range out {
		out[i] = group.Ristretto255.HashToScalar(binary.BigEndian.AppendUint32(append([]byte{}, d...), uint32(i)), []byte(t.domain+"/"+label))
		b, _ := out[i].MarshalBinary()
		all = append(all, b...)
	}
	t.Add(label, all)
	return out
}

// Element decodes one 32-byte ristretto255 encoding (RFC 9496 §4.3.1),
// refusing the identity (SPEC.md §2); ok is false when it does not decode.
func Element(b []byte) (e group.Element, ok bool) {
	e = group.Ristretto255.NewElement()
	return e, e.UnmarshalBinary(b) == nil && !e.IsIdentity()
}

// Elements decodes a concatenation of 32-byte encodings with Element; ok
// is false when any of them does not decode.
func Elements(b []byte) ([]group.Element, bool) {
	out := make([]group.Element, len(b)/32)
	for i := range out {
		var ok bool
		if out[i], ok = Element(b[32*i : 32*i+32]); !ok {
			return nil, false
		}
	}
	return out, true
}
