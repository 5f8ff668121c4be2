package shuffleproof

import (
	"fmt"

	"github.com/cloudflare/circl/group"

	"github.com/mentalmj/mentalmj/commcrypto"
)

// Bytes returns a copy of the encoding of the proof described in the
// package doc, Size(n) bytes.
func (pr *Proof) Bytes() []byte {
	return append([]byte(nil), pr.enc...)
}

// Decode parses a proof for decks of n elements (1 ≤ n ≤ MaxN) strictly:
// b must be exactly Size(n) bytes; every element must be the canonical
// RFC 9496 encoding of a group element other than the identity, every
// scalar the canonical little-endian encoding of an integer below ℓ.
// Errors wrap ErrEncoding and name the offending value and its byte
// offset. Decode never panics, whatever b holds.
func Decode(b []byte, n int) (*Proof, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("%w: deck length %d out of range 1..%d", ErrEncoding, n, MaxN)
	}
	if len(b) != Size(n) {
		return nil, fmt.Errorf("%w: %d bytes, want %d for %d elements", ErrEncoding, len(b), Size(n), n)
	}
	d := decoder{b: b}
	pr := &Proof{enc: append([]byte(nil), b...)}
	pr.c = d.elems("permutation commitment", n)
	pr.cHat = d.elems("chain commitment", n)
	ts := d.elems("first message t", 5)
	pr.tHat = d.elems("chain first message", n)
	ss := d.scalars("response s", 4)
	pr.sHat = d.scalars("chain response", n)
	pr.sPrime = d.scalars("permuted response", n)
	if d.err != nil {
		return nil, d.err
	}
	pr.t1, pr.t2, pr.t3, pr.t4, pr.t5 = ts[0], ts[1], ts[2], ts[3], ts[4]
	pr.s1, pr.s2, pr.s3, pr.s4 = ss[0], ss[1], ss[2], ss[3]
	return pr, nil
}

// decoder reads 32-byte values in order, keeping the first error.
type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) elems(what string, n int) []group.Element {
	out := make([]group.Element, n)
	if d.err != nil {
		return out
	}
	// Each decode costs a field inverse square root: spread them over
	// the cores, then report the first failure in order.
	errs := make([]error, n)
	base := d.off
	commcrypto.Parallel(n, func(i int) {
		off := base + i*size
		e := g.NewElement()
		if err := e.UnmarshalBinary(d.b[off : off+size]); err != nil {
			errs[i] = fmt.Errorf("%w: %s %d at byte %d is not a canonical ristretto255 encoding", ErrEncoding, what, i, off)
		} else if e.IsIdentity() {
			errs[i] = fmt.Errorf("%w: %s %d at byte %d is the identity", ErrEncoding, what, i, off)
		}
		out[i] = e
	})
	for _, err := range errs {
		if err != nil {
			d.err = err
			break
		}
	}
	d.off += n * size
	return out
}

func (d *decoder) scalars(what string, n int) []group.Scalar {
	out := make([]group.Scalar, n)
	for i := range out {
		if d.err != nil {
			return out
		}
		s := g.NewScalar()
		if err := s.UnmarshalBinary(d.b[d.off : d.off+size]); err != nil {
			d.err = fmt.Errorf("%w: %s %d at byte %d is not a canonical scalar (≥ ℓ)", ErrEncoding, what, i, d.off)
		}
		out[i] = s
		d.off += size
	}
	return out
}

// putElem writes the canonical encoding of e into dst (32 bytes).
func putElem(dst []byte, e group.Element) {
	enc, err := e.MarshalBinary()
	if err != nil || len(enc) != size {
		panic(fmt.Sprintf("shuffleproof: ristretto255 encoding failed: %v", err)) // cannot happen with circl
	}
	copy(dst, enc)
}

// putScalar writes the canonical encoding of s into dst (32 bytes).
func putScalar(dst []byte, s group.Scalar) {
	enc, err := s.MarshalBinary()
	if err != nil || len(enc) != size {
		panic(fmt.Sprintf("shuffleproof: scalar encoding failed: %v", err)) // cannot happen with circl
	}
	copy(dst, enc)
}
