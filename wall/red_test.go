package wall

import "testing"

// TestTenhouRedsName checks Reds.Name against Tile.String, Tenhou's
// naming (the second path), for every id, and the empty set against the
// kinds' names: no id is named 0m/0p/0s without red fives.
func TestTenhouRedsName(t *testing.T) {
	for id := Tile(-2); id < NumTiles+2; id++ {
		if got, want := TenhouReds.Name(id), id.String(); got != want {
			t.Errorf("TenhouReds.Name(%d) = %s, Tile.String %s", id, got, want)
		}
		if !id.Valid() {
			continue
		}
		if got, want := Reds(0).Name(id), id.Kind().String(); got != want {
			t.Errorf("Reds(0).Name(%d) = %s, want %s", id, got, want)
		}
		k, red, err := ParseTileName(Reds(0).Name(id))
		if err != nil || red || k != id.Kind() {
			t.Errorf("Reds(0).Name(%d) parses as %v %v %v", id, k, red, err)
		}
	}
	if TenhouReds.Len() != 3 || len(TenhouReds.Tiles()) != 3 {
		t.Errorf("TenhouReds has %d ids %v, Tenhou plays 3", TenhouReds.Len(), TenhouReds.Tiles())
	}
}

// TestRedsOf keeps only fives: ids outside 16..19, 52..55, 88..91 cannot
// be red, and every five can.
func TestRedsOf(t *testing.T) {
	for id := Tile(-4); id < NumTiles+4; id++ {
		five := id.Valid() && (id.Kind() == 4 || id.Kind() == 13 || id.Kind() == 22)
		r := RedsOf(id)
		if r.Has(id) != five || (r.Len() == 1) != five {
			t.Errorf("RedsOf(%d): Has %v, Len %d; a five: %v", id, r.Has(id), r.Len(), five)
		}
		if five && (r.Name(id) != "0"+string(id.Kind().Suit()) || r.Tiles()[0] != id) {
			t.Errorf("RedsOf(%d) names it %s, lists %v", id, r.Name(id), r.Tiles())
		}
	}
	all := RedsOf(16, 17, 18, 19, 52, 53, 54, 55, 88, 89, 90, 91)
	if all.Len() != 12 || all != ^Reds(0)>>4 {
		t.Errorf("the twelve fives: %v", all.Tiles())
	}
}
