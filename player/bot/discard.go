package bot

import (
	"math/rand/v2"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// ukeire returns the number of unseen tiles whose draw lowers the plan
// shanten of the 13-3m-tile counts c (shanten s) with melds: the sum of
// v.unseen[k] over the kinds k with planShanten(c + k) < s. Closed hands
// take a faster path with the same result (ukeireClosed).
func (v *view) ukeire(c *riichi.Counts, melds []meld, s int) int {
	closed := true
	for _, m := range melds {
		closed = closed && !m.open
	}
	if closed {
		return v.ukeireClosed(c, len(melds), s)
	}
	return v.ukeireAll(c, melds, s)
}

// ukeireAll tries every kind.
func (v *view) ukeireAll(c *riichi.Counts, melds []meld, s int) int {
	n := 0
	for k, left := range v.unseen {
		if left == 0 || c[k] >= 4 {
			continue
		}
		c[k]++
		if v.planShanten(c, melds) < s {
			n += left
		}
		c[k]--
	}
	return n
}

// ukeireClosed is ukeire for a closed hand (riichi.Shanten, melds ankan
// only) of 13-3m tiles. It skips the draws that cannot help:
//
//   - the standard form: a kind neither held nor within two ranks of a
//     held tile of its suit would sit alone in a block; with 13-3m tiles
//     every block of the best reading already holds a tile, so such a
//     draw only replaces a lone tile and never lowers the shanten;
//   - chiitoitsu and kokushi are evaluated only when their shanten equals
//     s (one draw lowers a form's shanten by at most one); chiitoitsu
//     improves on a second copy of a single, or on any new kind while the
//     hand has fewer than 7 kinds; kokushi only on terminals and honours.
func (v *view) ukeireClosed(c *riichi.Counts, melds, s int) int {
	chiitoi := melds == 0 && riichi.ShantenChiitoi(c) <= s
	kokushi := melds == 0 && riichi.ShantenKokushi(c) <= s
	kinds := 0
	for _, x := range c {
		if x > 0 {
			kinds++
		}
	}
	n := 0
	for k, left := range v.unseen {
		if left == 0 || c[k] >= 4 {
			continue
		}
		kk := wall.Kind(k)
		std := near(c, kk)
		chi := chiitoi && (c[k] == 1 || (c[k] == 0 && kinds < 7))
		kok := kokushi && (kk.IsHonor() || kk.IsTerminal())
		if !std && !chi && !kok {
			continue
		}
		c[k]++
		t := riichi.ShantenStandard(c, melds)
		if chi {
			t = min(t, riichi.ShantenChiitoi(c))
		}
		if kok {
			t = min(t, riichi.ShantenKokushi(c))
		}
		if t < s {
			n += left
		}
		c[k]--
	}
	return n
}

// near reports whether c holds kind k or, for a number kind, a tile of
// its suit within two ranks.
func near(c *riichi.Counts, k wall.Kind) bool {
	if c[k] > 0 {
		return true
	}
	if k.IsHonor() {
		return false
	}
	lo := k - k%9
	for d := max(lo, k-2); d <= min(lo+8, k+2); d++ {
		if c[d] > 0 {
			return true
		}
	}
	return false
}

// scored is a candidate action with its sort keys; better() orders them.
type scored struct {
	a game.Action
	// keys are compared in order, lower first.
	keys [3]int
}

// pickBest returns the candidate with the lowest keys (lexicographic),
// ties broken by r. cands must not be empty.
func pickBest(cands []scored, r *rand.Rand) game.Action {
	var best []int
	for i := range cands {
		if len(best) == 0 {
			best = append(best, i)
			continue
		}
		switch cmpKeys(cands[i].keys, cands[best[0]].keys) {
		case -1:
			best = append(best[:0], i)
		case 0:
			best = append(best, i)
		}
	}
	return cands[best[r.IntN(len(best))]].a
}

func cmpKeys(a, b [3]int) int {
	for i := range a {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	return 0
}

// chooseDiscard picks among the plain discards of acts the one that
// leaves the lowest plan shanten, then the most ukeire, then the lowest
// tile value (tileValue). Discards of the same tile kind and redness are
// evaluated once.
func (v *view) chooseDiscard(acts []game.Action, r *rand.Rand) game.Action {
	type key struct {
		kind int
		red  bool
	}
	memo := map[key][2]int{}
	var cands []scored
	for _, a := range acts {
		if a.Type != game.Discard || a.Riichi {
			continue
		}
		kk := key{int(a.Tile.Kind()), v.reds.Has(a.Tile)}
		res, ok := memo[kk]
		if !ok {
			c := v.counts
			c[kk.kind]--
			s := v.planShanten(&c, v.melds)
			res = [2]int{s, v.ukeire(&c, v.melds, s)}
			memo[kk] = res
		}
		cands = append(cands, scored{a: a, keys: [3]int{res[0], -res[1], v.tileValue(a.Tile)}})
	}
	return pickBest(cands, r)
}

// chooseRiichi picks among the riichi discards of acts the one whose
// waits have the most unseen tiles, then the most wait kinds, then the
// lowest tile value.
func (v *view) chooseRiichi(acts []game.Action, r *rand.Rand) game.Action {
	var cands []scored
	for _, a := range acts {
		if a.Type != game.Discard || !a.Riichi {
			continue
		}
		c := v.counts
		c[a.Tile.Kind()]--
		waits := riichi.Waits(&c, len(v.melds))
		n := 0
		for _, w := range waits {
			n += v.unseen[w]
		}
		cands = append(cands, scored{a: a, keys: [3]int{-n, -len(waits), v.tileValue(a.Tile)}})
	}
	return pickBest(cands, r)
}
