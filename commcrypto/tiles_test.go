package commcrypto

import (
	"bytes"
	"testing"
)

func TestTileTableDistinct(t *testing.T) {
	tt := NewTileTable()
	pts := tt.Points()
	if len(pts) != NumTiles {
		t.Fatalf("%d points", len(pts))
	}
	seen := map[[ElementSize]byte]int{}
	for id, p := range pts {
		if p.IsZero() || p.p.IsIdentity() {
			t.Fatalf("T_%d unset or identity", id)
		}
		if prev, dup := seen[p.Key()]; dup {
			t.Fatalf("T_%d == T_%d", id, prev)
		}
		seen[p.Key()] = id
		if !tt.Point(id).Equal(p) {
			t.Fatalf("Point(%d) != Points()[%d]", id, id)
		}
		got, ok := tt.Lookup(p)
		if !ok || got != id {
			t.Fatalf("Lookup(T_%d) = %d, %v", id, got, ok)
		}
		// Through the wire.
		d, err := DecodeElement(p.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := tt.Lookup(d); !ok || got != id {
			t.Fatalf("Lookup(decoded T_%d) = %d, %v", id, got, ok)
		}
	}
}

func TestTileTableDeterministic(t *testing.T) {
	a, b := NewTileTable(), NewTileTable()
	for id := range NumTiles {
		if !a.Point(id).Equal(b.Point(id)) {
			t.Fatalf("T_%d differs between tables", id)
		}
	}
}

func TestTileMessage(t *testing.T) {
	for _, c := range []struct {
		id   int
		want []byte
	}{{0, []byte{0, 0}}, {1, []byte{0, 1}}, {135, []byte{0, 0x87}}, {0x1234, []byte{0x12, 0x34}}} {
		if got := tileMessage(c.id); !bytes.Equal(got, c.want) {
			t.Errorf("tileMessage(%d) = %x, want %x", c.id, got, c.want)
		}
	}
	// The DST is part of the point: a different tag gives different points.
	other := newElement(g.HashToElement(tileMessage(0), []byte("mentalmj/v2/tile")))
	if other.Equal(NewTileTable().Point(0)) {
		t.Error("DST does not affect the tile point")
	}
}

func TestLookupNonTile(t *testing.T) {
	tt := NewTileTable()
	k := mustKey(t)
	for name, m := range map[string]Element{
		"generator":    Generator(),
		"2G":           Commit(smallScalar(t, 2)),
		"locked tile":  Lock(k, tt.Point(0)),
		"random point": Commit(mustKey(t)),
		"unset":        {},
	} {
		if id, ok := tt.Lookup(m); ok {
			t.Errorf("Lookup(%s) = %d, true", name, id)
		}
	}
}

// Tile points must not be multiples of one another by small known
// factors, as id·G would be (T_b = b·T_1).
func TestTilePointsNotLinear(t *testing.T) {
	tt := NewTileTable()
	G := Generator()
	t1 := tt.Point(1)
	for b := 1; b < NumTiles; b++ {
		s := smallScalar(t, uint64(b))
		if _, ok := tt.Lookup(Lock(s, G)); ok {
			t.Fatalf("%d·G is a tile point", b)
		}
		if b >= 2 {
			if id, ok := tt.Lookup(Lock(s, t1)); ok {
				t.Fatalf("%d·T_1 = T_%d", b, id)
			}
		}
	}
}

func TestTileTablePointsIsACopy(t *testing.T) {
	tt := NewTileTable()
	pts := tt.Points()
	pts[0] = Generator()
	if tt.Point(0).Equal(Generator()) {
		t.Fatal("Points() exposes the table")
	}
	mustPanic(t, "Point(-1)", func() { tt.Point(-1) })
	mustPanic(t, "Point(136)", func() { tt.Point(NumTiles) })
}
