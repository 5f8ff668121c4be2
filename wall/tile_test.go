package wall

import "testing"

func TestTileNames(t *testing.T) {
	cases := []struct {
		id   Tile
		name string
	}{
		{0, "1m"}, {35, "9m"}, {36, "1p"}, {16, "0m"}, {17, "5m"}, {52, "0p"}, {88, "0s"},
		{72, "1s"}, {108, "1z"}, {124, "5z"}, {135, "7z"}, {136, "?136"}, {-1, "?-1"},
	}
	for _, c := range cases {
		if got := c.id.String(); got != c.name {
			t.Errorf("Tile(%d) = %q, want %q", c.id, got, c.name)
		}
	}
}

func TestParseTileNameRoundTrip(t *testing.T) {
	for id := Tile(0); id < NumTiles; id++ {
		k, red, err := ParseTileName(id.String())
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if k != id.Kind() || red != id.IsRed() {
			t.Errorf("%s parsed as kind %d red %v, want %d %v", id, k, red, id.Kind(), id.IsRed())
		}
	}
	for _, bad := range []string{"", "1", "8z", "0z", "5x", "10m", "am"} {
		if _, _, err := ParseTileName(bad); err == nil {
			t.Errorf("ParseTileName(%q) accepted", bad)
		}
	}
}
