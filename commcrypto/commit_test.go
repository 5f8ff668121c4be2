package commcrypto

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestCommitment(t *testing.T) {
	r := mustKey(t)
	R := Commit(r)
	if err := CheckCommitment(r, R); err != nil {
		t.Fatalf("honest opening rejected: %v", err)
	}
	if !R.Equal(Lock(r, Generator())) {
		t.Fatal("Commit(r) != r·G")
	}
	if !Commit(smallScalar(t, 1)).Equal(Generator()) {
		t.Fatal("Commit(1) != G")
	}
	// Round trip through the wire.
	r2, err := DecodeScalar(r.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	R2, err := DecodeElement(R.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckCommitment(r2, R2); err != nil {
		t.Fatalf("decoded opening rejected: %v", err)
	}
}

func TestCommitmentTampered(t *testing.T) {
	r := mustKey(t)
	R := Commit(r)
	other := mustKey(t)

	// A different key for the same commitment.
	if err := CheckCommitment(other, R); !errors.Is(err, ErrCommitment) {
		t.Errorf("wrong key: err = %v", err)
	}
	// The right key against another commitment.
	if err := CheckCommitment(r, Commit(other)); !errors.Is(err, ErrCommitment) {
		t.Errorf("wrong commitment: err = %v", err)
	}
	// Related keys: r+1 (via r·(1+r⁻¹)), r⁻¹, r², −r (via (ℓ−1)·r).
	lm1 := mustDecodeScalar(t, "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	for name, k := range map[string]Scalar{
		"r⁻¹": r.Inverse(),
		"r²":  r.Mul(r),
		"−r":  r.Mul(lm1),
		"2r":  r.Mul(smallScalar(t, 2)),
	} {
		if err := CheckCommitment(k, R); !errors.Is(err, ErrCommitment) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	// Flip each bit of the encoded commitment; whatever still decodes must fail.
	enc := R.Bytes()
	decoded := 0
	for bit := range 8 * ElementSize {
		b := append([]byte(nil), enc...)
		b[bit/8] ^= 1 << (bit % 8)
		T, err := DecodeElement(b)
		if err != nil {
			continue
		}
		decoded++
		if err := CheckCommitment(r, T); !errors.Is(err, ErrCommitment) {
			t.Fatalf("bit %d flipped: err = %v", bit, err)
		}
	}
	if decoded == 0 {
		t.Log("no bit-flipped commitment decoded (possible but unlikely)")
	}
	// Flip each bit of the key.
	kb := r.Bytes()
	for bit := range 8 * ScalarSize {
		b := append([]byte(nil), kb...)
		b[bit/8] ^= 1 << (bit % 8)
		k, err := DecodeScalar(b)
		if err != nil {
			continue
		}
		if err := CheckCommitment(k, R); !errors.Is(err, ErrCommitment) {
			t.Fatalf("key bit %d flipped: err = %v", bit, err)
		}
	}
	// Unset arguments are an error, not a panic.
	if err := CheckCommitment(Scalar{}, R); !errors.Is(err, ErrCommitment) {
		t.Errorf("unset key: err = %v", err)
	}
	if err := CheckCommitment(r, Element{}); !errors.Is(err, ErrCommitment) {
		t.Errorf("unset commitment: err = %v", err)
	}
	mustPanic(t, "Commit(unset)", func() { Commit(Scalar{}) })
}

// CheckCommitments against CheckCommitment one by one: all good, one
// wrong key anywhere (named), two keys swapped, unset values, lengths.
func TestCheckCommitments(t *testing.T) {
	const n = 40
	rs := make([]Scalar, n)
	Rs := make([]Element, n)
	for i := range rs {
		rs[i] = smallScalar(t, uint64(1000+i*7))
		Rs[i] = Commit(rs[i])
	}
	if err := CheckCommitments(rs, Rs); err != nil {
		t.Fatalf("honest keys: %v", err)
	}
	for _, bad := range []int{0, 17, n - 1} {
		w := append([]Scalar(nil), rs...)
		w[bad] = smallScalar(t, 3)
		err := CheckCommitments(w, Rs)
		if !errors.Is(err, ErrCommitment) || !strings.Contains(err.Error(), fmt.Sprintf("index %d:", bad)) {
			t.Errorf("wrong key at %d: err = %v", bad, err)
		}
	}
	w := append([]Scalar(nil), rs...)
	w[3], w[4] = w[4], w[3]
	if err := CheckCommitments(w, Rs); !errors.Is(err, ErrCommitment) || !strings.Contains(err.Error(), "index 3:") {
		t.Errorf("swapped keys: err = %v", err)
	}
	w = append([]Scalar(nil), rs...)
	w[5] = Scalar{}
	if err := CheckCommitments(w, Rs); !errors.Is(err, ErrCommitment) {
		t.Errorf("unset key: err = %v", err)
	}
	if err := CheckCommitments(rs[:3], Rs); !errors.Is(err, ErrCommitment) {
		t.Errorf("lengths: err = %v", err)
	}
	if err := CheckCommitments(nil, nil); err != nil {
		t.Errorf("empty: %v", err)
	}
}
