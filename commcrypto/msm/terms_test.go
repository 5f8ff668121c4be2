package msm

import (
	"testing"
)

// key returns p's canonical encoding, the key AddKeyed merges on.
func key(t *testing.T, p interface{ MarshalBinaryCompress() ([]byte, error) }) [32]byte {
	t.Helper()
	b, err := p.MarshalBinaryCompress()
	if err != nil || len(b) != 32 {
		t.Fatalf("encoding: %v", err)
	}
	return [32]byte(b)
}

// TestTermsMergesSharedPoints builds two "statements" over 40 points that
// share 20 of them, weighted and summed as a batch does: the shared points
// are one term each, and the sum equals the naive sum of every term
// unmerged (circl's constant-time multiplications, a second code path).
func TestTermsMergesSharedPoints(t *testing.T) {
	ss, ps := inputs(t, 60, "terms")
	a, b := &Terms{}, &Terms{}
	for i := range 40 { // statement a: points 0..39
		a.AddKeyed(key(t, ps[i]), ss[i], ps[i])
	}
	for i := 20; i < 60; i++ { // statement b: points 20..59, other scalars
		b.AddKeyed(key(t, ps[i]), ss[59-i+20], ps[i])
	}
	proofPoint := ps[7].Copy()
	b.Add(ss[9], proofPoint) // an unkeyed term: never merged
	wa, wb := ss[11], ss[12]

	var sum Terms
	sum.AddScaled(wa, a)
	sum.AddScaled(wb, b)
	// inputs repeats point 3 as point 4: both carry the same key, so
	// they merge too (60 distinct encodings less one, plus the unkeyed).
	if got, want := sum.Len(), 59+1; got != want {
		t.Errorf("Len() = %d, want %d", got, want)
	}

	var nss = ss[:0:0]
	nps := ps[:0:0]
	for i := range 40 {
		nss = append(nss, g.NewScalar().Mul(wa, ss[i]))
		nps = append(nps, ps[i])
	}
	for i := 20; i < 60; i++ {
		nss = append(nss, g.NewScalar().Mul(wb, ss[59-i+20]))
		nps = append(nps, ps[i])
	}
	nss = append(nss, g.NewScalar().Mul(wb, ss[9]))
	nps = append(nps, proofPoint)
	if !sum.Sum().IsEqual(naive(nss, nps)) {
		t.Fatal("merged sum differs from the naive sum of every term")
	}
	// A tampered scalar changes the sum: the comparison can fail.
	sum.Add(ss[13], ps[0])
	if sum.Sum().IsEqual(naive(nss, nps)) {
		t.Fatal("an extra term left the sum unchanged")
	}
}

func TestTermsEmpty(t *testing.T) {
	var s Terms
	if s.Len() != 0 || !s.Sum().IsIdentity() {
		t.Fatal("empty Terms is not the identity")
	}
}
