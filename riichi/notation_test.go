package riichi

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// TestParseHandIDs checks the id assignment rule: lowest free id of the
// kind, red fives take 16/52/88 and plain fives never do (docs/wall-layout.md §7
// red-five ids).
func TestParseHandIDs(t *testing.T) {
	cases := []struct {
		in   string
		want []wall.Tile
	}{
		{"1m", []wall.Tile{0}},
		{"11m", []wall.Tile{0, 1}},
		{"0m5m", []wall.Tile{16, 17}},
		{"5m0m", []wall.Tile{17, 16}},
		{"555m", []wall.Tile{17, 18, 19}},
		{"0p0s", []wall.Tile{52, 88}},
		{"7z", []wall.Tile{132}},
		{"1z 9s", []wall.Tile{108, 104}},
		{"19m19p19s1234567z", []wall.Tile{0, 32, 36, 68, 72, 104, 108, 112, 116, 120, 124, 128, 132}},
	}
	for _, c := range cases {
		got, err := ParseHand(c.in)
		if err != nil {
			t.Errorf("ParseHand(%q): %v", c.in, err)
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("ParseHand(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestParseHandErrors checks that bad input gives an error naming the
// position of the offending character.
func TestParseHandErrors(t *testing.T) {
	cases := []struct{ in, pos string }{
		{"123", "position 0"},
		{"12m3", "position 3"},
		{"m", "position 0"},
		{"12x", "position 2"},
		{"8z", "position 0"},
		{"0z", "position 0"},
		{"11111m", "position 4"},
		{"5555m", "position 3"}, // a plain 5 never takes the red id
		{"00p", "position 1"},
		{"1m\xff", "position 2"},
	}
	for _, c := range cases {
		_, err := ParseHand(c.in)
		if err == nil {
			t.Errorf("ParseHand(%q): no error", c.in)
			continue
		}
		if !strings.Contains(err.Error(), c.pos) {
			t.Errorf("ParseHand(%q) = %v, want it to name %s", c.in, err, c.pos)
		}
	}
}

// TestFormatHand checks the canonical output and the round trip through
// ParseHand (a second code path for the kinds and red fives).
func TestFormatHand(t *testing.T) {
	cases := []struct{ in, want string }{
		{"123m456p789s11z222z", "123m456p789s11222z"},
		{"5m0m1z", "05m1z"},
		{"9s1m", "1m9s"},
		{"", ""},
	}
	for _, c := range cases {
		tiles, err := ParseHand(c.in)
		if err != nil {
			t.Fatal(err)
		}
		got := FormatHand(tiles)
		if got != c.want {
			t.Errorf("FormatHand(%q) = %q, want %q", c.in, got, c.want)
		}
		back, err := ParseHand(got)
		if err != nil || CountsOf(back) != CountsOf(tiles) {
			t.Errorf("round trip of %q via %q: %v", c.in, got, err)
		}
	}
	if got := FormatHand([]wall.Tile{0, 200}); got != "1m?200" {
		t.Errorf("FormatHand with invalid id = %q", got)
	}
	// Every id 0..135 prints as its wall name.
	for id := wall.Tile(0); id < wall.NumTiles; id++ {
		if got := FormatHand([]wall.Tile{id}); got != id.String() {
			t.Errorf("FormatHand(%d) = %q, want %q", id, got, id.String())
		}
	}
}

// TestCountsOf checks the histogram against the kinds of a parsed hand.
func TestCountsOf(t *testing.T) {
	tiles := mustParse("1110m5p7z")
	c := CountsOf(append(tiles, -1, 136))
	if c[0] != 3 || c[4] != 1 || c[13] != 1 || c[33] != 1 || c.Total() != 6 {
		t.Errorf("CountsOf = %v", c)
	}
}

// TestDoraOf checks the indicator → dora wrap-arounds.
func TestDoraOf(t *testing.T) {
	cases := map[string]string{"1m": "2m", "9m": "1m", "9p": "1p", "0s": "6s", "4z": "1z", "1z": "2z", "5z": "6z", "7z": "5z"}
	for ind, want := range cases {
		got := DoraOf(mustParse(ind)[0])
		if got.String() != want {
			t.Errorf("DoraOf(%s) = %v, want %s", ind, got, want)
		}
	}
}

// TestMeldValidate checks meld shape validation.
func TestMeldValidate(t *testing.T) {
	ok := []Meld{
		{Type: Chi, Tiles: mustParse("312m"), Called: 8, From: 3},
		{Type: Pon, Tiles: mustParse("777z"), Called: 132, From: 1},
		{Type: Ankan, Tiles: mustParse("1111s"), Called: -1},
		{Type: Kakan, Tiles: mustParse("0555p"), Called: 52, From: 2},
	}
	for _, m := range ok {
		if err := m.Validate(); err != nil {
			t.Errorf("%v: %v", m, err)
		}
	}
	bad := []Meld{
		{Type: Chi, Tiles: mustParse("135m"), Called: 0, From: 3},
		{Type: Chi, Tiles: mustParse("123z"), Called: 108, From: 3},
		{Type: Chi, Tiles: mustParse("891m"), Called: 28, From: 3},
		{Type: Chi, Tiles: mustParse("123m"), Called: 0, From: 1},
		{Type: Pon, Tiles: mustParse("776z"), Called: 132, From: 1},
		{Type: Pon, Tiles: mustParse("7777z"), Called: 132, From: 1},
		{Type: Pon, Tiles: mustParse("777z"), Called: 0, From: 1},
		{Type: Ankan, Tiles: mustParse("1111s"), Called: -1, From: 2},
		{Type: Daiminkan, Tiles: mustParse("111s"), Called: 72, From: 2},
		{Type: MeldType(7), Tiles: mustParse("111s"), Called: 72, From: 2},
		{Tiles: mustParse("111s"), Called: 72, From: 2},           // no type: the zero value is none
		{Type: Kita, Tiles: mustParse("4z"), Called: -1, From: 0}, // a record's call, no meld of the hand
	}
	for _, m := range bad {
		if err := m.Validate(); err == nil {
			t.Errorf("%v %v: no error", m.Type, m.Tiles)
		}
	}
	if (Meld{Type: Ankan}).Open() || !(Meld{Type: Kakan}).Open() {
		t.Error("Open: ankan must be closed, kakan open")
	}
}

// TestScanHand checks that ScanHand reports each tile's byte position,
// kind and redness in input order, without the per-kind copy limits of
// ParseHand (two red 5p pass; counting is the caller's), and wraps the
// caller's error with the tile's position.
func TestScanHand(t *testing.T) {
	type tile struct {
		pos  int
		kind wall.Kind
		red  bool
	}
	var got []tile
	err := ScanHand("05p 00p7z", func(pos int, k wall.Kind, red bool) error {
		got = append(got, tile{pos, k, red})
		return nil
	})
	want := []tile{{0, 13, true}, {1, 13, false}, {4, 13, true}, {5, 13, true}, {7, 33, false}}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ScanHand = %v, %v; want %v", got, err, want)
	}
	stop := errors.New("stop here")
	err = ScanHand("123m", func(pos int, _ wall.Kind, _ bool) error {
		if pos == 1 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || !strings.Contains(err.Error(), "position 1") {
		t.Errorf("caller's error came back as %v", err)
	}
}
