package riichi

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

func countsOf(t testing.TB, s string) Counts {
	t.Helper()
	tiles, err := ParseHand(s)
	if err != nil {
		t.Fatal(err)
	}
	return CountsOf(tiles)
}

// TestShantenKnown checks textbook shanten values.
func TestShantenKnown(t *testing.T) {
	cases := []struct {
		hand                       string
		melds                      int
		all, std, chiitoi, kokushi int
	}{
		{"123m456p789s11z222z", 0, -1, -1, 4, 8},
		{"123m456p789s11z22z", 0, 0, 0, 4, 8},
		{"19m19p19s1234567z", 0, 0, 8, 6, 0},
		{"19m19p19s1234567z1m", 0, -1, 7, 5, -1},
		{"1112345678999m", 0, 0, 0, 4, 10},
		{"1122m3344p5566s7z", 0, 0, 3, 0, 10},
		{"11223344556677z", 0, -1, 3, -1, 5},
		{"147m258p369s1234z", 0, 6, 8, 6, 7},
		{"123m456p789s1z2z3z4z", 0, 2, 2, 6, 7},
		{"1111m2222p3333s4z", 0, 2, 2, 6, 10}, // chiitoi: four of a kind is one pair
		{"11m", 4, -1, -1, -1, -1},
		{"1m", 4, 0, 0, -1, -1},
		{"13m", 4, 0, 0, -1, -1}, // after tsumo, not complete: discard one to be tenpai
		{"1m2p", 4, 0, 0, -1, -1},
		{"123m1z", 3, 0, 0, -1, -1},
		{"1m5m9m1p", 3, 2, 2, -1, -1},
	}
	for _, c := range cases {
		cnt := countsOf(t, c.hand)
		if got := ShantenStandard(&cnt, c.melds); got != c.std {
			t.Errorf("ShantenStandard(%s, %d) = %d, want %d", c.hand, c.melds, got, c.std)
		}
		if got := Shanten(&cnt, c.melds); got != c.all {
			t.Errorf("Shanten(%s, %d) = %d, want %d", c.hand, c.melds, got, c.all)
		}
		if c.melds == 0 {
			if got := ShantenChiitoi(&cnt); got != c.chiitoi {
				t.Errorf("ShantenChiitoi(%s) = %d, want %d", c.hand, got, c.chiitoi)
			}
			if got := ShantenKokushi(&cnt); got != c.kokushi {
				t.Errorf("ShantenKokushi(%s) = %d, want %d", c.hand, got, c.kokushi)
			}
		}
	}
}

// TestShantenInvalid checks out-of-range input gives ShantenInvalid, not a
// panic.
func TestShantenInvalid(t *testing.T) {
	var c Counts
	c[0] = 5
	for _, f := range []func() int{
		func() int { return Shanten(&c, 0) },
		func() int { return ShantenChiitoi(&c) },
		func() int { return ShantenKokushi(&c) },
	} {
		if got := f(); got != ShantenInvalid {
			t.Errorf("count 5: got %d", got)
		}
	}
	c = countsOf(t, "1111222233334m")
	c[4] = 3 // 16 tiles in one suit
	if got := Shanten(&c, 0); got != ShantenInvalid {
		t.Errorf("16 tiles in a suit: got %d", got)
	}
	c = countsOf(t, "123m")
	if got := Shanten(&c, 5); got != ShantenInvalid {
		t.Errorf("5 melds: got %d", got)
	}
	c[3] = -1
	if got := Shanten(&c, 0); got != ShantenInvalid {
		t.Errorf("negative count: got %d", got)
	}
}

// randomHand draws n tiles of a shuffled 136-tile set.
func randomHand(r *rand.Rand, n int) []wall.Tile {
	ids := make([]wall.Tile, wall.NumTiles)
	for i := range ids {
		ids[i] = wall.Tile(i)
	}
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids[:n]
}

// randomComplete builds a random complete standard hand (sets + pair) of
// 14 tiles within the four-copy limit, or a chiitoitsu hand.
func randomComplete(r *rand.Rand) Counts {
	for {
		var c Counts
		ok := true
		if r.IntN(8) == 0 {
			for _, k := range r.Perm(wall.NumKinds)[:7] {
				c[k] = 2
			}
			return c
		}
		p := r.IntN(wall.NumKinds)
		c[p] += 2
		for range 4 {
			if r.IntN(3) == 0 {
				k := r.IntN(wall.NumKinds)
				c[k] += 3
			} else {
				s := r.IntN(3)
				n := r.IntN(7)
				for d := 0; d < 3; d++ {
					c[s*9+n+d]++
				}
			}
		}
		for _, v := range c {
			if v > 4 {
				ok = false
			}
		}
		if ok {
			return c
		}
	}
}

// completeByDecomposition is a second code path for "complete hand": the
// recursive Decompositions.
func completeByDecomposition(c Counts, melds int) bool {
	return len(Decompositions(c, melds)) > 0
}

// TestShantenCompleteMatchesDecompositions checks Shanten == -1 exactly when
// Decompositions finds a reading, on random and random complete hands.
func TestShantenCompleteMatchesDecompositions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	positives := 0
	for i := 0; i < 20000; i++ {
		var c Counts
		if i%2 == 0 {
			c = randomComplete(r)
			// Perturb half of them by one tile.
			if r.IntN(2) == 0 {
				from, to := r.IntN(wall.NumKinds), r.IntN(wall.NumKinds)
				if c[from] > 0 && c[to] < 4 {
					c[from]--
					c[to]++
				}
			}
		} else {
			c = CountsOf(randomHand(r, 14))
		}
		want := completeByDecomposition(c, 0)
		if want {
			positives++
		}
		if got := Shanten(&c, 0) == -1; got != want {
			t.Fatalf("%v: Shanten complete=%v, decompositions=%v", c, got, want)
		}
	}
	if positives < 5000 {
		t.Fatalf("only %d complete hands generated", positives)
	}
}

// TestWaitsMatchDecompositions checks Waits against adding each kind and
// asking Decompositions, on complete hands with one tile removed.
func TestWaitsMatchDecompositions(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		c := randomComplete(r)
		var k wall.Kind
		for {
			k = wall.Kind(r.IntN(wall.NumKinds))
			if c[k] > 0 {
				break
			}
		}
		c[k]--
		var want []wall.Kind
		for w := wall.Kind(0); w < wall.NumKinds; w++ {
			if c[w] >= 4 {
				continue
			}
			c[w]++
			if completeByDecomposition(c, 0) {
				want = append(want, w)
			}
			c[w]--
		}
		got := Waits(&c, 0)
		if !slices.Equal(got, want) {
			t.Fatalf("%v: Waits = %v, want %v", c, got, want)
		}
		if !slices.Contains(got, k) && c[k] < 4 {
			t.Fatalf("%v: removed %v is not a wait", c, k)
		}
		if Shanten(&c, 0) != 0 {
			t.Fatalf("%v: tenpai hand has shanten %d", c, Shanten(&c, 0))
		}
	}
}

// TestWaitsKnown checks classic wait patterns, including Tenhou's rule that
// a kind held four times is no wait.
func TestWaitsKnown(t *testing.T) {
	cases := []struct {
		hand  string
		melds int
		want  string
	}{
		{"1112345678999m", 0, "123456789m"},
		{"19m19p19s1234567z", 0, "19m19p19s1234567z"},
		{"123m456p789s11z22z", 0, "12z"},
		{"1122m3344p5566s7z", 0, "7z"},
		{"2345m", 3, "25m"},
		{"1111m234p567p789s", 0, ""}, // only wait is a fifth 1m: noten on Tenhou
		{"1m", 4, "1m"},
		{"13m", 3, ""},        // wrong size
		{"1111m2345p", 2, ""}, // every completion needs a fifth 1m
	}
	for _, c := range cases {
		cnt := countsOf(t, c.hand)
		var got []wall.Tile
		for _, k := range Waits(&cnt, c.melds) {
			got = append(got, wall.Tile(4*k+1))
		}
		gotS := FormatHand(got)
		wantT, _ := ParseHand(c.want)
		if gotS != FormatHand(wantT) {
			t.Errorf("Waits(%s, %d) = %s, want %s", c.hand, c.melds, gotS, c.want)
		}
	}
}

// TestShantenExchangeRecursion checks the defining recursion of shanten on
// random hands: a hand that is not tenpai is exactly one exchange (discard
// one tile, draw any kind) further from tenpai than its best neighbour.
// With the tenpai base case checked against Decompositions above, this pins
// every value.
func TestShantenExchangeRecursion(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for i := 0; i < 300; i++ {
		c := CountsOf(randomHand(r, 13))
		s := Shanten(&c, 0)
		if s <= 0 {
			continue
		}
		best := 99
		for d := 0; d < wall.NumKinds; d++ {
			if c[d] == 0 {
				continue
			}
			c[d]--
			for k := 0; k < wall.NumKinds; k++ {
				if c[k] >= 4 || k == d {
					continue
				}
				c[k]++
				best = min(best, Shanten(&c, 0))
				c[k]--
			}
			c[d]++
		}
		if best != s-1 {
			t.Fatalf("%v: shanten %d but best exchange gives %d", c, s, best)
		}
		checked++
	}
	if checked < 200 {
		t.Fatalf("only %d hands checked", checked)
	}
}

// TestShantenWithMelds checks the standard shanten of hands with declared
// melds against the same hand written with the melds as concealed sets.
func TestShantenWithMelds(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 2000; i++ {
		melds := 1 + r.IntN(4)
		c := CountsOf(randomHand(r, 13-3*melds))
		// Adding melds' worth of far-away complete triplets of honours must
		// give the same standard shanten with melds = 0.
		full := c
		ok := true
		for m := 0; m < melds; m++ {
			k := 27 + m
			if full[k] != 0 {
				ok = false
			}
			full[k] = 3
		}
		if !ok {
			continue
		}
		if a, b := ShantenStandard(&c, melds), ShantenStandard(&full, 0); a != b {
			t.Fatalf("%v with %d melds: %d, as concealed triplets: %d", c, melds, a, b)
		}
	}
}
