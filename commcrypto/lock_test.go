package commcrypto

import (
	"crypto/rand"
	"testing"
)

func TestLockCommutes(t *testing.T) {
	tt := NewTileTable()
	for _, id := range []int{0, 1, 67, 135} {
		m := tt.Point(id)
		a, b, c := mustKey(t), mustKey(t), mustKey(t)
		ab := Lock(a, Lock(b, m))
		ba := Lock(b, Lock(a, m))
		if !ab.Equal(ba) {
			t.Fatalf("tile %d: a·(b·M) != b·(a·M)", id)
		}
		if !Lock(c, ab).Equal(Lock(b, Lock(c, Lock(a, m)))) {
			t.Fatalf("tile %d: three locks depend on order", id)
		}
		if !ab.Equal(Lock(a.Mul(b), m)) {
			t.Fatalf("tile %d: a·(b·M) != (ab)·M", id)
		}
		if ab.Equal(m) || Lock(a, m).Equal(m) {
			t.Fatalf("tile %d: lock left the tile unchanged", id)
		}
	}
}

func TestUnlockInvertsLock(t *testing.T) {
	tt := NewTileTable()
	for id := range NumTiles {
		m := tt.Point(id)
		a, b := mustKey(t), mustKey(t)
		c := Lock(a, Lock(b, m))
		// Remove the locks in either order.
		if got := Unlock(a, Unlock(b, c)); !got.Equal(m) {
			t.Fatalf("tile %d: Unlock(a, Unlock(b, ·)) failed", id)
		}
		if got := Unlock(b, Unlock(a, c)); !got.Equal(m) {
			t.Fatalf("tile %d: Unlock(b, Unlock(a, ·)) failed", id)
		}
		// Removing only one lock does not reveal the tile.
		if _, ok := tt.Lookup(Unlock(a, c)); ok {
			t.Fatalf("tile %d: one unlock revealed the tile", id)
		}
		// Removing the wrong key does not reveal it either.
		if _, ok := tt.Lookup(Unlock(mustKey(t), Unlock(a, c))); ok {
			t.Fatalf("tile %d: wrong key revealed the tile", id)
		}
	}
}

func TestLockAll(t *testing.T) {
	tt := NewTileTable()
	deck := tt.Points()
	k := mustKey(t)
	locked := LockAll(k, deck)
	if len(locked) != NumTiles {
		t.Fatalf("len = %d", len(locked))
	}
	for i := range deck {
		if !deck[i].Equal(tt.Point(i)) {
			t.Fatal("LockAll modified its input")
		}
		if !locked[i].Equal(Lock(k, deck[i])) {
			t.Fatalf("LockAll[%d] != Lock(k, M[%d])", i, i)
		}
	}
	if got := LockAll(k, nil); len(got) != 0 {
		t.Error("LockAll(nil) not empty")
	}
	mustPanic(t, "LockAll(unset key)", func() { LockAll(Scalar{}, deck) })
	mustPanic(t, "LockAll(unset element)", func() { LockAll(k, []Element{deck[0], {}}) })
}

func TestRekeyFactor(t *testing.T) {
	tt := NewTileTable()
	m := tt.Point(42)
	k, r := mustKey(t), mustKey(t)
	f := RekeyFactor(r, k)
	if !f.Equal(r.Mul(k.Inverse())) {
		t.Fatal("RekeyFactor != r·k⁻¹")
	}
	// (r·k⁻¹)·(k·M) = r·M
	if got := Lock(f, Lock(k, m)); !got.Equal(Lock(r, m)) {
		t.Fatal("rekeyed ciphertext != r·M")
	}
	if got := Decrypt(Lock(f, Lock(k, m)), r); !got.Equal(m) {
		t.Fatal("Decrypt with r failed after rekey")
	}
	rs := []Scalar{mustKey(t), mustKey(t), mustKey(t)}
	fs := RekeyFactors(rs, k)
	for i := range rs {
		if !fs[i].Equal(RekeyFactor(rs[i], k)) {
			t.Fatalf("RekeyFactors[%d] != RekeyFactor", i)
		}
	}
	mustPanic(t, "RekeyFactor(unset)", func() { RekeyFactor(r, Scalar{}) })
}

func TestDecrypt(t *testing.T) {
	tt := NewTileTable()
	m := tt.Point(7)
	keys := []Scalar{mustKey(t), mustKey(t), mustKey(t), mustKey(t)}
	c := m
	for _, k := range keys {
		c = Lock(k, c)
	}
	if got := Decrypt(c, keys...); !got.Equal(m) {
		t.Fatal("Decrypt with all keys failed")
	}
	if got := Decrypt(c, keys[3], keys[1], keys[0], keys[2]); !got.Equal(m) {
		t.Fatal("Decrypt depends on key order")
	}
	if got := Decrypt(c, keys[:3]...); got.Equal(m) {
		t.Fatal("Decrypt with 3 of 4 keys revealed the tile")
	}
	if got := Decrypt(m); !got.Equal(m) {
		t.Fatal("Decrypt with no keys changed the element")
	}
	mustPanic(t, "Decrypt(unset)", func() { Decrypt(Element{}, keys...) })
	mustPanic(t, "Lock(unset key)", func() { Lock(Scalar{}, m) })
	mustPanic(t, "Lock(unset element)", func() { Lock(keys[0], Element{}) })
	mustPanic(t, "Unlock(unset key)", func() { Unlock(Scalar{}, m) })
}

// TestHandRoundTrip plays the cryptographic part of docs/DESIGN.md "One hand"
// for four players: shuffle passes, rekey passes with commitments, then
// every position decrypted with its four position keys (each checked
// against its commitment) must give back a permutation of the 136 tiles
// that matches the composed shuffle.
func TestHandRoundTrip(t *testing.T) {
	const players = 4
	tt := NewTileTable()
	deck := tt.Points()
	// yama[i] = tile id at position i, tracked in the clear to check the result.
	yama := make([]int, NumTiles)
	for i := range yama {
		yama[i] = i
	}
	k := make([]Scalar, players)
	for j := range players {
		k[j] = mustKey(t)
		perm, err := Permutation(rand.Reader, NumTiles)
		if err != nil {
			t.Fatal(err)
		}
		locked := LockAll(k[j], deck)
		next := make([]Element, NumTiles)
		nextYama := make([]int, NumTiles)
		for i, p := range perm {
			next[i] = locked[p]
			nextYama[i] = yama[p]
		}
		deck, yama = next, nextYama
	}
	// After the shuffle no position decodes to a tile.
	for i, c := range deck {
		if _, ok := tt.Lookup(c); ok {
			t.Fatalf("position %d readable after shuffle", i)
		}
	}
	r := make([][]Scalar, players)
	R := make([][]Element, players)
	for j := range players {
		r[j] = make([]Scalar, NumTiles)
		R[j] = make([]Element, NumTiles)
		for i := range NumTiles {
			r[j][i] = mustKey(t)
			R[j][i] = Commit(r[j][i])
		}
		fs := RekeyFactors(r[j], k[j])
		for i := range deck {
			deck[i] = Lock(fs[i], deck[i])
		}
		// Over the wire and back.
		var err error
		deck, err = DecodeElements(EncodeElements(deck), NumTiles)
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := make([]bool, NumTiles)
	for i, c := range deck {
		keys := make([]Scalar, players)
		for j := range players {
			if err := CheckCommitment(r[j][i], R[j][i]); err != nil {
				t.Fatalf("position %d player %d: %v", i, j, err)
			}
			keys[j] = r[j][i]
		}
		if _, ok := tt.Lookup(Decrypt(c, keys[:3]...)); ok {
			t.Fatalf("position %d readable with three keys", i)
		}
		id, ok := tt.Lookup(Decrypt(c, keys...))
		if !ok {
			t.Fatalf("position %d: not a tile after decryption", i)
		}
		if id != yama[i] {
			t.Fatalf("position %d: tile %d, want %d", i, id, yama[i])
		}
		if seen[id] {
			t.Fatalf("tile %d appears twice", id)
		}
		seen[id] = true
	}
}
