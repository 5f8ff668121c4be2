package riichi

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/mentalmj/mentalmj/wall"
)

// The brute-force reference: every target complete hand is enumerated
// explicitly (sets in nondecreasing order, then the pair, never more than
// four tiles of a kind), which shares no code with the tables of
// shanten.go or the recursion of decompose.go.

// bruteSet is one candidate set: a triplet of first, or a sequence from
// first.
type bruteSet struct {
	first wall.Kind
	seq   bool
}

var bruteSets = func() []bruteSet {
	var out []bruteSet
	for k := wall.Kind(0); k < wall.NumKinds; k++ {
		out = append(out, bruteSet{first: k})
		if k < 27 && k%9 <= 6 {
			out = append(out, bruteSet{first: k, seq: true})
		}
	}
	return out
}()

// bruteTarget enumerates every standard target of sets sets and one pair
// within the four-copy limit, calling visit with the target counts and the
// number of c's tiles it uses; visit returns false to prune nothing and is
// always called. bound prunes targets that cannot use more than best tiles.
type bruteSearch struct {
	c     *Counts
	t     Counts
	used  int
	best  int
	exact []string // readings equal to c (when collecting)
	// exactOnly restricts the targets to sub-multisets of c (collecting).
	exactOnly bool
	stack     []bruteSet
}

func (b *bruteSearch) add(k wall.Kind, n int) bool {
	for range n {
		if b.t[k] == 4 || b.exactOnly && b.t[k] == b.c[k] {
			return false
		}
		if b.t[k] < b.c[k] {
			b.used++
		}
		b.t[k]++
	}
	return true
}

func (b *bruteSearch) remove(k wall.Kind, n int) {
	for range n {
		b.t[k]--
		if b.t[k] < b.c[k] {
			b.used--
		}
	}
}

func (b *bruteSearch) addSet(s bruteSet) bool {
	if !s.seq {
		if b.t[s.first]+3 > 4 || b.exactOnly && b.t[s.first]+3 > b.c[s.first] {
			return false
		}
		b.add(s.first, 3)
		return true
	}
	for d := wall.Kind(0); d < 3; d++ {
		if !b.add(s.first+d, 1) {
			for e := wall.Kind(0); e < d; e++ {
				b.remove(s.first+e, 1)
			}
			return false
		}
	}
	return true
}

func (b *bruteSearch) removeSet(s bruteSet) {
	if !s.seq {
		b.remove(s.first, 3)
		return
	}
	for d := wall.Kind(0); d < 3; d++ {
		b.remove(s.first+d, 1)
	}
}

// run explores sets from index from on, left sets still to place, then
// the pair; collect records targets equal to c.
func (b *bruteSearch) run(from, left int, collect bool) {
	if !collect && b.used+3*left+2 <= b.best {
		return
	}
	if left == 0 {
		for p := wall.Kind(0); p < wall.NumKinds; p++ {
			if b.t[p]+2 > 4 || b.exactOnly && b.t[p]+2 > b.c[p] {
				continue
			}
			b.add(p, 2)
			b.best = max(b.best, b.used)
			if collect && b.t == *b.c {
				b.exact = append(b.exact, fmt.Sprint(p, b.stack))
			}
			b.remove(p, 2)
		}
		return
	}
	for i := from; i < len(bruteSets); i++ {
		if !b.addSet(bruteSets[i]) {
			continue
		}
		b.stack = append(b.stack, bruteSets[i])
		b.run(i, left-1, collect)
		b.stack = b.stack[:len(b.stack)-1]
		b.removeSet(bruteSets[i])
	}
}

// bruteShantenStandard is (14-3·melds) minus the most tiles of c any
// standard target uses, minus one.
func bruteShantenStandard(c Counts, melds int) int {
	b := &bruteSearch{c: &c, best: -1}
	b.run(0, 4-melds, false)
	return 14 - 3*melds - b.best - 1
}

// bruteShantenChiitoi picks the seven distinct kinds that use the most tiles.
func bruteShantenChiitoi(c Counts) int {
	var use []int
	for _, v := range c {
		use = append(use, min(v, 2))
	}
	slices.Sort(use)
	slices.Reverse(use)
	sum := 0
	for _, u := range use[:7] {
		sum += u
	}
	return 14 - sum - 1
}

// bruteShantenKokushi tries every pair kind of the thirteen orphans.
func bruteShantenKokushi(c Counts) int {
	best := 0
	orphans := []wall.Kind{0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33}
	for _, p := range orphans {
		u := 0
		for _, k := range orphans {
			need := 1
			if k == p {
				need = 2
			}
			u += min(c[k], need)
		}
		best = max(best, u)
	}
	return 14 - best - 1
}

func bruteShanten(c Counts, melds int) int {
	s := bruteShantenStandard(c, melds)
	if melds == 0 {
		s = min(s, bruteShantenChiitoi(c), bruteShantenKokushi(c))
	}
	return s
}

// quadHand draws a random hand of n tiles that holds at least one four of
// a kind (when n >= 4).
func quadHand(r *rand.Rand, n int) Counts {
	for {
		var c Counts
		c[r.IntN(wall.NumKinds)] = 4
		for c.Total() < n {
			k := r.IntN(wall.NumKinds)
			if r.IntN(3) == 0 && c.Total() > 4 {
				// cluster near an existing tile
				k = min(wall.NumKinds-1, max(0, int(k)))
			}
			if c[k] < 4 {
				c[k]++
			}
		}
		if c.Total() == n {
			return c
		}
	}
}

// TestShantenBruteForce compares Shanten with the brute-force reference on
// random hands (13 and 14 tiles, 0 to 4 melds), on hands holding four of a
// kind, and on random complete hands minus one tile.
func TestShantenBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	n0 := 60
	if testing.Short() {
		n0 = 15
	}
	type tc struct {
		c     Counts
		melds int
	}
	var cases []tc
	for i := 0; i < n0; i++ {
		cases = append(cases, tc{CountsOf(randomHand(r, 13)), 0}, tc{quadHand(r, 13), 0}, tc{quadHand(r, 14), 0})
		c := randomComplete(r)
		for k := range c {
			if c[k] > 0 && r.IntN(3) == 0 {
				c[k]--
				break
			}
		}
		cases = append(cases, tc{c, 0})
	}
	for melds := 1; melds <= 4; melds++ {
		for i := 0; i < 6*n0; i++ {
			n := 13 - 3*melds + r.IntN(2)
			c := CountsOf(randomHand(r, n))
			if i%2 == 0 && n >= 4 {
				c = quadHand(r, n)
			}
			cases = append(cases, tc{c, melds})
		}
	}
	quads := 0
	for _, x := range cases {
		got, want := Shanten(&x.c, x.melds), bruteShanten(x.c, x.melds)
		if got != want {
			t.Errorf("Shanten(%v, %d melds) = %d, brute force %d", x.c, x.melds, got, want)
		}
		if slices.Contains(x.c[:], 4) {
			quads++
		}
	}
	if quads < len(cases)/3 {
		t.Fatalf("only %d of %d hands hold four of a kind", quads, len(cases))
	}
	// Hands that the four-copy limit pushes from tenpai to 1-shanten.
	for _, s := range []string{"1111m234p567p789s", "1111m2345678999m", "1111222233334m"} {
		c := countsOf(t, s)
		if got, want := Shanten(&c, 0), bruteShanten(c, 0); got != want {
			t.Errorf("Shanten(%s) = %d, brute force %d", s, got, want)
		}
	}
}

// TestShantenFourOfAKindFarFromTenpai pins the values the old uncapped
// tables got one too low: 1111m uses at most four of its tiles in any
// target, never five.
func TestShantenFourOfAKindFarFromTenpai(t *testing.T) {
	for _, tc := range []struct {
		hand string
		want int
	}{
		// 111m+1m pair is impossible (five 1m): tanki on a fifth 1m.
		{"1111m234p567p789s", 1},
		// Four honour quads: 111z 222z 333z 444z use 10 tiles, and no pair
		// is left (a fifth 1z-4z); without the limit 11z would be the pair.
		{"1111222233334z", 3},
	} {
		c := countsOf(t, tc.hand)
		if got := Shanten(&c, 0); got != tc.want {
			t.Errorf("Shanten(%s) = %d, want %d", tc.hand, got, tc.want)
		}
		if b := bruteShanten(c, 0); b != tc.want {
			t.Errorf("brute force Shanten(%s) = %d, want %d", tc.hand, b, tc.want)
		}
	}
}

// TestWaitsBruteForce checks Waits against the brute-force shanten of the
// hand plus each kind not already held four times.
func TestWaitsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	checked := 0
	for i := 0; i < 400 && checked < 120; i++ {
		c := randomComplete(r)
		for k := range c {
			if c[k] > 0 && r.IntN(4) == 0 {
				c[k]--
				break
			}
		}
		if c.Total() != 13 {
			continue
		}
		checked++
		var want []wall.Kind
		for k := wall.Kind(0); k < wall.NumKinds; k++ {
			if c[k] == 4 {
				continue
			}
			c[k]++
			if bruteShanten(c, 0) == -1 {
				want = append(want, k)
			}
			c[k]--
		}
		if got := Waits(&c, 0); !slices.Equal(got, want) {
			t.Errorf("Waits(%v) = %v, brute force %v", c, got, want)
		}
	}
	if checked < 100 {
		t.Fatalf("only %d tenpai hands checked", checked)
	}
}

// TestDecompositionsBruteForce checks that Decompositions lists every
// standard reading of a complete hand exactly once, against the targets
// the brute force finds equal to the hand; hands hold four of a kind often.
func TestDecompositionsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	fours := 0
	for i := 0; i < 150; i++ {
		c := randomComplete(r)
		if i%2 == 0 {
			c = fourOfAKindComplete(r)
		}
		b := &bruteSearch{c: &c, best: -1, exactOnly: true}
		b.run(0, 4, true)
		var got []string
		for _, d := range Decompositions(c, 0) {
			if d.Form != Standard {
				continue
			}
			var st []bruteSet
			for _, s := range d.Sets {
				st = append(st, bruteSet{first: s.First, seq: s.Type == Shuntsu})
			}
			slices.SortFunc(st, func(x, y bruteSet) int { return bruteIndex(x) - bruteIndex(y) })
			got = append(got, fmt.Sprint(d.Pair, st))
		}
		want := slices.Clone(b.exact)
		slices.Sort(want)
		want = slices.Compact(want) // the brute force may reach a target twice via equal pair kinds
		sortedGot := slices.Clone(got)
		slices.Sort(sortedGot)
		if !slices.Equal(sortedGot, want) {
			t.Errorf("Decompositions(%v) = %v, brute force %v", c, got, want)
		}
		if len(slices.Compact(sortedGot)) != len(got) {
			t.Errorf("Decompositions(%v) repeats a reading: %v", c, got)
		}
		if slices.Contains(c[:], 4) {
			fours++
		}
	}
	if fours < 50 {
		t.Fatalf("only %d hands with four of a kind", fours)
	}
}

func bruteIndex(s bruteSet) int { return slices.Index(bruteSets, s) }

// TestDecompositionsFourOfAKindOnce is the case of the issue: 1111m23m
// reads as 111m+123m once, not twice.
func TestDecompositionsFourOfAKindOnce(t *testing.T) {
	c := countsOf(t, "111123m456p789s11z")
	ds := Decompositions(c, 0)
	if len(ds) != 1 {
		t.Fatalf("%d decompositions %v, want 1 (111m 123m 456p 789s 11z)", len(ds), ds)
	}
}

// fourOfAKindComplete builds a random complete hand holding k four times
// as a triplet and a sequence (1111m23m style) plus two sets and a pair.
func fourOfAKindComplete(r *rand.Rand) Counts {
	for {
		var c Counts
		k := wall.Kind(r.IntN(3)*9 + r.IntN(7))
		c[k] += 4
		c[k+1]++
		c[k+2]++
		for range 2 {
			s := bruteSets[r.IntN(len(bruteSets))]
			if s.seq {
				for d := wall.Kind(0); d < 3; d++ {
					c[s.first+d]++
				}
			} else {
				c[s.first] += 3
			}
		}
		c[r.IntN(wall.NumKinds)] += 2
		ok := true
		for _, v := range c {
			ok = ok && v <= 4
		}
		if ok {
			return c
		}
	}
}
