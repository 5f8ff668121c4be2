package tenhou

import (
	"bufio"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
	"github.com/mentalmj/mentalmj/wall/mt19937ar"
)

// blogVectors reads testdata/blog_174202532_vectors.txt into name → values.
func blogVectors(t testing.TB) map[string][]uint64 {
	t.Helper()
	f, err := os.Open("testdata/blog_174202532_vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]uint64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, vals, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("vector line %q has no ':'", line)
		}
		for _, v := range strings.Fields(vals) {
			n, err := strconv.ParseUint(v, 0, 64)
			if err != nil {
				t.Fatalf("vector %s: %v", name, err)
			}
			out[name] = append(out[name], n)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func blogSeedText(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/blog_174202532_seed.txt")
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

func blogSeed(t testing.TB) Seed {
	t.Helper()
	s, err := ParseSeed(PrefixBase64 + "," + blogSeedText(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func vec(t *testing.T, v map[string][]uint64, name string, n int) []uint64 {
	t.Helper()
	got, ok := v[name]
	if !ok || len(got) != n {
		t.Fatalf("vector %s: have %d values, want %d", name, len(got), n)
	}
	return got
}

// TestBlogVector checks the generator against Tenhou's published example
// and the intermediate values recorded in docs/wall-layout.md §8.
func TestBlogVector(t *testing.T) {
	v := blogVectors(t)
	seed := blogSeed(t)
	for i, want := range vec(t, v, "key[0..3]", 4) {
		if uint64(seed.Key[i]) != want {
			t.Errorf("key[%d] = %#x, want %#x", i, seed.Key[i], want)
		}
	}
	mt := mt19937ar.NewByArray(seed.Key)
	for i, want := range vec(t, v, "genrand[0..3]", 4) {
		if got := mt.Uint32(); uint64(got) != want {
			t.Errorf("genrand output %d = %d, want %d", i, got, want)
		}
	}

	g, err := NewGenerator(seed, 4)
	if err != nil {
		t.Fatal(err)
	}
	var w Wall
	g.Next(&w)
	for i, want := range vec(t, v, "4p.kyoku0.rnd[0..3]", 4) {
		if uint64(w.Rnd[i]) != want {
			t.Errorf("kyoku 0 rnd[%d] = %d, want %d", i, w.Rnd[i], want)
		}
	}
	if want := vec(t, v, "4p.kyoku0.rnd[135]", 1)[0]; uint64(w.Rnd[135]) != want {
		t.Errorf("kyoku 0 rnd[135] = %d, want %d", w.Rnd[135], want)
	}
	if want := vec(t, v, "4p.kyoku0.rnd[136]", 1)[0]; uint64(w.Rnd[136]) != want {
		t.Errorf("kyoku 0 rnd[136] = %d, want %d", w.Rnd[136], want)
	}
	checkDice(t, "4p kyoku 0", w, vec(t, v, "4p.kyoku0.dice", 2))
	checkYama(t, "4p kyoku 0", w, vec(t, v, "4p.kyoku0.yama", 136))
	if w.Kyoku != 0 {
		t.Errorf("first wall Kyoku = %d", w.Kyoku)
	}

	g.Next(&w)
	checkYama(t, "4p kyoku 1", w, vec(t, v, "4p.kyoku1.yama[0..11]", 12))
	checkDice(t, "4p kyoku 1", w, vec(t, v, "4p.kyoku1.dice", 2))
	if w.Kyoku != 1 {
		t.Errorf("second wall Kyoku = %d", w.Kyoku)
	}

	g3, err := NewGenerator(seed, 3)
	if err != nil {
		t.Fatal(err)
	}
	g3.Next(&w)
	checkYama(t, "3p kyoku 0", w, vec(t, v, "3p.kyoku0.yama[0..11]", 12))
	if len(w.Yama()) != 108 {
		t.Errorf("3p yama has %d tiles", len(w.Yama()))
	}
}

func checkDice(t *testing.T, what string, w Wall, want []uint64) {
	t.Helper()
	if uint64(w.Dice[0]) != want[0] || uint64(w.Dice[1]) != want[1] {
		t.Errorf("%s dice = %v, want %v", what, w.Dice, want)
	}
}

func checkYama(t *testing.T, what string, w Wall, want []uint64) {
	t.Helper()
	if err := w.Layout.CheckPermutation(w.Yama()); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	for i, id := range want {
		if uint64(w.Yama()[i]) != id {
			t.Fatalf("%s yama[%d] = %d, want %d", what, i, w.Yama()[i], id)
		}
	}
}

// naiveWalls is a second, deliberately plain implementation of
// docs/wall-layout.md §2–4 (one Uint32 call per word, a streaming SHA-512, a fresh
// tile list per kyoku) used to cross-check the optimised Generator.
func naiveWalls(key []uint32, players, kyoku int) [][]wall.Tile {
	mt := mt19937ar.NewByArray(key)
	var out [][]wall.Tile
	for range kyoku {
		var src []byte
		for range 288 {
			src = binary.LittleEndian.AppendUint32(src, mt.Uint32())
		}
		var rnd []uint32
		for c := 0; c < 9; c++ {
			h := sha512.New()
			h.Write(src[128*c : 128*c+128])
			d := h.Sum(nil)
			for k := 0; k < 64; k += 4 {
				rnd = append(rnd, binary.LittleEndian.Uint32(d[k:]))
			}
		}
		var yama []wall.Tile
		for id := 0; id < 136; id++ {
			if players == 3 && id >= 4 && id < 32 {
				continue
			}
			yama = append(yama, wall.Tile(id))
		}
		n := uint32(len(yama))
		for i := uint32(0); i < n-1; i++ {
			j := i + rnd[i]%(n-i)
			yama[i], yama[j] = yama[j], yama[i]
		}
		out = append(out, yama)
	}
	return out
}

func TestGeneratorMatchesNaive(t *testing.T) {
	seed := blogSeed(t)
	for _, p := range []int{3, 4} {
		g, err := NewGenerator(seed, p)
		if err != nil {
			t.Fatal(err)
		}
		var w Wall
		for k, want := range naiveWalls(seed.Key, p, 6) {
			g.Next(&w)
			got := w.Yama()
			if len(got) != len(want) {
				t.Fatalf("%dp kyoku %d: %d tiles, want %d", p, k, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%dp kyoku %d yama[%d] = %d, naive %d", p, k, i, got[i], want[i])
				}
			}
		}
	}
}

func TestParseSeedForms(t *testing.T) {
	b64 := blogSeedText(t)
	prefixed, err := ParseSeed(PrefixBase64 + "," + b64)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := ParseSeed(" " + b64 + "\n")
	if err != nil {
		t.Fatal(err)
	}
	if prefixed.Variant != Base64 || bare.Variant != Base64 || len(bare.Key) != 624 || len(bare.Bytes) != 2496 {
		t.Fatalf("bare seed parsed as %v with %d words / %d bytes", bare.Variant, len(bare.Key), len(bare.Bytes))
	}
	for i := range prefixed.Key {
		if prefixed.Key[i] != bare.Key[i] {
			t.Fatalf("key[%d] differs between prefixed and bare seed", i)
		}
	}
	l, err := prefixed.Layout(4)
	if err != nil || l != wall.FourPlayer {
		t.Fatalf("Layout(4) = %+v, %v", l, err)
	}

	// The 2009 hex form (logs/2009100718gm-00e1-0000-470654d3.xml).
	hex := PrefixHex2009 + ",B43A38E8,A063890A,54C66B00,CE8F5EEE,8B53C544,535BF30B,5D7F5B49,6EFC2EB6,B13C899D,E706F43F,5C6B2A4C,ED12BEBE,80C71AEC,01E9BEA3,FCB9623A,B7EDCDEF,7892CD36,7FCC6BA1,2E9B16FA,9CE2814B,E2A6C5AE,CAC8F5E8,14DC4996,EE7E0293,6B1F0729,4D8C981B,F66AC473,6671362C,A414DDC1,44B91E56,E97424C7,B8E93A6F"
	hs, err := ParseSeed(hex)
	if err != nil {
		t.Fatal(err)
	}
	if hs.Variant != Hex2009 || len(hs.Key) != 32 || hs.Key[0] != 0xB43A38E8 || hs.Key[31] != 0xB8E93A6F || hs.Bytes != nil {
		t.Fatalf("hex seed parsed as %+v", hs)
	}
	l, err = hs.Layout(4)
	if err != nil || !l.Legacy2009 || l.Size != 136 {
		t.Fatalf("hex Layout(4) = %+v, %v", l, err)
	}
	if _, err := hs.Layout(5); err == nil {
		t.Fatal("Layout(5) accepted")
	}
}

func TestParseSeedErrors(t *testing.T) {
	short := base64.StdEncoding.EncodeToString(make([]byte, 2493))
	long := base64.StdEncoding.EncodeToString(make([]byte, 2499))
	cases := []struct{ seed, want string }{
		{"", "empty"},
		{PrefixBase64 + "," + short, "2493 bytes"},
		{long, "2499 bytes"},
		{PrefixBase64 + ",!!!!", "base64"},
		{"mt19937ar-sha512-n999,AAAA", `unknown shuffle variant "mt19937ar-sha512-n999"`},
		{PrefixHex2009 + ",01,02", "2 words"},
		{PrefixHex2009 + strings.Repeat(",0", 31) + ",XYZ", `word 31 "XYZ"`},
		{PrefixHex2009 + strings.Repeat(",0", 31) + ",123456789", `word 31`},
	}
	for _, c := range cases {
		_, err := ParseSeed(c.seed)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSeed(%.40q…) error %v, want it to mention %q", c.seed, err, c.want)
		}
	}
}

func TestNewGeneratorPlayers(t *testing.T) {
	if _, err := NewGenerator(blogSeed(t), 2); err == nil {
		t.Fatal("NewGenerator with 2 players succeeded")
	}
}

func TestNextDoesNotAllocate(t *testing.T) {
	g, err := NewGenerator(blogSeed(t), 4)
	if err != nil {
		t.Fatal(err)
	}
	var w Wall
	if n := testing.AllocsPerRun(20, func() { g.Next(&w) }); n != 0 {
		t.Fatalf("Next allocates %v times", n)
	}
}

func benchmarkWall(b *testing.B, players int) {
	g, err := NewGenerator(blogSeed(b), players)
	if err != nil {
		b.Fatal(err)
	}
	var w Wall
	b.ReportAllocs()
	cpu0 := cpuNow()
	for b.Loop() {
		g.Next(&w)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "walls/s")
	reportCPU(b, b.N, cpu0, "walls/cpu-s")
}

// BenchmarkWall4p measures four-player walls generated per second.
func BenchmarkWall4p(b *testing.B) { benchmarkWall(b, 4) }

// BenchmarkWall3p measures three-player walls generated per second.
func BenchmarkWall3p(b *testing.B) { benchmarkWall(b, 3) }
