package commcrypto

import (
	"errors"
	"strconv"
	"testing"
)

// RFC 9496 Appendix A.1: k·B for k = 0..15.
func TestRFC9496GeneratorMultiples(t *testing.T) {
	rows := readVectors(t, "rfc9496_generator_multiples.txt")
	if len(rows) != 16 {
		t.Fatalf("want 16 vectors, got %d", len(rows))
	}
	G := Generator()
	for _, row := range rows {
		k, err := strconv.Atoi(row[0])
		if err != nil {
			t.Fatal(err)
		}
		enc := mustHex(t, row[1])
		e, err := DecodeElement(enc)
		if k == 0 {
			if !errors.Is(err, ErrIdentity) {
				t.Errorf("0·B: DecodeElement err = %v, want ErrIdentity", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%d·B: DecodeElement: %v", k, err)
		}
		if got := e.String(); got != row[1] {
			t.Errorf("%d·B: re-encoding %s, want %s", k, got, row[1])
		}
		s := smallScalar(t, uint64(k))
		if got := Commit(s); !got.Equal(e) {
			t.Errorf("Commit(%d) = %s, want %s", k, got, row[1])
		}
		if got := Lock(s, G); !got.Equal(e) {
			t.Errorf("Lock(%d, G) = %s, want %s", k, got, row[1])
		}
		if k == 1 && !G.Equal(e) {
			t.Errorf("Generator() = %s, want %s", G, row[1])
		}
	}
}

// RFC 9496 Appendix A.2: encodings that must be rejected.
func TestRFC9496InvalidEncodings(t *testing.T) {
	rows := readVectors(t, "rfc9496_invalid_encodings.txt")
	if len(rows) != 29 {
		t.Fatalf("want 29 vectors, got %d", len(rows))
	}
	for _, row := range rows {
		_, err := DecodeElement(mustHex(t, row[1]))
		if !errors.Is(err, ErrElementEncoding) {
			t.Errorf("%s %s: err = %v, want ErrElementEncoding", row[0], row[1], err)
		}
	}
}

// Every point has exactly one accepted encoding. For a canonical encoding
// s of k·B (even, < p), 2p − s is even and ≡ −s (mod p); since decoding
// depends on s², a decoder without the s < p check would accept it as a
// second encoding of the same point. Likewise s + p (odd, so "negative"
// if reduced without care).
func TestNonCanonicalAliasesRejected(t *testing.T) {
	rows := readVectors(t, "rfc9496_generator_multiples.txt")
	for _, row := range rows[1:] {
		s := mustHex(t, row[1])
		for name, alias := range map[string][]byte{
			"2p-s": subLE(twoP(), s),
			"s+p":  addLE(s, p25519()),
		} {
			_, err := DecodeElement(alias)
			if !errors.Is(err, ErrElementEncoding) {
				t.Errorf("%s of %s·B (%x): err = %v, want ErrElementEncoding", name, row[0], alias, err)
			}
		}
	}
}

// RFC 9497 Appendix A.1.1, OPRF(ristretto255, SHA-512): known answers for
// circl's HashToElement (RFC 9380 hash_to_ristretto255) and for Lock with
// non-trivial scalars.
func TestRFC9497HashToGroup(t *testing.T) {
	const dst = "HashToGroup-OPRFV1-\x00-ristretto255-SHA512"
	rows := readVectors(t, "rfc9497_oprf_ristretto255_sha512.txt")
	var sk Scalar
	n := 0
	for _, row := range rows {
		switch row[0] {
		case "skSm":
			sk = mustDecodeScalar(t, row[1])
		case "vector":
			n++
			input := mustHex(t, row[1])
			blind := mustDecodeScalar(t, row[2])
			blinded := mustDecodeElement(t, row[3])
			evaluated := mustDecodeElement(t, row[4])

			h := newElement(g.HashToElement(input, []byte(dst)))
			if got := Lock(blind, h); !got.Equal(blinded) {
				t.Errorf("input %s: Blind·HashToGroup = %s, want %s", row[1], got, row[3])
			}
			if got := Lock(sk, blinded); !got.Equal(evaluated) {
				t.Errorf("input %s: skSm·Blinded = %s, want %s", row[1], got, row[4])
			}
			if got := Unlock(blind, blinded); !got.Equal(h) {
				t.Errorf("input %s: Unlock(blind) did not return HashToGroup(input)", row[1])
			}
			if got := Decrypt(evaluated, blind, sk); !got.Equal(h) {
				t.Errorf("input %s: Decrypt(evaluated, blind, sk) did not return HashToGroup(input)", row[1])
			}
		}
	}
	if n != 2 || sk.IsZero() {
		t.Fatalf("parsed %d vectors (sk set: %v), want 2", n, !sk.IsZero())
	}
}

// The tile points agree with an independent implementation (hashlib's
// SHA-512 expand_message_xmd + libsodium's ristretto255 from_hash; see
// testdata/tilepoints_libsodium.py).
func TestTilePointsIndependent(t *testing.T) {
	rows := readVectors(t, "tilepoints.txt")
	if len(rows) != NumTiles {
		t.Fatalf("want %d tile points, got %d", NumTiles, len(rows))
	}
	tt := NewTileTable()
	for _, row := range rows {
		id, err := strconv.Atoi(row[0])
		if err != nil {
			t.Fatal(err)
		}
		if got := tt.Point(id).String(); got != row[1] {
			t.Errorf("T_%d = %s, want %s", id, got, row[1])
		}
	}
}

// RFC 9496 section 4.4: canonical scalars are < ℓ.
func TestScalarVectors(t *testing.T) {
	rows := readVectors(t, "scalars.txt")
	if len(rows) < 10 {
		t.Fatalf("only %d scalar vectors", len(rows))
	}
	for _, row := range rows {
		b := mustHex(t, row[2])
		s, err := DecodeScalar(b)
		switch row[0] {
		case "valid":
			if err != nil {
				t.Errorf("%s: %v", row[1], err)
			} else if got := s.Bytes(); string(got) != string(b) {
				t.Errorf("%s: Bytes() = %x, want %x", row[1], got, b)
			}
		case "zero":
			if !errors.Is(err, ErrZeroScalar) {
				t.Errorf("%s: err = %v, want ErrZeroScalar", row[1], err)
			}
		case "non-canonical":
			if !errors.Is(err, ErrScalarEncoding) {
				t.Errorf("%s: err = %v, want ErrScalarEncoding", row[1], err)
			}
		default:
			t.Fatalf("unknown verdict %q", row[0])
		}
	}
	// The order in scalars.txt is right: (ℓ−1)·G = −G.
	lm1 := mustDecodeScalar(t, "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	negG := newElement(g.NewElement().Neg(g.Generator()))
	if got := Commit(lm1); !got.Equal(negG) {
		t.Errorf("(ℓ−1)·G = %s, want −G = %s", got, negG)
	}
	// and (ℓ−1)² = 1.
	if !lm1.Mul(lm1).Equal(ProductOf()) {
		t.Error("(ℓ−1)² ≠ 1")
	}
}

// p25519 returns 2^255 − 19 as 32 little-endian bytes.
func p25519() []byte {
	p := make([]byte, 32)
	for i := range p {
		p[i] = 0xff
	}
	p[0] = 0xed
	p[31] = 0x7f
	return p
}

// twoP returns 2p = 2^256 − 38 as 32 little-endian bytes.
func twoP() []byte {
	return addLE(p25519(), p25519())
}

// addLE and subLE are 256-bit little-endian addition and subtraction mod
// 2^256 on byte strings, used only to build test encodings.
func addLE(a, b []byte) []byte {
	out := make([]byte, 32)
	carry := 0
	for i := range out {
		v := int(a[i]) + int(b[i]) + carry
		out[i] = byte(v)
		carry = v >> 8
	}
	return out
}

func subLE(a, b []byte) []byte {
	out := make([]byte, 32)
	borrow := 0
	for i := range out {
		v := int(a[i]) - int(b[i]) - borrow
		borrow = 0
		if v < 0 {
			v += 256
			borrow = 1
		}
		out[i] = byte(v)
	}
	return out
}
