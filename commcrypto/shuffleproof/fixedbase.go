package shuffleproof

import (
	"fmt"

	ristretto "github.com/bwesterb/go-ristretto"
	"github.com/cloudflare/circl/group"
)

// The prover's multiples of the fixed generator H come from
// github.com/bwesterb/go-ristretto, the ristretto255 implementation behind
// circl's group.Ristretto255, which offers constant-time multiplication
// from a precomputed table of any point (Point.ScalarMultTable): a third
// of the cost of the variable-base multiplication circl's group interface
// exposes. Values cross between the two by their canonical RFC 9496
// encodings; no curve arithmetic is done here.

// toRistretto returns e as a go-ristretto point.
func toRistretto(e group.Element) *ristretto.Point {
	enc, err := e.MarshalBinary()
	if err != nil || len(enc) != size {
		panic(fmt.Sprintf("shuffleproof: ristretto255 encoding failed: %v", err)) // cannot happen with circl
	}
	var p ristretto.Point
	if !p.SetBytes((*[size]byte)(enc)) {
		panic("shuffleproof: go-ristretto rejects a canonical encoding from circl") // cannot happen
	}
	return &p
}

// mulHG returns x·H + y·G, computed in constant time, and writes its
// canonical encoding into dst (32 bytes). x and y may be secret.
func (p *Params) mulHG(dst []byte, x, y group.Scalar) group.Element {
	var xs, ys ristretto.Scalar
	xs.SetBytes(scalarBytes(x))
	ys.SetBytes(scalarBytes(y))
	var xh, yg ristretto.Point
	xh.ScalarMultTable(p.hTable, &xs)
	yg.ScalarMultBase(&ys)
	xh.Add(&xh, &yg)
	xh.BytesInto((*[size]byte)(dst))
	e := g.NewElement()
	if err := e.UnmarshalBinary(dst); err != nil {
		panic(fmt.Sprintf("shuffleproof: circl rejects a canonical encoding from go-ristretto: %v", err)) // cannot happen
	}
	return e
}

// scalarBytes returns the canonical 32-byte little-endian encoding of s.
func scalarBytes(s group.Scalar) *[size]byte {
	enc, err := s.MarshalBinary()
	if err != nil || len(enc) != size {
		panic(fmt.Sprintf("shuffleproof: scalar encoding failed: %v", err)) // cannot happen with circl
	}
	return (*[size]byte)(enc)
}
