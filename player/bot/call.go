package bot

import (
	"math/rand/v2"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/wall"
)

// currentShanten is the plan shanten of the seat's hand as it stands
// (13-3m tiles on an offer, 14-3m on the own turn).
func (v *view) currentShanten() int {
	c := v.counts
	return v.planShanten(&c, v.melds)
}

// afterCall returns the plan shanten of the hand after call a (chi or pon)
// and the best discard that the kuikae rule allows (Tenhou: not the
// called kind, and for a chi not the kind at the other end of the
// sequence). It returns noPlan+8 when no discard is allowed.
func (v *view) afterCall(a game.Action) int {
	c := v.counts
	for _, t := range a.Tiles {
		c[t.Kind()]--
	}
	kind := a.Tile.Kind()
	forbid := map[wall.Kind]bool{kind: true}
	first := kind
	seq := a.Type == game.Chi
	if seq {
		for _, t := range a.Tiles {
			first = min(first, t.Kind())
		}
		n := int(kind % 9)
		last := first + 2
		switch {
		case first == kind && n+3 < 9:
			forbid[kind+3] = true
		case last == kind && n-3 >= 0:
			forbid[kind-3] = true
		}
	}
	melds := append(append([]meld(nil), v.melds...), meld{kind: first, seq: seq, open: true})
	best := noPlan + 8
	for d := range c {
		if c[d] == 0 || forbid[wall.Kind(d)] {
			continue
		}
		c[d]--
		best = min(best, v.planShanten(&c, melds))
		c[d]++
	}
	return best
}

// chooseResponse answers a tile on offer: ron when legal; a daiminkan
// that keeps a yaku plan and does not raise the plan shanten (when kans
// are enabled); else the chi or pon that lowers the plan shanten most
// (pon before chi on a tie); else pass.
func (b *Bot) chooseResponse(v *view, acts []game.Action, r *rand.Rand) game.Action {
	cur := v.currentShanten()
	var cands []scored
	for _, a := range acts {
		switch a.Type {
		case game.Daiminkan:
			if !b.Kans || !b.Calls {
				continue
			}
			c := v.counts
			c[a.Tile.Kind()] -= 3
			melds := append(append([]meld(nil), v.melds...), meld{kind: a.Tile.Kind(), open: true})
			if s := v.planShanten(&c, melds); s <= cur {
				cands = append(cands, scored{a: a, keys: [3]int{-1, 0, 0}})
			}
		case game.Pon, game.Chi:
			if !b.Calls {
				continue
			}
			if s := v.afterCall(a); s < cur {
				rank := 0
				if a.Type == game.Chi {
					rank = 1
				}
				cands = append(cands, scored{a: a, keys: [3]int{s, rank, v.redUsed(a.Tiles)}})
			}
		}
	}
	if len(cands) == 0 {
		for _, a := range acts {
			if a.Type == game.Pass {
				return a
			}
		}
	}
	return pickBest(cands, r)
}

// redUsed counts the red fives of the table's rules among tiles (a call
// keeps a red five's aka dora either way; the bot still prefers to keep
// them concealed).
func (v *view) redUsed(tiles []wall.Tile) int {
	n := 0
	for _, t := range tiles {
		if v.reds.Has(t) {
			n++
		}
	}
	return n
}

// chooseKan returns the ankan or kakan among acts worth declaring, if
// any: in riichi every listed ankan (the engine lists only those that
// keep the waits); otherwise one that keeps the yaku plan without raising
// the plan shanten of the hand (compared with the best discard now).
func (b *Bot) chooseKan(v *view, acts []game.Action, inRiichi bool) (game.Action, bool) {
	if !b.Kans {
		return game.Action{}, false
	}
	cur := v.currentShanten()
	for _, a := range acts {
		switch a.Type {
		case game.Ankan:
			if inRiichi {
				return a, true
			}
			kind := a.Tiles[0].Kind()
			c := v.counts
			c[kind] -= 4
			melds := append(append([]meld(nil), v.melds...), meld{kind: kind})
			if v.planShanten(&c, melds) <= cur {
				return a, true
			}
		case game.Kakan:
			c := v.counts
			c[a.Tile.Kind()]--
			if v.planShanten(&c, v.melds) <= cur {
				return a, true
			}
		}
	}
	return game.Action{}, false
}

// yaochuuKinds counts the distinct terminal and honour kinds in c (the
// kyuushu kyuuhai count).
func yaochuuKinds(c *riichi.Counts) int {
	n := 0
	for k, x := range c {
		if kk := wall.Kind(k); x > 0 && (kk.IsHonor() || kk.IsTerminal()) {
			n++
		}
	}
	return n
}
