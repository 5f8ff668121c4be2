package commcrypto

import (
	"crypto/rand"
	"testing"
)

// Benchmarks for every operation, and for one player's shuffle and rekey
// passes over a 136-tile deck. Run with
//
//	go test -bench . -benchmem -run '^$' ./commcrypto/

var (
	sinkElement  Element
	sinkElements []Element
	sinkScalar   Scalar
	sinkBytes    []byte
	sinkErr      error
	sinkInt      int
	sinkTable    *TileTable
)

func BenchmarkDecodeElement(b *testing.B) {
	enc := Commit(mustKey(b)).Bytes()
	for b.Loop() {
		sinkElement, sinkErr = DecodeElement(enc)
	}
}

func BenchmarkDecodeElements136(b *testing.B) {
	msg := EncodeElements(LockAll(mustKey(b), NewTileTable().Points()))
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		sinkElements, sinkErr = DecodeElements(msg, NumTiles)
	}
}

func BenchmarkElementBytes(b *testing.B) {
	e := Commit(mustKey(b))
	for b.Loop() {
		sinkBytes = e.Bytes()
	}
}

func BenchmarkDecodeScalar(b *testing.B) {
	enc := mustKey(b).Bytes()
	for b.Loop() {
		sinkScalar, sinkErr = DecodeScalar(enc)
	}
}

func BenchmarkNewKey(b *testing.B) {
	for b.Loop() {
		sinkScalar, sinkErr = NewKey(rand.Reader)
	}
}

func BenchmarkInverse(b *testing.B) {
	k := mustKey(b)
	for b.Loop() {
		sinkScalar = k.Inverse()
	}
}

func BenchmarkScalarMul(b *testing.B) {
	k, r := mustKey(b), mustKey(b)
	for b.Loop() {
		sinkScalar = k.Mul(r)
	}
}

func BenchmarkRekeyFactor(b *testing.B) {
	k, r := mustKey(b), mustKey(b)
	for b.Loop() {
		sinkScalar = RekeyFactor(r, k)
	}
}

func BenchmarkLock(b *testing.B) {
	k := mustKey(b)
	m := NewTileTable().Point(0)
	for b.Loop() {
		sinkElement = Lock(k, m)
	}
}

func BenchmarkUnlock(b *testing.B) {
	k := mustKey(b)
	c := Lock(k, NewTileTable().Point(0))
	for b.Loop() {
		sinkElement = Unlock(k, c)
	}
}

func BenchmarkCommit(b *testing.B) {
	r := mustKey(b)
	for b.Loop() {
		sinkElement = Commit(r)
	}
}

func BenchmarkCheckCommitment(b *testing.B) {
	r := mustKey(b)
	R := Commit(r)
	for b.Loop() {
		sinkErr = CheckCommitment(r, R)
	}
}

// Decrypt of one position with the four players' position keys.
func BenchmarkDecrypt(b *testing.B) {
	keys := []Scalar{mustKey(b), mustKey(b), mustKey(b), mustKey(b)}
	c := Lock(ProductOf(keys...), NewTileTable().Point(0))
	for b.Loop() {
		sinkElement = Decrypt(c, keys...)
	}
}

func BenchmarkNewTileTable(b *testing.B) {
	for b.Loop() {
		sinkTable = NewTileTable()
	}
}

func BenchmarkLookup(b *testing.B) {
	tt := NewTileTable()
	m := tt.Point(100)
	for b.Loop() {
		sinkInt, _ = tt.Lookup(m)
	}
}

// HashToElement of one tile (RFC 9380 hash_to_ristretto255 plus encoding).
func BenchmarkHashTile(b *testing.B) {
	for b.Loop() {
		sinkElement = tilePoint(77)
	}
}

func BenchmarkPermutation136(b *testing.B) {
	for b.Loop() {
		p, err := Permutation(rand.Reader, NumTiles)
		sinkInt, sinkErr = p[0], err
	}
}

// One player's shuffle pass: draw k_j, lock all 136 elements, apply a
// crypto/rand permutation.
func BenchmarkShufflePass136(b *testing.B) {
	deck := LockAll(mustKey(b), NewTileTable().Points())
	for b.Loop() {
		k, err := NewKey(rand.Reader)
		if err != nil {
			b.Fatal(err)
		}
		locked := LockAll(k, deck)
		perm, err := Permutation(rand.Reader, NumTiles)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]Element, NumTiles)
		for i, p := range perm {
			out[i] = locked[p]
		}
		sinkElements = out
	}
}

// One player's rekey pass as specified: for each of 136 positions, NewKey,
// RekeyFactor (which inverts k each time), one scalar multiplication and
// one Commit.
func BenchmarkRekeyPass136(b *testing.B) {
	k := mustKey(b)
	deck := LockAll(k, NewTileTable().Points())
	for b.Loop() {
		out := make([]Element, NumTiles)
		R := make([]Element, NumTiles)
		for i, c := range deck {
			r, err := NewKey(rand.Reader)
			if err != nil {
				b.Fatal(err)
			}
			out[i] = Lock(RekeyFactor(r, k), c)
			R[i] = Commit(r)
		}
		sinkElements, sinkElement = out, R[0]
	}
}

// The same rekey pass with k⁻¹ computed once (RekeyFactors).
func BenchmarkRekeyPass136Batched(b *testing.B) {
	k := mustKey(b)
	deck := LockAll(k, NewTileTable().Points())
	for b.Loop() {
		rs := make([]Scalar, NumTiles)
		for i := range rs {
			r, err := NewKey(rand.Reader)
			if err != nil {
				b.Fatal(err)
			}
			rs[i] = r
		}
		fs := RekeyFactors(rs, k)
		out := make([]Element, NumTiles)
		R := make([]Element, NumTiles)
		for i, c := range deck {
			out[i] = Lock(fs[i], c)
			R[i] = Commit(rs[i])
		}
		sinkElements, sinkElement = out, R[0]
	}
}
