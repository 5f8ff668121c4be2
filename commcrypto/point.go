package commcrypto

import (
	"fmt"

	"github.com/cloudflare/circl/group"
)

// Point returns a fresh copy of e as a circl ristretto255 group element
// (group.Ristretto255), for the proof packages that compute on the group
// directly (commcrypto/shuffleproof, commcrypto/rekeyproof). The caller
// may mutate the copy. It panics if e is unset (programmer error).
func (e Element) Point() group.Element {
	mustElement(e, "Point")
	return g.NewElement().Set(e.p)
}

// ElementFromPoint wraps a circl ristretto255 element (group.Ristretto255)
// as an Element, copying it. It returns ErrIdentity (wrapped) for the
// identity and an error for an element of another group.
func ElementFromPoint(p group.Element) (Element, error) {
	if p == nil || p.Group() != g {
		return Element{}, fmt.Errorf("commcrypto: ElementFromPoint: not a ristretto255 element")
	}
	if p.IsIdentity() {
		return Element{}, ErrIdentity
	}
	return newElement(g.NewElement().Set(p)), nil
}

// GroupScalar returns a fresh copy of s as a circl ristretto255 scalar
// (group.Ristretto255), for the proof packages. The result is secret if s
// is a key. It panics if s is unset (programmer error).
func (s Scalar) GroupScalar() group.Scalar {
	mustScalar(s, "GroupScalar")
	return g.NewScalar().Set(s.s)
}
