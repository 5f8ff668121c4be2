package game

import (
	"math/rand/v2"
	"testing"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// randomHand builds a hand of 14 - 3*melds tiles that is often complete:
// random sets and a pair, sometimes chiitoitsu or kokushi, then with
// probability 1/2 one tile swapped for a random one.
func randomHand(rng *rand.Rand, melds int) (riichi.Counts, bool) {
	var c riichi.Counts
	add := func(k int) bool {
		if k < 0 || k >= 34 || c[k] >= 4 {
			return false
		}
		c[k]++
		return true
	}
	for {
		c = riichi.Counts{}
		ok := true
		switch r := rng.IntN(10); {
		case r == 0 && melds == 0:
			for _, k := range rng.Perm(34)[:7] {
				ok = ok && add(k) && add(k)
			}
		case r == 1 && melds == 0:
			for _, k := range yaochuuKinds {
				ok = ok && add(int(k))
			}
			ok = ok && add(int(yaochuuKinds[rng.IntN(13)]))
		default:
			for range 4 - melds {
				k := rng.IntN(34)
				if k < 27 && k%9 < 7 && rng.IntN(2) == 0 {
					ok = ok && add(k) && add(k+1) && add(k+2)
				} else {
					ok = ok && add(k) && add(k) && add(k)
				}
			}
			k := rng.IntN(34)
			ok = ok && add(k) && add(k)
		}
		if !ok {
			continue
		}
		if rng.IntN(2) == 0 {
			for {
				from, to := rng.IntN(34), rng.IntN(34)
				if c[from] > 0 && c[to] < 4 && from != to {
					c[from]--
					c[to]++
					break
				}
			}
		}
		return c, true
	}
}

// TestIsCompleteAgainstShanten checks the engine's fast completeness test
// against package riichi's table-driven shanten (a second code path), and
// that mayComplete never rejects a completing kind.
func TestIsCompleteAgainstShanten(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	complete := 0
	for i := 0; i < 20000; i++ {
		melds := rng.IntN(5)
		c, _ := randomHand(rng, melds)
		got := isComplete(&c, melds)
		want := riichi.Shanten(&c, melds) == -1
		if got != want {
			t.Fatalf("counts %v melds %d: isComplete %v, shanten says %v", c, melds, got, want)
		}
		if got {
			complete++
			for k := range c {
				if c[k] == 0 {
					continue
				}
				c[k]--
				if !mayComplete(&c, wall.Kind(k)) {
					t.Fatalf("counts %v + %s complete, but mayComplete rejects it", c, wall.Kind(k))
				}
				c[k]++
			}
		}
	}
	if complete < 5000 {
		t.Errorf("only %d complete hands generated; the test is too weak", complete)
	}
}
