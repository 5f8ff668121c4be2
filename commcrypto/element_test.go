package commcrypto

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestDecodeElementLength(t *testing.T) {
	good := Generator().Bytes()
	for _, n := range []int{0, 1, 31, 33, 64} {
		b := make([]byte, n)
		copy(b, good)
		_, err := DecodeElement(b)
		if !errors.Is(err, ErrElementLength) {
			t.Errorf("%d bytes: err = %v, want ErrElementLength", n, err)
		}
	}
	if _, err := DecodeElement(nil); !errors.Is(err, ErrElementLength) {
		t.Errorf("nil: err = %v, want ErrElementLength", err)
	}
}

func TestDecodeElementIdentity(t *testing.T) {
	e, err := DecodeElement(make([]byte, ElementSize))
	if !errors.Is(err, ErrIdentity) {
		t.Fatalf("identity: err = %v, want ErrIdentity", err)
	}
	if !e.IsZero() {
		t.Error("identity: returned a set Element alongside the error")
	}
}

func TestDecodeElementRoundTrip(t *testing.T) {
	for range 20 {
		e := Commit(mustKey(t))
		d, err := DecodeElement(e.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !d.Equal(e) || d.Key() != e.Key() || !bytes.Equal(d.Bytes(), e.Bytes()) {
			t.Fatal("round trip changed the element")
		}
	}
}

func TestElementBytesIsACopy(t *testing.T) {
	e := Generator()
	b := e.Bytes()
	if len(b) != ElementSize {
		t.Fatalf("len(Bytes()) = %d", len(b))
	}
	b[0] ^= 0xff
	if e.Bytes()[0] == b[0] {
		t.Error("mutating Bytes() result changed the Element")
	}
	in := Generator().Bytes()
	d, err := DecodeElement(in)
	if err != nil {
		t.Fatal(err)
	}
	in[0] ^= 0xff
	if !d.Equal(Generator()) {
		t.Error("mutating DecodeElement's input changed the Element")
	}
}

func TestElementEqualAndZero(t *testing.T) {
	G := Generator()
	H := Commit(smallScalar(t, 2))
	var unset Element
	switch {
	case !G.Equal(Generator()):
		t.Error("G != G")
	case G.Equal(H):
		t.Error("G == 2G")
	case G.Key() == H.Key():
		t.Error("G and 2G share a Key")
	case !unset.IsZero() || G.IsZero():
		t.Error("IsZero wrong")
	case !unset.Equal(Element{}):
		t.Error("unset != unset")
	case unset.Equal(G) || G.Equal(unset):
		t.Error("unset == G")
	case unset.Bytes() != nil:
		t.Error("unset.Bytes() != nil")
	case unset.Key() != [ElementSize]byte{}:
		t.Error("unset.Key() not zero")
	case unset.String() != "<unset>":
		t.Errorf("unset.String() = %q", unset.String())
	case G.String() != "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76":
		t.Errorf("G.String() = %s", G)
	}
}

func TestDecodeElements(t *testing.T) {
	tt := NewTileTable()
	deck := tt.Points()
	msg := EncodeElements(deck)
	if len(msg) != NumTiles*ElementSize {
		t.Fatalf("EncodeElements: %d bytes", len(msg))
	}
	got, err := DecodeElements(msg, NumTiles)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if !got[i].Equal(deck[i]) {
			t.Fatalf("element %d changed", i)
		}
	}
	for _, c := range []struct {
		b []byte
		n int
	}{
		{msg, NumTiles - 1}, {msg, NumTiles + 1}, {msg[:len(msg)-1], NumTiles},
		{msg, -1}, {nil, 1}, {msg[:5], 0},
	} {
		if _, err := DecodeElements(c.b, c.n); !errors.Is(err, ErrElementLength) {
			t.Errorf("len %d, n %d: err = %v, want ErrElementLength", len(c.b), c.n, err)
		}
	}
	if got, err := DecodeElements(nil, 0); err != nil || len(got) != 0 {
		t.Errorf("empty: %v, %v", got, err)
	}
	// One bad element anywhere rejects the message and names its index.
	bad := bytes.Clone(msg)
	copy(bad[7*ElementSize:], make([]byte, ElementSize))
	_, err = DecodeElements(bad, NumTiles)
	if !errors.Is(err, ErrIdentity) || !strings.Contains(err.Error(), "element 7") {
		t.Errorf("identity at 7: err = %v", err)
	}
	bad = bytes.Clone(msg)
	bad[135*ElementSize] |= 1 // odd s: negative field element
	_, err = DecodeElements(bad, NumTiles)
	if !errors.Is(err, ErrElementEncoding) || !strings.Contains(err.Error(), "element 135") {
		t.Errorf("negative s at 135: err = %v", err)
	}
	// Two bad elements (decoded by different goroutines): the first is
	// named.
	bad = bytes.Clone(msg)
	copy(bad[100*ElementSize:], make([]byte, ElementSize))
	bad[61*ElementSize] |= 1
	_, err = DecodeElements(bad, NumTiles)
	if !errors.Is(err, ErrElementEncoding) || !strings.Contains(err.Error(), "element 61") {
		t.Errorf("bad at 61 and 100: err = %v, want element 61", err)
	}
	mustPanic(t, "EncodeElements(unset)", func() { EncodeElements([]Element{Generator(), {}}) })
}

// FuzzDecodeElement: decoding arbitrary bytes never panics, and whatever is
// accepted is a canonical, non-identity encoding that round-trips.
func FuzzDecodeElement(f *testing.F) {
	f.Add(make([]byte, 32))
	f.Add(Generator().Bytes())
	f.Add(bytes.Repeat([]byte{0xff}, 32))
	f.Add([]byte{1, 2, 3})
	f.Add(bytes.Repeat([]byte{0xec}, 33))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := DecodeElement(b)
		if err != nil {
			if !e.IsZero() {
				t.Fatal("error with a set Element")
			}
			return
		}
		if !bytes.Equal(e.Bytes(), b) {
			t.Fatalf("accepted %x but re-encodes as %x", b, e.Bytes())
		}
		if e.p.IsIdentity() {
			t.Fatal("accepted the identity")
		}
		if _, err := DecodeElements(b, 1); err != nil {
			t.Fatal(err)
		}
	})
}

func TestPointRoundTrip(t *testing.T) {
	tiles := NewTileTable()
	m := tiles.Points()[7]
	p := m.Point()
	back, err := ElementFromPoint(p)
	if err != nil || !back.Equal(m) {
		t.Fatalf("ElementFromPoint(Point()) = %v, %v", back, err)
	}
	p.Dbl(p) // mutating the copy leaves m alone
	if !tiles.Points()[7].Equal(m) {
		t.Fatal("Point returned the internal element")
	}
	if _, err := ElementFromPoint(g.Identity()); !errors.Is(err, ErrIdentity) {
		t.Errorf("identity: err = %v, want ErrIdentity", err)
	}
}
