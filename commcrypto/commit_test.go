package commcrypto

import (
	"errors"
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
