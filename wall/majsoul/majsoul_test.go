package majsoul

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// vector is the published example of testdata/lipenghua_3p.txt.
type vector struct{ salt, saltHash, wall, commitment string }

func loadVector(t testing.TB) vector {
	t.Helper()
	f, err := os.Open("testdata/lipenghua_3p.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	kv := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		kv[k] = v
	}
	v := vector{kv["salt"], kv["salt_sha256"], kv["wall"], kv["wall_salt_sha256"]}
	if v.salt == "" || v.saltHash == "" || v.wall == "" || v.commitment == "" {
		t.Fatalf("incomplete vector %v", kv)
	}
	return v
}

func digest(t testing.TB, s string) [32]byte {
	t.Helper()
	d, err := ParseDigest(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPublishedVector checks the published salt digest and wall
// commitment, and that the revealed wall is a legal three-player set.
func TestPublishedVector(t *testing.T) {
	v := loadVector(t)
	if got := SaltHash(v.salt); got != digest(t, v.saltHash) {
		t.Errorf("SaltHash = %x, published %s", got, v.saltHash)
	}
	if got := Commitment(v.wall, v.salt); got != digest(t, v.commitment) {
		t.Errorf("Commitment = %x, published %s", got, v.commitment)
	}
	if err := Verify(v.wall, v.salt, digest(t, v.commitment)); err != nil {
		t.Errorf("Verify: %v", err)
	}
	if err := VerifySalt(v.salt, digest(t, strings.ToUpper(v.saltHash))); err != nil {
		t.Errorf("VerifySalt: %v", err)
	}
	tiles, err := ParseWall(v.wall)
	if err != nil {
		t.Fatal(err)
	}
	if len(tiles) != 108 {
		t.Errorf("%d tiles, want 108", len(tiles))
	}
	if err := CheckSet(tiles); err != nil {
		t.Errorf("CheckSet: %v", err)
	}
	back, err := FormatWall(tiles)
	if err != nil || back != v.wall {
		t.Errorf("FormatWall(ParseWall(wall)) = %q, %v", back, err)
	}
}

// TestTamper changes the revealed data in small ways; each must fail with
// ErrMismatch.
func TestTamper(t *testing.T) {
	v := loadVector(t)
	c := digest(t, v.commitment)
	swapped := v.wall[2:4] + v.wall[0:2] + v.wall[4:] // first two tiles swapped (5p 7s)
	red := strings.Replace(v.wall, "0p", "5p", 1)     // red five reported as plain
	for name, w := range map[string][2]string{
		"swap":      {swapped, v.salt},
		"red":       {red, v.salt},
		"salt":      {v.wall, v.salt[:len(v.salt)-1] + "Z"},
		"separator": {v.wall, " " + v.salt},
	} {
		if err := Verify(w[0], w[1], c); !errors.Is(err, ErrMismatch) {
			t.Errorf("%s: Verify = %v, want ErrMismatch", name, err)
		}
	}
	if err := VerifySalt(v.salt+"x", digest(t, v.saltHash)); !errors.Is(err, ErrMismatch) {
		t.Errorf("VerifySalt of a changed salt = %v", err)
	}
}

// TestSyntaxErrors checks each malformed wall code is rejected with the
// offset of the bad character.
func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		code         string
		offset, tile int
	}{
		{"1m5x", 3, 1},    // bad suit
		{"1mx5m", 2, 1},   // bad rank
		{"1m8z", 2, 1},    // honour out of range
		{"0z", 0, 0},      // red honour
		{"1m2m3", 4, 2},   // odd length
		{"", 0, 0},        // empty
		{"1M", 1, 0},      // upper case suit
		{"１m", 0, 0},      // full-width digit (multi-byte)
		{"1m1m1m ", 6, 3}, // trailing space
	}
	for _, c := range cases {
		_, err := ParseWall(c.code)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("ParseWall(%q) = %v, want *SyntaxError", c.code, err)
			continue
		}
		if se.Offset != c.offset || se.Tile != c.tile {
			t.Errorf("ParseWall(%q): offset %d tile %d (%v), want %d, %d", c.code, se.Offset, se.Tile, err, c.offset, c.tile)
		}
		if err := Verify(c.code, "salt", [32]byte{}); !errors.As(err, &se) {
			t.Errorf("Verify(%q) = %v, want the syntax error", c.code, err)
		}
	}
	for _, s := range []string{"", "abc", strings.Repeat("0", 62), strings.Repeat("g", 64)} {
		if _, err := ParseDigest(s); err == nil {
			t.Errorf("ParseDigest(%q) accepted", s)
		}
	}
}

// TestFourPlayerSet builds the four-player set from the Tenhou ids 0..135
// (kind id/4, red fives 16, 52, 88; docs/wall-layout.md §7), formats and parses
// it, and checks CheckSet accepts it and rejects it with one tile changed.
func TestFourPlayerSet(t *testing.T) {
	var tiles []Tile
	for id := wall.Tile(0); id < wall.NumTiles; id++ {
		tiles = append(tiles, Tile{Kind: id.Kind(), Red: id.IsRed()})
	}
	code, err := FormatWall(tiles)
	if err != nil {
		t.Fatal(err)
	}
	if len(code) != 272 || !strings.HasPrefix(code, "1m1m1m1m2m") || !strings.Contains(code, "4m0m5m5m5m") {
		t.Errorf("code %q", code)
	}
	back, err := ParseWall(code)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckSet(back); err != nil {
		t.Errorf("CheckSet: %v", err)
	}
	back[0] = Tile{Kind: 33}
	if err := CheckSet(back); !errors.Is(err, ErrSet) {
		t.Errorf("CheckSet with 3×1m 5×7z = %v", err)
	}
	if err := CheckSet(back[:100]); !errors.Is(err, ErrSet) {
		t.Errorf("CheckSet of 100 tiles = %v", err)
	}
	if _, err := FormatWall([]Tile{{Kind: 27, Red: true}}); err == nil {
		t.Error("FormatWall accepted a red honour")
	}
}

// BenchmarkCommitment measures SHA-256(wall ∥ salt) of the 108-tile vector.
func BenchmarkCommitment(b *testing.B) {
	v := loadVector(b)
	b.SetBytes(int64(len(v.wall) + len(v.salt)))
	for b.Loop() {
		Commitment(v.wall, v.salt)
	}
}

// BenchmarkVerify measures parsing the wall code plus the commitment check.
func BenchmarkVerify(b *testing.B) {
	v := loadVector(b)
	c := digest(b, v.commitment)
	for b.Loop() {
		if err := Verify(v.wall, v.salt, c); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParseWall checks ParseWall never panics and that FormatWall
// reproduces every code it accepts.
func FuzzParseWall(f *testing.F) {
	f.Add(loadVector(f).wall)
	f.Add("0m5x")
	f.Fuzz(func(t *testing.T, code string) {
		tiles, err := ParseWall(code)
		if err != nil {
			return
		}
		back, err := FormatWall(tiles)
		if err != nil || back != code {
			t.Fatalf("FormatWall(ParseWall(%q)) = %q, %v", code, back, err)
		}
	})
}
