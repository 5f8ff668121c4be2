package commcrypto

import (
	"crypto/subtle"
	"encoding/hex"
	"fmt"

	"github.com/cloudflare/circl/group"
)

// ElementSize is the length in bytes of an encoded Element: the canonical
// ristretto255 encoding of RFC 9496 section 4.3.2.
const ElementSize = 32

// g is the group every value of this package lives in: ristretto255
// (RFC 9496) from github.com/cloudflare/circl/group. It is a stateless
// constant.
var g = group.Ristretto255

// Element is a ristretto255 group element (RFC 9496) other than the
// identity, together with its canonical 32-byte encoding. It is a plaintext
// tile point, a ciphertext (a tile point under one or more locks), or a
// key commitment.
//
// Element is an immutable value: copy it and share it freely. The zero
// value Element{} is "unset" (IsZero reports true); it is not a group
// element and the arithmetic functions panic on it. Build Elements with
// DecodeElement, DecodeElements, Generator, Lock, Commit or a TileTable.
type Element struct {
	p   group.Element // never mutated after construction
	enc [ElementSize]byte
}

// newElement wraps p, which must be a non-identity ristretto255 element that
// no one else will mutate, and caches its canonical encoding.
func newElement(p group.Element) Element {
	b, err := p.MarshalBinary()
	if err != nil || len(b) != ElementSize {
		// circl's ristretto255 encoding cannot fail; reaching this is a bug
		// in this package or in circl, never a consequence of peer input.
		panic(fmt.Sprintf("commcrypto: ristretto255 encoding failed: %v", err))
	}
	e := Element{p: p}
	copy(e.enc[:], b)
	return e
}

// Generator returns G, the fixed generator of ristretto255 (RFC 9496
// section 4.4, encoded e2f2ae0a…2d76). Commit(r) is r·G.
func Generator() Element {
	return newElement(g.Generator())
}

// DecodeElement decodes a ristretto255 element received from a peer.
//
// b must be exactly ElementSize (32) bytes holding the canonical encoding of
// a group element other than the identity, as specified by RFC 9496 section
// 4.3.1 (decoding rejects s ≥ p, negative s, a non-square x², a negative
// x·y and y = 0; each element has exactly one accepted encoding). The
// returned Element's Bytes are equal to b.
//
// Errors (wrapped; test with errors.Is): ErrElementLength if len(b) != 32;
// ErrElementEncoding if b is not a canonical encoding; ErrIdentity if b
// encodes the identity (32 zero bytes), which circl itself would accept.
// DecodeElement never panics, whatever b holds.
func DecodeElement(b []byte) (Element, error) {
	if len(b) != ElementSize {
		return Element{}, fmt.Errorf("%w: got %d bytes", ErrElementLength, len(b))
	}
	p := g.NewElement()
	if err := p.UnmarshalBinary(b); err != nil {
		return Element{}, fmt.Errorf("%w: %x", ErrElementEncoding, b)
	}
	if p.IsIdentity() {
		return Element{}, ErrIdentity
	}
	e := Element{p: p}
	copy(e.enc[:], b)
	return e, nil
}

// DecodeElements decodes exactly n consecutive elements from b, for example
// a 136-element deck sent as one message.
//
// b must be exactly n·ElementSize bytes; each 32-byte chunk is decoded with
// the rules of DecodeElement. It returns a new slice of n Elements in order.
//
// Errors (wrapped): ErrElementLength if n < 0 or len(b) != n·32; otherwise the
// first chunk's ErrElementEncoding or ErrIdentity, with its index in the
// message. Never panics on any b. From 64 elements on, the decoding is
// spread over GOMAXPROCS goroutines.
func DecodeElements(b []byte, n int) ([]Element, error) {
	if n < 0 || n > len(b)/ElementSize || len(b) != n*ElementSize {
		return nil, fmt.Errorf("%w: got %d bytes, want %d elements", ErrElementLength, len(b), n)
	}
	out := make([]Element, n)
	errs := make([]error, n)
	decode := func(i int) {
		out[i], errs[i] = DecodeElement(b[i*ElementSize : (i+1)*ElementSize])
	}
	if n >= 64 {
		// Large decks: each decode costs a field inverse square root
		// (≈ 5 µs), so spread them over the cores.
		Parallel(n, decode)
	} else {
		for i := range out {
			decode(i)
		}
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("commcrypto: element %d: %w", i, err)
		}
	}
	return out, nil
}

// EncodeElements returns the concatenated canonical encodings of ms,
// len(ms)·ElementSize bytes, the inverse of DecodeElements. It panics if an
// element is unset (programmer error).
func EncodeElements(ms []Element) []byte {
	out := make([]byte, 0, len(ms)*ElementSize)
	for i, m := range ms {
		if m.IsZero() {
			panic(fmt.Sprintf("commcrypto: EncodeElements: element %d is unset", i))
		}
		out = append(out, m.enc[:]...)
	}
	return out
}

// Bytes returns a fresh copy of the element's canonical ristretto255
// encoding (RFC 9496 section 4.3.2), ElementSize (32) bytes; nil for the
// unset Element{}.
func (e Element) Bytes() []byte {
	if e.IsZero() {
		return nil
	}
	b := make([]byte, ElementSize)
	copy(b, e.enc[:])
	return b
}

// Key returns the canonical 32-byte encoding as an array, for use as a map
// key. Two Elements have the same Key iff they are the same group element.
// The unset Element{} has the all-zero Key, which no valid Element has (it
// is the identity's encoding).
func (e Element) Key() [ElementSize]byte {
	return e.enc
}

// Equal reports whether e and o are the same group element (comparing
// canonical encodings in constant time). Two unset Elements are equal; an
// unset Element equals no set one.
func (e Element) Equal(o Element) bool {
	if e.IsZero() || o.IsZero() {
		return e.IsZero() && o.IsZero()
	}
	return subtle.ConstantTimeCompare(e.enc[:], o.enc[:]) == 1
}

// IsZero reports whether e is the unset zero value Element{} (not a group
// element). It does not test for the group identity: no Element made by this
// package is the identity.
func (e Element) IsZero() bool {
	return e.p == nil
}

// String returns the lowercase hex of the 32-byte encoding, or "<unset>".
// Elements are public values, so this is safe to log.
func (e Element) String() string {
	if e.IsZero() {
		return "<unset>"
	}
	return hex.EncodeToString(e.enc[:])
}

func mustElement(m Element, fn string) {
	if m.IsZero() {
		panic("commcrypto: " + fn + ": unset Element (programmer error)")
	}
}
